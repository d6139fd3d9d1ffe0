//! No two modules of the tabula package (`src`: the window, the arena's
//! runs, the command line) or of the engine (`crates/engine/src`) import
//! each other, directly or around a circle, and no two folders do: a
//! module's dependencies can then be read, tested and replaced below it.
//!
//! A module is a file. Module `a` depends on `b` when `a`'s code outside its
//! tests names `b` or an item in it (in a `use` or a path); a module naming
//! its own submodules (declaring them, re-exporting from them) is the tree,
//! not a dependency. A folder is the module of everything below it: of the
//! files and folders side by side in one folder, `a` depends on `b` when
//! any file in or under `a` names anything in or under `b`, and those may
//! not make a circle either, at any depth. A file naming the folder it is
//! in (`super::X`) goes up the tree, not across it, and is no such edge.
//! This reads the sources as text and links no game code; it lives in the
//! engine's package so that it builds in seconds.

mod source;

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// A module path below the crate root: `["app", "menu"]` is `app::menu`.
type Module = Vec<String>;
/// Each module and the modules it depends on.
type Edges = BTreeMap<Module, BTreeSet<Module>>;

/// Every `.rs` file under `dir`, as its module path below the crate root. A
/// `main.rs` beside a `lib.rs` is the binary, module `main`, which names the
/// library by its name.
fn modules(root: &Path, dir: &Path, out: &mut BTreeMap<Module, PathBuf>) {
    let mut entries: Vec<_> = std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().path()).collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            modules(root, &path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            let rel = path.strip_prefix(root).unwrap().with_extension("");
            let mut segments: Module = rel.iter().map(|s| s.to_string_lossy().into_owned()).collect();
            let binary = segments == ["main"] && root.join("lib.rs").exists();
            if !binary && matches!(segments.last().map(String::as_str), Some("mod" | "lib" | "main")) {
                segments.pop();
            }
            out.insert(segments, path);
        }
    }
}
/// The source without comments, string contents and `#[cfg(test)]` items.
fn code(text: &str) -> String {
    source::without_tests(&source::code(text))
}

/// Files a crate compiles only for its tests: `#[cfg(test)] mod name;`,
/// each as its name, or as the file it names when it has a `#[path]`
/// (relative to the declaring file's folder).
fn test_only_children(text: &str) -> Vec<(String, Option<String>)> {
    let mut children = Vec::new();
    let mut rest = text;
    while let Some(at) = rest.find("#[cfg(test)]") {
        rest = &rest[at + "#[cfg(test)]".len()..];
        let mut item = rest.trim_start();
        let mut file = None;
        // Other attributes between it and the item: `#[path = "x.rs"]` names the file.
        while let Some(attribute) = item.strip_prefix("#[") {
            let Some(end) = attribute.find(']') else { break };
            let inside = &attribute[..end];
            if let Some(value) = inside.strip_prefix("path").map(str::trim_start)
                && let Some(value) = value.strip_prefix('=')
            {
                file = Some(value.trim().trim_matches('"').to_owned());
            }
            item = attribute[end + 1..].trim_start();
        }
        let item = item.strip_prefix("pub ").unwrap_or(item).trim_start();
        if let Some(decl) = item.strip_prefix("mod ") {
            let name: String = decl.chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect();
            if decl[name.len()..].trim_start().starts_with(';') {
                children.push((name, file));
            }
        }
    }
    children
}

/// Every path the code names, with `use` trees expanded: `crate::a::{b, c::d}`
/// gives `crate::a::b` and `crate::a::c::d`. A path from `library` (the
/// crate's own name, as its binary names it) is a path from `crate`.
fn paths(code: &str, library: &str) -> Vec<Module> {
    // Tokens: identifiers, `::`, braces, commas; everything else splits.
    let mut tokens: Vec<String> = Vec::new();
    let mut chars = code.chars().peekable();
    while let Some(c) = chars.next() {
        if c.is_alphanumeric() || c == '_' {
            let mut ident = c.to_string();
            while let Some(&n) = chars.peek().filter(|n| n.is_alphanumeric() || **n == '_') {
                ident.push(n);
                chars.next();
            }
            tokens.push(ident);
        } else if c == ':' && chars.peek() == Some(&':') {
            chars.next();
            tokens.push("::".into());
        } else if matches!(c, '{' | '}' | ',' | ';') {
            tokens.push(c.to_string());
        } else if !c.is_whitespace() {
            tokens.push(" ".into());
        }
    }
    let mut out = Vec::new();
    let mut i = 0;
    while i < tokens.len() {
        if tokens[i] == library {
            tokens[i] = "crate".into();
        }
        let starts_path = matches!(tokens[i].as_str(), "crate" | "super" | "self")
            && (i == 0 || tokens[i - 1] != "::")
            && tokens.get(i + 1).is_some_and(|t| t == "::");
        if starts_path {
            i = tree(&tokens, i, Vec::new(), &mut out);
        } else {
            i += 1;
        }
    }
    out
}

/// Reads a path or `use` tree from token `i` on, below `prefix`; returns
/// the index after it.
fn tree(tokens: &[String], mut i: usize, mut prefix: Vec<String>, out: &mut Vec<Vec<String>>) -> usize {
    loop {
        match tokens.get(i).map(String::as_str) {
            Some("{") => {
                i += 1;
                loop {
                    i = tree(tokens, i, prefix.clone(), out);
                    match tokens.get(i).map(String::as_str) {
                        Some(",") => i += 1,
                        Some("}") => return i + 1,
                        _ => return i,
                    }
                    if tokens.get(i).is_some_and(|t| t == "}") {
                        return i + 1;
                    }
                }
            }
            Some(t) if t.chars().all(|c| c.is_alphanumeric() || c == '_') => {
                prefix.push(t.to_owned());
                i += 1;
                if tokens.get(i).is_some_and(|t| t == "::") {
                    i += 1;
                } else {
                    out.push(prefix);
                    // `x as y`: the alias names nothing new.
                    if tokens.get(i).is_some_and(|t| t == "as") {
                        i += 2;
                    }
                    return i;
                }
            }
            _ => {
                out.push(prefix);
                return i;
            }
        }
    }
}

/// The module a path names from module `at`: its longest prefix that is a
/// module of the crate.
fn target(at: &[String], path: &[String], known: &BTreeMap<Vec<String>, PathBuf>) -> Option<Vec<String>> {
    let mut base: Vec<String> = Vec::new();
    let mut rest = path;
    match path.first()?.as_str() {
        "crate" => rest = &path[1..],
        "self" | "super" => {
            // A file `a/b.rs` is module a::b; `super` from it is `a`. A
            // `mod.rs` is its folder's module, so `self` is the module itself.
            base = at.to_vec();
            while let Some(first) = rest.first() {
                match first.as_str() {
                    "self" => rest = &rest[1..],
                    "super" => {
                        base.pop()?;
                        rest = &rest[1..];
                    }
                    _ => break,
                }
            }
        }
        _ => return None,
    }
    let mut full = base;
    full.extend(rest.iter().cloned());
    (0..=full.len()).rev().map(|n| full[..n].to_vec()).find(|m| known.contains_key(m))
}

/// The modules of the crate rooted at `root` (named `library`), each with
/// the modules it depends on.
fn graph(root: &Path, library: &str) -> Edges {
    let mut known = BTreeMap::new();
    modules(root, root, &mut known);
    let mut test_only: BTreeSet<Module> = BTreeSet::new();
    for (module, path) in &known {
        let text = std::fs::read_to_string(path).unwrap();
        for (child, file) in test_only_children(&text) {
            match file {
                Some(file) => {
                    let file = path.parent().unwrap().join(file);
                    test_only.extend(known.iter().filter(|(_, p)| **p == file).map(|(m, _)| m.clone()));
                }
                None => {
                    let mut m = module.clone();
                    m.push(child);
                    test_only.insert(m);
                }
            }
        }
    }
    let mut edges = BTreeMap::new();
    for (module, path) in &known {
        if test_only.iter().any(|t| module.starts_with(t)) {
            continue;
        }
        let text = code(&std::fs::read_to_string(path).unwrap());
        let deps: BTreeSet<Module> = paths(&text, library)
            .iter()
            .filter_map(|p| target(module, p, &known))
            .filter(|t| t != module && !t.starts_with(module))
            .collect();
        edges.insert(module.clone(), deps);
    }
    edges
}

/// The edges between modules side by side: for each module's dependency,
/// the two different children of the folder holding both (the module's
/// own way down and the dependency's) depend on each other. Each such edge
/// keeps the first module and dependency that made it, to name in a report.
fn sibling_edges(edges: &Edges) -> (Edges, BTreeMap<(Module, Module), (Module, Module)>) {
    let mut siblings: Edges = BTreeMap::new();
    let mut because = BTreeMap::new();
    for (module, deps) in edges {
        for prefix in (1..=module.len()).map(|n| module[..n].to_vec()) {
            siblings.entry(prefix).or_default();
        }
        for dep in deps {
            let common = module.iter().zip(dep).take_while(|(a, b)| a == b).count();
            // One is below the other: up or down the tree, not across.
            if common == module.len() || common == dep.len() {
                continue;
            }
            let (from, to) = (module[..=common].to_vec(), dep[..=common].to_vec());
            siblings.entry(to.clone()).or_default();
            siblings.entry(from.clone()).or_default().insert(to.clone());
            because.entry((from, to)).or_insert_with(|| (module.clone(), dep.clone()));
        }
    }
    (siblings, because)
}
/// Strongly connected groups of more than one module (Tarjan).
fn circles(edges: &Edges) -> Vec<Vec<String>> {
    let names: Vec<&Vec<String>> = edges.keys().collect();
    let index_of: BTreeMap<&Vec<String>, usize> = names.iter().enumerate().map(|(i, n)| (*n, i)).collect();
    let adjacent: Vec<Vec<usize>> =
        names.iter().map(|n| edges[*n].iter().filter_map(|t| index_of.get(t).copied()).collect()).collect();
    struct Tarjan<'a> {
        adjacent: &'a [Vec<usize>],
        index: Vec<Option<usize>>,
        low: Vec<usize>,
        stack: Vec<usize>,
        on_stack: Vec<bool>,
        next: usize,
        groups: Vec<Vec<usize>>,
    }
    impl Tarjan<'_> {
        fn visit(&mut self, v: usize) {
            self.index[v] = Some(self.next);
            self.low[v] = self.next;
            self.next += 1;
            self.stack.push(v);
            self.on_stack[v] = true;
            for &w in &self.adjacent[v] {
                match self.index[w] {
                    None => {
                        self.visit(w);
                        self.low[v] = self.low[v].min(self.low[w]);
                    }
                    Some(iw) if self.on_stack[w] => self.low[v] = self.low[v].min(iw),
                    _ => {}
                }
            }
            if Some(self.low[v]) == self.index[v] {
                let mut group = Vec::new();
                while let Some(w) = self.stack.pop() {
                    self.on_stack[w] = false;
                    group.push(w);
                    if w == v {
                        break;
                    }
                }
                if group.len() > 1 {
                    self.groups.push(group);
                }
            }
        }
    }
    let n = names.len();
    let mut t = Tarjan {
        adjacent: &adjacent,
        index: vec![None; n],
        low: vec![0; n],
        stack: Vec::new(),
        on_stack: vec![false; n],
        next: 0,
        groups: Vec::new(),
    };
    for v in 0..n {
        if t.index[v].is_none() {
            t.visit(v);
        }
    }
    t.groups
        .into_iter()
        .map(|g| {
            let mut g: Vec<String> = g.into_iter().map(|i| names[i].join("::")).collect();
            g.sort();
            g
        })
        .collect()
}

/// What is wrong with the crate rooted at `root` (named `library`): each
/// circle of files, then each circle of folders and files side by side,
/// with the edges that close it. Empty when there is none.
fn problems(root: &Path, library: &str) -> Vec<String> {
    let edges = graph(root, library);
    assert!(edges.len() > 3, "the modules of {} were found", root.display());
    let (siblings, because) = sibling_edges(&edges);
    let key = |m: &str| -> Module { m.split("::").map(str::to_owned).collect() };
    let mut found = Vec::new();
    for group in circles(&edges) {
        let lines: Vec<String> = group
            .iter()
            .map(|m| {
                let deps: Vec<String> =
                    edges[&key(m)].iter().map(|d| d.join("::")).filter(|d| group.contains(d)).collect();
                format!("  {m} -> {}", deps.join(", "))
            })
            .collect();
        found.push(format!("files that import each other around a circle:\n{}", lines.join("\n")));
    }
    for group in circles(&siblings) {
        let mut lines = Vec::new();
        for from in group.iter().map(|m| key(m)) {
            for to in siblings[&from].iter().filter(|d| group.contains(&d.join("::"))) {
                let (module, dep) = &because[&(from.clone(), to.clone())];
                let [from, to, module, dep] = [&from, to, module, dep].map(|m| m.join("::"));
                lines.push(format!("  {from} -> {to} ({module} names {dep})"));
            }
        }
        found.push(format!("folders that import each other around a circle:\n{}", lines.join("\n")));
    }
    found
}

fn assert_no_circles(root: &Path, library: &str) {
    let found = problems(root, library);
    assert!(found.is_empty(), "{}", found.join("\n\n"));
}

/// The repository's root.
fn here() -> PathBuf {
    crate::source::manifest_dir().join("../..")
}

#[test]
fn the_tabula_package_has_no_import_cycle() {
    assert_no_circles(&here().join("src"), "tabula");
}
/// One concern a file: none of the window's files grows past this.
const MOST_LINES: usize = 400;

#[test]
fn no_file_of_the_window_is_over_400_lines() {
    let mut files = BTreeMap::new();
    modules(&here().join("src"), &here().join("src/app"), &mut files);
    let long: Vec<String> = files
        .values()
        .map(|path| (path, std::fs::read_to_string(path).unwrap().lines().count()))
        .filter(|&(_, n)| n > MOST_LINES)
        .map(|(path, n)| format!("{} has {n} lines", path.display()))
        .collect();
    assert!(files.len() > 20, "the window's files were found");
    assert!(long.is_empty(), "split these by concern:\n{}", long.join("\n"));
}

#[test]
fn the_engine_has_no_import_cycle() {
    assert_no_circles(&here().join("crates/engine/src"), "tabula_engine");
}

#[test]
fn the_server_has_no_import_cycle() {
    assert_no_circles(&here().join("crates/server/src"), "tabula_server");
}

#[test]
fn the_check_finds_a_circle_of_three_and_ignores_tests_and_submodules() {
    let dir = std::env::temp_dir().join(format!("tabula-imports-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("a")).unwrap();
    let write = |name: &str, text: &str| std::fs::write(dir.join(name), text).unwrap();
    write("lib.rs", "pub mod a;\npub mod b;\npub mod c;\npub mod d;\n");
    write(
        "a/mod.rs",
        "pub mod inner;\npub use inner::X;\n// crate::d::Y in a comment\nuse crate::b::{self, B};\n",
    );
    write("a/inner.rs", "pub struct X;\nuse super::super::c::C;\n");
    write("b.rs", "pub struct B;\nconst Q: char = '\\'';\nuse crate::{c::{C as Other}, d};\n");
    write(
        "c.rs",
        "pub struct C;\nfn f() -> crate::a::X { todo!() }\n#[cfg(test)]\nmod tests { use crate::d::*; }\n",
    );
    write("d.rs", "pub struct Y;\nconst S: &str = r#\"crate::a::X \"q\"\"#;\nuse super::b::B;\n");
    let edges = graph(&dir, "x");
    let key = |m: &str| m.split("::").map(str::to_owned).collect::<Vec<_>>();
    assert_eq!(edges[&key("a")], [key("b")].into_iter().collect(), "a's own submodule is no dependency");
    assert_eq!(edges[&key("c")], [key("a")].into_iter().collect(), "nor is code under cfg(test)");
    assert_eq!(edges[&key("d")], [key("b")].into_iter().collect(), "nor a string");
    assert_eq!(edges[&key("b")], [key("c"), key("d")].into_iter().collect(), "use trees are expanded");
    assert_eq!(edges[&key("a::inner")], [key("c")].into_iter().collect(), "super::super is the root");
    let expected: Vec<String> = ["a", "b", "c", "d"].into_iter().map(String::from).collect();
    assert_eq!(circles(&edges), vec![expected]);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Writes `files` (path, text) into a fresh folder named for `test`.
fn tree_of(test: &str, files: &[(&str, &str)]) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("tabula-imports-{test}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    for (name, text) in files {
        let path = dir.join(name);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }
    dir
}

#[test]
fn the_check_finds_folders_in_a_circle_at_any_depth_though_no_files_are() {
    let dir = tree_of(
        "folders",
        &[
            ("lib.rs", "pub mod a;\npub mod b;\npub mod c;\npub mod f;\npub mod g;\n"),
            ("main.rs", "fn main() { x::c::run(); }\n"),
            // a and b: a's x names b's z, which names a's y.
            ("a/mod.rs", "pub mod x;\npub mod y;\npub struct A;\n"),
            ("a/x.rs", "use crate::b::z::Z;\nuse super::A;\n"),
            ("a/y.rs", "pub struct Y;\n"),
            ("b/mod.rs", "pub mod z;\n"),
            ("b/z.rs", "pub struct Z(crate::a::y::Y);\n"),
            // Below c: d's p names e's q, e's r names d itself.
            ("c/mod.rs", "pub mod d;\npub mod e;\npub fn run() { d::p::go(); }\n"),
            ("c/d/mod.rs", "pub mod p;\npub struct D;\n"),
            ("c/d/p.rs", "pub fn go() { super::super::e::q::Q; }\n"),
            ("c/e/mod.rs", "pub mod q;\npub mod r;\n"),
            ("c/e/q.rs", "pub struct Q;\n"),
            ("c/e/r.rs", "use crate::c::d::D;\n"),
            // f names g; g's tests, in a file of their own, name f.
            ("f.rs", "pub fn f() -> crate::g::G { crate::g::G }\n"),
            ("g/mod.rs", "pub struct G;\n#[cfg(test)]\n#[path = \"g_tests.rs\"]\nmod tests;\n"),
            ("g/g_tests.rs", "use crate::f::f;\n"),
        ],
    );
    let edges = graph(&dir, "x");
    let key = |m: &str| m.split("::").map(str::to_owned).collect::<Vec<_>>();
    assert_eq!(edges[&key("main")], [key("c")].into_iter().collect(), "the binary names the library by name");
    assert!(circles(&edges).is_empty(), "no two files import each other");
    let (siblings, _) = sibling_edges(&edges);
    let names = |g: &[&str]| g.iter().map(|m| m.to_string()).collect::<Vec<_>>();
    assert_eq!(
        circles(&siblings),
        vec![names(&["a", "b"]), names(&["c::d", "c::e"])],
        "no circle of f and g: g's tests are not g"
    );
    assert!(siblings[&key("a::x")].is_empty(), "a file naming its own folder is no edge");
    let found = problems(&dir, "x");
    assert_eq!(found.len(), 2, "{found:?}");
    assert!(found[0].starts_with("folders that import each other"), "{}", found[0]);
    assert!(found[0].contains("  a -> b (a::x names b::z)\n  b -> a (b::z names a::y)"), "{}", found[0]);
    assert!(found[1].contains("  c::e -> c::d (c::e::r names c::d)"), "{}", found[1]);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_circle_of_files_is_a_circle_of_files_and_of_what_holds_them() {
    let dir = tree_of(
        "files",
        &[
            ("lib.rs", "pub mod f;\npub mod g;\n"),
            ("f/mod.rs", "mod x;\nmod y;\n"),
            ("f/x.rs", "pub struct X(super::y::Y);\n"),
            ("f/y.rs", "pub struct Y(Box<super::x::X>);\n"),
            ("g.rs", "use crate::f;\n"),
        ],
    );
    let found = problems(&dir, "x");
    assert_eq!(found.len(), 2, "{found:?}");
    assert_eq!(found[0], "files that import each other around a circle:\n  f::x -> f::y\n  f::y -> f::x");
    assert!(found[1].starts_with("folders that import each other"), "{}", found[1]);
    let caught = std::panic::catch_unwind(|| assert_no_circles(&dir, "x"));
    assert!(caught.is_err(), "the check fails on it");
    std::fs::remove_dir_all(&dir).unwrap();
}
