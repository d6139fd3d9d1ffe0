//! A session at a game server's table: begun from what this screen's seat
//! sees there, and told each move the server played.

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
