use super::*;
use tabula::app::arena_screen::run::Ending;
use tabula::app::arena_screen::{Arenas, Live, Phase, Shown, StartArena, tables};
use tabula::arena_run::report::{Standings, standings};
use tabula::arena_run::store::Store;
use tabula_engine::arena::Arena;

/// The window's logic with the Arena screen and the keyboard.
fn arena_app(dir: &Path) -> App {
    let mut app = headless(dir);
    app.add_plugins(bevy::input::InputPlugin)
        .init_resource::<bevy_egui::input::EguiWantsInput>()
        .add_plugins(tabula::app::arena_screen::plugin);
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
    let db = tabula::arena_run::default_db(path, None);
    let store = Store::open_read_only(&db, &tabula::arena_run::identity(&arena), &arena.agents).unwrap();
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
    let mut store = Store::open(&straight, &tabula::arena_run::identity(&arena), &arena.agents).unwrap();
    let bar = tabula::arena_run::progress_bar(total, false);
    tabula::arena_run::play(&arena, &arena.parts(), &mut store, 2, &bar, None).unwrap();
    let db = tabula::arena_run::default_db(&path, None);
    let resumed = Store::open_read_only(&db, &tabula::arena_run::identity(&arena), &arena.agents).unwrap();
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
    assert!(!tabula::arena_run::default_db(&broken, None).exists(), "no database is made for it");

    let path = small_arena(&dir);
    let db = tabula::arena_run::default_db(&path, None);
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
