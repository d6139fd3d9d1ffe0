//! The arena files the screen lists: those of the arenas folder (and one
//! opened from the command line), each read and checked, with how many of
//! its games its database already holds. A broken file or a database of
//! another arena is listed with what is wrong.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use bevy::prelude::*;
use tabula_engine::arena::Arena;

use super::{ArenaRequest, StartArena};
use crate::app::levels::library::{ron_files_in, shipped_folder};
use crate::arena_run::store::Store;

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<Arenas>();
}

/// `$TABULA_ARENAS`, else `./arenas`, else the arenas beside the sources.
pub fn arenas_root() -> PathBuf {
    shipped_folder("TABULA_ARENAS", "arenas")
}

/// An arena file as the screen lists it.
pub struct ArenaEntry {
    pub path: PathBuf,
    /// The arena, or what is wrong with its file (file, line and column).
    pub arena: Result<Arc<Arena>, String>,
    /// Where its games are kept.
    pub db: PathBuf,
    /// Games of the arena its database holds (0 when there is none yet), or
    /// why it cannot be read.
    pub held: Result<u64, String>,
}

impl ArenaEntry {
    /// Reads the file and counts its database's games.
    pub fn read(path: &Path, db: Option<&Path>) -> ArenaEntry {
        let db = db.map_or_else(|| crate::arena_run::default_db(path, None), Path::to_owned);
        let arena = Arena::load(path).map(Arc::new).map_err(|e| e.to_string());
        let held = match &arena {
            Ok(arena) => held(arena, &db).map_err(|e| format!("{e:#}")),
            Err(_) => Ok(0),
        };
        ArenaEntry { path: path.to_owned(), arena, db, held }
    }

    /// The file's name, for the list.
    pub fn file_name(&self) -> String {
        self.path.file_name().unwrap_or(self.path.as_os_str()).to_string_lossy().into_owned()
    }
}

/// The games of `arena` that `db` holds, counted as a run counts those it
/// resumes: each part's games from its first up to the first missing.
pub fn held(arena: &Arena, db: &Path) -> anyhow::Result<u64> {
    if !db.exists() {
        return Ok(0);
    }
    let store = Store::open_read_only(db, &crate::arena_run::identity(arena), &arena.agents)?;
    Ok(store.done(&arena.parts())?.iter().sum())
}

/// The arena files listed, and the one chosen.
#[derive(Resource, Default)]
pub struct Arenas {
    /// The folder listed.
    pub folder: PathBuf,
    pub files: Vec<ArenaEntry>,
    pub chosen: usize,
    /// A file opened from the command line, listed even outside the folder,
    /// with the database given for it.
    pub opened: Option<StartArena>,
}

impl Arenas {
    pub fn current(&self) -> Option<&ArenaEntry> {
        self.files.get(self.chosen)
    }

    /// Lists `folder` again (files may have come, gone or changed), keeping
    /// the chosen file chosen.
    pub fn list(&mut self, folder: &Path) {
        let chosen = self.current().map(|e| e.path.clone());
        let opened = self.opened.as_ref().map(|o| (o.path.clone(), o.db.clone()));
        let mut paths = ron_files_in(folder);
        if let Some((path, _)) = &opened
            && !paths.iter().any(|p| same_file(p, path))
        {
            paths.push(path.clone());
        }
        self.files = paths
            .iter()
            .map(|p| {
                let db = opened.as_ref().filter(|(o, _)| same_file(o, p)).and_then(|(_, db)| db.as_deref());
                ArenaEntry::read(p, db)
            })
            .collect();
        self.folder = folder.to_owned();
        let wanted = chosen.or(opened.map(|(p, _)| p));
        self.chosen =
            wanted.and_then(|w| self.files.iter().position(|e| same_file(&e.path, &w))).unwrap_or(0);
    }

    /// The chosen file's database holds `held` games now (after a run).
    pub fn set_held(&mut self, held: Result<u64, String>) {
        if let Some(entry) = self.files.get_mut(self.chosen) {
            entry.held = held;
        }
    }
}

/// Two paths name the same file (one may be relative).
pub(super) fn same_file(a: &Path, b: &Path) -> bool {
    a == b || std::fs::canonicalize(a).ok().zip(std::fs::canonicalize(b).ok()).is_some_and(|(a, b)| a == b)
}

/// Entering the screen: the folder listed again, the chosen arena's
/// standings shown (and run, when the command line asked).
pub(super) fn list_arenas(mut arenas: ResMut<Arenas>, mut requests: MessageWriter<ArenaRequest>) {
    arenas.list(&arenas_root());
    let chosen = arenas.chosen;
    requests.write(ArenaRequest::Choose(chosen));
    // A file opened from the command line to play is run once, after it is chosen.
    if let Some(opened) = arenas.opened.as_mut().filter(|o| o.play) {
        opened.play = false;
        requests.write(ArenaRequest::Run);
    }
}
