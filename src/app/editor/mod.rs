//! The level editor. Robot board levels: paint tiles and belts, place
//! robots and homes, resize, change the settings; undo and redo without
//! limit; the engine's own checks after every edit, drawn on the board;
//! test-play with one key and back to the editor as it was; save in the
//! layout `tabula fmt` writes. The other games' levels are a form beside
//! their picture (`form`).
//!
//! This file holds the plugin, what is being edited (`Editing`) and the
//! editor's verbs (open, edit, save, test-play); `board` draws the level,
//! `input` the mouse and keys, `panel` the palette and settings.

pub mod board;
mod cards;
pub mod form;
mod input;
mod panel;
mod picture;
mod watch;

use std::path::{Path, PathBuf};

use bevy::prelude::*;
use bevy_egui::EguiPrimaryContextPass;
use bevy_egui::input::egui_wants_any_keyboard_input;
use tabula_engine::core::AgentSpec;
use tabula_engine::core::history::History;
use tabula_engine::format;
use tabula_engine::level::{self, LevelFile};
use tabula_engine::robots::diagnose::{Finding, diagnose};
use tabula_engine::robots::edit::RobotEdit;
use tabula_engine::robots::{Dir, RobotSpec, Robots, RobotsLevel, RuleSet};

use super::Screen;
use super::robots::zoom;
use super::session::{Controller, SeatSetup, SessionPlan, SessionRequest, StatusLine};
use super::settings::Settings;

pub use input::Tool;

/// A level to open in the editor at start (`tabula edit <level.ron>`).
#[derive(Resource, Clone, Debug)]
pub struct StartEdit(pub PathBuf);

/// The level being edited, its history, and the editor's choices.
#[derive(Resource)]
pub struct Editing {
    /// Where saving writes.
    pub path: PathBuf,
    /// The file's comment lines, kept at its top.
    header: String,
    /// Comments below them, which saving drops (named first).
    lost_comments: Vec<(usize, String)>,
    /// The lost comments were named and the player saved again.
    drop_confirmed: bool,
    pub history: History<RobotsLevel, RobotEdit>,
    /// The level as last saved or opened.
    saved: RobotsLevel,
    pub tool: Tool,
    /// The robot the robot tool places, and whose home the home tool paints.
    pub robot: RobotSpec,
    /// What the engine finds wrong with the level as it stands.
    pub finding: Option<Finding>,
    /// Counts changes, so the board and the checks follow each.
    pub revision: u64,
    /// Who plays each seat in a test-play: a person, or an agent.
    pub seats: Vec<Option<&'static str>>,
}

impl Editing {
    pub fn new(
        path: PathBuf,
        level: RobotsLevel,
        header: String,
        lost_comments: Vec<(usize, String)>,
    ) -> Editing {
        let finding = diagnose(&level);
        // Robots first on a board without them; painting otherwise.
        let tool = if level.robots.is_empty() { Tool::Robot } else { Tool::Tile('.') };
        let robot = RobotSpec { id: 'A', at: (0, 0), facing: Dir::South, rule: RuleSet::A, player: 1 };
        Editing {
            path,
            header,
            lost_comments,
            drop_confirmed: false,
            saved: level.clone(),
            history: History::new(level),
            tool,
            robot,
            finding,
            revision: 0,
            seats: Vec::new(),
        }
    }

    pub fn level(&self) -> &RobotsLevel {
        self.history.level()
    }

    /// Makes an edit and checks the level again.
    pub fn edit(&mut self, edit: RobotEdit) {
        self.history.edit(edit);
        self.changed();
    }

    pub fn undo(&mut self) -> bool {
        let done = self.history.undo();
        if done {
            self.changed();
        }
        done
    }

    pub fn redo(&mut self) -> bool {
        let done = self.history.redo();
        if done {
            self.changed();
        }
        done
    }

    pub fn changed(&mut self) {
        self.finding = diagnose(self.level());
        self.revision += 1;
    }

    /// Edited since opened or saved.
    pub fn unsaved(&self) -> bool {
        self.level() != &self.saved
    }

    /// The level as last saved or opened.
    pub fn saved_level(&self) -> &RobotsLevel {
        &self.saved
    }

    /// The level as it stands is what the file holds.
    pub(super) fn mark_saved(&mut self) {
        self.saved = self.level().clone();
    }

    /// Writes the level in tabula's layout, atomically. A level that breaks
    /// a rule is saved too (work in progress); comments that cannot be kept
    /// are named once, and the next save drops them.
    pub fn save(&mut self) -> Result<String, String> {
        if !self.lost_comments.is_empty() && !self.drop_confirmed {
            self.drop_confirmed = true;
            let lines: Vec<String> =
                self.lost_comments.iter().map(|(l, c)| format!("line {l}: {c}")).collect();
            return Err(format!(
                "Saving drops these comments ({}); save again to drop them, or move them to the top of the file",
                lines.join("; ")
            ));
        }
        let file = LevelFile::new::<Robots>(self.level().clone());
        let text = format::with_header(&file, &self.header);
        level::write_atomically(&self.path, &text)
            .map_err(|e| format!("Cannot save {}: {e}", self.path.display()))?;
        self.saved = self.level().clone();
        self.lost_comments.clear();
        let state = match &self.finding {
            None => "ready to play".to_owned(),
            Some(f) => format!("saved as work in progress: {}", f.message),
        };
        Ok(format!("Saved {}: {state}", self.path.display()))
    }

    /// One seat a player, as many as the level's robots have players.
    fn fit_seats(&mut self) {
        let players = self.level().players().max(2) as usize;
        self.seats.resize(players, Some("planner"));
        if let Some(first) = self.seats.first_mut().filter(|_| self.revision == 0) {
            *first = None;
        }
    }

    /// A game of the level as it stands, with the chosen seats.
    pub fn test_plan(&mut self, settings: &Settings) -> Result<SessionPlan, String> {
        if let Some(finding) = &self.finding {
            return Err(format!("The level cannot be played yet: {}", finding.message));
        }
        self.fit_seats();
        let level = LevelFile::new::<Robots>(self.level().clone());
        let seats = self
            .seats
            .iter()
            .enumerate()
            .map(|(i, agent)| SeatSetup {
                name: settings.name(i),
                controller: agent.map_or(Controller::Human, |a| Controller::Agent(AgentSpec::new(a, None))),
            })
            .collect();
        // The game watches the file: the editor's saves restart it. A level
        // never saved has no file to watch yet (watching it would show a
        // missing file as a level error for the whole game).
        let level_path = self.path.exists().then(|| self.path.clone());
        Ok(SessionPlan { level_path, level, seats, seed: super::menu::seed_now(), replay: None })
    }
}

/// The verbs both editors show at the bottom: which were clicked.
#[derive(Default)]
pub(super) struct Verbs {
    pub undo: bool,
    pub redo: bool,
    pub save: bool,
    pub play: bool,
    pub leave: bool,
}

/// The verbs as buttons, what undo and redo have left, the status line and
/// the keys, in a panel that stays at the bottom whatever the editor holds.
pub(super) fn bottom_bar(
    root: &mut bevy_egui::egui::Ui,
    id: &str,
    depth: (usize, usize),
    status: &StatusLine,
    keys: &str,
) -> (Verbs, bevy_egui::egui::Rect) {
    use bevy_egui::egui;
    let mut verbs = Verbs::default();
    let panel = egui::Panel::bottom(id.to_owned()).show(root, |ui| {
        ui.add_space(4.0);
        ui.horizontal(|ui| {
            verbs.undo = ui.button("Undo (Ctrl+Z)").clicked();
            verbs.redo = ui.button("Redo (Ctrl+Y)").clicked();
            verbs.save = ui.button("Save (Ctrl+S)").clicked();
            verbs.play = ui.button("Test-play (F5)").clicked();
            verbs.leave = ui.button("Menu (Esc)").clicked();
            ui.label(egui::RichText::new(edits_left(depth)).weak());
        });
        ui.label(crate::app::hud::status_text(ui, status));
        ui.label(egui::RichText::new(keys).weak());
    });
    (verbs, panel.response.rect)
}

/// What undo and redo have left, as the editors show it.
pub(super) fn edits_left((undo, redo): (usize, usize)) -> String {
    let edits = if undo == 1 { "edit" } else { "edits" };
    format!("{undo} {edits} to undo, {redo} to redo")
}

/// A new level to start from: a plain 12 x 8 board, no robots yet (the
/// editor opens it with the robot tool chosen).
pub fn new_level() -> RobotsLevel {
    RobotsLevel {
        name: "New level".into(),
        description: String::new(),
        group: Default::default(),
        board: vec![".".repeat(12); 8],
        robots: Vec::new(),
        swaps: 0,
        move_cap: tabula_engine::robots::level::DEFAULT_MOVE_CAP,
        homes: Default::default(),
    }
}

/// A level opened for editing: the Robot board's painted board, or
/// another game's form.
pub enum Opened {
    Robots(Box<Editing>),
    Form(Box<form::FormEditing>),
}

/// Reads `path` for editing (its rules may be broken), or, when there is no
/// such file, a new level to be saved there, of the game whose folder it is
/// in (a Robot board elsewhere).
pub fn open(path: &Path) -> Result<Opened, String> {
    let name = path.display().to_string();
    let text = match std::fs::read_to_string(path) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            let folder = path.parent().and_then(|d| d.file_name()).and_then(|f| f.to_str()).unwrap_or("");
            return Ok(match form::new_level(folder) {
                Some(level) => Opened::Form(Box::new(form::FormEditing::new(
                    path.to_owned(),
                    level,
                    String::new(),
                    Vec::new(),
                ))),
                None => Opened::Robots(Box::new(Editing::new(
                    path.to_owned(),
                    new_level(),
                    String::new(),
                    Vec::new(),
                ))),
            });
        }
        Err(e) => return Err(format!("Cannot read {name}: {e}")),
    };
    let formatted = format::format(&text, &name).map_err(|e| e.to_string())?;
    let file = level::read_unchecked(&text, &name).map_err(|e| e.to_string())?;
    let (header, _) = format::split_header(&text);
    Ok(match file.get::<Robots>() {
        Some(level) => {
            let editing =
                Editing::new(path.to_owned(), level.clone(), header.to_owned(), formatted.lost_comments);
            Opened::Robots(Box::new(editing))
        }
        None => Opened::Form(Box::new(form::FormEditing::new(
            path.to_owned(),
            file,
            header.to_owned(),
            formatted.lost_comments,
        ))),
    })
}

/// Opens a level in the editor screen, or says why not.
#[derive(Message, Clone, Debug)]
pub struct RequestEdit(pub PathBuf);

/// The editor screen (the window adds it; headless tests too).
pub fn plugin(app: &mut App) {
    app.add_message::<RequestEdit>()
        .init_resource::<watch::EditorWatch>()
        .add_systems(Update, (open_requested, start_from_command_line.run_if(resource_exists::<StartEdit>)))
        .add_systems(OnEnter(Screen::Editor), (board::spawn_board, greet))
        .add_systems(OnExit(Screen::Editor), zoom::unframe)
        .add_systems(Update, (watch::watch_file, watch::follow_file).chain().run_if(in_state(Screen::Editor)))
        .add_systems(
            Update,
            (
                input::paint.run_if(super::board::pointer_free),
                input::keys.run_if(not(egui_wants_any_keyboard_input)),
                // Large boards zoom and pan as in the game.
                zoom::zoom_with_mouse.run_if(super::board::pointer_free),
                zoom::zoom_with_keys.run_if(super::board::keys_free),
                board::redraw,
                zoom::frame_board,
                zoom::pin_labels,
            )
                .chain()
                .run_if(in_state(Screen::Editor).and_then(resource_exists::<Editing>)),
        )
        .add_systems(EguiPrimaryContextPass, (panel::panel, form::form).run_if(in_state(Screen::Editor)));
}

/// Entering the editor (opened, or back from a test-play), the status line
/// says what is edited, not what the game last said.
fn greet(robots: Option<Res<Editing>>, form: Option<Res<form::FormEditing>>, mut status: ResMut<StatusLine>) {
    let path = robots.map(|e| e.path.clone()).or(form.map(|e| e.path.clone()));
    if let Some(path) = path {
        status.info(format!("Editing {}", path.display()));
    }
}

fn start_from_command_line(
    mut commands: Commands,
    start: Res<StartEdit>,
    mut requests: MessageWriter<RequestEdit>,
) {
    commands.remove_resource::<StartEdit>();
    requests.write(RequestEdit(start.0.clone()));
}

fn open_requested(
    mut commands: Commands,
    mut requests: MessageReader<RequestEdit>,
    mut status: ResMut<StatusLine>,
    mut next: ResMut<NextState<Screen>>,
) {
    for RequestEdit(path) in requests.read() {
        match open(path) {
            Ok(opened) => {
                status.info(format!("Editing {}", path.display()));
                commands.remove_resource::<Editing>();
                commands.remove_resource::<form::FormEditing>();
                match opened {
                    Opened::Robots(editing) => commands.insert_resource(*editing),
                    Opened::Form(editing) => commands.insert_resource(*editing),
                }
                next.set(Screen::Editor);
            }
            Err(e) => status.error(e),
        }
    }
}

/// Test-play: the game starts on the level as it stands; leaving it comes
/// back here, to the level, its history and the tool as they were.
pub(super) fn test_play(
    editing: &mut Editing,
    settings: &Settings,
    requests: &mut MessageWriter<SessionRequest>,
    back: &mut super::BackTo,
    status: &mut StatusLine,
) {
    match editing.test_plan(settings) {
        Ok(plan) => {
            back.0 = Screen::Editor;
            requests.write(SessionRequest::Start(Box::new(plan)));
        }
        Err(e) => status.error(e),
    }
}
