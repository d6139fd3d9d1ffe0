//! The tabula app: the command line (`cli`), the Bevy window (`app`), the
//! arena's runs both use (`arena_run`), and the game server's commands
//! (`network`).

pub mod app;
pub mod arena_run;
pub mod cli;
pub mod network;
