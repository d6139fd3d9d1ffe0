//! The editor for Nim, Mancala and Russian Bank levels: their levels are a
//! few numbers and rule options, edited as a form beside a picture of the
//! level redrawn at once (the menu's, drawn from the level). Undo and redo,
//! the engine's check after every change, saving in the fmt layout and
//! test-play work as in the Robot board's editor.

use bevy::prelude::*;
use bevy_egui::{EguiContexts, egui};
use tabula_engine::core::LevelGroup;
use tabula_engine::core::history::{Edit, History};
use tabula_engine::format;
use tabula_engine::level::{self, LevelFile};
use tabula_engine::mancala::{Capture, Mancala};
use tabula_engine::nim::{Ending, Nim};
use tabula_engine::russian_bank::{Deal, FixedPosition, RussianBank};

use crate::app::hud::ERROR_COLOR;
use crate::app::hud::root_ui;
use crate::app::session::{Controller, SeatSetup, SessionPlan, SessionRequest, StatusLine};
use crate::app::settings::Settings;
use crate::app::{BackTo, Screen};

const OK_COLOR: egui::Color32 = egui::Color32::from_rgb(120, 220, 140);

/// A whole level put in place of another: these levels are small.
pub struct Replace(pub LevelFile);

impl Edit<LevelFile> for Replace {
    fn apply(self, level: &mut LevelFile) -> Replace {
        Replace(std::mem::replace(level, self.0))
    }
}

/// A Nim, Mancala or Russian Bank level being edited.
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
        let level = self.level().clone();
        let seed = crate::app::menu::seed_now();
        // A level never saved has no file to watch yet.
        let level_path = self.path.exists().then(|| self.path.clone());
        Ok(SessionPlan { level_path, level, seats, seed, replay: None })
    }
}

/// A new level of the game in `folder`, to start from.
pub fn new_level(folder: &str) -> Option<LevelFile> {
    let text = match folder {
        "nim" => "Nim(name: \"New level\", piles: [3, 4, 5], ending: Normal)",
        "mancala" => "Mancala(name: \"New level\", pits: 6, stones: 4, capture: Standard, sweep: true)",
        "russian_bank" => "RussianBank(name: \"New level\", deal: Shuffled, stop_rule: true)",
        _ => return None,
    };
    level::read_unchecked(text, "new level").ok()
}

#[allow(clippy::too_many_arguments)]
pub(super) fn form(
    mut contexts: EguiContexts,
    editing: Option<ResMut<FormEditing>>,
    mut status: ResMut<StatusLine>,
    settings: Res<Settings>,
    keys: Res<ButtonInput<KeyCode>>,
    mut requests: MessageWriter<SessionRequest>,
    mut back: ResMut<BackTo>,
    mut next: ResMut<NextState<Screen>>,
) -> Result {
    let Some(mut editing) = editing else { return Ok(()) };
    let ctx = contexts.ctx_mut()?.clone();
    let mut root = root_ui(&ctx);
    let ctrl = keys.any_pressed([KeyCode::ControlLeft, KeyCode::ControlRight]);
    let typing = ctx.egui_wants_keyboard_input();
    let mut save = ctrl && keys.just_pressed(KeyCode::KeyS);
    let mut play = keys.just_pressed(KeyCode::F5);
    if ctrl && keys.just_pressed(KeyCode::KeyZ) && !typing {
        editing.undo();
    }
    if ctrl && keys.just_pressed(KeyCode::KeyY) && !typing {
        editing.redo();
    }
    let mut leave = keys.just_pressed(KeyCode::Escape) && !typing;
    editing.hold(ctx.input(|i| i.pointer.any_down()));
    let mut refused = None;
    let keys = "Ctrl+Z undo · Ctrl+Y redo · Ctrl+S save · F5 test-play · Esc menu";
    let (verbs, _) = super::bottom_bar(&mut root, "form-status", editing.history.depth(), &status, keys);
    if verbs.undo {
        editing.undo();
    }
    if verbs.redo {
        editing.redo();
    }
    save |= verbs.save;
    play |= verbs.play;
    leave |= verbs.leave;
    egui::Panel::top("form-top").show(&mut root, |ui| {
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
    egui::CentralPanel::default_margins().show(&mut root, |ui| {
        let before = editing.history.depth();
        ui.columns(2, |cols| {
            let changed = super::picture::picture(&mut cols[0], editing.level(), &mut refused);
            let changed = egui::ScrollArea::vertical()
                .show(&mut cols[1], |ui| fields(ui, editing.level()))
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
    if let Some(why) = refused {
        status.error(format!("Not there: {why}"));
    }
    if save {
        match editing.save() {
            Ok(done) => status.info(done),
            Err(why) => status.error(why),
        }
    }
    if play {
        match editing.test_plan(&settings) {
            Ok(plan) => {
                back.0 = Screen::Editor;
                requests.write(SessionRequest::Start(Box::new(plan)));
            }
            Err(e) => status.error(e),
        }
    }
    if leave {
        next.set(Screen::Menu);
    }
    Ok(())
}

/// The level's fields; the level as changed, if a field changed.
fn fields(ui: &mut egui::Ui, level: &LevelFile) -> Option<LevelFile> {
    if let Some(nim) = level.get::<Nim>() {
        let mut nim = nim.clone();
        heading(ui, &mut nim.name, &mut nim.description, &mut nim.group);
        ui.label("Piles");
        let mut remove = None;
        for (i, pile) in nim.piles.iter_mut().enumerate() {
            ui.horizontal(|ui| {
                ui.add(egui::DragValue::new(pile).range(0..=1_000_000).prefix(format!("pile {}: ", i + 1)));
                if ui.small_button("remove").clicked() {
                    remove = Some(i);
                }
            });
        }
        if let Some(i) = remove {
            nim.piles.remove(i);
        }
        if ui.button("Add a pile").clicked() {
            nim.piles.push(3);
        }
        ui.horizontal(|ui| {
            ui.selectable_value(&mut nim.ending, Ending::Normal, "Last stone wins");
            ui.selectable_value(&mut nim.ending, Ending::Misere, "Last stone loses (misère)");
        });
        return Some(LevelFile::new::<Nim>(nim)).filter(|l| l != level);
    }
    if let Some(mancala) = level.get::<Mancala>() {
        let mut m = mancala.clone();
        heading(ui, &mut m.name, &mut m.description, &mut m.group);
        ui.add(egui::DragValue::new(&mut m.pits).range(1..=16).prefix("pits a side: "));
        ui.add(egui::DragValue::new(&mut m.stones).range(1..=99).prefix("stones a pit: "));
        ui.horizontal(|ui| {
            ui.label("Captures");
            ui.selectable_value(&mut m.capture, Capture::None, "none");
            ui.selectable_value(&mut m.capture, Capture::Standard, "standard");
            ui.selectable_value(&mut m.capture, Capture::Empty, "also from an empty pit");
        });
        ui.checkbox(&mut m.sweep, "Stones left at the end go to their side's store");
        ui.add(egui::DragValue::new(&mut m.move_cap).range(1..=100_000).prefix("a draw after moves: "));
        return Some(LevelFile::new::<Mancala>(m)).filter(|l| l != level);
    }
    if let Some(bank) = level.get::<RussianBank>() {
        let mut b = bank.clone();
        heading(ui, &mut b.name, &mut b.description, &mut b.group);
        let mut fixed = matches!(b.deal, Deal::Fixed(_));
        ui.horizontal(|ui| {
            ui.selectable_value(&mut fixed, false, "A shuffled deal, from the game's seed");
            ui.selectable_value(&mut fixed, true, "A fixed position");
        });
        match (&b.deal, fixed) {
            (Deal::Fixed(_), false) => b.deal = Deal::Shuffled,
            (Deal::Shuffled, true) => b.deal = Deal::Fixed(FixedPosition(super::cards::empty_deal())),
            (Deal::Fixed(FixedPosition(deal)), true) => {
                let next = super::cards::to_move(ui, deal);
                super::cards::palette(ui, deal);
                ui.separator();
                if let Some(next) = next {
                    b.deal = Deal::Fixed(FixedPosition(next));
                }
            }
            (Deal::Shuffled, false) => {}
        }
        ui.checkbox(&mut b.stop_rule, "Stop rule: a move out of priority may be stopped");
        ui.add(egui::DragValue::new(&mut b.match_points).range(1..=10_000).prefix("match to points: "));
        ui.add(egui::DragValue::new(&mut b.move_cap).range(1..=100_000).prefix("a draw after moves: "));
        return Some(LevelFile::new::<RussianBank>(b)).filter(|l| l != level);
    }
    None
}

fn heading(ui: &mut egui::Ui, name: &mut String, description: &mut String, group: &mut LevelGroup) {
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
