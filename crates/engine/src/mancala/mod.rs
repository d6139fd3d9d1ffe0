//! Mancala / Kalah (docs/rules/mancala.md, seed 003): sow counter-clockwise,
//! extra turn in your own store, captures and the final sweep as the level
//! says.

pub mod ai;
pub mod level;
pub mod rules;
pub mod solver;

#[cfg(test)]
mod naive;

pub use level::{Capture, MancalaLevel, rules_line};
pub use rules::{Mancala, MancalaError, MancalaStep, Sow, Sown, Transfer};
