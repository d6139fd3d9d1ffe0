//! The editor's mouse and keys. With a tile tool a click paints a tile and
//! a drag paints every tile it crosses (undone as one edit), with Shift a
//! drag fills the rectangle; the belt tool drags a straight belt the way it
//! is drawn; the robot tool places the chosen robot, the home tool paints
//! its home (again for candidate homes); a right click turns a conveyor or
//! a robot a quarter clockwise. Keys: 1 to 7 the tools, Ctrl+Z undo,
//! Ctrl+Y redo, Ctrl+S save, F5 test-play, Esc the menu.

use bevy::prelude::*;
use tabula_engine::robots::Dir;
use tabula_engine::robots::edit::{RobotEdit, tile_at};
use tabula_engine::robots::level::home_char;

use super::Editing;
use super::board::Drawn;
use crate::app::ask::{Asking, LeaveEditor};
use crate::app::board::BoardPointer;
use crate::app::robots::{BoardView, TILE};
use crate::app::screen::BackTo;
use crate::app::session::{SessionRequest, StatusLine};
use crate::app::settings::Settings;

/// What a click on the board does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tool {
    /// Paints a tile of the legend: `.` plain, `?` hint, `#` broken robot.
    Tile(char),
    /// Drags a straight belt, its conveyors pointing the way it is drawn.
    Belt,
    /// Paints the chosen robot's home; more than one makes candidate homes.
    Home,
    /// Places the chosen robot where clicked.
    Robot,
    /// Takes a robot off the board, with its homes.
    Remove,
}

impl Tool {
    /// The tools in the palette's order, as keys 1 to 7 choose them.
    pub const ALL: [Tool; 7] = [
        Tool::Tile('.'),
        Tool::Tile('?'),
        Tool::Tile('#'),
        Tool::Belt,
        Tool::Home,
        Tool::Robot,
        Tool::Remove,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Tool::Tile('?') => "Hint",
            Tool::Tile('#') => "Broken robot",
            Tool::Tile(_) => "Plain",
            Tool::Belt => "Belt",
            Tool::Home => "Home",
            Tool::Robot => "Robot",
            Tool::Remove => "Remove robot",
        }
    }
}

/// A drag in progress: where it began, and the history's depth then.
#[derive(Default)]
pub(super) struct Stroke {
    start: Option<(u16, u16)>,
    last: Option<(u16, u16)>,
    depth: usize,
}

pub(super) fn paint(
    mut editing: ResMut<Editing>,
    drawn: Option<Res<Drawn>>,
    pointer: BoardPointer,
    mouse: Res<ButtonInput<MouseButton>>,
    keys: Res<ButtonInput<KeyCode>>,
    mut stroke: Local<Stroke>,
    mut right: Local<Option<(Vec2, (u16, u16))>>,
    view: Option<Res<BoardView>>,
) {
    let view = view.map(|v| *v).unwrap_or_default();
    let Some(drawn) = drawn else { return };
    let tile = pointer.world().and_then(|p| drawn.layout.tile_at(p));
    let shift = keys.any_pressed([KeyCode::ShiftLeft, KeyCode::ShiftRight]);
    let brush = match editing.tool {
        Tool::Tile(c) => Some(c),
        Tool::Home => Some(home_char(editing.robot.id)),
        _ => None,
    };
    // A right click turns; a right drag pans the view instead (see
    // `zoom`: the view's centre moves).
    if mouse.just_pressed(MouseButton::Right) {
        *right = tile.map(|p| (view.centre, p));
    }
    if mouse.just_released(MouseButton::Right)
        && let Some((centre, p)) = right.take()
        && centre.distance(view.centre) < TILE / 8.0
    {
        turn(&mut editing, p);
    }
    if mouse.just_pressed(MouseButton::Left)
        && let Some(p) = tile
    {
        *stroke = Stroke { start: Some(p), last: None, depth: editing.history.depth().0 };
        match editing.tool {
            Tool::Robot => {
                let robot = tabula_engine::robots::RobotSpec { at: p, ..editing.robot.clone() };
                let new = editing.level().robots.iter().all(|r| r.id != robot.id);
                let edit = RobotEdit::place(editing.level(), robot);
                editing.edit(edit);
                // A robot placed, the tool goes on to the next free letter,
                // so several robots are placed click by click.
                if new && let Some(id) = next_free_letter(editing.level()) {
                    editing.robot.id = id;
                }
            }
            Tool::Remove => {
                if let Some(id) = editing.level().robots.iter().find(|r| r.at == p).map(|r| r.id) {
                    let edit = RobotEdit::remove(editing.level(), id);
                    editing.edit(edit);
                }
            }
            _ => {}
        }
    }
    // A click paints its tile, and a drag each tile it comes to (a Shift
    // drag waits to fill); a quick click is pressed and released in one frame.
    if (mouse.pressed(MouseButton::Left) || mouse.just_pressed(MouseButton::Left))
        && stroke.start.is_some()
        && let (Some(c), Some(p), false) = (brush, tile, shift)
        && stroke.last != Some(p)
    {
        stroke.last = Some(p);
        if tile_at(editing.level(), p) != Some(c) {
            editing.edit(RobotEdit::Tiles(vec![(p, c)]));
        }
    }
    if mouse.just_released(MouseButton::Left)
        && let Some(start) = stroke.start.take()
    {
        let end = tile.or(stroke.last).unwrap_or(start);
        match (editing.tool, brush) {
            (Tool::Belt, _) => editing.edit(RobotEdit::belt(start, end)),
            (_, Some(c)) if shift => editing.edit(RobotEdit::fill(start, end, c)),
            _ => {}
        }
        editing.history.squash(stroke.depth, RobotEdit::Many);
    }
}

/// The first letter no robot of `level` has, if any is left.
fn next_free_letter(level: &tabula_engine::robots::RobotsLevel) -> Option<char> {
    ('A'..='Z').filter(|&c| c != 'V').find(|&c| level.robots.iter().all(|r| r.id != c))
}

/// A right click: a conveyor or a robot turned a quarter clockwise.
fn turn(editing: &mut Editing, p: (u16, u16)) {
    if let Some(edit) = RobotEdit::turn(editing.level(), p) {
        editing.edit(edit);
    } else if let Some(robot) = editing.level().robots.iter().find(|r| r.at == p).cloned() {
        let facing = Dir::from_quarters(robot.facing.quarters() + 1);
        let edit = RobotEdit::place(editing.level(), tabula_engine::robots::RobotSpec { facing, ..robot });
        editing.edit(edit);
    }
}

pub(super) fn keys(
    keys: Res<ButtonInput<KeyCode>>,
    mut editing: ResMut<Editing>,
    mut status: ResMut<StatusLine>,
    settings: Res<Settings>,
    mut requests: MessageWriter<SessionRequest>,
    mut back: ResMut<BackTo>,
    (mut asking, mut leave): (ResMut<Asking>, MessageWriter<LeaveEditor>),
) {
    let ctrl = keys.any_pressed([KeyCode::ControlLeft, KeyCode::ControlRight]);
    let shift = keys.any_pressed([KeyCode::ShiftLeft, KeyCode::ShiftRight]);
    let pressed = |k: KeyCode| keys.just_pressed(k);
    if ctrl && (pressed(KeyCode::KeyY) || (shift && pressed(KeyCode::KeyZ))) {
        if !editing.redo() {
            status.info("Nothing to redo");
        }
    } else if ctrl && pressed(KeyCode::KeyZ) && !editing.undo() {
        status.info("Nothing to undo");
    }
    if ctrl && pressed(KeyCode::KeyS) {
        match editing.save() {
            Ok(done) => status.info(done),
            Err(why) => status.error(why),
        }
    }
    if pressed(KeyCode::F5) {
        crate::app::editor::test_play(editing.test_plan(&settings), &mut requests, &mut back, &mut status);
    }
    if !ctrl && let Some(digit) = crate::app::board::digits_pressed(&keys).find(|d| (1..=7).contains(d)) {
        editing.tool = Tool::ALL[digit as usize - 1];
    }
    if pressed(KeyCode::Escape) {
        crate::app::editor::ask_to_leave(&*editing, &mut asking, &mut leave);
    }
}
