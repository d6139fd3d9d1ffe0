//! Watches the open level file: a saved edit restarts the game on the new
//! level within a second; a broken edit shows file, line, column and message,
//! and the game keeps the last good level.

use std::path::PathBuf;
use std::time::{Duration, SystemTime};

use bevy::prelude::*;
use tabula_engine::level;

use super::Screen;
use super::session::{SessionPlan, SessionSet, StatusLine, begin};

/// How often the file's modification time is read.
const POLL: Duration = Duration::from_millis(250);

/// The level file of the running session and what became of its last edit.
#[derive(Resource, Debug, Default)]
pub struct LevelWatch {
    /// The plan the session started from; a reload reuses its seats and seed.
    pub plan: Option<SessionPlan>,
    modified: Option<SystemTime>,
    since_poll: Duration,
    /// The error of the last edit, until the file is fixed.
    pub problem: Option<String>,
}

impl LevelWatch {
    /// Follow the level file of `plan` (if it came from one).
    pub fn follow(&mut self, plan: &SessionPlan) {
        self.modified = plan.level_path.as_deref().and_then(modified);
        self.plan = Some(plan.clone());
        self.problem = None;
    }

    fn path(&self) -> Option<PathBuf> {
        self.plan.as_ref()?.level_path.clone()
    }
}

fn modified(path: &std::path::Path) -> Option<SystemTime> {
    std::fs::metadata(path).and_then(|m| m.modified()).ok()
}

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<LevelWatch>()
        .add_systems(Update, poll_level_file.in_set(SessionSet::Requests).run_if(in_state(Screen::Game)));
}

fn poll_level_file(mut commands: Commands, time: Res<Time>, mut watch: ResMut<LevelWatch>) {
    watch.since_poll += time.delta();
    if watch.since_poll < POLL {
        return;
    }
    watch.since_poll = Duration::ZERO;
    let Some(path) = watch.path() else { return };
    let now = modified(&path);
    if now == watch.modified {
        return;
    }
    watch.modified = now;
    match level::load(&path) {
        Err(e) => watch.problem = Some(e.to_string()),
        Ok(new_level) => {
            let mut plan = watch.plan.clone().expect("a path implies a plan");
            let (new_game, old_game) = (new_level.game(), plan.level.game());
            if new_game.name() != old_game.name() {
                watch.problem = Some(format!(
                    "{}: the level is now for {}, not {}",
                    path.display(),
                    new_game.title(),
                    old_game.title()
                ));
                return;
            }
            watch.problem = None;
            plan.level = new_level;
            commands.queue(move |world: &mut World| match begin(world, plan) {
                Ok(()) => world
                    .resource_mut::<StatusLine>()
                    .info("Level file changed: the game restarted on the new level"),
                Err(e) => {
                    world.resource_mut::<LevelWatch>().problem = Some(format!("{}: {e}", path.display()))
                }
            });
        }
    }
}
