//! Settings saved and read back, and the sounds of moves.

use super::*;

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

/// A panel that binds a slider to the settings marks them changed every
/// frame it draws: a change is written all the same once the values rest.
#[test]
fn settings_touched_every_frame_but_unchanged_are_still_saved() {
    use tabula::app::settings::{Settings, load};
    let dir = temp_dir("settings-touched");
    let mut app = headless(&dir);
    let file = dir.join("settings.ron");
    app.world_mut().resource_mut::<Settings>().sound = false;
    for _ in 0..12 {
        app.world_mut().resource_mut::<Settings>().set_changed();
        frames(&mut app, 1);
    }
    assert!(!load(&file).sound, "written within 0.6 s though touched every frame");
}

/// The menu opens on the level of the last game started: it is in the
/// settings file half a second later, as every setting is.
#[test]
fn the_last_level_played_is_kept_in_the_settings() {
    use tabula::app::settings::{Settings, load};
    let dir = temp_dir("settings-last-level");
    let mut app = headless(&dir);
    let file = dir.join("settings.ron");
    let path = dir.join("two-piles.ron");
    start(
        &mut app,
        nim_level(&[1, 2], Ending::Normal),
        Some(path.clone()),
        vec![seat("Ann", None), seat("Bob", None)],
    );
    assert_eq!(app.world().resource::<Settings>().last_level.as_deref(), Some(path.as_path()));
    frames(&mut app, 12); // 0.6 s of game time
    assert_eq!(load(&file).last_level, Some(path), "on disk within a second");
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

/// A setting changed in a process killed without a clean exit (SIGKILL, as
/// a crash or a power cut ends it) is found by the next one on start: it
/// was written within a second of the change, whole.
#[test]
fn settings_survive_a_process_killed_without_a_clean_exit() {
    use std::process::{Command, Stdio};
    use std::time::Instant;
    use tabula::app::settings::Settings;
    const CHILD: &str = "TABULA_TEST_SETTINGS_CHILD";
    if let Some(dir) = std::env::var_os(CHILD) {
        // The child: a change, then frames as the window draws them, until
        // killed (or a minute, should the parent be gone).
        let mut app = headless(Path::new(&dir));
        app.world_mut().resource_mut::<Settings>().sound = false;
        app.world_mut().resource_mut::<Settings>().volume = 0.25;
        for _ in 0..1200 {
            frames(&mut app, 1);
            std::thread::sleep(FRAME);
        }
        return;
    }
    let dir = temp_dir("settings-killed");
    let file = dir.join("settings.ron");
    let mut child = Command::new(std::env::current_exe().unwrap())
        .args(["--exact", "settings_and_sound::settings_survive_a_process_killed_without_a_clean_exit"])
        .args(["--nocapture", "--test-threads=1"])
        .env(CHILD, &dir)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let started = Instant::now();
    while !file.exists() && started.elapsed() < Duration::from_secs(20) {
        std::thread::sleep(Duration::from_millis(20));
    }
    let written = started.elapsed();
    child.kill().unwrap(); // SIGKILL: no exit code of its own runs
    child.wait().unwrap();
    assert!(file.exists(), "the change reached the disk before the kill ({written:?})");
    let next = headless(&dir);
    let settings = next.world().resource::<Settings>();
    assert!(!settings.sound, "the next start finds the sound off");
    assert_eq!(settings.volume, 0.25);
}
