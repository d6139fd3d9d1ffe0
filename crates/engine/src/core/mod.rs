//! What every game shares: players, outcomes, the [`Game`] trait with its
//! observations and steps, what the generic tools ask of a game, agents,
//! seeded randomness, perft and the match runner.

pub mod agent;
#[cfg(feature = "commands")]
mod command;
pub mod conformance;
pub mod dirs;
pub mod history;
pub mod perft;
pub mod ratings;
pub mod rng;
pub mod runner;

use std::borrow::Cow;
use std::fmt;

use serde::{Serialize, de::DeserializeOwned};

pub use agent::{
    Agent, AgentError, AgentInfo, AgentRegistry, AgentSpec, DEFAULT_DIFFICULTY, DIFFICULTIES, Erring,
    Mistake, NEWCOMER, RandomAgent,
};
#[cfg(feature = "commands")]
pub use command::{GameCommand, GivenLevel};
pub use dirs::{config_dir, data_dir};
pub use rng::{GameRng, derive_seed, rng_from_seed};

/// A seat at the table, 0-based. Displayed 1-based ("Player 1").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize)]
#[serde(transparent)]
pub struct Player(pub u8);

impl Player {
    pub const ONE: Player = Player(0);
    pub const TWO: Player = Player(1);

    pub fn index(self) -> usize {
        self.0 as usize
    }

    /// The seat after this one in turn order, among `players` seats.
    pub fn next(self, players: usize) -> Player {
        // No division: this runs on every move of every game.
        let next = self.0 + 1;
        Player(if next as usize >= players { 0 } else { next })
    }

    /// Every seat of a table of `players`, in turn order.
    pub fn all(players: usize) -> impl Iterator<Item = Player> {
        (0..players as u8).map(Player)
    }
}

impl fmt::Display for Player {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Player {}", self.0 + 1)
    }
}

/// How a finished game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum Outcome {
    Win(Player),
    Draw,
}

impl Outcome {
    pub fn winner(self) -> Option<Player> {
        match self {
            Outcome::Win(p) => Some(p),
            Outcome::Draw => None,
        }
    }
}

/// A level that breaks one of its game's rules (docs/formats.md, "Level files",
/// lists them): which rule, as a short stable name tests and tools can match,
/// and the message for people.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct RuleViolation {
    pub rule: &'static str,
    pub message: String,
}

impl RuleViolation {
    pub fn new(rule: &'static str, message: impl Into<String>) -> RuleViolation {
        RuleViolation { rule, message: message.into() }
    }
}

/// `Game::irreversible`'s reason for a step that showed what was hidden.
pub const SHOWED_HIDDEN: &str = "it showed what was hidden";

/// A move asked for by a seat that may not move now.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("it is {to_move}'s turn, not {player}'s")]
pub struct NotYourTurn {
    pub player: Player,
    pub to_move: Player,
}

/// Why a game refused a move. Every game's error can say whether it was
/// refused for being out of turn, so the window can name the seat to move.
pub trait RuleError:
    std::error::Error + Clone + PartialEq + From<NotYourTurn> + Send + Sync + 'static
{
    fn not_your_turn(&self) -> Option<NotYourTurn>;
}

/// Where the menu lists a level: lessons teach one idea, games are for
/// playing against others, large boards show scale, and specification tests
/// are a seed's own positions, kept apart from what people play. A level
/// file says `group: Lesson` (and so on); without it, a level is a game.
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize,
)]
pub enum LevelGroup {
    Lesson,
    #[default]
    Game,
    Large,
    Specification,
}

impl LevelGroup {
    pub const ALL: [LevelGroup; 4] =
        [LevelGroup::Lesson, LevelGroup::Game, LevelGroup::Large, LevelGroup::Specification];

    /// The menu's heading for the group.
    pub fn heading(self) -> &'static str {
        match self {
            LevelGroup::Lesson => "Lessons",
            LevelGroup::Game => "Games",
            LevelGroup::Large => "Large boards",
            LevelGroup::Specification => "Specification tests",
        }
    }

    /// For serde: the default is not written.
    pub fn is_game(&self) -> bool {
        *self == LevelGroup::Game
    }
}

/// The fields every level file opens with, whatever its game: `name`,
/// `description` (optional) and `group` (optional, a game unless it says).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Heading<'a> {
    pub name: &'a str,
    pub description: &'a str,
    /// Where the menu lists it.
    pub group: LevelGroup,
}

/// What a level file holds for its game, beyond the game's own fields.
pub trait Level:
    Clone + fmt::Debug + PartialEq + Serialize + DeserializeOwned + Send + Sync + 'static
{
    /// Its name, description and group, read and written the same way for
    /// every game (`Layout::of` writes them).
    fn heading(&self) -> Heading<'_>;
    fn name(&self) -> &str {
        self.heading().name
    }
    fn description(&self) -> &str {
        self.heading().description
    }
    fn group(&self) -> LevelGroup {
        self.heading().group
    }
    /// A few lines on the set-up and rule options, for menus.
    fn summary(&self) -> Vec<String>;
    /// The level's text in tabula's layout (`crate::layout`), `game` its
    /// name in files; `None` leaves it to a generic layout, every field on
    /// its line.
    fn layout(&self, _game: &str) -> Option<String> {
        None
    }
    /// The level as every seat and spectator may know it: what a game
    /// server hands a window that joins a table. A level that fixes what
    /// the players may not see (a deal's face-down cards) leaves it out.
    fn public(&self) -> Self {
        self.clone()
    }
}

/// One game's rules as a pure state machine.
///
/// Turns are not assumed to alternate: `current_player` is asked after every
/// move, so extra turns and multi-move turns need nothing special. Moves are
/// made by a seat: the rules, not the caller, refuse a seat that may not move
/// now. `apply` either performs a legal move or returns the error and leaves
/// the state exactly as it was.
pub trait Game: Clone + fmt::Debug + Send + Sync + 'static {
    /// A move: small and `Copy`, serialisable for replays.
    type Move: Copy + Eq + fmt::Debug + fmt::Display + Serialize + DeserializeOwned + Send + Sync + 'static;
    /// Why a move was refused.
    type Error: RuleError;
    /// What a move did, in the compact form `apply` returns on every move.
    type Effects: Clone + fmt::Debug + Send + Sync + 'static;
    /// One step of what a move did, in order (a stone from one cell to
    /// another, the turn passing, the end), enough for a view to animate
    /// the move and to follow it on its observation without knowing a rule.
    type Step: Clone + fmt::Debug + PartialEq + Serialize + DeserializeOwned + Send + Sync + 'static;
    /// The unchecked set-up read from a level file.
    type Level: Level;
    /// What one seat, or a spectator, may see. For a game of perfect
    /// information, the state itself.
    type Observation: Observation<Self>;

    /// The game's name in level files, which write a level as `Name(...)`.
    const NAME: &'static str;
    /// The game's name on screen.
    const TITLE: &'static str;
    /// The folder of its levels under `levels/`.
    const FOLDER: &'static str;
    /// The fewest and most seats a level may have.
    const SEATS: (usize, usize);
    /// Every seat sees the whole state.
    const PERFECT_INFORMATION: bool;
    /// A seat other than the one to move may sometimes move (Russian
    /// Bank's Stop): runners then offer it the chance after every move.
    const INTERJECTIONS: bool = false;

    /// The validated start position of `level`; `seed` drives any chance.
    fn new(level: &Self::Level, seed: u64) -> Result<Self, RuleViolation>;
    fn num_players(&self) -> usize;
    /// Who moves next (meaningless once `outcome` is `Some`).
    fn current_player(&self) -> Player;
    /// Appends every move `player` may make now (nothing once the game is
    /// over, nor for a seat that may not move).
    fn legal_moves(&self, player: Player, out: &mut Vec<Self::Move>);
    /// Performs `mv` for `player`, or refuses it and changes nothing.
    fn apply(&mut self, player: Player, mv: Self::Move) -> Result<Self::Effects, Self::Error>;
    fn outcome(&self) -> Option<Outcome>;
    /// The seat that makes `mv` when a replay, which records moves alone,
    /// plays it: the player to move, unless the game lets another seat
    /// make such a move.
    fn actor(&self, _mv: &Self::Move) -> Player {
        self.current_player()
    }
    /// `mv` in words, said from this position before it, as a move log says
    /// it: what the move takes may be named (a card's face), since a move
    /// shows it. The notation's text unless the game says more.
    fn words_for(&self, mv: &Self::Move) -> String {
        mv.to_string()
    }
    /// What `viewer` may see (`None`: a spectator). Borrowed when that is
    /// the whole state, so agents of perfect-information games copy nothing.
    fn observe(&self, viewer: Option<Player>) -> Cow<'_, Self::Observation>;
    /// A full state consistent with what `viewer` sees, the hidden part
    /// drawn at random (determinization, for agents that search).
    fn sample_state(observation: &Self::Observation, viewer: Option<Player>, rng: &mut GameRng) -> Self;
    /// The ordered steps of a move, from the state before it and its effects.
    fn steps(before: &Self, effects: &Self::Effects) -> Vec<Self::Step>;
    /// Why a move with this step cannot be taken back, if it cannot: it
    /// showed what was hidden (a take-back would let a seat look and think
    /// again), or it settled something for good.
    fn irreversible(_step: &Self::Step) -> Option<&'static str> {
        None
    }
    /// The public state as structured data (`tabula replay --states`).
    fn public_state(&self) -> serde_json::Value;
    /// An upper bound on the moves left before the game must end.
    fn move_bound(&self) -> u64;
    /// An upper bound on the legal moves of any seat, here or in any
    /// position that follows: a game server hosts a level only when this
    /// bound, and so every message it sends, is small enough.
    fn legal_bound(&self) -> u64;
    /// Per-seat scores where the game keeps them (stores, points).
    fn scores(&self) -> Vec<i64> {
        Vec::new()
    }
    /// Moves to try in tests and input validation: every legal move of
    /// every seat and some illegal ones.
    fn probe_moves(&self, out: &mut Vec<Self::Move>);
    /// A move of the player to move, drawn uniformly from their legal moves;
    /// games override it with a way that lists nothing.
    fn random_move(&self, rng: &mut GameRng) -> Option<Self::Move> {
        let mut moves = Vec::new();
        self.legal_moves(self.current_player(), &mut moves);
        rng::choose(&moves, rng).copied()
    }
    /// Plays `random_move` then `apply` until the game ends, and returns how
    /// many moves that took; the same draws give the same game. Games
    /// override it with a loop that skips the checks a drawn move cannot
    /// fail. A refused move (a bug in the game) comes back with its error.
    fn play_out(&mut self, rng: &mut GameRng) -> Result<u64, (Self::Move, Self::Error)> {
        let mut plies = 0;
        while let Some(mv) = self.random_move(rng) {
            self.apply(self.current_player(), mv).map_err(|e| (mv, e))?;
            plies += 1;
        }
        Ok(plies)
    }
}

/// What a seat sees of a game, and all an agent or a view works from.
pub trait Observation<G: Game>:
    Clone + PartialEq + fmt::Debug + Serialize + DeserializeOwned + Send + Sync + 'static
{
    /// The moves `player` may make, as far as this observation shows.
    fn legal_moves(&self, player: Player, out: &mut Vec<G::Move>);
    /// One step of a move, followed as a view follows it with its pieces.
    fn follow(&mut self, step: &G::Step);
    /// A move drawn uniformly from `player`'s legal moves.
    fn random_move(&self, player: Player, rng: &mut GameRng) -> Option<G::Move> {
        let mut moves = Vec::new();
        self.legal_moves(player, &mut moves);
        rng::choose(&moves, rng).copied()
    }
}

/// What a game must be for the generic tools (level files, matches,
/// replays): rules with agents, states that compare and serialise (for
/// tests and replays). Here, below both level files and the games'
/// registry, so that each can ask it of a game.
pub trait Registered: AgentRegistry + PartialEq + Serialize + DeserializeOwned {}
impl<G: AgentRegistry + PartialEq + Serialize + DeserializeOwned> Registered for G {}

/// A game's level generator (`tabula generate <game>`), listed in the
/// catalog beside its game.
pub trait LevelGenerator {
    type Game: Registered;
    /// Its options, a line each, for `tabula generate <game> --help`.
    const OPTIONS: &'static str;
    /// A level made from `options` (the `--name value` pairs given to
    /// `tabula generate`) and `seed`, or why not.
    fn generate(options: &[(String, String)], seed: u64) -> Result<<Self::Game as Game>::Level, String>;

    /// A new level like `level`, dealt from `seed` (another board for
    /// another game, as Play again deals anew), or why this level is not
    /// dealt so. The default deals none.
    fn deal_like(
        level: &<Self::Game as Game>::Level,
        seed: u64,
    ) -> Result<<Self::Game as Game>::Level, String> {
        let _ = (level, seed);
        Err("this game's levels are not dealt anew".into())
    }
}

/// Applies `mv` and also returns its steps (for views, logs and tests; the
/// hot paths call `apply` alone).
pub fn apply_with_steps<G: Game>(
    game: &mut G,
    player: Player,
    mv: G::Move,
) -> Result<(G::Effects, Vec<G::Step>), G::Error> {
    let before = game.clone();
    let effects = game.apply(player, mv)?;
    let steps = G::steps(&before, &effects);
    Ok((effects, steps))
}
