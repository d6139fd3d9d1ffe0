//! The game screen's keys, shared by every game; each board adds its own.

use bevy::prelude::*;
use bevy_egui::input::egui_wants_any_keyboard_input;

use super::Screen;
use super::session::SessionRequest;
use super::settings::Settings;

/// The replay browser is open.
#[derive(Resource, Default)]
pub struct ReplayBrowser {
    pub open: bool,
    pub path: String,
    /// The replay files found when it opened.
    pub files: Option<Vec<std::path::PathBuf>>,
}

/// Keys need egui's word on whether a text field has them.
pub fn plugin(app: &mut App) {
    app.init_resource::<ReplayBrowser>().add_systems(
        Update,
        game_keys.run_if(in_state(Screen::Game).and_then(not(egui_wants_any_keyboard_input))),
    );
}

/// The game screen's keys; the board's own keys live with the board.
fn game_keys(
    keys: Res<ButtonInput<KeyCode>>,
    mut requests: MessageWriter<SessionRequest>,
    mut settings: ResMut<Settings>,
    mut browser: ResMut<ReplayBrowser>,
) {
    let ctrl = keys.any_pressed([KeyCode::ControlLeft, KeyCode::ControlRight]);
    let pressed = |k: KeyCode| keys.just_pressed(k);
    if pressed(KeyCode::KeyU) || (ctrl && pressed(KeyCode::KeyZ)) || pressed(KeyCode::Comma) {
        requests.write(SessionRequest::Undo);
    }
    if pressed(KeyCode::KeyR) || (ctrl && pressed(KeyCode::KeyY)) {
        requests.write(SessionRequest::Redo);
    }
    if pressed(KeyCode::Space) || pressed(KeyCode::KeyP) {
        requests.write(SessionRequest::TogglePause);
    }
    if pressed(KeyCode::Period) {
        requests.write(SessionRequest::Step);
    }
    if pressed(KeyCode::F2) {
        requests.write(SessionRequest::Restart);
    }
    if ctrl && pressed(KeyCode::KeyS) {
        requests.write(SessionRequest::SaveReplay);
    }
    if pressed(KeyCode::KeyO) {
        browser.open = true;
    }
    if pressed(KeyCode::Escape) {
        if browser.open {
            browser.open = false;
        } else {
            requests.write(SessionRequest::BackToMenu);
        }
    }
    if pressed(KeyCode::KeyM) {
        settings.sound = !settings.sound;
    }
    // ] and [: agents move faster or slower (+ and - zoom the Robot board).
    if pressed(KeyCode::BracketRight) {
        settings.ai_moves_per_second = (settings.ai_moves_per_second * 1.5).min(30.0);
    }
    if pressed(KeyCode::BracketLeft) {
        settings.ai_moves_per_second = (settings.ai_moves_per_second / 1.5).max(0.25);
    }
}
