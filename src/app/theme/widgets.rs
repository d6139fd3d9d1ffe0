//! egui helpers every screen draws with.

use bevy_egui::egui;

use super::palette::ERROR_COLOR;
use crate::app::session::StatusLine;

/// One root `Ui` covering the window, for panels.
pub fn root_ui(ctx: &egui::Context) -> egui::Ui {
    root_ui_over(ctx, "root".into(), ctx.viewport_rect())
}

/// A root `Ui` for panels over `room`, the part of the window that panels
/// added before it (by other systems) left: a panel takes its side of it.
/// It may draw anywhere in the window, as a panel of `root_ui` may.
pub fn root_ui_over(ctx: &egui::Context, id: egui::Id, room: egui::Rect) -> egui::Ui {
    let mut ui = egui::Ui::new(
        ctx.clone(),
        id,
        egui::UiBuilder::new().layer_id(egui::LayerId::background()).max_rect(room),
    );
    ui.set_clip_rect(ctx.viewport_rect());
    ui
}

/// The status line's text, in red when it says what went wrong.
pub fn status_text(ui: &egui::Ui, status: &StatusLine) -> egui::RichText {
    let color = if status.error { ERROR_COLOR } else { ui.visuals().text_color() };
    egui::RichText::new(&status.text).color(color)
}

/// A small filled circle in `color`, a status light beside its words:
/// painted, since the panels' typeface has no such glyph.
pub fn status_light(ui: &mut egui::Ui, color: egui::Color32) {
    let size = ui.text_style_height(&egui::TextStyle::Body);
    let (rect, _) = ui.allocate_exact_size(egui::vec2(size * 0.7, size), egui::Sense::hover());
    ui.painter().circle_filled(rect.center(), size * 0.3, color);
}
