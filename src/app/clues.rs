//! The side panel's clues: what every seat knows beyond what the board
//! shows (`WindowGame::clues`: hints, and where they were given), a line each in the colour of the seat it is about.

use bevy::prelude::*;
use bevy_egui::egui;
use tabula_engine::Player;

use super::board::seat_color32;
use super::game::WindowGame;
use super::session::Session;

/// The height the clues take before they scroll.
const CLUES_HEIGHT: f32 = 150.0;

/// The lines shown, worked out again only when the game changes.
#[derive(Default)]
pub(super) struct Clues(Vec<(Player, String)>);

pub(super) fn clues<G: WindowGame>(ui: &mut egui::Ui, session: &Res<Session<G>>, shown: &mut Clues) {
    if session.is_changed() {
        shown.0 = G::clues(&session.view());
    }
    if shown.0.is_empty() {
        return;
    }
    ui.heading("Clues");
    // Held to a few lines' height, as the log is, so the newest moves
    // below stay in view however many clues come; that height even below
    // the panel's fold, as the log's.
    egui::ScrollArea::vertical()
        .id_salt("clues")
        .max_height(CLUES_HEIGHT)
        .min_scrolled_height(CLUES_HEIGHT)
        .show(ui, |ui| {
            for (seat, line) in &shown.0 {
                ui.label(egui::RichText::new(line).color(seat_color32(seat.index())));
            }
        });
    ui.separator();
}
