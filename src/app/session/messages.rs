//! What the session is asked (requests, imperative) and what it tells
//! (facts, past tense).

use std::path::PathBuf;

use bevy::prelude::*;
use tabula_engine::{Game, Outcome, Player};

use super::SessionPlan;

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
    /// Refused because `by` may not move now: said as such, not read as a
    /// move the rules weighed (a card game's Stop, say).
    pub out_of_turn: bool,
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
    /// The same game again from its start: the same deal, the same homes.
    Restart,
    /// A new game on the same level and seats, dealt anew where the level
    /// deals by chance (a shuffle, hidden homes).
    PlayAgain,
    SaveReplay,
    OpenReplay(PathBuf),
    Start(Box<SessionPlan>),
    BackToMenu,
    /// Step back or forward to just after move n of the log (0: the start).
    GoTo(usize),
    /// Give the game up: offered where it is played elsewhere, whose
    /// keeper ends it (a game played here has nobody to concede to).
    Resign,
    /// Accept or decline the take-back another seat asked for.
    AnswerTakeBack(bool),
}

/// The turn passed: `to` is now to move, or nobody once the game is over.
/// Sent after a move that passes the turn, and when a game starts, is
/// taken back or restarts. The panels and the seat highlight show whose
/// turn it is from it, a sound tells a person their turn has come, and the
/// agent of the seat is woken to move.
#[derive(Message, Clone, Copy, Debug, PartialEq, Eq)]
pub struct TurnChanged {
    pub to: Option<Player>,
    /// A person plays the seat now to move (not an agent, not a replay).
    pub person: bool,
}
