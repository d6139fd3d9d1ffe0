//! The Robot board's own level editor: paint tiles and belts, place robots
//! and homes, resize, generate, change the settings; the engine's own
//! checks after every edit, drawn on the board. What every editor shares
//! (undo and redo, the file watched both ways, saving, test-play, the
//! bottom bar) is `editor`'s.
//!
//! This file holds what is being edited (`Editing`) and the plugin; `board`
//! draws the level, `input` the mouse and keys, `panel` the palette and
//! settings.

pub mod board;
mod input;
mod panel;

use std::path::{Path, PathBuf};

use bevy::prelude::*;
use bevy_egui::EguiPrimaryContextPass;
use bevy_egui::input::egui_wants_any_keyboard_input;
use tabula_engine::core::AgentSpec;
use tabula_engine::core::history::History;
use tabula_engine::format;
use tabula_engine::level::{self, LevelFile};
use tabula_engine::robots::diagnose::{Finding, diagnose};
use tabula_engine::robots::edit::{RobotEdit, Settings as LevelSettings};
use tabula_engine::robots::{Dir, RobotSpec, Robots, RobotsLevel, RuleSet};

use super::zoom;
use crate::app::editor::{self, LevelEditor, Opened};
use crate::app::screen::Screen;
use crate::app::session::{Controller, SeatSetup, SessionPlan};
use crate::app::settings::Settings;

pub use input::Tool;

/// The Robot board's levels open in this editor rather than the form.
pub(super) fn plugin(app: &mut App) {
    editor::own_editor::<Editing>(app, <Robots as tabula_engine::Game>::NAME, systems);
}

/// The editor's systems, added once the editor screen is in the app.
fn systems(app: &mut App) {
    app.add_systems(OnEnter(Screen::Editor), board::spawn_board)
        .add_systems(OnExit(Screen::Editor), zoom::unframe)
        .add_systems(
            Update,
            (
                input::paint.run_if(crate::app::board::pointer_free),
                input::keys.run_if(not(egui_wants_any_keyboard_input)),
                // Large boards zoom and pan as in the game.
                zoom::zoom_with_mouse.run_if(crate::app::board::pointer_free),
                zoom::zoom_with_keys.run_if(crate::app::board::keys_free),
                board::redraw,
                zoom::frame_board,
                zoom::pin_labels,
            )
                .chain()
                .run_if(in_state(Screen::Editor).and_then(resource_exists::<Editing>)),
        )
        .add_systems(EguiPrimaryContextPass, panel::panel.run_if(in_state(Screen::Editor)));
}

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
        Ok(editor::test_plan(&self.path, level, seats))
    }
}

impl LevelEditor for Editing {
    fn open(opened: Opened) -> Editing {
        let level = opened.level.get::<Robots>().cloned().unwrap_or_else(new_level);
        Editing::new(opened.path, level, opened.header, opened.lost_comments)
    }

    fn path(&self) -> &Path {
        &self.path
    }

    fn level_now(&self) -> LevelFile {
        LevelFile::new::<Robots>(self.level().clone())
    }

    fn level_saved(&self) -> LevelFile {
        LevelFile::new::<Robots>(self.saved.clone())
    }

    fn take_from_disk(&mut self, level: LevelFile) {
        let Some(level) = level.get::<Robots>() else { return };
        self.edit(RobotEdit::Many(vec![
            RobotEdit::Board(level.board.clone()),
            RobotEdit::Robots(level.robots.clone()),
            RobotEdit::Settings(Box::new(LevelSettings::of(level))),
        ]));
        self.saved = self.level().clone();
    }

    fn unsaved(&self) -> bool {
        Editing::unsaved(self)
    }

    fn save(&mut self) -> Result<String, String> {
        Editing::save(self)
    }
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
