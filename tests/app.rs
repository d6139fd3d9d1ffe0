//! The window's logic without a window: sessions, board entities, agents,
//! undo and redo, replays and hot reload, in a headless Bevy `App`.

use std::path::{Path, PathBuf};
use std::time::Duration;

use bevy::prelude::*;
use bevy::state::app::StatesPlugin;
use bevy::time::TimeUpdateStrategy;
use tabula::app::levels::LevelSources;
use tabula::app::levels::reload::LevelWatch;
use tabula::app::nim::Stone;
use tabula::app::session::{
    Controller, RequestMove, SeatSetup, Session, SessionPlan, SessionRequest, StatusLine,
};
use tabula::app::settings::SettingsFile;
use tabula::app::{self, Screen};
use tabula_engine::core::{AgentRegistry, AgentSpec};
use tabula_engine::level::{self, LevelFile};
use tabula_engine::nim::{Ending, Nim, NimLevel, Take};
use tabula_engine::{Game, Outcome, Player};

#[path = "common/toy.rs"]
mod toy;

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
    let mut app = App::new();
    LevelSources::new(&tabula::app::levels::library::levels_root(), Some(&dir.join("level.ron")))
        .register(&mut app);
    app.add_plugins((MinimalPlugins, StatesPlugin, app::asset_plugin()))
        .init_asset::<Image>()
        .insert_resource(TimeUpdateStrategy::ManualDuration(FRAME))
        .insert_resource(SettingsFile(dir.join("settings.ron")))
        .add_plugins(app::plugin);
    app.update();
    app
}

fn nim_level(piles: &[u32], ending: Ending) -> LevelFile {
    LevelFile::new::<Nim>(NimLevel {
        name: "test".into(),
        description: String::new(),
        group: Default::default(),
        piles: piles.to_vec(),
        ending,
    })
}

fn seat(name: &str, agent: Option<&str>) -> SeatSetup {
    SeatSetup {
        name: name.into(),
        controller: agent.map_or(Controller::Human, |a| Controller::Agent(a.parse::<AgentSpec>().unwrap())),
    }
}

fn start(app: &mut App, level: LevelFile, path: Option<PathBuf>, seats: Vec<SeatSetup>) {
    let plan = SessionPlan { level_path: path, level, seats, seed: 7, replay: None };
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

#[test]
fn stones_are_entities_and_taken_ones_leave() {
    let dir = temp_dir("stones");
    let mut app = headless(&dir);
    start(
        &mut app,
        nim_level(&[5, 6, 7], Ending::Misere),
        None,
        vec![seat("John", None), seat("Mary", None)],
    );
    assert_eq!(stones(&mut app), 18);
    request(&mut app, 0, 1, 4);
    assert_eq!(session(&app).game.piles(), &[5, 2, 7]);
    assert_eq!(session(&app).game.current_player(), Player::TWO);
    frames(&mut app, 30);
    assert_eq!(stones(&mut app), 14, "the four taken stones are gone once their animation ends");
}

#[test]
fn the_turn_is_announced_once_when_it_passes_and_at_the_end() {
    use tabula::app::session::{Turn, TurnChanged};
    let dir = temp_dir("turns");
    let mut app = headless(&dir);
    start(&mut app, nim_level(&[2, 1], Ending::Normal), None, vec![seat("John", None), seat("Mary", None)]);
    let turn = |app: &App| app.world().resource::<Turn>().to_move;
    assert_eq!(turn(&app), Some(Player::ONE), "announced at the start");
    let announced = |app: &mut App| {
        let messages = app.world().resource::<Messages<TurnChanged>>();
        messages.iter_current_update_messages().copied().collect::<Vec<_>>()
    };
    request(&mut app, 0, 0, 1);
    assert_eq!(announced(&mut app), [TurnChanged { to: Some(Player::TWO), person: true }]);
    assert_eq!(turn(&app), Some(Player::TWO));
    frames(&mut app, 1);
    assert_eq!(announced(&mut app), [], "once");
    request(&mut app, 0, 0, 1);
    assert_eq!(announced(&mut app), [], "a refused move passes no turn");
    request(&mut app, 1, 0, 1);
    request(&mut app, 0, 1, 1);
    assert_eq!(announced(&mut app), [TurnChanged { to: None, person: false }], "the game is over");
    assert_eq!(turn(&app), None);
    app.world_mut().write_message(SessionRequest::Undo);
    frames(&mut app, 1);
    assert_eq!(turn(&app), Some(Player::ONE), "an undo gives the turn back");
}

#[test]
fn nims_stones_keep_their_size_and_place_after_an_undo() {
    let dir = temp_dir("nim-undo-size");
    let mut app = headless(&dir);
    start(
        &mut app,
        nim_level(&[2, 7, 3], Ending::Normal),
        None,
        vec![seat("John", None), seat("Mary", None)],
    );
    let stones = |app: &mut App| {
        let mut all: Vec<(u32, Vec2, Vec2)> = app
            .world_mut()
            .query::<(&tabula::app::nim::Stone, &Sprite, &Transform)>()
            .iter(app.world())
            .filter(|(stone, ..)| stone.pile == 0)
            .map(|(stone, sprite, t)| (stone.slot, sprite.custom_size.unwrap(), t.translation.truncate()))
            .collect();
        all.sort_by_key(|s| s.0);
        all
    };
    let at_start = stones(&mut app);
    // The longest pile goes down to 1, then the move is taken back.
    request(&mut app, 0, 1, 6);
    frames(&mut app, 60);
    app.world_mut().write_message(SessionRequest::Undo);
    frames(&mut app, 3);
    assert_eq!(stones(&mut app), at_start);
    // And after a move that leaves the longest pile shorter, undone.
    request(&mut app, 0, 1, 5);
    request(&mut app, 1, 0, 1);
    frames(&mut app, 60);
    app.world_mut().write_message(SessionRequest::Undo);
    frames(&mut app, 3);
    assert_eq!(stones(&mut app), at_start);
}

#[test]
fn refused_moves_change_nothing_and_say_why() {
    let dir = temp_dir("refused");
    let mut app = headless(&dir);
    start(
        &mut app,
        nim_level(&[5, 6, 7], Ending::Misere),
        None,
        vec![seat("John", None), seat("Mary", None)],
    );
    let before = session(&app).game.clone();
    request(&mut app, 0, 0, 9);
    assert_eq!(session(&app).game, before);
    let status = app.world().resource::<StatusLine>().clone();
    assert!(status.error && status.text.contains("only 5"), "{status:?}");
    request(&mut app, 1, 0, 1);
    assert_eq!(session(&app).game, before);
    assert!(app.world().resource::<StatusLine>().text.contains("John's turn"));
    request(&mut app, 0, 3, 1);
    assert!(app.world().resource::<StatusLine>().text.contains("no pile 4"));
    assert_eq!(session(&app).game, before);
    assert_eq!(stones(&mut app), 18);
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

#[test]
fn the_optimal_agent_answers_and_wins_a_lost_position_for_the_human() {
    let dir = temp_dir("agent");
    let mut app = headless(&dir);
    // 1-2-3 with the last stone winning: the player to move loses.
    start(
        &mut app,
        nim_level(&[1, 2, 3], Ending::Normal),
        None,
        vec![seat("John", None), seat("Mary", Some("optimal"))],
    );
    play_out(&mut app, Player::ONE);
    assert_eq!(session(&app).game.outcome(), Some(Outcome::Win(Player::TWO)));
    let status = &app.world().resource::<StatusLine>().text;
    assert!(status.contains("Mary wins"), "{status}");
}

#[test]
fn undo_goes_back_to_the_humans_turn_and_redo_replays() {
    let dir = temp_dir("undo");
    let mut app = headless(&dir);
    start(
        &mut app,
        nim_level(&[5, 6, 7], Ending::Misere),
        None,
        vec![seat("John", None), seat("Mary", Some("optimal"))],
    );
    request(&mut app, 0, 1, 4);
    for _ in 0..200 {
        if session(&app).moves.len() == 2 {
            break;
        }
        frames(&mut app, 1);
    }
    assert_eq!(session(&app).moves.len(), 2, "the agent replied");
    app.world_mut().write_message(SessionRequest::Undo);
    frames(&mut app, 2);
    assert!(session(&app).moves.is_empty(), "undo takes back the agent's reply and the human's move");
    assert_eq!(session(&app).game.piles(), &[5, 6, 7]);
    assert_eq!(session(&app).redo.len(), 2);
    frames(&mut app, 2);
    assert_eq!(stones(&mut app), 18, "the board is rebuilt");
    app.world_mut().write_message(SessionRequest::Redo);
    frames(&mut app, 2);
    assert_eq!(session(&app).game.piles(), &[5, 2, 7]);
}

#[test]
fn replays_save_open_and_step_both_ways() {
    let dir = temp_dir("replay");
    let mut app = headless(&dir);
    start(&mut app, nim_level(&[2, 3], Ending::Normal), None, vec![seat("Ann", None), seat("Bob", None)]);
    request(&mut app, 0, 1, 1);
    request(&mut app, 1, 0, 2);
    request(&mut app, 0, 1, 2);
    let finished = session(&app).game.clone();
    assert!(finished.outcome().is_some());
    let path = dir.join("game.ron");
    // Bob's seat as an agent's: the replay shows it, and does not run it.
    let mut replay = session(&app).to_replay();
    replay.players[1].agent = "random".into();
    replay.save(&path).unwrap();

    app.world_mut().write_message(SessionRequest::OpenReplay(path));
    frames(&mut app, 3);
    assert!(session(&app).replay);
    assert_eq!(session(&app).seats[1].name, "Bob");
    assert_eq!(session(&app).seats[0].controller.label(), "human");
    assert_eq!(session(&app).seats[1].controller.label(), "random", "the seat's agent as saved");
    assert_eq!(session(&app).redo.len(), 3);
    assert!(session(&app).moves.is_empty(), "a replay opens paused at the start");
    frames(&mut app, 10);
    assert!(session(&app).moves.is_empty());
    app.world_mut().write_message(SessionRequest::Step);
    frames(&mut app, 2);
    assert_eq!(session(&app).moves.len(), 1);
    app.world_mut().write_message(SessionRequest::Undo);
    frames(&mut app, 2);
    assert_eq!(session(&app).moves.len(), 0, "a step back");
    app.world_mut().write_message(SessionRequest::TogglePause);
    frames(&mut app, 200);
    assert_eq!(session(&app).game, finished, "played on to the same end");
}

#[test]
fn the_move_log_says_who_moved_and_a_click_goes_back_and_forth() {
    let dir = temp_dir("move-log");
    let mut app = headless(&dir);
    start(&mut app, nim_level(&[2, 3], Ending::Normal), None, vec![seat("Ann", None), seat("Bob", None)]);
    request(&mut app, 0, 1, 1);
    let after_one = session(&app).game.clone();
    request(&mut app, 1, 0, 2);
    request(&mut app, 0, 1, 2);
    let finished = session(&app).game.clone();
    assert_eq!(session(&app).movers, [Player::ONE, Player::TWO, Player::ONE]);
    let line = tabula::app::move_log::log_line(
        2,
        session(&app).name_of(Player::TWO),
        &session(&app).moves[1].to_string(),
    );
    assert_eq!(line, "2. Bob: take 2 stones from pile 1");
    // A click on move 1: the position just after it, the rest still ahead.
    app.world_mut().write_message(SessionRequest::GoTo(1));
    frames(&mut app, 2);
    assert_eq!(session(&app).game, after_one);
    assert_eq!((session(&app).moves.len(), session(&app).redo.len()), (1, 2));
    assert_eq!(session(&app).movers, [Player::ONE]);
    assert!(app.world().resource::<tabula::app::session::Watch>().paused, "looking back holds the game");
    // And forward again to the end.
    app.world_mut().write_message(SessionRequest::GoTo(3));
    frames(&mut app, 2);
    assert_eq!(session(&app).game, finished);
    assert_eq!(session(&app).movers, [Player::ONE, Player::TWO, Player::ONE]);
}

#[test]
fn watching_pauses_and_steps_one_move() {
    let dir = temp_dir("watch");
    let mut app = headless(&dir);
    start(
        &mut app,
        nim_level(&[12, 45, 7, 60], Ending::Normal),
        None,
        vec![seat("A", Some("random")), seat("B", Some("optimal:0.5"))],
    );
    app.world_mut().write_message(SessionRequest::TogglePause);
    frames(&mut app, 40);
    assert!(session(&app).moves.len() <= 1, "paused right away");
    let before = session(&app).moves.len();
    app.world_mut().write_message(SessionRequest::Step);
    frames(&mut app, 40);
    assert_eq!(session(&app).moves.len(), before + 1, "a step plays exactly one move");
}

#[test]
fn editing_the_level_file_reloads_it_and_a_broken_edit_keeps_the_last_good_level() {
    let dir = temp_dir("reload");
    let mut app = headless(&dir);
    let path = dir.join("level.ron");
    std::fs::write(&path, "Nim(name: \"edit me\", piles: [3, 4, 5], ending: Normal)\n").unwrap();
    let level = level::load(&path).unwrap();
    start(&mut app, level, Some(path.clone()), vec![seat("John", None), seat("Mary", None)]);
    request(&mut app, 0, 0, 1);
    settle_watcher(&mut app);

    std::fs::write(&path, "Nim(\n    name: \"edit me\",\n    piles: [3, 4 5],\n    ending: Normal,\n)\n")
        .unwrap();
    wait_for(&mut app, "the error is shown", |app| app.world().resource::<LevelWatch>().problem.is_some());
    let problem = app.world().resource::<LevelWatch>().problem.clone().unwrap();
    assert!(problem.starts_with(&format!("{}:3:", path.display())), "{problem}");
    assert_eq!(session(&app).game.piles(), &[2, 4, 5], "the game goes on with the last good level");

    std::fs::write(&path, "Nim(name: \"edit me\", piles: [2, 2], ending: Misere)\n").unwrap();
    wait_for(&mut app, "the new level is in play", |app| session(app).game.piles() == [2, 2]);
    assert_eq!(app.world().resource::<LevelWatch>().problem, None);
    assert_eq!(session(&app).game.piles(), &[2, 2], "the new level is in play");
    assert_eq!(session(&app).seats[0].name, "John", "seats are kept");
    frames(&mut app, 2);
    assert_eq!(stones(&mut app), 4);
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

#[test]
fn every_shipped_level_of_every_game_loads_as_an_asset_and_passes_the_conformance_test() {
    use tabula::app::levels::LevelAsset;
    use tabula::app::levels::library::{levels_root, ron_files_in};
    use tabula::app::session::WindowGames;
    let dir = temp_dir("every-level");
    let mut app = headless(&dir);
    let names: Vec<&str> = app.world().resource::<WindowGames>().0.iter().map(|e| e.name).collect();
    assert_eq!(names.len(), app::GAMES.len(), "every game of GAMES registered itself");
    let sources = app.world().resource::<LevelSources>().clone();
    let mut handles = Vec::new();
    for name in &names {
        let game = tabula_engine::games::find(name).unwrap();
        let files = ron_files_in(&levels_root().join(game.folder()));
        assert!(!files.is_empty(), "{name} ships levels");
        for file in files {
            let path = sources.asset_path(&file).expect("the levels folder is a source");
            let handle = app.world().resource::<AssetServer>().load::<LevelAsset>(path);
            handles.push((file, handle));
        }
    }
    wait_for(&mut app, "every level loaded or failed", |app| {
        let server = app.world().resource::<AssetServer>();
        handles.iter().all(|(_, h)| !server.load_state(h).is_loading())
    });
    for (file, handle) in &handles {
        let state = app.world().resource::<AssetServer>().load_state(handle);
        let Some(LevelAsset(level)) = app.world().resource::<Assets<LevelAsset>>().get(handle) else {
            panic!("{} did not load: {state:?}", file.display());
        };
        assert_eq!(
            level,
            &level::load(file).unwrap(),
            "{}: the asset is the engine's reading",
            file.display()
        );
        // Each move of a large generated board is checked on copies of its
        // whole state: the opening shows as much there.
        let plies = if file.to_string_lossy().contains("large-") { 12 } else { u64::MAX };
        level.game().conformance(level, 2, 11, plies);
    }
    assert!(handles.len() >= 30, "{} levels", handles.len());
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

#[test]
fn the_board_is_playable_by_keyboard_alone() {
    let dir = temp_dir("keys");
    let mut app = headless(&dir);
    app.add_plugins(bevy::input::InputPlugin)
        .init_resource::<bevy_egui::input::EguiWantsInput>()
        .add_plugins(tabula::app::controls::plugin);
    start(
        &mut app,
        nim_level(&[5, 6, 7], Ending::Misere),
        None,
        vec![seat("John", None), seat("Mary", None)],
    );
    // Seed 000's opening: pile 2, four stones.
    press(&mut app, &[KeyCode::ArrowDown, KeyCode::Digit4, KeyCode::Enter]);
    assert_eq!(session(&app).game.piles(), &[5, 2, 7]);
    // Enter alone takes nothing: Mary has chosen nothing yet.
    press(&mut app, &[KeyCode::Enter]);
    assert_eq!(session(&app).game.piles(), &[5, 2, 7]);
    assert!(app.world().resource::<StatusLine>().text.starts_with("Choose stones first"));
    // Mary tries three from pile 2 and is refused; then takes two.
    press(&mut app, &[KeyCode::Digit3, KeyCode::Enter]);
    assert_eq!(session(&app).game.piles(), &[5, 2, 7]);
    assert!(app.world().resource::<StatusLine>().text.contains("only 2"));
    press(&mut app, &[KeyCode::ArrowLeft, KeyCode::Enter]);
    assert_eq!(session(&app).game.piles(), &[5, 0, 7], "left lowers the count to what the pile holds");
    // Undo by key.
    press(&mut app, &[KeyCode::KeyU]);
    assert_eq!(session(&app).game.piles(), &[5, 2, 7]);
    press(&mut app, &[KeyCode::Enter]);
    assert_eq!(session(&app).game.piles(), &[5, 2, 7], "nor after an undo");
}

mod mancala {
    use super::*;
    use tabula::app::mancala::{Cell, PitChoice, STORE_WINNER, Stone};
    use tabula::app::session::MovePreview;
    use tabula::app::settings::Settings;
    use tabula_engine::core::rng_from_seed;
    use tabula_engine::mancala::{Capture, Mancala, MancalaLevel, Sow};

    fn kalah(pits: u8, stones: u16, capture: Capture, sweep: bool) -> LevelFile {
        LevelFile::new::<Mancala>(MancalaLevel {
            name: "test".into(),
            description: String::new(),
            group: Default::default(),
            pits,
            stones,
            capture,
            sweep,
            move_cap: 2000,
        })
    }

    /// Two people at Kalah (6,4), the animations quick; and the test's folder.
    fn kalah_for_two(name: &str) -> (App, PathBuf) {
        let dir = temp_dir(name);
        let mut app = headless(&dir);
        app.world_mut().resource_mut::<Settings>().animation_speed = 4.0;
        let seats = vec![seat("Ann", None), seat("Bob", None)];
        start(&mut app, kalah(6, 4, Capture::Standard, true), None, seats);
        (app, dir)
    }

    fn board(app: &App) -> &Session<Mancala> {
        app.world().resource::<Session<Mancala>>()
    }

    /// Stones per cell, as the board shows them.
    fn stones_per_cell(app: &mut App) -> Vec<u16> {
        let cells = board(app).game.cells().len();
        let mut counts = vec![0; cells];
        for stone in app.world_mut().query::<&Stone>().iter(app.world()) {
            counts[stone.cell] += 1;
        }
        counts
    }

    fn settle(app: &mut App) {
        for _ in 0..400 {
            frames(app, 1);
            if app.world().resource::<tabula::app::session::BoardBusy>().0 == 0 {
                frames(app, 1);
                return;
            }
        }
        panic!("the animation never ended");
    }

    fn sow(app: &mut App, side: u8, pit: u8) {
        let by = board(app).game.current_player();
        app.world_mut().write_message(RequestMove::<Mancala> { by, mv: Sow { side, pit } });
        frames(app, 1);
        settle(app);
    }

    #[test]
    fn every_sowing_capture_and_sweep_ends_with_the_engines_board() {
        let (mut app, _) = kalah_for_two("mancala");
        assert_eq!(stones_per_cell(&mut app), board(&app).game.cells());
        // Random games to the end: sowings, laps, extra turns, captures, sweep.
        let mut rng = rng_from_seed(3);
        let mut captures = 0;
        for game in 0..3 {
            if game > 0 {
                app.world_mut().write_message(SessionRequest::Restart);
                frames(&mut app, 3);
            }
            while board(&app).game.outcome().is_none() {
                let mv = board(&app).game.random_sow(&mut rng).unwrap();
                captures += board(&app).game.preview(mv).unwrap().captured.min(1) as u32;
                sow(&mut app, mv.side, mv.pit);
                assert_eq!(stones_per_cell(&mut app), board(&app).game.cells(), "after {mv}");
            }
        }
        assert!(captures > 0, "the games had captures");
        let total: u16 = stones_per_cell(&mut app).iter().sum();
        assert_eq!(total, 48);
    }

    #[test]
    fn pointing_at_a_pit_previews_an_extra_turn_and_a_refusal_changes_nothing() {
        let (mut app, _) = kalah_for_two("preview");
        *app.world_mut().resource_mut::<PitChoice>() = PitChoice { pit: 2, hover: None, keyed: true };
        frames(&mut app, 1);
        let hint = app.world().resource::<MovePreview>().0.clone();
        assert!(hint.contains("lands in your store") && hint.contains("extra turn"), "{hint}");
        let before = board(&app).game;
        app.world_mut()
            .write_message(RequestMove::<Mancala> { by: Player::ONE, mv: Sow { side: 1, pit: 0 } });
        frames(&mut app, 1);
        assert_eq!(board(&app).game, before);
        let status = status(&app);
        assert!(status.contains("is not yours"), "{status}");
    }

    #[test]
    fn editing_the_stones_in_the_level_file_rebuilds_the_board() {
        let dir = temp_dir("mancala-reload");
        let mut app = headless(&dir);
        let path = dir.join("kalah.ron");
        let text = |stones: u32| {
            format!("Mancala(name: \"k\", pits: 6, stones: {stones}, capture: Standard, sweep: true)\n")
        };
        std::fs::write(&path, text(4)).unwrap();
        let level = level::load(&path).unwrap();
        start(&mut app, level, Some(path.clone()), vec![seat("Ann", None), seat("Bob", Some("minimax:2"))]);
        assert_eq!(stones_per_cell(&mut app).iter().sum::<u16>(), 48);
        settle_watcher(&mut app);
        std::fs::write(&path, text(6)).unwrap();
        wait_for(&mut app, "the new level is in play", |app| board(app).game.cells()[0] == 6);
        frames(&mut app, 2);
        assert_eq!(
            stones_per_cell(&mut app).iter().sum::<u16>(),
            72,
            "one stone entity per stone of the new level"
        );
    }

    #[test]
    fn a_mancala_replay_steps_both_ways_and_the_stones_follow() {
        let (mut app, dir) = kalah_for_two("mancala-replay");
        // A3 ends in the store (extra turn), then A6, then B2.
        for (side, pit) in [(0, 2), (0, 5), (1, 1)] {
            sow(&mut app, side, pit);
        }
        let played = board(&app).game;
        let path = dir.join("kalah.ron");
        board(&app).to_replay().save(&path).unwrap();

        app.world_mut().write_message(SessionRequest::OpenReplay(path));
        frames(&mut app, 3);
        assert!(board(&app).replay);
        assert_eq!((board(&app).moves.len(), board(&app).redo.len()), (0, 3));
        assert_eq!(stones_per_cell(&mut app), board(&app).game.cells());
        for step in 1..=3 {
            app.world_mut().write_message(SessionRequest::Step);
            frames(&mut app, 1);
            settle(&mut app);
            assert_eq!(board(&app).moves.len(), step);
            assert_eq!(stones_per_cell(&mut app), board(&app).game.cells(), "after step {step}");
        }
        assert_eq!(board(&app).game, played);
        app.world_mut().write_message(SessionRequest::Undo);
        frames(&mut app, 2);
        settle(&mut app);
        assert_eq!(board(&app).moves.len(), 2, "a step back");
        assert_eq!(stones_per_cell(&mut app), board(&app).game.cells(), "the stones went back too");
    }

    #[test]
    fn an_agent_plays_mancala_in_the_window() {
        let dir = temp_dir("mancala-agent");
        let mut app = headless(&dir);
        app.world_mut().resource_mut::<Settings>().animation_speed = 4.0;
        app.world_mut().resource_mut::<Settings>().ai_moves_per_second = 30.0;
        start(
            &mut app,
            kalah(3, 2, Capture::None, false),
            None,
            vec![seat("Ann", Some("solve")), seat("Bob", Some("greedy"))],
        );
        // Each store says whose it is.
        let tags: std::collections::HashMap<usize, String> = app
            .world_mut()
            .query::<(&tabula::app::mancala::CellTag, &Text2d)>()
            .iter(app.world())
            .map(|(tag, text)| (tag.0, text.0.clone()))
            .collect();
        let game = board(&app).game;
        assert_eq!(tags[&game.store_cell(Player::ONE)], "Ann's store");
        assert_eq!(tags[&game.store_cell(Player::TWO)], "Bob's store");
        assert_eq!(tags[&0], "A1");
        for _ in 0..3000 {
            if board(&app).game.outcome().is_some() {
                break;
            }
            frames(&mut app, 1);
        }
        assert!(board(&app).game.outcome().is_some(), "the agents finished the game");
        settle(&mut app);
        assert_eq!(stones_per_cell(&mut app), board(&app).game.cells());
        // Once the stones have settled, the winner's store (and only it) glows.
        frames(&mut app, 1);
        let game = board(&app).game;
        let winning_store = game.outcome().unwrap().winner().map(|p| game.store_cell(p));
        let glowing: Vec<usize> = app
            .world_mut()
            .query::<(&Cell, &Sprite)>()
            .iter(app.world())
            .filter(|(_, sprite)| sprite.color == STORE_WINNER)
            .map(|(well, _)| well.0)
            .collect();
        assert_eq!(glowing, winning_store.into_iter().collect::<Vec<_>>());
    }
}

#[test]
fn settings_are_saved_once_they_rest_and_read_back() {
    use tabula::app::settings::{Settings, load};
    let dir = temp_dir("settings");
    let mut app = headless(&dir);
    let file = dir.join("settings.ron");
    for frame in 0..5 {
        // A dragged slider: a change every frame.
        app.world_mut().resource_mut::<Settings>().volume = 0.1 * frame as f32;
        frames(&mut app, 1);
    }
    assert!(!file.exists(), "nothing is written while the value keeps changing");
    frames(&mut app, 12); // 0.6 s of game time
    assert_eq!(load(&file).volume, 0.4);
}

/// The window's plugins with sound, and an asset store to hold the sounds.
fn app_with_sound(name: &str) -> App {
    use bevy::audio::AudioSource;
    let dir = temp_dir(name);
    let mut app = App::new();
    app.add_plugins((MinimalPlugins, StatesPlugin, AssetPlugin::default()))
        .init_asset::<Image>()
        .init_asset::<AudioSource>()
        .insert_resource(TimeUpdateStrategy::ManualDuration(FRAME))
        .insert_resource(SettingsFile(dir.join("settings.ron")))
        .add_plugins((app::plugin, tabula::app::sound::plugin));
    app.update();
    app
}

#[test]
fn each_move_refusal_and_end_sounds_once() {
    use bevy::audio::AudioPlayer;
    let mut app = app_with_sound("sounds");
    let sounds = |app: &mut App| app.world_mut().query::<&AudioPlayer>().iter(app.world()).count();
    start(&mut app, nim_level(&[1, 2], Ending::Normal), None, vec![seat("Ann", None), seat("Bob", None)]);
    assert_eq!(sounds(&mut app), 0);
    request(&mut app, 0, 1, 1);
    assert_eq!(sounds(&mut app), 1, "one move, one sound, with two games registered");
    request(&mut app, 0, 0, 1);
    assert_eq!(sounds(&mut app), 2, "one refusal (not Ann's turn), one sound");
    request(&mut app, 1, 0, 1);
    request(&mut app, 0, 1, 1);
    assert!(session(&app).game.outcome().is_some());
    assert_eq!(sounds(&mut app), 4, "the last move ends the game: one sound for both");
}

#[test]
fn an_agents_move_that_hands_the_turn_to_a_person_rings_for_them() {
    use bevy::audio::{AudioPlayer, AudioSource};
    use tabula::app::sound::Sounds;
    let mut app = app_with_sound("sounds-handed");
    let played = |app: &mut App| -> Vec<AssetId<AudioSource>> {
        app.world_mut().query::<&AudioPlayer>().iter(app.world()).map(|p| p.0.id()).collect()
    };
    start(
        &mut app,
        nim_level(&[3, 3], Ending::Normal),
        None,
        vec![seat("Ann", None), seat("Bob", Some("random"))],
    );
    assert!(played(&mut app).is_empty(), "a game begun rings for no one");
    request(&mut app, 0, 0, 1);
    let (moved, handed) = {
        let sounds = app.world().resource::<Sounds>();
        (sounds.moved.id(), sounds.handed.id())
    };
    assert_eq!(played(&mut app), [moved], "Ann's move hands the turn to an agent: a click");
    // Bob's agent answers: its move hands the turn back to Ann.
    for _ in 0..200 {
        if session(&app).moves.len() == 2 {
            break;
        }
        frames(&mut app, 1);
    }
    assert_eq!(session(&app).moves.len(), 2, "the agent was woken by the turn and moved");
    let mut sounds = played(&mut app);
    sounds.sort();
    let mut want = vec![moved, handed];
    want.sort();
    assert_eq!(sounds, want, "the agent's move rings for Ann, once");
}

/// A third game, with three seats and hidden information, joins through the
/// same one-line registration as Nim and Mancala, passes the conformance
/// test, and plays in the window: each screen shows only its seat's secret,
/// and undo stops at a shown secret.
mod third_game {
    use super::toy::{Tally, TallyLevel, TallyMove};
    use super::*;
    use tabula::app::game::ActiveGame;
    use tabula::app::registry as window_game;

    fn tally() -> TallyLevel {
        TallyLevel { name: "three".into(), seats: 3, target: 12 }
    }

    #[test]
    fn passes_the_conformance_test_with_three_and_eight_seats() {
        tabula_engine::core::conformance::check_random_games::<Tally>(&tally(), 200, 1);
        let eight = TallyLevel { seats: 8, ..tally() };
        tabula_engine::core::conformance::check_random_games::<Tally>(&eight, 50, 2);
    }

    #[test]
    fn an_edit_that_changes_the_number_of_players_is_refused_and_the_game_goes_on() {
        let dir = temp_dir("tally-reload");
        let mut app = headless(&dir);
        app.add_plugins(window_game::register::<Tally>);
        let path = dir.join("tally.ron");
        std::fs::write(&path, "Tally(name: \"three\", seats: 3, target: 12)\n").unwrap();
        let level = level::load(&path).unwrap();
        let seats = vec![seat("Ann", None), seat("Bob", None), seat("Cleo", None)];
        start(&mut app, level, Some(path.clone()), seats);
        app.world_mut().write_message(RequestMove::<Tally> { by: Player::ONE, mv: TallyMove::Add(2) });
        frames(&mut app, 1);
        settle_watcher(&mut app);
        std::fs::write(&path, "Tally(name: \"four\", seats: 4, target: 12)\n").unwrap();
        wait_for(&mut app, "the refusal is shown", |app| {
            app.world().resource::<LevelWatch>().problem.is_some()
        });
        let problem = app.world().resource::<LevelWatch>().problem.clone().unwrap();
        assert!(problem.starts_with(&path.display().to_string()), "{problem}");
        assert!(problem.contains("4 players but 3 seats") && problem.contains("menu"), "{problem}");
        let session = app.world().resource::<Session<Tally>>();
        assert_eq!((session.game.num_players(), session.moves.len()), (3, 1), "the game goes on");
    }

    #[test]
    fn plays_in_the_window_without_showing_other_seats_secrets() {
        let dir = temp_dir("tally");
        let mut app = headless(&dir);
        app.add_plugins(window_game::register::<Tally>);
        let text = "Tally(name: \"three\", seats: 3, target: 12)";
        let level = level::parse(text, "tally.ron").expect("a registered game's level reads like any other");
        let seats = vec![seat("Ann", None), seat("Bob", Some("random")), seat("Cleo", Some("random"))];
        start(&mut app, level, None, seats);
        assert_eq!(*app.world().resource::<State<ActiveGame>>().get(), ActiveGame::of::<Tally>());
        fn session(app: &App) -> &Session<Tally> {
            app.world().resource::<Session<Tally>>()
        }
        let view = session(&app).view().into_owned();
        assert!(view.secrets[0].is_some(), "Ann sees her own secret");
        assert_eq!(&view.secrets[1..], &[None, None], "and not the others'");

        app.world_mut().write_message(RequestMove::<Tally> { by: Player::ONE, mv: TallyMove::Show });
        frames(&mut app, 1);
        for _ in 0..200 {
            if session(&app).game.current_player() == Player::ONE || session(&app).game.outcome().is_some() {
                break;
            }
            frames(&mut app, 1);
        }
        assert_eq!(session(&app).moves.len(), 3, "both agents moved");
        app.world_mut().write_message(SessionRequest::Undo);
        frames(&mut app, 2);
        assert_eq!(session(&app).moves.len(), 3, "undo cannot take back a shown secret");
        assert_eq!(
            app.world().resource::<StatusLine>().text,
            "Cannot undo past that move: it showed what was hidden"
        );

        // Back in the menu the game's session ends, with no list to keep.
        app.world_mut().write_message(SessionRequest::BackToMenu);
        frames(&mut app, 3);
        assert!(app.world().get_resource::<Session<Tally>>().is_none());
        assert_eq!(*app.world().resource::<State<ActiveGame>>().get(), ActiveGame(None));
    }
}

mod robot_board {
    use super::*;
    use tabula::app::robots::{RobotLayout, RobotPiece};
    use tabula_engine::robots::{RobotMove, Robots};

    pub(super) fn board(app: &App) -> &Session<Robots> {
        app.world().resource::<Session<Robots>>()
    }

    fn request(app: &mut App, by: u8, mv: RobotMove) {
        app.world_mut().write_message(RequestMove::<Robots> { by: Player(by), mv });
        frames(app, 1);
    }

    /// Every robot piece where the engine says its robot is.
    fn pieces_match_the_engine(app: &mut App) {
        let layout = *app.world().resource::<RobotLayout>();
        let view = board(app).game.clone();
        let pieces: Vec<(char, Vec2)> = app
            .world_mut()
            .query::<(&RobotPiece, &Transform)>()
            .iter(app.world())
            .map(|(p, t)| (p.0, t.translation.truncate()))
            .collect();
        assert_eq!(pieces.len(), view.robots().len());
        for (id, at) in pieces {
            let robot = view.robot(id).unwrap();
            assert!(at.distance(layout.position(robot.at)) < 0.5, "{id} drawn at {at}, is at {:?}", robot.at);
        }
    }

    /// The tiles of the entities with marker `M`, in reading order.
    fn marked<M: Component>(app: &mut App) -> Vec<(u16, u16)> {
        let layout = *app.world().resource::<RobotLayout>();
        let mut tiles: Vec<(u16, u16)> = app
            .world_mut()
            .query_filtered::<&Transform, With<M>>()
            .iter(app.world())
            .filter_map(|t| layout.tile_at(t.translation.truncate()))
            .collect();
        tiles.sort_by_key(|&(x, y)| (y, x));
        tiles
    }

    #[test]
    fn two_sleuths_candidates_are_shaded_as_they_reason_and_every_home_shows_at_the_end() {
        use tabula::app::robots::{CandidateMark, RevealedHome};
        use tabula_engine::robots::Sighting;
        let dir = temp_dir("robots-hidden");
        let mut app = headless(&dir);
        app.world_mut().resource_mut::<tabula::app::settings::Settings>().ai_moves_per_second = 30.0;
        let path = crate::manifest_dir().join("levels/robots/14-scattered-hints.ron");
        let file = level::load(&path).unwrap();
        start(&mut app, file, Some(path), vec![seat("Ann", Some("sleuth")), seat("Bob", Some("sleuth"))]);
        let mut shaded_some = false;
        for _ in 0..5_000 {
            frames(&mut app, 1);
            let session = board(&app);
            if session.game.outcome().is_some() {
                break;
            }
            // What a person sees: the candidates of every robot that has
            // had a hint, nothing of the others, no home.
            let view = session.view().into_owned();
            let mut expected: Vec<(u16, u16)> = (0..view.robots().len())
                .filter(|&r| {
                    let id = view.robots()[r].id;
                    view.sightings()
                        .iter()
                        .any(|s| matches!(s, Sighting::Hinted { robot, .. } if *robot == id))
                })
                .flat_map(|r| view.home_candidates(r))
                .collect();
            expected.sort_by_key(|&(x, y)| (y, x));
            assert_eq!(marked::<CandidateMark>(&mut app), expected);
            assert!(marked::<RevealedHome>(&mut app).is_empty(), "no home shows while the game is on");
            shaded_some |= !expected.is_empty();
        }
        assert!(board(&app).game.outcome().is_some(), "the game ended");
        assert!(shaded_some, "the sleuths reasoned in sight");
        frames(&mut app, 1);
        let mut homes: Vec<(u16, u16)> = board(&app).game.robots().iter().map(|r| r.home.unwrap()).collect();
        homes.sort_by_key(|&(x, y)| (y, x));
        assert_eq!(marked::<RevealedHome>(&mut app), homes);
        assert!(marked::<CandidateMark>(&mut app).is_empty());
    }

    #[test]
    fn a_person_playing_a_hidden_home_level_sees_no_shading() {
        use tabula::app::robots::CandidateMark;
        let dir = temp_dir("robots-hidden-person");
        let mut app = headless(&dir);
        app.world_mut().resource_mut::<tabula::app::settings::Settings>().ai_moves_per_second = 30.0;
        let path = crate::manifest_dir().join("levels/robots/12-hidden-homes.ron");
        let file = level::load(&path).unwrap();
        start(&mut app, file, Some(path), vec![seat("Ann", None), seat("Bob", Some("sleuth"))]);
        // Ann plays as a sleuth would, from what her screen shows.
        let mut sleuth = Robots::agent_from_str("sleuth").unwrap();
        let mut rng = tabula_engine::core::rng_from_seed(3);
        for _ in 0..2_000 {
            let session = board(&app);
            if session.game.outcome().is_some() {
                break;
            }
            if session.human_to_move() == Some(Player::ONE) {
                let mv = sleuth.choose(Player::ONE, &session.view(), &mut rng).unwrap();
                app.world_mut().write_message(RequestMove::<Robots> { by: Player::ONE, mv });
            }
            frames(&mut app, 1);
            assert!(marked::<CandidateMark>(&mut app).is_empty(), "no shading while a person plays");
        }
        assert!(
            board(&app)
                .game
                .sightings()
                .iter()
                .any(|s| matches!(s, tabula_engine::robots::Sighting::Hinted { .. }))
        );
    }

    #[test]
    fn a_ride_round_the_corners_ends_where_the_engine_says() {
        let dir = temp_dir("robots");
        let mut app = headless(&dir);
        let path = crate::manifest_dir().join("levels/robots/04-corners.ron");
        let level = level::load(&path).unwrap();
        start(&mut app, level, None, vec![seat("Ann", None), seat("Bob", None)]);
        pieces_match_the_engine(&mut app);
        let d_turn = RobotMove::Rotate { robot: 'D', quarters: 1 };
        request(&mut app, 0, RobotMove::Forward { robot: 'B', steps: 1 });
        request(&mut app, 1, d_turn);
        request(&mut app, 0, RobotMove::Rotate { robot: 'B', quarters: 3 });
        request(&mut app, 1, d_turn);
        // Refused: D is Bob's, and it is Ann's turn.
        let before = board(&app).game.clone();
        request(&mut app, 0, RobotMove::Forward { robot: 'D', steps: 1 });
        assert_eq!(board(&app).game, before);
        assert!(app.world().resource::<StatusLine>().text.contains("player 2's"));
        // B rides the belt east, down, east and down to (8, 5).
        request(&mut app, 0, RobotMove::Forward { robot: 'B', steps: 1 });
        assert_eq!(board(&app).game.robot('B').unwrap().at, (8, 5));
        assert!(app.world().resource::<StatusLine>().text.contains("rode the belt"));
        frames(&mut app, 80);
        pieces_match_the_engine(&mut app);
    }

    #[test]
    fn a_win_sets_off_fireworks_and_the_other_robots_blow_apart() {
        let dir = temp_dir("robots-win");
        let mut app = headless(&dir);
        let text = "Robots(name: \"w\", board: [\"a.b\", \"...\"], robots: [(id: 'A', at: (1, 0), facing: North, rule: A, player: 1), (id: 'B', at: (1, 1), facing: North, rule: B, player: 2)])";
        let level = level::parse(text, "w.ron").unwrap();
        start(&mut app, level, None, vec![seat("Ann", None), seat("Bob", None)]);
        request(&mut app, 0, RobotMove::Step { robot: 'A', dir: tabula_engine::robots::Dir::West });
        assert_eq!(board(&app).game.outcome(), Some(Outcome::Win(Player::ONE)));
        frames(&mut app, 2);
        let sparks = app.world_mut().query::<&Sprite>().iter(app.world()).count();
        assert!(sparks > 40, "fireworks: {sparks} sprites");
        frames(&mut app, 60);
        let hidden: Vec<char> = app
            .world_mut()
            .query::<(&RobotPiece, &Visibility)>()
            .iter(app.world())
            .filter(|(_, v)| **v == Visibility::Hidden)
            .map(|(p, _)| p.0)
            .collect();
        assert_eq!(hidden, ['B'], "the other robot blew apart; the winner stays");
    }

    #[test]
    fn editing_a_row_of_the_board_redraws_it_and_a_broken_edit_names_the_rule() {
        let dir = temp_dir("robots-reload");
        let mut app = headless(&dir);
        let path = dir.join("level.ron");
        let text = |row: &str| {
            format!(
                "Robots(name: \"edit\", board: [\"a...b\", \"{row}\", \".....\"], robots: [(id: 'A', at: (0, 2), facing: North, rule: A, player: 1), (id: 'B', at: (4, 2), facing: North, rule: B, player: 2)])\n"
            )
        };
        std::fs::write(&path, text(".....")).unwrap();
        let level = level::load(&path).unwrap();
        start(&mut app, level, Some(path.clone()), vec![seat("Ann", None), seat("Bob", None)]);
        settle_watcher(&mut app);
        std::fs::write(&path, text(".>>>.")).unwrap();
        wait_for(&mut app, "the edited row is in play", |app| board(app).game.rows()[1] == ".>>>.");
        frames(&mut app, 2);
        pieces_match_the_engine(&mut app);
        std::fs::write(&path, text("#####")).unwrap();
        wait_for(&mut app, "the broken rule is shown", |app| {
            app.world().resource::<LevelWatch>().problem.is_some()
        });
        let problem = app.world().resource::<LevelWatch>().problem.clone().unwrap();
        assert!(problem.ends_with("robot A cannot reach its home at A3 (0, 0)"), "{problem}");
        assert_eq!(board(&app).game.rows()[1], ".>>>.", "the last good board stays");
    }

    #[test]
    fn a_person_plays_every_shipped_level_to_the_end_against_planner_scout_and_sleuth() {
        let dir = crate::manifest_dir().join("levels/robots");
        let mut levels: Vec<PathBuf> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.file_name().unwrap().to_string_lossy().starts_with(|c: char| c.is_ascii_digit()))
            .collect();
        levels.sort();
        assert_eq!(levels.len(), 15);
        for path in &levels {
            for opponent in ["planner", "scout", "sleuth"] {
                let temp = temp_dir("robots-every-level");
                let mut app = headless(&temp);
                {
                    let mut settings = app.world_mut().resource_mut::<tabula::app::settings::Settings>();
                    settings.ai_moves_per_second = 30.0;
                    settings.animation_speed = 4.0;
                }
                let file = level::load(path).unwrap();
                let players = file.game().num_players(&file);
                let mut seats = vec![seat("John", None)];
                seats.extend((1..players).map(|i| seat(&format!("Agent {i}"), Some(opponent))));
                start(&mut app, file, Some(path.clone()), seats);
                // John plays as the planner would, from what his screen shows.
                let mut planner = Robots::agent_from_str("planner").unwrap();
                let mut rng = tabula_engine::core::rng_from_seed(1);
                for _ in 0..100_000 {
                    let session = board(&app);
                    if session.game.outcome().is_some() {
                        break;
                    }
                    if session.human_to_move() == Some(Player::ONE) {
                        let mv = planner.choose(Player::ONE, &session.view(), &mut rng).unwrap();
                        app.world_mut().write_message(RequestMove::<Robots> { by: Player::ONE, mv });
                    }
                    frames(&mut app, 1);
                }
                let name = path.file_name().unwrap().to_string_lossy();
                let outcome = board(&app).game.outcome();
                assert!(outcome.is_some(), "{name} against {opponent}: no end");
                assert!(!status(&app).starts_with("Refused"), "{name}: {}", status(&app));
                frames(&mut app, 60);
                pieces_match_the_engine(&mut app);
            }
        }
    }

    /// A headless app with what the mouse needs: a 1280 x 800 primary
    /// window (no real one), the board camera, and Bevy's own systems that
    /// place the camera and turn the pointer into board points.
    pub(super) fn with_mouse(dir: &Path) -> App {
        use bevy::window::{ExitCondition, WindowPlugin, WindowResolution};
        let mut app = headless(dir);
        app.add_plugins((
            bevy::input::InputPlugin,
            bevy::transform::TransformPlugin,
            WindowPlugin {
                primary_window: Some(Window { resolution: WindowResolution::new(1280, 800), ..default() }),
                exit_condition: ExitCondition::DontExit,
                close_when_requested: false,
                ..default()
            },
        ))
        .init_resource::<bevy::render::texture::ManualTextureViews>()
        .add_systems(
            PostUpdate,
            bevy::render::camera::camera_system.after(bevy::transform::TransformSystems::Propagate),
        );
        app.world_mut().spawn((Camera2d, tabula::app::BoardCamera, tabula::app::board::board_projection()));
        app
    }

    /// Where a board point shows in the window, as the board camera draws it.
    pub(super) fn on_screen(app: &mut App, point: Vec2) -> Vec2 {
        let (camera, transform) = app
            .world_mut()
            .query_filtered::<(&Camera, &GlobalTransform), With<tabula::app::BoardCamera>>()
            .single(app.world())
            .unwrap();
        camera.world_to_viewport(transform, point.extend(0.0)).unwrap()
    }

    /// Window pixels a tile spans now.
    fn tile_pixels(app: &mut App) -> f32 {
        on_screen(app, Vec2::new(tabula::app::robots::TILE, 0.0)).x - on_screen(app, Vec2::ZERO).x
    }

    pub(super) fn point_at(app: &mut App, at: Vec2) {
        let mut windows = app.world_mut().query::<&mut Window>();
        windows.single_mut(app.world_mut()).unwrap().set_cursor_position(Some(at));
    }

    pub(super) fn mouse_button(app: &mut App, button: MouseButton, state: bevy::input::ButtonState) {
        use bevy::input::mouse::MouseButtonInput;
        app.world_mut().write_message(MouseButtonInput { button, state, window: Entity::PLACEHOLDER });
        frames(app, 1);
    }

    pub(super) fn click(app: &mut App, at: Vec2) {
        point_at(app, at);
        mouse_button(app, MouseButton::Left, bevy::input::ButtonState::Pressed);
        mouse_button(app, MouseButton::Left, bevy::input::ButtonState::Released);
    }

    /// One notch of the wheel (up zooms in), a frame for each.
    fn wheel(app: &mut App, notches: i32) {
        use bevy::input::mouse::{MouseScrollUnit, MouseWheel};
        for _ in 0..notches.abs() {
            app.world_mut().write_message(MouseWheel {
                unit: MouseScrollUnit::Line,
                x: 0.0,
                y: notches.signum() as f32,
                window: Entity::PLACEHOLDER,
                phase: bevy::input::touch::TouchPhase::Moved,
            });
            frames(app, 1);
        }
    }

    fn piece_of(app: &mut App, id: char) -> Vec2 {
        let mut pieces = app.world_mut().query::<(&RobotPiece, &Transform)>();
        pieces.iter(app.world()).find(|(p, _)| p.0 == id).map(|(_, t)| t.translation.truncate()).unwrap()
    }

    /// The 128 x 128 board in a 1280 x 800 window, four people playing it
    /// with the mouse alone: each zooms out with the wheel to see the whole
    /// board, in toward their robot until tiles are large enough to hit,
    /// clicks the robot, sees its lit tiles at a size to click, and clicks
    /// one; the engine plays that move. A drag with the right button pans,
    /// keeping the grabbed point under the pointer.
    #[test]
    fn the_128_by_128_board_is_played_by_mouse_alone() {
        use tabula::app::robots::{BoardView, Destination, RobotChoice, TILE};
        let dir = temp_dir("robots-mouse");
        let mut app = with_mouse(&dir);
        let path = manifest_dir().join("levels/robots/large-128x128-four-robots.ron");
        let seats = ["Ann", "Bob", "Cy", "Di"].iter().map(|n| seat(n, None)).collect();
        start(&mut app, level::load(&path).unwrap(), Some(path), seats);
        frames(&mut app, 2);
        let whole = tile_pixels(&mut app);
        assert!(whole < 7.0, "the whole board shows, a tile {whole} pixels wide: too small to click");
        for turn in 0..8 {
            let seat = board(&app).game.current_player();
            let id = board(&app).game.robots().iter().find(|r| r.player == seat).unwrap().id;
            // Out to the whole board, then in toward the robot.
            wheel(&mut app, -20);
            assert_eq!(
                app.world().resource::<BoardView>().zoom,
                1.0,
                "turn {turn}: the wheel fits the board"
            );
            let piece = piece_of(&mut app, id);
            let mut at = on_screen(&mut app, piece);
            point_at(&mut app, at);
            while tile_pixels(&mut app) < 40.0 {
                wheel(&mut app, 1);
                // The point under the pointer stays put once the board fills
                // the window's width; before, the board stays centred and
                // the player follows the robot with the pointer.
                let piece = piece_of(&mut app, id);
                let now = on_screen(&mut app, piece);
                if app.world().resource::<BoardView>().zoom > 2.0 {
                    assert!(now.distance(at) < 1.0, "{id} stays under the pointer: {at} then {now}");
                }
                at = now;
                point_at(&mut app, at);
                assert!(
                    (0.0..1280.0).contains(&at.x) && (0.0..800.0).contains(&at.y),
                    "{id} in the window: {at}"
                );
            }
            click(&mut app, at);
            assert_eq!(
                app.world().resource::<RobotChoice>().selected,
                Some(id),
                "turn {turn}: a click chose {id}"
            );
            frames(&mut app, 2);
            let lit: Vec<(RobotMove, Vec2)> = app
                .world_mut()
                .query::<(&Destination, &Transform)>()
                .iter(app.world())
                .map(|(d, t)| (d.0, t.translation.truncate()))
                .collect();
            assert!(!lit.is_empty(), "turn {turn}: {id}'s destinations are lit");
            assert!(
                (TILE - 10.0) / TILE * tile_pixels(&mut app) >= 30.0,
                "a lit tile is large enough to click"
            );
            let (mv, target) = lit[turn % lit.len()];
            let mv = mv.to_string();
            let on = on_screen(&mut app, target);
            assert!(
                (0.0..1280.0).contains(&on.x) && (0.0..800.0).contains(&on.y),
                "the lit tile is in sight"
            );
            let before = board(&app).moves.len();
            click(&mut app, on);
            assert_eq!(board(&app).moves.len(), before + 1, "turn {turn}: a click on a lit tile moved {id}");
            // Walks that end on the same tile (one stopped by a belt) are one
            // lit tile: the click plays one of them.
            let played = board(&app).moves.last().copied().unwrap();
            assert!(
                lit.iter().any(|&(m, t)| m == played && t == target),
                "{played} for a click on {mv}'s tile"
            );
            frames(&mut app, 40);
            pieces_match_the_engine(&mut app);
        }
        // A right-button drag pans: the board point grabbed stays under the pointer.
        let grab = Vec2::new(640.0, 400.0);
        point_at(&mut app, grab);
        frames(&mut app, 1);
        let centre = app.world().resource::<BoardView>().centre;
        mouse_button(&mut app, MouseButton::Right, bevy::input::ButtonState::Pressed);
        let grabbed = {
            let (camera, transform) = app
                .world_mut()
                .query_filtered::<(&Camera, &GlobalTransform), With<tabula::app::BoardCamera>>()
                .single(app.world())
                .unwrap();
            camera.viewport_to_world_2d(transform, grab).unwrap()
        };
        point_at(&mut app, grab + Vec2::new(-120.0, 80.0));
        frames(&mut app, 2);
        mouse_button(&mut app, MouseButton::Right, bevy::input::ButtonState::Released);
        assert_ne!(app.world().resource::<BoardView>().centre, centre, "the drag panned");
        let under = on_screen(&mut app, grabbed);
        assert!(
            under.distance(grab + Vec2::new(-120.0, 80.0)) < 2.0,
            "the grabbed point follows the pointer: {under}"
        );
    }
}

mod russian_bank {
    use super::*;
    use tabula::app::russian_bank::TableCard;
    use tabula_engine::russian_bank::{BankMove, RussianBank, Source, Target};

    fn level(name: &str) -> (LevelFile, PathBuf) {
        let path = crate::manifest_dir().join("levels/russian_bank").join(name);
        (level::load(&path).unwrap(), path)
    }

    fn game(app: &App) -> &RussianBank {
        &app.world().resource::<Session<RussianBank>>().game
    }

    /// Cards drawn on the table, face up or down, not counting ones in flight.
    fn drawn(app: &mut App) -> usize {
        app.world_mut().query::<&TableCard>().iter(app.world()).count()
    }

    #[test]
    fn an_agent_stops_a_humans_breach_and_says_why() {
        let dir = temp_dir("rb-stop");
        let mut app = headless(&dir);
        let (file, path) = level("06-a-stop.ron");
        start(&mut app, file, Some(path), vec![seat("John", None), seat("Mary", Some("greedy"))]);
        let before = game(&app).clone();
        // Every card of this small position: 8 tableau, 4 of John's, 12 of Mary's.
        assert_eq!(drawn(&mut app), 24);
        // The 6H loads Mary's 7H, but the AC on T3 could go to a foundation first.
        let load = BankMove::Play { from: Source::Reserve, to: Target::OpponentReserve };
        app.world_mut().write_message(RequestMove::<RussianBank> { by: Player::ONE, mv: load });
        frames(&mut app, 2);
        let session = app.world().resource::<Session<RussianBank>>();
        assert_eq!(session.moves, vec![load, BankMove::Stop], "Mary stopped at once");
        let after = game(&app);
        assert_eq!(after.turn(), Player::TWO);
        assert_eq!(after.side(Player::ONE).reserve, before.side(Player::ONE).reserve);
        assert_eq!(after.side(Player::TWO).reserve, before.side(Player::TWO).reserve);
        let text = status(&app);
        assert!(text.starts_with("Mary: Stop!") && text.contains("foundation"), "{text}");
        // The 4S under the 6H was seen: undo cannot hide it again.
        app.world_mut().write_message(SessionRequest::Undo);
        frames(&mut app, 1);
        let text = status(&app);
        assert_eq!(text, "Cannot undo past that move: it was a Stop, and the breach it stopped would stand");
        frames(&mut app, 40);
        assert!(game(&app).outcome().is_some() || game(&app).plies() > 2, "Mary plays on");
    }

    #[test]
    fn a_stop_with_nothing_broken_is_refused_and_the_table_follows_the_moves() {
        let dir = temp_dir("rb-no-breach");
        let mut app = headless(&dir);
        let (file, path) = level("04-quick-win.ron");
        start(&mut app, file, Some(path), vec![seat("John", None), seat("Mary", None)]);
        // Mary calls Stop during John's turn: nothing was broken.
        app.world_mut().write_message(RequestMove::<RussianBank> { by: Player::TWO, mv: BankMove::Stop });
        frames(&mut app, 1);
        assert_eq!(status(&app), "Refused: no rule was broken");
        assert_eq!(game(&app).plies(), 0);
        let moves = [
            BankMove::Play { from: Source::Reserve, to: Target::Foundation(1) },
            BankMove::Play { from: Source::Reserve, to: Target::Tableau(1) },
            BankMove::Play { from: Source::Reserve, to: Target::Tableau(8) },
            BankMove::TurnHand,
            BankMove::Play { from: Source::Hand, to: Target::Foundation(1) },
        ];
        for mv in moves {
            app.world_mut().write_message(RequestMove::<RussianBank> { by: Player::ONE, mv });
            frames(&mut app, 20);
        }
        assert_eq!(game(&app).outcome(), Some(Outcome::Win(Player::ONE)));
        assert!(status(&app).contains("John emptied their piles and scores 51"), "{}", status(&app));
        // John's piles are empty: his four foundation cards and T1's two show.
        let cards: Vec<TableCard> =
            app.world_mut().query::<&TableCard>().iter(app.world()).copied().collect();
        assert!(
            !cards
                .iter()
                .any(|c| matches!(c.place, tabula_engine::russian_bank::Place::Reserve(Player::ONE)))
        );
        let bank = app.world().resource::<tabula::app::russian_bank::BankMatch>();
        assert_eq!(bank.points(), [51, 0]);
    }

    #[test]
    fn with_the_stop_rule_off_no_stop_is_offered() {
        use tabula::app::game::WindowGame;
        use tabula::app::session::MovePreview;
        for (name, stop_rule) in [("01-shuffled-deal.ron", true), ("02-shuffled-no-stop.ron", false)] {
            let dir = temp_dir("rb-stop-offered");
            let mut app = headless(&dir);
            app.add_plugins(bevy::input::InputPlugin);
            let (file, path) = level(name);
            start(&mut app, file, Some(path), vec![seat("Rand", Some("random")), seat("John", None)]);
            // The agent is to move and is held; John watches its turn.
            app.world_mut().write_message(SessionRequest::TogglePause);
            frames(&mut app, 2);
            let preview = app.world().resource::<MovePreview>().0.clone();
            assert_eq!(preview.contains("Stop"), stop_rule, "{name}: {preview}");
            let controls = RussianBank::controls(&app.world().resource::<Session<RussianBank>>().level);
            assert_eq!(controls.contains("Stop"), stop_rule, "{name}: {controls}");
            press(&mut app, &[KeyCode::KeyS]);
            let said = status(&app);
            // With the rule, S calls Stop (and nothing was broken); without
            // it, S does nothing at all.
            assert_eq!(said == "Refused: no rule was broken", stop_rule, "{name}: {said}");
            assert_eq!(game(&app).plies(), 0);
        }
    }

    #[test]
    fn a_human_stops_the_random_agents_breach() {
        let dir = temp_dir("rb-human-stop");
        let mut app = headless(&dir);
        let (file, path) = level("06-a-stop.ron");
        start(&mut app, file, Some(path), vec![seat("Rand", Some("random")), seat("John", None)]);
        // Random breaks priority sooner or later; John watches for it.
        let mut stopped = false;
        for _ in 0..4000 {
            frames(&mut app, 1);
            let now = game(&app);
            if now.outcome().is_some() {
                break;
            }
            if now.breach().is_some_and(|b| b.by == Player::ONE) {
                let before = now.clone();
                app.world_mut()
                    .write_message(RequestMove::<RussianBank> { by: Player::TWO, mv: BankMove::Stop });
                frames(&mut app, 1);
                let after = game(&app);
                assert_eq!(after.turn(), Player::TWO, "the turn passes to John");
                assert_eq!(after.plies(), before.plies() + 1);
                assert!(status(&app).starts_with("John: Stop!"), "{}", status(&app));
                stopped = true;
                break;
            }
        }
        assert!(stopped, "random never broke priority in this game");
    }

    #[test]
    fn agents_on_both_seats_deal_again_until_the_match_is_decided() {
        let dir = temp_dir("rb-match");
        let mut app = headless(&dir);
        let (file, path) = level("04-quick-win.ron");
        start(&mut app, file, Some(path), vec![seat("Ann", Some("greedy")), seat("Bob", Some("greedy"))]);
        let deals = |app: &App| app.world().resource::<tabula::app::russian_bank::BankMatch>().deals.len();
        for _ in 0..2000 {
            frames(&mut app, 1);
            if deals(&app) >= 2 {
                break;
            }
        }
        assert!(deals(&app) >= 2, "a second deal was played");
        let points = app.world().resource::<tabula::app::russian_bank::BankMatch>().points();
        assert_eq!(points, [102, 0], "greedy wins the quick win each time, 51 points a deal");
    }

    #[test]
    fn a_decided_match_is_the_headline() {
        use tabula::app::session::Headline;
        let dir = temp_dir("rb-match-headline");
        let mut app = headless(&dir);
        let (file, path) = level("04-quick-win.ron");
        let mut bank = file.get::<RussianBank>().unwrap().clone();
        bank.match_points = 100;
        let file = LevelFile::new::<RussianBank>(bank);
        start(&mut app, file, Some(path), vec![seat("Ann", Some("greedy")), seat("Bob", Some("greedy"))]);
        let headline = |app: &App| app.world().resource::<Headline>().0.clone();
        for _ in 0..3000 {
            frames(&mut app, 1);
            if headline(&app).is_some() {
                break;
            }
        }
        assert_eq!(headline(&app).as_deref(), Some("Ann wins the match 102 to 0"));
        // A new match starts with no headline.
        app.world_mut().write_message(SessionRequest::Restart);
        let (file, path) = level("04-quick-win.ron");
        start(&mut app, file, Some(path), vec![seat("Ann", None), seat("Bob", None)]);
        assert_eq!(headline(&app), None);
    }

    #[test]
    fn a_person_plays_whole_shuffled_games_against_each_agent() {
        for agent in ["random", "greedy", "lookahead"] {
            let dir = temp_dir(&format!("rb-full-{agent}"));
            let mut app = headless(&dir);
            {
                let mut settings = app.world_mut().resource_mut::<tabula::app::settings::Settings>();
                settings.ai_moves_per_second = 30.0;
                settings.animation_speed = 4.0;
            }
            let (file, path) = level("01-shuffled-deal.ron");
            start(&mut app, file, Some(path), vec![seat("John", None), seat("Mary", Some(agent))]);
            let mut moves = Vec::new();
            for _ in 0..60_000 {
                let session = app.world().resource::<Session<RussianBank>>();
                if session.game.outcome().is_some() {
                    break;
                }
                // John plays from what his screen shows, as greedy would.
                if session.human_to_move() == Some(Player::ONE) {
                    let view = session.view();
                    let mv = tabula_engine::russian_bank::ai::greedy_move(&view.0, Player::ONE, &mut moves)
                        .unwrap();
                    app.world_mut().write_message(RequestMove::<RussianBank> { by: Player::ONE, mv });
                }
                frames(&mut app, 1);
            }
            let session = app.world().resource::<Session<RussianBank>>();
            let outcome = session.game.outcome();
            assert!(
                outcome.is_some(),
                "against {agent}: the game did not end ({} moves)",
                session.moves.len()
            );
            assert!(!status(&app).starts_with("Refused"), "against {agent}: {}", status(&app));
            if let Some(Outcome::Win(p)) = outcome {
                let points = app.world().resource::<tabula::app::russian_bank::BankMatch>().points();
                assert!(points[p.index()] >= 30, "against {agent}: the match counted the deal: {points:?}");
            }
        }
    }
}

/// The mirror test: random games played through the window's own request
/// path (agents in the seats, a person's seat driven by keys in Nim), and
/// after every move, once the pieces have landed, the board's entities
/// show exactly what the screen's seat sees.
mod mirror {
    use super::*;
    use tabula::app::session::BoardBusy;
    use tabula::app::settings::Settings;
    use tabula_engine::core::rng_from_seed;
    use tabula_engine::mancala::{Capture, Mancala, MancalaLevel};

    const GAMES: u64 = 200;

    fn quick(app: &mut App) {
        let mut settings = app.world_mut().resource_mut::<Settings>();
        settings.ai_moves_per_second = 30.0;
        settings.animation_speed = 4.0;
    }

    fn settled(app: &App) -> bool {
        app.world().resource::<BoardBusy>().0 == 0
    }

    /// Runs `game` to its end, calling `check` on every settled frame and
    /// `human` when a person is to move; returns how many moves were checked
    /// (each once, right after it was played).
    fn play<G: tabula::app::game::WindowGame>(
        app: &mut App,
        human: impl FnMut(&mut App),
        check: impl FnMut(&mut App, &str),
    ) -> usize {
        play_moves::<G>(app, human, check, 1)
    }

    /// The same, where up to `together` moves may come in one frame (a
    /// Stop comes in the frame of the breach it stops).
    fn play_moves<G: tabula::app::game::WindowGame>(
        app: &mut App,
        mut human: impl FnMut(&mut App),
        mut check: impl FnMut(&mut App, &str),
        together: usize,
    ) -> usize {
        let mut checked = 0;
        for _ in 0..20_000 {
            let (moves, over, to_move) = {
                let session = app.world().resource::<Session<G>>();
                (session.moves.len(), session.game.outcome().is_some(), session.human_to_move())
            };
            if settled(app) {
                if moves > checked {
                    assert!(moves <= checked + together, "{} moves between settled frames", moves - checked);
                    check(app, &format!("after move {moves}"));
                    checked = moves;
                }
                if over {
                    return checked;
                }
                if to_move.is_some() {
                    human(app);
                    continue;
                }
            }
            frames(app, 1);
        }
        panic!("the game did not end");
    }

    fn nim_stones(app: &mut App) -> Vec<u32> {
        let piles = session(app).view().piles().len();
        let mut counts = vec![0; piles];
        for stone in app.world_mut().query::<&Stone>().iter(app.world()) {
            counts[stone.pile] += 1;
        }
        counts
    }

    #[test]
    fn nim_stone_entities_show_every_pile_after_every_move() {
        use tabula::app::nim::{DRAWN_STONES, NimChoice};
        let dir = temp_dir("mirror-nim");
        let mut app = headless(&dir);
        app.add_plugins(bevy::input::InputPlugin);
        quick(&mut app);
        let mut rng = rng_from_seed(5);
        let mut moves = 0;
        for game in 0..GAMES {
            use rand::Rng;
            let piles: Vec<u32> = (0..rng.random_range(1..=4)).map(|_| rng.random_range(1..=9)).collect();
            let ending = if game % 2 == 0 { Ending::Normal } else { Ending::Misere };
            start(
                &mut app,
                nim_level(&piles, ending),
                None,
                vec![seat("John", None), seat("Mary", Some("random"))],
            );
            let mut keys_rng = rng_from_seed(game);
            moves += play::<Nim>(
                &mut app,
                |app| {
                    // John plays a random legal take by keys: rows, digits, Enter.
                    let mut legal = Vec::new();
                    session(app).game.legal_moves(Player::ONE, &mut legal);
                    let take = legal[keys_rng.random_range(0..legal.len())];
                    let n = session(app).game.piles().len();
                    let at = app.world().resource::<NimChoice>().pile;
                    let mut keys = vec![KeyCode::ArrowDown; (take.pile as usize + n - at) % n];
                    keys.extend(take.count.to_string().bytes().map(|d| match d - b'0' {
                        0 => KeyCode::Digit0,
                        1 => KeyCode::Digit1,
                        2 => KeyCode::Digit2,
                        3 => KeyCode::Digit3,
                        4 => KeyCode::Digit4,
                        5 => KeyCode::Digit5,
                        6 => KeyCode::Digit6,
                        7 => KeyCode::Digit7,
                        8 => KeyCode::Digit8,
                        _ => KeyCode::Digit9,
                    }));
                    keys.push(KeyCode::Enter);
                    let before = session(app).moves.len();
                    press(app, &keys);
                    let status = status(app);
                    assert_eq!(
                        session(app).moves.len(),
                        before + 1,
                        "game {game}: John's keys {keys:?} played {take}: {status}"
                    );
                },
                |app, when| {
                    let shown: Vec<u32> =
                        session(app).view().piles().iter().map(|&n| n.min(DRAWN_STONES)).collect();
                    assert_eq!(nim_stones(app), shown, "game {game} {when}");
                },
            );
        }
        assert!(moves > GAMES as usize * 3, "{moves} moves checked");
    }

    fn mancala_stones(app: &mut App) -> Vec<u16> {
        use tabula::app::mancala::Stone as MancalaStone;
        let cells = app.world().resource::<Session<Mancala>>().view().cells().len();
        let mut counts = vec![0; cells];
        for stone in app.world_mut().query::<&MancalaStone>().iter(app.world()) {
            counts[stone.cell] += 1;
        }
        counts
    }

    #[test]
    fn mancala_stone_entities_show_every_pit_and_store_after_every_move() {
        use tabula::app::mancala::Cell;
        let dir = temp_dir("mirror-mancala");
        let mut app = headless(&dir);
        quick(&mut app);
        let mut moves = 0;
        for game in 0..GAMES {
            let (pits, stones) = [(3, 2), (4, 3), (6, 4)][game as usize % 3];
            let capture = [Capture::Standard, Capture::Empty, Capture::None][game as usize / 3 % 3];
            let level = LevelFile::new::<Mancala>(MancalaLevel {
                name: "mirror".into(),
                description: String::new(),
                group: Default::default(),
                pits,
                stones,
                capture,
                sweep: game % 5 != 4,
                move_cap: 2000,
            });
            start(&mut app, level, None, vec![seat("Ann", Some("random")), seat("Bob", Some("random"))]);
            moves += play::<Mancala>(
                &mut app,
                |_| unreachable!("agents in both seats"),
                |app, when| {
                    let cells = app.world().resource::<Session<Mancala>>().view().cells().to_vec();
                    assert_eq!(mancala_stones(app), cells, "game {game} {when}");
                    let drawn = app.world_mut().query::<&Cell>().iter(app.world()).count();
                    assert_eq!(drawn, cells.len(), "one entity a pit or store");
                },
            );
        }
        assert!(moves > GAMES as usize * 5, "{moves} moves checked");
    }

    /// Every robot's tile, facing and hints, and every tile's kind and
    /// place, as the board's entities hold them.
    fn robot_board_matches_the_view(app: &mut App, when: &str) {
        use tabula::app::robots::{BoardTile, Facing, HeldHints, RobotPiece, TileKind, TilePos};
        use tabula_engine::robots::Robots;
        let view = app.world().resource::<Session<Robots>>().view().into_owned();
        let layout = *app.world().resource::<tabula::app::robots::RobotLayout>();
        let robots: Vec<(char, TilePos, Facing, HeldHints)> = app
            .world_mut()
            .query::<(&RobotPiece, &TilePos, &Facing, &HeldHints, &Transform)>()
            .iter(app.world())
            .map(|(piece, at, facing, hints, transform)| {
                // Settled, each robot stands on its tile, its glide over.
                let on = layout.position(at.0);
                assert!(
                    transform.translation.truncate().distance(on) < 0.01,
                    "{when}: robot {} at {transform:?}",
                    piece.0
                );
                (piece.0, *at, *facing, hints.clone())
            })
            .collect();
        assert_eq!(robots.len(), view.robots().len(), "{when}: one entity a robot");
        for (id, at, facing, hints) in robots {
            let robot = view.robot(id).unwrap();
            assert_eq!(
                (at.0, facing.0, &hints.0),
                (robot.at, robot.facing, &robot.hints),
                "{when}: robot {id}"
            );
        }
        let mut tiles: Vec<(TilePos, TileKind)> = app
            .world_mut()
            .query_filtered::<(&TilePos, &TileKind), With<BoardTile>>()
            .iter(app.world())
            .map(|(at, kind)| (*at, *kind))
            .collect();
        assert_eq!(tiles.len(), view.width() as usize * view.height() as usize, "{when}: one entity a tile");
        tiles.sort_by_key(|(at, _)| (at.0.1, at.0.0));
        for (i, (at, kind)) in tiles.iter().enumerate() {
            let p = ((i % view.width() as usize) as u16, (i / view.width() as usize) as u16);
            assert_eq!((at.0, kind.0), (p, view.tile(p)), "{when}: the tile at {p:?}");
        }
    }

    #[test]
    fn robot_board_entities_show_every_robot_and_tile_after_every_move() {
        use tabula_engine::robots::Robots;
        let dir = temp_dir("mirror-robots");
        let mut app = headless(&dir);
        quick(&mut app);
        let root = crate::manifest_dir().join("levels/robots");
        let mut levels: Vec<PathBuf> = (1..=10)
            .map(|n| {
                let prefix = format!("{n:02}-");
                std::fs::read_dir(&root)
                    .unwrap()
                    .map(|e| e.unwrap().path())
                    .find(|p| p.file_name().unwrap().to_string_lossy().starts_with(&prefix))
                    .unwrap()
            })
            .collect();
        levels.sort();
        let (mut moves, mut exchanges) = (0, 0);
        for game in 0..GAMES {
            let file = level::load(&levels[game as usize % levels.len()]).unwrap();
            let mut robots = file.get::<Robots>().unwrap().clone();
            // Short games, with exchanges to spare on every board.
            robots.move_cap = 40;
            robots.swaps = robots.swaps.max(1) * 3;
            let file = LevelFile::new::<Robots>(robots);
            let seats =
                (0..file.game().num_players(&file)).map(|i| seat(&format!("R{i}"), Some("random"))).collect();
            start(&mut app, file, None, seats);
            robot_board_matches_the_view(&mut app, &format!("game {game} at the start"));
            moves += play::<Robots>(
                &mut app,
                |_| unreachable!("agents in every seat"),
                |app, when| {
                    let session = app.world().resource::<Session<Robots>>();
                    let last = session.moves.last().copied();
                    exchanges +=
                        matches!(last, Some(tabula_engine::robots::RobotMove::Exchange { .. })) as usize;
                    robot_board_matches_the_view(app, &format!("game {game} {when}"));
                },
            );
        }
        assert!(
            moves > GAMES as usize * 10 && exchanges > 100,
            "{moves} moves, {exchanges} exchanges checked"
        );
    }

    #[test]
    fn an_exchange_moves_tile_and_robot_entities_and_spawns_none() {
        use tabula::app::robots::{BoardTile, RobotPiece, TilePos};
        use tabula_engine::robots::{RobotMove, Robots};
        let dir = temp_dir("exchange-entities");
        let mut app = headless(&dir);
        quick(&mut app);
        let path = crate::manifest_dir().join("levels/robots/09-swap-puzzle.ron");
        start(&mut app, level::load(&path).unwrap(), None, vec![seat("Ann", None), seat("Bob", None)]);
        let pieces = |app: &mut App| {
            let mut all: Vec<(Entity, (u16, u16))> = app
                .world_mut()
                .query_filtered::<(Entity, &TilePos), Or<(With<BoardTile>, With<RobotPiece>)>>()
                .iter(app.world())
                .map(|(e, at)| (e, at.0))
                .collect();
            all.sort();
            all
        };
        let before = pieces(&mut app);
        // A's tile (0, 0), a plain one, with the conveyor at (0, 2).
        let mv = RobotMove::Exchange { a: (0, 0), b: (0, 2) };
        app.world_mut().write_message(RequestMove::<Robots> { by: Player::ONE, mv });
        for _ in 0..100 {
            frames(&mut app, 1);
            if settled(&app) {
                break;
            }
        }
        assert_eq!(app.world().resource::<Session<Robots>>().moves, [mv]);
        let after = pieces(&mut app);
        let entities = |v: &[(Entity, (u16, u16))]| v.iter().map(|(e, _)| *e).collect::<Vec<_>>();
        assert_eq!(entities(&before), entities(&after), "the same entities, none spawned or despawned");
        let moved: Vec<_> = before.iter().zip(&after).filter(|(b, a)| b.1 != a.1).collect();
        assert!(moved.len() >= 2, "the two tiles (and the robot on one) changed places: {moved:?}");
        robot_board_matches_the_view(&mut app, "after the exchange");
    }

    /// Every card entity on the table shows what the screen's seat sees of
    /// that card: its face, or its back where the seat has not seen it.
    fn table_matches_the_view(app: &mut App, when: &str) {
        use tabula::app::russian_bank::{CardFace, TableCard};
        use tabula_engine::russian_bank::{Card, Place, RussianBank};
        let view = app.world().resource::<Session<RussianBank>>().view().into_owned();
        let table = &view.0;
        let seen = |place: Place| -> Vec<Option<Card>> {
            match place {
                Place::Reserve(p) => {
                    let side = table.side(p);
                    let hidden = side.reserve_hidden as usize;
                    side.reserve
                        .as_slice()
                        .iter()
                        .enumerate()
                        .map(|(i, &c)| (i >= hidden).then_some(c))
                        .collect()
                }
                Place::Hand(p) => vec![None; table.side(p).hand.len()],
                Place::Shown(p) => table.side(p).shown.into_iter().map(Some).collect(),
                Place::Waste(p) => table.side(p).waste.as_slice().iter().map(|&c| Some(c)).collect(),
                Place::Tableau(n) => table.tableau(n as usize - 1).iter().map(|&c| Some(c)).collect(),
                Place::Foundation(n) => table.foundation_pile(n as usize - 1).into_iter().map(Some).collect(),
            }
        };
        let mut drawn: std::collections::HashMap<Place, Vec<(usize, CardFace)>> = Default::default();
        for (card, face, transform) in
            app.world_mut().query::<(&TableCard, &CardFace, &Transform)>().iter(app.world())
        {
            drawn.entry(card.place).or_default().push((card.index, *face));
            // Settled, each card lies where its pile has it, flights over.
            let at = tabula::app::russian_bank::card_position(card.place, card.index);
            assert!(
                transform.translation.truncate().distance(at) < 0.01,
                "{when}: {card:?} lies at {transform:?}"
            );
        }
        let mut places = Vec::new();
        for p in [Player::ONE, Player::TWO] {
            places.extend([Place::Reserve(p), Place::Hand(p), Place::Shown(p), Place::Waste(p)]);
        }
        places.extend((1..=8).flat_map(|n| [Place::Tableau(n), Place::Foundation(n)]));
        for place in places {
            let cards = seen(place);
            let mut shown = drawn.remove(&place).unwrap_or_default();
            shown.sort_by_key(|(i, _)| *i);
            // Every card of every pile is an entity, in its place.
            let indices: Vec<usize> = shown.iter().map(|(i, _)| *i).collect();
            assert_eq!(indices, (0..cards.len()).collect::<Vec<_>>(), "{when}: {place:?}");
            for (i, face) in shown {
                assert_eq!(face, CardFace(cards[i]), "{when}: card {i} of {place:?}");
            }
        }
        assert!(drawn.is_empty(), "{when}: cards on no pile: {drawn:?}");
    }

    #[test]
    fn russian_bank_card_entities_show_every_pile_and_no_hidden_face_after_every_move() {
        use tabula_engine::russian_bank::RussianBank;
        let dir = temp_dir("mirror-bank");
        let mut app = headless(&dir);
        quick(&mut app);
        let path = crate::manifest_dir().join("levels/russian_bank/01-shuffled-deal.ron");
        let file = level::load(&path).unwrap();
        let mut bank = file.get::<RussianBank>().unwrap().clone();
        // Short games: the opening has the reveals, loads, breaches and Stops.
        bank.move_cap = 40;
        let file = LevelFile::new::<RussianBank>(bank);
        let mut moves = 0;
        // The card entities of the first deal are every deal's: no move, Stop
        // or new deal spawns or despawns one.
        let mut first_cards: Option<Vec<Entity>> = None;
        let mut same_cards = move |app: &mut App, when: &str| {
            use tabula::app::russian_bank::TableCard;
            let mut now: Vec<Entity> =
                app.world_mut().query_filtered::<Entity, With<TableCard>>().iter(app.world()).collect();
            now.sort();
            let first = first_cards.get_or_insert_with(|| now.clone());
            assert_eq!(first.len(), 104, "a card entity for each card of two decks");
            assert!(*first == now, "{when}: card entities were spawned or despawned");
            let redealt = app.world().resource::<tabula::app::russian_bank::Redealt>().0;
            assert_eq!(redealt, 0, "{when}: the steps did not account for the table");
        };
        for game in 0..GAMES {
            // Random breaks priority often; greedy stops every breach.
            let (a, b) = if game % 2 == 0 { ("random", "greedy") } else { ("greedy", "random") };
            let plan = SessionPlan {
                level_path: None,
                level: file.clone(),
                seats: vec![seat("Ann", Some(a)), seat("Bob", Some(b))],
                seed: game,
                replay: None,
            };
            app.world_mut().write_message(SessionRequest::Start(Box::new(plan)));
            frames(&mut app, 3);
            table_matches_the_view(&mut app, &format!("game {game} at the start"));
            same_cards(&mut app, &format!("game {game} at the start"));
            moves += play_moves::<RussianBank>(
                &mut app,
                |_| unreachable!("agents in both seats"),
                |app, when| {
                    table_matches_the_view(app, &format!("game {game} {when}"));
                    same_cards(app, &format!("game {game} {when}"));
                },
                2,
            );
        }
        assert!(moves > GAMES as usize * 20, "{moves} moves checked");
    }

    #[test]
    fn an_undo_and_a_move_in_one_frame_leave_the_robot_board_as_the_engine_has_it() {
        use tabula_engine::robots::{RobotMove, Robots};
        let dir = temp_dir("undo-and-move");
        let mut app = headless(&dir);
        quick(&mut app);
        let path = crate::manifest_dir().join("levels/robots/09-swap-puzzle.ron");
        start(&mut app, level::load(&path).unwrap(), None, vec![seat("Ann", None), seat("Bob", None)]);
        // An exchange: followed twice, it would swap the tiles back.
        let step = RobotMove::Exchange { a: (0, 0), b: (0, 2) };
        app.world_mut().write_message(RequestMove::<Robots> { by: Player::ONE, mv: step });
        frames(&mut app, 20);
        // Undo takes Ann's exchange back; the same frame, she makes it again.
        app.world_mut().write_message(SessionRequest::Undo);
        app.world_mut().write_message(RequestMove::<Robots> { by: Player::ONE, mv: step });
        frames(&mut app, 20);
        assert_eq!(app.world().resource::<Session<Robots>>().moves, [step]);
        robot_board_matches_the_view(&mut app, "after an undo and a move in one frame");
    }
}

mod editor {
    use super::robot_board::{board, click, mouse_button, on_screen, point_at, with_mouse};
    use super::*;
    use tabula_engine::robots::Robots;

    /// The level editor driven through its input alone: a drag with the
    /// broken-robot tool paints three tiles as one edit; walling robot A in
    /// lights it and its home and shades where it can go; Ctrl+Z takes it
    /// back; Ctrl+S writes the file, byte for byte the shipped one when the
    /// level is as it was; F5 test-plays and leaving the game comes back to
    /// the editor with its history.
    #[test]
    fn the_editor_paints_checks_undoes_saves_and_test_plays_by_mouse_and_keys() {
        use tabula::app::editor::board::{EditorTile, FindingMark};
        use tabula::app::editor::{Editing, RequestEdit};
        let dir = temp_dir("editor");
        let mut app = with_mouse(&dir);
        app.init_resource::<bevy_egui::input::EguiWantsInput>().add_plugins(tabula::app::editor::plugin);
        let shipped = manifest_dir().join("levels/robots/01-first-steps.ron");
        let path = dir.join("first-steps.ron");
        std::fs::copy(&shipped, &path).unwrap();
        app.world_mut().write_message(RequestEdit(path.clone()));
        frames(&mut app, 4);
        assert_eq!(*app.world().resource::<State<Screen>>().get(), Screen::Editor);
        let layout = app.world().resource::<tabula::app::editor::board::Drawn>().layout;
        let screen_of = |app: &mut App, p: (u16, u16)| on_screen(app, layout.position(p));
        let tiles = |app: &mut App| {
            let mut q = app.world_mut().query::<(&EditorTile, &Sprite)>();
            q.iter(app.world()).map(|(t, s)| (t.0, s.color)).collect::<std::collections::HashMap<_, _>>()
        };
        fn editing(app: &App) -> &Editing {
            app.world().resource::<Editing>()
        }
        // The broken-robot tool (key 3), dragged across row 2 from C to E (y = 4).
        press(&mut app, &[KeyCode::Digit3]);
        let from = screen_of(&mut app, (2, 4));
        point_at(&mut app, from);
        mouse_button(&mut app, MouseButton::Left, bevy::input::ButtonState::Pressed);
        for x in 3..=4 {
            let at = screen_of(&mut app, (x, 4));
            point_at(&mut app, at);
            frames(&mut app, 1);
        }
        mouse_button(&mut app, MouseButton::Left, bevy::input::ButtonState::Released);
        frames(&mut app, 2);
        let row = &editing(&app).level().board[4];
        assert_eq!(&row[2..5], "###", "{row}");
        assert_eq!(editing(&app).history.depth(), (1, 0), "one drag, one edit");
        let drawn = tiles(&mut app);
        assert_ne!(drawn[&(3, 4)], drawn[&(7, 4)], "the painted tile is drawn broken, not as ground");
        assert_eq!(drawn[&(3, 4)], drawn[&(2, 4)]);
        // Robot A at A4 (0, 2) walled in: the engine's finding is drawn.
        for p in [(0, 1), (1, 2), (0, 3)] {
            let at = screen_of(&mut app, p);
            click(&mut app, at);
        }
        frames(&mut app, 3);
        let finding = editing(&app).finding.clone().expect("A cannot reach its home");
        assert_eq!(finding.rule, "unreachable-home");
        let mut marks = app.world_mut().query::<&FindingMark>();
        let lit = marks.iter(app.world()).filter(|m| m.lit).count();
        let shaded = marks.iter(app.world()).filter(|m| !m.lit).count();
        assert_eq!((lit, shaded), (2, 1), "A and its home lit, A's own tile shaded");
        // Ctrl+Z three times: A is free again and nothing is drawn wrong.
        for _ in 0..3 {
            chord(&mut app, &[KeyCode::ControlLeft, KeyCode::KeyZ]);
        }
        frames(&mut app, 3);
        assert!(editing(&app).finding.is_none());
        assert_eq!(app.world_mut().query::<&FindingMark>().iter(app.world()).count(), 0);
        // Undo the drag too and save: the shipped file, byte for byte.
        chord(&mut app, &[KeyCode::ControlLeft, KeyCode::KeyZ]);
        chord(&mut app, &[KeyCode::ControlLeft, KeyCode::KeyS]);
        assert_eq!(std::fs::read(&path).unwrap(), std::fs::read(&shipped).unwrap());
        // Redo the drag, save, and the file is a valid level with it.
        chord(&mut app, &[KeyCode::ControlLeft, KeyCode::KeyY]);
        chord(&mut app, &[KeyCode::ControlLeft, KeyCode::KeyS]);
        let saved = level::load(&path).unwrap();
        assert_eq!(&saved.get::<Robots>().unwrap().board[4][2..5], "###");
        // F5: a game of the level as it stands; leaving it, the editor again.
        press(&mut app, &[KeyCode::F5]);
        frames(&mut app, 3);
        assert_eq!(*app.world().resource::<State<Screen>>().get(), Screen::Game);
        assert_eq!(&board(&app).level.board[4][2..5], "###");
        app.world_mut().write_message(SessionRequest::BackToMenu);
        frames(&mut app, 3);
        assert_eq!(*app.world().resource::<State<Screen>>().get(), Screen::Editor, "back to the editor");
        assert_eq!(editing(&app).history.depth(), (1, 3), "with its history, the walls still to redo");
        // A text editor saves the file: the edit shows in the editor as one
        // more edit, which Ctrl+Z takes back; a broken save changes nothing.
        settle_watcher(&mut app);
        let text = std::fs::read_to_string(&path).unwrap().replace("\"..?.....\"", "\"..?..??.\"");
        std::fs::write(&path, text).unwrap();
        wait_for(&mut app, "the editor follows the file", |app| editing(app).level().board[1] == "..?..??.");
        assert_eq!(editing(&app).history.depth(), (2, 0));
        assert!(!editing(&app).unsaved(), "what the editor shows is what the file holds");
        chord(&mut app, &[KeyCode::ControlLeft, KeyCode::KeyZ]);
        assert_eq!(editing(&app).level().board[1], "..?.....");
        settle_watcher(&mut app);
        std::fs::write(&path, "Robots(name: \"oops\", board: [").unwrap();
        wait_for(&mut app, "a broken save is named", |app| {
            app.world().resource::<StatusLine>().text.contains("cannot be read")
        });
        assert_eq!(editing(&app).level().board[1], "..?.....", "and changes nothing");
        app.world_mut().write_message(SessionRequest::BackToMenu);
    }
}

mod arena {
    use super::*;
    use tabula::app::arena::run::Ending;
    use tabula::app::arena::{Arenas, Live, Phase, Shown, StartArena, tables};
    use tabula::arena::report::{Standings, standings};
    use tabula::arena::store::Store;
    use tabula_engine::arena::Arena;

    /// The window's logic with the Arena screen and the keyboard.
    fn arena_app(dir: &Path) -> App {
        let mut app = headless(dir);
        app.add_plugins(bevy::input::InputPlugin)
            .init_resource::<bevy_egui::input::EguiWantsInput>()
            .add_plugins(tabula::app::arena::plugin);
        app
    }

    /// `arenas/small.ron` copied into `dir` (its levels named from there),
    /// so its database is made beside the copy.
    fn small_arena(dir: &Path) -> PathBuf {
        let text = std::fs::read_to_string(manifest_dir().join("arenas/small.ron")).unwrap();
        let levels = manifest_dir().join("levels");
        let path = dir.join("small.ron");
        std::fs::write(&path, text.replace("\"../levels/", &format!("\"{}/", levels.display()))).unwrap();
        path
    }

    /// The screen opened on `path` as `tabula arena <path> --window` opens
    /// it, on one worker thread (a run of a few seconds, to be seen live).
    fn open(app: &mut App, path: &Path, play: bool) {
        app.insert_resource(StartArena { path: path.to_owned(), db: None, jobs: Some(1), play });
        frames(app, 3);
        assert_eq!(*app.world().resource::<State<Screen>>().get(), Screen::Arena);
    }

    fn shown(app: &App) -> &Shown {
        app.world().resource::<Shown>()
    }

    fn phase(app: &App) -> Phase {
        shown(app).phase.clone()
    }

    const RUN_LIMIT: Duration = Duration::from_secs(300);

    fn ended(app: &App) -> bool {
        matches!(phase(app), Phase::Ended(_))
    }

    /// The arena, and what its database holds rated as the terminal rates
    /// it (`tabula arena --report`).
    fn from_database(path: &Path) -> (Arena, Standings, u64) {
        let arena = Arena::load(path).unwrap();
        let db = tabula::arena::default_db(path, None);
        let store = Store::open_read_only(&db, &tabula::arena::identity(&arena), &arena.agents).unwrap();
        let outcomes = store.outcomes().unwrap();
        let s = standings(&arena, &outcomes);
        (arena, s, outcomes.len() as u64)
    }

    /// What the screen shows is what the database holds: the same ratings,
    /// intervals, crosstable, Weng-Lin ratings and levels.
    fn shows_the_database(app: &App, path: &Path) {
        let (arena, expected, games) = from_database(path);
        let shown = shown(app);
        let standings = shown.standings.as_ref().expect("standings are shown");
        assert_eq!(shown.rated, games);
        assert_eq!(standings.text(&arena), expected.text(&arena));
        assert_eq!(tables::elo_rows(standings), tables::elo_rows(&expected));
        assert_eq!(tables::crosstable(standings), tables::crosstable(&expected));
    }

    /// `tabula arena arenas/small.ron --window`: the run starts at once;
    /// while it plays, the progress and the ratings come in; at its end the
    /// screen shows every game and the standings the database gives.
    #[test]
    fn the_arena_screen_plays_an_arena_live_and_shows_the_standings_of_its_database() {
        let dir = temp_dir("arena-live");
        let path = small_arena(&dir);
        let mut app = arena_app(&dir);
        open(&mut app, &path, true);
        assert_eq!(phase(&app), Phase::Playing);
        let total = Arena::load(&path).unwrap().total_games();
        assert_eq!(total, 360);
        // Seen live: a reading of some games but not all, while they play.
        wait_for_at_most(&mut app, "standings of part of the games", RUN_LIMIT, |app| {
            let s = shown(app);
            (s.rated > 0 && s.rated < total && s.phase == Phase::Playing) || ended(app)
        });
        assert_eq!(phase(&app), Phase::Playing, "the ratings came in before the end");
        let p = shown(&app).progress.clone().expect("a playing run shows its progress");
        assert!(p.done > 0 && p.done < total && p.total == total, "{p:?}");
        assert!(p.per_second > 0.0 && p.left.is_some(), "{p:?}");
        assert!(p.pairing.contains(" vs ") && p.pairing.contains(" on "), "{p:?}");
        wait_for_at_most(&mut app, "the run ends", RUN_LIMIT, ended);
        let Phase::Ended(Ending::Played { played, stopped, .. }) = phase(&app) else {
            panic!("{:?}", phase(&app))
        };
        assert_eq!((played, stopped), (total, false));
        assert_eq!(shown(&app).progress.as_ref().unwrap().done, total);
        shows_the_database(&app, &path);
        let arenas = app.world().resource::<Arenas>();
        assert_eq!(arenas.current().unwrap().held, Ok(total), "the list counts the games again");
        let status = status(&app);
        assert!(status.starts_with("Finished: 360 games played"), "{status}");
        // Leaving and coming back reads the standings from the database.
        press(&mut app, &[KeyCode::Escape]);
        assert_eq!(*app.world().resource::<State<Screen>>().get(), Screen::Menu);
        app.world_mut().resource_mut::<NextState<Screen>>().set(Screen::Arena);
        wait_for_at_most(&mut app, "the database read", RUN_LIMIT, ended);
        assert_eq!(phase(&app), Phase::Ended(Ending::Read));
        shows_the_database(&app, &path);
    }

    /// S stops a run and Esc leaves one: the games played stay in the
    /// database, R resumes them, and the table in the end is the one a
    /// single run of the command line writes, row for row.
    #[test]
    fn a_stopped_run_resumes_to_the_table_of_one_uninterrupted_run() {
        let dir = temp_dir("arena-resume");
        let path = small_arena(&dir);
        let mut app = arena_app(&dir);
        open(&mut app, &path, false);
        assert_eq!(phase(&app), Phase::Idle, "nothing played, nothing to read");
        let held = |app: &App| app.world().resource::<Arenas>().current().unwrap().held.clone();
        assert_eq!(held(&app), Ok(0));
        let total = 360;
        let played_by_now = |app: &App| shown(app).progress.as_ref().map_or(0, |p| p.done);
        // R runs; S stops it after the games being played.
        press(&mut app, &[KeyCode::KeyR]);
        assert_eq!(phase(&app), Phase::Playing);
        wait_for_at_most(&mut app, "some games played", RUN_LIMIT, |app| played_by_now(app) > 0);
        press(&mut app, &[KeyCode::KeyS]);
        wait_for_at_most(&mut app, "the run stops", RUN_LIMIT, ended);
        let Phase::Ended(Ending::Played { played: first, stopped: true, .. }) = phase(&app) else {
            panic!("stopped before the end: {:?}", phase(&app))
        };
        assert!(first > 0 && first < total, "{first}");
        assert_eq!(held(&app), Ok(first), "every game played is in the database");
        assert_eq!(from_database(&path).2, first);
        shows_the_database(&app, &path);
        let status = status(&app);
        assert!(status.starts_with("Stopped:") && status.contains(&format!("{first} of 360")), "{status}");
        // R resumes; Esc leaves mid-run, which stops it too.
        press(&mut app, &[KeyCode::KeyR]);
        assert_eq!(shown(&app).progress.as_ref().unwrap().resumed, first);
        wait_for_at_most(&mut app, "more games played", RUN_LIMIT, |app| played_by_now(app) > first);
        press(&mut app, &[KeyCode::Escape]);
        assert_eq!(*app.world().resource::<State<Screen>>().get(), Screen::Menu);
        assert!(app.world().resource::<Live>().run.is_none());
        wait_for_at_most(&mut app, "the run left behind stops", RUN_LIMIT, |app| {
            app.world().resource::<Live>().stopping.is_empty()
        });
        let second = from_database(&path).2;
        assert!(second > first && second < total, "{first} then {second}");
        // Back on the screen, the list says what is held; R plays the rest.
        app.world_mut().resource_mut::<NextState<Screen>>().set(Screen::Arena);
        frames(&mut app, 2);
        assert_eq!(held(&app), Ok(second));
        press(&mut app, &[KeyCode::KeyR]);
        wait_for_at_most(&mut app, "the rest played", RUN_LIMIT, |app| {
            matches!(phase(app), Phase::Ended(Ending::Played { .. }))
        });
        let Phase::Ended(Ending::Played { played: rest, stopped, .. }) = phase(&app) else { unreachable!() };
        assert_eq!((rest, stopped), (total - second, false));
        shows_the_database(&app, &path);
        // One run of the command line, uninterrupted: the same table.
        let arena = Arena::load(&path).unwrap();
        let straight = dir.join("straight.db");
        let mut store = Store::open(&straight, &tabula::arena::identity(&arena), &arena.agents).unwrap();
        let bar = tabula::arena::progress_bar(total, false);
        tabula::arena::play(&arena, &arena.parts(), &mut store, 2, &bar, None).unwrap();
        let db = tabula::arena::default_db(&path, None);
        let resumed = Store::open_read_only(&db, &tabula::arena::identity(&arena), &arena.agents).unwrap();
        assert_eq!(resumed.outcomes().unwrap(), store.outcomes().unwrap());
    }

    /// A broken arena file and a database of another arena are named on the
    /// screen, and Run says why it cannot; nothing panics.
    #[test]
    fn a_broken_arena_file_or_another_arenas_database_is_named_and_not_run() {
        let dir = temp_dir("arena-errors");
        let broken = dir.join("broken.ron");
        std::fs::write(&broken, "Arena(\n    name: \"oops\",\n    games: 2 2,\n)\n").unwrap();
        let mut app = arena_app(&dir);
        open(&mut app, &broken, true);
        let entry = |app: &App| {
            let arenas = app.world().resource::<Arenas>();
            let e = arenas.current().unwrap();
            (e.path.clone(), e.arena.as_ref().err().cloned(), e.held.clone())
        };
        let (shown_path, error, _) = entry(&app);
        assert_eq!(shown_path, broken, "the opened file is listed and chosen");
        let error = error.expect("the file is broken");
        let at = error.find("broken.ron:3:").expect("file and line");
        let column = &error[at + "broken.ron:3:".len()..];
        assert!(column.starts_with(|c: char| c.is_ascii_digit()), "and column: {error}");
        let status = app.world().resource::<StatusLine>().clone();
        assert!(status.error && status.text.starts_with("Cannot run it"), "{status:?}");
        assert_eq!(phase(&app), Phase::Idle);
        assert!(!tabula::arena::default_db(&broken, None).exists(), "no database is made for it");

        let path = small_arena(&dir);
        let db = tabula::arena::default_db(&path, None);
        Store::open(&db, "another arena", &["x".to_owned()]).unwrap();
        let mut app = arena_app(&dir);
        open(&mut app, &path, true);
        let (_, error, held) = entry(&app);
        assert_eq!(error, None);
        let held = held.expect_err("the database is another arena's");
        assert!(held.contains("holds the games of another arena"), "{held}");
        let status = app.world().resource::<StatusLine>().clone();
        assert!(status.error && status.text.contains("another arena"), "{status:?}");
        assert_eq!(phase(&app), Phase::Idle);
    }

    /// `tabula arena <file> --window` reads the arena first and opens the
    /// window on it: without a display it says so; with a shard (a part for
    /// the command line) it is refused before.
    #[test]
    fn tabula_arena_window_opens_the_window_or_says_why_not() {
        let run = |args: &[&str]| {
            std::process::Command::new(env!("CARGO_BIN_EXE_tabula"))
                .args(args)
                .current_dir(manifest_dir())
                .env_remove("DISPLAY")
                .env_remove("WAYLAND_DISPLAY")
                .output()
                .expect("tabula runs")
        };
        let err = |out: &std::process::Output| String::from_utf8_lossy(&out.stderr).into_owned();
        let no_display = run(&["arena", "arenas/small.ron", "--window"]);
        assert_eq!(no_display.status.code(), Some(1));
        assert!(err(&no_display).contains("DISPLAY is not set"), "{}", err(&no_display));
        let sharded = run(&["arena", "arenas/small.ron", "--window", "--shard", "1/2"]);
        assert!(err(&sharded).contains("cannot be used with"), "{}", err(&sharded));
        let missing = run(&["arena", "arenas/no-such-arena.ron", "--window"]);
        assert!(err(&missing).contains("no-such-arena.ron"), "{}", err(&missing));
        assert!(!err(&missing).contains("panicked"));
    }
}
