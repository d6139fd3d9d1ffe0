//! What the board, the panels and the session share about a game in
//! progress: watching controls, running animations, the lines shown.

use bevy::prelude::*;

/// Watching controls.
#[derive(Resource, Debug, Default)]
pub struct Watch {
    pub paused: bool,
    /// Play one move although paused.
    pub step: bool,
    /// The agent to move finishes its turn without the game's pauses (a
    /// board's fast-forward key); cleared when the turn passes.
    pub hurry: bool,
}

/// Animations still running on the board; agents and replays wait for them.
#[derive(Resource, Debug, Default)]
pub struct BoardBusy(pub u32);

/// What the top bar and the end band lead with once a game is over, when
/// more than the game is decided (a match of several deals): set by the game's
/// view, cleared when a session begins.
#[derive(Resource, Debug, Default, Clone)]
pub struct Headline(pub Option<String>);

/// What the board says the player's current choice would do.
#[derive(Resource, Debug, Default, Clone)]
pub struct MovePreview(pub String);

/// A line shown at the bottom of the screen.
#[derive(Resource, Debug, Default, Clone)]
pub struct StatusLine {
    pub text: String,
    pub error: bool,
}

impl StatusLine {
    pub fn info(&mut self, text: impl Into<String>) {
        self.text = text.into();
        self.error = false;
    }

    pub fn error(&mut self, text: impl Into<String>) {
        self.text = text.into();
        self.error = true;
    }
}

/// A person's game is under way: moves made, not over, not a replay.
/// Leaving it or quitting asks first.
#[derive(Resource, Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct GameInProgress(pub bool);
