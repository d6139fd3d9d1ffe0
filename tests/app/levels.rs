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

/// The levels of `folder` as the menu lists them, once all have loaded.
fn library_entries(app: &mut App, folder: &str) -> Vec<tabula::app::levels::library::LevelEntry> {
    use tabula::app::levels::LevelAsset;
    use tabula::app::levels::library::LevelLibrary;
    let entries = |app: &mut App| {
        let world = app.world_mut();
        world.resource_scope(|world, mut library: Mut<LevelLibrary>| {
            let (server, sources) = (world.resource::<AssetServer>(), world.resource::<LevelSources>());
            library.scan(server, sources, folder);
            library.entries(sources, folder, world.resource::<Assets<LevelAsset>>(), server)
        })
    };
    let start = std::time::Instant::now();
    loop {
        if let Some(listed) = entries(app) {
            return listed;
        }
        assert!(start.elapsed() < Duration::from_secs(10), "the levels of {folder} never all loaded");
        frames(app, 1);
        std::thread::sleep(Duration::from_millis(5));
    }
}

/// A player's own levels (their data folder) are listed after the shipped
/// ones, marked as theirs; one written later is listed on the next look.
#[test]
fn the_library_lists_the_players_own_levels_after_the_shipped_ones_as_theirs() {
    use tabula::app::levels::library::levels_root;
    let dir = temp_dir("players-levels");
    let mine = dir.join("mine");
    std::fs::create_dir_all(mine.join("nim")).unwrap();
    let level =
        |name: &str| format!("Nim(name: \"{name}\", description: \"Mine.\", piles: [1, 2], ending: Normal)");
    std::fs::write(mine.join("nim/my-piles.ron"), level("My piles")).unwrap();
    let sources = LevelSources::with_player(&levels_root(), Some(&mine), None);
    let mut app = headless_from(sources, &dir, |_| {});
    let names = |listed: &[tabula::app::levels::library::LevelEntry]| -> Vec<(String, bool)> {
        listed
            .iter()
            .map(|l| (l.level.as_ref().map(|l| l.name().to_owned()).unwrap_or_default(), l.mine))
            .collect()
    };
    let listed = names(&library_entries(&mut app, "nim"));
    let shipped = ron_files_in_count(&levels_root().join("nim"));
    assert_eq!(listed.len(), shipped + 1, "{listed:?}");
    assert!(listed[..shipped].iter().all(|(_, mine)| !mine), "the shipped first: {listed:?}");
    assert_eq!(listed[shipped], ("My piles".to_owned(), true), "then the player's, marked");
    std::fs::write(mine.join("nim/another.ron"), level("Another of mine")).unwrap();
    let listed = names(&library_entries(&mut app, "nim"));
    assert_eq!(listed[shipped..], [("Another of mine".to_owned(), true), ("My piles".to_owned(), true)]);
}

fn ron_files_in_count(dir: &Path) -> usize {
    tabula::app::levels::library::ron_files_in(dir).len()
}
