//! The window's look shared by its screens (after bevy_new_2d's `theme`):
//! the colours that mean the same on every screen, the egui helpers every
//! screen draws with, one typeface for the board and the panels, and text
//! that grows with the window.

pub mod palette;
pub mod widgets;

use bevy::prelude::*;
use bevy::window::PrimaryWindow;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};

pub(super) fn plugin(app: &mut App) {
    app.add_systems(EguiPrimaryContextPass, scale_text);
    board_font(app);
}

/// The board's labels in the panels' typeface: egui's own sans-serif takes
/// the place of Bevy's default (monospace) font, so counts, names and
/// coordinates on the board read as the text beside it does.
fn board_font(app: &mut App) {
    let fonts = egui::FontDefinitions::default();
    let sans = fonts.families.get(&egui::FontFamily::Proportional).and_then(|names| names.first());
    let Some(data) = sans.and_then(|name| fonts.font_data.get(name)) else { return };
    let font = Font::from_bytes(data.font.to_vec());
    if let Some(mut assets) = app.world_mut().get_resource_mut::<Assets<Font>>() {
        // The default handle is the font of every text that names none.
        if let Err(e) = assets.insert(AssetId::default(), font) {
            warn!("the board keeps Bevy's own font: {e}");
        }
    }
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
