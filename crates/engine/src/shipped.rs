//! Where the folders the game ships (levels, arenas) are, wherever it is:
//! named by an environment variable; else, installed, in `share/tabula/`
//! (or the server package's `share/tabula-server/`) beside the
//! executable's `bin/` (a package, or an unpacked tarball); else in the
//! current folder; else in the source tree it was built from. And where
//! the levels a player writes go, and how a command line names a level.

use std::ffi::OsString;
use std::path::{Path, PathBuf};

/// The shipped folder `name` (`levels`, `arenas`), `$variable` winning.
pub fn folder(variable: &str, name: &str) -> PathBuf {
    find(std::env::var_os(variable), std::env::current_exe().ok().as_deref(), Path::new("."), name)
}

/// The shipped folder `name` when it is the one installed beside the
/// executable (and no variable names another): a folder the game only
/// reads, its players' levels going to [`player_levels`] instead.
pub fn installed(variable: &str, name: &str) -> Option<PathBuf> {
    if std::env::var_os(variable).is_some() {
        return None;
    }
    installed_beside(std::env::current_exe().ok().as_deref(), name)
}

/// Both packages' share folders: the game's and the server's (which
/// ships the levels it hosts under its own name, so the two install side
/// by side).
fn installed_beside(exe: Option<&Path>, name: &str) -> Option<PathBuf> {
    let prefix = exe?.parent()?.parent()?;
    ["tabula", "tabula-server"]
        .iter()
        .map(|package| prefix.join("share").join(package).join(name))
        .find(|d| d.is_dir())
}

/// [`folder`] with what it asks of the process given: the variable's
/// value, the executable's path and the current folder.
fn find(variable: Option<OsString>, exe: Option<&Path>, here: &Path, name: &str) -> PathBuf {
    if let Some(dir) = variable {
        return dir.into();
    }
    if let Some(dir) = installed_beside(exe, name) {
        return dir;
    }
    let current = here.join(name);
    if current.is_dir() {
        return if here == Path::new(".") { PathBuf::from(name) } else { current };
    }
    // The source tree: this crate is at crates/engine in it.
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..").join("..").join(name)
}

/// The levels a player writes: new ones from the editor, and their own
/// copies of the installed ones they edit (`levels/` in the data folder,
/// in the games' folders as the shipped ones are).
pub fn player_levels() -> PathBuf {
    crate::core::data_dir().join("levels")
}

/// The level file a command line names: the file itself when there is one;
/// else a level by its game's folder and its name, `.ron` optional
/// (`<game folder>/<level>`), among the player's levels and then the shipped
/// ones. `Err` says where it looked.
pub fn level_file(given: &Path) -> Result<PathBuf, String> {
    named_in(given, &[player_levels(), folder("TABULA_LEVELS", "levels")])
}

fn named_in(given: &Path, roots: &[PathBuf]) -> Result<PathBuf, String> {
    if given.is_file() {
        return Ok(given.to_owned());
    }
    let with_ron = given.with_extension("ron");
    let names: &[&Path] =
        if given.extension().is_some_and(|e| e == "ron") { &[given] } else { &[given, &with_ron] };
    // A name, not a way out of the folders.
    let plain =
        given.is_relative() && given.components().all(|c| matches!(c, std::path::Component::Normal(_)));
    if plain {
        let found =
            roots.iter().flat_map(|root| names.iter().map(move |name| root.join(name))).find(|p| p.is_file());
        if let Some(file) = found {
            return Ok(file);
        }
    }
    let looked: Vec<String> = roots.iter().map(|r| r.display().to_string()).collect();
    Err(format!(
        "{}: no such file, nor a level of that name in {} (name one as its game's folder and its file: <game folder>/<level>)",
        given.display(),
        looked.join(" or ")
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_variable_then_an_install_then_here_then_the_sources() {
        let root = std::env::temp_dir().join(format!("tabula-shipped-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&root);
        let (prefix, here) = (root.join("opt"), root.join("work"));
        std::fs::create_dir_all(prefix.join("bin")).unwrap();
        std::fs::create_dir_all(here.join("levels")).unwrap();
        let exe = prefix.join("bin").join("tabula");
        let named = find(Some("/x/levels".into()), Some(&exe), &here, "levels");
        assert_eq!(named, PathBuf::from("/x/levels"), "the variable wins");
        assert_eq!(find(None, Some(&exe), &here, "levels"), here.join("levels"), "not installed: here");
        std::fs::create_dir_all(prefix.join("share/tabula/levels")).unwrap();
        let installed = find(None, Some(&exe), &here, "levels");
        assert_eq!(installed, prefix.join("share/tabula/levels"), "installed: beside bin/");
        let sources = find(None, Some(&exe), &here, "arenas");
        assert!(sources.join("small.ron").is_file(), "a build finds its source tree: {}", sources.display());
        std::fs::create_dir_all(prefix.join("share/tabula-server/arenas")).unwrap();
        let server = find(None, Some(&exe), &here, "arenas");
        assert_eq!(server, prefix.join("share/tabula-server/arenas"), "the server package's share folder");
        let _ = std::fs::remove_dir_all(root);
    }

    #[test]
    fn a_level_is_a_file_or_a_name_in_the_players_levels_then_the_shipped_ones() {
        let root = std::env::temp_dir().join(format!("tabula-named-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&root);
        let (mine, shipped) = (root.join("mine"), root.join("shipped"));
        for dir in [mine.join("nim"), shipped.join("nim")] {
            std::fs::create_dir_all(dir).unwrap();
        }
        for file in [shipped.join("nim/a.ron"), shipped.join("nim/b.ron"), mine.join("nim/b.ron")] {
            std::fs::write(file, "").unwrap();
        }
        let roots = [mine.clone(), shipped.clone()];
        let named = |name: &str| named_in(Path::new(name), &roots);
        assert_eq!(named("nim/a"), Ok(shipped.join("nim/a.ron")));
        assert_eq!(named("nim/a.ron"), Ok(shipped.join("nim/a.ron")));
        assert_eq!(named("nim/b"), Ok(mine.join("nim/b.ron")), "the player's own first");
        let file = shipped.join("nim/a.ron");
        assert_eq!(named_in(&file, &[]), Ok(file.clone()), "a file is itself");
        let e = named("nim/c").unwrap_err();
        assert!(e.starts_with("nim/c: no such file") && e.contains(&shipped.display().to_string()), "{e}");
        assert!(named("../shipped/nim/a").is_err(), "a name stays inside the folders");
        let _ = std::fs::remove_dir_all(root);
    }
}
