//! The editor's panels (egui): the file and what the engine finds wrong at
//! the top; at the side the tools, the robot the robot and home tools use,
//! the level's settings and size, who plays a test-play, and the verbs
//! (undo, redo, save, test-play, menu); the status line at the bottom. The
//! board camera draws in the space left.

use crate::app::ask::{Asking, LeaveEditor};
use crate::app::help::{Controls, ScreenKeys, key};
use bevy::camera::Viewport;
use bevy::prelude::*;
use bevy::window::PrimaryWindow;
use bevy_egui::{EguiContexts, egui};
use tabula_engine::robots::edit::{RobotEdit, Settings as LevelSettings};
use tabula_engine::robots::generate::Plan;
use tabula_engine::robots::{Dir, Homes, RuleSet};

use super::Editing;
use super::input::Tool;
use crate::app::board::BoardCamera;
use crate::app::board::seat_color32;
use crate::app::screen::BackTo;
use crate::app::session::{SessionRequest, StatusLine};
use crate::app::settings::Settings;
use crate::app::theme::palette::{ERROR_COLOR, OK_COLOR};
use crate::app::theme::widgets::root_ui;

const PANEL_WIDTH: f32 = 300.0;
const AGENTS: [Option<&str>; 5] = [None, Some("planner"), Some("sleuth"), Some("scout"), Some("random")];

pub(super) fn panel(
    mut contexts: EguiContexts,
    editing: Option<ResMut<Editing>>,
    mut status: ResMut<StatusLine>,
    settings: Res<Settings>,
    mut requests: MessageWriter<SessionRequest>,
    mut back: ResMut<BackTo>,
    (mut asking, mut leave): (ResMut<Asking>, MessageWriter<LeaveEditor>),
    mut camera: Single<&mut Camera, With<BoardCamera>>,
    window: Single<&Window, With<PrimaryWindow>>,
    mut preview: Local<Option<Preview>>,
    mut seen: Local<u64>,
    mut help: ResMut<ScreenKeys>,
) -> Result {
    let Some(mut editing) = editing else { return Ok(()) };
    // An edit made, a refusal or failure shown before is out of date.
    if editing.revision != *seen {
        *seen = editing.revision;
        if status.error {
            status.info("");
        }
    }
    let ctx = contexts.ctx_mut()?.clone();
    let mut root = root_ui(&ctx);
    let top = top_bar(&mut root, &editing);
    let keys = help.show("the Robot board editor", editor_controls());
    let (verbs, bottom) =
        crate::app::editor::bottom_bar(&mut root, "editor-status", editing.history.depth(), &status, &keys);
    if verbs.undo {
        editing.undo();
    }
    if verbs.redo {
        editing.redo();
    }
    if verbs.save {
        match editing.save() {
            Ok(done) => status.info(done),
            Err(why) => status.error(why),
        }
    }
    if verbs.play {
        crate::app::editor::test_play(editing.test_plan(&settings), &mut requests, &mut back, &mut status);
    }
    if verbs.leave {
        crate::app::editor::ask_to_leave(&*editing, &mut asking, &mut leave);
    }
    let side = egui::Panel::right("editor-side").exact_size(PANEL_WIDTH).show(&mut root, |ui| {
        egui::ScrollArea::vertical().show(ui, |ui| {
            tools(ui, &mut editing);
            ui.separator();
            robot(ui, &mut editing);
            ui.separator();
            level_settings(ui, &mut editing);
            ui.separator();
            generate(ui, &mut editing, &mut status, &mut preview);
            ui.separator();
            test_play_seats(ui, &mut editing, &settings);
        });
    });
    let reserved = egui::vec2(side.response.rect.width(), top.height() + bottom.height());
    fit_board(&mut camera, &window, top.height(), reserved);
    Ok(())
}

/// The level's name and file, and what the engine finds wrong with it; the
/// bar's rect.
fn top_bar(root: &mut egui::Ui, editing: &Editing) -> egui::Rect {
    let top = egui::Panel::top("editor-top").show(root, |ui| {
        ui.add_space(4.0);
        ui.horizontal(|ui| {
            let star = if editing.unsaved() { " *" } else { "" };
            ui.heading(format!("Editing · {}{star}", editing.level().name));
            ui.label(egui::RichText::new(editing.path.display().to_string()).monospace().weak());
        });
        match &editing.finding {
            Some(f) => ui.label(
                egui::RichText::new(format!("Cannot be played yet ({}): {}", f.rule, f.message))
                    .color(ERROR_COLOR),
            ),
            None => ui.label(egui::RichText::new("Ready to play: every rule holds").color(OK_COLOR)),
        };
        ui.add_space(4.0);
    });
    top.response.rect
}

/// Who plays each seat in a test-play.
fn test_play_seats(ui: &mut egui::Ui, editing: &mut Editing, settings: &Settings) {
    ui.heading("Test-play");
    editing.fit_seats();
    for seat in 0..editing.seats.len() {
        let current = editing.seats[seat].unwrap_or("human");
        egui::ComboBox::from_label(egui::RichText::new(settings.name(seat)).color(seat_color32(seat)))
            .selected_text(current)
            .show_ui(ui, |ui| {
                for agent in AGENTS {
                    ui.selectable_value(&mut editing.seats[seat], agent, agent.unwrap_or("human"));
                }
            });
    }
}

/// The board camera draws in the space the panels leave (`reserved`, in
/// logical pixels, below a top bar `top` tall), when there is room.
fn fit_board(camera: &mut Camera, window: &Window, top: f32, reserved: egui::Vec2) {
    let scale = window.scale_factor();
    let left_top = UVec2::new(0, (top * scale) as u32);
    let reserved = UVec2::new((reserved.x * scale) as u32, (reserved.y * scale) as u32);
    let full = UVec2::new(window.physical_width(), window.physical_height());
    if full.x > reserved.x + 50 && full.y > reserved.y + 50 {
        camera.viewport =
            Some(Viewport { physical_position: left_top, physical_size: full - reserved, ..default() });
    }
}

fn tools(ui: &mut egui::Ui, editing: &mut Editing) {
    ui.heading("Tools");
    ui.horizontal_wrapped(|ui| {
        for (i, tool) in Tool::ALL.into_iter().enumerate() {
            ui.selectable_value(&mut editing.tool, tool, format!("{} {}", i + 1, tool.name()));
        }
    });
}

/// The robot the robot tool places and whose home the home tool paints.
fn robot(ui: &mut egui::Ui, editing: &mut Editing) {
    ui.heading("Robot");
    let before = editing.robot.clone();
    let robot = &mut editing.robot;
    ui.horizontal(|ui| {
        ui.label("Letter");
        let mut id = robot.id.to_string();
        if ui.add(egui::TextEdit::singleline(&mut id).desired_width(24.0)).changed()
            && let Some(c) = id.chars().last().filter(|c| c.is_alphabetic())
        {
            robot.id = c.to_uppercase().next().unwrap_or(c);
        }
        ui.label("Player");
        ui.add(egui::DragValue::new(&mut robot.player).range(1..=8));
    });
    ui.horizontal(|ui| {
        ui.selectable_value(&mut robot.rule, RuleSet::A, "Rule A (steps)");
        ui.selectable_value(&mut robot.rule, RuleSet::B, "Rule B (walks, turns)");
    });
    ui.horizontal(|ui| {
        ui.label("Facing");
        for dir in Dir::ALL {
            ui.selectable_value(&mut robot.facing, dir, dir.name());
        }
    });
    // Changing the chosen robot's rule, player or facing changes the
    // robot of that letter on the board too.
    if *robot != before && robot.id == before.id {
        let placed = editing.level().robots.iter().find(|r| r.id == editing.robot.id).cloned();
        if let Some(on_board) = placed {
            let changed = tabula_engine::robots::RobotSpec { at: on_board.at, ..editing.robot.clone() };
            if changed != on_board {
                let edit = RobotEdit::place(editing.level(), changed);
                editing.edit(edit);
            }
        }
    }
}

fn level_settings(ui: &mut egui::Ui, editing: &mut Editing) {
    ui.heading("Level");
    let mut s = LevelSettings::of(editing.level());
    let before = s.clone();
    ui.horizontal(|ui| {
        ui.label("Name");
        ui.text_edit_singleline(&mut s.name);
    });
    ui.label("Description");
    ui.add(egui::TextEdit::multiline(&mut s.description).desired_rows(3).desired_width(f32::INFINITY));
    ui.horizontal(|ui| {
        ui.label("Exchanges");
        ui.add(egui::DragValue::new(&mut s.swaps).range(0..=20));
        ui.label("Move cap");
        ui.add(egui::DragValue::new(&mut s.move_cap).range(1..=100_000));
    });
    ui.horizontal(|ui| {
        ui.selectable_value(&mut s.homes, Homes::Shown, "Homes shown");
        ui.selectable_value(&mut s.homes, Homes::Hidden, "Homes hidden");
    });
    if s != before {
        editing.edit(RobotEdit::Settings(Box::new(s)));
    }
    let level = editing.level();
    let (mut w, mut h) =
        (level.board.first().map_or(0, |r| r.chars().count()) as u16, level.board.len() as u16);
    let size = (w, h);
    ui.horizontal(|ui| {
        ui.label("Size");
        ui.add(egui::DragValue::new(&mut w).range(1..=256));
        ui.label("x");
        ui.add(egui::DragValue::new(&mut h).range(1..=256));
    });
    if (w, h) != size {
        let edit = RobotEdit::resize(editing.level(), w, h);
        editing.edit(edit);
    }
}

/// The generator's options, what they make drawn beneath them as they change;
/// "Use this board" puts it in place of the level as one edit (shown on the
/// board at once, Ctrl+Z takes it back).
fn generate(
    ui: &mut egui::Ui,
    editing: &mut Editing,
    status: &mut StatusLine,
    preview: &mut Option<Preview>,
) {
    let preview = preview.get_or_insert_with(|| Preview::of(Plan::new(16, 12, 4, 2, 1)));
    let mut plan = preview.plan;
    egui::CollapsingHeader::new("Generate a board").show(ui, |ui| {
        let (w, h) = (plan.width, plan.height);
        ui.horizontal(|ui| {
            ui.add(egui::DragValue::new(&mut plan.width).range(8..=256).prefix("w "));
            ui.add(egui::DragValue::new(&mut plan.height).range(8..=256).prefix("h "));
            ui.add(egui::DragValue::new(&mut plan.robots).range(2..=64).prefix("robots "));
        });
        if (w, h) != (plan.width, plan.height) && plan.belts == Plan::default_belts(w, h) {
            // Belts that were at their default follow the size.
            plan.belts = Plan::default_belts(plan.width, plan.height);
        }
        ui.horizontal(|ui| {
            ui.add(egui::DragValue::new(&mut plan.players).range(2..=8).prefix("players "));
            ui.add(egui::DragValue::new(&mut plan.belts).range(0..=2000).prefix("belts tried "));
        });
        ui.horizontal(|ui| {
            ui.add(egui::DragValue::new(&mut plan.hints).range(0..=50).prefix("hints ").suffix("%"));
            ui.add(egui::DragValue::new(&mut plan.broken).range(0..=50).prefix("broken ").suffix("%"));
            ui.add(egui::DragValue::new(&mut plan.seed).prefix("seed "));
        });
        if plan != preview.plan {
            *preview = Preview::of(plan);
        }
        match &preview.made {
            Ok(made) => {
                // Room kept for the side panel's scroll bar, which would clip it.
                let width = ui.available_width() - 16.0;
                let aspect = plan.height as f32 / plan.width as f32;
                let (rect, _) = ui.allocate_exact_size(
                    egui::vec2(width, (width * aspect).min(220.0)),
                    egui::Sense::hover(),
                );
                crate::app::robots::picture::draw(ui.painter(), rect, made);
                if ui.button("Use this board").clicked() {
                    editing.edit(RobotEdit::Many(vec![
                        RobotEdit::Board(made.board.clone()),
                        RobotEdit::Robots(made.robots.clone()),
                        RobotEdit::Settings(Box::new(LevelSettings {
                            name: editing.level().name.clone(),
                            ..LevelSettings::of(made)
                        })),
                    ]));
                    status.info(format!(
                        "Generated a {} x {} board: Ctrl+Z takes it back",
                        plan.width, plan.height
                    ));
                }
            }
            Err(why) => {
                ui.label(egui::RichText::new(format!("Cannot generate: {why}")).color(ERROR_COLOR));
            }
        }
    });
}

/// The generator's options and what they make, drawn again only when an
/// option changes.
pub(super) struct Preview {
    plan: Plan,
    made: Result<tabula_engine::robots::RobotsLevel, String>,
}

impl Preview {
    fn of(plan: Plan) -> Preview {
        Preview { plan, made: tabula_engine::robots::generate::generate(plan) }
    }
}

/// The editor's mouse and keys, for its bottom line and the F1 overlay.
fn editor_controls() -> Controls {
    let keys = [
        key("1-7", "tools"),
        key("Ctrl+Z", "undo"),
        key("Ctrl+Y", "redo"),
        key("Ctrl+S", "save"),
        key("F5", "test-play"),
        key("Esc", "menu"),
    ];
    Controls::new("Drag paints with the tool, Shift+drag fills; a right click turns a robot.", &keys)
}
