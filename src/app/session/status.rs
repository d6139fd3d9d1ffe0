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
    /// When the refusal shown was said.
    said: Option<std::time::Instant>,
}

/// How long a refusal stays before an agent's move may say itself over it.
const REFUSAL_KEPT: std::time::Duration = std::time::Duration::from_millis(2500);

impl StatusLine {
    pub fn info(&mut self, text: impl Into<String>) {
        self.text = text.into();
        self.error = false;
    }

    pub fn error(&mut self, text: impl Into<String>) {
        self.text = text.into();
        self.error = true;
        self.said = Some(std::time::Instant::now());
    }

    /// An agent's move said, unless a refusal to a person is still fresh:
    /// said over at once, it was never read (an arrow key pressed in the
    /// other's turn seemed to do nothing). The move log has the move.
    pub fn agent_said(&mut self, text: impl Into<String>) {
        let fresh = self.error && self.said.is_some_and(|at| at.elapsed() < REFUSAL_KEPT);
        if !fresh {
            self.info(text);
        }
    }
}

/// A person's game is under way: moves made, not over, not a replay.
/// Leaving it or quitting asks first.
#[derive(Resource, Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct GameInProgress(pub bool);

#[cfg(test)]
mod tests {
    use super::*;

    /// A refusal is not said over at once by an agent's move; a person's
    /// own line, or a line that is not a refusal, is.
    #[test]
    fn a_fresh_refusal_outlives_an_agents_move() {
        let mut status = StatusLine::default();
        status.agent_said("Bob: B turns left");
        assert_eq!(status.text, "Bob: B turns left");
        status.error("Refused: it is Bob's turn");
        status.agent_said("Bob: B walks 1 ahead");
        assert_eq!(status.text, "Refused: it is Bob's turn");
        status.info("Ann: A steps north");
        assert_eq!(status.text, "Ann: A steps north");
        status.agent_said("Bob: B walks 1 ahead");
        assert_eq!(status.text, "Bob: B walks 1 ahead");
    }
}
