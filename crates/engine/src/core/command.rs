//! A command a game adds to `tabula`'s command line, as it adds its window
//! (`tabula solve`, the sowing games' proof, beside the solver): listed
//! once, through the catalog, and offered by the command line without
//! naming its game (`games::commands`, `games::run_command`). Built with
//! the `commands` feature only: the engine's own tests need no command
//! line.

use std::any::Any;
use std::path::Path;
use std::process::ExitCode;

/// A command of a game's: its arguments and help, and what runs it.
#[derive(Clone, Copy)]
pub struct GameCommand {
    /// The subcommand as clap describes it: name, help, arguments.
    pub command: fn() -> clap::Command,
    /// The argument that names the level it works on: the command line
    /// finds it (a path, or a level's name) and loads it first.
    pub level: &'static str,
    /// Runs the command on its parsed arguments and its level.
    pub run: fn(&clap::ArgMatches, GivenLevel) -> anyhow::Result<ExitCode>,
}

impl GameCommand {
    pub fn name(&self) -> String {
        (self.command)().get_name().to_owned()
    }
}

/// The level a game's command was given, found and loaded: its file, its
/// game's name, and the level as that game's type (`downcast_ref`).
pub struct GivenLevel<'a> {
    pub path: &'a Path,
    pub game: &'a str,
    pub level: &'a dyn Any,
}
