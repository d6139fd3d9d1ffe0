//! An arena's standings drawn with egui, as the HTML report has them: the
//! Elo plot beside the Elo table, the crosstable, the Weng-Lin plot and
//! table for games of more seats, and each level's wins by agent; numbers
//! in monospace, flush right under their headings.

use bevy_egui::egui;

use super::plot::{PlotRow, ratings_plot};
use super::tables;
use crate::arena_run::report::Standings;

/// From this width on, a plot and its table stand side by side.
const SIDE_BY_SIDE: f32 = 860.0;
/// Room between a table's columns (egui's default leaves one space).
const TABLE_SPACING: egui::Vec2 = egui::vec2(14.0, 4.0);

/// The standings read from `rated` games.
pub(super) fn standings(ui: &mut egui::Ui, s: &Standings, rated: u64) {
    let side_by_side = ui.available_width() >= SIDE_BY_SIDE;
    if s.has_two_seat_games() {
        section(
            ui,
            "Elo ratings, with 95% intervals",
            &format!(
                "maximum likelihood over the two-seat games of every level ({rated} games in the database); the mean is 0"
            ),
        );
        let elo: Vec<PlotRow> = s
            .order()
            .into_iter()
            .map(|a| PlotRow { name: &s.agents[a], value: s.ratings[a].elo, interval: s.ratings[a].interval })
            .collect();
        beside(ui, side_by_side, |ui| ratings_plot(ui, &elo, true), |ui| elo_table(ui, s));
        section(
            ui,
            "Crosstable",
            "the row's score against the column (a draw is half a point), and the games",
        );
        crosstable(ui, s);
    }
    if let Some(rows) = tables::weng_lin_rows(s) {
        let multi = s.multi.as_ref().expect("Weng-Lin rows come from it");
        section(
            ui,
            "Weng-Lin ratings",
            "games of more than two seats, the winner first and the others tied behind; every agent starts at 25",
        );
        // In the table's order, strongest first.
        let plot: Vec<PlotRow> = rows
            .iter()
            .map(|&(a, _)| PlotRow { name: &s.agents[a], value: multi[a].0, interval: multi[a].1 })
            .collect();
        beside(ui, side_by_side, |ui| ratings_plot(ui, &plot, false), |ui| weng_lin_table(ui, s, &rows));
    }
    section(ui, "Levels", "games played of those planned, and the wins of each agent");
    levels(ui, s);
}

/// A part's heading, and what it shows in a line beside it (under it when
/// the window is narrow).
fn section(ui: &mut egui::Ui, title: &str, about: &str) {
    ui.add_space(6.0);
    ui.horizontal_wrapped(|ui| {
        ui.heading(title);
        ui.label(egui::RichText::new(about).weak());
    });
}

/// Two parts side by side when there is room, else one above the other.
fn beside(
    ui: &mut egui::Ui,
    side_by_side: bool,
    left: impl FnOnce(&mut egui::Ui),
    right: impl FnOnce(&mut egui::Ui),
) {
    if side_by_side {
        ui.horizontal_top(|ui| {
            ui.allocate_ui(egui::vec2(ui.available_width() * 0.55, 0.0), left);
            ui.add_space(16.0);
            ui.vertical(right);
        });
    } else {
        left(ui);
        ui.add_space(6.0);
        right(ui);
    }
}

fn elo_table(ui: &mut egui::Ui, s: &Standings) {
    let rows = tables::elo_rows(s);
    let rating = rows.iter().map(|r| r.rating.chars().count()).max().unwrap_or(0).max("Elo (95%)".len());
    egui::Grid::new("elo").striped(true).spacing(TABLE_SPACING).show(ui, |ui| {
        ui.strong("#");
        ui.strong("Agent");
        right(ui, "Elo (95%)", rating, true);
        right(ui, "Score", 6, true);
        right(ui, "Games", 6, true);
        ui.end_row();
        for row in rows {
            ui.label(row.place.to_string());
            ui.label(&s.agents[row.agent]);
            right(ui, &row.rating, rating, false);
            right(ui, &row.score, 6, false);
            right(ui, &row.games.to_string(), 6, false);
            ui.end_row();
        }
    });
}

fn weng_lin_table(ui: &mut egui::Ui, s: &Standings, rows: &[(usize, String)]) {
    let width = rows.iter().map(|(_, r)| r.chars().count()).max().unwrap_or(0).max("Rating (95%)".len());
    egui::Grid::new("weng-lin").striped(true).spacing(TABLE_SPACING).show(ui, |ui| {
        ui.strong("#");
        ui.strong("Agent");
        right(ui, "Rating (95%)", width, true);
        ui.end_row();
        for (place, (a, rating)) in rows.iter().enumerate() {
            ui.label((place + 1).to_string());
            ui.label(&s.agents[*a]);
            right(ui, rating, width, false);
            ui.end_row();
        }
    });
}

/// A cell of numbers in monospace, flush right in `width` characters (a
/// column's heading too, so it stands over its numbers).
fn right(ui: &mut egui::Ui, text: &str, width: usize, heading: bool) {
    let text = egui::RichText::new(format!("{text:>width$}")).monospace();
    ui.label(if heading { text.strong() } else { text });
}

fn crosstable(ui: &mut egui::Ui, s: &Standings) {
    let order = s.order();
    let cells = tables::crosstable(s);
    let names = order.iter().map(|&a| s.agents[a].chars().count());
    let width = cells.iter().flatten().flatten().map(|c| c.chars().count()).chain(names).max().unwrap_or(0);
    egui::Grid::new("crosstable").striped(true).spacing(TABLE_SPACING).show(ui, |ui| {
        ui.label("");
        for &b in &order {
            right(ui, &s.agents[b], width, true);
        }
        ui.end_row();
        for (&a, row) in order.iter().zip(&cells) {
            ui.strong(&s.agents[a]);
            for cell in row {
                right(ui, cell.as_deref().unwrap_or("—"), width, false);
            }
            ui.end_row();
        }
    });
}

/// Each level's games played of those planned, and its wins by agent.
fn levels(ui: &mut egui::Ui, s: &Standings) {
    let order = s.order();
    let won: Vec<String> = order.iter().map(|&a| format!("{} won", s.agents[a])).collect();
    let games =
        s.levels.iter().map(|l| format!("{} of {}", l.played, l.planned).len()).max().unwrap_or(0).max(5);
    egui::Grid::new("levels").striped(true).spacing(TABLE_SPACING).show(ui, |ui| {
        ui.strong("Level");
        right(ui, "Seats", 5, true);
        right(ui, "Games", games, true);
        for header in &won {
            right(ui, header, header.chars().count(), true);
        }
        right(ui, "Draws", 5, true);
        ui.end_row();
        for level in &s.levels {
            ui.label(&level.path);
            right(ui, &level.seats.to_string(), 5, false);
            right(ui, &format!("{} of {}", level.played, level.planned), games, false);
            for (&a, header) in order.iter().zip(&won) {
                right(ui, &level.wins[a].to_string(), header.chars().count(), false);
            }
            right(ui, &level.draws.to_string(), 5, false);
            ui.end_row();
        }
    });
}
