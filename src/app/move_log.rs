//! The move log in the side panel: every move in words, newest last, with
//! who made it; the moves taken back follow, greyed. A click on a move
//! steps back (or forward) to just after it, as replay stepping does.
//! A finished game reviewed by the teaching overlay has its weak moves
//! marked in red, with a line on them at the top.

use bevy::prelude::*;
use bevy_egui::egui;

use super::board::seat_color32;
use super::game::WindowGame;
use super::session::{Session, SessionRequest};
use super::teach::MoveMarks;
use super::theme::palette::ERROR_COLOR;

/// Characters beyond which a line may not fit the panel.
const LONG_LINE: usize = 34;

/// Rows shown before the log scrolls.
const LOG_HEIGHT: f32 = 180.0;

/// One line of the log: the move's number, who made it, the move.
pub fn log_line(number: usize, who: &str, mv: &str) -> String {
    format!("{number}. {who}: {mv}")
}

/// Draws the log; a click asks to go to that move.
pub(super) fn move_log<G: WindowGame>(
    ui: &mut egui::Ui,
    session: &Session<G>,
    marks: &MoveMarks,
    requests: &mut MessageWriter<SessionRequest>,
) {
    ui.heading("Moves");
    if let Some(row) = log_of_fixed_height(ui, session, marks) {
        requests.write(SessionRequest::GoTo(row));
    }
}

/// The log, as high from the first move as from the hundredth: it sits
/// above buttons (where the newest moves are in view), and they stay put.
fn log_of_fixed_height<G: WindowGame>(
    ui: &mut egui::Ui,
    session: &Session<G>,
    marks: &MoveMarks,
) -> Option<usize> {
    // Framed, so that the room kept for moves to come reads as the log's.
    let framed = egui::Frame::group(ui.style()).inner_margin(4).show(ui, |ui| {
        let top = ui.cursor().top();
        let width = ui.available_width();
        ui.set_min_width(width);
        let clicked = ui.allocate_ui(egui::vec2(width, LOG_HEIGHT), |ui| log_rows(ui, session, marks));
        ui.add_space((LOG_HEIGHT - (ui.cursor().top() - top)).max(0.0));
        clicked.inner
    });
    framed.inner
}

/// The log's rows, or that there is none yet; the row clicked.
fn log_rows<G: WindowGame>(ui: &mut egui::Ui, session: &Session<G>, marks: &MoveMarks) -> Option<usize> {
    if session.moves.is_empty() && session.redo.is_empty() {
        ui.label(egui::RichText::new("No move yet").weak());
        return None;
    }
    let top = ui.cursor().top();
    let played = session.moves.len();
    if let Some(summary) = marks.summary_for(played) {
        ui.label(egui::RichText::new(summary).color(ERROR_COLOR));
    }
    let rows = 1 + played + session.redo.len();
    let row_height = ui.text_style_height(&egui::TextStyle::Body) + ui.spacing().item_spacing.y;
    let mut clicked = None;
    // Only the rows in view are laid out: a long game has thousands.
    let height = LOG_HEIGHT - (ui.cursor().top() - top) - ui.spacing().item_spacing.y;
    log_area(height).show_rows(ui, row_height, rows, |ui, range| {
        for row in range {
            let (text, current) = match row {
                0 => (egui::RichText::new("0. the start").weak(), played == 0),
                // Moves played, in the colour of who made them.
                n if n <= played => {
                    let by = session.movers[n - 1];
                    let line = log_line(n, session.name_of(by), &session.words(n));
                    (egui::RichText::new(line).color(seat_color32(by.index())), n == played)
                }
                // Moves taken back, nearest first: a click plays forward to it.
                n => (egui::RichText::new(format!("{n}. {}", session.words(n))).weak(), false),
            };
            ui.horizontal(|ui| {
                if let Some(mark) = marks.of(row, played).filter(|_| row <= played) {
                    ui.label(egui::RichText::new(mark).color(ERROR_COLOR).strong());
                }
                // A line too long for the panel ends in "…" (whole on
                // hover) rather than running past its edge.
                let whole = text.text().to_owned();
                let mut line = ui.add(egui::Button::selectable(current, text).truncate());
                // Only a line that may be cut short: a tooltip on
                // every row would cover the log.
                if whole.chars().count() > LONG_LINE {
                    line = line.on_hover_text(whole);
                }
                if line.clicked() {
                    clicked = Some(row);
                }
            });
        }
    });
    clicked
}

/// The log's scroll area: its full height even below the side panel's
/// fold, where egui would give a nested scroll area three rows; the panel
/// scrolls to it.
fn log_area(height: f32) -> egui::ScrollArea {
    egui::ScrollArea::vertical()
        .id_salt("move log")
        .max_height(height)
        .min_scrolled_height(height)
        .stick_to_bottom(true)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::app::theme::widgets::root_ui_over;

    /// A stranger saw three rows of a long log, below the fold of a panel
    /// full of teaching notes.
    #[test]
    fn the_log_keeps_its_height_below_the_panel_s_fold() {
        let ctx = egui::Context::default();
        let window = egui::Rect::from_min_size(egui::Pos2::ZERO, egui::vec2(270.0, 400.0));
        ctx.begin_pass(egui::RawInput { screen_rect: Some(window), ..Default::default() });
        let mut root = root_ui_over(&ctx, egui::Id::new("test"), window);
        let mut height = 0.0;
        egui::ScrollArea::vertical().id_salt("panel").show(&mut root, |ui| {
            // The sections above the log fill the panel but for a few points.
            ui.add_space(390.0);
            let log = log_area(LOG_HEIGHT).show_rows(ui, 20.0, 200, |ui, range| {
                for row in range {
                    ui.label(format!("{row}. a move"));
                }
            });
            height = log.inner_rect.height();
        });
        // No renderer takes the font atlas here: it is let go.
        ctx.end_pass().textures_delta.clear();
        assert!(height >= LOG_HEIGHT - 1.0, "the log is {height} points high");
    }

    /// The log stands above buttons: it is as high with no move as with
    /// a few or many, so nothing below it moves as a game goes on.
    #[test]
    fn the_log_is_as_high_from_the_first_move_to_the_last() {
        use tabula_engine::Player;
        use tabula_engine::nim::Take;
        let mut heights = Vec::new();
        for moves in [0, 1, 3, 60] {
            let mut session = crate::app::hud::nim_session(&[70]);
            for _ in 0..moves {
                session.moves.push(Take { pile: 0, count: 1 });
                session.movers.push(Player::ONE);
            }
            let ctx = egui::Context::default();
            let window = egui::Rect::from_min_size(egui::Pos2::ZERO, egui::vec2(270.0, 800.0));
            ctx.begin_pass(egui::RawInput { screen_rect: Some(window), ..Default::default() });
            let mut root = root_ui_over(&ctx, egui::Id::new("test"), window);
            let top = root.cursor().top();
            let clicked = log_of_fixed_height(&mut root, &session, &MoveMarks::default());
            heights.push(root.cursor().top() - top);
            assert_eq!(clicked, None);
            ctx.end_pass().textures_delta.clear();
        }
        assert!(heights.iter().all(|h| (h - heights[0]).abs() < 0.5), "heights {heights:?}");
    }
}
