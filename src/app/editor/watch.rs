//! Hot reload both ways. The edited file is watched as a level asset: an
//! edit saved from a text editor shows in the editor at once, as one edit
//! that Ctrl+Z takes back (a broken one is named and changes nothing). The
//! editor's own saves reach a game running the file the same way: the game
//! restarts on them (see `levels::reload`).

use std::path::PathBuf;

use bevy::asset::AssetLoadFailedEvent;
use bevy::prelude::*;
use tabula_engine::level;

use super::LevelEditor;
use crate::app::levels::{LevelAsset, LevelSources};
use crate::app::session::StatusLine;

/// The edited file as an asset, and the file it is.
#[derive(Resource, Default)]
pub(super) struct EditorWatch(Option<(PathBuf, Handle<LevelAsset>)>);

/// Watches the file being edited, when a level folder covers it.
pub(super) fn watch_file<E: LevelEditor>(
    editing: Option<Res<E>>,
    server: Res<AssetServer>,
    sources: Res<LevelSources>,
    mut watch: ResMut<EditorWatch>,
) {
    let Some(path) = editing.as_deref().map(E::path) else { return };
    // A level not saved yet (a new one, the player's copy of an installed
    // one) is watched once its file is there: loading it before would
    // only report a missing file.
    if watch.0.as_ref().is_none_or(|(watched, _)| watched != path) {
        let asset = path.exists().then(|| sources.asset_path(path)).flatten();
        watch.0 = asset.map(|a| (path.to_owned(), server.load(a)));
    }
}

/// The file changed on disk: its level becomes one edit, unless it is what
/// the editor itself saved or shows.
pub(super) fn follow_file<E: LevelEditor>(
    editing: Option<ResMut<E>>,
    watch: Res<EditorWatch>,
    mut changed: MessageReader<AssetEvent<LevelAsset>>,
    mut failed: MessageReader<AssetLoadFailedEvent<LevelAsset>>,
    mut status: ResMut<StatusLine>,
) {
    let Some(id) = watch.0.as_ref().map(|(_, h)| h.id()) else {
        changed.clear();
        failed.clear();
        return;
    };
    let modified = changed.read().any(|e| matches!(e, AssetEvent::Modified { id: m } if *m == id));
    let broke = failed.read().any(|f| f.id == id);
    let Some(mut editing) = editing.filter(|_| modified || broke) else { return };
    take_from_disk(&mut *editing, &mut status);
}

/// Back in the editor (from a test-play, when the watch was not looking):
/// a change made on disk meanwhile shows as one edit, so Save does not
/// write over it.
pub(super) fn catch_up<E: LevelEditor>(editing: Option<ResMut<E>>, mut status: ResMut<StatusLine>) {
    if let Some(mut editing) = editing {
        take_from_disk(&mut *editing, &mut status);
    }
}

/// The level on disk, as one edit, unless it is what the editor itself
/// saved or shows.
fn take_from_disk<E: LevelEditor>(editing: &mut E, status: &mut StatusLine) {
    let (now, saved) = (editing.level_now(), editing.level_saved());
    let name = editing.path().display().to_string();
    let Ok(text) = std::fs::read_to_string(editing.path()) else { return };
    let on_disk = match level::read_unchecked(&text, &name) {
        Ok(level) => level,
        Err(e) => {
            status
                .error(format!("The file changed on disk but cannot be read, so nothing changed here: {e}"));
            return;
        }
    };
    if on_disk == now || on_disk == saved {
        return;
    }
    if on_disk.game().name() != now.game().name() {
        status
            .error(format!("{name} is now a {} level: the editor keeps what it had", on_disk.game().title()));
        return;
    }
    editing.take_from_disk(on_disk);
    status.info(format!("{name} changed on disk: the edit shows here (Ctrl+Z takes it back)"));
}
