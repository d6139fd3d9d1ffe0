//! Mancala's level file schema and its invariants.

use serde::{Deserialize, Serialize};

/// When a last stone in one's own empty pit captures.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Capture {
    /// Never (seed 003's variant).
    None,
    /// When the opposite pit holds stones: both go to the store.
    Standard,
    /// Also when the opposite pit is empty (Irving et al.'s rule).
    Empty,
}

/// Most pits a side may have; the board then fits 32 cells.
pub const MAX_PITS: u8 = 15;
/// Most stones on the board, so every count fits the engine's cells.
pub const MAX_STONES: u32 = 4000;
pub const DEFAULT_MOVE_CAP: u32 = 2000;

fn default_cap() -> u32 {
    DEFAULT_MOVE_CAP
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MancalaLevel {
    pub name: String,
    #[serde(default)]
    pub description: String,
    /// Pits on each side.
    pub pits: u8,
    /// Stones in each pit at the start.
    pub stones: u16,
    pub capture: Capture,
    /// At the end, stones left in the pits go to their side's store.
    pub sweep: bool,
    /// Moves after which the game is a draw, should it not end by itself.
    #[serde(default = "default_cap")]
    pub move_cap: u32,
}

impl MancalaLevel {
    /// The rule this level breaks, if any.
    pub fn check(&self) -> Result<(), String> {
        if !(1..=MAX_PITS).contains(&self.pits) {
            return Err(format!(
                "a Mancala board needs 1 to {MAX_PITS} pits a side, this one has {}",
                self.pits
            ));
        }
        if self.stones == 0 {
            return Err("each pit must start with at least one stone".into());
        }
        let total = 2 * self.pits as u32 * self.stones as u32;
        if total > MAX_STONES {
            return Err(format!("the board would hold {total} stones; at most {MAX_STONES} are allowed"));
        }
        if self.move_cap == 0 {
            return Err("move_cap must be at least 1".into());
        }
        Ok(())
    }
}
