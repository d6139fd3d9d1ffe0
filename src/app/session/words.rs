//! The moves of a session in words, as said when each was played: a move's
//! words may name what only the position before it shows (a card's face),
//! so the log keeps them rather than saying them again from the move.

use std::borrow::Cow;

use super::Session;
use crate::app::game::WindowGame;

impl<G: WindowGame> Session<G> {
    /// Move `n` of the line of play (1: the first) in words: the moves
    /// played, then the moves taken back.
    pub fn words(&self, n: usize) -> Cow<'_, str> {
        match self.said.get(n.wrapping_sub(1)) {
            Some(words) => Cow::Borrowed(words),
            None => {
                let played = self.moves.len();
                let mv = if n <= played {
                    self.moves.get(n.wrapping_sub(1))
                } else {
                    self.redo.get(self.redo.len().wrapping_sub(n - played))
                };
                Cow::Owned(mv.map(|mv| G::move_text(&self.level, mv)).unwrap_or_default())
            }
        }
    }

    /// Keeps the words of a move just played, said from the position before
    /// it; a move off the redo line ends that line.
    pub(super) fn said_now(&mut self, words: String, kept_line: bool) {
        let before = self.moves.len().saturating_sub(1);
        if !kept_line {
            self.said.truncate(before);
        }
        // The words are a prefix of the line's: a gap is never filled.
        if self.said.len() == before {
            self.said.push(words);
        }
    }
}

/// Each of `moves` in words, played in order from `game`.
pub(super) fn said_of<G: WindowGame>(game: &G, level: &G::Level, moves: &[G::Move]) -> Vec<String> {
    let mut game = game.clone();
    let mut said = Vec::with_capacity(moves.len());
    for mv in moves {
        said.push(G::move_words(&game, level, mv));
        if game.apply(game.actor(mv), *mv).is_err() {
            break;
        }
    }
    said
}
