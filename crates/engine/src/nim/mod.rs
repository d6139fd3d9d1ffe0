//! Nim (docs/rules/nim.md, seeds 000 and 002): take stones from one pile;
//! the last stone loses (misère) or wins (normal), as the level says.

pub mod ai;
pub mod generate;
pub mod level;
pub mod rules;

pub use ai::{OptimalAgent, mover_wins, optimal_move};
pub use level::{Ending, NimLevel};
pub use rules::{Nim, NimError, NimStep, Take, Taken};
