//! Endgame databases: the exact value of every position with at most `top`
//! stones left in the pits, one tier per number of stones, built from the
//! smallest up (a move never puts a stone back into the pits once it is in
//! a store, so a position's children are in its own tier or below).
//!
//! A tier of `k` stones on `2n` pits holds one signed byte per arrangement,
//! `C(k + 2n - 1, 2n - 1)` of them, in the order of `Binomials::rank`. On
//! disk (docs/solver.md, "Endgame databases") a tier is a 48-byte header
//! and those bytes.

use std::fs;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicI8, AtomicU64, Ordering};

use rayon::prelude::*;

use super::board::{Binomials, Pits, Rules, next_pits};
use crate::mancala::Capture;

const MAGIC: &[u8; 16] = b"tabula kalah db\n";
const VERSION: u32 = 1;
const HEADER: usize = 48;
/// Not yet known, while a tier is built: no value is ever -128.
const UNKNOWN: i8 = i8::MIN;
/// Most stones a tier may hold (values must fit a signed byte).
pub const MAX_TIER: u32 = 127;
/// Positions handed to a thread at a time while a tier is built.
const CHUNK: u64 = 1 << 16;

/// The tiers held in memory, from 0 stones up to `top`.
pub struct Endgame {
    rules: Rules,
    parts: usize,
    binomials: Binomials,
    tiers: Vec<Vec<i8>>,
}

/// Why a tier file could not be used.
#[derive(Debug, thiserror::Error)]
pub enum TierError {
    #[error("{path}: {why}")]
    Broken { path: PathBuf, why: String },
    #[error("{path}: {error}")]
    Io { path: PathBuf, error: std::io::Error },
}

impl Endgame {
    /// No tier but the empty board's.
    pub fn new(rules: Rules) -> Endgame {
        Endgame { rules, parts: 2 * rules.pits as usize, binomials: Binomials::new(), tiers: vec![vec![0]] }
    }

    pub fn rules(&self) -> Rules {
        self.rules
    }

    /// The most stones a position may have for the databases to hold it.
    pub fn top(&self) -> u32 {
        self.tiers.len() as u32 - 1
    }

    /// Positions in the tier of `stones` stones.
    pub fn tier_size(&self, stones: u32) -> u64 {
        self.binomials.count(stones, self.parts)
    }

    /// Positions held in all tiers.
    pub fn positions(&self) -> u64 {
        self.tiers.iter().map(|t| t.len() as u64).sum()
    }

    /// The value of `pits` (holding `stones`) for the player to move, if a
    /// tier holds it.
    #[inline]
    pub fn value(&self, pits: &Pits, stones: u32) -> Option<i32> {
        let tier = self.tiers.get(stones as usize)?;
        Some(tier[self.binomials.rank(pits, self.parts) as usize] as i32)
    }

    /// The value at `rank` in the tier of `stones` stones.
    #[inline]
    pub fn value_at(&self, stones: u32, rank: u64) -> i32 {
        self.tiers[stones as usize][rank as usize] as i32
    }

    #[inline]
    pub fn rank(&self, pits: &Pits) -> u64 {
        self.binomials.rank(pits, self.parts)
    }

    /// Builds the next tier with `threads` threads; `done` hears how many of
    /// its positions are finished as the work goes on.
    pub fn build_next(&mut self, threads: usize, done: &(dyn Fn(u64) + Sync)) {
        let k = self.top() + 1;
        assert!(k <= MAX_TIER, "a tier of {k} stones would not fit a byte a position");
        let size = self.tier_size(k);
        let values: Vec<AtomicI8> = (0..size).map(|_| AtomicI8::new(UNKNOWN)).collect();
        let finished = AtomicU64::new(0);
        let chunks = size.div_ceil(CHUNK);
        let work = || {
            (0..chunks).into_par_iter().for_each(|chunk| {
                let start = chunk * CHUNK;
                let end = (start + CHUNK).min(size);
                let mut pits = self.binomials.unrank(start, k, self.parts);
                for index in start..end {
                    if values[index as usize].load(Ordering::Relaxed) == UNKNOWN {
                        let v = self.solve_in_tier(&values, &pits, k);
                        values[index as usize].store(v, Ordering::Relaxed);
                    }
                    next_pits(&mut pits, self.parts);
                }
                done(finished.fetch_add(end - start, Ordering::Relaxed) + end - start);
            })
        };
        match rayon::ThreadPoolBuilder::new().num_threads(threads.max(1)).build() {
            Ok(pool) => pool.install(work),
            Err(_) => work(),
        }
        self.tiers.push(values.into_iter().map(AtomicI8::into_inner).collect());
    }

    /// The value of a position of the tier being built; positions of the
    /// same tier it leads to are solved first and kept.
    fn solve_in_tier(&self, values_of_tier: &[AtomicI8], pits: &Pits, k: u32) -> i8 {
        let n = self.rules.pits as usize;
        let mut bits = pits.playable(n);
        if bits == 0 || pits.0[n..2 * n].iter().all(|&c| c == 0) {
            // Never reached in play (the game ended before), kept defined.
            let (mine, theirs) = sides(pits, n);
            return if self.rules.sweep { (mine - theirs) as i8 } else { 0 };
        }
        // First every child and where it is kept, then the reads: the reads
        // of the tiers below miss the cache, and issued together they wait
        // for the memory at the same time rather than one after another.
        let mut children = [(Pits([0; 32]), 0i32, 0u32, false, 0u64); 16];
        let mut count = 0;
        while bits != 0 {
            let pit = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            let mut child = *pits;
            let fx = child.sow(self.rules, pit);
            let tier = if fx.ended { u32::MAX } else { k - fx.gain as u32 };
            let rank = if fx.ended { 0 } else { self.rank(&child) };
            children[count] = (child, fx.gain, tier, fx.extra_turn, rank);
            count += 1;
        }
        let mut values = [0i32; 16];
        for (value, &(_, gain, tier, extra, rank)) in values.iter_mut().zip(&children[..count]) {
            if tier < k {
                let below = self.tiers[tier as usize][rank as usize] as i32;
                *value = gain + if extra { below } else { -below };
            }
        }
        let mut best = i32::MIN;
        for (i, &(child, gain, tier, _, rank)) in children[..count].iter().enumerate() {
            let value = if tier == u32::MAX {
                gain
            } else if tier == k {
                // Same tier: the turn passed (an extra turn puts a stone in
                // the store), and the stones moved on, so this ends.
                let mut v = values_of_tier[rank as usize].load(Ordering::Relaxed);
                if v == UNKNOWN {
                    v = self.solve_in_tier(values_of_tier, &child, k);
                    values_of_tier[rank as usize].store(v, Ordering::Relaxed);
                }
                -(v as i32)
            } else {
                values[i]
            };
            best = best.max(value);
        }
        best as i8
    }

    /// Writes the top tier to `dir` (through a temporary file, so a kill
    /// leaves the old state or the new, never half a tier).
    pub fn save_top(&self, dir: &Path) -> Result<PathBuf, TierError> {
        let k = self.top();
        let path = super::files::tier(dir, self.rules, k);
        let io = |source| TierError::Io { path: path.clone(), error: source };
        fs::create_dir_all(path.parent().unwrap_or(dir)).map_err(io)?;
        let tmp = path.with_extension("tmp");
        let mut file = fs::File::create(&tmp).map_err(io)?;
        file.write_all(&header(self.rules, k, self.tier_size(k))).map_err(io)?;
        let bytes: Vec<u8> = self.tiers[k as usize].iter().map(|&v| v as u8).collect();
        file.write_all(&bytes).map_err(io)?;
        file.sync_all().map_err(io)?;
        fs::rename(&tmp, &path).map_err(io)?;
        Ok(path)
    }

    /// Loads the next tier from `dir` if it is there; `Ok(false)` if not.
    pub fn load_next(&mut self, dir: &Path) -> Result<bool, TierError> {
        let k = self.top() + 1;
        let path = super::files::tier(dir, self.rules, k);
        let mut file = match fs::File::open(&path) {
            Ok(f) => f,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(false),
            Err(error) => return Err(TierError::Io { path, error }),
        };
        let size = self.tier_size(k);
        let mut head = [0u8; HEADER];
        let broken = |why: &str| TierError::Broken { path: path.clone(), why: why.to_owned() };
        file.read_exact(&mut head).map_err(|_| broken("shorter than its header"))?;
        if head != header(self.rules, k, size) {
            return Err(broken("its header names other rules, another tier or another format"));
        }
        let mut bytes = Vec::with_capacity(size as usize);
        file.read_to_end(&mut bytes).map_err(|source| TierError::Io { path: path.clone(), error: source })?;
        if bytes.len() as u64 != size {
            return Err(broken(&format!("holds {} positions where the tier has {size}", bytes.len())));
        }
        self.tiers.push(bytes.into_iter().map(|b| b as i8).collect());
        Ok(true)
    }
}

fn sides(pits: &Pits, n: usize) -> (i32, i32) {
    let sum = |s: &[u8]| s.iter().map(|&c| c as i32).sum::<i32>();
    (sum(&pits.0[..n]), sum(&pits.0[n..2 * n]))
}

/// The header: magic, format version, pits, capture, sweep, stones, count.
fn header(rules: Rules, stones: u32, count: u64) -> [u8; HEADER] {
    let mut h = [0u8; HEADER];
    h[..16].copy_from_slice(MAGIC);
    h[16..20].copy_from_slice(&VERSION.to_le_bytes());
    h[20] = rules.pits;
    h[21] = match rules.capture {
        Capture::None => 0,
        Capture::Standard => 1,
        Capture::Empty => 2,
    };
    h[22] = rules.sweep as u8;
    h[24..28].copy_from_slice(&stones.to_le_bytes());
    h[32..40].copy_from_slice(&count.to_le_bytes());
    h
}
