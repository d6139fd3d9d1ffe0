//! The menu's keyboard: Left/Right the game, Up/Down the level, digits who
//! plays each seat, Enter start, (`online::online_keys`: P "Play online"
//! shown or folded, H host the choice online, J a friend's table's address
//! typed), D a new board each game, E edit the level, N a new level, O
//! open a replay, A the Arena screen, M sound, Esc quit (after asking).

use bevy::prelude::*;

use super::model::Menu;
use crate::app::ask::{Asking, Question};
use crate::app::controls::ReplayBrowser;
use crate::app::editor::RequestEdit;
use crate::app::help::{Controls, key};
use crate::app::session::{SessionRequest, StatusLine};
use crate::app::settings::{MAX_SEATS, Settings};

pub(super) fn menu_keys(
    keys: Res<ButtonInput<KeyCode>>,
    menu: Option<ResMut<Menu>>,
    mut settings: ResMut<Settings>,
    mut browser: ResMut<ReplayBrowser>,
    mut requests: MessageWriter<SessionRequest>,
    mut status: ResMut<StatusLine>,
    mut asking: ResMut<Asking>,
    mut edits: MessageWriter<RequestEdit>,
    mut next: ResMut<NextState<crate::app::screen::Screen>>,
) {
    let Some(mut menu) = menu else { return };
    let pressed = |k: KeyCode| keys.just_pressed(k);
    let games = menu.games.len();
    let at = menu.game;
    if pressed(KeyCode::ArrowRight) {
        menu.switch_game((at + 1) % games);
    }
    if pressed(KeyCode::ArrowLeft) {
        menu.switch_game((at + games - 1) % games);
    }
    let n = menu.levels.len().max(1);
    if pressed(KeyCode::ArrowDown) {
        let next = (menu.selected + 1) % n;
        menu.select(next);
    }
    if pressed(KeyCode::ArrowUp) {
        let next = (menu.selected + n - 1) % n;
        menu.select(next);
    }
    for digit in crate::app::board::digits_pressed(&keys).filter(|&d| (1..=MAX_SEATS as u8).contains(&d)) {
        menu.cycle_seat(digit as usize - 1);
    }
    if pressed(KeyCode::KeyM) {
        settings.sound = !settings.sound;
    }
    if pressed(KeyCode::KeyD) && menu.dealable {
        let folder = menu.current().folder;
        let on = !settings.deals(folder);
        settings.set_deals(folder, on);
    }
    if pressed(KeyCode::KeyO) {
        browser.open = true;
    }
    if pressed(KeyCode::KeyA) {
        next.set(crate::app::screen::Screen::Arena);
    }
    let edit = if pressed(KeyCode::KeyE) {
        Some(menu.edit_path())
    } else if pressed(KeyCode::KeyN) {
        Some(Ok(menu.new_level_path()))
    } else {
        None
    };
    match edit {
        Some(Ok(path)) => {
            edits.write(RequestEdit(path));
        }
        Some(Err(e)) => status.error(e),
        None => {}
    }
    if pressed(KeyCode::Enter) || pressed(KeyCode::NumpadEnter) {
        match menu.plan(&settings) {
            Ok(plan) => {
                requests.write(SessionRequest::Start(Box::new(plan)));
            }
            Err(e) => status.error(e),
        }
    }
    if pressed(KeyCode::Escape) {
        if browser.open {
            browser.open = false;
        } else {
            asking.0 = Some(Question::Quit);
        }
    }
}

/// The menu's mouse and keys, for its bottom line and the F1 overlay.
pub(super) fn menu_controls() -> Controls {
    let keys = [
        key("Left/Right", "game"),
        key("Up/Down", "level"),
        key("1 to 8", "change who plays each seat"),
        key("Enter", "start"),
        key("P", "play online"),
        key("H", "host online"),
        key("J", "join online"),
        key("D", "a new board each game"),
        key("E", "edit level"),
        key("N", "new level"),
        key("O", "open replay"),
        key("A", "arena"),
        key("M", "sound"),
        key("Esc", "quit"),
    ];
    Controls::new("Click a game, a level and who plays each seat, then Start.", &keys)
}
