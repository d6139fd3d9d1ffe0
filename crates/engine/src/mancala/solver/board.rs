//! The solver's view of a Mancala position: only the stones in the pits,
//! seen from the player to move. The stores do not change how the rest of
//! the game is played, so a position's value is the store difference still
//! to be made from it; the difference already made is added by the caller.
//!
//! Layout: `pits[0..n]` are the mover's pits in sowing order (the last one
//! beside the mover's store), `pits[n..2n]` the opponent's, in their own
//! sowing order. Pit `i` of the mover faces the opponent's pit `n-1-i`.

use super::super::{Capture, Mancala, MancalaLevel};
use crate::core::{Game, Player};

/// Most pits a side the solver holds (two rows in 32 bytes).
pub const MAX_PITS: usize = 15;
/// Most stones a pit may hold in the solver's bytes; a board with more
/// stones in all is beyond it.
pub const MAX_STONES: u32 = 255;

/// The rules that decide a position's value: the board's width, the
/// capture rule and the final sweep.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Rules {
    pub pits: u8,
    pub capture: Capture,
    pub sweep: bool,
}

impl Rules {
    pub fn of(level: &MancalaLevel) -> Rules {
        Rules { pits: level.pits, capture: level.capture, sweep: level.sweep }
    }

    /// A short name for files: `6-empty-sweep`.
    pub fn tag(&self) -> String {
        let capture = match self.capture {
            Capture::None => "nocapture",
            Capture::Standard => "standard",
            Capture::Empty => "empty",
        };
        format!("{}-{capture}-{}", self.pits, if self.sweep { "sweep" } else { "nosweep" })
    }
}

/// The stones in the pits, from the mover's side.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(align(32))]
pub struct Pits(pub [u8; 32]);

/// What one sowing did, from the mover's side.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Sowing {
    /// Stones that went to the mover's store (sown or captured), and at the
    /// end of the game the swept difference: the value the move makes now.
    /// Before the end these are the stones that left the pits, so the
    /// child holds `stones - gain`.
    pub gain: i32,
    pub extra_turn: bool,
    pub ended: bool,
}

impl Pits {
    /// The pits of an engine board, from the side of the player to move,
    /// and the store difference already made for that player.
    pub fn of(board: &Mancala) -> (Pits, i32) {
        let n = board.pits();
        let me = board.current_player();
        let cells = board.cells();
        let mut pits = [0u8; 32];
        let mine = me.index() * (n + 1);
        let theirs = (1 - me.index()) * (n + 1);
        for i in 0..n {
            pits[i] = cells[mine + i].min(255) as u8;
            pits[n + i] = cells[theirs + i].min(255) as u8;
        }
        let made = board.store(me) as i32 - board.store(me.next(2)) as i32;
        (Pits(pits), made)
    }

    /// The number of stones in the pits.
    pub fn stones(&self, n: usize) -> u32 {
        self.0[..2 * n].iter().map(|&c| c as u32).sum()
    }

    /// Pits the mover may sow from, as bits.
    #[inline]
    pub fn playable(&self, n: usize) -> u32 {
        let mut bits = 0;
        for i in 0..n {
            bits |= ((self.0[i] != 0) as u32) << i;
        }
        bits
    }

    /// The pits the mover may sow, in order.
    pub fn playable_pits(&self, n: usize) -> Vec<u8> {
        (0..n as u8).filter(|&i| self.0[i as usize] != 0).collect()
    }

    /// A sort key that puts the likeliest best move first: extra turns,
    /// then the pits nearest the store (as the solve and the teacher order
    /// the moves they prove).
    pub fn likely_best(&self, rules: Rules, pit: u8) -> (bool, std::cmp::Reverse<u8>) {
        let mut child = *self;
        (!child.sow(rules, pit as usize).extra_turn, std::cmp::Reverse(pit))
    }

    /// The first 16 bytes as one number (both rows when `n <= 8`).
    #[inline]
    fn low(&self) -> u128 {
        u128::from_le_bytes(self.0[..16].try_into().expect("16 bytes"))
    }

    /// The opponent's view of the same pits.
    #[inline]
    pub fn turned(&self, n: usize) -> Pits {
        let mut out = [0u8; 32];
        if n <= 8 {
            let (row, all) = (8 * n as u32, self.low());
            let mask = (1u128 << row) - 1;
            let turned = ((all >> row) & mask) | ((all & mask) << row);
            out[..16].copy_from_slice(&turned.to_le_bytes());
        } else {
            out[..n].copy_from_slice(&self.0[n..2 * n]);
            out[n..2 * n].copy_from_slice(&self.0[..n]);
        }
        Pits(out)
    }

    /// Whether the mover's row and the opponent's row are empty.
    #[inline]
    fn rows_empty(&self, n: usize) -> (bool, bool) {
        if n <= 8 {
            let (row, all) = (8 * n as u32, self.low());
            let mask = (1u128 << row) - 1;
            (all & mask == 0, (all >> row) & mask == 0)
        } else {
            (self.0[..n].iter().all(|&c| c == 0), self.0[n..2 * n].iter().all(|&c| c == 0))
        }
    }

    /// Sows pit `pit` of the mover (it must hold stones). Afterwards `self`
    /// is the child seen by whoever moves next: the same side after an
    /// extra turn, else the opponent. At the end of the game the pits are
    /// left empty.
    #[inline]
    pub fn sow(&mut self, rules: Rules, pit: usize) -> Sowing {
        let n = rules.pits as usize;
        let cycle = 2 * n + 1;
        let cells = &mut self.0;
        let stones = cells[pit] as usize;
        cells[pit] = 0;
        let (laps, rest) = (stones / cycle, stones % cycle);
        let mut store = laps as i32;
        if laps > 0 {
            for c in cells[..2 * n].iter_mut() {
                *c += laps as u8;
            }
        }
        // Places after `pit`: the mover's pits (places 0..n), the store
        // (place n), the opponent's pits (places n+1..=2n, cells n..2n),
        // then the mover's pits again.
        let end = pit + rest;
        for c in &mut cells[pit + 1..=end.min(n - 1)] {
            *c += 1;
        }
        if end >= n {
            store += 1;
            for c in &mut cells[n..end.min(2 * n)] {
                *c += 1;
            }
            if end >= cycle {
                for c in &mut cells[..=end - cycle] {
                    *c += 1;
                }
            }
        }
        // With no remainder the last stone fell a whole lap on, into the
        // pit sown from (place `pit`).
        let last = if end >= cycle { end - cycle } else { end };
        let extra_turn = rest != 0 && last == n;
        if last < n && cells[last] == 1 {
            let across = 2 * n - 1 - last;
            let captures = match rules.capture {
                Capture::None => false,
                Capture::Standard => cells[across] > 0,
                Capture::Empty => true,
            };
            if captures {
                store += 1 + cells[across] as i32;
                cells[last] = 0;
                cells[across] = 0;
            }
        }
        let (mine_empty, theirs_empty) = self.rows_empty(n);
        if mine_empty || theirs_empty {
            let sum = |s: &[u8]| s.iter().map(|&c| c as i32).sum::<i32>();
            let swept = if rules.sweep { sum(&self.0[..n]) - sum(&self.0[n..2 * n]) } else { 0 };
            self.0[..2 * n].fill(0);
            return Sowing { gain: store + swept, extra_turn: false, ended: true };
        }
        if !extra_turn {
            *self = self.turned(n);
        }
        Sowing { gain: store, extra_turn, ended: false }
    }
}

/// The value of a finished engine board for `seat`.
pub fn final_difference(board: &Mancala, seat: Player) -> i32 {
    board.store(seat) as i32 - board.store(seat.next(2)) as i32
}

/// Binomial coefficients up to `C(287, 31)` as far as they fit in u64
/// (larger ones saturate; no tier that large is ever built).
pub struct Binomials {
    table: Vec<[u64; 32]>,
}

impl Binomials {
    pub fn new() -> Binomials {
        let mut table = vec![[0u64; 32]; 288];
        for a in 0..288 {
            table[a][0] = 1;
            for b in 1..32 {
                table[a][b] = if a == 0 { 0 } else { table[a - 1][b - 1].saturating_add(table[a - 1][b]) };
            }
        }
        Binomials { table }
    }

    #[inline]
    pub fn get(&self, a: usize, b: usize) -> u64 {
        self.table[a][b]
    }

    /// Positions with `stones` stones in `parts` pits.
    pub fn count(&self, stones: u32, parts: usize) -> u64 {
        let a = stones as usize + parts - 1;
        if a >= self.table.len() {
            return u64::MAX;
        }
        self.get(a, parts - 1)
    }

    /// The rank of the pits among those with the same stones in `parts`
    /// pits: the colex rank of the bars that separate them.
    #[inline]
    pub fn rank(&self, pits: &Pits, parts: usize) -> u64 {
        let mut sum = 0usize;
        let mut rank = 0u64;
        for j in 0..parts - 1 {
            sum += pits.0[j] as usize;
            rank += self.table[sum + j][j + 1];
        }
        rank
    }

    /// The pits of rank `rank` with `stones` stones in `parts` pits.
    pub fn unrank(&self, mut rank: u64, stones: u32, parts: usize) -> Pits {
        let mut bars = [0usize; 32];
        let mut top = stones as usize + parts - 1;
        for j in (0..parts - 1).rev() {
            // The largest bar position b < top with C(b, j+1) <= rank.
            let mut b = top - 1;
            while self.table[b][j + 1] > rank {
                b -= 1;
            }
            bars[j] = b;
            rank -= self.table[b][j + 1];
            top = b;
        }
        let mut pits = [0u8; 32];
        let mut before = 0usize;
        for j in 0..parts - 1 {
            let sum = bars[j] - j;
            pits[j] = (sum - before) as u8;
            before = sum;
        }
        pits[parts - 1] = (stones as usize - before) as u8;
        Pits(pits)
    }
}

impl Default for Binomials {
    fn default() -> Self {
        Binomials::new()
    }
}

/// Steps `pits` to the next rank (same stones); false after the last.
#[inline]
pub fn next_pits(pits: &mut Pits, parts: usize) -> bool {
    let c = &mut pits.0;
    let mut before = 0u32;
    for j in 0..parts - 1 {
        if c[j + 1] > 0 {
            c[j + 1] -= 1;
            let sum = before + c[j] as u32 + 1;
            for x in c[..j].iter_mut() {
                *x = 0;
            }
            c[j] = sum as u8;
            return true;
        }
        before += c[j] as u32;
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mancala::rules::tests::level;

    #[test]
    fn ranks_count_every_arrangement_once_in_order() {
        let b = Binomials::new();
        for (stones, parts) in [(0, 4), (3, 4), (5, 6), (7, 8)] {
            let total = b.count(stones, parts);
            let mut pits = Pits([0; 32]);
            pits.0[parts - 1] = stones as u8;
            let mut seen = 0;
            loop {
                assert_eq!(b.rank(&pits, parts), seen);
                assert_eq!(b.unrank(seen, stones, parts), pits);
                assert_eq!(pits.0[..parts].iter().map(|&x| x as u32).sum::<u32>(), stones);
                seen += 1;
                if !next_pits(&mut pits, parts) {
                    break;
                }
            }
            assert_eq!(seen, total, "{stones} stones in {parts} pits");
        }
    }

    /// The solver's sowing agrees with the engine's on every move of random
    /// games of every rule set.
    #[test]
    fn sowing_matches_the_engine() {
        let mut rng = crate::core::rng_from_seed(5);
        for capture in [Capture::None, Capture::Standard, Capture::Empty] {
            for sweep in [false, true] {
                for (n, s) in [(6, 4), (3, 2), (4, 9), (1, 3), (2, 13)] {
                    let lvl = level(n, s, capture, sweep);
                    let rules = Rules::of(&lvl);
                    for _ in 0..200 {
                        let mut board = Mancala::new(&lvl, 0).unwrap();
                        while board.outcome().is_none() {
                            let (mut pits, made) = Pits::of(&board);
                            let me = board.current_player();
                            let sow = board.random_sow(&mut rng).unwrap();
                            let fx = pits.sow(rules, sow.pit as usize);
                            board.play(sow).unwrap();
                            let (expect, made_after) = Pits::of(&board);
                            if board.outcome().is_some() {
                                assert!(fx.ended);
                                assert_eq!(made + fx.gain, final_difference(&board, me));
                                continue;
                            }
                            assert_eq!(board.current_player() == me, fx.extra_turn);
                            assert_eq!(pits, expect);
                            let after_for_me = if fx.extra_turn { made_after } else { -made_after };
                            assert_eq!(after_for_me - made, fx.gain);
                        }
                    }
                }
            }
        }
    }
}
