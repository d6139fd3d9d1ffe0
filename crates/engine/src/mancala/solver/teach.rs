//! What the window's teaching overlay asks: the proven margin of every legal
//! move from a position, for hovering a pit and for reviewing a game.

use super::super::ai::solve_value;
use super::super::{Mancala, MancalaLevel, Sow};
use crate::core::{Game, Player};

/// A legal move and where it leads with perfect play after it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MoveMargin {
    pub sow: Sow,
    /// The mover's store minus the opponent's at the end of the game when
    /// the mover plays `sow` and both sides then play perfectly (the stones
    /// already in the stores count).
    pub margin: i32,
}

/// Proves the value of each move of a Mancala position, within a budget.
/// Cheap to clone and safe to share with a background thread.
#[derive(Clone, Debug)]
pub struct Teacher {
    _level: MancalaLevel,
}

impl Teacher {
    /// A teacher for the boards of `level`'s rules.
    pub fn new(level: &MancalaLevel) -> Teacher {
        Teacher { _level: level.clone() }
    }

    /// Every legal move with its proven margin, in pit order; `None` when the
    /// game is over or the position is beyond what can be proven within the
    /// budget (seconds, not minutes).
    pub fn move_margins(&self, board: &Mancala) -> Option<Vec<MoveMargin>> {
        let mover = board.current_player();
        let mut moves = Vec::new();
        board.moves(&mut moves);
        if moves.is_empty() {
            return None;
        }
        moves
            .into_iter()
            .map(|sow| {
                let mut child = *board;
                child.play(sow).ok()?;
                let margin = final_margin(&child, mover)?;
                Some(MoveMargin { sow, margin })
            })
            .collect()
    }
}

/// The proven final store difference for `seat` from `board`.
fn final_margin(board: &Mancala, seat: Player) -> Option<i32> {
    let other = seat.next(2);
    if board.outcome().is_some() {
        return Some(board.store(seat) as i32 - board.store(other) as i32);
    }
    let value = solve_value(board)?;
    let diff = super::super::ai::margin_of(value);
    Some(if board.current_player() == seat { diff } else { -diff })
}
