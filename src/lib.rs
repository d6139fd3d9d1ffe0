//! The tabula app: the command line (`cli`), the Bevy window (`app`) and
//! the arena's runs both use (`arena_run`).

pub mod app;
pub mod arena_run;
pub mod cli;
