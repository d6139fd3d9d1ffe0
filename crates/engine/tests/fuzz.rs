//! The files a user writes, broken on purpose: every shipped level, recorded
//! playthrough and arena, cut short or mid-token, with lines swapped, lost
//! or doubled, numbers made extreme, characters changed, and garbage (see
//! tests/common/mutate.rs), each read as tabula reads it. Nothing may panic
//! (the tests build the engine with overflow checks), and a file refused
//! is named in the error. Seeded, so a failure comes back the same.

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::{Path, PathBuf};

use rand::SeedableRng;
use rand::rngs::StdRng;
use tabula_engine::arena::Arena;
use tabula_engine::games;
use tabula_engine::level::{self, LevelFile};

#[path = "../../../tests/common/mutate.rs"]
mod mutate;

/// Variants of each file.
const VARIANTS: usize = 60;

/// The workspace's folder, as cargo tells the running test (see
/// tests/imports.rs for why not at compile time).
fn workspace() -> PathBuf {
    let engine: PathBuf =
        std::env::var_os("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR for tests").into();
    engine.join("../..")
}

fn ron_files(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "ron"))
        .collect();
    files.sort();
    files
}

/// Numbers of each file made extreme one by one (the first of them: a
/// replay's moves are many).
const NUMBERS: usize = 16;

/// Runs `read` on every variant of `text`; a panic is reported with the
/// variant that caused it.
fn each_variant(name: &Path, text: &str, rng: &mut StdRng, read: &mut dyn FnMut(&str) -> Result<(), String>) {
    let variants = mutate::variants(text, rng, VARIANTS);
    for variant in variants.into_iter().chain(mutate::extreme_numbers(text, NUMBERS)) {
        let result = catch_unwind(AssertUnwindSafe(|| read(&variant.text)));
        match result {
            Ok(Ok(())) => {}
            Ok(Err(refusal)) => {
                assert!(!refusal.is_empty(), "{} ({}): an empty refusal", name.display(), variant.what);
            }
            Err(_) => panic!("{} ({}) panicked; the text:\n{}", name.display(), variant.what, variant.text),
        }
    }
}

/// What the tools do with a level that loads: count its seats, describe
/// it, write it out and play each first move.
fn use_level(level: &LevelFile) {
    let game = level.game();
    assert!(game.num_players(level) >= 1);
    level.summary();
    level.layout();
    game.perft(level, 1);
}

#[test]
fn broken_levels_are_refused_by_name_and_never_panic() {
    let mut rng = StdRng::seed_from_u64(26);
    let mut files = 0;
    for game in games::all() {
        for path in ron_files(&workspace().join("levels").join(game.folder())) {
            let text = std::fs::read_to_string(&path).unwrap();
            let file = path.display().to_string();
            each_variant(&path, &text, &mut rng, &mut |text| match level::parse(text, &file) {
                Ok(level) => {
                    use_level(&level);
                    Ok(())
                }
                Err(e) => {
                    let e = e.to_string();
                    assert!(e.starts_with(&file), "the file is named: {e}");
                    Err(e)
                }
            });
            files += 1;
        }
    }
    assert!(files >= 30, "found only {files} levels");
}

/// Each recorded playthrough with its level's path made absolute (so the
/// replay reads from anywhere), and again with the level inline.
fn playthroughs() -> Vec<(PathBuf, String)> {
    let levels = workspace().join("levels");
    let mut out = Vec::new();
    for path in ron_files(&workspace().join("tests/playthroughs")) {
        let text = std::fs::read_to_string(&path).unwrap();
        let text = text.replace("Path(\"../../levels/", &format!("Path(\"{}/", levels.display()));
        let start = text.find("Path(").unwrap();
        let end = start + text[start..].find(')').unwrap() + 1;
        let level_path = &text[start + "Path(\"".len()..end - "\")".len()];
        let level = level::load(Path::new(level_path)).unwrap();
        let inline = format!("{}Inline({}){}", &text[..start], level.layout().trim_end(), &text[end..]);
        out.push((path.clone(), text));
        out.push((path.with_extension("inline.ron"), inline));
    }
    assert!(out.len() >= 10, "found only {} playthroughs", out.len() / 2);
    out
}

#[test]
fn broken_replays_are_refused_by_name_and_never_panic() {
    // Read as if from here: the levels' paths are absolute.
    let file = std::env::temp_dir().join("replay.ron");
    let name = file.display().to_string();
    let mut rng = StdRng::seed_from_u64(26);
    let mut refused_moves = 0;
    for (path, text) in playthroughs() {
        games::replay_text(&text, &file, &mut |_| {}).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        each_variant(
            &path,
            &text,
            &mut rng,
            &mut |text| match games::replay_text(text, &file, &mut |_| {}) {
                Ok(_) => Ok(()),
                Err(e) => {
                    let e = e.to_string();
                    assert!(e.starts_with(&name), "the replay is named: {e}");
                    if e.contains(": move ") && e.contains("was refused") {
                        refused_moves += 1;
                    }
                    Err(e)
                }
            },
        );
    }
    assert!(refused_moves > 0, "some variants are refused for a move, by its number");
}

#[test]
fn broken_arenas_are_refused_by_name_and_never_panic() {
    let dir = workspace().join("arenas");
    let mut rng = StdRng::seed_from_u64(26);
    let mut played = 0;
    for path in ron_files(&dir) {
        let text = std::fs::read_to_string(&path).unwrap();
        let file = path.display().to_string();
        each_variant(&path, &text, &mut rng, &mut |text| {
            match Arena::parse(text, &file, |name| level::load(&dir.join(name))) {
                Ok(arena) => {
                    // What the runner asks of an arena: every game, in parts
                    // and in shards, numbered.
                    let total = arena.total_games();
                    let parts = arena.parts();
                    assert_eq!(parts.iter().map(|p| p.games.end - p.games.start).sum::<u64>(), total);
                    arena.shard(0, 3);
                    arena.shard(u64::MAX - 1, u64::MAX);
                    for part in &parts {
                        arena.pairing_seed(part.level, part.pairing);
                    }
                    played += 1;
                    Ok(())
                }
                Err(e) => {
                    let e = e.to_string();
                    assert!(e.starts_with(&file), "the arena is named: {e}");
                    Err(e)
                }
            }
        });
    }
    assert!(played > 0, "some variants still make an arena");
}
