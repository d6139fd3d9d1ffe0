//! The game screen's panels (egui), one system each: the top bar (whose
//! turn it is), the bottom bar (the status line and keys), the side panel
//! (level file errors, the lesson, undo, watching, clues, the move log,
//! replays, sound), and the band under the board: the end of a game, or
//! Paused.
//! The board camera draws only in the space the panels leave.

mod bottom_bar;
mod end_band;
mod room;
mod side_panel;
mod table;
mod top_bar;
mod watch;

use bevy::prelude::*;
use bevy_egui::EguiPrimaryContextPass;

use crate::app::board::playing;
use crate::app::game::WindowGame;

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<PanelsBelow>().add_plugins(room::plugin);
}

/// The game screen's panels, drawn in order; what floats over the board is
/// placed after them.
#[derive(SystemSet, Debug, Clone, PartialEq, Eq, Hash)]
pub struct HudPanels;

/// Points the panels under the board take this frame, from the window's
/// bottom up: the status bar, and the end band (or Paused) when shown.
/// What floats at the board's bottom sits above them.
#[derive(Resource, Default, Debug, Clone, Copy, PartialEq)]
pub struct PanelsBelow(pub f32);

/// The panels of one game's screen (with a window only: egui draws them).
/// Each egui panel takes its side of what the panels before it left, so
/// their order is the screen's layout.
pub(crate) fn game_plugin<G: WindowGame>(app: &mut App) {
    app.add_systems(
        EguiPrimaryContextPass,
        (
            top_bar::top_bar::<G>,
            bottom_bar::bottom_bar::<G>,
            side_panel::side_panel::<G>,
            end_band::end_band::<G>,
            room::fit_board,
        )
            .chain()
            .in_set(HudPanels)
            .run_if(playing::<G>),
    );
}

#[cfg(test)]
/// A session of Nim on `piles`, no seat chosen, for the panels' tests.
pub(crate) fn nim_session(piles: &[u32]) -> crate::app::session::Session<tabula_engine::nim::Nim> {
    use tabula_engine::level::LevelFile;
    use tabula_engine::nim::{Ending, Nim, NimLevel};
    let level = NimLevel::new("n", piles, Ending::Normal);
    let plan = crate::app::session::SessionPlan {
        level_path: None,
        level: LevelFile::new::<Nim>(level.clone()),
        seats: Vec::new(),
        seed: 0,
        replay: None,
        deal: false,
    };
    crate::app::session::Session::new(&plan, level).unwrap()
}
