//! What the players know on a board whose homes are hidden, shown: while
//! agents play each other, for each robot that has had a hint, the tiles
//! its home can still be on as everyone can tell from the hints and the
//! tiles stood on (what the `sleuth` reasons from), shaded in the seat's
//! colour; a person playing sees the same for their own robots when they
//! ask (H, or the button over the board); and, once the game is over or in
//! a replay, every home.

use bevy::prelude::*;
use bevy_egui::{EguiContexts, egui};
use tabula_engine::robots::level::home_char;
use tabula_engine::robots::{Robots, Sighting};

use super::art::RingTexture;
use super::spawn::home_marks;
use super::{RobotLayout, TILE};
use crate::app::board::seat_color;
use crate::app::game::ActiveGame;
use crate::app::session::{BoardReset, Session, StatusLine};

/// A tile a reasoning agent still takes for one of its robots' home.
#[derive(Component, Debug)]
pub struct CandidateMark;

/// A hidden home, shown once the game is over (or in a replay).
#[derive(Component, Debug)]
pub struct RevealedHome;

/// A person playing asked to see where their own robots' homes can still
/// be. Off until asked: finding one's home is the game.
#[derive(Resource, Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct ShadeOwnHomes(pub bool);

/// The robots whose candidate homes are shaded: those that have had a
/// hint (before its first, a robot's home could be nearly anywhere:
/// shading the whole board would hide what the others' hints tell); with a
/// person playing, only theirs (the seat whose screen this is), and only
/// when they asked.
fn shaded_robots(session: &Session<Robots>, view: &Robots, asked: bool) -> Vec<usize> {
    // A person finds their own home; the rivals' shading would cover the
    // board they play on.
    let seat = session.screen_seat();
    if session.has_human() && (!asked || seat.is_none()) {
        return Vec::new();
    }
    let hinted = |id: char| {
        view.sightings().iter().any(|s| matches!(s, Sighting::Hinted { robot, .. } if *robot == id))
    };
    let robots = view.robots().iter().enumerate();
    robots
        .filter(|(_, r)| hinted(r.id) && (!session.has_human() || Some(r.player) == seat))
        .map(|(i, _)| i)
        .collect()
}

pub(super) fn mark_reasoning(
    mut commands: Commands,
    mut resets: MessageReader<BoardReset>,
    session: Res<Session<Robots>>,
    shade: Res<ShadeOwnHomes>,
    layout: Res<RobotLayout>,
    ring: Option<Res<RingTexture>>,
    old: Query<Entity, Or<(With<CandidateMark>, With<RevealedHome>)>>,
) {
    // Only moves, undos, the game's end, new games and the player's ask
    // change what is shown.
    let reset = resets.read().count() > 0;
    if !(reset || session.is_changed() || shade.is_changed()) || !session.game.homes_hidden() {
        return;
    }
    let over = session.outcome().is_some() || session.kind.steps_through();
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
    // From the observation: the public hints and tiles stood on, never the
    // hidden homes.
    let view = session.view();
    for r in shaded_robots(&session, &view, shade.0) {
        let robot = &view.robots()[r];
        let color = seat_color(robot.player.index());
        // Robots of one seat share its colour: each puts its home's letter
        // in a corner of its own.
        let nth = view.robots()[..r].iter().filter(|o| o.player == robot.player).count();
        let corner = [(-1.0, 1.0), (1.0, -1.0), (1.0, 1.0), (-1.0, -1.0)][nth % 4];
        for p in view.home_candidates(r) {
            let at = layout.position(p);
            commands
                .spawn((
                    CandidateMark,
                    Sprite::from_color(color.with_alpha(0.28), Vec2::splat(TILE - 14.0)),
                    Transform::from_xyz(at.x, at.y, 0.4),
                    DespawnOnExit(ActiveGame::of::<Robots>()),
                ))
                .with_child((
                    Text2d::new(home_char(robot.id).to_string()),
                    TextFont::from_font_size(15.0),
                    TextColor(color),
                    Transform::from_xyz(corner.0 * TILE * 0.3, corner.1 * TILE * 0.3, 0.1),
                ));
        }
    }
}

/// Whether the person at the window may ask for their homes' shading now:
/// homes hidden, the game on, a person playing.
fn may_shade(session: &Session<Robots>) -> bool {
    session.game.homes_hidden()
        && session.outcome().is_none()
        && !session.kind.steps_through()
        && session.has_human()
}

/// H turns the shading of the player's own homes on and off.
pub(super) fn shade_with_key(
    keys: Res<ButtonInput<KeyCode>>,
    session: Res<Session<Robots>>,
    mut shade: ResMut<ShadeOwnHomes>,
    mut status: ResMut<StatusLine>,
) {
    if !keys.just_pressed(KeyCode::KeyH) {
        return;
    }
    if !may_shade(&session) {
        status.info("H shades where your homes can be, on a board whose homes are hidden, while you play.");
        return;
    }
    shade.0 = !shade.0;
    status.info(shade_text(&session, shade.0));
}

fn shade_text(session: &Session<Robots>, on: bool) -> &'static str {
    if on && shaded_robots(session, &session.view(), true).is_empty() {
        return "None of your robots has had a hint yet: stand on a ? tile to learn where its home lies.";
    }
    match on {
        true => {
            "Shaded: the tiles your robots' homes can still be on, from the hints everyone has seen (H hides them)."
        }
        false => "Shading hidden (H shows where your homes can be).",
    }
}

/// The button over the board, bottom left, that does what H does.
pub(super) fn shade_button(
    mut contexts: EguiContexts,
    session: Res<Session<Robots>>,
    mut shade: ResMut<ShadeOwnHomes>,
    mut status: ResMut<StatusLine>,
) -> Result {
    if !may_shade(&session) {
        return Ok(());
    }
    let ctx = contexts.ctx_mut()?.clone();
    egui::Area::new("robots-shade".into())
        // Above the status line.
        .anchor(egui::Align2::LEFT_BOTTOM, egui::vec2(12.0, -70.0))
        .show(&ctx, |ui| {
            egui::Frame::popup(ui.style()).show(ui, |ui| {
                let mut on = shade.0;
                if ui.toggle_value(&mut on, "Show where my homes can be (H)").clicked() {
                    shade.0 = on;
                    status.info(shade_text(&session, on));
                }
            });
        });
    Ok(())
}
