//! The window as the game screen's panels share it. egui gives each panel
//! its side of what the panels added before it left, so the panels, one
//! system each, pass that on in `Room` in a fixed order; the board camera
//! then draws only in what they all left.

use bevy::camera::Viewport;
use bevy::ecs::system::SystemParam;
use bevy::prelude::*;
use bevy::window::PrimaryWindow;
use bevy_egui::{EguiContexts, egui};

use crate::app::board::BoardCamera;
use crate::app::screen::Screen;
use crate::app::theme::widgets::root_ui_over;

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<Room>().add_systems(OnEnter(Screen::Menu), full_viewport);
}

/// The window's space as the panels have taken it this frame, in points.
#[derive(Resource, Debug)]
pub(super) struct Room {
    /// What no panel has taken yet.
    free: egui::Rect,
    pub(super) top: egui::Rect,
    pub(super) bottom: egui::Rect,
    pub(super) right: egui::Rect,
    /// The height kept for the game-over band under the board.
    pub(super) end: f32,
}

impl Default for Room {
    fn default() -> Room {
        let none = egui::Rect::ZERO;
        Room { free: none, top: none, bottom: none, right: none, end: 0.0 }
    }
}

/// A panel's place in the window: egui's context, and the room the panels
/// before it left.
#[derive(SystemParam)]
pub(super) struct PanelRoom<'w, 's> {
    contexts: EguiContexts<'w, 's>,
    pub(super) room: ResMut<'w, Room>,
}

impl PanelRoom<'_, '_> {
    /// The first panel of a frame has the whole window.
    pub(super) fn start(&mut self) -> Result {
        self.room.free = self.contexts.ctx_mut()?.viewport_rect();
        Ok(())
    }

    /// The egui context, for what floats over the panels.
    pub(super) fn ctx(&mut self) -> Result<egui::Context> {
        Ok(self.contexts.ctx_mut()?.clone())
    }

    /// Adds panels (named `id`) in the room left, and leaves the rest to the
    /// panels after them.
    pub(super) fn show<R>(&mut self, id: &str, add: impl FnOnce(&mut egui::Ui) -> R) -> Result<R> {
        let ctx = self.ctx()?;
        let mut root = root_ui_over(&ctx, egui::Id::new(("hud", id)), self.room.free);
        let shown = add(&mut root);
        self.room.free = root.available_rect_before_wrap();
        Ok(shown)
    }
}

/// The board takes what the panels leave.
pub(super) fn fit_board(
    room: Res<Room>,
    mut camera: Single<&mut Camera, With<BoardCamera>>,
    window: Single<&Window, With<PrimaryWindow>>,
) {
    let scale = window.scale_factor();
    let left_top = UVec2::new(0, (room.top.height() * scale) as u32);
    let reserved = UVec2::new(
        (room.right.width() * scale) as u32,
        ((room.top.height() + room.bottom.height() + room.end) * scale) as u32,
    );
    let full = UVec2::new(window.physical_width(), window.physical_height());
    if full.x > reserved.x + 50 && full.y > reserved.y + 50 {
        camera.viewport =
            Some(Viewport { physical_position: left_top, physical_size: full - reserved, ..default() });
    }
}

/// Off the game screen the board camera has the whole window again.
fn full_viewport(mut camera: Single<&mut Camera, With<BoardCamera>>) {
    camera.viewport = None;
}
