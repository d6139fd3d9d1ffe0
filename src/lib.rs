//! The tabula app: the command line (`cli`), the Bevy window (`app`) and
//! the arena's runs both use (`arena_run`).

pub mod app;
pub mod arena_run;
pub mod cli;

/// When the process started, for the first-frame measurement.
pub static START: std::sync::OnceLock<std::time::Instant> = std::sync::OnceLock::new();
