//! Watching: the side panel's controls (pause, step, step back, the agents'
//! speed and the animations'), and Paused shown under the board.

use bevy::prelude::*;
use bevy_egui::egui;

use crate::app::game::WindowGame;
use crate::app::session::{Session, SessionRequest, Watch};
use crate::app::settings::Settings;
use crate::app::theme::palette::PAUSED_COLOR;

/// The side panel's Watch section.
pub(super) fn watch_controls<G: WindowGame>(
    ui: &mut egui::Ui,
    session: &Session<G>,
    watch: &Watch,
    settings: &mut Settings,
    requests: &mut MessageWriter<SessionRequest>,
) {
    ui.horizontal(|ui| {
        let label = if watch.paused { "Resume (Space)" } else { "Pause (Space)" };
        if ui.button(label).clicked() {
            requests.write(SessionRequest::TogglePause);
        }
        if ui.button("Step (.)").clicked() {
            requests.write(SessionRequest::Step);
        }
    });
    if session.kind.steps_through() && ui.button("Step back (,)").clicked() {
        requests.write(SessionRequest::Undo);
    }
    // Two decimals: a logarithmic slider dragged lands on 0.5926.
    ui.add(
        egui::Slider::new(&mut settings.ai_moves_per_second, 0.25..=30.0)
            .logarithmic(true)
            .fixed_decimals(2)
            .text("moves/s"),
    );
    ui.add(
        egui::Slider::new(&mut settings.animation_speed, 0.25..=4.0)
            .logarithmic(true)
            .fixed_decimals(2)
            .text("animation"),
    );
}

/// Paused, said in the band kept under the board (where the end of a game
/// shows), so it never covers a card, a stone or a tile; at the band's right
/// end, clear of what a board puts at its bottom left. Its height, shown.
pub(super) fn paused_band<G: WindowGame>(
    root: &mut egui::Ui,
    session: &Session<G>,
    watch: &Watch,
) -> Option<f32> {
    if !watch.paused {
        return None;
    }
    let frame = egui::Frame::side_top_panel(root.style()).inner_margin(egui::Margin::symmetric(16, 8));
    let band = egui::Panel::bottom("paused").frame(frame).resizable(false).show(root, |ui| {
        ui.with_layout(egui::Layout::right_to_left(egui::Align::Center), |ui| {
            let text = if session.kind.steps_through() {
                "Paused: Space plays, . steps"
            } else {
                "Paused: Space goes on, . plays one move"
            };
            ui.label(egui::RichText::new(text).color(PAUSED_COLOR).strong().size(17.0));
        });
    });
    Some(band.response.rect.height())
}
