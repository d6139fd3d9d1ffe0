//! The Robot board's level file (docs/formats.md, "Robot board levels"): the
//! board drawn as rows of characters, the robots, swaps and the move cap.

use serde::{Deserialize, Serialize};

use crate::core::{Heading, Level, LevelGroup, RuleViolation};
use crate::layout::Layout;

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
    /// `A` to `Z` except `V` (a lowercase `v` is a conveyor); on boards
    /// with more robots, other capital letters too (see [`is_robot_id`]).
    pub id: char,
    /// `(x, y)`, 0-based, y down.
    pub at: (u16, u16),
    pub facing: Dir,
    pub rule: RuleSet,
    /// Numbered from 1, as on screen.
    pub player: u8,
}

/// Whether `c` may name a robot: the letters A to Z except V (a lowercase
/// `v` is a conveyor), and beyond them, for boards with more than 25
/// robots, any other capital letter whose lowercase is one character that
/// turns back into it (À and à, Ω and ω), so the board can draw its home.
pub fn is_robot_id(c: char) -> bool {
    if c.is_ascii() {
        return c.is_ascii_uppercase() && c != 'V';
    }
    c.is_uppercase()
        && single(c.to_lowercase())
            .is_some_and(|l| l != c && l.is_lowercase() && single(l.to_uppercase()) == Some(c))
}

fn single(mut chars: impl Iterator<Item = char>) -> Option<char> {
    let c = chars.next()?;
    chars.next().is_none().then_some(c)
}

/// The board character of robot `id`'s home: its lowercase letter.
pub fn home_char(id: char) -> char {
    single(id.to_lowercase()).unwrap_or(id)
}

/// The robot whose home the board character `c` marks, if it marks one.
pub fn robot_of_home(c: char) -> Option<char> {
    if !c.is_lowercase() {
        return None;
    }
    single(c.to_uppercase()).filter(|&id| is_robot_id(id) && home_char(id) == c)
}

/// Robot ids in the order the generator hands them out: A to Z but V,
/// then the other letters by code point.
pub fn robot_ids() -> impl Iterator<Item = char> {
    ('A'..='Z').chain(('\u{C0}'..='\u{1FFFF}').filter(|c| !c.is_ascii())).filter(|&c| is_robot_id(c))
}

/// The most robots a level may have.
pub const MAX_ROBOTS: usize = 1400;

pub const DEFAULT_MOVE_CAP: u32 = 500;
/// Largest board side: room for the generator's large boards.
pub const MAX_SIDE: usize = 1024;
pub const MAX_PLAYERS: u8 = 8;

fn default_cap() -> u32 {
    DEFAULT_MOVE_CAP
}

/// Whether the players see where the homes are (RULES.md, "Hidden homes").
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Homes {
    /// Every home is drawn on the board.
    #[default]
    Shown,
    /// Homes look like plain tiles until a robot stands on its own; hints
    /// are how a robot finds it.
    Hidden,
}

impl Homes {
    fn is_shown(&self) -> bool {
        *self == Homes::Shown
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RobotsLevel {
    pub name: String,
    #[serde(default)]
    pub description: String,
    /// Where the menu lists it.
    #[serde(default, skip_serializing_if = "LevelGroup::is_game")]
    pub group: LevelGroup,
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
    /// Shown (the default) or hidden homes. A robot's letter on several
    /// tiles marks candidate homes, one drawn per game from its seed.
    #[serde(default, skip_serializing_if = "Homes::is_shown")]
    pub homes: Homes,
}

impl RobotsLevel {
    pub fn players(&self) -> u8 {
        self.robots.iter().map(|r| r.player).max().unwrap_or(0)
    }
}

impl Level for RobotsLevel {
    fn heading(&self) -> Heading<'_> {
        Heading { name: &self.name, description: &self.description, group: self.group }
    }

    /// The board as rows of text and the robots one a line.
    fn layout(&self, game: &str) -> Option<String> {
        let mut l = Layout::of(game, self);
        l.rows("board", &self.board)
            .rows("robots", &self.robots)
            .optional("swaps", &self.swaps, &0)
            .optional("move_cap", &self.move_cap, &DEFAULT_MOVE_CAP);
        if !self.homes.is_shown() {
            l.field("homes", &self.homes);
        }
        Some(l.finish())
    }

    /// With hidden homes, every home and candidate home is a plain tile:
    /// what a seat that joins a server's table may know of the board.
    fn public(&self) -> RobotsLevel {
        let mut level = self.clone();
        if self.homes == Homes::Hidden {
            for row in &mut level.board {
                *row = row.chars().map(|c| if robot_of_home(c).is_some() { '.' } else { c }).collect();
            }
        }
        level
    }

    fn summary(&self) -> Vec<String> {
        let (w, h) = (self.board.first().map_or(0, |r| r.chars().count()), self.board.len());
        let swaps = match self.swaps {
            0 => "no exchanges".to_owned(),
            1 => "1 exchange a player".to_owned(),
            n => format!("{n} exchanges a player"),
        };
        let homes = match self.homes {
            Homes::Shown => "",
            Homes::Hidden => " · homes hidden: find them by hints",
        };
        vec![
            format!("{w} x {h} tiles, {} robots, {} players", self.robots.len(), self.players()),
            format!("{swaps} · a draw after {} moves{homes}", self.move_cap),
        ]
    }
}

/// A level rule broken, named after the rule.
pub(crate) fn violation(rule: &'static str, message: String) -> RuleViolation {
    RuleViolation::new(rule, message)
}
