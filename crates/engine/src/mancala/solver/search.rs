//! The search that proves a position's value: MTD(f) over zero-window
//! alpha-beta (Plaat et al.), every line searched to the end of the game or
//! into the endgame databases, a transposition table of proven bounds
//! shared by the threads, and move ordering (the table's best move, then
//! extra turns, then the biggest gains).
//!
//! No depth limit: every bound in the table is proven, so a bound found in
//! one search serves every later one, and the table can be saved and loaded
//! again (a checkpoint).

use std::fs;
use std::io::{Read, Write};
use std::path::Path;
use std::sync::atomic::{AtomicBool, AtomicU8, AtomicU64, Ordering};

use super::board::{Pits, Rules, Sowing};
use super::endgame::Endgame;
use super::files::{self, Refused};

const NO_PIT: u8 = 0xFF;
/// Nodes a thread counts before it adds them to the shared count and looks
/// at the stop flag.
const FLUSH: u64 = 4096;
/// Entries of the table's busy marks.
const BUSY_SLOTS: usize = 1 << 20;
/// A subtree is marked busy, and a busy child left for last, only with at
/// least this many stones more than the databases hold: below that it is
/// cheaper to search than to coordinate.
const BUSY_ABOVE: u32 = 6;

/// A transposition table of proven bounds, `2^bits` entries of 16 bytes in
/// buckets of two: one kept for the bigger subtree, one always replaced.
/// Entries are written without locks; a torn entry fails its check.
pub struct Table {
    slots: Box<[[AtomicU64; 2]]>,
    mask: u64,
    /// How many threads are inside each big subtree now, by key (ABDADA,
    /// Weill 1996): a thread leaves a subtree another is in for last, so
    /// that two threads on one move split its work rather than repeat it.
    busy: Box<[AtomicU8]>,
}

/// What the table knows of a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Known {
    lower: i32,
    upper: i32,
    best: u8,
    /// log2 of the nodes its subtree took.
    work: u8,
}

impl Known {
    fn pack(self) -> u64 {
        (self.lower as i16 as u16 as u64)
            | ((self.upper as i16 as u16 as u64) << 16)
            | ((self.best as u64) << 32)
            | ((self.work as u64) << 40)
    }

    fn unpack(data: u64) -> Known {
        Known {
            lower: data as u16 as i16 as i32,
            upper: (data >> 16) as u16 as i16 as i32,
            best: (data >> 32) as u8,
            work: (data >> 40) as u8,
        }
    }
}

impl Table {
    /// A table of `2^bits` entries (16 bytes each).
    pub fn new(bits: u32) -> Table {
        let size = 1usize << bits.clamp(4, 36);
        let slots = (0..size).map(|_| [AtomicU64::new(0), AtomicU64::new(0)]).collect();
        let busy = (0..BUSY_SLOTS).map(|_| AtomicU8::new(0)).collect();
        Table { slots, mask: (size as u64 - 1) & !1, busy }
    }

    fn busy_slot(&self, key: u64) -> &AtomicU8 {
        &self.busy[(key >> 44) as usize % BUSY_SLOTS]
    }

    /// Whether another thread is searching below `key` now.
    fn is_busy(&self, key: u64) -> bool {
        self.busy_slot(key).load(Ordering::Relaxed) != 0
    }

    /// Its size in bytes.
    pub fn bytes(&self) -> u64 {
        self.slots.len() as u64 * 16
    }

    fn probe(&self, key: u64) -> Option<Known> {
        let at = (key & self.mask) as usize;
        for slot in &self.slots[at..at + 2] {
            let data = slot[1].load(Ordering::Relaxed);
            if slot[0].load(Ordering::Relaxed) ^ data == key && data != 0 {
                return Some(Known::unpack(data));
            }
        }
        None
    }

    fn store(&self, key: u64, mut known: Known) {
        let at = (key & self.mask) as usize;
        let bucket = &self.slots[at..at + 2];
        let read = |i: usize| {
            let data = bucket[i][1].load(Ordering::Relaxed);
            (bucket[i][0].load(Ordering::Relaxed) ^ data == key && data != 0).then(|| Known::unpack(data))
        };
        let mut into = None;
        for i in 0..2 {
            if let Some(old) = read(i) {
                known.lower = known.lower.max(old.lower);
                known.upper = known.upper.min(old.upper);
                known.work = known.work.max(old.work);
                into = Some(i);
            }
        }
        let into = into.unwrap_or_else(|| {
            let kept = Known::unpack(bucket[0][1].load(Ordering::Relaxed));
            if known.work >= kept.work { 0 } else { 1 }
        });
        let data = known.pack();
        bucket[into][1].store(data, Ordering::Relaxed);
        bucket[into][0].store(key ^ data, Ordering::Relaxed);
    }

    /// Writes the table to `path` (through a temporary file), after the
    /// header that says what it is (`files`).
    pub fn save(&self, path: &Path) -> std::io::Result<()> {
        let tmp = path.with_extension("tmp");
        let mut file = std::io::BufWriter::with_capacity(1 << 20, fs::File::create(&tmp)?);
        file.write_all(&files::table_header(self.slots.len() as u64))?;
        for slot in self.slots.iter() {
            file.write_all(&slot[0].load(Ordering::Relaxed).to_le_bytes())?;
            file.write_all(&slot[1].load(Ordering::Relaxed).to_le_bytes())?;
        }
        let file = file.into_inner().map_err(|e| e.into_error())?;
        file.sync_all()?;
        fs::rename(tmp, path)
    }

    /// A table of the size `save` wrote to `path`, holding what it wrote;
    /// an old or foreign file is refused, by its name.
    pub fn read(path: &Path) -> Result<Table, Refused> {
        let io = |error| Refused::Io { path: path.to_owned(), error };
        let slots = files::read_table_header(&mut fs::File::open(path).map_err(io)?, path)?;
        if !slots.is_power_of_two() || !(16..=1 << 36).contains(&slots) {
            return Err(Refused::Foreign { path: path.to_owned(), what: "a table of a size tabula makes" });
        }
        let table = Table::new(slots.trailing_zeros());
        table.load(path)?;
        Ok(table)
    }

    /// Reads back what `save` wrote into a table of the same size; `Ok(false)`
    /// if the file is of another size (then nothing is loaded), refused if it
    /// is not such a table.
    pub fn load(&self, path: &Path) -> Result<bool, Refused> {
        let io = |error| Refused::Io { path: path.to_owned(), error };
        let mut file = std::io::BufReader::with_capacity(1 << 20, fs::File::open(path).map_err(io)?);
        if files::read_table_header(&mut file, path)? != self.slots.len() as u64 {
            return Ok(false);
        }
        let mut word = [0u8; 8];
        // Cut short, it is what was read so far: bounds stay true.
        let short = |_| Refused::Foreign { path: path.to_owned(), what: "a whole table of proven bounds" };
        for slot in self.slots.iter() {
            file.read_exact(&mut word).map_err(short)?;
            slot[0].store(u64::from_le_bytes(word), Ordering::Relaxed);
            file.read_exact(&mut word).map_err(short)?;
            slot[1].store(u64::from_le_bytes(word), Ordering::Relaxed);
        }
        Ok(true)
    }
}

/// The key of a position: its bytes, mixed.
#[inline]
fn key(pits: &Pits) -> u64 {
    let w = |i: usize| u64::from_le_bytes(pits.0[8 * i..8 * i + 8].try_into().expect("8 bytes"));
    let mut h = w(0).wrapping_mul(0x9E37_79B9_7F4A_7C15)
        ^ w(1).wrapping_mul(0xC2B2_AE3D_27D4_EB4F).rotate_left(17)
        ^ w(2).wrapping_mul(0x1656_67B1_9E37_79F9).rotate_left(31)
        ^ w(3).wrapping_mul(0x27D4_EB2F_1656_67C5).rotate_left(47);
    h ^= h >> 29;
    h = h.wrapping_mul(0xBF58_476D_1CE4_E5B9);
    h ^= h >> 32;
    // 0 marks an empty slot's data; no key needs to avoid it.
    h
}

/// Shared by the threads of one solve: the node count and the stop flag.
#[derive(Default)]
pub struct Shared {
    pub nodes: AtomicU64,
    pub stop: AtomicBool,
    /// Stop once this many nodes are searched (0: never).
    pub node_limit: AtomicU64,
}

impl Shared {
    pub fn stopped(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }
}

/// One thread's search.
pub struct Searcher<'a> {
    rules: Rules,
    n: usize,
    endgame: &'a Endgame,
    table: &'a Table,
    shared: &'a Shared,
    unflushed: u64,
    /// Nodes this thread has searched, for the size of each subtree.
    searched: u64,
    top: u32,
}

#[derive(Clone, Copy)]
struct Child {
    pits: Pits,
    fx: Sowing,
    pit: u8,
    order: i32,
    /// The stones left in its pits.
    left: u32,
    /// Its rank in a database tier, or its key in the table.
    at: u64,
}

impl<'a> Searcher<'a> {
    pub fn new(endgame: &'a Endgame, table: &'a Table, shared: &'a Shared) -> Searcher<'a> {
        let rules = endgame.rules();
        Searcher {
            rules,
            n: rules.pits as usize,
            endgame,
            table,
            shared,
            unflushed: 0,
            searched: 0,
            top: endgame.top(),
        }
    }

    /// Adds this thread's nodes to the shared count; true if the search
    /// should stop.
    fn flush(&mut self) -> bool {
        let total = self.shared.nodes.fetch_add(self.unflushed, Ordering::Relaxed) + self.unflushed;
        self.unflushed = 0;
        let limit = self.shared.node_limit.load(Ordering::Relaxed);
        if limit != 0 && total >= limit {
            self.shared.stop.store(true, Ordering::Relaxed);
        }
        self.shared.stopped()
    }

    /// The exact value of `pits` (holding `stones`) for the player to move,
    /// starting from a guess; `None` if stopped first. `bounds` hears every
    /// bound proven on the way.
    pub fn value(
        &mut self,
        pits: &Pits,
        stones: u32,
        guess: i32,
        bounds: &mut dyn FnMut(i32, i32),
    ) -> Option<i32> {
        if let Some(v) = self.endgame.value(pits, stones) {
            return Some(v);
        }
        let (mut lower, mut upper) = (-(stones as i32), stones as i32);
        if let Some(known) = self.table.probe(key(pits)) {
            lower = lower.max(known.lower);
            upper = upper.min(known.upper);
        }
        let mut g = guess.clamp(lower, upper);
        while lower < upper {
            let beta = if g == lower { g + 1 } else { g };
            g = self.search(pits, stones, beta - 1, beta);
            if self.shared.stopped() {
                self.flush();
                return None;
            }
            if g < beta {
                upper = g;
            } else {
                lower = g;
            }
            bounds(lower, upper);
        }
        self.flush();
        Some(lower)
    }

    /// A quick guess at the value for MTD(f) to start from: alpha-beta
    /// `depth` plies deep counting only the stones stored on the way (and
    /// the databases' values where they reach). Not a proof, not counted.
    pub fn estimate(&mut self, pits: &Pits, stones: u32, depth: u32, alpha: i32, beta: i32) -> i32 {
        if let Some(v) = self.endgame.value(pits, stones) {
            return v;
        }
        if depth == 0 {
            return 0;
        }
        let (children, count) = self.children(pits, stones, NO_PIT);
        let (mut alpha, mut best) = (alpha, i32::MIN);
        for child in &children[..count] {
            let gain = child.fx.gain;
            let value = if child.fx.ended {
                gain
            } else if child.fx.extra_turn {
                gain + self.estimate(&child.pits, child.left, depth - 1, alpha - gain, beta - gain)
            } else {
                gain - self.estimate(&child.pits, child.left, depth - 1, gain - beta, gain - alpha)
            };
            best = best.max(value);
            alpha = alpha.max(best);
            if alpha >= beta {
                break;
            }
        }
        best
    }

    /// Whether the value of `pits` is at least `gamma`: one zero-window
    /// search; `None` if stopped first.
    pub fn test(
        &mut self,
        pits: &Pits,
        stones: u32,
        gamma: i32,
        bounds: &mut dyn FnMut(i32, i32),
    ) -> Option<bool> {
        let v = match self.endgame.value(pits, stones) {
            Some(v) => v,
            None => self.search(pits, stones, gamma - 1, gamma),
        };
        self.flush();
        if self.shared.stopped() {
            return None;
        }
        if v >= gamma {
            bounds(v, stones as i32);
        } else {
            bounds(-(stones as i32), v);
        }
        Some(v >= gamma)
    }

    /// Fail-soft alpha-beta: the value if it lies inside (alpha, beta), else
    /// a bound on the side it fell.
    fn search(&mut self, pits: &Pits, stones: u32, alpha: i32, beta: i32) -> i32 {
        if stones <= self.top {
            return self.endgame.value(pits, stones).expect("a tier holds it");
        }
        self.unflushed += 1;
        self.searched += 1;
        if self.unflushed >= FLUSH && self.flush() {
            return 0;
        }
        let key = key(pits);
        let (mut lower, mut upper) = (-(stones as i32), stones as i32);
        let mut hint = NO_PIT;
        if let Some(known) = self.table.probe(key) {
            lower = lower.max(known.lower);
            upper = upper.min(known.upper);
            hint = known.best;
        }
        if lower >= beta || lower == upper {
            return lower;
        }
        if upper <= alpha {
            return upper;
        }
        let window = (alpha.max(lower), beta.min(upper));
        let before = self.searched;
        let (children, count) = self.children(pits, stones, hint);
        let children = &children[..count];
        if let Some(floor) = self.refuted(key, children, window.1, upper) {
            return floor;
        }
        let big = stones >= self.top + BUSY_ABOVE;
        if big {
            self.table.busy_slot(key).fetch_add(1, Ordering::Relaxed);
        }
        let best = self.best_child(children, window, big);
        if big {
            self.table.busy_slot(key).fetch_sub(1, Ordering::Relaxed);
        }
        if self.shared.stopped() {
            return 0;
        }
        self.remember(key, best, window, (lower, upper), before);
        best.0
    }

    /// Enhanced transposition cut-off: a child whose value the databases or
    /// the table already bound may refute this node without a search (the
    /// refutation is stored, and is the node's value).
    #[inline(always)]
    fn refuted(&mut self, key: u64, children: &[Child], beta: i32, upper: i32) -> Option<i32> {
        for child in children {
            let floor = self.known_floor(child);
            if floor >= beta {
                let known = Known { lower: floor, upper, best: child.pit, work: 0 };
                self.table.store(key, known);
                return Some(floor);
            }
        }
        None
    }

    /// The best child's value and pit within the window (fail-soft). The
    /// first child at once; each other one only if no other thread is below
    /// it now (on a `big` node), else once the rest are done.
    #[inline(always)]
    fn best_child(&mut self, children: &[Child], (mut alpha, beta): (i32, i32), big: bool) -> (i32, u8) {
        let count = children.len();
        let mut best = i32::MIN;
        let mut best_pit = NO_PIT;
        let mut visit = [0u8; 32];
        for (c, slot) in visit[..count].iter_mut().enumerate() {
            *slot = c as u8;
        }
        let (mut at, mut len) = (0, count);
        while at < len {
            let c = visit[at] as usize;
            at += 1;
            let child = &children[c];
            let gain = child.fx.gain;
            let left = child.left;
            if big && at > 1 && at <= count && left >= self.top + BUSY_ABOVE && self.table.is_busy(child.at) {
                visit[len] = c as u8;
                len += 1;
                continue;
            }
            let value = if child.fx.ended {
                gain
            } else if left <= self.top {
                let v = self.endgame.value_at(left, child.at);
                if child.fx.extra_turn { gain + v } else { gain - v }
            } else if child.fx.extra_turn {
                gain + self.search(&child.pits, left, alpha - gain, beta - gain)
            } else {
                gain - self.search(&child.pits, left, gain - beta, gain - alpha)
            };
            if self.shared.stopped() {
                break;
            }
            if value > best {
                best = value;
                best_pit = child.pit;
            }
            if best > alpha {
                alpha = best;
                if alpha >= beta {
                    break;
                }
            }
        }
        (best, best_pit)
    }

    /// Stores what the search of a node proved: a lower bound if it failed
    /// high, an upper one if it failed low, else its exact value; with the
    /// work it took (for which entry a bucket keeps).
    #[inline(always)]
    fn remember(
        &self,
        key: u64,
        (best, best_pit): (i32, u8),
        (alpha, beta): (i32, i32),
        (lower, upper): (i32, i32),
        before: u64,
    ) {
        let (new_lower, new_upper) = if best >= beta {
            (best, upper)
        } else if best <= alpha {
            (lower, best)
        } else {
            (best, best)
        };
        let spent = self.searched - before;
        let work = 64 - spent.leading_zeros() as u8;
        self.table.store(
            key,
            Known { lower: new_lower.max(lower), upper: new_upper.min(upper), best: best_pit, work },
        );
    }

    /// What is already known to be the least this child is worth to the
    /// mover, without searching it.
    #[inline]
    fn known_floor(&self, child: &Child) -> i32 {
        let gain = child.fx.gain;
        if child.fx.ended {
            return gain;
        }
        let (lower, upper) = if child.left <= self.top {
            let v = self.endgame.value_at(child.left, child.at);
            (v, v)
        } else {
            match self.table.probe(child.at) {
                Some(known) => (known.lower, known.upper),
                None => (-(child.left as i32), child.left as i32),
            }
        };
        if child.fx.extra_turn { gain + lower } else { gain - upper }
    }

    /// The children, best first by a cheap guess.
    #[inline]
    fn children(&self, pits: &Pits, stones: u32, hint: u8) -> ([Child; 16], usize) {
        let fx = Sowing { gain: 0, extra_turn: false, ended: false };
        let empty = Child { pits: Pits([0; 32]), fx, pit: 0, order: 0, left: 0, at: 0 };
        let mut out = [empty; 16];
        let mut count = 0;
        let mut bits = pits.playable(self.n);
        while bits != 0 {
            let pit = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            let mut child = *pits;
            let fx = child.sow(self.rules, pit);
            let mut order = 4 * fx.gain + if fx.extra_turn { 64 } else { 0 } + pit as i32;
            if pit as u8 == hint {
                order += 10_000;
            }
            let left = if fx.ended { 0 } else { stones - fx.gain as u32 };
            let at = if fx.ended {
                0
            } else if left <= self.top {
                self.endgame.rank(&child)
            } else {
                key(&child)
            };
            out[count] = Child { pits: child, fx, pit: pit as u8, order, left, at };
            count += 1;
        }
        // Insertion sort: at most 15, nearly always 6 or fewer.
        for i in 1..count {
            let mut j = i;
            while j > 0 && out[j - 1].order < out[j].order {
                out.swap(j - 1, j);
                j -= 1;
            }
        }
        (out, count)
    }
}
