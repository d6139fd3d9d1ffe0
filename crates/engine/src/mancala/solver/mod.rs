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
mod root;
pub mod search;
pub mod teach;
#[cfg(test)]
mod tests;

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};

pub use board::{Pits, Rules};
pub use endgame::{Endgame, TierError};
pub use prepare::{Preparation, Stage, needs_preparing, prepare, started};
pub use search::{Searcher, Shared, Table};
pub use teach::{MoveMargin, Teacher, shipped_margins};

use super::MancalaLevel;

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
    root::RootSearch::open(level, (endgame, table), config, shared, report)?.prove()
}
