//! What the `perfect` agent and the window's teaching overlay ask: the
//! proven margin of every legal move from a position, for hovering a pit,
//! reviewing a game or choosing a move.
//!
//! A teacher reads the endgame databases that `tabula solve` left in the
//! data folder (or builds small ones in memory), and a finished solve of
//! the level's start; from anywhere else it searches, within a budget.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::Ordering;
use std::sync::{Arc, Mutex, OnceLock};

use super::board::{Pits, Rules};
use super::endgame::Endgame;
use super::search::{Searcher, Shared, Table};
use super::{Config, Solution};
use crate::core::Game;
use crate::mancala::{Mancala, MancalaLevel, Sow};

/// A legal move and where it leads with perfect play after it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MoveMargin {
    pub sow: Sow,
    /// The mover's store minus the opponent's at the end of the game when
    /// the mover plays `sow` and both sides then play perfectly (the stones
    /// already in the stores count).
    pub margin: i32,
}

/// Nodes a teacher searches for one position before it gives up.
pub const NODE_BUDGET: u64 = 6_000_000;
/// Databases a teacher builds in memory when none are on disk (bytes).
const BUILT_HERE: u64 = 16 << 20;
/// Databases a teacher loads from disk at most (bytes).
const LOADED_AT_MOST: u64 = 2 << 30;
const TABLE_BITS: u32 = 22;

/// Proves the value of each move of a Mancala position, within a budget.
/// Cheap to clone and safe to share with a background thread.
#[derive(Clone)]
pub struct Teacher {
    level: MancalaLevel,
    endgame: Arc<Endgame>,
    table: Arc<Table>,
    finished: Option<Arc<Solution>>,
    budget: u64,
}

impl std::fmt::Debug for Teacher {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Teacher")
            .field("level", &self.level.name)
            .field("tiers", &self.endgame.top())
            .finish()
    }
}

/// Where `tabula solve` keeps databases and results unless told otherwise:
/// `kalah/` in the data folder (`$TABULA_DATA_DIR`, else
/// `$XDG_DATA_HOME/tabula`, else `~/.local/share/tabula`).
pub fn default_dir() -> PathBuf {
    crate::core::data_dir().join("kalah")
}

/// The databases of `rules` found under `dir`, loaded once per process,
/// and a table of proven bounds for them that every teacher of those rules
/// shares (its bounds are true of the positions whoever found them), so a
/// new teacher, one an agent a game, costs no allocation.
fn databases(rules: Rules, dir: &Path) -> (Arc<Endgame>, Arc<Table>) {
    type Loaded = HashMap<(Rules, PathBuf), (Arc<Endgame>, Arc<Table>)>;
    static LOADED: OnceLock<Mutex<Loaded>> = OnceLock::new();
    let mut loaded = LOADED.get_or_init(Default::default).lock().unwrap_or_else(|e| e.into_inner());
    loaded
        .entry((rules, dir.to_owned()))
        .or_insert_with(|| {
            let mut endgame = Endgame::new(rules);
            while super::database_bytes(rules.pits, endgame.top() + 1) <= LOADED_AT_MOST
                && endgame.load_next(dir).unwrap_or(false)
            {}
            if endgame.top() == 0 {
                let mut tiers = 0;
                while super::database_bytes(rules.pits, tiers + 1) <= BUILT_HERE {
                    tiers += 1;
                }
                let config = Config {
                    threads: 1,
                    table_bits: 4,
                    tiers,
                    dir: None,
                    checkpoint_every: Default::default(),
                    every_move: false,
                    guess: None,
                };
                if let Ok(built) = super::databases(rules, &config, &|_| {}) {
                    endgame = built;
                }
            }
            (Arc::new(endgame), Arc::new(Table::new(TABLE_BITS)))
        })
        .clone()
}

impl Teacher {
    /// A teacher for the boards of `level`'s rules, with what the data
    /// folder holds.
    pub fn new(level: &MancalaLevel) -> Teacher {
        Teacher::with_dir(level, &default_dir())
    }

    /// The same with databases and results kept in `dir`.
    pub fn with_dir(level: &MancalaLevel, dir: &Path) -> Teacher {
        let (endgame, table) = databases(Rules::of(level), dir);
        Teacher {
            level: level.clone(),
            endgame,
            table,
            finished: super::finished(dir, level).map(Arc::new),
            budget: NODE_BUDGET,
        }
    }

    /// The most stones the databases hold.
    pub fn tiers(&self) -> u32 {
        self.endgame.top()
    }

    /// Every legal move with its proven margin, in pit order; `None` when the
    /// game is over or the position is beyond what can be proven within the
    /// budget (seconds, not minutes).
    pub fn move_margins(&self, board: &Mancala) -> Option<Vec<MoveMargin>> {
        if board.outcome().is_some() || super::check_level(&self.level).is_err() {
            return None;
        }
        let rules = Rules::of(&self.level);
        if board.pits() != rules.pits as usize
            || board.capture_rule() != rules.capture
            || board.sweeps() != rules.sweep
        {
            return None;
        }
        let (pits, made) = Pits::of(board);
        let side = board.current_player().0;
        // A finished solve gives the start's margins when it proved every
        // first move exactly (`--every-move`); else the search does.
        if let Some(done) = &self.finished
            && done.moves.iter().all(|m| m.exact().is_some())
            && board.plies() == 0
            && Mancala::new(&self.level, 0).is_ok_and(|start| start == *board)
        {
            return Some(
                done.moves
                    .iter()
                    .map(|m| MoveMargin { sow: Sow { side, pit: m.pit }, margin: m.lower })
                    .collect(),
            );
        }
        let stones = pits.stones(rules.pits as usize);
        let shared = Shared::default();
        shared.node_limit.store(self.budget, Ordering::Relaxed);
        let mut searcher = Searcher::new(&self.endgame, &self.table, &shared);
        let mut out = Vec::new();
        let mut bits = pits.playable(rules.pits as usize);
        while bits != 0 {
            let pit = bits.trailing_zeros() as u8;
            bits &= bits - 1;
            let mut child = pits;
            let fx = child.sow(rules, pit as usize);
            let rest = if fx.ended {
                0
            } else {
                let v = searcher.value(&child, stones - fx.gain as u32, 0, &mut |_, _| {})?;
                if fx.extra_turn { v } else { -v }
            };
            out.push(MoveMargin { sow: Sow { side, pit }, margin: made + fx.gain + rest });
        }
        Some(out)
    }
}
