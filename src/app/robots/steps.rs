//! A move's steps on the board's entities. The engine's steps are followed
//! one by one on the board as last shown, so each robot's and tile's place
//! after each step is the engine's, never worked out here; the entities'
//! facts change at once and their transforms glide there in turn: the walk,
//! the ride tile by tile, an exchange, the settle rounds one after another.

use std::collections::HashMap;

use bevy::ecs::system::SystemParam;
use bevy::prelude::*;
use tabula_engine::Observation;
use tabula_engine::robots::{Pos, RobotStep, Robots, Tile};

use super::animate::{Chevron, Heading, ShownBoard, celebrate, nearest_turn};
use super::{BoardTile, Facing, HeldHints, HintBearing, RobotLayout, RobotPiece, TileKind, TilePos, angle};
use crate::app::glide::{Glide, Leg};
use crate::app::session::{MoveApplied, Session};
use crate::app::settings::Settings;

/// Seconds for a walk, one belt tile, a turn, an exchange.
const WALK: f32 = 0.28;
const BELT_STEP: f32 = 0.16;
const TURN: f32 = 0.22;
const SWAP: f32 = 0.45;
/// Robots stand above the tiles (and their children).
const ROBOT_Z: f32 = 2.0;
/// A gliding piece is lifted this much over those it passes.
const LIFT: f32 = 0.5;
/// Where each piece will be once what is scheduled has played (its place
/// and heading), and the legs it glides to get there.
struct Plan<'a> {
    layout: &'a RobotLayout,
    speed: f32,
    place: HashMap<Entity, (Vec3, f32)>,
    glides: HashMap<Entity, Glide>,
}

impl Plan<'_> {
    /// Glides `entity` to tile `to` (at height `z`) and `heading`, starting
    /// `start` seconds from now for `duration`.
    fn glide(&mut self, entity: Entity, to: Pos, z: f32, heading: Option<f32>, start: f32, duration: f32) {
        let Some(&(from, from_angle)) = self.place.get(&entity) else { return };
        let target = self.layout.position(to).extend(z);
        let to_angle = heading.map_or(from_angle, |h| nearest_turn(from_angle, h));
        let leg = Leg {
            from,
            to: target,
            from_angle,
            to_angle,
            start: start / self.speed,
            duration: duration / self.speed,
            lift: LIFT,
            arc: 0.0,
            swell: 0.0,
        };
        self.glides.entry(entity).or_default().push(leg);
        self.place.insert(entity, (target, to_angle));
    }

    /// Sets every piece on its way, each with all its legs.
    fn commit(self, commands: &mut Commands) {
        for (entity, glide) in self.glides {
            let heading = self.place[&entity].1;
            commands.entity(entity).insert((Heading(heading), glide));
        }
    }
}

/// A robot piece and the facts it shows.
type RobotParts = (
    Entity,
    &'static RobotPiece,
    &'static Transform,
    &'static Heading,
    &'static mut TilePos,
    &'static mut Facing,
    &'static mut HeldHints,
    &'static mut HintBearing,
);
/// A tile and the facts it shows; its children are its belt's chevrons.
type TileParts =
    (Entity, &'static Transform, &'static mut TilePos, &'static mut TileKind, Option<&'static Children>);

/// The entities a move's steps move: robots, tiles, and the chevrons of
/// belts a tile carries when it is exchanged.
#[derive(SystemParam)]
pub(super) struct Pieces<'w, 's> {
    robots: Query<'w, 's, RobotParts>,
    tiles: Query<'w, 's, TileParts, (With<BoardTile>, Without<RobotPiece>)>,
    chevrons: Query<'w, 's, &'static mut Transform, (With<Chevron>, Without<BoardTile>, Without<RobotPiece>)>,
}

/// Follows each applied move's steps on the shown board and schedules the
/// glides; the robots' and tiles' facts become the board's after the move.
pub(super) fn follow_steps(
    mut commands: Commands,
    mut applied: MessageReader<MoveApplied<Robots>>,
    mut pieces: Pieces,
    mut shown: ResMut<ShownBoard>,
    session: Res<Session<Robots>>,
    layout: Res<RobotLayout>,
    settings: Res<Settings>,
) {
    let latest = session.view().plies();
    for MoveApplied { steps, .. } in applied.read() {
        let Some(board) = shown.0.as_mut() else { continue };
        // A board spawned this frame (an undo and a move in one frame)
        // already shows the move.
        if board.plies() >= latest {
            continue;
        }
        let mut plan = Plan {
            layout: &layout,
            speed: settings.animation_speed,
            place: HashMap::new(),
            glides: HashMap::new(),
        };
        let robot_of = pieces.place_robots(&mut plan);
        let (clock, winner) = pieces.follow(&mut plan, board, steps, &robot_of);
        pieces.show_facts(board);
        let speed = plan.speed;
        plan.commit(&mut commands);
        if let Some(winner) = winner {
            celebrate(&mut commands, board, &layout, &robot_of, winner, clock / speed);
        }
    }
}

impl Pieces<'_, '_> {
    /// Every robot where it stands now, in `plan`; the robots by name.
    fn place_robots(&self, plan: &mut Plan) -> HashMap<char, Entity> {
        let mut robot_of = HashMap::new();
        for (entity, piece, transform, heading, ..) in &self.robots {
            plan.place.insert(entity, (transform.translation, heading.0));
            robot_of.insert(piece.0, entity);
        }
        robot_of
    }

    /// Follows `steps` on `board` and schedules each one's glides, one after
    /// another (a settle round's robots together); the seconds they take,
    /// and the robot that won, if one did.
    fn follow(
        &mut self,
        plan: &mut Plan,
        board: &mut Robots,
        steps: &[RobotStep],
        robot_of: &HashMap<char, Entity>,
    ) -> (f32, Option<char>) {
        // The tiles are looked up only for an exchange: a large board has
        // tens of thousands.
        let mut tile_at: HashMap<Pos, Entity> = HashMap::new();
        if steps.iter().any(|s| matches!(s, RobotStep::Swapped { .. })) {
            for (entity, transform, at, ..) in &self.tiles {
                plan.place.insert(entity, (transform.translation, 0.0));
                tile_at.insert(at.0, entity);
            }
        }
        let (mut clock, mut round, mut round_start) = (0.0f32, 0u16, 0.0f32);
        let mut winner = None;
        for step in steps {
            board.follow(step);
            match *step {
                RobotStep::Walked { robot, to } => {
                    let entity = robot_of[&robot];
                    plan.glide(entity, to, ROBOT_Z, None, clock, WALK);
                    clock += WALK;
                }
                RobotStep::Rode { robot, to, facing } => {
                    let (entity, heading) = (robot_of[&robot], Some(angle(facing)));
                    plan.glide(entity, to, ROBOT_Z, heading, clock, BELT_STEP);
                    clock += BELT_STEP;
                }
                RobotStep::Rotated { robot, facing } => {
                    let at = board.robot(robot).map_or((0, 0), |r| r.at);
                    let (entity, heading) = (robot_of[&robot], Some(angle(facing)));
                    plan.glide(entity, at, ROBOT_Z, heading, clock, TURN);
                    clock += TURN;
                }
                RobotStep::Carried { robot, to, facing, round: r } => {
                    if r != round {
                        (round, round_start) = (r, clock);
                        clock += BELT_STEP;
                    }
                    let (entity, heading) = (robot_of[&robot], Some(angle(facing)));
                    plan.glide(entity, to, ROBOT_Z, heading, round_start, BELT_STEP);
                }
                RobotStep::Swapped { a, b, .. } => {
                    self.swap(plan, board, (a, b), &mut tile_at, robot_of, clock);
                    clock += SWAP;
                }
                RobotStep::Won { robot } => winner = Some(robot),
                _ => {}
            }
        }
        (clock, winner)
    }

    /// Tiles `a` and `b` exchanged at `clock`: each glides to the other's
    /// place, and what stands on it with it, turned as the board now says.
    fn swap(
        &mut self,
        plan: &mut Plan,
        board: &Robots,
        (a, b): (Pos, Pos),
        tile_at: &mut HashMap<Pos, Entity>,
        robot_of: &HashMap<char, Entity>,
        clock: f32,
    ) {
        let (ta, tb) = (tile_at[&a], tile_at[&b]);
        for (tile, to) in [(ta, b), (tb, a)] {
            plan.glide(tile, to, 0.5, None, clock, SWAP);
            let (.., mut at, mut kind, children) = self.tiles.get_mut(tile).expect("a tile entity");
            at.0 = to;
            kind.0 = board.tile(to);
            if let Tile::Conveyor(dir) = kind.0 {
                for child in children.into_iter().flat_map(|c| c.iter()) {
                    if let Ok(mut chevron) = self.chevrons.get_mut(child) {
                        chevron.rotation = Quat::from_rotation_z(angle(dir));
                    }
                }
            }
        }
        tile_at.insert(a, tb);
        tile_at.insert(b, ta);
        for robot in board.robots().iter().filter(|r| r.at == a || r.at == b) {
            let heading = Some(angle(robot.facing));
            plan.glide(robot_of[&robot.id], robot.at, ROBOT_Z, heading, clock, SWAP);
        }
    }

    /// The robots' facts are the board's after the move.
    fn show_facts(&mut self, board: &Robots) {
        for (_, piece, _, _, mut at, mut facing, mut hints, mut bearing) in &mut self.robots {
            if let Some(robot) = board.robot(piece.0) {
                at.0 = robot.at;
                facing.0 = robot.facing;
                if hints.0 != robot.hints {
                    hints.0 = robot.hints.clone();
                }
                bearing.set_if_neq(HintBearing::of(board, robot.id));
            }
        }
    }
}
