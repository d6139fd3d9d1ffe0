//! What the players know on a board whose homes are hidden, shown: while
//! agents play each other, for each robot that has had a hint, the tiles
//! its home can still be on as everyone can tell from the hints and the
//! tiles stood on (what the `sleuth` reasons from), shaded in the seat's
//! colour; and, once the game is over or in a replay, every home.

use bevy::prelude::*;
use tabula_engine::Game;
use tabula_engine::robots::{Robots, Sighting};

use super::art::RingTexture;
use super::spawn::home_marks;
use super::{RobotLayout, TILE};
use crate::app::board::seat_color;
use crate::app::game::ActiveGame;
use crate::app::session::{BoardReset, Session};

/// A tile a reasoning agent still takes for one of its robots' home.
#[derive(Component, Debug)]
pub struct CandidateMark;

/// A hidden home, shown once the game is over (or in a replay).
#[derive(Component, Debug)]
pub struct RevealedHome;

pub(super) fn mark_reasoning(
    mut commands: Commands,
    mut resets: MessageReader<BoardReset>,
    session: Res<Session<Robots>>,
    layout: Res<RobotLayout>,
    ring: Option<Res<RingTexture>>,
    old: Query<Entity, Or<(With<CandidateMark>, With<RevealedHome>)>>,
) {
    // Only moves, undos, the game's end and new games change what is known.
    let reset = resets.read().count() > 0;
    if !(reset || session.is_changed()) || !session.game.homes_hidden() {
        return;
    }
    let over = session.game.outcome().is_some() || session.replay;
    for entity in &old {
        commands.entity(entity).despawn();
    }
    if over {
        // Everything shows: each robot's home, as a shown home is drawn.
        let ring = ring.map(|t| t.0.clone()).unwrap_or_default();
        for robot in session.game.robots() {
            let Some(home) = robot.home else { continue };
            let at = layout.position(home);
            let mut shown = commands.spawn((
                RevealedHome,
                Transform::from_xyz(at.x, at.y, 0.0),
                Visibility::default(),
                DespawnOnExit(ActiveGame::of::<Robots>()),
            ));
            home_marks(&mut shown, robot, &ring, 1.0);
        }
        return;
    }
    // Shown to a person watching agents; a person playing finds their own
    // home, and the rivals' shading would cover the board they play on.
    if session.has_human() {
        return;
    }
    let view = session.view();
    for (r, robot) in view.robots().iter().enumerate() {
        // Before its first hint a robot's home could be nearly anywhere:
        // shading the whole board would say nothing.
        let hinted = view
            .sightings()
            .iter()
            .any(|s| matches!(s, Sighting::Hinted { robot: id, .. } if *id == robot.id));
        if !hinted {
            continue;
        }
        let color = seat_color(robot.player.index()).with_alpha(0.28);
        for p in view.home_candidates(r) {
            let at = layout.position(p);
            commands.spawn((
                CandidateMark,
                Sprite::from_color(color, Vec2::splat(TILE - 14.0)),
                Transform::from_xyz(at.x, at.y, 0.4),
                DespawnOnExit(ActiveGame::of::<Robots>()),
            ));
        }
    }
}
