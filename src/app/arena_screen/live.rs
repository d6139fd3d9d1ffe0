//! The screen's verbs on the run: choose an arena (its database's
//! standings read), run it, stop it, leave; and each frame, what the run's
//! threads have found, taken into what the screen shows.

use std::path::Path;
use std::sync::Arc;

use bevy::prelude::*;

use super::run::{Ending, Progress, Run};
use super::{ArenaRequest, Arenas};
use crate::app::screen::Screen;
use crate::app::session::StatusLine;
use crate::arena_run::report::Standings;

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<Live>()
        .init_resource::<Shown>()
        .add_systems(OnEnter(Screen::Arena), super::files::list_arenas)
        .add_systems(OnExit(Screen::Arena), stop_on_leaving)
        .add_systems(
            Update,
            (choose, start_run, stop_run, leave, follow_run)
                .chain()
                .in_set(Verbs)
                .run_if(in_state(Screen::Arena)),
        )
        .add_systems(Last, let_stopped_runs_go);
}

/// The screen's verbs, after the keys that ask for them.
#[derive(SystemSet, Clone, Debug, PartialEq, Eq, Hash)]
pub(super) struct Verbs;

/// The run the screen shows, and runs asked to stop that have not ended
/// yet (the window does not wait for them).
#[derive(Resource, Default)]
pub struct Live {
    pub run: Option<Run>,
    pub stopping: Vec<Run>,
}

impl Live {
    /// Shows `run` instead of the run before, which is stopped and left to
    /// end on its own.
    fn replace(&mut self, run: Option<Run>) {
        if let Some(old) = std::mem::replace(&mut self.run, run) {
            old.stop();
            self.stopping.push(old);
        }
    }

    /// A run still plays into `db`.
    fn writing(&self, db: &Path) -> bool {
        self.run.iter().chain(&self.stopping).any(|r| r.plays && !r.is_finished() && r.db == db)
    }

    /// The run shown plays games and has not ended.
    pub fn playing(&self) -> bool {
        self.run.as_ref().is_some_and(|r| r.plays && !r.ended())
    }
}

/// What the screen shows of the run, taken from its news each frame.
#[derive(Resource, Default)]
pub struct Shown {
    pub standings: Option<Arc<Standings>>,
    /// Games the standings come from.
    pub rated: u64,
    /// Where the play stands, for a run that plays.
    pub progress: Option<Progress>,
    pub phase: Phase,
    /// Why the database could not be read.
    pub problem: Option<String>,
}

/// What the run shown is doing.
#[derive(Clone, Debug, Default, PartialEq)]
pub enum Phase {
    /// No run: nothing played yet, or a file that cannot be read.
    #[default]
    Idle,
    /// Reading the standings of games played before.
    Reading,
    Playing,
    /// Asked to stop; the games being played are finishing.
    Stopping,
    Ended(Ending),
}

/// Shows another arena file, and the standings its database holds; not
/// while a run plays (it is stopped first).
fn choose(
    mut requests: MessageReader<ArenaRequest>,
    mut arenas: ResMut<Arenas>,
    mut live: ResMut<Live>,
    mut shown: ResMut<Shown>,
    mut status: ResMut<StatusLine>,
) {
    for &request in requests.read() {
        let ArenaRequest::Choose(i) = request else { continue };
        if live.playing() {
            status.error("Stop the run before choosing another arena");
            continue;
        }
        if i >= arenas.files.len() {
            continue;
        }
        arenas.chosen = i;
        *shown = Shown::default();
        let entry = &arenas.files[i];
        let run = match (&entry.arena, &entry.held) {
            (Ok(arena), Ok(held)) if *held > 0 => {
                Some(Run::read(&entry.path, arena.clone(), &entry.db, *held))
            }
            _ => None,
        };
        live.replace(run);
        status.info(format!("Arena {}", entry.path.display()));
    }
}

/// Plays the chosen arena's games not in its database yet.
fn start_run(
    mut requests: MessageReader<ArenaRequest>,
    arenas: Res<Arenas>,
    mut live: ResMut<Live>,
    mut status: ResMut<StatusLine>,
) {
    for &request in requests.read() {
        if request != ArenaRequest::Run || live.playing() {
            continue;
        }
        let Some(entry) = arenas.current() else {
            status.error(format!("No arena file in {} to run", arenas.folder.display()));
            continue;
        };
        let (arena, held) = match (&entry.arena, &entry.held) {
            (Err(e), _) | (_, Err(e)) => {
                status.error(format!("Cannot run it: {e}"));
                continue;
            }
            (Ok(arena), Ok(held)) if *held >= arena.total_games() => {
                status.info(format!("Nothing left to play: all {held} games are in {}", entry.db.display()));
                continue;
            }
            (Ok(arena), Ok(held)) => (arena.clone(), *held),
        };
        if live.writing(&entry.db) {
            status.error("The last run of this arena is still stopping; run it again in a moment");
            continue;
        }
        let opened = arenas.opened.as_ref().filter(|o| super::files::same_file(&o.path, &entry.path));
        // Every core, as `tabula arena` plays: the window rests between its
        // two frames a second.
        let jobs = opened.and_then(|o| o.jobs).unwrap_or_else(tabula_engine::core::runner::default_jobs);
        let verb = if held > 0 { "Resuming" } else { "Running" };
        status.info(format!("{verb} {} into {}", entry.path.display(), entry.db.display()));
        live.replace(Some(Run::play(&entry.path, arena, &entry.db, jobs, held)));
    }
}

fn stop_run(mut requests: MessageReader<ArenaRequest>, live: Res<Live>, mut status: ResMut<StatusLine>) {
    for &request in requests.read() {
        if request == ArenaRequest::Stop
            && let Some(run) = live.run.as_ref().filter(|_| live.playing())
        {
            run.stop();
            status.info("Stopping after the games being played…");
        }
    }
}

fn leave(mut requests: MessageReader<ArenaRequest>, mut next: ResMut<NextState<Screen>>) {
    if requests.read().any(|&r| r == ArenaRequest::Back) {
        next.set(Screen::Menu);
    }
}

/// Leaving the screen stops the run; the games played stay in the database.
fn stop_on_leaving(mut live: ResMut<Live>, mut shown: ResMut<Shown>) {
    live.replace(None);
    *shown = Shown::default();
}

/// Takes the run's news into what the screen shows; when it ends, the list
/// shows the games its database holds now and the status line says how it
/// went.
fn follow_run(
    live: Res<Live>,
    mut shown: ResMut<Shown>,
    mut arenas: ResMut<Arenas>,
    mut status: ResMut<StatusLine>,
) {
    let Some(run) = &live.run else { return };
    let news = run.news();
    shown.standings = news.standings;
    shown.rated = news.rated;
    shown.problem = news.problem;
    shown.progress = run.plays.then(|| run.progress());
    let phase = match news.end {
        Some(ending) => Phase::Ended(ending),
        None if run.stopping() => Phase::Stopping,
        None if run.plays => Phase::Playing,
        None => Phase::Reading,
    };
    if let Phase::Ended(ending) = &phase
        && !matches!(shown.phase, Phase::Ended(_))
        && run.plays
    {
        if let Some(held) = news.held {
            arenas.set_held(held);
        }
        let text = super::tables::ending_text(ending, run.resumed, run.total, &run.db);
        match ending {
            Ending::Failed(_) => status.error(text),
            _ => status.info(text),
        }
    }
    shown.phase = phase;
}

/// Runs asked to stop are let go once their threads have ended.
fn let_stopped_runs_go(mut live: ResMut<Live>) {
    if live.stopping.iter().any(Run::is_finished) {
        live.stopping.retain(|r| !r.is_finished());
    }
}
