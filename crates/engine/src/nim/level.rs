//! Nim's level file schema and its invariants.

use serde::{Deserialize, Serialize};

use crate::core::{Heading, Level, LevelGroup, RuleViolation};
use crate::layout::Layout;

/// Who the last stone is good for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Ending {
    /// Taking the last stone loses (seed 000, McMorran's 5-6-7).
    Misere,
    /// Taking the last stone wins (seed 002).
    Normal,
}

impl Ending {
    pub fn describe(self) -> &'static str {
        match self {
            Ending::Misere => "misère: whoever takes the last stone loses",
            Ending::Normal => "normal play: whoever takes the last stone wins",
        }
    }
}

/// Most piles and stones a level may have: enough for the largest layouts
/// and far from overflowing the sums the engine keeps.
pub const MAX_PILES: usize = 64;
pub const MAX_STONES: u32 = 1_000_000;

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NimLevel {
    pub name: String,
    #[serde(default)]
    pub description: String,
    /// Where the menu lists it.
    #[serde(default, skip_serializing_if = "LevelGroup::is_game")]
    pub group: LevelGroup,
    /// Stones in each pile, left to right.
    pub piles: Vec<u32>,
    pub ending: Ending,
}

impl NimLevel {
    /// A level of `piles` without a description or group (unchecked, as
    /// any level before `check`): what tests and examples start from.
    pub fn new(name: &str, piles: &[u32], ending: Ending) -> NimLevel {
        NimLevel {
            name: name.into(),
            description: String::new(),
            group: Default::default(),
            piles: piles.to_vec(),
            ending,
        }
    }

    /// The rule this level breaks, if any.
    pub fn check(&self) -> Result<(), RuleViolation> {
        if self.piles.is_empty() || self.piles.len() > MAX_PILES {
            return Err(RuleViolation::new(
                "pile-count",
                format!("a Nim level needs 1 to {MAX_PILES} piles, this one has {}", self.piles.len()),
            ));
        }
        if let Some((i, &n)) = self.piles.iter().enumerate().find(|(_, n)| **n > MAX_STONES) {
            return Err(RuleViolation::new(
                "pile-size",
                format!("pile {} has {n} stones; at most {MAX_STONES} are allowed", i + 1),
            ));
        }
        if self.piles.iter().all(|&n| n == 0) {
            return Err(RuleViolation::new("no-stones", "the piles must hold at least one stone"));
        }
        Ok(())
    }
}

impl Level for NimLevel {
    fn heading(&self) -> Heading<'_> {
        Heading { name: &self.name, description: &self.description, group: self.group }
    }

    fn layout(&self, game: &str) -> Option<String> {
        let mut l = Layout::of(game, self);
        l.field("piles", &self.piles).field("ending", &self.ending);
        Some(l.finish())
    }

    fn summary(&self) -> Vec<String> {
        let piles: Vec<String> = self.piles.iter().map(u32::to_string).collect();
        vec![format!("Piles: {}", piles.join(", ")), self.ending.describe().to_owned()]
    }
}
