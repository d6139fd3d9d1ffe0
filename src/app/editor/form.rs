//! The form: the editor of every game without an editor of its own. A
//! level is a few numbers and rule options, edited as the game's fields
//! (`WindowGame::edit_level`) beside its picture redrawn at once (the
//! menu's, or one to edit on: `WindowGame::edit_on_picture`). Undo and redo,
//! the engine's check after every change, saving in the fmt layout and
//! test-play work as in every editor.

use crate::app::help::{Controls, ScreenKeys, key};
use bevy::prelude::*;
use bevy_egui::{EguiContexts, egui};
use tabula_engine::core::LevelGroup;
use tabula_engine::core::history::{Edit, History};
use tabula_engine::format;
use tabula_engine::level::{self, LevelFile};

use super::{LevelEditor, Opened};
use crate::app::ask::{Asking, LeaveEditor};
use crate::app::game::WindowCatalog;
use crate::app::screen::BackTo;
use crate::app::session::{Controller, SeatSetup, SessionPlan, SessionRequest, StatusLine};
use crate::app::settings::Settings;
use crate::app::theme::palette::{ERROR_COLOR, OK_COLOR};
use crate::app::theme::widgets::root_ui;

/// A whole level put in place of another: these levels are small.
pub struct Replace(pub LevelFile);

impl Edit<LevelFile> for Replace {
    fn apply(self, level: &mut LevelFile) -> Replace {
        Replace(std::mem::replace(level, self.0))
    }
}

/// A level being edited in the form.
#[derive(Resource)]
pub struct FormEditing {
    pub path: std::path::PathBuf,
    header: String,
    lost_comments: Vec<(usize, String)>,
    pub history: History<LevelFile, Replace>,
    saved: LevelFile,
    /// Why the level cannot be played, if it cannot.
    pub problem: Option<String>,
    /// How deep the history was when the mouse button went down: what a drag
    /// changes until it is let go is one edit.
    held: Option<usize>,
}

impl FormEditing {
    pub fn new(
        path: std::path::PathBuf,
        level: LevelFile,
        header: String,
        lost: Vec<(usize, String)>,
    ) -> FormEditing {
        let problem = level.validate().err().map(|e| e.to_string());
        FormEditing {
            path,
            header,
            lost_comments: lost,
            saved: level.clone(),
            history: History::new(level),
            problem,
            held: None,
        }
    }

    pub fn level(&self) -> &LevelFile {
        self.history.level()
    }

    /// Follows the mouse button: the edits made while it is held (a pile's
    /// count dragged, a number dragged) become one when it is let go.
    pub fn hold(&mut self, down: bool) {
        match (down, self.held) {
            (true, None) => self.held = Some(self.history.depth().0),
            // The undoings come last first: the last undoes the whole drag.
            (false, Some(since)) => {
                self.history.squash(since, |backs| backs.into_iter().last().expect("edits to join"));
                self.held = None;
            }
            _ => {}
        }
    }

    pub fn edit(&mut self, level: LevelFile) {
        if &level != self.level() {
            self.history.edit(Replace(level));
            self.checked();
        }
    }

    fn checked(&mut self) {
        self.problem = self.level().validate().err().map(|e| e.to_string());
    }

    pub fn undo(&mut self) {
        self.history.undo();
        self.checked();
    }

    pub fn redo(&mut self) {
        self.history.redo();
        self.checked();
    }

    pub fn unsaved(&self) -> bool {
        self.level() != &self.saved
    }

    /// The level as last saved or opened.
    pub fn saved_level(&self) -> &LevelFile {
        &self.saved
    }

    /// The level as it stands is what the file holds.
    pub(super) fn mark_saved(&mut self) {
        self.saved = self.level().clone();
    }

    /// Writes the level in the fmt layout, atomically; comments that cannot
    /// be kept are named once first.
    pub fn save(&mut self) -> Result<String, String> {
        if !self.lost_comments.is_empty() {
            let lines: Vec<String> =
                self.lost_comments.drain(..).map(|(l, c)| format!("line {l}: {c}")).collect();
            return Err(format!(
                "Saving drops these comments ({}); save again to drop them",
                lines.join("; ")
            ));
        }
        let text = format::with_header(self.level(), &self.header);
        level::write_atomically(&self.path, &text)
            .map_err(|e| format!("Cannot save {}: {e}", self.path.display()))?;
        self.saved = self.level().clone();
        Ok(format!("Saved {}", self.path.display()))
    }

    /// A game of the level as it stands: you against the game's default agent.
    pub fn test_plan(&self, settings: &Settings) -> Result<SessionPlan, String> {
        if let Some(problem) = &self.problem {
            return Err(format!("The level cannot be played yet: {problem}"));
        }
        let game = self.level().game();
        let seats = (0..game.num_players(self.level()))
            .map(|i| SeatSetup {
                name: settings.name(i),
                controller: match i {
                    0 => Controller::Human,
                    _ => {
                        Controller::Agent(tabula_engine::core::AgentSpec::new(game.default_opponent(), None))
                    }
                },
            })
            .collect();
        Ok(super::test_plan(&self.path, self.level().clone(), seats))
    }
}

impl LevelEditor for FormEditing {
    fn open(opened: Opened) -> FormEditing {
        FormEditing::new(opened.path, opened.level, opened.header, opened.lost_comments)
    }

    fn path(&self) -> &std::path::Path {
        &self.path
    }

    fn level_now(&self) -> LevelFile {
        self.level().clone()
    }

    fn level_saved(&self) -> LevelFile {
        self.saved.clone()
    }

    fn take_from_disk(&mut self, level: LevelFile) {
        self.edit(level);
        self.mark_saved();
    }

    fn unsaved(&self) -> bool {
        FormEditing::unsaved(self)
    }

    fn save(&mut self) -> Result<String, String> {
        FormEditing::save(self)
    }
}

/// What the form's keys and buttons asked for this frame.
#[derive(Default)]
struct Asked {
    save: bool,
    play: bool,
    leave: bool,
}

pub(super) fn form(
    mut contexts: EguiContexts,
    editing: Option<ResMut<FormEditing>>,
    catalog: Res<WindowCatalog>,
    mut status: ResMut<StatusLine>,
    settings: Res<Settings>,
    keys: Res<ButtonInput<KeyCode>>,
    mut requests: MessageWriter<SessionRequest>,
    mut back: ResMut<BackTo>,
    (mut asking, mut leave): (ResMut<Asking>, MessageWriter<LeaveEditor>),
    mut help: ResMut<ScreenKeys>,
) -> Result {
    let Some(mut editing) = editing else { return Ok(()) };
    let ctx = contexts.ctx_mut()?.clone();
    let mut root = root_ui(&ctx);
    let mut asked = follow_keys(&ctx, &keys, &mut editing);
    editing.hold(ctx.input(|i| i.pointer.any_down()));
    let keys = [
        key("Ctrl+Z", "undo"),
        key("Ctrl+Y", "redo"),
        key("Ctrl+S", "save"),
        key("F5", "test-play"),
        key("Esc", "menu"),
    ];
    let keys = help.show("the level editor", Controls::new("Change the fields; the picture follows.", &keys));
    let (verbs, _) = super::bottom_bar(&mut root, "form-status", editing.history.depth(), &status, &keys);
    if verbs.undo {
        editing.undo();
    }
    if verbs.redo {
        editing.redo();
    }
    asked.save |= verbs.save;
    asked.play |= verbs.play;
    asked.leave |= verbs.leave;
    top_bar(&mut root, &editing);
    let refused = level_and_picture(&mut root, &mut editing, &catalog, &mut status);
    if let Some(why) = refused {
        status.error(format!("Not there: {why}"));
    }
    if asked.save {
        match editing.save() {
            Ok(done) => status.info(done),
            Err(why) => status.error(why),
        }
    }
    if asked.play {
        super::test_play(editing.test_plan(&settings), &mut requests, &mut back, &mut status);
    }
    if asked.leave {
        super::ask_to_leave(&*editing, &mut asking, &mut leave);
    }
    Ok(())
}

/// Undo and redo by key, and which other verbs the keys ask for (none
/// while a text field has the keyboard).
fn follow_keys(ctx: &egui::Context, keys: &ButtonInput<KeyCode>, editing: &mut FormEditing) -> Asked {
    let ctrl = keys.any_pressed([KeyCode::ControlLeft, KeyCode::ControlRight]);
    let typing = ctx.egui_wants_keyboard_input();
    if ctrl && keys.just_pressed(KeyCode::KeyZ) && !typing {
        editing.undo();
    }
    if ctrl && keys.just_pressed(KeyCode::KeyY) && !typing {
        editing.redo();
    }
    Asked {
        save: ctrl && keys.just_pressed(KeyCode::KeyS),
        play: keys.just_pressed(KeyCode::F5),
        leave: keys.just_pressed(KeyCode::Escape) && !typing,
    }
}

/// The level's name and file, and whether it can be played.
fn top_bar(root: &mut egui::Ui, editing: &FormEditing) {
    egui::Panel::top("form-top").show(root, |ui| {
        ui.add_space(4.0);
        ui.horizontal(|ui| {
            let star = if editing.unsaved() { " *" } else { "" };
            ui.heading(format!("Editing · {}{star}", editing.level().name()));
            ui.label(egui::RichText::new(editing.path.display().to_string()).monospace().weak());
        });
        match &editing.problem {
            Some(p) => ui.label(egui::RichText::new(format!("Cannot be played yet: {p}")).color(ERROR_COLOR)),
            None => ui.label(egui::RichText::new("Ready to play: every rule holds").color(OK_COLOR)),
        };
        ui.add_space(4.0);
    });
}

/// The level's picture on the left and its fields on the right, each
/// editing the level; why a change on the picture was refused, if it was.
fn level_and_picture(
    root: &mut egui::Ui,
    editing: &mut FormEditing,
    catalog: &WindowCatalog,
    status: &mut StatusLine,
) -> Option<String> {
    let mut refused = None;
    let Some(card) = catalog.of(editing.level()).copied() else {
        status.error(format!("The window does not play {} levels", editing.level().game().title()));
        return None;
    };
    egui::CentralPanel::default_margins().show(root, |ui| {
        let before = editing.history.depth();
        ui.columns(2, |cols| {
            let changed = card.edit_on_picture(&mut cols[0], editing.level(), &mut refused);
            let changed = egui::ScrollArea::vertical()
                .show(&mut cols[1], |ui| card.edit_level(ui, editing.level()))
                .inner
                .or(changed);
            if let Some(level) = changed {
                editing.edit(level);
            }
        });
        // An edit made, a refusal or failure shown before is out of date.
        if editing.history.depth() != before && status.error && refused.is_none() {
            status.info("");
        }
    });
    refused
}

/// The name, description and menu group every level has, at the top of a
/// game's fields.
pub fn heading(ui: &mut egui::Ui, name: &mut String, description: &mut String, group: &mut LevelGroup) {
    ui.horizontal(|ui| {
        ui.label("Name");
        ui.text_edit_singleline(name);
    });
    ui.label("Description");
    ui.add(egui::TextEdit::multiline(description).desired_rows(3).desired_width(f32::INFINITY));
    egui::ComboBox::from_label("Listed under").selected_text(group.heading()).show_ui(ui, |ui| {
        for g in LevelGroup::ALL {
            ui.selectable_value(group, g, g.heading());
        }
    });
    ui.separator();
}

#[cfg(test)]
#[path = "form_tests.rs"]
mod tests;
