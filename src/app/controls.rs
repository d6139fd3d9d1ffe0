//! The game screen's keys, shared by every game (each board adds its own),
//! and the replay browser they and the menu open.

use bevy::prelude::*;
use bevy_egui::input::egui_wants_any_keyboard_input;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};

use super::ask::{Asking, OpenReplays};
use super::lesson::LessonPanel;
use super::screen::Screen;
use super::session::{GameInProgress, ReplaysFolder, SessionKind, SessionRequest, StatusLine, newest_first};
use super::settings::Settings;
use super::teach::Teaching;

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
    app.init_resource::<ReplayBrowser>()
        .add_message::<OpenReplays>()
        .init_resource::<LessonPanel>()
        .add_systems(
            Update,
            (
                game_keys.run_if(in_state(Screen::Game).and_then(not(egui_wants_any_keyboard_input))),
                open_replays,
            )
                .chain(),
        )
        .add_systems(EguiPrimaryContextPass, replay_browser);
}

/// The game screen's keys; the board's own keys live with the board.
fn game_keys(
    keys: Res<ButtonInput<KeyCode>>,
    mut requests: MessageWriter<SessionRequest>,
    mut settings: ResMut<Settings>,
    mut browser: ResMut<ReplayBrowser>,
    mut lesson: ResMut<LessonPanel>,
    mut teaching: ResMut<Teaching>,
    mut asking: ResMut<Asking>,
    in_progress: Res<GameInProgress>,
    mut open: MessageWriter<OpenReplays>,
    (mut status, kind): (ResMut<StatusLine>, Res<SessionKind>),
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
    // F2 deals a new game; Shift+F2 plays the same deal again.
    let shift = keys.any_pressed([KeyCode::ShiftLeft, KeyCode::ShiftRight]);
    if pressed(KeyCode::F2) {
        requests.write(if shift { SessionRequest::Restart } else { SessionRequest::PlayAgain });
    }
    if ctrl && pressed(KeyCode::KeyS) {
        requests.write(SessionRequest::SaveReplay);
    }
    if pressed(KeyCode::KeyO) {
        asking.open_replays(&in_progress, &mut open);
    }
    if pressed(KeyCode::Escape) {
        if browser.open {
            browser.open = false;
        } else {
            asking.leave_game(&in_progress, &mut requests);
        }
    }
    if pressed(KeyCode::KeyL) {
        lesson.toggle();
    }
    if pressed(KeyCode::KeyT) {
        match teaching.offered {
            Some(_) => teaching.toggle(),
            None => status.error(kind.no_teaching()),
        }
    }
    if pressed(KeyCode::KeyM) {
        settings.sound = !settings.sound;
    }
    // ] and [: agents move faster or slower (+ and - zoom large boards).
    if pressed(KeyCode::BracketRight) {
        settings.ai_moves_per_second = (settings.ai_moves_per_second * 1.5).min(30.0);
    }
    if pressed(KeyCode::BracketLeft) {
        settings.ai_moves_per_second = (settings.ai_moves_per_second / 1.5).max(0.25);
    }
}

/// The replay browser opens when asked (and answered yes over a game).
fn open_replays(mut asked: MessageReader<OpenReplays>, mut browser: ResMut<ReplayBrowser>) {
    if asked.read().count() > 0 {
        browser.open = true;
    }
}

/// The list of saved replays, newest first, and a path to type.
fn replay_browser(
    mut contexts: EguiContexts,
    mut browser: ResMut<ReplayBrowser>,
    mut requests: MessageWriter<SessionRequest>,
    folder: Res<ReplaysFolder>,
) -> Result {
    if !browser.open {
        browser.files = None;
        return Ok(());
    }
    let ctx = contexts.ctx_mut()?;
    let dir = &folder.0;
    // Read the folder when the browser opens (or on Refresh), not every frame.
    let files = browser.files.get_or_insert_with(|| newest_first(dir)).clone();
    let mut open = true;
    egui::Window::new("Open a replay").open(&mut open).collapsible(false).show(ctx, |ui| {
        ui.horizontal(|ui| {
            ui.label(format!("Saved in {}", dir.display()));
            if ui.button("Refresh").clicked() {
                browser.files = None;
            }
        });
        egui::ScrollArea::vertical().max_height(300.0).show(ui, |ui| {
            if files.is_empty() {
                ui.label("No replays saved yet.");
            }
            for file in files {
                let name = file.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
                if ui.button(name).clicked() {
                    requests.write(SessionRequest::OpenReplay(file.clone()));
                    browser.open = false;
                }
            }
        });
        ui.horizontal(|ui| {
            ui.label("Path:");
            ui.text_edit_singleline(&mut browser.path);
            if ui.button("Open").clicked() && !browser.path.trim().is_empty() {
                requests.write(SessionRequest::OpenReplay(browser.path.trim().into()));
                browser.open = false;
            }
        });
    });
    if !open {
        browser.open = false;
    }
    Ok(())
}
