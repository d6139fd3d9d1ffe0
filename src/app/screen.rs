//! Which screen the window shows, and where leaving a game goes.

use bevy::prelude::*;

pub(super) fn plugin(app: &mut App) {
    app.init_state::<Screen>().init_resource::<BackTo>();
}

/// Which screen is showing; entities of a screen carry `DespawnOnExit`.
#[derive(States, Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Screen {
    #[default]
    Menu,
    Game,
    /// The level editor.
    Editor,
    /// An arena of AI agents run live, with its ratings.
    Arena,
}

/// Where leaving a game goes: the menu, or the editor after a test-play.
#[derive(Resource, Clone, Copy, Debug, Default)]
pub struct BackTo(pub Screen);
