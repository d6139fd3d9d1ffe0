//! The side panel's clues: what every seat knows beyond what the board
//! shows (`WindowGame::clues`: hints, and where they were given), a line each in the colour of the seat it is about.

use bevy::prelude::*;
use bevy_egui::egui;
use tabula_engine::Player;

use super::board::seat_color32;
use super::game::WindowGame;
use super::session::Session;

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
    for (seat, line) in &shown.0 {
        ui.label(egui::RichText::new(line).color(seat_color32(seat.index())));
    }
    ui.separator();
}
