//! The level's own words in the game: its description as a panel at the top
//! of the side panel ("Lesson" on a lesson level), open when a level starts,
//! closed and opened again with its button or L. It sits beside the board,
//! so opening or closing it never moves a tile.

use bevy::prelude::*;
use bevy_egui::egui;
use tabula_engine::core::{Level, LevelGroup};

use super::game::WindowGame;
use super::session::Session;

/// The lesson panel: closed by the player, for the level named.
#[derive(Resource, Default)]
pub struct LessonPanel {
    pub closed: bool,
    /// The level it was last shown for: a new level opens it again.
    level: String,
}

impl LessonPanel {
    pub fn toggle(&mut self) {
        self.closed = !self.closed;
    }
}

/// The panel's heading: lessons teach, other levels only describe.
pub fn heading(group: LevelGroup) -> &'static str {
    match group {
        LevelGroup::Lesson => "Lesson",
        LevelGroup::Specification => "Specification test",
        LevelGroup::Game | LevelGroup::Large => "About this level",
    }
}

/// Draws the panel (or, closed, the button that opens it) into the side
/// panel. Nothing is drawn for a level without a description.
pub fn lesson<G: WindowGame>(ui: &mut egui::Ui, session: &Session<G>, panel: &mut LessonPanel) {
    let text = session.level.description();
    if text.is_empty() {
        return;
    }
    if panel.level != session.level_name {
        panel.level.clone_from(&session.level_name);
        panel.closed = false;
    }
    let heading = heading(session.level.group());
    if panel.closed {
        if ui.button(format!("Show the {} (L)", heading.to_lowercase())).clicked() {
            panel.closed = false;
        }
    } else {
        egui::Frame::group(ui.style()).fill(ui.visuals().faint_bg_color).show(ui, |ui| {
            ui.horizontal(|ui| {
                ui.label(egui::RichText::new(heading).strong().size(16.0));
                ui.with_layout(egui::Layout::right_to_left(egui::Align::Center), |ui| {
                    if ui.small_button("Close (L)").clicked() {
                        panel.closed = true;
                    }
                });
            });
            ui.label(text);
        });
    }
    ui.separator();
}
