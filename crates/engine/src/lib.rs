//! tabula's rules engine: games, agents, levels, replays and matches.
//!
//! Nothing here knows about Bevy; the app mirrors what this crate decides.

pub mod arena;
mod catalog;
pub mod core;
pub mod format;
pub mod games;
pub mod layout;
pub mod level;
pub mod live;
pub mod mancala;
pub mod nim;
pub mod replay;
pub mod robots;
pub mod russian_bank;
pub mod shipped;

pub use crate::core::{Game, Observation, Outcome, Player};

/// The package's folder, as cargo tells the running test: a test binary
/// built by another checkout sharing the target folder still reads this
/// checkout's files (a path built in at compile time would be the other's).
#[cfg(test)]
pub(crate) fn manifest_dir() -> std::path::PathBuf {
    std::env::var_os("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR for tests").into()
}
