//! The player's choice of stones: hovering shows what a click would take, a
//! click chooses and a second click takes; the keys choose the pile and the
//! count, Enter takes. The top bar says what Enter would do.

use bevy::prelude::*;
use tabula_engine::nim::{Nim, Take};

use super::{DRAWN_STONES, NimChoice, NimLayout};
use crate::app::board::{BoardPointer, digits_pressed};
use crate::app::session::{MovePreview, RequestMove, Session, StatusLine};

/// Says in words what Enter would do.
pub(super) fn describe_choice(
    session: Res<Session<Nim>>,
    choice: Res<NimChoice>,
    mut preview: ResMut<MovePreview>,
) {
    let text = match session.human_to_move() {
        Some(_) if choice.armed => {
            format!(
                "Chosen: {}. Press Enter or click again to take.",
                Take { pile: choice.pile as u32, count: choice.count }
            )
        }
        Some(_) => "Choose stones: click one (it and all to its right), or use the arrow keys.".to_owned(),
        None => String::new(),
    };
    if preview.0 != text {
        preview.0 = text;
    }
}

/// Hover shows what a click would take; a click chooses; a second click on
/// the same choice confirms.
pub(super) fn point_at_stones(
    pointer: BoardPointer,
    mouse: Res<ButtonInput<MouseButton>>,
    session: Res<Session<Nim>>,
    layout: Res<NimLayout>,
    mut choice: ResMut<NimChoice>,
    mut requests: MessageWriter<RequestMove<Nim>>,
) {
    let point = pointer.world();
    let view = session.view();
    let piles = view.piles();
    let hover = point.and_then(|p| layout.stone_at(p, piles)).map(|(pile, slot)| {
        let n = piles[pile];
        (pile, n.min(DRAWN_STONES) - slot)
    });
    if choice.hover != hover {
        choice.hover = hover;
    }
    if !mouse.just_pressed(MouseButton::Left) {
        return;
    }
    let Some((pile, count)) = hover else { return };
    let Some(by) = session.requester() else { return };
    if choice.armed && choice.pile == pile && choice.count == count {
        requests.write(RequestMove { by, mv: Take { pile: pile as u32, count } });
    } else {
        *choice = NimChoice { pile, count, armed: true, hover, ..default() };
    }
}

/// Up and down choose the pile, left and right the count, digits type a
/// count, Enter takes.
pub(super) fn choose_with_keys(
    keys: Res<ButtonInput<KeyCode>>,
    time: Res<Time>,
    session: Res<Session<Nim>>,
    mut choice: ResMut<NimChoice>,
    mut requests: MessageWriter<RequestMove<Nim>>,
    mut status: ResMut<StatusLine>,
) {
    let view = session.view();
    let piles = view.piles();
    let n = piles.len();
    let mut moved = false;
    // Up and Down pass over emptied piles: nothing there can be taken.
    let step =
        |from: usize, by: usize| (1..=n).map(|k| (from + k * by) % n).find(|&p| piles[p] > 0).unwrap_or(from);
    if keys.just_pressed(KeyCode::ArrowUp) || keys.just_pressed(KeyCode::KeyW) {
        choice.pile = step(choice.pile, n - 1);
        moved = true;
    }
    if keys.just_pressed(KeyCode::ArrowDown) || keys.just_pressed(KeyCode::KeyS) {
        choice.pile = step(choice.pile, 1);
        moved = true;
    }
    if moved {
        choice.count = choice.count.clamp(1, piles[choice.pile].max(1));
        choice.armed = true;
        choice.typed.clear();
    }
    if keys.just_pressed(KeyCode::ArrowRight) || keys.just_pressed(KeyCode::KeyD) {
        choice.count = (choice.count + 1).min(piles[choice.pile].max(1));
        choice.armed = true;
    }
    if keys.just_pressed(KeyCode::ArrowLeft) || keys.just_pressed(KeyCode::KeyA) {
        choice.count = choice.count.saturating_sub(1).max(1);
        choice.armed = true;
    }
    let now = time.elapsed_secs_f64();
    for digit in digits_pressed(&keys) {
        if now - choice.typed_at > 1.2 || choice.typed.len() >= 7 {
            choice.typed.clear();
        }
        choice.typed.push(char::from(b'0' + digit));
        choice.typed_at = now;
        // Typed counts are not clamped: the engine says what is wrong.
        choice.count = choice.typed.parse().unwrap_or(0);
        choice.armed = true;
    }
    if keys.just_pressed(KeyCode::Enter) || keys.just_pressed(KeyCode::NumpadEnter) {
        choice.typed.clear();
        // Enter takes only what the player chose since the last move.
        if !choice.armed {
            status.error("Choose stones first: a click, or the arrow keys or a count");
        } else if let Some(by) = session.requester() {
            requests.write(RequestMove { by, mv: Take { pile: choice.pile as u32, count: choice.count } });
        }
    }
}
