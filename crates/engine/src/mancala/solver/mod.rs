//! Kalah solved as Irving, Donkers and Uiterwijk solved it ("Solving Kalah",
//! ICGA Journal 23(3), 2000): endgame databases by stones left in play
//! (`endgame`), and an MTD(f) search with a shared transposition table of
//! proven bounds down into them (`search`). `solve` drives both for a
//! level's start, with threads, progress and checkpoints that survive a
//! kill; `teach` and the `perfect` agent ask the same pieces about any
//! position.

pub mod board;
mod book;
#[cfg(feature = "commands")]
pub mod command;
pub mod endgame;
pub mod files;
pub mod prepare;
pub mod search;
pub mod teach;
#[cfg(test)]
mod tests;

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicI32, AtomicUsize, Ordering};
use std::sync::{Barrier, Mutex};
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};

pub use board::{Pits, Rules};
pub use endgame::{Endgame, TierError};
pub use prepare::{Preparation, Stage, needs_preparing, prepare, started};
pub use search::{Searcher, Shared, Table};
pub use teach::{MoveMargin, Teacher, shipped_margins};

use super::{Mancala, MancalaLevel};
use crate::core::Game;

/// Plies of the quick search that gives MTD(f) its first guess.
const GUESS_DEPTH: u32 = 10;

/// How a solve is run.
#[derive(Clone, Debug)]
pub struct Config {
    pub threads: usize,
    /// The transposition table holds `2^table_bits` entries of 16 bytes.
    pub table_bits: u32,
    /// Endgame databases are built (or loaded) up to this many stones.
    pub tiers: u32,
    /// Where the databases and checkpoints are kept; `None`: in memory only.
    pub dir: Option<PathBuf>,
    /// How often the search saves a checkpoint (with `dir`).
    pub checkpoint_every: Duration,
    /// Prove every first move's exact margin, not only that the others are
    /// worse than the best.
    pub every_move: bool,
    /// A guess at the first player's margin (Irving's `-r`): every first
    /// move is first tested against it, so a right guess leaves one test a
    /// move and two for the best. Only the order of the work: a wrong guess
    /// costs time, never the proof.
    pub guess: Option<i32>,
}

/// A first move and what is proven of its margin so far: the first
/// player's store minus the second's at the end, with perfect play after.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FirstMove {
    /// The pit sown, from 0.
    pub pit: u8,
    pub lower: i32,
    pub upper: i32,
}

impl FirstMove {
    pub fn exact(&self) -> Option<i32> {
        (self.lower == self.upper).then_some(self.lower)
    }
}

/// What a solve tells while it runs.
#[derive(Clone, Debug)]
pub enum Progress {
    TierLoaded {
        stones: u32,
        positions: u64,
    },
    TierBuilding {
        stones: u32,
        done: u64,
        positions: u64,
    },
    TierBuilt {
        stones: u32,
        positions: u64,
        seconds: f64,
    },
    Resumed {
        checkpoint: PathBuf,
        moves_proven: usize,
    },
    Searching {
        nodes: u64,
        moves: Vec<FirstMove>,
    },
    Checkpointed {
        path: PathBuf,
    },
    /// A kept file was not loaded (another format, another program's), and
    /// why; the work it held is done again.
    LeftAside {
        why: String,
    },
}

/// The proven result of a level's start.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Solution {
    /// The first player's margin with perfect play from both sides.
    pub value: i32,
    /// Every first move with its margin: exact for the best, and for the
    /// others too with `every_move`, else an upper bound below the best.
    pub moves: Vec<FirstMove>,
    /// Nodes searched (this run and, after a resume, the runs before).
    pub nodes: u64,
    /// Seconds of search (likewise summed over runs).
    pub search_seconds: f64,
}

impl Solution {
    /// The pits of the best first moves.
    pub fn best_moves(&self) -> Vec<u8> {
        self.moves.iter().filter(|m| m.lower == self.value).map(|m| m.pit).collect()
    }
}

/// Why a solve could not be done.
#[derive(Debug, thiserror::Error)]
pub enum SolveError {
    #[error(transparent)]
    Tier(#[from] TierError),
    #[error("{0}")]
    Beyond(String),
    #[error("{path}: {error}")]
    Io { path: PathBuf, error: std::io::Error },
    #[error("stopped")]
    Stopped,
}

/// What a checkpoint keeps besides the table.
#[derive(Clone, Debug, Serialize, Deserialize)]
struct Checkpoint {
    moves: Vec<FirstMove>,
    nodes: u64,
    search_seconds: f64,
}

/// How a solve of a level will use its memory.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Plan {
    pub tiers: u32,
    pub table_bits: u32,
    /// Bytes of the databases and of the table.
    pub database_bytes: u64,
    pub table_bytes: u64,
}

impl Plan {
    pub fn words(&self) -> String {
        format!(
            "plan: endgame databases up to {} stones ({} MiB), a table of {} entries ({} MiB)",
            self.tiers,
            self.database_bytes >> 20,
            1u64 << self.table_bits,
            self.table_bytes >> 20
        )
    }
}

/// Positions (a byte each) in the databases of `rules` up to `tiers` stones.
pub fn database_bytes(pits: u8, tiers: u32) -> u64 {
    let b = board::Binomials::new();
    (0..=tiers).map(|k| b.count(k, 2 * pits as usize)).fold(0u64, |a, c| a.saturating_add(c))
}

/// The databases and table for `level` within `memory` bytes: the
/// databases take up to three quarters (never more stones than the board
/// has, nor more than `MOST_TIERS`), the table the rest, up to 4 GiB and
/// at most sixteen times the databases.
pub fn plan(level: &MancalaLevel, memory: u64, tiers: Option<u32>) -> Plan {
    let total = 2 * level.pits as u32 * level.stones as u32;
    let tiers = tiers.unwrap_or_else(|| {
        // Fit to the boards measured (docs/solver.md): 20 stones for Kalah
        // (6,4), 27 for (6,5), where one tier fewer or more costs more
        // time than it saves; five in twelve on small boards. Bigger boards
        // stop at `MOST_TIERS`.
        let mut k = 0;
        let most = (total * 7 / 12).saturating_sub(8).max(total * 5 / 12).min(MOST_TIERS);
        while k < most && database_bytes(level.pits, k + 1) <= memory / 4 * 3 {
            k += 1;
        }
        k
    });
    let tiers = tiers.min(total).min(endgame::MAX_TIER);
    let database = database_bytes(level.pits, tiers);
    // No bigger than the databases sixteen times over: a small board's
    // search touches few entries, and each one touched costs a page.
    let rest =
        memory.saturating_sub(database).clamp(1 << 24, 1 << 32).min(database.saturating_mul(16).max(1 << 24));
    let table_bits = 63 - (rest / 16).leading_zeros();
    Plan { tiers, table_bits, database_bytes: database, table_bytes: 16 << table_bits }
}

/// The most tiers a plan builds unasked: building more costs more time
/// than the search it saves (docs/solver.md).
pub const MOST_TIERS: u32 = 27;

/// The machine's memory in bytes (4 GiB when it cannot be read).
pub fn machine_memory() -> u64 {
    std::fs::read_to_string("/proc/meminfo")
        .ok()
        .and_then(|m| {
            let line = m.lines().find(|l| l.starts_with("MemTotal:"))?;
            line.split_whitespace().nth(1)?.parse::<u64>().ok()
        })
        .map_or(4 << 30, |kib| kib * 1024)
}

/// Whether the solver can hold a level at all; the reason if not.
pub fn check_level(level: &MancalaLevel) -> Result<(), SolveError> {
    let total = 2 * level.pits as u32 * level.stones as u32;
    if total > board::MAX_STONES {
        let positions = database_bytes(level.pits, total);
        let estimate =
            if positions == u64::MAX { "more than 1.8e19".to_owned() } else { format!("{positions:.2e}") };
        return Err(SolveError::Beyond(format!(
            "{total} stones are beyond the solver: it holds at most {} (a pit's count must fit a byte), \
             and a board of {total} stones on {} pits has {estimate} positions",
            board::MAX_STONES,
            2 * level.pits
        )));
    }
    Ok(())
}

/// Builds or loads the databases up to `config.tiers` stones.
pub fn databases(
    rules: Rules,
    config: &Config,
    report: &(dyn Fn(Progress) + Sync),
) -> Result<Endgame, SolveError> {
    let mut endgame = Endgame::new(rules);
    while endgame.top() < config.tiers {
        let stones = endgame.top() + 1;
        if let Some(dir) = &config.dir
            && endgame.load_next(dir)?
        {
            report(Progress::TierLoaded { stones, positions: endgame.tier_size(stones) });
            continue;
        }
        let positions = endgame.tier_size(stones);
        let started = Instant::now();
        endgame
            .build_next(config.threads, &|done| report(Progress::TierBuilding { stones, done, positions }));
        if let Some(dir) = &config.dir {
            endgame.save_top(dir)?;
        }
        report(Progress::TierBuilt { stones, positions, seconds: started.elapsed().as_secs_f64() });
    }
    Ok(endgame)
}

/// A finished solve of `level` kept under `dir`, if there is one (a result
/// of an older format, or a foreign file, is none: the solve is made again).
pub fn finished(dir: &Path, level: &MancalaLevel) -> Option<Solution> {
    kept_result(dir, level).ok().flatten()
}

/// The finished solve kept under `dir`, none, or why the file there was
/// refused.
pub fn kept_result(dir: &Path, level: &MancalaLevel) -> Result<Option<Solution>, files::Refused> {
    files::read_kept(&files::solve(dir, level).result, files::RESULT)
}

/// Proves the value of `level`'s start: every first move's exact margin.
pub fn solve(
    level: &MancalaLevel,
    endgame: &Endgame,
    config: &Config,
    shared: &Shared,
    report: &(dyn Fn(Progress) + Sync),
) -> Result<Solution, SolveError> {
    solve_with(level, endgame, &Table::new(config.table_bits), config, shared, report)
}

/// `solve` into a table the caller keeps: what it proves of the positions
/// below the start then serves the teacher (`teach::prepare`).
pub fn solve_with(
    level: &MancalaLevel,
    endgame: &Endgame,
    table: &Table,
    config: &Config,
    shared: &Shared,
    report: &(dyn Fn(Progress) + Sync),
) -> Result<Solution, SolveError> {
    check_level(level)?;
    let start = Mancala::new(level, 0).map_err(|e| SolveError::Beyond(e.to_string()))?;
    let (pits, _) = Pits::of(&start);
    let rules = Rules::of(level);
    let stones = pits.stones(rules.pits as usize);
    let paths = config.dir.as_ref().map(|dir| files::solve(dir, level));
    let io = |path: &Path| {
        let path = path.to_owned();
        move |error| SolveError::Io { path, error }
    };

    // Every first move, and what a checkpoint already proved of them.
    let mut moves: Vec<FirstMove> = pits
        .playable_pits(rules.pits as usize)
        .into_iter()
        .map(|pit| FirstMove { pit, lower: -(stones as i32), upper: stones as i32 })
        .collect();
    let (mut nodes_before, mut seconds_before) = (0, 0.0);
    if let Some(files) = &paths
        && let Some(kept) = kept_checkpoint(&files.checkpoint, report)
        && kept.moves.iter().map(|m| m.pit).eq(moves.iter().map(|m| m.pit))
    {
        moves = kept.moves;
        nodes_before = kept.nodes;
        seconds_before = kept.search_seconds;
        // A table of another size or format is left aside: the proven moves
        // still count.
        if let Err(refused) = table.load(&files.table) {
            report(Progress::LeftAside { why: refused.to_string() });
        }
        let moves_proven = moves.iter().filter(|m| m.exact().is_some()).count();
        report(Progress::Resumed { checkpoint: files.checkpoint.clone(), moves_proven });
    }

    let started = Instant::now();
    let mut order: Vec<usize> = (0..moves.len()).collect();
    order.sort_by_key(|&i| pits.likely_best(rules, moves[i].pit));
    let moves = Mutex::new(moves);
    // The best exact margin so far: a move shown not to reach it is done.
    let best = AtomicI32::new(i32::MIN);
    for m in moves.lock().expect("moves").iter() {
        if let Some(v) = m.exact() {
            best.fetch_max(v, Ordering::Relaxed);
        }
    }
    let count = moves.lock().expect("moves").len();
    let finished_threads = AtomicUsize::new(0);
    let threads = config.threads.clamp(1, count.max(1));
    // A first pass tests against the guess; a second, once every thread is
    // done with the first, proves what the guess left open.
    let passes = [AtomicUsize::new(0), AtomicUsize::new(0)];
    let between = Barrier::new(threads);
    let checkpoint = |moves: &[FirstMove]| -> Result<(), SolveError> {
        let Some(files) = &paths else { return Ok(()) };
        std::fs::create_dir_all(files.checkpoint.parent().expect("a folder"))
            .map_err(io(&files.checkpoint))?;
        table.save(&files.table).map_err(io(&files.table))?;
        let kept = Checkpoint {
            moves: moves.to_vec(),
            nodes: nodes_before + shared.nodes.load(Ordering::Relaxed),
            search_seconds: seconds_before + started.elapsed().as_secs_f64(),
        };
        files::write_kept(&files.checkpoint, files::CHECKPOINT, &kept).map_err(io(&files.checkpoint))?;
        report(Progress::Checkpointed { path: files.checkpoint.clone() });
        Ok(())
    };

    // Threads on each first move now.
    let on: Vec<AtomicUsize> = (0..count).map(|_| AtomicUsize::new(0)).collect();
    // Whether a first move still needs work in a pass with this guess.
    let open = |i: usize, guess: Option<i32>| {
        let mv = moves.lock().expect("moves")[i];
        let floor = Some(best.load(Ordering::Relaxed)).filter(|&f| f != i32::MIN);
        let target = floor.or(guess).filter(|_| !config.every_move);
        mv.exact().is_none() && floor.or(target).is_none_or(|t| mv.upper >= t)
    };
    // One first move: a test against the best margin proven so far (or the
    // guess), then, if it reaches that, its exact margin. `None`: stopped.
    let prove_move = |searcher: &mut Searcher<'_>, i: usize, guess: Option<i32>| -> Option<()> {
        if !open(i, guess) {
            return Some(());
        }
        let mv = moves.lock().expect("moves")[i];
        let floor = Some(best.load(Ordering::Relaxed)).filter(|&f| f != i32::MIN);
        let mut child = pits;
        let fx = child.sow(rules, mv.pit as usize);
        // The margin is the first player's: the mover's gain, then the
        // child's value for whoever moves there.
        let sign = if fx.extra_turn { 1 } else { -1 };
        let left = stones - fx.gain as u32;
        let mut heard = |lower: i32, upper: i32| {
            let (lo, hi) = if sign > 0 { (lower, upper) } else { (-upper, -lower) };
            let mut moves = moves.lock().expect("moves");
            moves[i].lower = moves[i].lower.max(fx.gain + lo);
            moves[i].upper = moves[i].upper.min(fx.gain + hi);
        };
        let value = if fx.ended {
            fx.gain
        } else {
            // `open` said it may reach the target; a test says whether.
            if let Some(target) = floor.or(guess)
                && !config.every_move
                && mv.lower < target
            {
                let gamma = if sign > 0 { target - fx.gain } else { fx.gain - target + 1 };
                if searcher.test(&child, left, gamma, &mut heard)? != (sign > 0) {
                    return Some(());
                }
            }
            // MTD(f) from the nearest proven bound, else the guess, else a
            // quick estimate.
            let mv = moves.lock().expect("moves")[i];
            let start = if mv.lower > -(stones as i32) {
                Some(mv.lower)
            } else if mv.upper < stones as i32 {
                Some(mv.upper)
            } else {
                guess
            };
            let child_guess = match start {
                Some(margin) => sign * (margin - fx.gain),
                None => {
                    let wide = left as i32 + 1;
                    searcher.estimate(&child, left, GUESS_DEPTH, -wide, wide)
                }
            };
            fx.gain + sign * searcher.value(&child, left, child_guess, &mut heard)?
        };
        let mut moves = moves.lock().expect("moves");
        moves[i].lower = value;
        moves[i].upper = value;
        best.fetch_max(value, Ordering::Relaxed);
        Some(())
    };

    std::thread::scope(|scope| -> Result<(), SolveError> {
        for _ in 0..threads {
            scope.spawn(|| {
                let mut searcher = Searcher::new(endgame, table, shared);
                for (pass, next) in passes.iter().enumerate() {
                    if pass > 0 {
                        between.wait();
                    }
                    let guess = if pass == 0 { config.guess } else { None };
                    while let Some(i) = (!shared.stopped()).then(|| next.fetch_add(1, Ordering::Relaxed)) {
                        // Likely best first, so that a floor is soon known:
                        // extra turns, then the pits nearest the store. Once
                        // every move is taken, a thread joins one still open.
                        let joined = || {
                            order
                                .iter()
                                .copied()
                                .find(|&m| on[m].load(Ordering::Relaxed) > 0 && open(m, guess))
                        };
                        let Some(i) = order.get(i).copied().or_else(joined) else { break };
                        on[i].fetch_add(1, Ordering::Relaxed);
                        let proven = prove_move(&mut searcher, i, guess);
                        on[i].fetch_sub(1, Ordering::Relaxed);
                        if proven.is_none() {
                            break;
                        }
                    }
                }
                finished_threads.fetch_add(1, Ordering::Relaxed);
            });
        }
        let mut saved = Instant::now();
        while finished_threads.load(Ordering::Relaxed) < threads {
            std::thread::sleep(Duration::from_millis(100));
            let now = moves.lock().expect("moves").clone();
            report(Progress::Searching {
                nodes: nodes_before + shared.nodes.load(Ordering::Relaxed),
                moves: now.clone(),
            });
            if saved.elapsed() >= config.checkpoint_every {
                checkpoint(&now)?;
                saved = Instant::now();
            }
        }
        Ok(())
    })?;

    let moves = moves.into_inner().expect("moves");
    let value = moves.iter().filter_map(FirstMove::exact).max();
    let settled = |m: &FirstMove| m.exact().is_some() || value.is_some_and(|v| m.upper < v);
    let Some(value) = value.filter(|_| !shared.stopped() && moves.iter().all(settled)) else {
        checkpoint(&moves)?;
        return Err(SolveError::Stopped);
    };
    let solution = Solution {
        value,
        moves,
        nodes: nodes_before + shared.nodes.load(Ordering::Relaxed),
        search_seconds: seconds_before + started.elapsed().as_secs_f64(),
    };
    if let Some(files) = &paths {
        // The folder may not exist yet (a board solved without databases):
        // writing makes it.
        files::write_kept(&files.result, files::RESULT, &solution).map_err(io(&files.result))?;
        let _ = std::fs::remove_file(&files.checkpoint);
        let _ = std::fs::remove_file(&files.table);
    }
    Ok(solution)
}

/// The checkpoint kept at `path`, if there is one this tabula reads; one
/// refused is said (`Progress::LeftAside`) and the solve starts afresh.
fn kept_checkpoint(path: &Path, report: &(dyn Fn(Progress) + Sync)) -> Option<Checkpoint> {
    files::read_kept(path, files::CHECKPOINT).unwrap_or_else(|refused| {
        report(Progress::LeftAside { why: refused.to_string() });
        None
    })
}
