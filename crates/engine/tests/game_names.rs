//! A game is one folder and one line: outside its engine folder
//! (`crates/engine/src/<game>/`) and its window folder (`src/app/<game>/`),
//! a game's name appears in at most three source files (the engine's
//! `lib.rs` and catalog, and the window's list of games), tests aside.
//! Everything else asks the catalog, so a fifth game needs no edit there,
//! nor in the game server (`crates/server/src`).
//! This reads the sources as text; it lives in the engine's package so that
//! it builds in seconds.

mod source;

use std::path::Path;

use source::{is_test_file, root, rust_files};

/// The games, by their folder, and the words that name them.
const GAMES: [(&str, &[&str]); 4] = [
    ("nim", &["Nim", "nim"]),
    ("mancala", &["Mancala", "mancala", "Kalah", "kalah"]),
    ("robots", &["Robots", "robots", "Robot board"]),
    ("russian_bank", &["RussianBank", "russian_bank", "Russian Bank"]),
];

/// Files that may name every game.
const ALLOWED: usize = 3;

/// A file's text before its test module (tests sit at the end of a file),
/// or nothing for a file of tests.
fn outside_tests(path: &Path) -> String {
    if is_test_file(path) {
        return String::new();
    }
    let text = std::fs::read_to_string(path).unwrap();
    match text.find("\n#[cfg(test)]") {
        Some(at) => text[..at].to_owned(),
        None => text,
    }
}

/// `word` stands in `text` as a word of its own (so "animation" does not
/// name Nim).
fn names(text: &str, word: &str) -> bool {
    text.match_indices(word).any(|(at, _)| {
        let before = text[..at].chars().next_back();
        let after = text[at + word.len()..].chars().next();
        let part_of_word = |c: Option<char>| c.is_some_and(|c| c.is_alphanumeric());
        !part_of_word(before) && !part_of_word(after)
    })
}

/// The files outside its folders that name each game.
fn naming_files(root: &Path) -> Vec<(&'static str, Vec<String>)> {
    let mut files = Vec::new();
    rust_files(&root.join("src"), &mut files);
    rust_files(&root.join("crates/engine/src"), &mut files);
    // The server hosts any registered game and names none.
    if root.join("crates/server/src").exists() {
        rust_files(&root.join("crates/server/src"), &mut files);
    }
    GAMES
        .iter()
        .map(|&(folder, words)| {
            let own = [root.join("src/app").join(folder), root.join("crates/engine/src").join(folder)];
            let naming = files
                .iter()
                .filter(|f| !own.iter().any(|o| f.starts_with(o)))
                .filter(|f| {
                    let text = outside_tests(f);
                    words.iter().any(|w| names(&text, w))
                })
                .map(|f| f.strip_prefix(root).unwrap().display().to_string())
                .collect();
            (folder, naming)
        })
        .collect()
}

#[test]
fn a_game_is_named_outside_its_folders_in_at_most_three_files() {
    for (game, files) in naming_files(&root()) {
        assert!(
            files.len() <= ALLOWED,
            "{game} is named outside its folders in {} files: {files:#?}",
            files.len()
        );
    }
}

#[test]
fn a_name_is_a_word_of_its_own() {
    assert!(names("the Nim board", "Nim"));
    assert!(names("(nim)", "nim"));
    assert!(!names("an animation", "nim"));
    assert!(!names("Nimble", "Nim"));
}

#[test]
fn a_game_named_in_a_fourth_file_is_found() {
    let dir = std::env::temp_dir().join(format!("tabula-game-names-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    for folder in ["src/app/nim", "crates/engine/src/nim"] {
        std::fs::create_dir_all(dir.join(folder)).unwrap();
    }
    std::fs::write(dir.join("src/app/nim/mod.rs"), "// Nim's own folder: not counted\n").unwrap();
    std::fs::write(dir.join("src/menu.rs"), "// the Nim picture\n").unwrap();
    std::fs::write(dir.join("src/tested.rs"), "fn f() {}\n#[cfg(test)]\nmod tests { /* Nim */ }\n").unwrap();
    let found = naming_files(&dir);
    assert_eq!(found[0], ("nim", vec!["src/menu.rs".to_owned()]));
    std::fs::remove_dir_all(&dir).unwrap();
}
