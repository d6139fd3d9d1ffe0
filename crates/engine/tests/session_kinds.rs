//! A session's kind is one type (`app::session::SessionKind`: played here,
//! a replay, a seat at a server's table, watching one), and the screens ask
//! it what they may offer, never which kind it is. So outside `online/`
//! and `session/`, no file of the window names online play: no game
//! folder, no panel, no key or question. The menu, where a person chooses
//! to play online, and the two files that wire the parts together are the
//! only others that may.
//! This reads the sources as text; it lives in the engine's package so that
//! it builds in seconds.

mod source;

use std::path::Path;

use source::{code, is_test_file, root, rust_files, without_tests};

/// Where online play lives, and where it is chosen and wired in.
const KNOWING: [&str; 5] =
    ["src/app/online/", "src/app/session/", "src/app/menu/", "src/app/mod.rs", "src/app/registry.rs"];

/// The words of `code` that name online play: an identifier with "online"
/// in it, or the server's crate or session kinds.
fn online_words(code: &str) -> Vec<String> {
    let mut found = Vec::new();
    let words = code.split(|c: char| !(c.is_alphanumeric() || c == '_')).filter(|w| !w.is_empty());
    for word in words {
        let lower = word.to_lowercase();
        let names = lower.contains("online")
            || lower.contains("at_server")
            || lower == "atserver"
            || lower.starts_with("tabula_server");
        if names && !found.iter().any(|f| f == word) {
            found.push(word.to_owned());
        }
    }
    found
}

/// Each file of the window outside where online play may be known, with
/// the words in its code (outside tests and comments) that name it.
fn naming_files(root: &Path) -> Vec<(String, Vec<String>)> {
    let mut files = Vec::new();
    rust_files(&root.join("src/app"), &mut files);
    let mut naming = Vec::new();
    for path in files {
        let rel = path.strip_prefix(root).unwrap().to_string_lossy().replace('\\', "/");
        if is_test_file(&path) || KNOWING.iter().any(|k| rel.starts_with(k)) {
            continue;
        }
        let words = online_words(&without_tests(&code(&std::fs::read_to_string(&path).unwrap())));
        if !words.is_empty() {
            naming.push((rel, words));
        }
    }
    naming
}

#[test]
fn no_game_folder_or_panel_knows_online_play_exists() {
    let naming = naming_files(&root());
    assert!(
        naming.is_empty(),
        "these files name online play; ask the session's kind (`session.kind.plays_here()`, \
         `may_teach()`, `again()`…), or draw what the table tells the panels (`TableNews`), \
         instead: {naming:?}"
    );
}

#[test]
fn online_words_are_found_in_code_and_not_elsewhere() {
    assert_eq!(online_words("if session.online { OnlineTable::x() }"), ["online", "OnlineTable"]);
    assert_eq!(online_words("SessionKind::AtServer; kind.at_server()"), ["AtServer", "at_server"]);
    assert!(online_words("session.kind.plays_here() && asset_server.load()").is_empty());
    // Comments and strings are blanked before the words are read.
    assert!(online_words(&code("// at a server's table, online\nlet s = \"online\";")).is_empty());
}
