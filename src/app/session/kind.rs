//! What kind of session a game is: played here, a replay stepped through, a
//! seat at a game server's table, or watching one. The boards and panels
//! ask it what they may offer (undo, teaching, a new deal, the replays,
//! pacing the agents) and never which kind it is, so no game folder and no
//! panel outside `online/` and `session/` knows that online play exists;
//! a new kind (a tournament, the browser's spectator) is one more variant
//! here.

use bevy::prelude::*;

use super::Session;
use crate::app::game::WindowGame;

/// Where a session's moves come from; as a resource, the current session's.
#[derive(Resource, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum SessionKind {
    /// Played on this screen: its people and its agents make the moves.
    #[default]
    Local,
    /// A saved game stepped through: no new moves are taken.
    Replay,
    /// A seat at a game server's table: only the server plays moves.
    AtServer,
    /// A game server's table, watched without a seat.
    Watching,
}

impl SessionKind {
    /// The game runs on this screen: its agents move here at its pace, and
    /// it undoes, deals again, teaches and keeps replays itself. A server's
    /// table does all that at the server, for every seat alike.
    pub fn plays_here(self) -> bool {
        matches!(self, SessionKind::Local | SessionKind::Replay)
    }

    /// New moves are being made on this screen (neither a replay nor a
    /// server's table): what starts the next deal by itself, for one.
    pub fn moves_here(self) -> bool {
        self == SessionKind::Local
    }

    /// Stepping through a saved game's moves: none are taken.
    pub fn steps_through(self) -> bool {
        self == SessionKind::Replay
    }

    /// The teaching overlay may show: at a table it would teach one side.
    pub fn may_teach(self) -> bool {
        self.plays_here()
    }

    /// The same game again after its end, in words: a table's is a rematch.
    pub fn again(self) -> &'static str {
        if self.plays_here() { "play again" } else { "rematch" }
    }

    /// What U does, in words: at a table the others are asked first.
    pub fn undo(self) -> &'static str {
        if self.plays_here() { "undo" } else { "ask to take back" }
    }

    /// Where a level without a file comes from.
    pub fn level_source(self) -> &'static str {
        if self.plays_here() { "Built in (from a replay)" } else { "The table's, from the server" }
    }

    /// Why T shows nothing here, where the game does not teach.
    pub fn no_teaching(self) -> &'static str {
        if self.may_teach() {
            "This game's board does not teach: T shows what each move is worth where a game can tell"
        } else {
            "No teaching at a server's table: it would help one side (T teaches in games played here)"
        }
    }

    /// Whether this is a game server's table, seated or watched (for
    /// `online/` and `session/` only: the screens ask the questions above).
    pub(in crate::app) fn at_server(self) -> bool {
        !self.plays_here()
    }
}

/// The kind as the screens outside a game's systems read it (the keys, the
/// questions), kept as the session's changes (a replay played on from
/// its start becomes a game played here).
pub(super) fn keep_kind<G: WindowGame>(session: Res<Session<G>>, mut kind: ResMut<SessionKind>) {
    if session.is_changed() {
        kind.set_if_neq(session.kind);
    }
}

#[cfg(test)]
mod tests {
    use super::SessionKind::{self, *};

    #[test]
    fn only_a_game_played_here_offers_what_the_screen_does_itself() {
        let here: Vec<SessionKind> =
            [Local, Replay, AtServer, Watching].into_iter().filter(|k| k.plays_here()).collect();
        assert_eq!(here, [Local, Replay]);
        assert!(Local.moves_here() && !Replay.moves_here() && !AtServer.moves_here());
        assert!(Replay.steps_through() && !Watching.steps_through());
        assert!(!AtServer.may_teach() && !Watching.may_teach() && Local.may_teach());
        assert_eq!((Local.again(), AtServer.again()), ("play again", "rematch"));
        assert!(AtServer.at_server() && Watching.at_server() && !Local.at_server());
    }
}
