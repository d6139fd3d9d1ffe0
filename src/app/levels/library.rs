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
}

/// The handles of the level files listed so far, by file.
#[derive(Resource, Debug, Default)]
pub struct LevelLibrary {
    files: Vec<(PathBuf, Handle<LevelAsset>)>,
}

impl LevelLibrary {
    /// Asks the asset server for every level file of the game folder
    /// `folder`: new files are loaded, files gone are let go.
    pub fn scan(&mut self, server: &AssetServer, sources: &LevelSources, folder: &str) {
        let dir = sources.levels_folder().join(folder);
        let found = ron_files_in(&dir);
        self.files.retain(|(path, _)| !path.starts_with(&dir) || found.contains(path));
        for path in found {
            if self.files.iter().any(|(p, _)| *p == path) {
                continue;
            }
            if let Some(asset) = sources.asset_path(&path) {
                self.files.push((path, server.load(asset)));
            }
        }
    }

    /// The level files of `folder` in name order, once every one of them
    /// has loaded or failed; `None` while some are still loading.
    pub fn entries(
        &self,
        sources: &LevelSources,
        folder: &str,
        assets: &Assets<LevelAsset>,
        server: &AssetServer,
    ) -> Option<Vec<LevelEntry>> {
        let dir = sources.levels_folder().join(folder);
        let mut files: Vec<&(PathBuf, Handle<LevelAsset>)> =
            self.files.iter().filter(|(p, _)| p.parent() == Some(dir.as_path())).collect();
        files.sort_by(|(a, _), (b, _)| a.file_stem().cmp(&b.file_stem()));
        files
            .into_iter()
            .map(|(path, handle)| {
                // A reload that failed keeps the last good level in the
                // assets; the menu says the file is broken all the same.
                let level = match server.load_state(handle) {
                    LoadState::Failed(e) => Err(load_error(&e)),
                    _ => Ok(assets.get(handle)?.0.clone()),
                };
                Some(LevelEntry { path: path.clone(), level })
            })
            .collect()
    }
}

/// `$TABULA_LEVELS`, else the levels the game ships
/// ([`tabula_engine::shipped`]: installed beside the executable, here, or
/// beside the sources).
pub fn levels_root() -> PathBuf {
    shipped_folder("TABULA_LEVELS", "levels")
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
