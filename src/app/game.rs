//! What the window needs of a game beyond its rules, and which game's board
//! is showing. How a game joins the window is `registry`'s.

use bevy::prelude::*;
use tabula_engine::games::Registered;
use tabula_engine::{Game, Player};

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
    /// The help line for a level: the controls, less any the level's rules
    /// turn off.
    fn controls(_level: &Self::Level) -> String {
        Self::CONTROLS.to_owned()
    }
    /// The level's rule options in a line, for the top bar.
    fn rules_text(level: &Self::Level) -> String;
    /// Why the game ended, with the seats' names.
    fn outcome_text(board: &Self::Observation, names: &[String]) -> String;
    /// What every seat knows beyond what the board shows (a Robot board's
    /// hints and where they were given), a line each with the seat it is
    /// about, for the side panel.
    fn clues(_board: &Self::Observation) -> Vec<(Player, String)> {
        Vec::new()
    }
    /// A move in words for the move log and the status line.
    fn move_text(_level: &Self::Level, mv: &Self::Move) -> String {
        mv.to_string()
    }
    /// Why the rules refused a move, in words for the status line.
    fn refusal(_board: &Self::Observation, error: &Self::Error) -> String {
        error.to_string()
    }
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

/// `WindowGame::cannot_undo`'s reason for a step that showed what was hidden.
pub const SHOWED_HIDDEN: &str = "it showed what was hidden";

/// The name of seat `p`, or "Player N" past the names given.
pub fn name_of(names: &[String], p: Player) -> String {
    names.get(p.index()).cloned().unwrap_or_else(|| p.to_string())
}
