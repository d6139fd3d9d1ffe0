//! The length rules, over every production source of the checkout (`src/`
//! and each crate's `src/`, tests aside): no function longer than 80
//! lines, counted from the line with `fn` to its closing brace, and no file
//! longer than 1,000 lines outside its tests. A longer function is
//! split into helpers whose names say what each part does; a longer file
//! into modules by meaning. This reads the sources as text and links no
//! game code; it lives in the engine's package so that it builds in
//! seconds.

mod source;

use std::path::{Path, PathBuf};

use source::{code, functions, is_test_file, lines_outside_tests, root, rust_files, without_tests};

/// Lines a function may have.
const FUNCTION: usize = 80;
/// Lines outside its tests a file may have.
const FILE: usize = 1000;
/// What is over the rules today, to be split (issue 40), by path and
/// function: the list may only shrink, and a name left on it once split
/// fails the test too, so that it is taken off.
const NOT_YET_SPLIT: &[&str] = &[];

/// Every production source: `src/` and each crate's `src/`, files of
/// tests aside.
fn production(root: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    rust_files(&root.join("src"), &mut files);
    let mut crates: Vec<PathBuf> =
        std::fs::read_dir(root.join("crates")).unwrap().map(|e| e.unwrap().path().join("src")).collect();
    crates.sort();
    for dir in crates.into_iter().filter(|d| d.is_dir()) {
        rust_files(&dir, &mut files);
    }
    files.retain(|f| !is_test_file(f));
    assert!(files.len() > 50, "the sources were found under {}", root.display());
    files
}

/// The file's code outside its tests.
fn production_code(path: &Path) -> String {
    without_tests(&code(&std::fs::read_to_string(path).unwrap()))
}

fn shown(root: &Path, path: &Path) -> String {
    path.strip_prefix(root).unwrap_or(path).display().to_string()
}

/// The functions longer than `limit`, as `path name` and where
/// (`path:line name (n lines)`).
fn too_long(root: &Path, files: &[PathBuf], limit: usize) -> Vec<(String, String)> {
    let mut long = Vec::new();
    for path in files {
        for (name, line, lines) in functions(&production_code(path)) {
            if lines > limit {
                let path = shown(root, path);
                long.push((format!("{path} {name}"), format!("{path}:{line} {name} ({lines} lines)")));
            }
        }
    }
    long
}

/// Fails on anything over a rule and not on the list, and on anything on
/// the list no longer over it.
fn only_the_known(rule: &str, over: Vec<(String, String)>) {
    let new: Vec<&str> = over
        .iter()
        .filter(|(key, _)| !NOT_YET_SPLIT.contains(&key.as_str()))
        .map(|(_, at)| at.as_str())
        .collect();
    assert!(new.is_empty(), "{rule} (split them by meaning):\n{}", new.join("\n"));
    let files = rule.starts_with("files");
    let split: Vec<&str> = NOT_YET_SPLIT
        .iter()
        .copied()
        .filter(|key| key.ends_with(".rs") == files && !over.iter().any(|(k, _)| k == key))
        .collect();
    assert!(split.is_empty(), "split now, take them off NOT_YET_SPLIT: {split:?}");
}

#[test]
fn no_production_function_is_over_80_lines() {
    let root = root();
    only_the_known(
        &format!("functions over {FUNCTION} lines"),
        too_long(&root, &production(&root), FUNCTION),
    );
}

#[test]
fn no_production_file_is_over_1000_lines() {
    let root = root();
    let long = production(&root)
        .iter()
        .map(|path| (shown(&root, path), lines_outside_tests(&std::fs::read_to_string(path).unwrap())))
        .filter(|&(_, n)| n > FILE)
        .map(|(path, n)| (path.clone(), format!("{path} ({n} lines outside its tests)")))
        .collect();
    only_the_known(&format!("files over {FILE} lines"), long);
}

#[test]
fn tests_and_comments_are_not_counted() {
    let text = "\
/// A comment
fn kept() {
    // another
    let s = \"
    \";
}

#[cfg(test)]
mod tests {
    fn long() {
    }
}
";
    assert_eq!(lines_outside_tests(text), 7);
    assert_eq!(functions(&without_tests(&code(text))), vec![("kept".to_owned(), 2, 5)]);
}

#[test]
fn lines_are_counted_from_fn_to_the_closing_brace() {
    let text = "\
/// fn not_code() {
pub(super) fn shown(
    a: [u8; 2],
) -> Result {
    let s = \"} fn in_a_string() {\";
    let c = '}';
    let f: fn(u8) = drop;
    /* } /* nested } */ */
    Ok(())
}
fn declared();
";
    let found = functions(&code(text));
    assert_eq!(found, vec![("shown".to_owned(), 2, 9)]);
}
