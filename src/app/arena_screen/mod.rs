//! The Arena screen: the arena files of `arenas/` (name, description,
//! agents, levels, games, and how many of them the database holds; a broken
//! file shows its error), and the chosen arena run live on threads of its
//! own: progress across every pairing, the Elo ratings with their 95%
//! intervals as a plot and a table, the crosstable, Weng-Lin ratings for
//! games of more seats and each level's wins, read from the database as the
//! games are written. Stop (or leaving the screen) stops the run; the games
//! played stay in the database, and Run resumes them, as `tabula arena`
//! does with the same database.
//!
//! This file holds the plugin, the screen's requests and an arena opened
//! from the command line; `files` the list of arena files, `run` a run on
//! its threads, `live` the screen's verbs on the run, `tables`, `plot` and
//! `standings` the standings as the screen shows them, `ui` its drawing,
//! `keys` its keyboard.

mod files;
mod keys;
mod live;
mod plot;
pub mod run;
mod standings;
pub mod tables;
mod ui;

use std::path::PathBuf;

use bevy::prelude::*;

use super::screen::Screen;

pub use files::{ArenaEntry, Arenas, arenas_root};
pub use live::{Live, Phase, Shown};

/// An arena to open the Arena screen on at start (`tabula arena <file>
/// --window`): its database (default: beside it), worker threads (default:
/// every core), and whether to play it or only show what its database holds.
#[derive(Resource, Clone, Debug)]
pub struct StartArena {
    pub path: PathBuf,
    pub db: Option<PathBuf>,
    pub jobs: Option<usize>,
    pub play: bool,
}

/// What the Arena screen is asked to do, by its buttons and keys.
#[derive(Message, Clone, Copy, Debug, PartialEq, Eq)]
pub enum ArenaRequest {
    /// Show the arena file at this place of the list, and the standings of
    /// the games its database holds.
    Choose(usize),
    /// Play the chosen arena's games its database does not hold yet.
    Run,
    /// Stop the run after the games being played.
    Stop,
    /// Leave for the menu (which stops the run).
    Back,
}

/// The Arena screen (the window adds it; headless tests too).
pub fn plugin(app: &mut App) {
    app.add_message::<ArenaRequest>()
        .add_systems(Update, open_from_command_line.run_if(resource_exists::<StartArena>))
        .add_plugins((files::plugin, live::plugin, ui::plugin, keys::plugin));
}

/// `tabula arena <file> --window`: the screen on that file, its run started.
fn open_from_command_line(
    mut commands: Commands,
    start: Res<StartArena>,
    mut arenas: ResMut<Arenas>,
    mut next: ResMut<NextState<Screen>>,
) {
    commands.remove_resource::<StartArena>();
    // Its run is asked for by the screen once it has listed the file and
    // chosen it (`files::list_arenas`).
    arenas.opened = Some(start.clone());
    next.set(Screen::Arena);
}
