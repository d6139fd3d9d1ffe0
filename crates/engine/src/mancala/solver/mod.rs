//! Kalah solved: endgame databases by stones left in play, a search that
//! proves a board's value, and what the teaching overlay asks of them.

pub mod teach;

pub use teach::{MoveMargin, Teacher};
