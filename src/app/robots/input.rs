//! The player's choices on the board: a robot chosen lights the tiles its
//! requests lead to (after its ride); a click there, or a key, requests the
//! walk or turn; X picks two tiles to exchange; Enter passes. The top bar
//! says what the choice would do.

use bevy::prelude::*;
use tabula_engine::Player;
use tabula_engine::robots::{Dir, Pos, RobotMove, Robots, RuleSet};

use super::{RobotLayout, TILE, art};
use crate::app::board::{BoardPointer, digits_pressed};
use crate::app::game::ActiveGame;
use crate::app::glide::Glide;
use crate::app::session::{MovePreview, RequestMove, Session};

/// A lit tile: where a request of the chosen robot leads.
#[derive(Component, Debug)]
pub(super) struct Destination(RobotMove);

/// A tile picked for an exchange.
#[derive(Component, Debug)]
pub(super) struct SwapMark;

/// What the player has chosen on the board.
#[derive(Resource, Debug, Default)]
pub struct RobotChoice {
    pub selected: Option<char>,
    pub swapping: bool,
    pub swap_first: Option<Pos>,
    /// The board drawn for these lit tiles (rebuilt when either changes).
    lit_for: Option<(char, u32)>,
}

/// Lights the tiles the chosen robot's requests lead to, and the tile
/// picked for an exchange.
#[allow(clippy::too_many_arguments)]
pub(super) fn show_destinations(
    mut commands: Commands,
    session: Res<Session<Robots>>,
    mut choice: ResMut<RobotChoice>,
    layout: Res<RobotLayout>,
    lit: Query<Entity, Or<(With<Destination>, With<SwapMark>)>>,
    moving: Query<(), With<Glide>>,
) {
    let view = session.view();
    let human = session.human_to_move();
    if human.is_none()
        || choice.selected.is_some_and(|id| view.robot(id).is_none_or(|r| Some(r.player) != human))
    {
        choice.selected = None;
    }
    let key = choice
        .selected
        .map(|id| (id, view.plies()))
        .or(choice.swap_first.map(|p| ('#', p.0 as u32 * 65536 + p.1 as u32 + view.plies() * 7)));
    let busy = !moving.is_empty();
    if choice.lit_for == key && !busy {
        return;
    }
    for entity in &lit {
        commands.entity(entity).despawn();
    }
    choice.lit_for = if busy { None } else { key };
    if busy {
        return;
    }
    if let Some(id) = choice.selected {
        for (mv, to, _) in view.destinations(id) {
            if matches!(mv, RobotMove::Rotate { .. }) {
                continue;
            }
            let at = layout.position(to);
            commands.spawn((
                Destination(mv),
                Sprite::from_color(art::TARGET, Vec2::splat(TILE - 10.0)),
                Transform::from_xyz(at.x, at.y, 1.0),
                DespawnOnExit(ActiveGame::of::<Robots>()),
            ));
        }
    }
    if let Some(p) = choice.swap_first {
        let at = layout.position(p);
        commands.spawn((
            SwapMark,
            Sprite::from_color(art::SWAP_PICK, Vec2::splat(TILE - 6.0)),
            Transform::from_xyz(at.x, at.y, 1.0),
            DespawnOnExit(ActiveGame::of::<Robots>()),
        ));
    }
}

/// Says what the player's choice would do.
pub(super) fn describe_choice(
    session: Res<Session<Robots>>,
    choice: Res<RobotChoice>,
    mut preview: ResMut<MovePreview>,
) {
    let view = session.view();
    let text = match session.human_to_move() {
        None => String::new(),
        Some(p) if choice.swapping => {
            let left = view.swaps_left(p);
            match choice.swap_first {
                None => {
                    format!("Exchange ({left} left): click the first tile (not a home or hint); X to stop.")
                }
                Some(a) => format!("Exchange ({}, {}) with…: click the second tile.", a.0, a.1),
            }
        }
        Some(_) => match choice.selected.and_then(|id| view.robot(id)) {
            Some(r) if r.rule == RuleSet::A => {
                format!("Robot {} (rule A): click a green tile or press an arrow to step.", r.id)
            }
            Some(r) => format!(
                "Robot {} (rule B): click a green tile, Up or 1-3 to walk, Left/Right/Down to turn.",
                r.id
            ),
            None => "Click one of your robots (or N) to see where it can go.".into(),
        },
    };
    if preview.0 != text {
        preview.0 = text;
    }
}

fn own_robots(view: &Robots, player: Player) -> Vec<char> {
    view.robots().iter().filter(|r| r.player == player).map(|r| r.id).collect()
}

#[allow(clippy::too_many_arguments)]
pub(super) fn click_board(
    pointer: BoardPointer,
    mouse: Res<ButtonInput<MouseButton>>,
    session: Res<Session<Robots>>,
    layout: Res<RobotLayout>,
    mut choice: ResMut<RobotChoice>,
    destinations: Query<(&Destination, &Transform)>,
    mut requests: MessageWriter<RequestMove<Robots>>,
) {
    if !mouse.just_pressed(MouseButton::Left) {
        return;
    }
    let Some(point) = pointer.world() else { return };
    let Some(tile) = layout.tile_at(point) else { return };
    let Some(by) = session.requester() else { return };
    let view = session.view();
    if choice.swapping {
        match choice.swap_first {
            None => choice.swap_first = Some(tile),
            Some(first) => {
                let (a, b) =
                    if (first.1, first.0) <= (tile.1, tile.0) { (first, tile) } else { (tile, first) };
                choice.swap_first = None;
                choice.swapping = false;
                requests.write(RequestMove { by, mv: RobotMove::Exchange { a, b } });
            }
        }
        return;
    }
    if let Some(robot) = view.robot_at(tile).filter(|r| r.player == by) {
        choice.selected = Some(robot.id);
        return;
    }
    let target = layout.position(tile);
    let chosen = destinations.iter().find(|(_, t)| t.translation.truncate().distance(target) < 1.0);
    match chosen {
        Some((Destination(mv), _)) => {
            requests.write(RequestMove { by, mv: *mv });
        }
        None => choice.selected = None,
    }
}

pub(super) fn request_with_keys(
    keys: Res<ButtonInput<KeyCode>>,
    session: Res<Session<Robots>>,
    mut choice: ResMut<RobotChoice>,
    mut requests: MessageWriter<RequestMove<Robots>>,
) {
    let Some(by) = session.requester() else { return };
    let view = session.view();
    let own = own_robots(&view, by);
    if keys.just_pressed(KeyCode::KeyN) && !own.is_empty() {
        let next = choice
            .selected
            .and_then(|id| own.iter().position(|&o| o == id))
            .map_or(0, |i| (i + 1) % own.len());
        choice.selected = Some(own[next]);
    }
    if keys.just_pressed(KeyCode::KeyX) {
        choice.swapping = !choice.swapping;
        choice.swap_first = None;
    }
    if keys.just_pressed(KeyCode::Enter) || keys.just_pressed(KeyCode::NumpadEnter) {
        requests.write(RequestMove { by, mv: RobotMove::Pass });
    }
    let Some(robot) = choice.selected.or(own.first().copied()).and_then(|id| view.robot(id)) else { return };
    let id = robot.id;
    let pressed = |k: KeyCode| keys.just_pressed(k);
    let mv = match robot.rule {
        RuleSet::A => [
            (KeyCode::ArrowUp, Dir::North),
            (KeyCode::ArrowRight, Dir::East),
            (KeyCode::ArrowDown, Dir::South),
            (KeyCode::ArrowLeft, Dir::West),
        ]
        .into_iter()
        .find(|&(k, _)| pressed(k))
        .map(|(_, dir)| RobotMove::Step { robot: id, dir }),
        RuleSet::B => {
            let walk = digits_pressed(&keys)
                .find(|&d| (1..=3).contains(&d))
                .or(pressed(KeyCode::ArrowUp).then_some(1));
            let turn = [(KeyCode::ArrowLeft, 1), (KeyCode::ArrowDown, 2), (KeyCode::ArrowRight, 3)]
                .into_iter()
                .find(|&(k, _)| pressed(k))
                .map(|(_, q)| q);
            walk.map(|steps| RobotMove::Forward { robot: id, steps })
                .or(turn.map(|quarters| RobotMove::Rotate { robot: id, quarters }))
        }
    };
    if let Some(mv) = mv {
        choice.selected = Some(id);
        requests.write(RequestMove { by, mv });
    }
}
