//! A session at a game server's table: begun from what this screen's seat
//! sees there, and told each move the server played.

use tabula_engine::Player;

use super::{SeatSetup, Session};
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
        let (movers, moves): (Vec<Player>, Vec<G::Move>) = past.iter().map(|(p, mv, _)| (*p, *mv)).unzip();
        Session {
            level_path: None,
            level_name: tabula_engine::core::Level::name(&level).to_owned(),
            level,
            seed: 0,
            seats,
            start: game.clone(),
            game,
            moves,
            movers,
            redo: Vec::new(),
            said: past.into_iter().map(|(_, _, says)| says).collect(),
            replay: false,
            barrier: 0,
            barrier_reason: "",
            deals: false,
            saved: None,
            online: true,
            called: None,
        }
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
