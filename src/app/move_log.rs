//! The move log in the side panel: every move in words, newest last, with
//! who made it; the moves taken back follow, greyed. A click on a move
//! steps back (or forward) to just after it, as replay stepping does.

use bevy::prelude::*;
use bevy_egui::egui;

use super::board::seat_color32;
use super::game::WindowGame;
use super::session::{Session, SessionRequest};

/// Rows shown before the log scrolls.
const LOG_HEIGHT: f32 = 180.0;

/// One line of the log: the move's number, who made it, the move.
pub fn log_line(number: usize, who: &str, mv: &impl std::fmt::Display) -> String {
    format!("{number}. {who}: {mv}")
}

/// Draws the log; a click asks to go to that move.
pub(super) fn move_log<G: WindowGame>(
    ui: &mut egui::Ui,
    session: &Session<G>,
    requests: &mut MessageWriter<SessionRequest>,
) {
    ui.heading("Moves");
    if session.moves.is_empty() && session.redo.is_empty() {
        ui.label(egui::RichText::new("No move yet").weak());
        return;
    }
    let played = session.moves.len();
    egui::ScrollArea::vertical().id_salt("move log").max_height(LOG_HEIGHT).stick_to_bottom(true).show(
        ui,
        |ui| {
            if ui.selectable_label(played == 0, egui::RichText::new("0. the start").weak()).clicked() {
                requests.write(SessionRequest::GoTo(0));
            }
            for (i, (mv, by)) in session.moves.iter().zip(&session.movers).enumerate() {
                let text = egui::RichText::new(log_line(i + 1, session.name_of(*by), mv))
                    .color(seat_color32(by.index()));
                if ui.selectable_label(i + 1 == played, text).clicked() {
                    requests.write(SessionRequest::GoTo(i + 1));
                }
            }
            // Moves taken back, nearest first: a click plays forward to it.
            for (k, mv) in session.redo.iter().rev().enumerate() {
                let text = egui::RichText::new(format!("{}. {mv}", played + k + 1)).weak();
                if ui.selectable_label(false, text).clicked() {
                    requests.write(SessionRequest::GoTo(played + k + 1));
                }
            }
        },
    );
}
