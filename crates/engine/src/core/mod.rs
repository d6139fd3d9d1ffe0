//! What every game shares: players, outcomes, the [`Game`] trait, agents,
//! seeded randomness, replays, perft and the match runner.

pub mod agent;
pub mod conformance;
pub mod perft;
pub mod replay;
pub mod rng;
pub mod runner;

use std::fmt;

use serde::{Serialize, de::DeserializeOwned};

pub use agent::{Agent, AgentError, AgentInfo, AgentRegistry, AgentSpec, RandomAgent};
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

/// A level that breaks one of its game's rules (RULES.md lists them).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct RuleViolation(pub String);

/// One game's rules as a pure state machine.
///
/// Turns are not assumed to alternate: `current_player` is asked after every
/// move, so extra turns and multi-move turns need nothing special. `apply`
/// either performs a legal move or returns the error and leaves the state
/// exactly as it was.
pub trait Game: Clone + fmt::Debug + Send + Sync + 'static {
    /// A move: small and `Copy`, serialisable for replays.
    type Move: Copy + Eq + fmt::Debug + fmt::Display + Serialize + DeserializeOwned + Send + Sync + 'static;
    /// Why a move was refused.
    type Error: std::error::Error + Clone + PartialEq + Send + Sync + 'static;
    /// What a move did, for animations and logs.
    type Effects: Clone + fmt::Debug + Send + Sync + 'static;
    /// The unchecked set-up read from a level file.
    type Level: Clone + fmt::Debug + Serialize + DeserializeOwned + Send + Sync + 'static;
    /// What one player may see; for games of perfect information `&Self`.
    type View<'a>: PlayerView<Move = Self::Move>
    where
        Self: 'a;

    /// The game's name in level files and on screen.
    const NAME: &'static str;

    /// The validated start position of `level`; `seed` drives any chance.
    fn new(level: &Self::Level, seed: u64) -> Result<Self, RuleViolation>;
    fn num_players(&self) -> usize;
    /// Who moves next (meaningless once `outcome` is `Some`).
    fn current_player(&self) -> Player;
    /// Appends every legal move to `out` (nothing once the game is over).
    fn legal_moves(&self, out: &mut Vec<Self::Move>);
    fn apply(&mut self, mv: Self::Move) -> Result<Self::Effects, Self::Error>;
    fn outcome(&self) -> Option<Outcome>;
    fn view(&self, player: Player) -> Self::View<'_>;
    /// An upper bound on the moves left before the game must end.
    fn move_bound(&self) -> u64;
    /// Per-seat scores where the game keeps them (stores, points).
    fn scores(&self) -> Vec<i64> {
        Vec::new()
    }
    /// Moves to try in tests and input validation: every legal move and
    /// some illegal ones.
    fn probe_moves(&self, out: &mut Vec<Self::Move>);
    /// A move drawn uniformly from the legal moves; games override it with
    /// a way that lists nothing.
    fn random_move(&self, rng: &mut GameRng) -> Option<Self::Move> {
        let mut moves = Vec::new();
        self.legal_moves(&mut moves);
        rng::choose(&moves, rng).copied()
    }
    /// Plays `random_move` then `apply` until the game ends, and returns how
    /// many moves that took; the same draws give the same game. Games
    /// override it with a loop that skips the checks a drawn move cannot
    /// fail. A refused move (a bug in the game) comes back with its error.
    fn play_out(&mut self, rng: &mut GameRng) -> Result<u64, (Self::Move, Self::Error)> {
        let mut plies = 0;
        while let Some(mv) = self.random_move(rng) {
            self.apply(mv).map_err(|e| (mv, e))?;
            plies += 1;
        }
        Ok(plies)
    }
}

/// What an agent may look at when it chooses.
pub trait PlayerView {
    type Move;
    fn legal_moves(&self, out: &mut Vec<Self::Move>);
    /// A move drawn uniformly from the legal moves.
    fn random_move(&self, rng: &mut GameRng) -> Option<Self::Move>;
}

impl<G: Game> PlayerView for &G {
    type Move = G::Move;

    fn legal_moves(&self, out: &mut Vec<G::Move>) {
        G::legal_moves(self, out)
    }

    fn random_move(&self, rng: &mut GameRng) -> Option<G::Move> {
        G::random_move(self, rng)
    }
}
