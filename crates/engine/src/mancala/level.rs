//! Mancala's level file schema and its invariants.

use serde::{Deserialize, Serialize};

use crate::core::{Heading, Level, LevelGroup, RuleViolation};
use crate::layout::Layout;

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
    /// Where the menu lists it.
    #[serde(default, skip_serializing_if = "LevelGroup::is_game")]
    pub group: LevelGroup,
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
    pub fn check(&self) -> Result<(), RuleViolation> {
        if !(1..=MAX_PITS).contains(&self.pits) {
            return Err(RuleViolation::new(
                "pits",
                format!("a Mancala board needs 1 to {MAX_PITS} pits a side, this one has {}", self.pits),
            ));
        }
        if self.stones == 0 {
            return Err(RuleViolation::new("stones", "each pit must start with at least one stone"));
        }
        let total = 2 * self.pits as u32 * self.stones as u32;
        if total > MAX_STONES {
            return Err(RuleViolation::new(
                "total-stones",
                format!("the board would hold {total} stones; at most {MAX_STONES} are allowed"),
            ));
        }
        if self.move_cap == 0 {
            return Err(RuleViolation::new("move-cap", "move_cap must be at least 1"));
        }
        Ok(())
    }
}

impl Capture {
    /// The capture rule in words.
    pub fn describe(self) -> &'static str {
        match self {
            Capture::None => "no captures",
            Capture::Standard => "captures when the opposite pit has stones",
            Capture::Empty => "captures even when the opposite pit is empty",
        }
    }
}

/// The rule options in a line, for menus and the top bar.
pub fn rules_line(capture: Capture, sweep: bool) -> String {
    let sweep = if sweep { "stones left at the end go to their side's store" } else { "no final sweep" };
    format!("last stone in your store: play again · {} · {sweep}", capture.describe())
}

impl Level for MancalaLevel {
    fn heading(&self) -> Heading<'_> {
        Heading { name: &self.name, description: &self.description, group: self.group }
    }

    fn layout(&self, game: &str) -> Option<String> {
        let mut l = Layout::of(game, self);
        l.field("pits", &self.pits)
            .field("stones", &self.stones)
            .field("capture", &self.capture)
            .field("sweep", &self.sweep)
            .optional("move_cap", &self.move_cap, &DEFAULT_MOVE_CAP);
        Some(l.finish())
    }

    fn summary(&self) -> Vec<String> {
        vec![
            format!("{} pits a side, {} stones each", self.pits, self.stones),
            rules_line(self.capture, self.sweep),
        ]
    }
}
