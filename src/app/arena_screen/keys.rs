//! The Arena screen's keyboard: Up/Down choose an arena file, R runs (or
//! resumes) it, S stops the run, Esc goes back to the menu.

use bevy::prelude::*;
use bevy_egui::input::egui_wants_any_keyboard_input;

use super::{ArenaRequest, Arenas};
use crate::app::screen::Screen;

pub(super) fn plugin(app: &mut App) {
    app.add_systems(
        Update,
        arena_keys
            .before(super::live::Verbs)
            .run_if(in_state(Screen::Arena).and_then(not(egui_wants_any_keyboard_input))),
    );
}

fn arena_keys(
    keys: Res<ButtonInput<KeyCode>>,
    arenas: Res<Arenas>,
    mut requests: MessageWriter<ArenaRequest>,
) {
    let pressed = |k: KeyCode| keys.just_pressed(k);
    let n = arenas.files.len();
    if n > 0 && pressed(KeyCode::ArrowDown) {
        requests.write(ArenaRequest::Choose((arenas.chosen + 1) % n));
    }
    if n > 0 && pressed(KeyCode::ArrowUp) {
        requests.write(ArenaRequest::Choose((arenas.chosen + n - 1) % n));
    }
    if pressed(KeyCode::KeyR) {
        requests.write(ArenaRequest::Run);
    }
    if pressed(KeyCode::KeyS) {
        requests.write(ArenaRequest::Stop);
    }
    if pressed(KeyCode::Escape) {
        requests.write(ArenaRequest::Back);
    }
}
