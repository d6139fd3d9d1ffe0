//! A game in progress in the window, for any game: seats (human or agent),
//! the engine state, the move history with undo and redo, AI turns, watching
//! controls and replays. Views read the state and these messages; they never
//! change the state themselves.

use std::borrow::Cow;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use bevy::prelude::*;
use bevy::tasks::{AsyncComputeTaskPool, Task, block_on, poll_once};
use tabula_engine::core::replay::{self, LevelSource, Replay, Seat};
use tabula_engine::core::{
    Agent, AgentSpec, GameRng, RuleError, apply_with_steps, derive_seed, rng_from_seed,
};
use tabula_engine::level::LevelFile;
use tabula_engine::{Game, Outcome, Player};

use super::Screen;
use super::frames::NextFrame;
use super::game::{ActiveGame, WindowGame, name_of};
use super::settings::{Settings, data_dir};

/// A pause after a human move before the AI answers, so it can be followed.
const MIN_AI_DELAY: f32 = 0.15;

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
pub struct Session<G: WindowGame> {
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
    /// Moves that undo may not take back: the last one showed what had been
    /// hidden, and taking it back would let a player see it and choose again.
    pub barrier: usize,
    /// Why undo stops at the barrier.
    pub barrier_reason: &'static str,
}

impl<G: WindowGame> Session<G> {
    pub fn new(plan: &SessionPlan, level: G::Level, replay_moves: Vec<G::Move>) -> Result<Self, String> {
        let game = G::new(&level, plan.seed).map_err(|e| e.message)?;
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
            barrier: 0,
            barrier_reason: "",
        })
    }

    pub fn names(&self) -> Vec<String> {
        self.seats.iter().map(|s| s.name.clone()).collect()
    }

    pub fn name_of(&self, player: Player) -> &str {
        self.seats.get(player.index()).map_or("?", |s| s.name.as_str())
    }

    /// The seat whose screen this is: the human to move, else the only
    /// human, else nobody's (a spectator, as when watching or replaying).
    pub fn screen_seat(&self) -> Option<Player> {
        if self.replay {
            return None;
        }
        // Asked several times a frame: no list is built.
        let mut humans = Player::all(self.seats.len()).filter(|&p| self.is_human(p));
        match (humans.next(), humans.next()) {
            (Some(only), None) => Some(only),
            _ => self.human_to_move(),
        }
    }

    /// What the screen shows: the observation of its seat. Boards and panels
    /// draw from this, never from the full state.
    pub fn view(&self) -> Cow<'_, G::Observation> {
        self.game.observe(self.screen_seat())
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

    /// The state after the moves played, played again from the start.
    fn rebuild(&mut self) {
        let mut game = G::new(&self.level, self.seed).expect("the level was valid when the session began");
        for &mv in &self.moves {
            game.apply(game.actor(&mv), mv).expect("a move of the history applies again");
        }
        self.game = game;
    }

    /// Takes back the last move; against an agent, back to the human's turn;
    /// never past a move the game says cannot be undone (outside replays).
    /// Returns whether anything was undone.
    pub fn undo(&mut self) -> bool {
        let mut undone = false;
        while self.replay || self.moves.len() > self.barrier {
            let Some(mv) = self.moves.pop() else { break };
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
            level: LevelSource::Inline(LevelFile::new::<G>(self.level.clone())),
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

/// The games the window shows, by name, with how to start a session of one.
#[derive(Resource, Default)]
pub struct WindowGames(pub Vec<WindowEntry>);

pub struct WindowEntry {
    pub name: &'static str,
    pub begin: fn(&mut World, SessionPlan) -> Result<(), String>,
}

impl WindowGames {
    pub fn find(&self, name: &str) -> Option<&WindowEntry> {
        self.0.iter().find(|e| e.name == name)
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
pub struct MovePreview(pub String);

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

/// A move the engine accepted, with its steps in order.
#[derive(Message, Clone, Debug)]
pub struct MoveApplied<G: Game> {
    pub by: Player,
    pub mv: G::Move,
    pub steps: Vec<G::Step>,
}

/// A move was played, in whichever game (for sounds and other listeners
/// that need not know the game).
#[derive(Message, Clone, Copy, Debug)]
pub struct MovePlayed {
    pub by: Player,
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

/// A session began on this plan (from the menu, a replay, a restart on an
/// edited level): whoever follows the level file starts from it.
#[derive(Message, Clone, Debug)]
pub struct SessionStarted(pub Box<SessionPlan>);

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
        .init_resource::<MovePreview>()
        .add_message::<MoveRefused>()
        .add_message::<MovePlayed>()
        .add_message::<GameEnded>()
        .add_message::<BoardReset>()
        .add_message::<SessionStarted>()
        .add_message::<SessionRequest>()
        .init_resource::<WindowGames>()
        .init_state::<ActiveGame>()
        .add_systems(Update, handle_requests.in_set(SessionSet::Requests))
        .add_systems(OnEnter(Screen::Menu), leave_game)
        .configure_sets(Update, (SessionSet::Requests, SessionSet::Moves, SessionSet::View).chain());
}

/// Order within a frame: requests, then moves, then what the view does.
#[derive(SystemSet, Clone, Debug, PartialEq, Eq, Hash)]
pub enum SessionSet {
    Requests,
    Moves,
    View,
}

/// The systems of one game's sessions.
pub(crate) fn game_plugin<G: WindowGame>(app: &mut App) {
    app.add_message::<RequestMove<G>>()
        .add_message::<MoveApplied<G>>()
        .add_systems(
            Update,
            (handle_session_requests::<G>, (run_agents::<G>, step_replay::<G>, apply_moves::<G>).chain())
                .chain()
                .in_set(SessionSet::Moves)
                .run_if(resource_exists::<Session<G>>),
        )
        .add_systems(OnExit(ActiveGame::of::<G>()), end_session::<G>);
}

/// Leaving a game's board ends its session.
fn end_session<G: WindowGame>(mut commands: Commands) {
    commands.remove_resource::<Session<G>>();
    commands.remove_resource::<Agents<G>>();
}

fn leave_game(mut next: ResMut<NextState<ActiveGame>>) {
    next.set(ActiveGame(None));
}

/// Starts a session on `plan`, replacing any running one.
pub fn begin(world: &mut World, plan: SessionPlan) -> Result<(), String> {
    let game = plan.level.game();
    let begin = world.resource::<WindowGames>().find(game.name()).map(|e| e.begin);
    match begin {
        Some(begin) => begin(world, plan),
        None => Err(format!("{} cannot be played in the window yet", game.title())),
    }
}

pub(crate) fn begin_game<G: WindowGame>(world: &mut World, plan: SessionPlan) -> Result<(), String> {
    let level = plan.level.get::<G>().ok_or("the level is for another game")?.clone();
    let replay_moves = match &plan.replay {
        Some(r) => replay::parse::<G::Move>(&r.text, &r.file).map_err(|e| e.to_string())?.moves,
        None => Vec::new(),
    };
    let session = Session::<G>::new(&plan, level, replay_moves)?;
    let (players, seated) = (session.game.num_players(), session.seats.len());
    if players != seated {
        return Err(format!(
            "the level has {players} players but {seated} seats were chosen; choose the seats again in the menu"
        ));
    }
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
    world.write_message(SessionStarted(Box::new(plan)));
    world.write_message(BoardReset);
    world.resource_mut::<NextState<Screen>>().into_inner().set_if_neq(Screen::Game);
    world.resource_mut::<NextState<ActiveGame>>().into_inner().set_if_neq(ActiveGame::of::<G>());
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
    let players = level.game().num_players(&level);
    let seats = (0..players)
        .map(|i| {
            let seat = header.players.get(i);
            SeatSetup {
                name: seat.map_or_else(|| settings.name(i), |s| s.name.clone()),
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

fn handle_session_requests<G: WindowGame>(
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
                } else if session.moves.is_empty() {
                    status.error("Nothing to undo");
                } else {
                    status.error(format!("Cannot undo past that move: {}", session.barrier_reason));
                }
            }
            SessionRequest::Redo => match session.redo.last().copied() {
                Some(mv) => {
                    agents.thinking = None;
                    moves.write(RequestMove { by: session.game.actor(&mv), mv });
                }
                None => status.error("Nothing to redo"),
            },
            SessionRequest::Restart => {
                agents.thinking = None;
                session.moves.clear();
                session.redo.clear();
                session.replay = false;
                session.barrier = 0;
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

fn save_replay<G: WindowGame>(session: &Session<G>) -> std::io::Result<PathBuf> {
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
fn run_agents<G: WindowGame>(
    time: Res<Time>,
    session: Res<Session<G>>,
    mut agents: ResMut<Agents<G>>,
    mut watch: ResMut<Watch>,
    busy: Res<BoardBusy>,
    settings: Res<Settings>,
    mut requests: MessageWriter<RequestMove<G>>,
    mut status: ResMut<StatusLine>,
    mut next: ResMut<NextFrame>,
) {
    let agents = &mut *agents;
    agents.cooldown -= time.delta_secs();
    if let Some(task) = agents.thinking.as_mut() {
        // Frames go on while it thinks, so its answer is taken at once.
        next.ask();
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
    if session.replay || session.game.outcome().is_some() || (watch.paused && !watch.step) {
        return;
    }
    // An agent is to move: frames go on through its pause and the board's.
    next.ask();
    if busy.0 > 0 || agents.cooldown > 0.0 {
        return;
    }
    watch.step = false;
    agents.cooldown = (1.0 / settings.ai_moves_per_second).max(MIN_AI_DELAY);
    // The agent sees what its seat sees, nothing more.
    let observation = session.game.observe(Some(to_move)).into_owned();
    let (agent, rng) = (agent.clone(), agents.rng.clone());
    agents.thinking = Some(AsyncComputeTaskPool::get().spawn(async move {
        let mut agent = agent.lock().expect("agent lock");
        let mut rng = rng.lock().expect("rng lock");
        agent.choose(to_move, &observation, &mut rng)
    }));
}

/// Plays a replay forward on its own when not paused.
fn step_replay<G: WindowGame>(
    session: Res<Session<G>>,
    mut agents: ResMut<Agents<G>>,
    mut watch: ResMut<Watch>,
    busy: Res<BoardBusy>,
    settings: Res<Settings>,
    mut requests: MessageWriter<RequestMove<G>>,
    mut next: ResMut<NextFrame>,
) {
    if !session.replay || busy.0 > 0 {
        return;
    }
    let Some(&mv) = session.redo.last() else { return };
    if watch.step {
        watch.step = false;
    } else if watch.paused {
        return;
    } else if agents.cooldown > 0.0 {
        next.ask();
        return;
    }
    agents.cooldown = 1.0 / settings.ai_moves_per_second;
    requests.write(RequestMove { by: session.game.actor(&mv), mv });
}

/// Hands every requested move to the engine, which decides whether that
/// seat may make it, and reports what happened.
fn apply_moves<G: WindowGame>(
    mut requests: MessageReader<RequestMove<G>>,
    mut session: ResMut<Session<G>>,
    mut agents: ResMut<Agents<G>>,
    mut applied: MessageWriter<MoveApplied<G>>,
    mut played: MessageWriter<MovePlayed>,
    mut refused: MessageWriter<MoveRefused>,
    mut ended: MessageWriter<GameEnded>,
    mut status: ResMut<StatusLine>,
) {
    let mut queue: std::collections::VecDeque<(Player, G::Move)> =
        requests.read().map(|r| (r.by, r.mv)).collect();
    while let Some((by, mv)) = queue.pop_front() {
        match apply_with_steps(&mut session.game, by, mv) {
            Ok((_, steps)) => {
                // A choice an agent is still making was for the state before.
                agents.thinking = None;
                // A move that matches the next undone one keeps the rest of
                // the redo list; any other move starts a new line of play.
                if session.redo.last() == Some(&mv) {
                    session.redo.pop();
                } else {
                    session.redo.clear();
                }
                session.moves.push(mv);
                if let Some(reason) = steps.iter().find_map(G::cannot_undo) {
                    session.barrier = session.moves.len();
                    session.barrier_reason = reason;
                }
                let note = G::step_note(&steps).map(|n| format!(" ({n})")).unwrap_or_default();
                status.info(format!("{}: {mv}{note}", session.name_of(by)));
                applied.write(MoveApplied { by, mv, steps });
                played.write(MovePlayed { by });
                if let Some(outcome) = session.game.outcome() {
                    let text = G::outcome_text(&session.view(), &session.names());
                    status.info(text.clone());
                    ended.write(GameEnded { outcome, text });
                } else if G::INTERJECTIONS
                    && !session.replay
                    && let Some(interjection) = interjection(&session, &agents)
                {
                    // Before anything else: the chance is right after the move.
                    queue.push_front(interjection);
                }
            }
            Err(e) => {
                let reason = match e.not_your_turn() {
                    Some(turn) => format!("it is {}'s turn", name_of(&session.names(), turn.to_move)),
                    None => e.to_string(),
                };
                status.error(format!("Refused: {reason}"));
                refused.write(MoveRefused { by, reason });
            }
        }
    }
}

/// The move an agent seat not to move makes right after a move (a Stop),
/// if any wants to.
fn interjection<G: WindowGame>(session: &Session<G>, agents: &Agents<G>) -> Option<(Player, G::Move)> {
    let mover = session.game.current_player();
    let mut open = Vec::new();
    for seat in Player::all(session.seats.len()).filter(|&s| s != mover) {
        open.clear();
        session.game.legal_moves(seat, &mut open);
        let Some(Some(agent)) = agents.seats.get(seat.index()) else { continue };
        if open.is_empty() {
            continue;
        }
        let Ok(mut agent) = agent.try_lock() else { continue };
        // Its own stream, so that a game depends only on its seed and moves.
        let mut rng = rng_from_seed(derive_seed(session.seed, u64::MAX - session.moves.len() as u64));
        if let Some(mv) = agent.interject(seat, &session.game.observe(Some(seat)), &mut rng) {
            return Some((seat, mv));
        }
    }
    None
}
