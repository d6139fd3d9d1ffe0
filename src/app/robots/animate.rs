//! The pieces in motion: robots and tiles glide as a move's steps were
//! scheduled (`steps`), belts run, hints point, sparks fly.

use std::collections::HashMap;
use std::f32::consts::{FRAC_PI_2, FRAC_PI_4, TAU};

use bevy::prelude::*;
use tabula_engine::robots::{Robots, Tile};

use super::art::nose;
use super::{HintBearing, RobotLayout, RobotPiece, TILE, TileKind};
use crate::app::board::seat_color;
use crate::app::frames::NextFrame;
use crate::app::game::ActiveGame;
use crate::app::glide::Glide;

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
pub struct HintMark;

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

/// Fireworks over the winner's home, the other robots blown apart (their
/// wrecks stay), once
/// the pieces have landed (`after` seconds).
pub(super) fn celebrate(
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
        if id == winner {
            continue;
        }
        commands.entity(entity).insert(Spark { velocity: Vec2::ZERO, life: 0.9, age: -after });
        // Pieces fly off it; its faded wreck stays where it stood, so the
        // final position can still be read.
        let Some(robot) = board.robot(id) else { continue };
        let centre = layout.position(robot.at);
        for i in 0..12 {
            let v = Vec2::from_angle(i as f32 / 12.0 * TAU) * (90.0 + 30.0 * (i % 3) as f32);
            commands.spawn((
                Spark { velocity: v, life: 0.8, age: -after },
                Sprite::from_color(seat_color(robot.player.index()), Vec2::splat(6.0)),
                Transform::from_xyz(centre.x, centre.y, 5.0),
                DespawnOnExit(ActiveGame::of::<Robots>()),
            ));
        }
    }
}

/// How a blown-apart robot's wreck shows: faded, not gone.
pub(crate) const WRECK_ALPHA: f32 = 0.3;

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

/// A robot's arrow points where its latest hint says home lies on the
/// board, as the hint was read: turning the robot afterwards leaves it be.
/// No hint, no arrow.
pub(super) fn show_hints(
    robots: Query<(&HintBearing, &Children), Changed<HintBearing>>,
    mut marks: Query<(&mut Transform, &mut Visibility), With<HintMark>>,
) {
    for (bearing, children) in &robots {
        for child in children.iter() {
            let Ok((mut transform, mut visibility)) = marks.get_mut(child) else { continue };
            let Some(bearing) = bearing.0 else {
                *visibility = Visibility::Hidden;
                continue;
            };
            *transform = hint_arrow(bearing);
            *visibility = Visibility::Inherited;
        }
    }
}

/// The hint arrow, a child of its robot (which never rotates: its nose
/// does), beside it on the side of `bearing` (eighths clockwise from
/// North) and pointing that way.
pub fn hint_arrow(bearing: u8) -> Transform {
    let turn = -(bearing as f32) * FRAC_PI_4;
    let offset = Vec2::from_angle(turn + FRAC_PI_2) * (TILE * 0.42);
    Transform::from_xyz(offset.x, offset.y, 1.0).with_rotation(Quat::from_rotation_z(turn))
}

/// Sparks fly and fade; a robot blown apart jolts and fades to its wreck.
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
            // It jolts (swells and settles back) as it fades to a wreck.
            let was =
                1.0 + 0.35 * (std::f32::consts::PI * ((spark.age - dt) / spark.life).clamp(0.0, 1.0)).sin();
            let now = 1.0 + 0.35 * (std::f32::consts::PI * t).sin();
            transform.scale *= now / was;
            sprite.color = sprite.color.with_alpha(1.0 - (1.0 - WRECK_ALPHA) * t);
            if t >= 1.0 {
                commands.entity(entity).remove::<Spark>();
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
    use crate::app::robots::angle;
    use tabula_engine::robots::Dir;

    #[test]
    fn a_hint_arrow_points_and_sits_where_its_bearing_says_on_screen() {
        // Eighths clockwise from North, as screen directions (y up).
        let compass = [(0, 1), (1, 1), (1, 0), (1, -1), (0, -1), (-1, -1), (-1, 0), (-1, 1)];
        for (bearing, (x, y)) in compass.into_iter().enumerate() {
            let way = Vec2::new(x as f32, y as f32).normalize();
            let arrow = hint_arrow(bearing as u8);
            // The chevron's picture points up (North) unturned.
            let points = (arrow.rotation * Vec3::Y).truncate();
            assert!(points.distance(way) < 1e-5, "bearing {bearing}: points {points}");
            assert!(arrow.translation.truncate().normalize().distance(way) < 1e-5, "bearing {bearing}");
        }
    }

    #[test]
    fn turns_take_the_short_way_round() {
        assert!(
            (nearest_turn(0.0, angle(Dir::West)) - FRAC_PI_2).abs() < 1e-5,
            "North to West is a quarter left"
        );
        assert!((nearest_turn(0.0, angle(Dir::East)) + FRAC_PI_2).abs() < 1e-5);
    }
}
