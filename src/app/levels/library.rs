//! The level files the menu lists: the `.ron` files of a game's folder,
//! each loaded through the asset server and kept loaded (so watched) while
//! the library holds its handle.

use std::path::{Path, PathBuf};

use bevy::asset::LoadState;
use bevy::prelude::*;
use tabula_engine::level::LevelFile;

use super::{LevelAsset, LevelSources, load_error};

/// A level file found in a game's folder, as the asset server has it.
#[derive(Clone, Debug, PartialEq)]
pub struct LevelEntry {
    pub path: PathBuf,
    pub level: Result<LevelFile, String>,
    /// One of the player's own levels (their data folder), not one shipped.
    pub mine: bool,
}

/// The handles of the level files listed so far, by file.
#[derive(Resource, Debug, Default)]
pub struct LevelLibrary {
    files: Vec<(PathBuf, Handle<LevelAsset>)>,
}

impl LevelLibrary {
    /// Asks the asset server for every level file of the game folder
    /// `folder`: new files are loaded, files gone are let go.
    /// Asks the asset server for every level file of the game folder
    /// `folder`, shipped and the player's: new files are loaded, files
    /// gone are let go.
    pub fn scan(&mut self, server: &AssetServer, sources: &LevelSources, folder: &str) {
        for (root, _) in sources.listed_folders() {
            let dir = root.join(folder);
            let found = ron_files_in(&dir);
            self.files.retain(|(path, _)| path.parent() != Some(dir.as_path()) || found.contains(path));
            for path in found {
                if self.files.iter().any(|(p, _)| *p == path) {
                    continue;
                }
                if let Some(asset) = sources.asset_path(&path) {
                    self.files.push((path, server.load(asset)));
                }
            }
        }
    }

    /// The level files of `folder` in name order, the shipped then the
    /// player's, once every one of them has loaded or failed; `None` while
    /// some are still loading.
    pub fn entries(
        &self,
        sources: &LevelSources,
        folder: &str,
        assets: &Assets<LevelAsset>,
        server: &AssetServer,
    ) -> Option<Vec<LevelEntry>> {
        let mut entries = Vec::new();
        for (root, mine) in sources.listed_folders() {
            let dir = root.join(folder);
            let mut files: Vec<&(PathBuf, Handle<LevelAsset>)> =
                self.files.iter().filter(|(p, _)| p.parent() == Some(dir.as_path())).collect();
            files.sort_by(|(a, _), (b, _)| a.file_stem().cmp(&b.file_stem()));
            for (path, handle) in files {
                // A reload that failed keeps the last good level in the
                // assets; the menu says the file is broken all the same.
                let level = match server.load_state(handle) {
                    LoadState::Failed(e) => Err(load_error(&e)),
                    _ => Ok(assets.get(handle)?.0.clone()),
                };
                entries.push(LevelEntry { path: path.clone(), level, mine });
            }
        }
        Some(entries)
    }
}

/// `$TABULA_LEVELS`, else the levels the game ships
/// ([`tabula_engine::shipped`]: installed beside the executable, here, or
/// beside the sources).
pub fn levels_root() -> PathBuf {
    shipped_folder("TABULA_LEVELS", "levels")
}

/// Where the window writes new levels: the player's folder when the
/// shipped levels are installed (an install is never written to), else
/// the levels folder itself (a source checkout or `$TABULA_LEVELS`, whose
/// levels a designer edits in place).
pub fn writable_levels_root() -> PathBuf {
    match tabula_engine::shipped::installed("TABULA_LEVELS", "levels") {
        Some(_) => tabula_engine::shipped::player_levels(),
        None => levels_root(),
    }
}

/// An installed level is edited as the player's own copy, in the same
/// game folder under the same name: the copy when there is one, else the
/// installed file, saved to the copy. Any other level is edited in place.
/// The file to read, and the file to save.
pub fn edited(path: &Path) -> (PathBuf, PathBuf) {
    copy_for(path, installed_levels(), &tabula_engine::shipped::player_levels())
}

/// `path` lies in the installed levels, which the game never writes.
pub fn is_installed(path: &Path) -> bool {
    inside(path, installed_levels()).is_some()
}

/// The installed levels folder, when the levels are an install, as the
/// game names it and with its links resolved: found once (the side panel
/// asks every frame it draws).
fn installed_levels() -> &'static [PathBuf] {
    static INSTALLED: std::sync::OnceLock<Vec<PathBuf>> = std::sync::OnceLock::new();
    INSTALLED.get_or_init(|| {
        let Some(root) = tabula_engine::shipped::installed("TABULA_LEVELS", "levels") else {
            return Vec::new();
        };
        let named = std::path::absolute(&root).unwrap_or(root);
        let resolved = std::fs::canonicalize(&named).ok();
        std::iter::once(named).chain(resolved).collect()
    })
}

/// `path` below one of the folders `roots` (each given from the root).
fn inside(path: &Path, roots: &[PathBuf]) -> Option<PathBuf> {
    let file = std::path::absolute(path).ok()?;
    roots.iter().find_map(|root| file.strip_prefix(root).ok().map(Path::to_owned))
}

fn copy_for(path: &Path, installed: &[PathBuf], mine: &Path) -> (PathBuf, PathBuf) {
    match inside(path, installed) {
        Some(relative) => {
            let copy = mine.join(relative);
            (if copy.exists() { copy.clone() } else { path.to_owned() }, copy)
        }
        None => (path.to_owned(), path.to_owned()),
    }
}

/// A folder the game ships (levels, arenas): `$variable`, else the one
/// installed beside the executable, else `./name`, else the sources'.
pub fn shipped_folder(variable: &str, name: &str) -> PathBuf {
    tabula_engine::shipped::folder(variable, name)
}

/// The `.ron` files of a folder, sorted by name (none if it cannot be read).
pub fn ron_files_in(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|entries| {
            entries
                .filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| p.extension().is_some_and(|x| x == "ron"))
                .collect()
        })
        .unwrap_or_default();
    // By name without ".ron", so "board-6-4" comes before its variant
    // "board-6-4-empty-capture".
    files.sort_by(|a, b| a.file_stem().cmp(&b.file_stem()));
    files
}

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<LevelLibrary>();
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_installed_level_is_edited_as_the_players_copy_and_any_other_in_place() {
        let root = std::env::temp_dir().join(format!("tabula-copy-for-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&root);
        let (installed, mine) = (root.join("share/tabula/levels"), root.join("mine"));
        std::fs::create_dir_all(installed.join("nim")).unwrap();
        let shipped = installed.join("nim/a.ron");
        std::fs::write(&shipped, "").unwrap();
        let copy = mine.join("nim/a.ron");
        assert_eq!(
            copy_for(&shipped, std::slice::from_ref(&installed), &mine),
            (shipped.clone(), copy.clone()),
            "saved to a copy"
        );
        std::fs::create_dir_all(mine.join("nim")).unwrap();
        std::fs::write(&copy, "").unwrap();
        assert_eq!(
            copy_for(&shipped, std::slice::from_ref(&installed), &mine),
            (copy.clone(), copy.clone()),
            "the copy is read"
        );
        assert_eq!(
            copy_for(&shipped, &[], &mine),
            (shipped.clone(), shipped.clone()),
            "not installed: in place"
        );
        let elsewhere = root.join("x.ron");
        assert_eq!(
            copy_for(&elsewhere, std::slice::from_ref(&installed), &mine),
            (elsewhere.clone(), elsewhere)
        );
        let _ = std::fs::remove_dir_all(root);
    }
}
