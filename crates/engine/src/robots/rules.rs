//! The Robot board's state, moves and their application
//! (docs/rules/robot-board.md). Every change to the state goes through
//! [`Robots::follow_step`], the same function a view's observation follows:
//! `apply` decides the steps, and the steps are the whole of what happened.

use std::borrow::Cow;
use std::collections::{HashMap, VecDeque};
use std::fmt;

use rand::seq::SliceRandom;
use serde::{Deserialize, Serialize};

use super::level::{
    Dir, Homes, MAX_PLAYERS, MAX_ROBOTS, MAX_SIDE, RobotsLevel, RuleSet, home_char, is_robot_id,
    robot_of_home, violation,
};
use crate::core::{
    Game, GameRng, NotYourTurn, Observation, Outcome, Player, RuleError, RuleViolation, derive_seed, rng,
};

mod board;
mod motion;
mod setup;

use board::{Layout, offset};
pub use board::{belt_loop, column_name, reachable_tiles, tile_name};
pub(super) use setup::augment;
pub use setup::draw_candidate;

/// A tile's place: `(x, y)`, 0-based, y down.
pub type Pos = (u16, u16);

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Tile {
    Normal,
    Hint,
    /// A broken robot: never occupied; blocks walks and belts.
    Broken,
    /// The home of the robot with this index.
    Home(u16),
    Conveyor(Dir),
}

/// The compass direction of an offset's signs, in eighths of a turn
/// clockwise from North (diagonal when both are non-zero); none for no
/// offset.
pub fn compass_eighth(dx: i32, dy: i32) -> Option<u8> {
    Some(match (dx.signum(), dy.signum()) {
        (0, -1) => 0,
        (1, -1) => 1,
        (1, 0) => 2,
        (1, 1) => 3,
        (0, 1) => 4,
        (-1, 1) => 5,
        (-1, 0) => 6,
        (-1, -1) => 7,
        _ => return None,
    })
}

/// Where a robot's home is, in the robot's own frame.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Hint {
    Ahead,
    AheadRight,
    Right,
    BehindRight,
    Behind,
    BehindLeft,
    Left,
    AheadLeft,
}

impl Hint {
    /// Eighths of a turn clockwise from ahead.
    pub fn index(self) -> usize {
        self as usize
    }

    const ALL: [Hint; 8] = [
        Hint::Ahead,
        Hint::AheadRight,
        Hint::Right,
        Hint::BehindRight,
        Hint::Behind,
        Hint::BehindLeft,
        Hint::Left,
        Hint::AheadLeft,
    ];

    /// The hint for a home at offset `(dx, dy)` from a robot facing
    /// `facing`: the compass direction of the offset's signs (diagonal when
    /// both are non-zero), turned by minus the facing.
    pub fn toward(dx: i32, dy: i32, facing: Dir) -> Hint {
        // (0, 0) cannot happen: a hint tile is no home.
        let compass = compass_eighth(dx, dy).unwrap_or(0) as usize;
        Hint::ALL[(compass + 8 - 2 * facing.quarters() as usize) % 8]
    }

    /// Where home lies on the board for a robot given this hint facing
    /// `facing`: the compass direction [`Hint::toward`] turned by the
    /// facing, in eighths of a turn clockwise from North. It stays the same
    /// however the robot turns afterwards.
    pub fn bearing(self, facing: Dir) -> u8 {
        ((self.index() + 2 * facing.quarters() as usize) % 8) as u8
    }
}

/// A compass direction in eighths of a turn clockwise from North, as a
/// person says it: "north", "north-east", and so on.
pub fn compass_name(eighth: u8) -> &'static str {
    ["north", "north-east", "east", "south-east", "south", "south-west", "west", "north-west"]
        [(eighth % 8) as usize]
}

/// A hint a robot holds, with the tile it was given on and how the robot
/// faced then (it may have turned since).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HeldHint {
    pub hint: Hint,
    pub at: Pos,
    pub facing: Dir,
}

impl HeldHint {
    /// Where home lies on the board from `at` ([`Hint::bearing`]).
    pub fn bearing(&self) -> u8 {
        self.hint.bearing(self.facing)
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Robot {
    pub id: char,
    pub at: Pos,
    pub facing: Dir,
    pub rule: RuleSet,
    pub player: Player,
    /// Where its home is; `None` in the observation of a board whose homes
    /// are hidden.
    pub home: Option<Pos>,
    /// Where it stood when the game began.
    pub start: Pos,
    /// Hints received since the robot was last moved by a belt or an
    /// exchange, oldest first.
    pub hints: Vec<Hint>,
}

/// What everyone saw of a robot on a board whose homes are hidden: the
/// public history its home must agree with (RULES.md, "Hidden homes").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Sighting {
    /// The robot stood on the tile `at` (at the start, or after a walk,
    /// ride or belt): unless the game ended with it there, not its home.
    StoodOn { robot: char, at: Pos },
    /// The robot was given `hint` on the hint tile `at`, facing `facing`.
    Hinted { robot: char, at: Pos, facing: Dir, hint: Hint },
}

impl Sighting {
    pub fn robot(&self) -> char {
        match *self {
            Sighting::StoodOn { robot, .. } | Sighting::Hinted { robot, .. } => robot,
        }
    }
}

/// A request (docs/formats.md, "Move notation"): `Step(robot: 'A', dir: East)`,
/// `Forward(robot: 'B', steps: 2)`, `Rotate(robot: 'B', quarters: 1)`
/// (counter-clockwise), `Exchange(a: (1, 2), b: (4, 1))`, `Pass`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub enum RobotMove {
    Step { robot: char, dir: Dir },
    Forward { robot: char, steps: u8 },
    Rotate { robot: char, quarters: u8 },
    Exchange { a: Pos, b: Pos },
    Pass,
}

impl fmt::Display for RobotMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            RobotMove::Step { robot, dir } => write!(f, "{robot} steps {}", dir.name()),
            RobotMove::Forward { robot, steps } => write!(f, "{robot} walks {steps} ahead"),
            RobotMove::Rotate { robot, quarters } => {
                write!(f, "{robot} turns {quarters} quarter{} left", if quarters == 1 { "" } else { "s" })
            }
            RobotMove::Exchange { a, b } => write!(f, "exchange ({}, {}) and ({}, {})", a.0, a.1, b.0, b.1),
            RobotMove::Pass => f.write_str("pass"),
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RobotsError {
    #[error("there is no robot {robot}")]
    NoSuchRobot { robot: char },
    #[error("robot {robot} is player {owner}'s")]
    NotYourRobot { robot: char, owner: u8 },
    #[error("robot {robot} follows rule {rule:?}: {}", match rule { RuleSet::A => "it steps to a neighbour and cannot turn", RuleSet::B => "it walks ahead or turns" })]
    NotAllowed { robot: char, rule: RuleSet },
    #[error("a walk is 1 to 3 steps ahead, not {steps}")]
    BadSteps { steps: u8 },
    #[error("a turn is 1 to 3 quarters, not {quarters}")]
    BadQuarters { quarters: u8 },
    #[error("the walk would leave the board at ({}, {})", at.0, at.1)]
    OffBoard { at: (i32, i32) },
    #[error("the way is blocked at ({}, {})", at.0, at.1)]
    Blocked { at: Pos },
    #[error("an exchange needs two different tiles")]
    SameTile,
    #[error("({}, {}) is a home or hint tile: those stay where they are", at.0, at.1)]
    HomeOrHintTile { at: Pos },
    #[error("no exchanges left")]
    NoSwapsLeft,
    #[error("the exchange would change nothing")]
    NothingChanges,
    #[error("robot {robot} could no longer reach its home")]
    WouldStrand { robot: char },
    #[error("the conveyors would run in a loop through ({}, {})", at.0, at.1)]
    BeltLoop { at: Pos },
    #[error("a pass is only for a player with no other move")]
    MustMove,
    #[error("the game is over")]
    GameOver,
    #[error(transparent)]
    NotYourTurn(#[from] NotYourTurn),
}

impl RuleError for RobotsError {
    fn not_your_turn(&self) -> Option<NotYourTurn> {
        match self {
            RobotsError::NotYourTurn(t) => Some(*t),
            _ => None,
        }
    }
}

/// One step of a move, in order; robots are named by their ids.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum RobotStep {
    /// `by` made a request (the move count rises).
    Began {
        by: Player,
    },
    /// The acting robot walked to `to` (where its walk ended, or the first
    /// free conveyor of its path).
    Walked {
        robot: char,
        to: Pos,
    },
    Rotated {
        robot: char,
        facing: Dir,
    },
    /// The acting robot's own ride, one tile a step.
    Rode {
        robot: char,
        to: Pos,
        facing: Dir,
    },
    /// Settling: a belt carried the robot one tile in round `round`.
    Carried {
        robot: char,
        to: Pos,
        facing: Dir,
        round: u16,
    },
    /// Two tiles exchanged, robots with them; conveyors and the robots on
    /// them turned a quarter counter-clockwise.
    Swapped {
        by: Player,
        a: Pos,
        b: Pos,
    },
    HintsCleared {
        robot: char,
    },
    HintGiven {
        robot: char,
        hint: Hint,
    },
    /// The robot stands on its home.
    Won {
        robot: char,
    },
    TurnChanged {
        to: Player,
    },
    Ended(Outcome),
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Robots {
    width: u16,
    height: u16,
    /// Row by row.
    tiles: Vec<Tile>,
    /// The robot on each tile, as its index + 1 (0: none).
    occupant: Vec<u16>,
    robots: Vec<Robot>,
    players: u8,
    swaps_left: Vec<u16>,
    to_move: Player,
    plies: u32,
    move_cap: u32,
    outcome: Option<Outcome>,
    /// No seat sees the homes (RULES.md, "Hidden homes").
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    homes_hidden: bool,
    /// What everyone saw, in order: on every board each hint given, with
    /// where and how the robot faced (a hint is in the robot's frame, which
    /// turns); on a board whose homes are hidden also each tile stood on.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    sightings: Vec<Sighting>,
    /// The robot that came home and won.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    home_robot: Option<char>,
}

impl Robots {
    pub fn width(&self) -> u16 {
        self.width
    }

    pub fn height(&self) -> u16 {
        self.height
    }

    pub fn tile(&self, p: Pos) -> Tile {
        self.tiles[self.index(p)]
    }

    pub fn robots(&self) -> &[Robot] {
        &self.robots
    }

    pub fn robot(&self, id: char) -> Option<&Robot> {
        self.robots.iter().find(|r| r.id == id)
    }

    /// The robot standing on `p`, if any.
    pub fn robot_at(&self, p: Pos) -> Option<&Robot> {
        match self.occupant[self.index(p)] {
            0 => None,
            i => Some(&self.robots[i as usize - 1]),
        }
    }

    /// The same board with `player` to move: what they could do now, for
    /// an agent looking at an opponent's threats.
    pub(crate) fn with_turn(&self, player: Player) -> Robots {
        Robots { to_move: player, ..self.clone() }
    }

    /// No seat sees the homes (RULES.md, "Hidden homes").
    pub fn homes_hidden(&self) -> bool {
        self.homes_hidden
    }

    /// The robot whose arrival home won the game.
    pub fn home_robot(&self) -> Option<&Robot> {
        self.home_robot.and_then(|id| self.robot(id))
    }

    /// What everyone saw, in order: every hint given, with where and how
    /// the robot faced; on a board whose homes are hidden, also the tiles
    /// stood on.
    pub fn sightings(&self) -> &[Sighting] {
        &self.sightings
    }

    /// The hints robot `id` holds, oldest first, each with the tile it was
    /// given on and the robot's facing then: its last hints given, since
    /// belts and exchanges clear them all at once.
    pub fn held_hints(&self, id: char) -> Vec<HeldHint> {
        let Some(robot) = self.robot(id) else { return Vec::new() };
        let given: Vec<HeldHint> = self
            .sightings
            .iter()
            .filter_map(|s| match *s {
                Sighting::Hinted { robot, at, facing, hint } if robot == id => {
                    Some(HeldHint { hint, at, facing })
                }
                _ => None,
            })
            .collect();
        given[given.len().saturating_sub(robot.hints.len())..].to_vec()
    }

    /// The tiles robot `r`'s home can be on, as far as this board (a state,
    /// or an observation of hidden homes) shows, in reading order: its home
    /// where that is known; else every plain tile it could reach from its
    /// start, under no robot at the start, never seen it stand on, that
    /// agrees with every hint it was given.
    pub fn home_candidates(&self, r: usize) -> Vec<Pos> {
        let robot = &self.robots[r];
        if let Some(home) = robot.home {
            return vec![home];
        }
        let reach = self.layout().reachable_from(robot.start);
        let mut possible: Vec<bool> =
            self.tiles.iter().zip(&reach).map(|(t, &r)| r && *t == Tile::Normal).collect();
        // No home of a hidden-home level is under a robot at the start.
        for other in &self.robots {
            possible[self.index(other.start)] = false;
        }
        let mut hints = Vec::new();
        for seen in self.sightings.iter().filter(|s| s.robot() == robot.id) {
            match *seen {
                Sighting::StoodOn { at, .. } => possible[self.index(at)] = false,
                Sighting::Hinted { at, facing, hint, .. } => hints.push((at, facing, hint)),
            }
        }
        (0..self.height)
            .flat_map(|y| (0..self.width).map(move |x| (x, y)))
            .filter(|&p| {
                possible[self.index(p)]
                    && hints.iter().all(|&(at, facing, hint)| {
                        Hint::toward(p.0 as i32 - at.0 as i32, p.1 as i32 - at.1 as i32, facing) == hint
                    })
            })
            .collect()
    }

    pub fn swaps_left(&self, player: Player) -> u16 {
        self.swaps_left.get(player.index()).copied().unwrap_or(0)
    }

    pub fn plies(&self) -> u32 {
        self.plies
    }

    fn layout(&self) -> Layout<'_> {
        Layout { width: self.width, height: self.height, tiles: &self.tiles }
    }

    fn index(&self, p: Pos) -> usize {
        p.1 as usize * self.width as usize + p.0 as usize
    }

    /// A robot or a broken robot stands there.
    fn occupied(&self, p: Pos) -> bool {
        let i = self.index(p);
        self.occupant[i] != 0 || self.tiles[i] == Tile::Broken
    }

    pub(crate) fn conveyor(&self, p: Pos) -> Option<Dir> {
        match self.tile(p) {
            Tile::Conveyor(d) => Some(d),
            _ => None,
        }
    }

    fn find(&self, id: char) -> Result<usize, RobotsError> {
        self.robots.iter().position(|r| r.id == id).ok_or(RobotsError::NoSuchRobot { robot: id })
    }

    /// Who may move, and which of their robots; the checks every request
    /// shares.
    fn check_turn(&self, player: Player) -> Result<(), RobotsError> {
        if self.outcome.is_some() {
            return Err(RobotsError::GameOver);
        }
        if player != self.to_move {
            return Err(NotYourTurn { player, to_move: self.to_move }.into());
        }
        Ok(())
    }

    fn own_robot(&self, player: Player, id: char, rule: RuleSet) -> Result<usize, RobotsError> {
        let i = self.find(id)?;
        let robot = &self.robots[i];
        if robot.player != player {
            return Err(RobotsError::NotYourRobot { robot: id, owner: robot.player.0 + 1 });
        }
        if robot.rule != rule {
            return Err(RobotsError::NotAllowed { robot: id, rule: robot.rule });
        }
        Ok(i)
    }

    /// A robot or a broken robot other than robot `r` stands there (for
    /// walks `r` might make from elsewhere, as the planner asks).
    fn blocked_for(&self, r: usize, p: Pos) -> bool {
        let i = self.index(p);
        (self.occupant[i] != 0 && self.occupant[i] as usize != r + 1) || self.tiles[i] == Tile::Broken
    }

    /// Where a walk of robot `i` in `dir` for `steps` tiles ends
    /// (docs/rules/robot-board.md, "Walking"): every tile of the path on the
    /// board, no occupied tile before a conveyor, the first free conveyor
    /// taken.
    fn walk_target(&self, i: usize, dir: Dir, steps: u8) -> Result<Pos, RobotsError> {
        self.walk_target_from(i, self.robots[i].at, dir, steps)
    }

    /// The same for robot `i` standing at `from`.
    pub(crate) fn walk_target_from(
        &self,
        i: usize,
        from: Pos,
        dir: Dir,
        steps: u8,
    ) -> Result<Pos, RobotsError> {
        let mut path = [(0, 0); 3];
        let mut p = from;
        for slot in path.iter_mut().take(steps as usize) {
            let (x, y) = offset(p, dir);
            p = self.layout().neighbour(p, dir).ok_or(RobotsError::OffBoard { at: (x, y) })?;
            *slot = p;
        }
        for &p in &path[..steps as usize] {
            if self.blocked_for(i, p) {
                return Err(RobotsError::Blocked { at: p });
            }
            if self.conveyor(p).is_some() {
                return Ok(p);
            }
        }
        Ok(path[steps as usize - 1])
    }

    /// The next tile of robot `r`'s ride from `at` facing `facing`, with
    /// its facing there; `None` where the ride ends or waits.
    pub(crate) fn ride_step(&self, r: usize, at: Pos, facing: Dir) -> Option<(Pos, Dir)> {
        let d = self.conveyor(at)?;
        let next = self.layout().neighbour(at, d)?;
        (!self.blocked_for(r, next)).then(|| (next, self.carried_facing(facing, d, next)))
    }

    /// Checks an exchange by `player` on the board as it would be after it;
    /// `before` holds each robot's way home on the board as it is.
    fn check_exchange(
        &self,
        player: Player,
        a: Pos,
        b: Pos,
        before: &[Option<Vec<usize>>],
    ) -> Result<(), RobotsError> {
        if self.swaps_left(player) == 0 {
            return Err(RobotsError::NoSwapsLeft);
        }
        for p in [a, b] {
            if p.0 >= self.width || p.1 >= self.height {
                return Err(RobotsError::OffBoard { at: (p.0 as i32, p.1 as i32) });
            }
        }
        if a == b {
            return Err(RobotsError::SameTile);
        }
        for p in [a, b] {
            if matches!(self.tile(p), Tile::Home(_) | Tile::Hint) {
                return Err(RobotsError::HomeOrHintTile { at: p });
            }
        }
        let (ta, tb) = (self.tile(a), self.tile(b));
        let conveyors = matches!(ta, Tile::Conveyor(_)) || matches!(tb, Tile::Conveyor(_));
        if !conveyors && ta == tb && self.robot_at(a).is_none() && self.robot_at(b).is_none() {
            return Err(RobotsError::NothingChanges);
        }
        let mut tiles = self.tiles.clone();
        tiles.swap(self.index(a), self.index(b));
        for i in [self.index(a), self.index(b)] {
            if let Tile::Conveyor(d) = tiles[i] {
                tiles[i] = Tile::Conveyor(d.turned_left(1));
            }
        }
        let after = Layout { width: self.width, height: self.height, tiles: &tiles };
        if let Some(ring) = after.loop_through([a, b].into_iter()) {
            return Err(RobotsError::BeltLoop { at: ring[0] });
        }
        let (ia, ib) = (self.index(a), self.index(b));
        for (robot, way) in self.robots.iter().zip(before) {
            // A robot that had no way home does not block the exchange; one
            // whose way avoids both tiles keeps it (see `Layout::route`: the
            // way holds every tile its landings read, so this is exact).
            let (Some(way), Some(home)) = (way, robot.home) else { continue };
            if !way.contains(&ia) && !way.contains(&ib) {
                continue;
            }
            let at = if robot.at == a {
                b
            } else if robot.at == b {
                a
            } else {
                robot.at
            };
            if !after.reaches(at, home) {
                return Err(RobotsError::WouldStrand { robot: robot.id });
            }
        }
        Ok(())
    }

    /// Each robot's way home on the board as it is, if it has one.
    fn ways_home(&self) -> Vec<Option<Vec<usize>>> {
        let layout = self.layout();
        self.robots.iter().map(|r| r.home.and_then(|home| layout.route(r.at, home))).collect()
    }

    /// Carries out a move already checked: every change `apply` makes.
    fn perform(&mut self, player: Player, plan: Plan) -> Vec<RobotStep> {
        let mut steps = Vec::with_capacity(8);
        self.emit(&mut steps, RobotStep::Began { by: player });
        match plan {
            Plan::Walk(r, to) => self.walk(player, r, to, &mut steps),
            Plan::Rotate(r, facing) => {
                let robot = self.robots[r].id;
                self.emit(&mut steps, RobotStep::Rotated { robot, facing });
                self.finish(player, None, &mut steps);
            }
            Plan::Exchange(a, b) => {
                self.emit(&mut steps, RobotStep::Swapped { by: player, a, b });
                for p in [a, b] {
                    if let Some(r) = (self.occupant[self.index(p)] as usize).checked_sub(1) {
                        self.clear_hints(r, &mut steps);
                    }
                }
                let winner = self.settle(player, &mut steps);
                self.finish(player, winner, &mut steps);
            }
            Plan::Pass => self.finish(player, None, &mut steps),
        }
        steps
    }

    /// Plays an exchange that [`Robots::exchanges`] found legal for the
    /// player to move, without checking it again: the planner weighs every
    /// legal exchange, and the check is most of an exchange's cost.
    pub(crate) fn play_legal_exchange(&mut self, player: Player, a: Pos, b: Pos) {
        debug_assert!(self.check_exchange(player, a, b, &self.ways_home()).is_ok());
        self.perform(player, Plan::Exchange(a, b));
    }

    /// Every legal exchange of `player`, `a` before `b` in reading order;
    /// with `first`, stops at the first.
    pub(crate) fn exchanges(&self, player: Player, out: &mut Vec<RobotMove>, first: bool) {
        if self.swaps_left(player) == 0 {
            return;
        }
        let before = self.ways_home();
        let movable: Vec<Pos> = (0..self.height)
            .flat_map(|y| (0..self.width).map(move |x| (x, y)))
            .filter(|&p| !matches!(self.tile(p), Tile::Home(_) | Tile::Hint))
            .collect();
        for (i, &a) in movable.iter().enumerate() {
            for &b in &movable[i + 1..] {
                if self.check_exchange(player, a, b, &before).is_ok() {
                    out.push(RobotMove::Exchange { a, b });
                    if first {
                        return;
                    }
                }
            }
        }
    }

    /// The walks and turns of `player`'s robots, in the level's order.
    pub(crate) fn robot_moves(&self, player: Player, out: &mut Vec<RobotMove>) {
        for (i, robot) in self.robots.iter().enumerate() {
            if robot.player != player {
                continue;
            }
            match robot.rule {
                RuleSet::A => {
                    for dir in Dir::ALL {
                        if self.walk_target(i, dir, 1).is_ok() {
                            out.push(RobotMove::Step { robot: robot.id, dir });
                        }
                    }
                }
                RuleSet::B => {
                    for steps in 1..=3 {
                        if self.walk_target(i, robot.facing, steps).is_ok() {
                            out.push(RobotMove::Forward { robot: robot.id, steps });
                        }
                    }
                    out.extend((1..=3).map(|quarters| RobotMove::Rotate { robot: robot.id, quarters }));
                }
            }
        }
    }

    /// The walks and turns robot `r` could make from `at` facing `facing`,
    /// each with where it leaves the robot after its own ride (other robots
    /// where they stand now): for planning and for showing a player where a
    /// robot can go.
    pub fn requests_from(&self, r: usize, at: Pos, facing: Dir) -> Vec<(RobotMove, Pos, Dir)> {
        let mut out = Vec::with_capacity(6);
        self.each_request_from(r, at, facing, |mv, p, f| out.push((mv, p, f)));
        out
    }

    /// The same, handed one by one to `found`: the planners' searches ask
    /// this at every place they reach, so nothing is allocated.
    pub(crate) fn each_request_from(
        &self,
        r: usize,
        at: Pos,
        facing: Dir,
        mut found: impl FnMut(RobotMove, Pos, Dir),
    ) {
        let robot = &self.robots[r];
        let mut land = |mv: RobotMove, dir: Dir, steps: u8| {
            if let Ok(mut p) = self.walk_target_from(r, at, dir, steps) {
                let mut f = facing;
                while let Some((next, turned)) = self.ride_step(r, p, f) {
                    (p, f) = (next, turned);
                }
                found(mv, p, f);
            }
        };
        match robot.rule {
            RuleSet::A => {
                for dir in Dir::ALL {
                    land(RobotMove::Step { robot: robot.id, dir }, dir, 1);
                }
            }
            RuleSet::B => {
                for steps in 1..=3 {
                    land(RobotMove::Forward { robot: robot.id, steps }, facing, steps);
                }
                for quarters in 1..=3 {
                    found(RobotMove::Rotate { robot: robot.id, quarters }, at, facing.turned_left(quarters));
                }
            }
        }
    }

    /// The same for robot `id` where it stands.
    pub fn destinations(&self, id: char) -> Vec<(RobotMove, Pos, Dir)> {
        match self.robots.iter().position(|r| r.id == id) {
            Some(r) => self.requests_from(r, self.robots[r].at, self.robots[r].facing),
            None => Vec::new(),
        }
    }

    /// Every legal move of the player to move (a `Pass` when there is none).
    pub fn moves(&self, out: &mut Vec<RobotMove>) {
        if self.outcome.is_some() {
            return;
        }
        let start = out.len();
        self.robot_moves(self.to_move, out);
        self.exchanges(self.to_move, out, false);
        if out.len() == start {
            out.push(RobotMove::Pass);
        }
    }

    fn has_request(&self, player: Player) -> bool {
        let mut some = Vec::new();
        self.robot_moves(player, &mut some);
        if some.is_empty() {
            self.exchanges(player, &mut some, true);
        }
        !some.is_empty()
    }

    /// The board's rows in the level file's legend, as they are now.
    pub fn rows(&self) -> Vec<String> {
        self.tiles
            .chunks(self.width as usize)
            .map(|row| {
                row.iter()
                    .map(|t| match *t {
                        Tile::Normal => '.',
                        Tile::Hint => '?',
                        Tile::Broken => '#',
                        Tile::Home(r) => home_char(self.robots[r as usize].id),
                        Tile::Conveyor(d) => d.arrow(),
                    })
                    .collect()
            })
            .collect()
    }
}

impl Game for Robots {
    type Move = RobotMove;
    type Error = RobotsError;
    type Effects = Vec<RobotStep>;
    type Step = RobotStep;
    type Level = RobotsLevel;
    type Observation = Robots;

    const NAME: &'static str = "Robots";
    const TITLE: &'static str = "Robot board";
    const FOLDER: &'static str = "robots";
    const SEATS: (usize, usize) = (2, MAX_PLAYERS as usize);
    /// Levels with hidden homes hide them from every seat.
    const PERFECT_INFORMATION: bool = false;

    fn new(level: &RobotsLevel, seed: u64) -> Result<Robots, RuleViolation> {
        setup::set_up(level, seed)
    }

    fn num_players(&self) -> usize {
        self.players as usize
    }

    fn current_player(&self) -> Player {
        self.to_move
    }

    fn legal_moves(&self, player: Player, out: &mut Vec<RobotMove>) {
        if player == self.to_move {
            self.moves(out);
        }
    }

    fn apply(&mut self, player: Player, mv: RobotMove) -> Result<Vec<RobotStep>, RobotsError> {
        self.check_turn(player)?;
        // Every check comes before the first change.
        let plan = match mv {
            RobotMove::Step { robot, dir } => {
                let r = self.own_robot(player, robot, RuleSet::A)?;
                Plan::Walk(r, self.walk_target(r, dir, 1)?)
            }
            RobotMove::Forward { robot, steps } => {
                let r = self.own_robot(player, robot, RuleSet::B)?;
                if !(1..=3).contains(&steps) {
                    return Err(RobotsError::BadSteps { steps });
                }
                Plan::Walk(r, self.walk_target(r, self.robots[r].facing, steps)?)
            }
            RobotMove::Rotate { robot, quarters } => {
                let r = self.own_robot(player, robot, RuleSet::B)?;
                if !(1..=3).contains(&quarters) {
                    return Err(RobotsError::BadQuarters { quarters });
                }
                Plan::Rotate(r, self.robots[r].facing.turned_left(quarters))
            }
            RobotMove::Exchange { a, b } => {
                self.check_exchange(player, a, b, &self.ways_home())?;
                Plan::Exchange(a, b)
            }
            RobotMove::Pass => {
                if self.has_request(player) {
                    return Err(RobotsError::MustMove);
                }
                Plan::Pass
            }
        };
        Ok(self.perform(player, plan))
    }

    fn outcome(&self) -> Option<Outcome> {
        self.outcome
    }

    /// The whole board, but with hidden homes (for every seat and for a
    /// spectator, as RULES.md says) no home and no candidate: home tiles
    /// read as plain ones.
    fn observe(&self, _viewer: Option<Player>) -> Cow<'_, Robots> {
        if !self.homes_hidden {
            return Cow::Borrowed(self);
        }
        let mut seen = self.clone();
        for tile in &mut seen.tiles {
            if let Tile::Home(_) = tile {
                *tile = Tile::Normal;
            }
        }
        for robot in &mut seen.robots {
            robot.home = None;
        }
        Cow::Owned(seen)
    }

    /// Hidden homes drawn on tiles that agree with everything seen
    /// ([`Robots::home_candidates`]), no two robots sharing one: robots and
    /// their candidates taken in a random order and matched by augmenting
    /// paths, so a robot whose candidates another took gets one all the
    /// same (the true homes are such a matching: there always is one).
    fn sample_state(observation: &Robots, _viewer: Option<Player>, rng: &mut GameRng) -> Robots {
        let mut state = observation.clone();
        if state.robots.iter().all(|r| r.home.is_some()) {
            return state;
        }
        let mut options: Vec<Vec<Pos>> = (0..state.robots.len())
            .map(|r| {
                let mut own = observation.home_candidates(r);
                own.shuffle(rng);
                own
            })
            .collect();
        let mut order: Vec<usize> = (0..options.len()).collect();
        order.shuffle(rng);
        let mut owner: HashMap<Pos, usize> = HashMap::new();
        for r in order {
            augment(r, &mut options, &mut owner, &mut Vec::new());
        }
        for (p, r) in owner {
            let i = state.index(p);
            state.tiles[i] = Tile::Home(r as u16);
            state.robots[r].home = Some(p);
        }
        state
    }

    fn steps(_before: &Robots, effects: &Vec<RobotStep>) -> Vec<RobotStep> {
        effects.clone()
    }

    fn public_state(&self) -> serde_json::Value {
        let robots: Vec<_> = self
            .robots
            .iter()
            .map(|r| {
                serde_json::json!({
                    "id": r.id, "at": r.at, "facing": r.facing, "rule": r.rule,
                    "player": r.player.0 + 1, "hints": r.hints,
                })
            })
            .collect();
        serde_json::json!({ "board": self.rows(), "robots": robots, "swaps_left": self.swaps_left })
    }

    fn move_bound(&self) -> u64 {
        if self.outcome.is_some() { 0 } else { (self.move_cap - self.plies) as u64 }
    }

    /// Each own robot's walks (four steps under rule A; three forwards and
    /// three turns under rule B), every pair of tiles while swaps are left
    /// (the board's tiles are fixed in number), and Pass.
    fn legal_bound(&self) -> u64 {
        let tiles = self.tiles.len() as u64;
        Player::all(self.players as usize)
            .map(|p| {
                let walks: u64 = self
                    .robots
                    .iter()
                    .filter(|r| r.player == p)
                    .map(|r| match r.rule {
                        RuleSet::A => 4,
                        RuleSet::B => 6,
                    })
                    .sum();
                let exchanges = if self.swaps_left(p) > 0 { tiles * tiles.saturating_sub(1) / 2 } else { 0 };
                walks + exchanges + 1
            })
            .max()
            .unwrap_or(1)
    }

    fn random_move(&self, rng: &mut GameRng) -> Option<RobotMove> {
        let mut moves = Vec::new();
        self.moves(&mut moves);
        rng::choose(&moves, rng).copied()
    }

    fn probe_moves(&self, out: &mut Vec<RobotMove>) {
        for robot in &self.robots {
            out.extend(Dir::ALL.map(|dir| RobotMove::Step { robot: robot.id, dir }));
            out.extend((0..=4).map(|steps| RobotMove::Forward { robot: robot.id, steps }));
            out.extend((0..=4).map(|quarters| RobotMove::Rotate { robot: robot.id, quarters }));
        }
        out.push(RobotMove::Step { robot: 'V', dir: Dir::North });
        self.exchanges(self.to_move, out, false);
        let corner = (self.width - 1, self.height - 1);
        out.extend([
            RobotMove::Exchange { a: (0, 0), b: (0, 0) },
            RobotMove::Exchange { a: (0, 0), b: corner },
            RobotMove::Exchange { a: (0, 0), b: (self.width, 0) },
        ]);
        if let Some(home) = self.robots[0].home {
            out.push(RobotMove::Exchange { a: home, b: (0, 0) });
        }
        out.push(RobotMove::Pass);
    }
}

/// A checked request, ready to apply.
enum Plan {
    Walk(usize, Pos),
    Rotate(usize, Dir),
    Exchange(Pos, Pos),
    Pass,
}

impl Observation<Robots> for Robots {
    fn legal_moves(&self, player: Player, out: &mut Vec<RobotMove>) {
        Game::legal_moves(self, player, out)
    }

    fn follow(&mut self, step: &RobotStep) {
        self.follow_step(step)
    }
}
