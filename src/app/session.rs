//! A game in progress in the window, for any game: seats (human or agent),
//! the engine state, the move history with undo and redo, AI turns, watching
//! controls and replays. Views read the state and these messages; they never
//! change the state themselves.

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use bevy::prelude::*;
use bevy::tasks::{AsyncComputeTaskPool, Task, block_on, poll_once};
use tabula_engine::core::replay::{self, LevelSource, Replay, Seat};
use tabula_engine::core::{Agent, AgentRegistry, AgentSpec, GameRng, derive_seed, rng_from_seed};
use tabula_engine::level::{GameKind, LevelFile};
use tabula_engine::mancala::Mancala;
use tabula_engine::nim::Nim;
use tabula_engine::{Game, Outcome, Player};

use super::Screen;
use super::settings::{Settings, data_dir};

/// A pause after a human move before the AI answers, so it can be followed.
const MIN_AI_DELAY: f32 = 0.15;

/// What the window needs from a game beyond its rules.
pub trait SessionGame: AgentRegistry {
    const KIND: GameKind;
    fn level_of(file: &LevelFile) -> Option<&Self::Level>;
    fn wrap_level(level: Self::Level) -> LevelFile;
    /// The level's name and rule options in a line.
    fn rules_text(&self) -> String;
    /// Why the game ended, with the seats' names.
    fn outcome_text(&self, names: &[String]) -> String;
    /// How a human plays this board, for the help line.
    const CONTROLS: &'static str;
    /// What a move did beyond the move itself ("extra turn"), if anything.
    fn effect_note(_effects: &Self::Effects) -> Option<String> {
        None
    }
}

/// Who plays a seat.
#[derive(Clone, Debug, PartialEq)]
pub enum Controller {
    Human,
    Agent(AgentSpec),
}

impl Controller {
    pub fn label(&self) -> String {
        match self {
            Controller::Human => "human".into(),
            Controller::Agent(spec) => spec.to_string(),
        }
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct SeatSetup {
    pub name: String,
    pub controller: Controller,
}

/// Everything needed to start a session: from the menu, a replay or a reload.
#[derive(Clone, Debug)]
pub struct SessionPlan {
    pub level_path: Option<PathBuf>,
    pub level: LevelFile,
    pub seats: Vec<SeatSetup>,
    pub seed: u64,
    /// Moves of a replay to step through (the session then takes no new moves).
    pub replay: Option<ReplayMoves>,
}

/// A replay's moves, still in the file's form until the game is known.
#[derive(Clone, Debug)]
pub struct ReplayMoves {
    pub text: String,
    pub file: String,
}

/// The game in progress.
#[derive(Resource)]
pub struct Session<G: SessionGame> {
    pub level_path: Option<PathBuf>,
    pub level: G::Level,
    /// The level's name, for the top bar.
    pub level_name: String,
    pub seed: u64,
    pub seats: Vec<SeatSetup>,
    pub game: G,
    /// Moves played so far, in order.
    pub moves: Vec<G::Move>,
    /// Moves undone (or still ahead in a replay); the last is the next one.
    pub redo: Vec<G::Move>,
    /// Stepping through a replay: no new moves are taken.
    pub replay: bool,
}

impl<G: SessionGame> Session<G> {
    pub fn new(plan: &SessionPlan, level: G::Level, replay_moves: Vec<G::Move>) -> Result<Self, String> {
        let game = G::new(&level, plan.seed).map_err(|e| e.0)?;
        let mut redo = replay_moves;
        redo.reverse();
        Ok(Session {
            level_path: plan.level_path.clone(),
            level_name: plan.level.name().to_owned(),
            level,
            seed: plan.seed,
            seats: plan.seats.clone(),
            game,
            moves: Vec::new(),
            redo,
            replay: plan.replay.is_some(),
        })
    }

    pub fn names(&self) -> Vec<String> {
        self.seats.iter().map(|s| s.name.clone()).collect()
    }

    pub fn name_of(&self, player: Player) -> &str {
        self.seats.get(player.index()).map_or("?", |s| s.name.as_str())
    }

    pub fn is_human(&self, player: Player) -> bool {
        self.seats.get(player.index()).is_some_and(|s| s.controller == Controller::Human)
    }

    /// The human seat that is to move, if any (none in a replay or once the
    /// game is over).
    pub fn human_to_move(&self) -> Option<Player> {
        let to_move = self.game.current_player();
        (!self.replay && self.game.outcome().is_none() && self.is_human(to_move)).then_some(to_move)
    }

    /// Who a request from the board is made for: the human to move, else the
    /// first human seat (so the engine can say it is not their turn).
    pub fn requester(&self) -> Option<Player> {
        self.human_to_move()
            .or_else(|| (0..self.seats.len()).map(|i| Player(i as u8)).find(|&p| self.is_human(p)))
    }

    pub fn has_human(&self) -> bool {
        self.seats.iter().any(|s| s.controller == Controller::Human)
    }

    /// The state after the first `n` moves, played again from the start.
    fn rebuild(&mut self) {
        let mut game = G::new(&self.level, self.seed).expect("the level was valid when the session began");
        for &mv in &self.moves {
            game.apply(mv).expect("a move of the history applies again");
        }
        self.game = game;
    }

    /// Takes back the last move; against an agent, back to the human's turn.
    /// Returns whether anything was undone.
    pub fn undo(&mut self) -> bool {
        let mut undone = false;
        while let Some(mv) = self.moves.pop() {
            self.redo.push(mv);
            undone = true;
            self.rebuild();
            if self.replay || !self.has_human() || self.is_human(self.game.current_player()) {
                break;
            }
        }
        undone
    }

    /// The replay of this session so far, level inline so later edits of the
    /// level file cannot break it.
    pub fn to_replay(&self) -> Replay<G::Move> {
        Replay {
            level: LevelSource::Inline(G::wrap_level(self.level.clone())),
            seed: self.seed,
            players: self
                .seats
                .iter()
                .map(|s| Seat { name: s.name.clone(), agent: s.controller.label() })
                .collect(),
            moves: self.moves.clone(),
        }
    }
}

/// The agents of the seats that have one, shared with the thinking task.
#[derive(Resource)]
pub struct Agents<G: Game> {
    seats: Vec<Option<Arc<Mutex<Box<dyn Agent<G>>>>>>,
    rng: Arc<Mutex<GameRng>>,
    thinking: Option<Task<Option<G::Move>>>,
    /// Seconds until the next agent may move.
    cooldown: f32,
}

impl<G: Game> Agents<G> {
    /// Each seat's agent's note on its last choice (none for humans, or while
    /// the agent is thinking).
    pub fn notes(&self) -> Vec<Option<String>> {
        self.seats
            .iter()
            .map(|seat| seat.as_ref().and_then(|a| a.try_lock().ok()).and_then(|a| a.note()))
            .collect()
    }
}

/// Watching controls.
#[derive(Resource, Debug, Default)]
pub struct Watch {
    pub paused: bool,
    /// Play one move although paused.
    pub step: bool,
}

/// Animations still running on the board; agents and replays wait for them.
#[derive(Resource, Debug, Default)]
pub struct BoardBusy(pub u32);

/// What the board says the player's current choice would do.
#[derive(Resource, Debug, Default, Clone)]
pub struct BoardHint(pub String);

/// A line shown at the bottom of the screen.
#[derive(Resource, Debug, Default, Clone)]
pub struct StatusLine {
    pub text: String,
    pub error: bool,
}

impl StatusLine {
    pub fn info(&mut self, text: impl Into<String>) {
        self.text = text.into();
        self.error = false;
    }

    pub fn error(&mut self, text: impl Into<String>) {
        self.text = text.into();
        self.error = true;
    }
}

/// Ask for a move. The session checks it with the engine.
#[derive(Message, Clone, Debug)]
pub struct RequestMove<G: Game> {
    pub by: Player,
    pub mv: G::Move,
}

/// A move the engine accepted, with what it did.
#[derive(Message, Clone, Debug)]
pub struct MoveApplied<G: Game> {
    pub by: Player,
    pub mv: G::Move,
    pub effects: G::Effects,
}

/// A move the engine refused; the state is unchanged.
#[derive(Message, Clone, Debug)]
pub struct MoveRefused {
    pub by: Player,
    pub reason: String,
}

#[derive(Message, Clone, Debug)]
pub struct GameEnded {
    pub outcome: Outcome,
    pub text: String,
}

/// The state changed other than by one move (start, undo, reload): views
/// rebuild their entities from it.
#[derive(Message, Clone, Debug, Default)]
pub struct BoardReset;

/// Requests from the HUD and the keyboard.
#[derive(Message, Clone, Debug)]
pub enum SessionRequest {
    Undo,
    Redo,
    TogglePause,
    Step,
    Restart,
    SaveReplay,
    OpenReplay(PathBuf),
    Start(Box<SessionPlan>),
    BackToMenu,
}

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<Watch>()
        .init_resource::<BoardBusy>()
        .init_resource::<StatusLine>()
        .init_resource::<BoardHint>()
        .add_message::<MoveRefused>()
        .add_message::<GameEnded>()
        .add_message::<BoardReset>()
        .add_message::<SessionRequest>()
        .add_systems(Update, handle_requests.in_set(SessionSet::Requests))
        .add_systems(OnEnter(Screen::Menu), end_sessions)
        .configure_sets(Update, (SessionSet::Requests, SessionSet::Moves, SessionSet::View).chain())
        .add_plugins((game_plugin::<Nim>, game_plugin::<Mancala>));
}

/// Order within a frame: requests, then moves, then what the view does.
#[derive(SystemSet, Clone, Debug, PartialEq, Eq, Hash)]
pub enum SessionSet {
    Requests,
    Moves,
    View,
}

/// The systems of one game's sessions.
fn game_plugin<G: SessionGame>(app: &mut App) {
    app.add_message::<RequestMove<G>>().add_message::<MoveApplied<G>>().add_systems(
        Update,
        (handle_session_requests::<G>, (run_agents::<G>, step_replay::<G>, apply_moves::<G>).chain())
            .chain()
            .in_set(SessionSet::Moves)
            .run_if(resource_exists::<Session<G>>),
    );
}

fn end_sessions(mut commands: Commands) {
    commands.remove_resource::<Session<Nim>>();
    commands.remove_resource::<Agents<Nim>>();
    commands.remove_resource::<Session<Mancala>>();
    commands.remove_resource::<Agents<Mancala>>();
}

/// Starts a session on `plan`, replacing any running one.
pub fn begin(world: &mut World, plan: SessionPlan) -> Result<(), String> {
    match plan.level.kind() {
        GameKind::Nim => begin_game::<Nim>(world, plan),
        GameKind::Mancala => begin_game::<Mancala>(world, plan),
        other => Err(format!("{} is not built yet", other.title())),
    }
}

fn begin_game<G: SessionGame>(world: &mut World, plan: SessionPlan) -> Result<(), String> {
    let level = G::level_of(&plan.level).ok_or("the level is for another game")?.clone();
    let replay_moves = match &plan.replay {
        Some(r) => replay::parse::<G::Move>(&r.text, &r.file).map_err(|e| e.to_string())?.moves,
        None => Vec::new(),
    };
    let session = Session::<G>::new(&plan, level, replay_moves)?;
    // Only one game's session at a time.
    world.remove_resource::<Session<Nim>>();
    world.remove_resource::<Session<Mancala>>();
    let mut seats = Vec::new();
    for seat in &session.seats {
        seats.push(match &seat.controller {
            Controller::Human => None,
            Controller::Agent(spec) => {
                Some(Arc::new(Mutex::new(G::build_agent(spec).map_err(|e| e.to_string())?)))
            }
        });
    }
    let rng = Arc::new(Mutex::new(rng_from_seed(derive_seed(plan.seed, 1))));
    let replay = session.replay;
    world.insert_resource(Agents::<G> { seats, rng, thinking: None, cooldown: 0.5 });
    world.insert_resource(session);
    world.insert_resource(Watch { paused: replay, step: false });
    world.resource_mut::<StatusLine>().info(if replay {
        "Replay loaded: step with . and , or press Space to play"
    } else {
        "New game"
    });
    if let Some(mut watch) = world.get_resource_mut::<super::hot_reload::LevelWatch>() {
        watch.follow(&plan);
    }
    world.write_message(BoardReset);
    world.resource_mut::<NextState<Screen>>().into_inner().set_if_neq(Screen::Game);
    Ok(())
}

/// Requests that do not need to know the game.
fn handle_requests(
    mut commands: Commands,
    mut requests: MessageReader<SessionRequest>,
    mut watch: ResMut<Watch>,
    mut next: ResMut<NextState<Screen>>,
) {
    for request in requests.read() {
        match request {
            SessionRequest::TogglePause => watch.paused = !watch.paused,
            SessionRequest::Step => {
                watch.paused = true;
                watch.step = true;
            }
            SessionRequest::Start(plan) => {
                let plan = (**plan).clone();
                commands.queue(move |world: &mut World| {
                    if let Err(e) = begin(world, plan) {
                        world.resource_mut::<StatusLine>().error(format!("Cannot start: {e}"));
                    }
                });
            }
            SessionRequest::OpenReplay(path) => {
                let path = path.clone();
                commands.queue(move |world: &mut World| {
                    let settings = world.resource::<Settings>().clone();
                    let result = plan_from_replay(&path, &settings).and_then(|plan| begin(world, plan));
                    if let Err(e) = result {
                        world.resource_mut::<StatusLine>().error(format!("Cannot open the replay: {e}"));
                    }
                });
            }
            SessionRequest::BackToMenu => next.set(Screen::Menu),
            _ => {}
        }
    }
}

/// Reads a replay file into a plan that steps through it.
pub fn plan_from_replay(path: &Path, settings: &Settings) -> Result<SessionPlan, String> {
    let file = path.display().to_string();
    let text = std::fs::read_to_string(path).map_err(|e| format!("{file}: {e}"))?;
    let header = replay::parse_header(&text, &file).map_err(|e| e.to_string())?;
    let level = header.level.resolve(path.parent()).map_err(|e| e.to_string())?;
    let seats = (0..2)
        .map(|i| {
            let seat = header.players.get(i);
            SeatSetup {
                name: seat.map_or_else(|| settings.names[i].clone(), |s| s.name.clone()),
                controller: Controller::Human,
            }
        })
        .collect();
    Ok(SessionPlan {
        level_path: None,
        level,
        seats,
        seed: header.seed,
        replay: Some(ReplayMoves { text, file }),
    })
}

fn handle_session_requests<G: SessionGame>(
    mut requests: MessageReader<SessionRequest>,
    mut session: ResMut<Session<G>>,
    mut agents: ResMut<Agents<G>>,
    mut watch: ResMut<Watch>,
    mut status: ResMut<StatusLine>,
    mut resets: MessageWriter<BoardReset>,
    mut moves: MessageWriter<RequestMove<G>>,
) {
    for request in requests.read() {
        match request {
            SessionRequest::Undo => {
                agents.thinking = None;
                if session.undo() {
                    if !session.has_human() {
                        watch.paused = true;
                    }
                    status.info("Move taken back");
                    resets.write(BoardReset);
                } else {
                    status.error("Nothing to undo");
                }
            }
            SessionRequest::Redo => match session.redo.last().copied() {
                Some(mv) => {
                    agents.thinking = None;
                    moves.write(RequestMove { by: session.game.current_player(), mv });
                }
                None => status.error("Nothing to redo"),
            },
            SessionRequest::Restart => {
                agents.thinking = None;
                session.moves.clear();
                session.redo.clear();
                session.replay = false;
                session.rebuild();
                watch.paused = false;
                status.info("New game");
                resets.write(BoardReset);
            }
            SessionRequest::SaveReplay => match save_replay(&session) {
                Ok(path) => status.info(format!("Replay saved to {}", path.display())),
                Err(e) => status.error(format!("Cannot save the replay: {e}")),
            },
            _ => {}
        }
    }
}

fn save_replay<G: SessionGame>(session: &Session<G>) -> std::io::Result<PathBuf> {
    let stamp = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_secs());
    let stem = session
        .level_path
        .as_ref()
        .and_then(|p| p.file_stem())
        .map_or_else(|| G::NAME.to_lowercase(), |s| s.to_string_lossy().into_owned());
    let path = replays_dir().join(format!("{stem}-{stamp}.ron"));
    session.to_replay().save(&path)?;
    Ok(path)
}

/// Where the window saves replays.
pub fn replays_dir() -> PathBuf {
    data_dir().join("replays")
}

/// The agent to move thinks on another thread; its move comes back as a
/// request like a human's.
fn run_agents<G: SessionGame>(
    time: Res<Time>,
    session: Res<Session<G>>,
    mut agents: ResMut<Agents<G>>,
    mut watch: ResMut<Watch>,
    busy: Res<BoardBusy>,
    settings: Res<Settings>,
    mut requests: MessageWriter<RequestMove<G>>,
    mut status: ResMut<StatusLine>,
) {
    let agents = &mut *agents;
    agents.cooldown -= time.delta_secs();
    if let Some(task) = agents.thinking.as_mut() {
        if let Some(answer) = block_on(poll_once(task)) {
            agents.thinking = None;
            match answer {
                Some(mv) => {
                    requests.write(RequestMove { by: session.game.current_player(), mv });
                }
                None => status.error("The agent found no move"),
            }
        }
        return;
    }
    let to_move = session.game.current_player();
    let Some(Some(agent)) = agents.seats.get(to_move.index()) else { return };
    if session.replay || session.game.outcome().is_some() || busy.0 > 0 || agents.cooldown > 0.0 {
        return;
    }
    if watch.paused && !watch.step {
        return;
    }
    watch.step = false;
    agents.cooldown = (1.0 / settings.ai_moves_per_second).max(MIN_AI_DELAY);
    let game = session.game.clone();
    let (agent, rng) = (agent.clone(), agents.rng.clone());
    agents.thinking = Some(AsyncComputeTaskPool::get().spawn(async move {
        let mut agent = agent.lock().expect("agent lock");
        let mut rng = rng.lock().expect("rng lock");
        agent.choose(&game.view(to_move), &mut rng)
    }));
}

/// Plays a replay forward on its own when not paused.
fn step_replay<G: SessionGame>(
    session: Res<Session<G>>,
    mut agents: ResMut<Agents<G>>,
    mut watch: ResMut<Watch>,
    busy: Res<BoardBusy>,
    settings: Res<Settings>,
    mut requests: MessageWriter<RequestMove<G>>,
) {
    if !session.replay || busy.0 > 0 {
        return;
    }
    let Some(&mv) = session.redo.last() else { return };
    if watch.step {
        watch.step = false;
    } else if watch.paused || agents.cooldown > 0.0 {
        return;
    }
    agents.cooldown = 1.0 / settings.ai_moves_per_second;
    requests.write(RequestMove { by: session.game.current_player(), mv });
}

/// Hands every requested move to the engine and reports what happened.
fn apply_moves<G: SessionGame>(
    mut requests: MessageReader<RequestMove<G>>,
    mut session: ResMut<Session<G>>,
    mut applied: MessageWriter<MoveApplied<G>>,
    mut refused: MessageWriter<MoveRefused>,
    mut ended: MessageWriter<GameEnded>,
    mut status: ResMut<StatusLine>,
) {
    for &RequestMove { by, mv } in requests.read() {
        if session.game.outcome().is_none() && by != session.game.current_player() {
            let reason = format!("it is {}'s turn", session.name_of(session.game.current_player()));
            status.error(format!("Refused: {reason}"));
            refused.write(MoveRefused { by, reason });
            continue;
        }
        match session.game.apply(mv) {
            Ok(effects) => {
                // A move that matches the next undone one keeps the rest of
                // the redo list; any other move starts a new line of play.
                if session.redo.last() == Some(&mv) {
                    session.redo.pop();
                } else {
                    session.redo.clear();
                }
                session.moves.push(mv);
                let note = G::effect_note(&effects).map(|n| format!(" ({n})")).unwrap_or_default();
                status.info(format!("{}: {mv}{note}", session.name_of(by)));
                applied.write(MoveApplied { by, mv, effects });
                if let Some(outcome) = session.game.outcome() {
                    let text = session.game.outcome_text(&session.names());
                    status.info(text.clone());
                    ended.write(GameEnded { outcome, text });
                }
            }
            Err(e) => {
                status.error(format!("Refused: {e}"));
                refused.write(MoveRefused { by, reason: e.to_string() });
            }
        }
    }
}

impl SessionGame for Nim {
    const KIND: GameKind = GameKind::Nim;
    const CONTROLS: &'static str = "Click a stone to choose it and every stone to its right; click again or press Enter to take. \
        Keys: Up/Down pile · Left/Right or digits count · Enter take";

    fn level_of(file: &LevelFile) -> Option<&Self::Level> {
        match file {
            LevelFile::Nim(l) => Some(l),
            _ => None,
        }
    }

    fn wrap_level(level: Self::Level) -> LevelFile {
        LevelFile::Nim(level)
    }

    fn rules_text(&self) -> String {
        self.ending().describe().to_owned()
    }

    fn outcome_text(&self, names: &[String]) -> String {
        let Some(Outcome::Win(winner)) = self.outcome() else { return "A draw".into() };
        let loser = winner.next(2);
        let name = |p: Player| names.get(p.index()).cloned().unwrap_or_else(|| p.to_string());
        match self.ending() {
            tabula_engine::nim::Ending::Misere => {
                format!("{} wins: {} took the last stone (misère)", name(winner), name(loser))
            }
            tabula_engine::nim::Ending::Normal => {
                format!("{} wins by taking the last stone (normal play)", name(winner))
            }
        }
    }
}

impl SessionGame for Mancala {
    const KIND: GameKind = GameKind::Mancala;
    const CONTROLS: &'static str = "Hover one of your pits to see where its last stone lands; click to sow. Keys: Left/Right or digits pit · Enter sow";

    fn level_of(file: &LevelFile) -> Option<&Self::Level> {
        match file {
            LevelFile::Mancala(l) => Some(l),
            _ => None,
        }
    }

    fn wrap_level(level: Self::Level) -> LevelFile {
        LevelFile::Mancala(level)
    }

    fn rules_text(&self) -> String {
        super::mancala_view::rules_line(self.capture_rule(), self.sweeps())
    }

    fn effect_note(fx: &Self::Effects) -> Option<String> {
        let mut notes = Vec::new();
        if fx.extra_turn {
            notes.push("extra turn".to_owned());
        }
        if fx.captured > 0 {
            notes.push(format!("captured {}", fx.captured));
        }
        if fx.swept {
            notes.push("the rest swept to the stores".to_owned());
        }
        (!notes.is_empty()).then(|| notes.join(", "))
    }

    fn outcome_text(&self, names: &[String]) -> String {
        let name = |p: Player| names.get(p.index()).cloned().unwrap_or_else(|| p.to_string());
        let (a, b) = (self.store(Player::ONE), self.store(Player::TWO));
        match self.outcome() {
            Some(Outcome::Win(p)) => {
                let (w, l) = if p == Player::ONE { (a, b) } else { (b, a) };
                format!("{} wins, {w} stones to {l}", name(p))
            }
            Some(Outcome::Draw) if a == b => format!("A draw, {a} stones each"),
            Some(Outcome::Draw) => format!("A draw: the move cap was reached at {a} to {b}"),
            None => String::new(),
        }
    }
}
