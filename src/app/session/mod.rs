//! A game in progress in the window, for any game: seats (human or agent),
//! the engine state, the move history with undo and redo, AI turns, watching
//! controls and replays. Views read the state and these messages; they never
//! change the state themselves.
//!
//! This file holds the session and the order of a frame; `messages` the
//! requests and facts it exchanges, `start` how a session begins and what
//! the panels ask of it, `status` what the board and the panels share
//! about it, `moves` the engine's answer to a request, `turns`
//! whose turn it is, `history` restarts, undo and stepping through the
//! moves, `agents` the seats an agent plays, `kind` what kind of session
//! it is and what that lets the screens offer, `at_server` a session at a
//! game server's table, `replays` saving
//! and stepping through replays, `words` the moves in words for the log.

mod agents;
mod at_server;
mod history;
mod kind;
mod messages;
mod moves;
mod replays;
mod sitting;
mod start;
mod status;
mod turns;
mod words;

use std::borrow::Cow;
use std::path::PathBuf;

use bevy::prelude::*;
use tabula_engine::core::AgentSpec;
use tabula_engine::level::LevelFile;
use tabula_engine::replay::{LevelSource, Replay, Seat};
use tabula_engine::{Outcome, Player};

use super::game::{ActiveGame, WindowGame};
use super::screen::Screen;

pub use agents::Agents;
pub use at_server::{Connection, TableLine, TableNews};
pub use history::{dealt_like, seed_now};
pub use kind::SessionKind;
pub use messages::*;
pub use replays::{
    ReplayMoves, ReplaysFolder, newest_first, plan_from_replay, replays_dir, save_heard_replay,
};
pub use sitting::Sitting;
pub use start::begin;
pub use start::{WindowEntry, WindowGames};
pub(crate) use start::{begin_game, install};
pub use status::{BoardBusy, GameInProgress, Headline, MovePreview, StatusLine, Watch};
pub use turns::{MoveChoice, Turn, choice_expires};

/// Who plays a seat.
#[derive(Clone, Debug, PartialEq)]
pub enum Controller {
    Human,
    Agent(AgentSpec),
    /// Played at another screen, through a game server: a person elsewhere,
    /// or the server's agent (named in the seat's name).
    Online,
}

impl Controller {
    pub fn label(&self) -> String {
        match self {
            Controller::Human => "human".into(),
            Controller::Agent(spec) => spec.to_string(),
            Controller::Online => "online".into(),
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
    /// Each game is on a new board dealt like `level` from the seed.
    pub deal: bool,
}

/// A level to open at once instead of the menu (`tabula play <level>`),
/// or a replay to step through (`tabula play <replay>`).
#[derive(Resource, Clone, Debug)]
pub struct StartLevel {
    pub path: PathBuf,
    /// Who plays each seat; a seat left out or `None` keeps the default: a
    /// person in seat 1, the game's default agent in the others.
    pub seats: Vec<Option<Controller>>,
    /// The file is a replay, whose seats are its own.
    pub replay: bool,
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
    /// The game before its first move, which undo and stepping play from.
    start: G,
    /// Moves played so far, in order.
    pub moves: Vec<G::Move>,
    /// Who made each of them.
    pub movers: Vec<Player>,
    /// Moves undone (or still ahead in a replay); the last is the next one.
    pub redo: Vec<G::Move>,
    /// Each move of the line of play (the moves, then the redo list's,
    /// nearest first) in words, as said when it was played: a move's words
    /// may name what only the position before it shows (a card's face).
    said: Vec<String>,
    /// Played here, a replay stepped through, or a server's table: what
    /// the screens may offer depends on it, and only on it.
    pub kind: SessionKind,
    /// Moves that undo may not take back: the last one showed what had been
    /// hidden, and taking it back would let a player see it and choose again.
    pub barrier: usize,
    /// Why undo stops at the barrier.
    pub barrier_reason: &'static str,
    /// The level deals by chance (a shuffle, hidden homes): another seed
    /// starts another game, so "Restart this deal" means something.
    pub deals: bool,
    /// The replay file last saved, and the game it holds: saving the same
    /// game again says where it is; any other (a new deal, another line of
    /// moves) is saved anew.
    pub saved: Option<(SavedGame<G>, PathBuf)>,
    /// How a game ended off the board, as a game server called it (a
    /// resignation, a flag): the rules alone would play on.
    pub called: Option<Outcome>,
    /// The level each game's board is dealt like (`SessionPlan::deal`).
    pub dealt_from: Option<G::Level>,
}

/// What a saved replay holds of a session: its deal (the seed) and its moves.
pub type SavedGame<G> = (u64, Vec<<G as tabula_engine::core::Game>::Move>);

impl<G: WindowGame> Session<G> {
    /// The game as a replay saved now would hold it.
    pub fn as_saved(&self) -> SavedGame<G> {
        (self.seed, self.moves.clone())
    }

    /// The replay file this game is saved in as it stands, if it is.
    pub fn saved_as(&self) -> Option<&std::path::Path> {
        self.saved
            .as_ref()
            .filter(|(game, _)| game.0 == self.seed && game.1 == self.moves)
            .map(|(_, p)| p.as_path())
    }

    /// A session on `level`; a replay's moves are checked, each by the
    /// engine from the start, and refused with the file, the move's number
    /// and the rule it breaks.
    pub fn new(plan: &SessionPlan, level: G::Level) -> Result<Self, String> {
        let (level, dealt_from) = match plan.deal {
            true => (history::dealt_like::<G>(&level, plan.seed)?, Some(level)),
            false => (level, None),
        };
        let game = G::new(&level, plan.seed).map_err(|e| e.message)?;
        let mut redo = match &plan.replay {
            Some(replay) => replays::checked_moves::<G>(replay, &level)?,
            None => Vec::new(),
        };
        let said = words::said_of(&game, &level, &redo);
        redo.reverse();
        // Games are compared by their debug text: no game needs to know
        // whether its start depends on the seed.
        let other = G::new(&level, plan.seed ^ 0x9e37_79b9_7f4a_7c15).map_err(|e| e.message)?;
        let deals = format!("{game:?}") != format!("{other:?}");
        let kind = if plan.replay.is_some() { SessionKind::Replay } else { SessionKind::Local };
        let mut session = Session::open(kind, level, plan.seats.clone(), game);
        session.level_path = plan.level_path.clone();
        session.seed = plan.seed;
        session.redo = redo;
        session.said = said;
        session.deals = deals || dealt_from.is_some();
        session.dealt_from = dealt_from;
        Ok(session)
    }

    /// The one way every kind of session begins: `game` at its start, no
    /// move played, nothing saved; the constructors fill in the rest.
    fn open(kind: SessionKind, level: G::Level, seats: Vec<SeatSetup>, game: G) -> Self {
        Session {
            level_path: None,
            level_name: tabula_engine::core::Level::name(&level).to_owned(),
            level,
            seed: 0,
            seats,
            start: game.clone(),
            game,
            moves: Vec::new(),
            movers: Vec::new(),
            redo: Vec::new(),
            said: Vec::new(),
            kind,
            barrier: 0,
            barrier_reason: "",
            deals: false,
            saved: None,
            called: None,
            dealt_from: None,
        }
    }

    /// The game before its first move.
    pub fn start(&self) -> &G {
        &self.start
    }

    /// How the game ended: by its rules, or as a server called it.
    pub fn outcome(&self) -> Option<Outcome> {
        self.game.outcome().or(self.called)
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
        if self.kind.steps_through() {
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
        (!self.kind.steps_through() && self.outcome().is_none() && self.is_human(to_move)).then_some(to_move)
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

pub(super) fn plugin(app: &mut App) {
    app.world_mut().get_resource_or_init::<ReplaysFolder>();
    app.init_resource::<Watch>()
        .init_resource::<BoardBusy>()
        .init_resource::<StatusLine>()
        .init_resource::<MovePreview>()
        .init_resource::<Headline>()
        .init_resource::<Sitting>()
        .init_resource::<GameInProgress>()
        .init_resource::<SessionKind>()
        .init_resource::<TableNews>()
        .add_message::<MoveRefused>()
        .add_message::<MovePlayed>()
        .add_message::<GameEnded>()
        .add_message::<BoardReset>()
        .add_message::<SessionStarted>()
        .add_message::<SessionRequest>()
        .init_resource::<WindowGames>()
        .init_state::<ActiveGame>()
        .init_resource::<Turn>()
        .add_message::<TurnChanged>()
        .add_systems(Update, start::handle_requests.in_set(SessionSet::Requests))
        .add_systems(Update, turns::change_turn.after(SessionSet::Moves).before(SessionSet::View))
        .add_systems(OnEnter(Screen::Menu), leave_game)
        .add_systems(OnExit(Screen::Game), forget_the_game_s_status)
        .add_systems(OnEnter(Screen::Editor), leave_game)
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
            (
                start::handle_session_requests::<G>.run_if(played_here::<G>),
                (agents::run_agents::<G>, replays::step_replay::<G>, moves::apply_moves::<G>)
                    .chain()
                    .run_if(played_here::<G>),
                turns::announce_turn::<G>,
                mark_in_progress::<G>,
            )
                .chain()
                .in_set(SessionSet::Moves)
                .run_if(resource_exists::<Session<G>>),
        )
        .add_systems(
            Update,
            agents::wake_agents::<G>
                .after(turns::change_turn)
                .before(SessionSet::View)
                .run_if(resource_exists::<Session<G>>),
        )
        .add_systems(
            Update,
            kind::keep_kind::<G>.in_set(SessionSet::View).run_if(resource_exists::<Session<G>>),
        )
        .add_systems(OnExit(ActiveGame::of::<G>()), end_session::<G>);
}

/// The game is played in this window, not at a server's table (whose
/// requests and moves are the server's to answer: `online`).
fn played_here<G: WindowGame>(session: Option<Res<Session<G>>>) -> bool {
    // Asked even where the systems' own condition (a session) fails.
    session.is_some_and(|s| s.kind.plays_here())
}

/// Leaving a game's board ends its session.
fn end_session<G: WindowGame>(mut commands: Commands, mut in_progress: ResMut<GameInProgress>) {
    commands.insert_resource(SessionKind::default());
    commands.remove_resource::<Session<G>>();
    commands.remove_resource::<Agents<G>>();
    in_progress.0 = false;
}

fn mark_in_progress<G: WindowGame>(session: Res<Session<G>>, mut in_progress: ResMut<GameInProgress>) {
    let now = session.has_human()
        && !session.kind.steps_through()
        && !session.moves.is_empty()
        && session.outcome().is_none();
    in_progress.set_if_neq(GameInProgress(now));
}

fn leave_game(mut next: ResMut<NextState<ActiveGame>>) {
    next.set(ActiveGame(None));
}

/// What the game last said (a refusal in red) is not for the screen
/// after it (the menu, the editor).
fn forget_the_game_s_status(mut status: ResMut<StatusLine>) {
    status.info("");
}
