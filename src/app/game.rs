//! What the window needs of a game beyond its rules, and how a game joins
//! the window: its folder's plugin calls [`register`] once, and the generic
//! session, panels and menu then serve it.

use bevy::prelude::*;
use tabula_engine::games::{self, Registered};
use tabula_engine::{Game, Player};

use super::session::{self, SessionPlan};

/// The game whose board is showing, by its name in level files; `None` in
/// the menu. A board's entities carry `DespawnOnExit` of their game.
#[derive(States, Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct ActiveGame(pub Option<&'static str>);

impl ActiveGame {
    pub fn of<G: Game>() -> ActiveGame {
        ActiveGame(Some(G::NAME))
    }
}

/// A game the window can show.
pub trait WindowGame: Registered {
    /// How a human plays this board, for the help line.
    const CONTROLS: &'static str;
    /// The level's rule options in a line, for the top bar.
    fn rules_text(level: &Self::Level) -> String;
    /// Why the game ended, with the seats' names.
    fn outcome_text(board: &Self::Observation, names: &[String]) -> String;
    /// What a move did beyond the move itself ("extra turn"), if anything.
    fn step_note(_steps: &[Self::Step]) -> Option<String> {
        None
    }
    /// Why undo may not take back a move with this step, if it may not:
    /// it showed what was hidden (a player could see it and choose again),
    /// or the game has its own reason.
    fn cannot_undo(_step: &Self::Step) -> Option<&'static str> {
        None
    }
}

/// The games the window shows, by name, with how to start and end a session.
#[derive(Resource, Default)]
pub struct WindowGames(pub Vec<WindowEntry>);

pub struct WindowEntry {
    pub name: &'static str,
    pub begin: fn(&mut World, SessionPlan) -> Result<(), String>,
}

impl WindowGames {
    pub fn find(&self, name: &str) -> Option<&WindowEntry> {
        self.0.iter().find(|e| e.name == name)
    }
}

/// Makes `G` playable in the window: the engine knows it, the menu lists
/// it, sessions, agents, panels and replays serve it.
pub fn register<G: WindowGame>(app: &mut App) {
    games::register::<G>();
    app.init_resource::<WindowGames>();
    let mut list = app.world_mut().resource_mut::<WindowGames>();
    if list.find(G::NAME).is_some() {
        return;
    }
    list.0.push(WindowEntry { name: G::NAME, begin: session::begin_game::<G> });
    app.add_plugins((session::game_plugin::<G>, super::hud::game_plugin::<G>));
}

/// `WindowGame::cannot_undo`'s reason for a step that showed what was hidden.
pub const SHOWED_HIDDEN: &str = "it showed what was hidden";

/// The name of seat `p`, or "Player N" past the names given.
pub fn name_of(names: &[String], p: Player) -> String {
    names.get(p.index()).cloned().unwrap_or_else(|| p.to_string())
}
