//! What the `perfect` agent and the window's teaching overlay ask: the
//! proven margin of every legal move from a position, for hovering a pit,
//! reviewing a game or choosing a move.
//!
//! A teacher reads the endgame databases that `tabula solve` left in the
//! data folder (or builds small ones in memory), and a finished solve of
//! the level's start; from anywhere else it searches, within a budget.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, OnceLock};

use super::board::{Pits, Rules};
use super::book::Book;
use super::endgame::Endgame;
use super::files;
pub use super::files::default_dir;
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

/// Nodes a teacher searches for one position before it gives up: tens of
/// seconds at most, which the first plies of Kalah (6,4) need even with
/// its databases (docs/solver.md, "The teacher on a big board").
pub const NODE_BUDGET: u64 = 150_000_000;
/// Nodes the window's overlay searches at most for the position on the
/// board, where a person waits and watches the pits fill in (minutes): the
/// first plies of a lopsided game of Kalah (6,4) need that.
pub const OVERLAY_NODES: u64 = 4 * NODE_BUDGET;
/// Databases a teacher builds in memory when none are on disk (bytes).
const BUILT_HERE: u64 = 16 << 20;
/// The table of a teacher with none kept on disk: 2^22 entries, 64 MiB.
const TABLE_BITS: u32 = 22;

/// Proves the value of each move of a Mancala position, within a budget.
/// Cheap to clone and safe to share with a background thread.
#[derive(Clone)]
pub struct Teacher {
    level: MancalaLevel,
    endgame: Arc<Endgame>,
    table: Arc<Table>,
    finished: Option<Arc<Solution>>,
    /// Positions proven before, here or in an earlier run.
    book: Arc<Book>,
    pub(super) budget: u64,
}

impl std::fmt::Debug for Teacher {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Teacher")
            .field("level", &self.level.name)
            .field("tiers", &self.endgame.top())
            .finish()
    }
}

/// Memory a teacher may use: a quarter of the machine's, within 512 MiB
/// and 4 GiB (a game runs beside it).
pub fn teaching_memory() -> u64 {
    (super::machine_memory() / 4).clamp(512 << 20, 4 << 30)
}

/// The tiers a teacher builds in memory for a board of `pits` pits a side.
pub fn in_memory_tiers(pits: u8) -> u32 {
    let mut tiers = 0;
    while super::database_bytes(pits, tiers + 1) <= BUILT_HERE {
        tiers += 1;
    }
    tiers
}

type Loaded = HashMap<(Rules, PathBuf), (Arc<Endgame>, Arc<Table>)>;

/// The databases and tables loaded in this process.
fn loaded() -> std::sync::MutexGuard<'static, Loaded> {
    static LOADED: OnceLock<Mutex<Loaded>> = OnceLock::new();
    LOADED.get_or_init(Default::default).lock().unwrap_or_else(|e| e.into_inner())
}

/// The databases of `rules` found under `dir`, loaded once per process,
/// and a table of proven bounds for them that every teacher of those rules
/// shares (its bounds are true of the positions whoever found them), so a
/// new teacher, one an agent a game, costs no allocation. The table a
/// preparation kept is read back. With none on disk, databases up to
/// `want` stones are built in memory (again, for a bigger board than the
/// last).
fn databases(rules: Rules, dir: &Path, want: u32) -> (Arc<Endgame>, Arc<Table>) {
    let mut loaded = loaded();
    let key = (rules, dir.to_owned());
    if let Some(kept) = loaded.get(&key).filter(|(endgame, _)| endgame.top() >= want) {
        return kept.clone();
    }
    let mut endgame = Endgame::new(rules);
    let most = teaching_memory() / 4 * 3;
    while super::database_bytes(rules.pits, endgame.top() + 1) <= most
        && endgame.load_next(dir).unwrap_or(false)
    {}
    if endgame.top() == 0 {
        let config = Config {
            threads: 1,
            table_bits: 4,
            tiers: want,
            dir: None,
            checkpoint_every: Default::default(),
            every_move: false,
            guess: None,
        };
        if let Ok(built) = super::databases(rules, &config, &|_| {}) {
            endgame = built;
        }
    }
    let table = match loaded.remove(&key) {
        Some((_, table)) => table,
        None => Arc::new(
            Table::read(&files::teacher_table(dir, rules)).unwrap_or_else(|_| Table::new(TABLE_BITS)),
        ),
    };
    let kept = (Arc::new(endgame), table);
    loaded.insert(key, kept.clone());
    kept
}

/// The margins proven for `rules` under `dir`, read once per process and
/// shared by every teacher of those rules.
fn book(rules: Rules, dir: &Path) -> Arc<Book> {
    static BOOKS: OnceLock<Mutex<HashMap<(Rules, PathBuf), Arc<Book>>>> = OnceLock::new();
    let mut books = BOOKS.get_or_init(Default::default).lock().unwrap_or_else(|e| e.into_inner());
    books
        .entry((rules, dir.to_owned()))
        .or_insert_with(|| Arc::new(Book::open(files::book(dir, rules), rules)))
        .clone()
}

/// `board` as the solver sees it for `level`'s rules: its pits from the
/// mover's side, the mover's lead in the stores, and the rules; `None`
/// for a game over or a board of other rules.
fn position_of(level: &MancalaLevel, board: &Mancala) -> Option<(Pits, i32, Rules)> {
    if board.outcome().is_some() || super::check_level(level).is_err() {
        return None;
    }
    let rules = Rules::of(level);
    if board.pits() != rules.pits as usize
        || board.capture_rule() != rules.capture
        || board.sweeps() != rules.sweep
    {
        return None;
    }
    let (pits, made) = Pits::of(board);
    Some((pits, made, rules))
}

/// Every move's margin of `board` from the book the game ships (a big
/// board's first plies), if it holds the position: at once, with no
/// databases and no preparation, for the overlay while one runs.
pub fn shipped_margins(level: &MancalaLevel, board: &Mancala) -> Option<Vec<MoveMargin>> {
    let (pits, made, rules) = position_of(level, board)?;
    let side = board.current_player().0;
    Some(from_book(super::book::shipped(rules).get(&pits)?, made, side))
}

/// A book's margins (less the stores' difference) as the moves of `side`,
/// who leads the stores by `made`.
fn from_book(known: &[(u8, i16)], made: i32, side: u8) -> Vec<MoveMargin> {
    known
        .iter()
        .map(|&(pit, rest)| MoveMargin { sow: Sow { side, pit }, margin: made + rest as i32 })
        .collect()
}

/// What a preparation made serves every teacher of `rules` made after.
pub(super) fn install(rules: Rules, dir: &Path, endgame: Arc<Endgame>, table: Arc<Table>) {
    loaded().insert((rules, dir.to_owned()), (endgame, table));
}

impl Teacher {
    /// A teacher for the boards of `level`'s rules, with what the data
    /// folder holds.
    pub fn new(level: &MancalaLevel) -> Teacher {
        Teacher::with_dir(level, &default_dir())
    }

    /// The same with databases and results kept in `dir`.
    pub fn with_dir(level: &MancalaLevel, dir: &Path) -> Teacher {
        let stones = 2 * level.pits as u32 * level.stones as u32;
        let (endgame, table) = databases(Rules::of(level), dir, in_memory_tiers(level.pits).min(stones));
        Teacher {
            level: level.clone(),
            endgame,
            table,
            finished: super::finished(dir, level).map(Arc::new),
            book: book(Rules::of(level), dir),
            budget: NODE_BUDGET,
        }
    }

    /// A teacher with no limit on its search, for a preparation.
    pub(super) fn from_parts(
        level: &MancalaLevel,
        dir: &Path,
        endgame: Arc<Endgame>,
        table: Arc<Table>,
    ) -> Teacher {
        let book = book(Rules::of(level), dir);
        Teacher { level: level.clone(), endgame, table, finished: None, book, budget: 0 }
    }

    /// The most stones the databases hold.
    pub fn tiers(&self) -> u32 {
        self.endgame.top()
    }

    /// Every legal move with its proven margin, in pit order; `None` when the
    /// game is over or the position is beyond what can be proven within the
    /// budget.
    pub fn move_margins(&self, board: &Mancala) -> Option<Vec<MoveMargin>> {
        self.move_margins_as_proven(board, &|_| {})
    }

    /// `move_margins`, the moves shared among the machine's cores, telling
    /// `heard` of each move as soon as its margin is proven.
    pub fn move_margins_as_proven(
        &self,
        board: &Mancala,
        heard: &(dyn Fn(MoveMargin) + Sync),
    ) -> Option<Vec<MoveMargin>> {
        let shared = Shared::default();
        shared.node_limit.store(self.budget, Ordering::Relaxed);
        self.move_margins_until(board, &shared, heard)
    }

    /// The same with no budget of its own: it stops when `shared` says so
    /// (its stop flag, or a node limit the caller set).
    pub fn move_margins_until(
        &self,
        board: &Mancala,
        shared: &Shared,
        heard: &(dyn Fn(MoveMargin) + Sync),
    ) -> Option<Vec<MoveMargin>> {
        let (pits, made, rules) = self.position(board)?;
        let side = board.current_player().0;
        if let Some(moves) = self.start_margins(board) {
            // Kept in the book too: the book the game ships then holds the
            // start, for the overlay while a preparation runs.
            self.book.put(pits, moves.iter().map(|m| (m.sow.pit, (m.margin - made) as i16)).collect());
            moves.iter().for_each(|m| heard(*m));
            return Some(moves);
        }
        if let Some(moves) = self.booked(&pits, made, side) {
            moves.iter().for_each(|m| heard(*m));
            return Some(moves);
        }
        let stones = pits.stones(rules.pits as usize);
        let playable = pits.playable_pits(rules.pits as usize);
        let next = AtomicUsize::new(0);
        let out = Mutex::new(Vec::new());
        let threads = std::thread::available_parallelism().map_or(1, |n| n.get()).min(playable.len()).max(1);
        // Each thread takes the next move until none is left or the budget
        // is spent (then nothing is proven of the position as a whole).
        let work = || {
            let mut searcher = Searcher::new(&self.endgame, &self.table, shared);
            while let Some(&pit) = playable.get(next.fetch_add(1, Ordering::Relaxed)) {
                let mut child = pits;
                let fx = child.sow(rules, pit as usize);
                let rest = if fx.ended {
                    0
                } else {
                    let Some(v) = searcher.value(&child, stones - fx.gain as u32, 0, &mut |_, _| {}) else {
                        return;
                    };
                    if fx.extra_turn { v } else { -v }
                };
                let proven = MoveMargin { sow: Sow { side, pit }, margin: made + fx.gain + rest };
                heard(proven);
                out.lock().unwrap_or_else(|e| e.into_inner()).push(proven);
            }
        };
        std::thread::scope(|scope| {
            for _ in 1..threads {
                scope.spawn(work);
            }
            work();
        });
        let mut out = out.into_inner().unwrap_or_else(|e| e.into_inner());
        if out.len() < playable.len() {
            return None;
        }
        out.sort_by_key(|m| m.sow.pit);
        // What the pits alone decide, kept for every later game.
        self.book.put(pits, out.iter().map(|m| (m.sow.pit, (m.margin - made) as i16)).collect());
        Some(out)
    }

    /// The margins of a position proven before, from the book.
    fn booked(&self, pits: &Pits, made: i32, side: u8) -> Option<Vec<MoveMargin>> {
        Some(from_book(&self.book.get(pits)?, made, side))
    }

    /// A best move and its proven margin, within the budget: one exact
    /// search, and for each other move one test of whether it does better,
    /// as `tabula solve` proves a start (far cheaper than every margin).
    pub fn best_move(&self, board: &Mancala) -> Option<MoveMargin> {
        let (pits, made, rules) = self.position(board)?;
        let side = board.current_player().0;
        if let Some(moves) = self.start_margins(board) {
            return moves.into_iter().max_by_key(|m| m.margin);
        }
        // Of equal margins the one the search below would pick (the first
        // in its order), so that a game goes the same with or without
        // the book.
        if let Some(moves) = self.booked(&pits, made, side) {
            let mut order = moves;
            order.sort_by_key(|m| pits.likely_best(rules, m.sow.pit));
            return order.into_iter().reduce(|best, m| if m.margin > best.margin { m } else { best });
        }
        let shared = Shared::default();
        shared.node_limit.store(self.budget, Ordering::Relaxed);
        let mut searcher = Searcher::new(&self.endgame, &self.table, &shared);
        let stones = pits.stones(rules.pits as usize);
        let mut order = pits.playable_pits(rules.pits as usize);
        order.sort_by_key(|&pit| pits.likely_best(rules, pit));
        let mut best: Option<MoveMargin> = None;
        for pit in order {
            let mut child = pits;
            let fx = child.sow(rules, pit as usize);
            let base = made + fx.gain;
            let margin = if fx.ended {
                base
            } else {
                let left = stones - fx.gain as u32;
                let sign = if fx.extra_turn { 1 } else { -1 };
                if let Some(b) = best {
                    // Better than the best so far: sign × value ≥ target.
                    let target = b.margin + 1 - base;
                    let beats = if sign > 0 {
                        searcher.test(&child, left, target, &mut |_, _| {})?
                    } else {
                        !searcher.test(&child, left, 1 - target, &mut |_, _| {})?
                    };
                    if !beats {
                        continue;
                    }
                }
                base + sign * searcher.value(&child, left, 0, &mut |_, _| {})?
            };
            if best.is_none_or(|b| margin > b.margin) {
                best = Some(MoveMargin { sow: Sow { side, pit }, margin });
            }
        }
        best
    }

    /// The position in the solver's terms (its pits, the mover's store
    /// lead, the rules), if this teacher can prove it at all.
    fn position(&self, board: &Mancala) -> Option<(Pits, i32, Rules)> {
        position_of(&self.level, board)
    }

    /// The start's margins from a finished solve that proved every first
    /// move exactly (`--every-move`, or a preparation).
    fn start_margins(&self, board: &Mancala) -> Option<Vec<MoveMargin>> {
        let done = self.finished.as_ref()?;
        if !done.moves.iter().all(|m| m.exact().is_some())
            || board.plies() != 0
            || Mancala::new(&self.level, 0).ok() != Some(*board)
        {
            return None;
        }
        let side = board.current_player().0;
        Some(
            done.moves
                .iter()
                .map(|m| MoveMargin { sow: Sow { side, pit: m.pit }, margin: m.lower })
                .collect(),
        )
    }
}
