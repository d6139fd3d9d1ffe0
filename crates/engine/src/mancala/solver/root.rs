//! The search of a level's start, as a type: `open` sets out every first
//! move (and what a checkpoint already proved of them), `prove` runs the
//! threads over them with a checkpoint now and then (`record`), and keeps
//! the result. Each first move is first tested against the best margin
//! proven so far (or the guess), then, if it reaches that, proven exactly.

use std::path::Path;
use std::sync::atomic::{AtomicI32, AtomicUsize, Ordering};
use std::sync::{Barrier, Mutex};
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};

use super::files::{self, SolveFiles};
use super::{
    Config, Endgame, FirstMove, GUESS_DEPTH, Pits, Progress, Rules, Searcher, Shared, Solution, SolveError,
    Table, check_level,
};
use crate::core::Game;
use crate::mancala::{Mancala, MancalaLevel};

/// What a checkpoint keeps besides the table.
#[derive(Clone, Debug, Serialize, Deserialize)]
struct Checkpoint {
    moves: Vec<FirstMove>,
    nodes: u64,
    search_seconds: f64,
}

/// A start being proven.
pub(super) struct RootSearch<'a> {
    endgame: &'a Endgame,
    table: &'a Table,
    config: &'a Config,
    shared: &'a Shared,
    report: &'a (dyn Fn(Progress) + Sync),
    rules: Rules,
    pits: Pits,
    stones: u32,
    /// Where its checkpoint and result are kept, with a folder.
    files: Option<SolveFiles>,
    /// Every first move, with its bounds as proven so far.
    moves: Mutex<Vec<FirstMove>>,
    /// The first moves, likely best first, so that a floor is soon known.
    order: Vec<usize>,
    /// The best exact margin so far: a move shown not to reach it is done.
    best: AtomicI32,
    /// Threads on each first move now.
    on: Vec<AtomicUsize>,
    /// What the runs before this one searched (after a resume).
    nodes_before: u64,
    seconds_before: f64,
    started: Instant,
}

fn io(path: &Path) -> impl FnOnce(std::io::Error) -> SolveError + use<> {
    let path = path.to_owned();
    move |error| SolveError::Io { path, error }
}

impl<'a> RootSearch<'a> {
    /// Every first move of `level`'s start, and what a checkpoint kept in
    /// the folder already proved of them (its table loaded into `table`).
    pub(super) fn open(
        level: &MancalaLevel,
        (endgame, table): (&'a Endgame, &'a Table),
        config: &'a Config,
        shared: &'a Shared,
        report: &'a (dyn Fn(Progress) + Sync),
    ) -> Result<RootSearch<'a>, SolveError> {
        check_level(level)?;
        let start = Mancala::new(level, 0).map_err(|e| SolveError::Beyond(e.to_string()))?;
        let (pits, _) = Pits::of(&start);
        let rules = Rules::of(level);
        let stones = pits.stones(rules.pits as usize);
        let files = config.dir.as_ref().map(|dir| files::solve(dir, level));
        let mut moves: Vec<FirstMove> = pits
            .playable_pits(rules.pits as usize)
            .into_iter()
            .map(|pit| FirstMove { pit, lower: -(stones as i32), upper: stones as i32 })
            .collect();
        let (mut nodes_before, mut seconds_before) = (0, 0.0);
        if let Some(files) = &files
            && let Some(kept) = kept_checkpoint(&files.checkpoint, report)
            && kept.moves.iter().map(|m| m.pit).eq(moves.iter().map(|m| m.pit))
        {
            moves = kept.moves;
            (nodes_before, seconds_before) = (kept.nodes, kept.search_seconds);
            // A table of another size or format is left aside: the proven
            // moves still count.
            if let Err(refused) = table.load(&files.table) {
                report(Progress::LeftAside { why: refused.to_string() });
            }
            let moves_proven = moves.iter().filter(|m| m.exact().is_some()).count();
            report(Progress::Resumed { checkpoint: files.checkpoint.clone(), moves_proven });
        }
        let mut order: Vec<usize> = (0..moves.len()).collect();
        order.sort_by_key(|&i| pits.likely_best(rules, moves[i].pit));
        let best = moves.iter().filter_map(FirstMove::exact).max().unwrap_or(i32::MIN);
        Ok(RootSearch {
            endgame,
            table,
            config,
            shared,
            report,
            rules,
            pits,
            stones,
            files,
            on: (0..moves.len()).map(|_| AtomicUsize::new(0)).collect(),
            moves: Mutex::new(moves),
            order,
            best: AtomicI32::new(best),
            nodes_before,
            seconds_before,
            started: Instant::now(),
        })
    }

    /// Proves the start, and keeps the result in the folder (the checkpoint
    /// and its table then go). Stopped, it records where it got to.
    pub(super) fn prove(self) -> Result<Solution, SolveError> {
        self.run_threads()?;
        let moves = self.moves.lock().expect("moves").clone();
        let value = moves.iter().filter_map(FirstMove::exact).max();
        let settled = |m: &FirstMove| m.exact().is_some() || value.is_some_and(|v| m.upper < v);
        let Some(value) = value.filter(|_| !self.shared.stopped() && moves.iter().all(settled)) else {
            self.record(&moves)?;
            return Err(SolveError::Stopped);
        };
        let solution = Solution { value, moves, nodes: self.nodes(), search_seconds: self.seconds() };
        if let Some(files) = &self.files {
            // The folder may not exist yet (a board solved without
            // databases): writing makes it.
            files::write_kept(&files.result, files::RESULT, &solution).map_err(io(&files.result))?;
            let _ = std::fs::remove_file(&files.checkpoint);
            let _ = std::fs::remove_file(&files.table);
        }
        Ok(solution)
    }

    fn nodes(&self) -> u64 {
        self.nodes_before + self.shared.nodes.load(Ordering::Relaxed)
    }

    fn seconds(&self) -> f64 {
        self.seconds_before + self.started.elapsed().as_secs_f64()
    }

    /// A checkpoint: the table, and what is proven of each first move.
    fn record(&self, moves: &[FirstMove]) -> Result<(), SolveError> {
        let Some(files) = &self.files else { return Ok(()) };
        std::fs::create_dir_all(files.checkpoint.parent().expect("a folder"))
            .map_err(io(&files.checkpoint))?;
        self.table.save(&files.table).map_err(io(&files.table))?;
        let kept = Checkpoint { moves: moves.to_vec(), nodes: self.nodes(), search_seconds: self.seconds() };
        files::write_kept(&files.checkpoint, files::CHECKPOINT, &kept).map_err(io(&files.checkpoint))?;
        (self.report)(Progress::Checkpointed { path: files.checkpoint.clone() });
        Ok(())
    }

    /// The threads, each taking the next first move in order, then joining
    /// one still open; a first pass tests against the guess, a second (once
    /// every thread is done with the first) proves what it left open. This
    /// thread reports and records meanwhile.
    fn run_threads(&self) -> Result<(), SolveError> {
        let threads = self.config.threads.clamp(1, self.moves.lock().expect("moves").len().max(1));
        let passes = [AtomicUsize::new(0), AtomicUsize::new(0)];
        let between = Barrier::new(threads);
        let finished = AtomicUsize::new(0);
        std::thread::scope(|scope| -> Result<(), SolveError> {
            for _ in 0..threads {
                scope.spawn(|| {
                    let mut searcher = Searcher::new(self.endgame, self.table, self.shared);
                    for (pass, next) in passes.iter().enumerate() {
                        if pass > 0 {
                            between.wait();
                        }
                        let guess = if pass == 0 { self.config.guess } else { None };
                        self.work_through(&mut searcher, next, guess);
                    }
                    finished.fetch_add(1, Ordering::Relaxed);
                });
            }
            let mut saved = Instant::now();
            while finished.load(Ordering::Relaxed) < threads {
                std::thread::sleep(Duration::from_millis(100));
                let now = self.moves.lock().expect("moves").clone();
                (self.report)(Progress::Searching { nodes: self.nodes(), moves: now.clone() });
                if saved.elapsed() >= self.config.checkpoint_every {
                    self.record(&now)?;
                    saved = Instant::now();
                }
            }
            Ok(())
        })
    }

    /// One thread's pass: the next first move in order (`next` shared by
    /// the threads), then, every move taken, one still open that another
    /// thread is on; until none is left or the solve is stopped.
    fn work_through(&self, searcher: &mut Searcher<'_>, next: &AtomicUsize, guess: Option<i32>) {
        while let Some(i) = (!self.shared.stopped()).then(|| next.fetch_add(1, Ordering::Relaxed)) {
            let joined = || {
                self.order
                    .iter()
                    .copied()
                    .find(|&m| self.on[m].load(Ordering::Relaxed) > 0 && self.still_open(m, guess))
            };
            let Some(i) = self.order.get(i).copied().or_else(joined) else { break };
            self.on[i].fetch_add(1, Ordering::Relaxed);
            let proven = self.prove_move(searcher, i, guess);
            self.on[i].fetch_sub(1, Ordering::Relaxed);
            if proven.is_none() {
                break;
            }
        }
    }

    /// The best exact margin proven so far, if any.
    fn floor(&self) -> Option<i32> {
        Some(self.best.load(Ordering::Relaxed)).filter(|&f| f != i32::MIN)
    }

    /// Whether first move `i` still needs work in a pass with this guess.
    fn still_open(&self, i: usize, guess: Option<i32>) -> bool {
        let mv = self.moves.lock().expect("moves")[i];
        let floor = self.floor();
        let target = floor.or(guess).filter(|_| !self.config.every_move);
        mv.exact().is_none() && floor.or(target).is_none_or(|t| mv.upper >= t)
    }

    /// First move `i`: a test against the best margin proven so far (or the
    /// guess), then, if it reaches that, its exact margin. `None`: stopped.
    fn prove_move(&self, searcher: &mut Searcher<'_>, i: usize, guess: Option<i32>) -> Option<()> {
        if !self.still_open(i, guess) {
            return Some(());
        }
        let mv = self.moves.lock().expect("moves")[i];
        let floor = self.floor();
        let mut child = self.pits;
        let fx = child.sow(self.rules, mv.pit as usize);
        // The margin is the first player's: the mover's gain, then the
        // child's value for whoever moves there.
        let sign = if fx.extra_turn { 1 } else { -1 };
        let left = self.stones - fx.gain as u32;
        let mut heard = |lower: i32, upper: i32| {
            let (lo, hi) = if sign > 0 { (lower, upper) } else { (-upper, -lower) };
            let mut moves = self.moves.lock().expect("moves");
            moves[i].lower = moves[i].lower.max(fx.gain + lo);
            moves[i].upper = moves[i].upper.min(fx.gain + hi);
        };
        let value = if fx.ended {
            fx.gain
        } else {
            // `still_open` said it may reach the target; a test says whether.
            if let Some(target) = floor.or(guess)
                && !self.config.every_move
                && mv.lower < target
            {
                let gamma = if sign > 0 { target - fx.gain } else { fx.gain - target + 1 };
                if searcher.test(&child, left, gamma, &mut heard)? != (sign > 0) {
                    return Some(());
                }
            }
            let child_guess = self.child_guess(searcher, i, (&child, left), (fx.gain, sign), guess);
            fx.gain + sign * searcher.value(&child, left, child_guess, &mut heard)?
        };
        let mut moves = self.moves.lock().expect("moves");
        moves[i].lower = value;
        moves[i].upper = value;
        self.best.fetch_max(value, Ordering::Relaxed);
        Some(())
    }

    /// Where MTD(f) starts on first move `i`'s child: the nearest proven
    /// bound, else the guess, else a quick estimate.
    fn child_guess(
        &self,
        searcher: &mut Searcher<'_>,
        i: usize,
        (child, left): (&Pits, u32),
        (gain, sign): (i32, i32),
        guess: Option<i32>,
    ) -> i32 {
        let mv = self.moves.lock().expect("moves")[i];
        let stones = self.stones as i32;
        let start = if mv.lower > -stones {
            Some(mv.lower)
        } else if mv.upper < stones {
            Some(mv.upper)
        } else {
            guess
        };
        match start {
            Some(margin) => sign * (margin - gain),
            None => {
                let wide = left as i32 + 1;
                searcher.estimate(child, left, GUESS_DEPTH, -wide, wide)
            }
        }
    }
}

/// The checkpoint kept at `path`, if there is one this tabula reads; one
/// refused is said (`Progress::LeftAside`) and the solve starts afresh.
fn kept_checkpoint(path: &Path, report: &(dyn Fn(Progress) + Sync)) -> Option<Checkpoint> {
    files::read_kept(path, files::CHECKPOINT).unwrap_or_else(|refused| {
        report(Progress::LeftAside { why: refused.to_string() });
        None
    })
}
