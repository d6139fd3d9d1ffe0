//! Hot reload of the level in play, by Bevy's own file watching: when the
//! asset of the session's level file is modified, the game restarts on the
//! new level with the same seats; when the edit is broken, the error is
//! shown and the game goes on with the last good level.

use std::path::PathBuf;

use bevy::asset::AssetLoadFailedEvent;
use bevy::prelude::*;

use super::{LevelAsset, LevelSources, load_error};
use crate::app::frames::NextFrame;
use crate::app::screen::Screen;
use crate::app::session::{SessionPlan, SessionSet, SessionStarted, StatusLine, begin};

/// The level file of the running session and what became of its last edit.
#[derive(Resource, Debug, Default)]
pub struct LevelWatch {
    /// The plan the session started from; a reload reuses its seats and seed.
    pub plan: Option<SessionPlan>,
    /// The session's level file as an asset (none for a level from no file,
    /// or from a folder no source covers).
    handle: Option<Handle<LevelAsset>>,
    /// The error of the last edit, until the file is fixed.
    pub problem: Option<String>,
}

/// The game restarted on its level file, read again after an edit.
#[derive(Message, Clone, Debug)]
pub struct LevelReloaded {
    pub path: PathBuf,
}

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<LevelWatch>().add_message::<LevelReloaded>().add_systems(
        Update,
        (follow_session, reload_level).chain().in_set(SessionSet::Requests).run_if(in_state(Screen::Game)),
    );
}

/// A session started: watch its level file.
fn follow_session(
    mut started: MessageReader<SessionStarted>,
    server: Res<AssetServer>,
    sources: Res<LevelSources>,
    mut watch: ResMut<LevelWatch>,
) {
    for SessionStarted(plan) in started.read() {
        let asset = plan.level_path.as_deref().and_then(|p| sources.asset_path(p));
        watch.handle = asset.map(|a| server.load(a));
        watch.plan = Some((**plan).clone());
        watch.problem = None;
    }
}

/// The level file changed on disk: restart on it, or say why not.
fn reload_level(
    mut commands: Commands,
    mut changed: MessageReader<AssetEvent<LevelAsset>>,
    mut failed: MessageReader<AssetLoadFailedEvent<LevelAsset>>,
    levels: Res<Assets<LevelAsset>>,
    server: Res<AssetServer>,
    mut watch: ResMut<LevelWatch>,
    mut next: ResMut<NextFrame>,
) {
    let Some(id) = watch.handle.as_ref().map(Handle::id) else {
        changed.clear();
        failed.clear();
        return;
    };
    // A saved edit is being read: frames go on until it shows.
    if server.load_state(id).is_loading() {
        next.ask();
    }
    if let Some(error) = failed.read().filter(|f| f.id == id).last() {
        watch.problem = Some(load_error(&error.error));
    }
    let modified = changed.read().any(|e| matches!(e, AssetEvent::Modified { id: m } if *m == id));
    let (Some(LevelAsset(new_level)), true) = (levels.get(id), modified) else { return };
    let Some(mut plan) = watch.plan.clone() else { return };
    let file = plan.level_path.as_ref().map(|p| p.display().to_string()).unwrap_or_default();
    if *new_level == plan.level {
        // Saved again unchanged, or fixed back to what is in play.
        watch.problem = None;
        return;
    }
    let (new_game, old_game) = (new_level.game(), plan.level.game());
    if new_game.name() != old_game.name() {
        watch.problem =
            Some(format!("{file}: the level is now for {}, not {}", new_game.title(), old_game.title()));
        return;
    }
    watch.problem = None;
    plan.level = new_level.clone();
    let path = plan.level_path.clone();
    commands.queue(move |world: &mut World| match begin(world, plan) {
        Ok(()) => {
            world
                .resource_mut::<StatusLine>()
                .info("Level file changed: the game restarted on the new level");
            if let Some(path) = path {
                world.write_message(LevelReloaded { path });
            }
        }
        Err(e) => world.resource_mut::<LevelWatch>().problem = Some(format!("{file}: {e}")),
    });
}
