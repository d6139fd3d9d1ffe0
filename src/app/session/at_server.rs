//! A session at a game server's table: begun from what this screen's seat
//! sees there, and told each move the server played; and what the keeper
//! of such a game tells the panels (`TableNews`).

use bevy::prelude::*;
use tabula_engine::Player;

use super::{Controller, SeatSetup, Session, SessionKind};
use crate::app::game::WindowGame;

impl<G: WindowGame> Session<G> {
    /// A session on a game server's table: `seen` is what this screen's
    /// seat sees, `past` the moves played so far, with their seats and
    /// words. The seat of this screen is the one `Controller::Human`
    /// (none for a spectator).
    pub fn online(
        level: G::Level,
        seen: &G::Observation,
        seats: Vec<SeatSetup>,
        past: Vec<(Player, G::Move, String)>,
    ) -> Self {
        let game = G::from_view(seen);
        let seated = seats.iter().any(|s| s.controller == Controller::Human);
        let kind = if seated { SessionKind::AtServer } else { SessionKind::Watching };
        let mut session = Session::open(kind, level, seats, game);
        for (by, mv, says) in past {
            session.movers.push(by);
            session.moves.push(mv);
            session.said.push(says);
        }
        session
    }

    /// A move a game server played, heard with its words (said from the
    /// position before it).
    pub fn heard(&mut self, by: Player, mv: G::Move, words: String, seen: &G::Observation) {
        self.game = G::from_view(seen);
        self.moves.push(mv);
        self.movers.push(by);
        self.said.push(words);
    }
}

/// What the keeper of a game played elsewhere tells the panels: filled
/// each frame by whoever keeps it (`online/`, for a server's table), and
/// empty for a game played here. The panels draw it without knowing who
/// keeps the game.
#[derive(Resource, Default, Clone, Debug, PartialEq)]
pub struct TableNews {
    /// Beside each seat's name: its state and its clock ("you · 4:32").
    pub seats: Vec<String>,
    /// A seat is still open: the game has not begun.
    pub waiting: bool,
    /// The line under the seats; none for a game played here.
    pub line: Option<TableLine>,
    /// This screen's seat at the table; none for a spectator.
    pub seat: Option<Player>,
    /// A take-back a seat asked for, back to a ply, not yet answered.
    pub take_back: Option<(Player, usize)>,
    /// The seats that asked for a rematch.
    pub rematch_asked: Vec<Player>,
}

/// The line under the seats: the connection to the table, where it is, and while
/// a seat is open, what to send a friend.
#[derive(Clone, Debug, PartialEq)]
pub struct TableLine {
    pub connection: Connection,
    /// The address the table is reached at.
    pub address: String,
    /// The table's code, once it has one.
    pub code: Option<String>,
    /// The address a friend joins at (the host's, seen from the network).
    pub invite: String,
    /// The server's web page seating a browser at the table, once it has a
    /// code: what a friend without tabula opens.
    pub link: Option<String>,
}

/// How this screen is connected to a table kept elsewhere.
#[derive(Clone, Debug, PartialEq)]
pub enum Connection {
    Up,
    Connecting,
    /// Lost, with why; being made again.
    Lost(String),
}
