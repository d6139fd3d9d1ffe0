//! How the board changes: each step applied (the one place it does), and
//! the steps a walk, a ride and the settling of the belts make.

use super::*;

impl Robots {
    /// Applies one step to the state: the only place the board changes.
    pub fn follow_step(&mut self, step: &RobotStep) {
        match *step {
            RobotStep::Began { .. } => self.plies += 1,
            RobotStep::Walked { robot, to } => {
                let facing = self.robot(robot).expect("a step names a robot").facing;
                self.put(robot, to, facing);
                self.sight(robot, to);
            }
            RobotStep::Rode { robot, to, facing } | RobotStep::Carried { robot, to, facing, .. } => {
                self.put(robot, to, facing);
                self.sight(robot, to);
            }
            RobotStep::Rotated { robot, facing } => self.robot_mut(robot).facing = facing,
            RobotStep::Swapped { by, a, b } => {
                let (ia, ib) = (self.index(a), self.index(b));
                self.tiles.swap(ia, ib);
                self.occupant.swap(ia, ib);
                for (i, p) in [(ia, a), (ib, b)] {
                    let turned = match self.tiles[i] {
                        Tile::Conveyor(d) => {
                            self.tiles[i] = Tile::Conveyor(d.turned_left(1));
                            true
                        }
                        _ => false,
                    };
                    if let Some(r) = (self.occupant[i] as usize).checked_sub(1) {
                        let robot = &mut self.robots[r];
                        robot.at = p;
                        if turned {
                            robot.facing = robot.facing.turned_left(1);
                        }
                    }
                }
                self.swaps_left[by.index()] -= 1;
            }
            RobotStep::HintsCleared { robot } => self.robot_mut(robot).hints.clear(),
            RobotStep::HintGiven { robot, hint } => {
                let r = self.robot_mut(robot);
                r.hints.push(hint);
                let (at, facing) = (r.at, r.facing);
                // Kept on every board: the hint alone is in a frame that
                // turns with the robot.
                self.sightings.push(Sighting::Hinted { robot, at, facing, hint });
            }
            RobotStep::Won { robot } => self.home_robot = Some(robot),
            RobotStep::TurnChanged { to } => self.to_move = to,
            RobotStep::Ended(outcome) => self.outcome = Some(outcome),
        }
    }

    /// On a hidden-home board, everyone saw robot `id` stand on `at` (a
    /// conveyor, which is no home, tells nothing).
    pub(super) fn sight(&mut self, id: char, at: Pos) {
        if self.homes_hidden && self.conveyor(at).is_none() {
            let seen = Sighting::StoodOn { robot: id, at };
            if !self.sightings.contains(&seen) {
                self.sightings.push(seen);
            }
        }
    }

    pub(super) fn robot_mut(&mut self, id: char) -> &mut Robot {
        self.robots.iter_mut().find(|r| r.id == id).expect("a step names a robot")
    }

    pub(super) fn put(&mut self, id: char, to: Pos, facing: Dir) {
        let r = self.robots.iter().position(|r| r.id == id).expect("a step names a robot");
        let from = self.index(self.robots[r].at);
        self.occupant[from] = 0;
        let to_index = self.index(to);
        self.occupant[to_index] = r as u16 + 1;
        self.robots[r].at = to;
        self.robots[r].facing = facing;
    }

    pub(super) fn emit(&mut self, steps: &mut Vec<RobotStep>, step: RobotStep) {
        self.follow_step(&step);
        steps.push(step);
    }

    /// The facing of a robot a belt carries from a conveyor running `from`
    /// onto `to`: turned by the same angle as the belt.
    pub(super) fn carried_facing(&self, facing: Dir, from: Dir, to: Pos) -> Dir {
        match self.conveyor(to) {
            Some(next) => Dir::from_quarters(facing.quarters() + 4 + next.quarters() - from.quarters()),
            None => facing,
        }
    }

    /// The acting robot's own ride, alone, to its end. Returns whether the
    /// belt moved it.
    pub(super) fn ride(&mut self, r: usize, steps: &mut Vec<RobotStep>) -> bool {
        let mut moved = false;
        while let Some((to, facing)) = self.ride_step(r, self.robots[r].at, self.robots[r].facing) {
            let id = self.robots[r].id;
            self.emit(steps, RobotStep::Rode { robot: id, to, facing });
            moved = true;
        }
        moved
    }

    pub(super) fn clear_hints(&mut self, r: usize, steps: &mut Vec<RobotStep>) {
        if !self.robots[r].hints.is_empty() {
            let id = self.robots[r].id;
            self.emit(steps, RobotStep::HintsCleared { robot: id });
        }
    }

    /// Settling in rounds (docs/rules/robot-board.md, "Belts"): every robot on
    /// a conveyor whose next tile was free at the start of the round moves one
    /// tile, unless another moves to the same tile. Returns the robot that came
    /// home first, in seat order from `acting`.
    pub(super) fn settle(&mut self, acting: Player, steps: &mut Vec<RobotStep>) -> Option<usize> {
        for round in 1u16.. {
            let mut wanted: Vec<(usize, Pos, Dir)> = Vec::new();
            for (r, robot) in self.robots.iter().enumerate() {
                let Some(d) = self.conveyor(robot.at) else { continue };
                if let Some(next) = self.layout().neighbour(robot.at, d)
                    && !self.occupied(next)
                {
                    wanted.push((r, next, d));
                }
            }
            let mut claims: HashMap<Pos, u32> = HashMap::with_capacity(wanted.len());
            for &(_, next, _) in &wanted {
                *claims.entry(next).or_default() += 1;
            }
            let moving: Vec<_> = wanted.into_iter().filter(|(_, next, _)| claims[next] == 1).collect();
            if moving.is_empty() {
                return None;
            }
            for &(r, to, d) in &moving {
                let robot = &self.robots[r];
                let (id, facing) = (robot.id, self.carried_facing(robot.facing, d, to));
                self.emit(steps, RobotStep::Carried { robot: id, to, facing, round });
                self.clear_hints(r, steps);
            }
            let home = |r: &usize| Some(self.robots[*r].at) == self.robots[*r].home;
            let players = self.players as usize;
            let seat_from_acting =
                |r: &usize| (self.robots[*r].player.index() + players - acting.index()) % players;
            if let Some(winner) =
                moving.iter().map(|m| m.0).filter(home).min_by_key(|r| (seat_from_acting(r), *r))
            {
                return Some(winner);
            }
        }
        None
    }

    /// Ends the game with robot `r` home, or passes the turn, or ends it at
    /// the move cap.
    pub(super) fn finish(&mut self, by: Player, winner: Option<usize>, steps: &mut Vec<RobotStep>) {
        if let Some(r) = winner {
            let (id, player) = (self.robots[r].id, self.robots[r].player);
            self.emit(steps, RobotStep::Won { robot: id });
            self.emit(steps, RobotStep::Ended(Outcome::Win(player)));
        } else if self.plies >= self.move_cap {
            self.emit(steps, RobotStep::Ended(Outcome::Draw));
        } else {
            let to = by.next(self.players as usize);
            self.emit(steps, RobotStep::TurnChanged { to });
        }
    }

    /// A walk of robot `r` to `to`, its ride, its hint, and the settling.
    pub(super) fn walk(&mut self, by: Player, r: usize, to: Pos, steps: &mut Vec<RobotStep>) {
        let id = self.robots[r].id;
        self.emit(steps, RobotStep::Walked { robot: id, to });
        if self.ride(r, steps) {
            self.clear_hints(r, steps);
        }
        let robot = &self.robots[r];
        // Only an observation of hidden homes lacks one, and it cannot say
        // whether the walk wins or what it hints: agents sample a state.
        let Some(home) = robot.home else {
            let winner = self.settle(by, steps);
            return self.finish(by, winner, steps);
        };
        if robot.at == home {
            return self.finish(by, Some(r), steps);
        }
        if self.tile(robot.at) == Tile::Hint {
            let (dx, dy) = (home.0 as i32 - robot.at.0 as i32, home.1 as i32 - robot.at.1 as i32);
            let hint = Hint::toward(dx, dy, robot.facing);
            self.emit(steps, RobotStep::HintGiven { robot: id, hint });
        }
        let winner = self.settle(by, steps);
        self.finish(by, winner, steps);
    }
}
