//! Hot reload both ways. The edited file is watched as a level asset: an
//! edit saved from a text editor shows in the editor at once, as one edit
//! that Ctrl+Z takes back (a broken one is named and changes nothing). The
//! editor's own saves reach a game running the file the same way: the game
//! restarts on them (see `levels::reload`).

use bevy::asset::AssetLoadFailedEvent;
use bevy::prelude::*;
use tabula_engine::level;
use tabula_engine::robots::Robots;
use tabula_engine::robots::edit::{RobotEdit, Settings as LevelSettings};

use super::Editing;
use crate::app::levels::{LevelAsset, LevelSources};
use crate::app::session::StatusLine;

/// The edited file as an asset, while the editor shows it.
#[derive(Resource, Default)]
pub(super) struct EditorWatch(Option<Handle<LevelAsset>>);

/// Watches the file being edited, when a level folder covers it.
pub(super) fn watch_file(
    editing: Res<Editing>,
    server: Res<AssetServer>,
    sources: Res<LevelSources>,
    mut watch: ResMut<EditorWatch>,
) {
    if editing.is_added() || watch.0.is_none() {
        watch.0 = sources.asset_path(&editing.path).map(|a| server.load(a));
    }
}

/// The file changed on disk: its level becomes one edit, unless it is what
/// the editor itself saved.
pub(super) fn follow_file(
    mut editing: ResMut<Editing>,
    watch: Res<EditorWatch>,
    mut changed: MessageReader<AssetEvent<LevelAsset>>,
    mut failed: MessageReader<AssetLoadFailedEvent<LevelAsset>>,
    mut status: ResMut<StatusLine>,
) {
    let Some(id) = watch.0.as_ref().map(Handle::id) else {
        changed.clear();
        failed.clear();
        return;
    };
    let modified = changed.read().any(|e| matches!(e, AssetEvent::Modified { id: m } if *m == id));
    let broke = failed.read().any(|f| f.id == id);
    if !(modified || broke) {
        return;
    }
    let name = editing.path.display().to_string();
    let Ok(text) = std::fs::read_to_string(&editing.path) else { return };
    match level::read_unchecked(&text, &name) {
        Ok(file) => {
            let Some(on_disk) = file.get::<Robots>() else {
                status.error(format!(
                    "{name} is now a {} level: the editor keeps what it had",
                    file.game().title()
                ));
                return;
            };
            if on_disk == editing.level() || on_disk == editing.saved_level() {
                return;
            }
            let edit = RobotEdit::Many(vec![
                RobotEdit::Board(on_disk.board.clone()),
                RobotEdit::Robots(on_disk.robots.clone()),
                RobotEdit::Settings(Box::new(LevelSettings::of(on_disk))),
            ]);
            editing.edit(edit);
            editing.mark_saved();
            status.info(format!("{name} changed on disk: the edit shows here (Ctrl+Z takes it back)"));
        }
        Err(e) => {
            status.error(format!("The file changed on disk but cannot be read, so nothing changed here: {e}"))
        }
    }
}
