//! The Robot board: tiles, belts that run, homes in their robot's colour,
//! robots that show their facing and rule set. Clicking one of your robots
//! lights every tile its requests lead to (after the belt ride); a click
//! there walks. Rides and settle rounds play tile by tile as the engine's
//! steps say; exchanged tiles glide to each other's place with what stands
//! on them; hints show as arrows; a win sets off fireworks.
//!
//! Tiles and robots are entities for as long as the level is in play, their
//! components the game's facts (`TilePos`, `TileKind`, `Facing`, `Rule`,
//! `Owner`, `HeldHints`). Spawning is `spawn`'s, following the steps
//! `steps`'s, the pieces' motion `animate`'s, the player's choices
//! `input`'s, textures `art`'s.

pub(crate) mod animate;
pub(crate) mod art;
pub mod editor;
mod input;
pub mod picture;
mod reasoning;
pub(crate) mod spawn;
mod steps;
pub(crate) mod zoom;

use std::f32::consts::FRAC_PI_2;

use bevy::prelude::*;
use bevy_egui::{EguiPrimaryContextPass, egui};
use tabula_engine::robots::{
    Dir, HeldHint, Hint, Homes, Pos, RobotMove, RobotStep, Robots, RobotsError, RobotsLevel, RuleSet, Tile,
    compass_name, tile_name,
};
use tabula_engine::{Game, Outcome, Player};

use crate::app::board::{count_busy, keys_free, playing, pointer_free};
use crate::app::game::{ActiveGame, WindowGame, name_of};
use crate::app::help::{Controls, Key, key};
use crate::app::registry;
use crate::app::session::{MoveChoice, SessionSet, choice_expires};

pub use animate::HintMark;
pub use input::{Destination, RobotChoice};
pub use reasoning::{CandidateMark, RevealedHome, ShadeOwnHomes};
pub use zoom::{BoardView, ZoomScaled};

/// A tile's side in world units.
pub const TILE: f32 = 64.0;
const ROBOT: f32 = 50.0;

/// A tile of the board, wherever exchanges have taken it.
#[derive(Component, Debug)]
pub struct BoardTile;

/// Where a tile or a robot is on the board.
#[derive(Component, Debug, Clone, Copy, PartialEq, Eq)]
pub struct TilePos(pub Pos);

/// What a tile is: plain, hint, broken robot, a robot's home, or a
/// conveyor and its direction (which an exchange turns).
#[derive(Component, Debug, Clone, Copy, PartialEq, Eq)]
pub struct TileKind(pub Tile);

/// A robot on the board.
#[derive(Component, Debug)]
pub struct RobotPiece(pub char);

/// Where a robot faces.
#[derive(Component, Debug, Clone, Copy, PartialEq, Eq)]
pub struct Facing(pub Dir);

/// A robot's rule set.
#[derive(Component, Debug, Clone, Copy, PartialEq, Eq)]
pub struct Rule(pub RuleSet);

/// The player who owns a robot.
#[derive(Component, Debug, Clone, Copy, PartialEq, Eq)]
pub struct Owner(pub Player);

/// The hints a robot holds, oldest first.
#[derive(Component, Debug, Clone, PartialEq, Eq, Default)]
pub struct HeldHints(pub Vec<Hint>);

/// Where a robot's latest hint says home lies on the board, in eighths of a
/// turn clockwise from North: fixed when the hint was read, whichever way
/// the robot turns afterwards. None without a hint.
#[derive(Component, Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct HintBearing(pub Option<u8>);

impl HintBearing {
    pub fn of(board: &Robots, id: char) -> HintBearing {
        HintBearing(board.held_hints(id).last().map(|h| h.bearing()))
    }
}

/// A column's letters under the board, or a row's number left of it; rows
/// are counted from the bottom, as on a chess board. Shown every few as
/// room allows, and kept in sight at the view's edge when zoomed in.
#[derive(Component, Debug, Clone, Copy)]
pub struct EdgeLabel {
    /// From 0: the column from the left, or the row from the bottom.
    pub index: u16,
    pub column: bool,
}

/// The "?" of a hint tile on the game's board, shown once readable (`zoom`).
#[derive(Component, Debug)]
pub struct HintLabel;

/// The board's size, for placing things.
#[derive(Resource, Debug, Default, Clone, Copy)]
pub struct RobotLayout {
    pub width: u16,
    pub height: u16,
}

impl RobotLayout {
    pub fn position(&self, p: Pos) -> Vec2 {
        Vec2::new(
            (p.0 as f32 - (self.width as f32 - 1.0) / 2.0) * TILE,
            ((self.height as f32 - 1.0) / 2.0 - p.1 as f32) * TILE,
        )
    }

    pub fn tile_at(&self, point: Vec2) -> Option<Pos> {
        let x = (point.x / TILE + self.width as f32 / 2.0).floor();
        let y = (self.height as f32 / 2.0 - point.y / TILE).floor();
        (x >= 0.0 && y >= 0.0 && x < self.width as f32 && y < self.height as f32)
            .then_some((x as u16, y as u16))
    }
}

/// The screen angle of a facing (North up).
pub(crate) fn angle(dir: Dir) -> f32 {
    -(dir.quarters() as f32) * FRAC_PI_2
}

impl MoveChoice for RobotChoice {
    fn expire(&mut self) {
        self.selected = None;
        self.swapping = false;
        self.swap_first = None;
    }
}

/// The robot board in the window.
pub fn plugin(app: &mut App) {
    registry::register::<Robots>(app);
    editor::plugin(app);
    choice_expires::<RobotChoice>(app);
    app.init_resource::<RobotChoice>()
        .init_resource::<RobotLayout>()
        .init_resource::<animate::ShownBoard>()
        .init_resource::<zoom::BoardView>()
        .init_resource::<ShadeOwnHomes>()
        .add_systems(Startup, art::make_textures)
        .add_systems(
            Update,
            (
                spawn::spawn_board,
                zoom::frame_board,
                zoom::pin_labels,
                reasoning::mark_reasoning,
                steps::follow_steps,
                (
                    animate::run_belts,
                    animate::glide,
                    animate::show_hints,
                    animate::fly_sparks,
                    count_busy::<crate::app::glide::Glide>,
                    input::show_destinations,
                    input::describe_choice,
                ),
            )
                .chain()
                .in_set(SessionSet::View)
                .run_if(playing::<Robots>),
        )
        .add_systems(
            Update,
            (
                input::click_board.run_if(pointer_free),
                input::request_with_keys.run_if(keys_free),
                zoom::zoom_with_mouse.run_if(pointer_free),
                zoom::zoom_with_keys.run_if(keys_free),
                reasoning::shade_with_key.run_if(keys_free),
                zoom::show_the_chosen,
            )
                .in_set(SessionSet::Requests)
                .run_if(playing::<Robots>),
        )
        .add_systems(EguiPrimaryContextPass, reasoning::shade_button.run_if(playing::<Robots>))
        .add_systems(OnExit(ActiveGame::of::<Robots>()), zoom::unframe);
}

impl WindowGame for Robots {
    const MOUSE: &'static str = "Click one of your robots, then a green tile. Wheel zooms, right-drag pans.";
    // A race: the first move is a step ahead.
    const TAKES_TURNS_TO_START: bool = true;
    const KEYS: &'static [Key] = &[
        key("N", "next robot"),
        key("arrows", "step one tile that way (a rule A robot)"),
        key("Up or 1-3", "walk 1 to 3 tiles ahead (a rule B robot)"),
        key("Left/Right/Down", "turn (a rule B robot)"),
        key("X", "exchange two tiles"),
        key("Enter", "pass"),
        key("H", "shade where your homes can be (hidden homes)"),
        key("+/-", "zoom"),
        key("Shift+arrows", "pan"),
        key("F", "fit the board"),
    ];
    const ABOUT: &'static str = "Race your robots home over belts; find hidden homes by hints.";
    const PICTURE: Option<&'static str> = Some("10-four-player-race.ron");

    /// Only the keys the level has a use for: no exchange key on a level
    /// without exchanges, no walking keys without a rule B robot.
    fn controls(level: &RobotsLevel) -> Controls {
        let has = |rule: RuleSet| level.robots.iter().any(|r| r.rule == rule);
        let keys: Vec<Key> = Self::KEYS
            .iter()
            .filter(|k| match k.keys {
                "X" => level.swaps > 0,
                "H" => level.homes == Homes::Hidden,
                "arrows" => has(RuleSet::A),
                "Up or 1-3" | "Left/Right/Down" => has(RuleSet::B),
                _ => true,
            })
            .copied()
            .collect();
        Controls::new(Self::MOUSE, &keys)
    }

    fn draw_level(painter: &egui::Painter, rect: egui::Rect, level: &RobotsLevel) {
        picture::draw(painter, rect, level);
    }

    fn new_level() -> RobotsLevel {
        editor::new_level()
    }

    fn from_view(view: &Robots) -> Robots {
        view.clone()
    }

    fn rules_text(level: &RobotsLevel) -> String {
        tabula_engine::core::Level::summary(level).join(" · ")
    }

    fn outcome_text(board: &Robots, names: &[String]) -> String {
        match board.outcome() {
            Some(Outcome::Win(p)) => {
                let robot = board.home_robot().filter(|r| r.player == p);
                let how = robot.map_or(String::new(), |r| format!(": robot {} is home", r.id));
                format!("{} wins{how}", name_of(names, p))
            }
            Some(Outcome::Draw) => "A draw: the move cap was reached".into(),
            None => String::new(),
        }
    }

    /// Every hint a robot holds, where it was given; on a hidden-home
    /// board, how many tiles each home can still be on.
    fn clues(board: &Robots) -> Vec<(Player, String)> {
        let mut lines = Vec::new();
        for (r, robot) in board.robots().iter().enumerate() {
            for held in board.held_hints(robot.id) {
                lines
                    .push((robot.player, format!("{}: home {}", robot.id, clue_words(held, board.height()))));
            }
            if board.homes_hidden() && board.outcome().is_none() {
                let n = board.home_candidates(r).len();
                let tiles = if n == 1 { "1 tile".to_owned() } else { format!("{n} tiles") };
                lines.push((robot.player, format!("{}: its home could be on {tiles}", robot.id)));
            }
        }
        lines
    }

    /// Exchanges name their tiles as on a chess board; turns are said as a
    /// person says them (the notation keeps quarters counter-clockwise).
    fn move_text(level: &RobotsLevel, mv: &RobotMove) -> String {
        let height = level.board.len() as u16;
        match *mv {
            RobotMove::Exchange { a, b } => {
                format!("exchange {} and {}", tile_name(a, height), tile_name(b, height))
            }
            RobotMove::Rotate { robot, quarters } => format!("{robot} {}", turn_words(quarters)),
            _ => mv.to_string(),
        }
    }

    /// Tiles named as on a chess board, and what blocks a walk.
    fn refusal(board: &Robots, error: &RobotsError) -> String {
        let name = |p: Pos| tile_name(p, board.height());
        match *error {
            RobotsError::OffBoard { at: (x, y) } => {
                let edge = if y < 0 {
                    "north"
                } else if x >= board.width() as i32 {
                    "east"
                } else if y >= board.height() as i32 {
                    "south"
                } else {
                    "west"
                };
                format!("the walk would leave the board past the {edge} edge")
            }
            RobotsError::Blocked { at } => match board.robot_at(at) {
                Some(robot) => format!("blocked at {} by robot {}", name(at), robot.id),
                None => format!("blocked at {} by a broken robot", name(at)),
            },
            RobotsError::HomeOrHintTile { at } => {
                format!("{} is a home or hint tile: those stay where they are", name(at))
            }
            RobotsError::BeltLoop { at } => format!("the conveyors would run in a loop through {}", name(at)),
            _ => error.to_string(),
        }
    }

    fn step_note(steps: &[RobotStep]) -> Option<String> {
        let mut notes = Vec::new();
        if steps.iter().any(|s| matches!(s, RobotStep::Rode { .. })) {
            notes.push("rode the belt".to_owned());
        }
        let rounds = steps
            .iter()
            .filter_map(|s| if let RobotStep::Carried { round, .. } = s { Some(*round) } else { None })
            .max();
        if let Some(n) = rounds {
            notes.push(format!("the belts settled in {n} round{}", if n == 1 { "" } else { "s" }));
        }
        for s in steps {
            if let RobotStep::HintGiven { robot, hint } = s {
                notes.push(format!("{robot}'s hint: home is {}", hint_words(*hint)));
            }
        }
        (!notes.is_empty()).then(|| notes.join(", "))
    }
}

/// A held hint on the board first, where a person looks ("south-east of
/// J9"; "due" when home is in the tile's own row or column), then as the
/// robot was told it.
fn clue_words(held: HeldHint, height: u16) -> String {
    let bearing = held.bearing();
    let due = if bearing.is_multiple_of(2) { "due " } else { "" };
    format!(
        "{due}{} of {} ({}, seen there facing {})",
        compass_name(bearing),
        tile_name(held.at, height),
        hint_words(held.hint),
        held.facing.name()
    )
}

/// A rule B turn as a person says it: a quarter counter-clockwise is a turn
/// left, three of them a turn right.
fn turn_words(quarters: u8) -> String {
    match quarters {
        1 => "turns left".into(),
        2 => "turns around".into(),
        3 => "turns right".into(),
        q => format!("turns {q} quarters left"),
    }
}

fn hint_words(hint: Hint) -> &'static str {
    match hint {
        Hint::Ahead => "ahead",
        Hint::AheadRight => "ahead right",
        Hint::Right => "right",
        Hint::BehindRight => "behind right",
        Hint::Behind => "behind",
        Hint::BehindLeft => "behind left",
        Hint::Left => "left",
        Hint::AheadLeft => "ahead left",
    }
}

#[cfg(test)]
mod tests;
