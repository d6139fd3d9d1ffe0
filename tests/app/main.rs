//! The window's logic without a window: sessions, board entities, agents,
//! undo and redo, replays and hot reload, in a headless Bevy `App`.

use std::path::{Path, PathBuf};
use std::time::Duration;

use bevy::prelude::*;
use bevy::state::app::StatesPlugin;
use bevy::time::TimeUpdateStrategy;
use tabula::app;
use tabula::app::levels::LevelSources;
use tabula::app::levels::reload::LevelWatch;
use tabula::app::nim::Stone;
use tabula::app::screen::Screen;
use tabula::app::session::{
    Controller, RequestMove, SeatSetup, Session, SessionPlan, SessionRequest, StatusLine,
};
use tabula::app::settings::SettingsFile;
use tabula_engine::core::{AgentRegistry, AgentSpec};
use tabula_engine::level::{self, LevelFile};
use tabula_engine::nim::{Ending, Nim, NimLevel, Take};
use tabula_engine::{Game, Outcome, Player};

#[path = "../common/toy.rs"]
mod toy;
mod toy_window;

/// The package's folder, as cargo tells the running test: a test binary
/// built by another checkout sharing the target folder still reads this
/// checkout's files (a path built in at compile time would be the other's).
fn manifest_dir() -> std::path::PathBuf {
    std::env::var_os("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR for tests").into()
}

const FRAME: Duration = Duration::from_millis(50);

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("tabula-app-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The window's logic without a window; level files are read from the
/// shipped levels and from `dir`, as the window reads a level opened there.
fn headless(dir: &Path) -> App {
    headless_with(dir, |_| {})
}

/// `headless`, with `more` added to the app before its first frame.
fn headless_with(dir: &Path, more: impl FnOnce(&mut App)) -> App {
    headless_from(
        LevelSources::new(&tabula::app::levels::library::levels_root(), Some(&dir.join("level.ron"))),
        dir,
        more,
    )
}

/// `headless`, reading levels from `sources`.
fn headless_from(sources: LevelSources, dir: &Path, more: impl FnOnce(&mut App)) -> App {
    let mut app = App::new();
    sources.register(&mut app);
    app.add_plugins((MinimalPlugins, StatesPlugin, app::asset_plugin()))
        .init_asset::<Image>()
        .insert_resource(TimeUpdateStrategy::ManualDuration(FRAME))
        .insert_resource(SettingsFile(dir.join("settings.ron")))
        .insert_resource(tabula::app::session::ReplaysFolder(dir.join("replays")))
        .add_plugins(app::plugin);
    more(&mut app);
    app.update();
    app
}

fn nim_level(piles: &[u32], ending: Ending) -> LevelFile {
    LevelFile::new::<Nim>(NimLevel::new("test", piles, ending))
}

fn seat(name: &str, agent: Option<&str>) -> SeatSetup {
    SeatSetup {
        name: name.into(),
        controller: agent.map_or(Controller::Human, |a| Controller::Agent(a.parse::<AgentSpec>().unwrap())),
    }
}

fn start(app: &mut App, level: LevelFile, path: Option<PathBuf>, seats: Vec<SeatSetup>) {
    let plan = SessionPlan { level_path: path, level, seats, seed: 7, replay: None, deal: false };
    app.world_mut().write_message(SessionRequest::Start(Box::new(plan)));
    frames(app, 3);
    assert_eq!(*app.world().resource::<State<Screen>>().get(), Screen::Game);
}

fn frames(app: &mut App, n: usize) {
    for _ in 0..n {
        app.update();
    }
}

fn session(app: &App) -> &Session<Nim> {
    app.world().resource::<Session<Nim>>()
}

fn stones(app: &mut App) -> usize {
    app.world_mut().query::<&Stone>().iter(app.world()).count()
}

fn request(app: &mut App, by: u8, pile: u32, count: u32) {
    app.world_mut().write_message(RequestMove::<Nim> { by: Player(by), mv: Take { pile, count } });
    frames(app, 1);
}

/// Plays the human seat with the first legal move until the game ends.
fn play_out(app: &mut App, human: Player) {
    for _ in 0..2000 {
        let game = &session(app).game;
        if game.outcome().is_some() {
            return;
        }
        if game.current_player() == human {
            let mut moves = Vec::new();
            game.legal_moves(human, &mut moves);
            let mv = moves[0];
            request(app, human.0, mv.pile, mv.count);
        } else {
            frames(app, 1);
        }
    }
    panic!("the game did not end");
}

/// The status line's text.
fn status(app: &App) -> String {
    app.world().resource::<StatusLine>().text.clone()
}

/// Runs frames until `done`, for what comes from another thread (the file
/// watcher); fails after ten seconds of real time.
fn wait_for(app: &mut App, what: &str, done: impl Fn(&App) -> bool) {
    wait_for_at_most(app, what, Duration::from_secs(10), done);
}

/// Runs frames until `done`, a few milliseconds apart; fails after `limit`
/// of real time.
fn wait_for_at_most(app: &mut App, what: &str, limit: Duration, done: impl Fn(&App) -> bool) {
    let start = std::time::Instant::now();
    while !done(app) {
        assert!(start.elapsed() < limit, "waited {limit:?} for this: {what}");
        app.update();
        std::thread::sleep(Duration::from_millis(5));
    }
}

/// Lets the file watcher take in the level file before the test edits it
/// (its first look at a new file could otherwise swallow the edit).
fn settle_watcher(app: &mut App) {
    for _ in 0..20 {
        app.update();
        std::thread::sleep(Duration::from_millis(5));
    }
}

/// One key going down or up, as the window reports it.
fn key_event(app: &mut App, key_code: KeyCode, state: bevy::input::ButtonState) {
    use bevy::input::keyboard::{Key, KeyboardInput, NativeKey};
    app.world_mut().write_message(KeyboardInput {
        key_code,
        logical_key: Key::Unidentified(NativeKey::Unidentified),
        state,
        text: None,
        repeat: false,
        window: Entity::PLACEHOLDER,
    });
}

/// Each key pressed and released, one after another, a frame each way.
fn press(app: &mut App, keys: &[KeyCode]) {
    use bevy::input::ButtonState;
    for &key in keys {
        for state in [ButtonState::Pressed, ButtonState::Released] {
            key_event(app, key, state);
            frames(app, 1);
        }
    }
}

/// Keys held together, as Ctrl+Z: all pressed in order, then all released.
fn chord(app: &mut App, keys: &[KeyCode]) {
    use bevy::input::ButtonState;
    for state in [ButtonState::Pressed, ButtonState::Released] {
        for &key in keys {
            key_event(app, key, state);
        }
        frames(app, 1);
    }
}

mod arena;
mod asking;
mod editor;
mod levels;
mod mancala;
mod mirror;
mod nim;
mod online;
mod online_menu;
mod play_again;
mod replays;
mod robot_board;
mod russian_bank;
mod saved_games;
mod settings_and_sound;
mod third_game;
