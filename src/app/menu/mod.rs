//! The main menu, the game's front door: the games as cards with a picture
//! and a line each (those the window does not play say so), the levels of the
//! chosen game in their groups (lessons, games, large boards, specification
//! tests), and for each seat a name and Human or an agent with its strength.
//! Everything can be chosen with the keyboard.
//!
//! This file holds the plugin, the menu's making and the listing of the
//! chosen game's levels, and a level started from the command line; `model`
//! the menu's choices of game, level and seats, `ui` its drawing (each
//! game's picture is the game's own: `WindowGame::draw_level`), `keys` its
//! keyboard, `online` its "Play online" (hosting, joining, coming back).

mod keys;
mod model;
mod online;
mod ui;

use bevy::prelude::*;
use bevy_egui::EguiPrimaryContextPass;
use bevy_egui::input::egui_wants_any_keyboard_input;
use tabula_engine::core::AgentSpec;
use tabula_engine::level;

use super::frames::NextFrame;
use super::game::WindowCatalog;
use super::levels::library::LevelLibrary;
use super::levels::{LevelAsset, LevelSources};
use super::screen::Screen;
use super::session::{Controller, SeatSetup, SessionPlan, SessionRequest, StartLevel, StatusLine, seed_now};
use super::settings::Settings;

pub use model::{Menu, MenuGame, SeatChoice};
pub use online::OnlineForm;

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<WindowCatalog>()
        .init_resource::<OnlineForm>()
        .add_systems(OnEnter(Screen::Menu), (rescan, online::read_kept_again))
        .add_systems(Update, list_levels.run_if(in_state(Screen::Menu)))
        .add_systems(Update, start_level_from_command_line.run_if(resource_exists::<StartLevel>))
        .add_systems(EguiPrimaryContextPass, ui::menu_ui.run_if(in_state(Screen::Menu)))
        .add_systems(
            Update,
            (keys::menu_keys, online::online_keys)
                .run_if(in_state(Screen::Menu).and_then(not(egui_wants_any_keyboard_input))),
        );
}

/// The menu is made on first showing, once every game has registered; on
/// each showing the level folder is listed again (files may have come).
fn rescan(
    mut commands: Commands,
    menu: Option<ResMut<Menu>>,
    catalog: Res<WindowCatalog>,
    settings: Res<Settings>,
) {
    match menu {
        Some(mut menu) => menu.scanned = None,
        None => {
            let mut menu = Menu::new(&catalog.0);
            // Where the last game was played, if its level is still there.
            if let Some(last) = &settings.last_level
                && let Ok(level) = level::load(last)
            {
                menu.show(level.game().folder(), last);
            }
            // Said once, for whoever runs the window from a terminal (and the
            // install test, which looks for it).
            let playable: Vec<&str> =
                menu.games.iter().filter(|g| g.is_playable()).map(|g| g.title).collect();
            info!("the menu offers {} games: {}", playable.len(), playable.join(", "));
            commands.insert_resource(menu);
        }
    }
}

/// Lists the chosen game's level files through the asset server, and
/// shows them once all have loaded or failed (and again when one changes).
fn list_levels(
    menu: Option<ResMut<Menu>>,
    mut library: ResMut<LevelLibrary>,
    server: Res<AssetServer>,
    sources: Res<LevelSources>,
    assets: Res<Assets<LevelAsset>>,
    mut changed: MessageReader<AssetEvent<LevelAsset>>,
    mut failed: MessageReader<bevy::asset::AssetLoadFailedEvent<LevelAsset>>,
    mut next: ResMut<NextFrame>,
) {
    let Some(mut menu) = menu else { return };
    let folder = menu.current().folder;
    // Files are read again only when the folder is listed anew or one of
    // them changed or failed: comparing every level each frame would cost
    // most on the largest boards.
    let touched = changed.read().count() + failed.read().count() > 0;
    if menu.scanned != Some(folder) {
        library.scan(&server, &sources, folder);
        menu.scanned = Some(folder);
    } else if menu.listed && !touched {
        return;
    }
    match library.entries(&sources, folder, &assets, &server) {
        Some(levels) => {
            menu.listed = true;
            if levels != menu.levels {
                menu.set_levels(levels);
            }
        }
        None => {
            menu.listed = false;
            next.ask();
        }
    }
}

/// `tabula play <level>`: Human against the strongest agent; `tabula play
/// <replay>`: its moves to step through.
fn start_level_from_command_line(
    mut commands: Commands,
    start: Res<StartLevel>,
    settings: Res<Settings>,
    mut requests: MessageWriter<SessionRequest>,
    mut status: ResMut<StatusLine>,
    (menu, catalog): (Option<ResMut<Menu>>, Res<WindowCatalog>),
) {
    commands.remove_resource::<StartLevel>();
    if start.replay {
        requests.write(SessionRequest::OpenReplay(start.path.clone()));
        return;
    }
    match level::load(&start.path) {
        Ok(level) => {
            let game = level.game();
            // Esc from the game comes back to this level in the menu.
            match menu {
                Some(mut menu) => menu.show(game.folder(), &start.path),
                None => {
                    let mut menu = Menu::new(&catalog.0);
                    menu.show(game.folder(), &start.path);
                    commands.insert_resource(menu);
                }
            }
            // A lesson's opponent is the game's own for lessons, if it has one.
            let opponent = match game.lesson_opponent() {
                Some(spec) if level.group() == tabula_engine::core::LevelGroup::Lesson => spec.parse().ok(),
                _ => None,
            }
            .unwrap_or_else(|| AgentSpec::new(game.default_opponent(), None));
            let seats = (0..game.num_players(&level))
                .map(|i| SeatSetup {
                    name: settings.name(i),
                    controller: match start.seats.get(i).cloned().flatten() {
                        Some(chosen) => chosen,
                        None if i == 0 => Controller::Human,
                        None => Controller::Agent(opponent.clone()),
                    },
                })
                .collect();
            let plan = SessionPlan {
                level_path: Some(start.path.clone()),
                level,
                seats,
                seed: seed_now(),
                replay: None,
                deal: false,
            };
            requests.write(SessionRequest::Start(Box::new(plan)));
        }
        Err(e) => status.error(e.to_string()),
    }
}
