//! The window's look shared by its screens (after bevy_new_2d's `theme`):
//! the colours that mean the same on every screen, the egui helpers every
//! screen draws with, and text that grows with the window.

pub mod palette;
pub mod widgets;

use bevy::prelude::*;
use bevy::window::PrimaryWindow;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass};

pub(super) fn plugin(app: &mut App) {
    app.add_systems(EguiPrimaryContextPass, scale_text);
}

/// egui text grows with the window so it stays readable on large screens.
fn scale_text(mut contexts: EguiContexts, window: Single<&Window, With<PrimaryWindow>>) -> Result {
    let zoom = (window.height() / 800.0).clamp(1.0, 2.0);
    let ctx = contexts.ctx_mut()?;
    if (ctx.zoom_factor() - zoom).abs() > 0.01 {
        ctx.set_zoom_factor(zoom);
    }
    Ok(())
}
