//! Every shipped level, loaded as the window loads it.

use super::*;

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
