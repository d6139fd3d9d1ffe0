//! The Robot board's level file (DESIGN.md, "Robot board levels"): the board
//! drawn as rows of characters, the robots, swaps and the move cap.

use serde::{Deserialize, Serialize};

use crate::core::{Level, RuleViolation};

/// A compass direction; y grows downwards, so North is y - 1.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Dir {
    North,
    East,
    South,
    West,
}

impl Dir {
    pub const ALL: [Dir; 4] = [Dir::North, Dir::East, Dir::South, Dir::West];

    /// Quarter turns clockwise from North.
    pub fn quarters(self) -> u8 {
        self as u8
    }

    pub fn from_quarters(q: u8) -> Dir {
        Dir::ALL[(q % 4) as usize]
    }

    /// Turned `quarters` quarter turns counter-clockwise on screen.
    pub fn turned_left(self, quarters: u8) -> Dir {
        Dir::from_quarters(self.quarters() + 4 - quarters % 4)
    }

    pub fn delta(self) -> (i32, i32) {
        match self {
            Dir::North => (0, -1),
            Dir::East => (1, 0),
            Dir::South => (0, 1),
            Dir::West => (-1, 0),
        }
    }

    /// The conveyor character of the board's legend.
    pub fn arrow(self) -> char {
        match self {
            Dir::North => '^',
            Dir::East => '>',
            Dir::South => 'v',
            Dir::West => '<',
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Dir::North => "north",
            Dir::East => "east",
            Dir::South => "south",
            Dir::West => "west",
        }
    }
}

/// How a robot moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum RuleSet {
    /// One step to any of the four neighbours; no rotating.
    A,
    /// 1 to 3 steps straight ahead, or 1 to 3 quarter turns.
    B,
}

/// A robot as the level places it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RobotSpec {
    /// `A` to `Z` except `V` (a lowercase `v` is a conveyor).
    pub id: char,
    /// `(x, y)`, 0-based, y down.
    pub at: (u16, u16),
    pub facing: Dir,
    pub rule: RuleSet,
    /// Numbered from 1, as on screen.
    pub player: u8,
}

pub const DEFAULT_MOVE_CAP: u32 = 500;
/// Largest board side: room for the generator's large boards.
pub const MAX_SIDE: usize = 1024;
pub const MAX_PLAYERS: u8 = 8;

fn default_cap() -> u32 {
    DEFAULT_MOVE_CAP
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RobotsLevel {
    pub name: String,
    #[serde(default)]
    pub description: String,
    /// Rows top to bottom: `.` normal, `?` hint, `#` broken robot,
    /// `^ > v <` conveyors, a lowercase letter the home of that robot.
    pub board: Vec<String>,
    pub robots: Vec<RobotSpec>,
    /// Exchanges each player may make.
    #[serde(default)]
    pub swaps: u16,
    /// Moves after which the game is a draw.
    #[serde(default = "default_cap")]
    pub move_cap: u32,
}

impl RobotsLevel {
    pub fn players(&self) -> u8 {
        self.robots.iter().map(|r| r.player).max().unwrap_or(0)
    }
}

impl Level for RobotsLevel {
    fn name(&self) -> &str {
        &self.name
    }

    fn description(&self) -> &str {
        &self.description
    }

    fn summary(&self) -> Vec<String> {
        let (w, h) = (self.board.first().map_or(0, |r| r.chars().count()), self.board.len());
        let swaps = match self.swaps {
            0 => "no exchanges".to_owned(),
            1 => "1 exchange a player".to_owned(),
            n => format!("{n} exchanges a player"),
        };
        vec![
            format!("{w} x {h} tiles, {} robots, {} players", self.robots.len(), self.players()),
            format!("{swaps} · a draw after {} moves", self.move_cap),
        ]
    }
}

/// A level rule broken, named after the rule.
pub(crate) fn violation(rule: &'static str, message: String) -> RuleViolation {
    RuleViolation::new(rule, message)
}
