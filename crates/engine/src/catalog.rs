//! The games the engine ships, listed once. Level files and the games'
//! registry each keep their own table of games and fill it from this list,
//! so neither has to know the other.

use crate::core::{LevelGenerator, Registered};

/// A table of games filled one game type at a time.
pub(crate) trait Catalog {
    /// Adds game `G`; adding it again changes nothing.
    fn add<G: Registered>(&mut self);
    /// Adds a game's level generator; tables without generators skip it.
    fn add_generator<L: LevelGenerator>(&mut self) {}
    /// Adds a command a game brings to the command line; tables of games
    /// skip it.
    #[cfg(feature = "commands")]
    fn add_command(&mut self, _command: crate::core::GameCommand) {}
}

/// Every game the engine ships: adding a game is one line here (and its
/// level generator and its commands, if it has them, one line each).
pub(crate) fn builtin(catalog: &mut impl Catalog) {
    catalog.add::<crate::nim::Nim>();
    catalog.add::<crate::mancala::Mancala>();
    catalog.add::<crate::robots::Robots>();
    catalog.add::<crate::russian_bank::RussianBank>();
    catalog.add_generator::<crate::nim::generate::NimGenerator>();
    catalog.add_generator::<crate::robots::generate::RobotsGenerator>();
    #[cfg(feature = "commands")]
    catalog.add_command(crate::mancala::solver::command::SOLVE);
}
