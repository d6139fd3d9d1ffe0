//! Every finished game is saved as a replay (unless the settings say no);
//! the browser lists the latest first; saving again says where it went.

use super::*;
use tabula::app::session::{ReplaysFolder, SessionKind, newest_first};
use tabula::app::settings::Settings;

fn replays(app: &App) -> Vec<PathBuf> {
    newest_first(&app.world().resource::<ReplaysFolder>().0)
}

fn nim_for_two(app: &mut App) {
    start(app, nim_level(&[1, 2], Ending::Normal), None, vec![seat("Ann", None), seat("Bob", None)]);
}

#[test]
fn a_finished_game_is_saved_once_and_opens_as_its_replay() {
    let dir = temp_dir("saved-finished");
    let mut app = headless(&dir);
    nim_for_two(&mut app);
    request(&mut app, 0, 1, 2);
    assert!(replays(&app).is_empty(), "nothing is saved while the game is on");
    request(&mut app, 1, 0, 1);
    assert!(session(&app).game.outcome().is_some());
    let saved = replays(&app);
    assert_eq!(saved.len(), 1, "{saved:?}");
    assert!(status(&app).contains("saved as the replay"), "{}", status(&app));
    // Saving by hand now says where the game already is.
    app.world_mut().write_message(SessionRequest::SaveReplay);
    frames(&mut app, 1);
    assert!(status(&app).starts_with("Saved already"), "{}", status(&app));
    assert_eq!(replays(&app).len(), 1);
    // The file is the game: opened, it replays both moves.
    app.world_mut().write_message(SessionRequest::OpenReplay(saved[0].clone()));
    frames(&mut app, 3);
    assert_eq!(session(&app).kind, SessionKind::Replay);
    assert_eq!(session(&app).redo.len(), 2);
}

#[test]
fn with_the_setting_off_no_game_is_saved_and_the_latest_is_listed_first() {
    let dir = temp_dir("saved-off");
    let mut app = headless(&dir);
    app.world_mut().resource_mut::<Settings>().save_finished_games = false;
    nim_for_two(&mut app);
    request(&mut app, 0, 1, 2);
    request(&mut app, 1, 0, 1);
    assert!(session(&app).game.outcome().is_some());
    assert!(replays(&app).is_empty(), "the setting is off");
    // Two files saved a moment apart: the later is first, whatever the names.
    let folder = app.world().resource::<ReplaysFolder>().0.clone();
    std::fs::create_dir_all(&folder).unwrap();
    std::fs::write(folder.join("zz-older.ron"), "x").unwrap();
    std::thread::sleep(std::time::Duration::from_millis(20));
    std::fs::write(folder.join("aa-newer.ron"), "x").unwrap();
    let names: Vec<String> =
        replays(&app).iter().map(|p| p.file_name().unwrap().to_string_lossy().into_owned()).collect();
    assert_eq!(names, ["aa-newer.ron", "zz-older.ron"]);
}
