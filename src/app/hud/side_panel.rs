//! The side panel, right of the board: a broken level file, the lesson,
//! the game's buttons, the move log (of one height all game long), the
//! watching controls, replays, sound, then what grows as the game goes
//! (the teacher's notes, the clues), and the level file.

use bevy::ecs::system::SystemParam;
use bevy::prelude::*;
use bevy_egui::egui;

use super::room::PanelRoom;
use super::table::game_buttons;
use super::watch::watch_controls;
use crate::app::ask::{Asking, OpenReplays};
use crate::app::clues::{Clues, clues};
use crate::app::game::WindowGame;
use crate::app::lesson::{LessonPanel, lesson};
use crate::app::levels::reload::LevelWatch;
use crate::app::move_log::move_log;
use crate::app::session::{GameInProgress, Session, SessionRequest, TableNews, Watch};
use crate::app::settings::Settings;
use crate::app::teach::{MoveMarks, Teaching};
use crate::app::theme::palette::ERROR_COLOR;

const PANEL_WIDTH: f32 = 270.0;

/// What the side panel shows and changes.
#[derive(SystemParam)]
pub(super) struct SideControls<'w, 's, G: WindowGame> {
    session: Res<'w, Session<G>>,
    level_watch: Res<'w, LevelWatch>,
    lesson: ResMut<'w, LessonPanel>,
    watch: Res<'w, Watch>,
    settings: ResMut<'w, Settings>,
    open_replays: MessageWriter<'w, OpenReplays>,
    requests: MessageWriter<'w, SessionRequest>,
    asking: ResMut<'w, Asking>,
    in_progress: Res<'w, GameInProgress>,
    teaching: ResMut<'w, Teaching>,
    marks: Res<'w, MoveMarks>,
    clues: Local<'s, Clues>,
    news: Res<'w, TableNews>,
}

/// After the top and bottom bars: the right of what they leave.
pub(super) fn side_panel<G: WindowGame>(mut panels: PanelRoom, mut side: SideControls<G>) -> Result {
    let right = panels.show("controls", |root| {
        egui::Panel::right("controls").exact_size(PANEL_WIDTH).show(root, |ui| {
            // Each game's own scroll position: a new game starts at the top.
            // The bar always shows: a stranger took text cut at the bottom
            // for the panel's end, the bar appearing only under the pointer.
            let game = (G::NAME, &side.session.level_name, side.session.seed);
            ui.spacing_mut().scroll = egui::style::ScrollStyle::solid();
            egui::ScrollArea::vertical()
                .id_salt(game)
                .scroll_bar_visibility(egui::scroll_area::ScrollBarVisibility::AlwaysVisible)
                .show(ui, |ui| side.contents(ui));
        })
    })?;
    panels.room.right = right.response.rect;
    Ok(())
}

/// The panel's sections, top to bottom.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Section {
    LevelProblem,
    Lesson,
    Game,
    Watch,
    Replays,
    Sound,
    Teach,
    Clues,
    Moves,
    LevelFile,
}

/// Every button before whatever grows as a game goes on (the teacher's
/// notes, the clues found): a button never moves under the
/// pointer, and a click meant for Save never lands on a move of the log.
const ORDER: [Section; 10] = [
    Section::LevelProblem,
    Section::Lesson,
    Section::Game,
    // Of one height all game long (`move_log`): high up, where a stranger
    // sees the newest moves without scrolling the panel.
    Section::Moves,
    Section::Watch,
    Section::Replays,
    Section::Sound,
    Section::Teach,
    Section::Clues,
    Section::LevelFile,
];

impl Section {
    /// Whether it holds a button, a box or a slider.
    #[cfg(test)]
    fn clicked(self) -> bool {
        !matches!(self, Section::LevelProblem | Section::Clues | Section::LevelFile)
    }

    /// Whether its height changes during a game, by moves and not by the
    /// player's own choice (closing the lesson, a broken level file).
    #[cfg(test)]
    fn grows(self) -> bool {
        matches!(self, Section::Teach | Section::Clues)
    }
}

impl<G: WindowGame> SideControls<'_, '_, G> {
    fn contents(&mut self, ui: &mut egui::Ui) {
        for section in ORDER {
            self.section(ui, section);
        }
    }

    fn section(&mut self, ui: &mut egui::Ui, section: Section) {
        // Played elsewhere, the moves come as they are played: nothing to
        // pause, and the replay is kept there.
        let here = self.session.kind.plays_here();
        match section {
            // Beside the board, first in the panel, never over the board.
            Section::LevelProblem => level_problem(ui, &self.level_watch),
            Section::Lesson => lesson(ui, &self.session, &mut self.lesson),
            Section::Game => {
                self.game_buttons(ui);
                ui.separator();
            }
            // Folded while a person plays (their keys are in the bottom
            // line): what the game says as it goes (the teacher's notes,
            // the clues) then comes into view under the log.
            Section::Watch if here => {
                let watching = !self.session.has_human() || self.session.kind.steps_through();
                folded(ui, "Watch", watching, |ui| {
                    watch_controls(ui, &self.session, &self.watch, &mut self.settings, &mut self.requests)
                });
                ui.separator();
            }
            Section::Replays if here => {
                folded(ui, "Replays", false, |ui| self.replays(ui));
                ui.separator();
            }
            Section::Sound => {
                folded(ui, "Sound", false, |ui| self.sound(ui));
                ui.separator();
            }
            Section::Teach => self.teach(ui),
            Section::Clues => clues(ui, &self.session, &mut self.clues),
            Section::Moves => {
                move_log(ui, &self.session, &self.marks, &mut self.requests);
                ui.separator();
            }
            Section::LevelFile => self.level_file(ui),
            Section::Watch | Section::Replays => {}
        }
    }

    fn game_buttons(&mut self, ui: &mut egui::Ui) {
        if !self.session.kind.plays_here() {
            return game_buttons(ui, &self.news, &self.session, &mut self.requests, &mut self.asking);
        }
        ui.heading("Game");
        ui.horizontal(|ui| {
            if ui.button("Undo (U)").clicked() {
                self.requests.write(SessionRequest::Undo);
            }
            if ui.button("Redo (R)").clicked() {
                self.requests.write(SessionRequest::Redo);
            }
        });
        ui.horizontal(|ui| {
            if ui.button("Play again (F2)").clicked() {
                self.requests.write(SessionRequest::PlayAgain);
            }
            if ui.button("Menu (Esc)").clicked() {
                self.asking.leave_game(&self.in_progress, &mut self.requests);
            }
        });
        if self.session.deals && ui.button("Restart this deal (Shift+F2)").clicked() {
            self.requests.write(SessionRequest::Restart);
        }
    }

    /// The teaching overlay's box, and what it says of the position.
    fn teach(&mut self, ui: &mut egui::Ui) {
        if self.teaching.offered != Some(G::NAME) {
            return;
        }
        // The key's words, begun with a capital: "Teach: what each move is worth (T)".
        let label =
            G::TEACHES.strip_prefix("teach").map_or(G::TEACHES.to_owned(), |rest| format!("Teach{rest}"));
        ui.checkbox(&mut self.teaching.on, format!("{label} (T)"));
        if self.teaching.on {
            for note in &self.teaching.notes {
                let text = egui::RichText::new(&note.text);
                ui.label(if note.table { text.monospace() } else { text });
            }
        }
        ui.separator();
    }

    fn replays(&mut self, ui: &mut egui::Ui) {
        ui.horizontal(|ui| {
            if ui.button("Save (Ctrl+S)").clicked() {
                self.requests.write(SessionRequest::SaveReplay);
            }
            if ui.button("Open… (O)").clicked() {
                self.asking.open_replays(&self.in_progress, &mut self.open_replays);
            }
        });
        ui.checkbox(&mut self.settings.save_finished_games, "Save every finished game");
    }

    fn sound(&mut self, ui: &mut egui::Ui) {
        let settings = &mut *self.settings;
        ui.checkbox(&mut settings.sound, "Sound on (M)");
        ui.add_enabled(settings.sound, egui::Slider::new(&mut settings.volume, 0.0..=1.0).text("volume"));
    }

    /// Where the level comes from: the file to edit, or a replay.
    fn level_file(&self, ui: &mut egui::Ui) {
        ui.heading("Level file");
        match &self.session.level_path {
            Some(path) => {
                ui.label(egui::RichText::new(path.display().to_string()).monospace());
                // An installed level is never written: the editor saves the
                // player's own copy (`levels::library::edited`).
                let hint = if crate::app::levels::library::is_installed(path) {
                    "Installed, so read only: E in the menu edits it as your own copy."
                } else {
                    "Edit and save it: the game restarts on the new level."
                };
                ui.label(egui::RichText::new(hint).weak());
                if self.session.dealt_from.is_some() {
                    let dealt = "This game's board was dealt like the file's level: Play again (F2) deals \
                        another; D in the menu plays the level itself.";
                    ui.label(egui::RichText::new(dealt).weak());
                }
            }
            None => {
                ui.label(self.session.kind.level_source());
            }
        }
    }
}

/// A section under a heading that opens and closes it, open at first if
/// `open`.
fn folded(ui: &mut egui::Ui, title: &str, open: bool, add: impl FnOnce(&mut egui::Ui)) {
    egui::CollapsingHeader::new(egui::RichText::new(title).heading()).default_open(open).show(ui, add);
}

/// The broken level file, at the top of the side panel: what is wrong,
/// and that the game goes on with the last good level.
fn level_problem(ui: &mut egui::Ui, watch: &LevelWatch) {
    let Some(problem) = &watch.problem else { return };
    egui::Frame::group(ui.style()).stroke(egui::Stroke::new(1.5, ERROR_COLOR)).show(ui, |ui| {
        ui.label(egui::RichText::new("Level file error").color(ERROR_COLOR).strong());
        ui.label(egui::RichText::new(problem).color(ERROR_COLOR).monospace());
        ui.label(egui::RichText::new("The game keeps the last good level until the file is fixed.").weak());
    });
    ui.separator();
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn no_button_lies_below_what_grows_during_a_game() {
        let first_growing = ORDER.iter().position(|s| s.grows()).expect("the notes grow");
        for section in ORDER.iter().skip(first_growing) {
            assert!(
                section.grows() || !section.clicked(),
                "{section:?} has buttons but lies below {:?}, which grows as moves are made",
                ORDER[first_growing]
            );
        }
        assert_eq!(at_most_once(), ORDER.len(), "each section once");
    }

    fn at_most_once() -> usize {
        let mut seen = Vec::new();
        for s in ORDER {
            if !seen.contains(&s) {
                seen.push(s);
            }
        }
        seen.len()
    }
}
