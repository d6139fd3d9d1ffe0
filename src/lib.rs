//! The tabula app: the command line and the Bevy window.

pub mod app;
pub mod arena;
pub mod cli;

/// When the process started, for the first-frame measurement.
pub static START: std::sync::OnceLock<std::time::Instant> = std::sync::OnceLock::new();
