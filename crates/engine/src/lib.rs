//! tabula's rules engine: games, agents, levels, replays and matches.
//!
//! Nothing here knows about Bevy; the app mirrors what this crate decides.

mod catalog;
pub mod core;
pub mod games;
pub mod level;
pub mod mancala;
pub mod nim;
pub mod robots;
pub mod russian_bank;

pub use crate::core::{Game, Observation, Outcome, Player};
