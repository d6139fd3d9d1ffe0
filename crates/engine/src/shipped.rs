//! Where the folders the game ships (levels, arenas) are, wherever it is:
//! named by an environment variable; else, installed, in `share/tabula/`
//! beside the executable's `bin/` (a package, or an unpacked tarball);
//! else in the current folder; else in the source tree it was built from.

use std::ffi::OsString;
use std::path::{Path, PathBuf};

/// The shipped folder `name` (`levels`, `arenas`), `$variable` winning.
pub fn folder(variable: &str, name: &str) -> PathBuf {
    find(std::env::var_os(variable), std::env::current_exe().ok().as_deref(), Path::new("."), name)
}

/// [`folder`] with what it asks of the process given: the variable's
/// value, the executable's path and the current folder.
fn find(variable: Option<OsString>, exe: Option<&Path>, here: &Path, name: &str) -> PathBuf {
    if let Some(dir) = variable {
        return dir.into();
    }
    let installed = exe
        .and_then(Path::parent)
        .and_then(Path::parent)
        .map(|prefix| prefix.join("share").join("tabula").join(name))
        .filter(|dir| dir.is_dir());
    if let Some(dir) = installed {
        return dir;
    }
    let current = here.join(name);
    if current.is_dir() {
        return if here == Path::new(".") { PathBuf::from(name) } else { current };
    }
    // The source tree: this crate is at crates/engine in it.
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..").join("..").join(name)
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
        let _ = std::fs::remove_dir_all(root);
    }
}
