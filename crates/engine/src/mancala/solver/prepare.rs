//! A teacher made ready for a big board: the endgame databases `tabula
//! solve` would build, a proof of every first move's margin, and the table
//! of bounds that proof leaves, built once in the background, kept in the
//! data folder and loaded by every teacher after (docs/solver.md, "The
//! teacher on a big board").
//!
//! Small boards need none of it: a teacher builds their databases in
//! memory in a moment (`teach`).

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Condvar, Mutex, OnceLock};
use std::time::{Duration, Instant};

use super::board::Rules;
use super::files;
use super::search::{Shared, Table};
use super::teach::{Teacher, teaching_memory};
use super::{Config, FirstMove, Plan, Progress, SolveError};
use crate::core::Game;
use crate::mancala::{Mancala, MancalaLevel, Sow};

/// The table a preparation fills and keeps: 2^24 entries, 256 MiB.
const TABLE_BITS: u32 = 24;
/// How often the proof of the start is saved, so that quitting loses at
/// most this much of it.
const CHECKPOINT_EVERY: Duration = Duration::from_secs(30);

/// The databases and table a teacher prepares for `level`.
pub fn teaching_plan(level: &MancalaLevel) -> Plan {
    let mut plan = super::plan(level, teaching_memory(), None);
    plan.table_bits = plan.table_bits.min(TABLE_BITS);
    plan.table_bytes = 16 << plan.table_bits;
    plan
}

/// Whether a preparation with `plan` also proves every first move of the
/// start: when the databases reach five in twelve of the board's stones,
/// as for Kalah (6,4) and (6,5) (docs/solver.md). Beyond that (Kalah
/// (6,6)) the proof would take days; the databases alone then prove the
/// positions of the game's end.
pub fn proves_start(level: &MancalaLevel, plan: &Plan) -> bool {
    plan.tiers * 12 >= 2 * level.pits as u32 * level.stones as u32 * 5
}

/// Whether `level`'s teacher needs more than it builds in memory and the
/// data folder `dir` does not hold it yet.
pub fn needs_preparing(level: &MancalaLevel, dir: &Path) -> bool {
    if super::check_level(level).is_err() {
        return false;
    }
    let plan = teaching_plan(level);
    if plan.tiers <= super::teach::in_memory_tiers(level.pits) {
        return false;
    }
    let solved = || super::finished(dir, level).is_some_and(|s| s.moves.iter().all(|m| m.exact().is_some()));
    !files::tier(dir, Rules::of(level), plan.tiers).exists() || (proves_start(level, &plan) && !solved())
}

/// What a preparation is doing.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Stage {
    /// Building (or loading) the tier of `stones` stones, of `tiers`.
    Databases {
        stones: u32,
        tiers: u32,
        done: u64,
        positions: u64,
    },
    /// Proving the start: what is proven of each first move so far.
    Start {
        moves: Vec<FirstMove>,
    },
    /// The start proven (`moves`), proving the positions after a first move
    /// that plays again: `done` of `of`.
    ExtraTurns {
        moves: Vec<FirstMove>,
        done: usize,
        of: usize,
    },
    Ready,
    Failed(String),
}

impl Stage {
    /// In a player's words, for a progress line.
    pub fn words(&self) -> String {
        match self {
            Stage::Databases { stones, tiers, done, positions } => format!(
                "building endgame databases: {stones} of {tiers} stones ({:.0}% of this one)",
                100.0 * *done as f64 / (*positions).max(1) as f64
            ),
            Stage::Start { moves } => {
                let proven = moves.iter().filter(|m| m.exact().is_some()).count();
                format!("proving the opening: {proven} of {} first moves proven", moves.len())
            }
            Stage::ExtraTurns { done, of, .. } => {
                format!("proving the move after an extra turn: {done} of {of} done")
            }
            Stage::Ready => "ready".to_owned(),
            Stage::Failed(why) => format!("could not prepare: {why}"),
        }
    }
}

/// One preparation running on its own thread, once a process for a level.
#[derive(Debug)]
pub struct Preparation {
    stage: Mutex<Stage>,
    changed: Condvar,
    started: Instant,
    /// The databases are handed to the teachers: one made now proves any
    /// position, while the start is still being proven beside it.
    teaching: AtomicBool,
}

impl Preparation {
    pub(super) fn new(plan: &Plan) -> Preparation {
        Preparation {
            stage: Mutex::new(Stage::Databases { stones: 1, tiers: plan.tiers, done: 0, positions: 1 }),
            changed: Condvar::new(),
            started: Instant::now(),
            teaching: AtomicBool::new(false),
        }
    }

    pub fn stage(&self) -> Stage {
        self.stage.lock().unwrap_or_else(|e| e.into_inner()).clone()
    }

    /// Seconds since it started.
    pub fn seconds(&self) -> u64 {
        self.started.elapsed().as_secs()
    }

    /// Whether it has ended, ready or not.
    pub fn ended(&self) -> bool {
        matches!(self.stage(), Stage::Ready | Stage::Failed(_))
    }

    /// Whether a teacher made now has the databases (or it has ended):
    /// a person's position need not wait for the start's proof, which
    /// goes on beside it (a stranger saw no margin for three minutes).
    pub fn teaches(&self) -> bool {
        self.teaching.load(Ordering::Acquire) || self.ended()
    }

    /// Blocks until it has ended.
    pub fn wait(&self) {
        self.wait_for(|stage| matches!(stage, Stage::Ready | Stage::Failed(_)));
    }

    /// Blocks until a teacher made now has the databases.
    pub fn wait_to_teach(&self) {
        self.wait_for(|stage| {
            self.teaching.load(Ordering::Acquire) || matches!(stage, Stage::Ready | Stage::Failed(_))
        });
    }

    fn wait_for(&self, done: impl Fn(&Stage) -> bool) {
        let mut stage = self.stage.lock().unwrap_or_else(|e| e.into_inner());
        while !done(&stage) {
            stage = self.changed.wait(stage).unwrap_or_else(|e| e.into_inner());
        }
    }

    fn set(&self, stage: Stage) {
        *self.stage.lock().unwrap_or_else(|e| e.into_inner()) = stage;
        self.changed.notify_all();
    }

    fn set_teaching(&self) {
        let _stage = self.stage.lock().unwrap_or_else(|e| e.into_inner());
        self.teaching.store(true, Ordering::Release);
        self.changed.notify_all();
    }
}

type Running = HashMap<(Rules, u16, PathBuf), Arc<Preparation>>;

/// The preparations of this process, by level and folder.
fn running() -> std::sync::MutexGuard<'static, Running> {
    static RUNNING: OnceLock<Mutex<Running>> = OnceLock::new();
    RUNNING.get_or_init(Default::default).lock().unwrap_or_else(|e| e.into_inner())
}

/// The preparation of `level`'s teacher with `dir` this process started,
/// if any (none is started).
pub fn started(level: &MancalaLevel, dir: &Path) -> Option<Arc<Preparation>> {
    running().get(&(Rules::of(level), level.stones, dir.to_owned())).cloned()
}

/// The preparation of `level`'s teacher with the data folder `dir`,
/// started on the first call; later calls, from the window's overlay or a
/// `perfect` agent, get the same one.
pub fn prepare(level: &MancalaLevel, dir: &Path) -> Arc<Preparation> {
    running()
        .entry((Rules::of(level), level.stones, dir.to_owned()))
        .or_insert_with(|| {
            let plan = teaching_plan(level);
            let prep = Arc::new(Preparation::new(&plan));
            let (level, dir, on) = (level.clone(), dir.to_owned(), prep.clone());
            let spawned = std::thread::Builder::new().name("kalah-teacher".into()).spawn(move || {
                let end = match build(&level, &dir, &plan, &on) {
                    Ok(()) => Stage::Ready,
                    Err(e) => Stage::Failed(e.to_string()),
                };
                on.set(end);
            });
            if let Err(e) = spawned {
                prep.set(Stage::Failed(e.to_string()));
            }
            prep
        })
        .clone()
}

/// Builds (or loads) the databases of `plan`, proves the start into a
/// table that is then saved, and hands both to every teacher of these
/// rules.
pub(super) fn build(
    level: &MancalaLevel,
    dir: &Path,
    plan: &Plan,
    prep: &Preparation,
) -> Result<(), SolveError> {
    let rules = Rules::of(level);
    let config = Config {
        threads: std::thread::available_parallelism().map_or(1, |n| n.get()),
        table_bits: plan.table_bits,
        tiers: plan.tiers,
        dir: Some(dir.to_owned()),
        checkpoint_every: CHECKPOINT_EVERY,
        every_move: true,
        guess: None,
    };
    let tiers = plan.tiers;
    let report = |p: Progress| match p {
        Progress::TierBuilding { stones, done, positions } => {
            prep.set(Stage::Databases { stones, tiers, done, positions })
        }
        Progress::TierLoaded { stones, positions } | Progress::TierBuilt { stones, positions, .. } => {
            prep.set(Stage::Databases { stones, tiers, done: positions, positions })
        }
        Progress::Searching { moves, .. } => prep.set(Stage::Start { moves }),
        Progress::Resumed { .. } | Progress::Checkpointed { .. } | Progress::LeftAside { .. } => {}
    };
    let endgame = Arc::new(super::databases(rules, &config, &report)?);
    let path = files::teacher_table(dir, rules);
    let table = Arc::new(Table::read(&path).unwrap_or_else(|_| Table::new(plan.table_bits)));
    // Teachers made from now on search into the databases, and share the
    // table the start's proof fills.
    super::teach::install(rules, dir, endgame.clone(), table.clone());
    prep.set_teaching();
    let unsolved = || super::finished(dir, level).is_none_or(|s| s.moves.iter().any(|m| m.exact().is_none()));
    if proves_start(level, plan) && unsolved() {
        let solved = super::solve_with(level, &endgame, &table, &config, &Shared::default(), &report)?;
        prove_extra_turns(
            level,
            Teacher::from_parts(level, dir, endgame.clone(), table.clone()),
            &solved.moves,
            prep,
        );
        table.save(&path).map_err(|error| SolveError::Io { path: path.clone(), error })?;
    }
    Ok(())
}

/// After a first move whose last stone lands in the store the same player
/// moves again, and that position is the slowest of a game to prove (half
/// a minute on Kalah (6,4)): its margins are proven now, into the table
/// that is kept, so that the teacher answers it at once.
fn prove_extra_turns(level: &MancalaLevel, teacher: Teacher, moves: &[FirstMove], prep: &Preparation) {
    let Ok(start) = Mancala::new(level, 0) else { return };
    let mut again = Vec::new();
    for m in moves {
        let mut board = start;
        let sow = Sow { side: start.current_player().0, pit: m.pit };
        if board.play(sow).is_ok()
            && board.outcome().is_none()
            && board.current_player() == start.current_player()
        {
            again.push(board);
        }
    }
    for (done, board) in again.iter().enumerate() {
        prep.set(Stage::ExtraTurns { moves: moves.to_vec(), done, of: again.len() });
        teacher.move_margins(board);
    }
}
