//! A move's steps on the board's entities. The engine's steps are followed
//! one by one on the board as last shown, so each robot's and tile's place
//! after each step is the engine's, never worked out here; the entities'
//! facts change at once and their transforms glide there in turn: the walk,
//! the ride tile by tile, an exchange, the settle rounds one after another.
//! Belts run, hints point, sparks fly.

use std::collections::HashMap;
use std::f32::consts::{FRAC_PI_2, FRAC_PI_4, TAU};

use bevy::prelude::*;
use tabula_engine::Observation;
use tabula_engine::robots::{Pos, RobotStep, Robots, Tile};

use super::art::nose;
use super::{BoardTile, Facing, HeldHints, RobotLayout, RobotPiece, TILE, TileKind, TilePos, angle};
use crate::app::board::seat_color;
use crate::app::frames::NextFrame;
use crate::app::game::ActiveGame;
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
/// Belts run this many tiles a second on screen.
const BELT_SPEED: f32 = 0.8;

/// The board as the entities show it: the observation after the last move
/// they were given. A move's steps are followed on it.
#[derive(Resource, Debug, Default)]
pub(super) struct ShownBoard(pub Option<Robots>);

/// A belt's moving chevron, the child of its conveyor tile.
#[derive(Component, Debug)]
pub(super) struct Chevron;

/// The small mark on a robot's rim that shows where it faces.
#[derive(Component, Debug)]
pub(super) struct Nose;

/// The arrow beside a robot pointing where its latest hint says home is.
#[derive(Component, Debug)]
pub(super) struct HintMark;

/// Where a robot piece faces on screen, as an angle (North 0).
#[derive(Component, Debug, Clone, Copy)]
pub(super) struct Heading(pub f32);

/// A spark of the fireworks, or a robot blown apart.
#[derive(Component, Debug)]
pub(crate) struct Spark {
    velocity: Vec2,
    life: f32,
    age: f32,
}

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

/// Follows each applied move's steps on the shown board and schedules the
/// glides; the robots' and tiles' facts become the board's after the move.
#[allow(clippy::too_many_arguments, clippy::type_complexity)]
pub(super) fn follow_steps(
    mut commands: Commands,
    mut applied: MessageReader<MoveApplied<Robots>>,
    mut robots: Query<(Entity, &RobotPiece, &Transform, &Heading, &mut TilePos, &mut Facing, &mut HeldHints)>,
    mut tiles: Query<
        (Entity, &Transform, &mut TilePos, &mut TileKind, Option<&Children>),
        (With<BoardTile>, Without<RobotPiece>),
    >,
    mut chevrons: Query<&mut Transform, (With<Chevron>, Without<BoardTile>, Without<RobotPiece>)>,
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
        let robot_of: HashMap<char, Entity> = robots.iter().map(|(e, piece, ..)| (piece.0, e)).collect();
        for (entity, _, transform, heading, ..) in &robots {
            plan.place.insert(entity, (transform.translation, heading.0));
        }
        // The tiles are looked up only for an exchange: a large board has
        // tens of thousands.
        let mut tile_at: HashMap<Pos, Entity> = HashMap::new();
        if steps.iter().any(|s| matches!(s, RobotStep::Swapped { .. })) {
            for (entity, transform, at, ..) in &tiles {
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
                    // Each tile glides to the other's place, and what stands
                    // on it with it, turned as the board now says.
                    let (ta, tb) = (tile_at[&a], tile_at[&b]);
                    for (tile, to) in [(ta, b), (tb, a)] {
                        plan.glide(tile, to, 0.5, None, clock, SWAP);
                        let (.., mut at, mut kind, children) = tiles.get_mut(tile).expect("a tile entity");
                        at.0 = to;
                        kind.0 = board.tile(to);
                        if let Tile::Conveyor(dir) = kind.0 {
                            for child in children.into_iter().flat_map(|c| c.iter()) {
                                if let Ok(mut chevron) = chevrons.get_mut(child) {
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
                    clock += SWAP;
                }
                RobotStep::Won { robot } => winner = Some(robot),
                _ => {}
            }
        }
        // The facts are the board's after the move.
        for (_, piece, _, _, mut at, mut facing, mut hints) in &mut robots {
            if let Some(robot) = board.robot(piece.0) {
                at.0 = robot.at;
                facing.0 = robot.facing;
                if hints.0 != robot.hints {
                    hints.0 = robot.hints.clone();
                }
            }
        }
        let speed = plan.speed;
        plan.commit(&mut commands);
        if let Some(winner) = winner {
            celebrate(&mut commands, board, &layout, &robot_of, winner, clock / speed);
        }
    }
}

/// Fireworks over the winner's home, the other robots blown apart, once
/// the pieces have landed (`after` seconds).
fn celebrate(
    commands: &mut Commands,
    board: &Robots,
    layout: &RobotLayout,
    robot_of: &HashMap<char, Entity>,
    winner: char,
    after: f32,
) {
    if let Some(robot) = board.robot(winner) {
        let centre = layout.position(robot.at);
        for i in 0..48 {
            let a = i as f32 / 48.0 * TAU;
            let v = Vec2::from_angle(a) * (160.0 + 90.0 * ((i * 7 % 5) as f32));
            commands.spawn((
                Spark { velocity: v, life: 1.6, age: -after },
                Sprite::from_color(seat_color(robot.player.index() + i % 3), Vec2::splat(9.0)),
                Transform::from_xyz(centre.x, centre.y, 5.0),
                DespawnOnExit(ActiveGame::of::<Robots>()),
            ));
        }
    }
    for (&id, &entity) in robot_of {
        if id != winner {
            commands.entity(entity).insert(Spark { velocity: Vec2::ZERO, life: 0.9, age: -after });
        }
    }
}

/// The target angle nearest `from` that shows the same facing as `to`.
pub(super) fn nearest_turn(from: f32, to: f32) -> f32 {
    let mut delta = (to - from) % TAU;
    if delta > TAU / 2.0 {
        delta -= TAU;
    } else if delta < -TAU / 2.0 {
        delta += TAU;
    }
    from + delta
}

/// Robots and tiles glide as scheduled, leg after leg; a robot's nose
/// turns with it.
pub(super) fn glide(
    mut commands: Commands,
    time: Res<Time>,
    mut moving: Query<(Entity, &mut Glide, &mut Transform, Option<&Children>)>,
    mut noses: Query<&mut Transform, (With<Nose>, Without<Glide>)>,
) {
    for (entity, mut glide, mut transform, children) in &mut moving {
        glide.advance(time.delta_secs());
        let point = glide.point();
        transform.translation = point.at;
        for child in children.into_iter().flat_map(|c| c.iter()) {
            if let Ok(mut nose_transform) = noses.get_mut(child) {
                *nose_transform = nose(point.angle);
            }
        }
        if point.done {
            commands.entity(entity).remove::<Glide>();
        }
    }
}

/// Belts run: each chevron slides along its tile in the belt's direction.
/// They ask for frames while the window has focus (a belt that runs is how
/// a player tells it from a floor arrow); without focus they rest with the
/// window, which then draws only when it wakes.
pub(super) fn run_belts(
    time: Res<Time>,
    tiles: Query<&TileKind>,
    mut chevrons: Query<(&mut Transform, &ChildOf), With<Chevron>>,
    window: Query<&Window, With<bevy::window::PrimaryWindow>>,
    mut next: ResMut<NextFrame>,
) {
    if !chevrons.is_empty() && window.single().is_ok_and(|w| w.focused) {
        next.ask();
    }
    let phase = (time.elapsed_secs() * BELT_SPEED).fract() - 0.5;
    for (mut chevron, tile) in &mut chevrons {
        let Ok(TileKind(Tile::Conveyor(dir))) = tiles.get(tile.parent()) else { continue };
        let (dx, dy) = dir.delta();
        let shift = Vec2::new(dx as f32, -dy as f32) * phase * TILE * 0.5;
        chevron.translation.x = shift.x;
        chevron.translation.y = shift.y;
    }
}

/// A robot's arrow points where its latest hint says home is, in its own
/// frame; no hint, no arrow.
pub(super) fn show_hints(
    robots: Query<(&HeldHints, &Facing, &Children), Or<(Changed<HeldHints>, Changed<Facing>)>>,
    mut marks: Query<(&mut Transform, &mut Visibility), With<HintMark>>,
) {
    for (hints, facing, children) in &robots {
        for child in children.iter() {
            let Ok((mut transform, mut visibility)) = marks.get_mut(child) else { continue };
            let Some(&hint) = hints.0.last() else {
                *visibility = Visibility::Hidden;
                continue;
            };
            let turn = angle(facing.0) - hint.index() as f32 * FRAC_PI_4;
            let offset = Vec2::from_angle(turn + FRAC_PI_2) * (TILE * 0.42);
            *transform =
                Transform::from_xyz(offset.x, offset.y, 1.0).with_rotation(Quat::from_rotation_z(turn));
            *visibility = Visibility::Inherited;
        }
    }
}

/// Sparks fly and fade; a robot blown apart swells and fades.
pub(super) fn fly_sparks(
    mut commands: Commands,
    time: Res<Time>,
    mut sparks: Query<(Entity, &mut Spark, &mut Transform, &mut Sprite, Has<RobotPiece>)>,
    mut next: ResMut<NextFrame>,
) {
    if !sparks.is_empty() {
        next.ask();
    }
    let dt = time.delta_secs();
    for (entity, mut spark, mut transform, mut sprite, robot) in &mut sparks {
        spark.age += dt;
        if spark.age < 0.0 {
            continue;
        }
        let t = (spark.age / spark.life).min(1.0);
        if robot {
            transform.scale *= 1.0 + dt / spark.life;
            sprite.color = sprite.color.with_alpha(1.0 - t);
            if t >= 1.0 {
                commands.entity(entity).remove::<Spark>().insert(Visibility::Hidden);
            }
        } else {
            transform.translation += (spark.velocity * dt).extend(0.0);
            spark.velocity.y -= 220.0 * dt;
            sprite.color = sprite.color.with_alpha(1.0 - t);
            if t >= 1.0 {
                commands.entity(entity).despawn();
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tabula_engine::robots::Dir;

    #[test]
    fn turns_take_the_short_way_round() {
        assert!(
            (nearest_turn(0.0, angle(Dir::West)) - FRAC_PI_2).abs() < 1e-5,
            "North to West is a quarter left"
        );
        assert!((nearest_turn(0.0, angle(Dir::East)) + FRAC_PI_2).abs() < 1e-5);
    }
}
