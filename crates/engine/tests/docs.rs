//! The docs stay true to the repository: every relative link in README.md
//! and docs/ leads to a file (and a link to `page.md#part` to a heading of
//! that page), the README stays a front door of at most 200 lines, and
//! docs/architecture.md's tree names every folder and file of the sources,
//! and nothing that is gone.
//!
//! This reads text only and links no game code; it lives in the engine's
//! package so that it builds in seconds.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// The repository's root. The package's folder is asked of cargo at run
/// time: a test binary built by another checkout sharing the target folder
/// still reads this checkout's files (see tests/imports.rs).
fn root() -> PathBuf {
    let manifest: PathBuf =
        std::env::var_os("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR for tests").into();
    manifest.join("../..")
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()))
}

/// README.md and every `.md` file under docs/, relative to the root.
fn pages(root: &Path) -> Vec<PathBuf> {
    fn walk(root: &Path, dir: &Path, out: &mut Vec<PathBuf>) {
        let mut entries: Vec<_> = std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().path()).collect();
        entries.sort();
        for path in entries {
            if path.is_dir() {
                walk(root, &path, out);
            } else if path.extension().is_some_and(|e| e == "md") {
                out.push(path.strip_prefix(root).unwrap().to_owned());
            }
        }
    }
    let mut out = vec![PathBuf::from("README.md")];
    walk(root, &root.join("docs"), &mut out);
    out
}

/// The lines of a page that are prose: fenced code blocks are left out
/// (a RON example is not a link), and so are inline code spans.
fn prose(text: &str) -> Vec<(usize, String)> {
    let mut fenced = false;
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
            continue;
        }
        if fenced {
            continue;
        }
        let mut kept = String::new();
        for (k, part) in line.split('`').enumerate() {
            if k % 2 == 0 {
                kept.push_str(part);
            }
        }
        out.push((i + 1, kept));
    }
    out
}

/// The targets of `[text](target)`, `![alt](target)` and `[label]: target`
/// on a line of prose, titles (`"..."`) left off.
fn link_targets(line: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = line;
    while let Some(at) = rest.find("](") {
        let after = &rest[at + 2..];
        let end = after.find(')').unwrap_or(after.len());
        let target = after[..end].split_whitespace().next().unwrap_or("");
        out.push(target.trim_start_matches('<').trim_end_matches('>').to_owned());
        rest = &after[end..];
    }
    let trimmed = line.trim_start();
    if trimmed.starts_with('[')
        && let Some(close) = trimmed.find("]:")
        && let Some(target) = trimmed[close + 2..].split_whitespace().next()
    {
        out.push(target.to_owned());
    }
    out
}

/// GitHub's anchor for a heading: lower case, letters, digits, `-` and `_`
/// kept, spaces made `-`, everything else dropped.
fn slug(heading: &str) -> String {
    heading
        .trim()
        .to_lowercase()
        .chars()
        .filter_map(|c| match c {
            ' ' => Some('-'),
            c if c.is_alphanumeric() || c == '-' || c == '_' => Some(c),
            _ => None,
        })
        .collect()
}

/// The anchors of a page's headings, a repeated one numbered as GitHub
/// numbers it (`name`, `name-1`, ...).
fn anchors(text: &str) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    let mut fenced = false;
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
            continue;
        }
        let hashes = line.chars().take_while(|&c| c == '#').count();
        if fenced || !(1..=6).contains(&hashes) || !line[hashes..].starts_with(' ') {
            continue;
        }
        let base = slug(line[hashes..].trim_end_matches('#'));
        let mut name = base.clone();
        let mut n = 0;
        while !out.insert(name.clone()) {
            n += 1;
            name = format!("{base}-{n}");
        }
    }
    out
}

/// What is wrong with each relative link of `page` (relative to `root`).
fn broken_links(root: &Path, page: &Path) -> Vec<String> {
    let text = read(&root.join(page));
    let dir = page.parent().unwrap_or(Path::new(""));
    let mut broken = Vec::new();
    for (line, prose) in prose(&text) {
        for target in link_targets(&prose) {
            let at = format!("{}:{line}: ({target})", page.display());
            if target.is_empty() {
                broken.push(format!("{at}: an empty link"));
                continue;
            }
            if ["http://", "https://", "mailto:"].iter().any(|s| target.starts_with(s)) {
                continue;
            }
            let (path, anchor) = match target.split_once('#') {
                Some((path, anchor)) => (path, Some(anchor)),
                None => (target.as_str(), None),
            };
            let file = if path.is_empty() { root.join(page) } else { root.join(dir).join(path) };
            if !file.exists() {
                broken.push(format!(
                    "{at}: no such file {}",
                    file.strip_prefix(root).unwrap_or(&file).display()
                ));
                continue;
            }
            if let Some(anchor) = anchor
                && file.extension().is_some_and(|e| e == "md")
                && !anchors(&read(&file)).contains(anchor)
            {
                broken.push(format!("{at}: no heading #{anchor} there"));
            }
        }
    }
    broken
}

#[test]
fn every_relative_link_in_the_readme_and_docs_resolves() {
    let root = root();
    let pages = pages(&root);
    assert!(pages.len() > 5, "README.md and docs/ were read: {pages:?}");
    let broken: Vec<String> = pages.iter().flat_map(|page| broken_links(&root, page)).collect();
    assert!(broken.is_empty(), "broken links:\n{}", broken.join("\n"));
}

#[test]
fn the_readme_is_a_front_door_of_at_most_200_lines() {
    let lines = read(&root().join("README.md")).lines().count();
    assert!(lines <= 200, "README.md has {lines} lines; move the rest into docs/");
}

/// docs/architecture.md's tree: the fenced block after "## The tree", each
/// folder a line `path/` from the root, its files indented under it. Returns
/// the folders and the files (as paths from the root) it names.
fn the_tree(root: &Path) -> (BTreeSet<String>, BTreeSet<String>) {
    let text = read(&root.join("docs/architecture.md"));
    let after =
        text.split_once("\n## The tree\n").expect("docs/architecture.md has a \"## The tree\" heading").1;
    let block = after.split_once("```").expect("a code block follows \"## The tree\"").1;
    let block = block.split_once('\n').map_or("", |(_, b)| b);
    let block = block.split_once("```").expect("the tree's code block ends").0;
    let (mut folders, mut files) = (BTreeSet::new(), BTreeSet::new());
    let mut folder: Option<String> = None;
    for line in block.lines() {
        let Some(name) = line.split_whitespace().next() else { continue };
        if !line.starts_with(' ') {
            assert!(name.ends_with('/'), "a folder line of the tree ends its path with '/': {line:?}");
            folders.insert(name.to_owned());
            folder = Some(name.to_owned());
        } else {
            let folder = folder.as_ref().unwrap_or_else(|| panic!("a file before any folder: {line:?}"));
            files.insert(format!("{folder}{name}"));
        }
    }
    (folders, files)
}

/// Every folder (as `path/`) and file under `dir`, as paths from `root`.
fn on_disk(root: &Path, dir: &Path, folders: &mut BTreeSet<String>, files: &mut BTreeSet<String>) {
    let rel = |p: &Path| p.strip_prefix(root).unwrap().to_string_lossy().replace('\\', "/");
    folders.insert(format!("{}/", rel(dir)));
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            on_disk(root, &path, folders, files);
        } else {
            files.insert(rel(&path));
        }
    }
}

#[test]
fn the_architecture_tree_names_every_source_folder() {
    let root = root();
    let (tree, _) = the_tree(&root);
    let (mut folders, mut files) = (BTreeSet::new(), BTreeSet::new());
    for dir in ["src", "crates/engine/src", "crates/server/src"] {
        on_disk(&root, &root.join(dir), &mut folders, &mut files);
    }
    let missing: Vec<_> = folders.difference(&tree).collect();
    assert!(missing.is_empty(), "folders missing from docs/architecture.md's tree: {missing:?}");
}

#[test]
fn the_architecture_tree_names_every_source_file_and_nothing_gone() {
    let root = root();
    let (tree_folders, tree_files) = the_tree(&root);
    let (mut folders, mut files) = (BTreeSet::new(), BTreeSet::new());
    for dir in ["src", "crates/engine/src", "crates/server/src"] {
        on_disk(&root, &root.join(dir), &mut folders, &mut files);
    }
    let missing: Vec<_> = files.difference(&tree_files).collect();
    let gone: Vec<_> = tree_folders
        .iter()
        .chain(&tree_files)
        .filter(|p| !root.join(p.trim_end_matches('/')).exists())
        .collect();
    assert!(
        missing.is_empty() && gone.is_empty(),
        "docs/architecture.md's tree misses files {missing:?} and names what is not there {gone:?}"
    );
}

#[test]
fn slugs_and_links_are_read_as_github_reads_them() {
    assert_eq!(slug("Seed 003's finding"), "seed-003s-finding");
    assert_eq!(slug("`tabula match`"), "tabula-match");
    assert_eq!(slug("Hidden homes and candidate homes"), "hidden-homes-and-candidate-homes");
    assert_eq!(anchors("# A\n## A\n```\n# not a heading\n```\n"), ["a", "a-1"].map(String::from).into());
    assert_eq!(
        link_targets("see [rules](rules/nim.md#levels \"Nim\") and ![menu](<shot.png>)"),
        ["rules/nim.md#levels", "shot.png"]
    );
    assert_eq!(link_targets("[formats]: formats.md"), ["formats.md"]);
    assert!(prose("```\n[x](nowhere)\n```\n`[y](nowhere)`").iter().all(|(_, l)| link_targets(l).is_empty()));
}
