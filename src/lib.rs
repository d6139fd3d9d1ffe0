//! The tabula app: the command line and the Bevy window.

pub mod app;
pub mod cli;
