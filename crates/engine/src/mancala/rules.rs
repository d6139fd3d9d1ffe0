//! Mancala's state, moves and their application.
//!
//! The board is one array of cells: player 1's pits `0..n`, player 1's store
//! `n`, player 2's pits `n+1..=2n`, player 2's store `2n+1`. Sowing runs up
//! the indices (counter-clockwise) and wraps, skipping the opponent's store.

use std::borrow::Cow;
use std::fmt;

use rand::Rng;
use serde::{Deserialize, Serialize};

use super::level::{Capture, MAX_PITS, MancalaLevel};
use crate::core::{Game, GameRng, NotYourTurn, Observation, Outcome, Player, RuleError, RuleViolation};

pub const CELLS: usize = 32;

/// Sow the stones of pit `pit` (0-based from the row owner's left, in sowing
/// order) of row `side` (0 is player 1's row). Shown as "A3", "B1".
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Sow {
    pub side: u8,
    pub pit: u8,
}

impl fmt::Display for Sow {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let row = if self.side == 0 { 'A' } else { 'B' };
        write!(f, "sow pit {row}{}", self.pit as u32 + 1)
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MancalaError {
    #[error("there is no pit {pit} in row {row}: the rows have pits 1 to {pits}")]
    NoSuchPit { row: char, pit: u32, pits: u8 },
    #[error("pit {row}{pit} is not yours: you sow from row {yours}")]
    NotYourPit { row: char, pit: u32, yours: char },
    #[error("pit {row}{pit} is empty")]
    EmptyPit { row: char, pit: u32 },
    #[error("the game is over")]
    GameOver,
    #[error(transparent)]
    NotYourTurn(#[from] NotYourTurn),
}

impl RuleError for MancalaError {
    fn not_your_turn(&self) -> Option<NotYourTurn> {
        match self {
            MancalaError::NotYourTurn(t) => Some(*t),
            _ => None,
        }
    }
}

/// Why stones moved from one cell to another.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Transfer {
    Sowing,
    Capture,
    Sweep,
}

/// One step of a move, in order. Stones are alike: a step names cells.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum MancalaStep {
    /// `by` took the `stones` of pit `sow` in hand (the move count rises).
    Sowed {
        by: Player,
        sow: Sow,
        stones: u16,
    },
    /// `stones` stones went from cell `from` to cell `to`.
    Moved {
        from: u8,
        to: u8,
        stones: u16,
        why: Transfer,
    },
    TurnChanged {
        to: Player,
        extra_turn: bool,
    },
    Ended(Outcome),
}

/// What a sowing did; enough to animate it stone by stone.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Sown {
    pub by: Player,
    pub sow: Sow,
    /// The cell the stones were taken from and how many there were.
    pub from: u8,
    pub stones: u16,
    /// The cell of the last stone.
    pub last: u8,
    pub extra_turn: bool,
    /// Stones moved to the store by a capture (the last stone included), and
    /// the opposite cell they came from.
    pub captured: u16,
    pub opposite: u8,
    /// The game ended with this move and its remaining stones were swept.
    pub swept: bool,
    pub ended: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Mancala {
    cells: [u16; CELLS],
    /// Stones in each row's pits, kept so the end is spotted without a scan.
    row_stones: [u16; 2],
    pits: u8,
    capture: Capture,
    sweep: bool,
    to_move: Player,
    plies: u32,
    move_cap: u32,
    outcome: Option<Outcome>,
}

/// What sowing `rest` stones (fewer than a lap) from one cell does.
struct SowEntry {
    /// Added to each cell, the origin's `rest` stones taken away included
    /// (as a wrapping subtraction), so a move without a lap is one addition.
    adds: [u16; CELLS],
    /// The same for each row's pits.
    row_adds: [u16; 2],
    /// The cell of the last stone.
    last: u8,
}

/// For one board size, every sowing of fewer stones than a lap, by player,
/// starting cell and count.
struct SowTable {
    cells: usize,
    cycle: usize,
    entries: Vec<SowEntry>,
    /// Per player: one in every cell a lap reaches (all but the other store).
    lap: [[u16; CELLS]; 2],
}

impl SowTable {
    fn new(pits: usize) -> SowTable {
        let cells = 2 * pits + 2;
        let cycle = cells - 1;
        let mut table = SowTable { cells, cycle, entries: Vec::new(), lap: [[0; CELLS]; 2] };
        let row_of = |cell: usize| {
            if cell < pits {
                Some(0)
            } else if cell > pits && cell < 2 * pits + 1 {
                Some(1)
            } else {
                None
            }
        };
        for player in 0..2 {
            let their_store = if player == 0 { 2 * pits + 1 } else { pits };
            for cell in 0..cells {
                table.lap[player][cell] = (cell != their_store) as u16;
            }
            for from in 0..cells {
                for rest in 0..cycle {
                    let mut adds = [0u16; CELLS];
                    adds[from] = adds[from].wrapping_sub(rest as u16);
                    let mut at = from;
                    for _ in 0..rest {
                        at = (at + 1) % cells;
                        if at == their_store {
                            at = (at + 1) % cells;
                        }
                        adds[at] = adds[at].wrapping_add(1);
                    }
                    let mut row_adds = [0u16; 2];
                    for (cell, &n) in adds.iter().enumerate() {
                        if let Some(row) = row_of(cell) {
                            row_adds[row] = row_adds[row].wrapping_add(n);
                        }
                    }
                    table.entries.push(SowEntry { adds, row_adds, last: at as u8 });
                }
            }
        }
        table
    }

    fn entry(&self, player: Player, from: usize, rest: usize) -> &SowEntry {
        &self.entries[(player.index() * self.cells + from) * self.cycle + rest]
    }
}

/// The table for `pits` pits a side, built the first time it is needed.
fn sow_table(pits: u8) -> &'static SowTable {
    static TABLES: [std::sync::OnceLock<SowTable>; MAX_PITS as usize + 1] =
        [const { std::sync::OnceLock::new() }; MAX_PITS as usize + 1];
    TABLES[pits as usize].get_or_init(|| SowTable::new(pits as usize))
}

/// `KTH_BIT[mask][k]`: the position of the k-th set bit of `mask`; entry 8
/// is the number of set bits (the target has no popcount instruction).
static KTH_BIT: [[u8; 9]; 256] = {
    let mut table = [[0u8; 9]; 256];
    let mut mask = 0;
    while mask < 256 {
        let (mut bit, mut k) = (0, 0);
        while bit < 8 {
            if mask & (1 << bit) != 0 {
                table[mask][k] = bit as u8;
                k += 1;
            }
            bit += 1;
        }
        table[mask][8] = k as u8;
        mask += 1;
    }
    table
};

fn row_char(side: u8) -> char {
    if side == 0 { 'A' } else { 'B' }
}

impl Mancala {
    pub fn pits(&self) -> usize {
        self.pits as usize
    }

    pub fn cells(&self) -> &[u16] {
        &self.cells[..2 * self.pits as usize + 2]
    }

    /// The store cell of `player`.
    pub fn store_cell(&self, player: Player) -> usize {
        let n = self.pits as usize;
        if player == Player::ONE { n } else { 2 * n + 1 }
    }

    pub fn store(&self, player: Player) -> u16 {
        self.cells[self.store_cell(player)]
    }

    /// The cell of pit `pit` of row `side`.
    pub fn pit_cell(&self, side: u8, pit: u8) -> usize {
        side as usize * (self.pits as usize + 1) + pit as usize
    }

    /// The cell facing `cell` across the board.
    pub fn opposite(&self, cell: usize) -> usize {
        2 * self.pits as usize - cell
    }

    pub fn capture_rule(&self) -> Capture {
        self.capture
    }

    pub fn sweeps(&self) -> bool {
        self.sweep
    }

    pub fn plies(&self) -> u32 {
        self.plies
    }

    /// The cell after `cell` when `player` sows (their opponent's store is
    /// skipped).
    pub fn next_cell(&self, cell: usize, player: Player) -> usize {
        let cells = 2 * self.pits as usize + 2;
        let skip = self.store_cell(player.next(2));
        let mut next = (cell + 1) % cells;
        if next == skip {
            next = (next + 1) % cells;
        }
        next
    }

    /// Checks a sowing without performing it.
    pub fn check(&self, sow: Sow) -> Result<usize, MancalaError> {
        if self.outcome.is_some() {
            return Err(MancalaError::GameOver);
        }
        let row = row_char(sow.side);
        if sow.side > 1 || sow.pit >= self.pits {
            return Err(MancalaError::NoSuchPit { row, pit: sow.pit as u32 + 1, pits: self.pits });
        }
        let mine = self.to_move.0;
        if sow.side != mine {
            return Err(MancalaError::NotYourPit { row, pit: sow.pit as u32 + 1, yours: row_char(mine) });
        }
        let cell = self.pit_cell(sow.side, sow.pit);
        if self.cells[cell] == 0 {
            return Err(MancalaError::EmptyPit { row, pit: sow.pit as u32 + 1 });
        }
        Ok(cell)
    }

    /// Where the last stone from `sow` would land and what it would do,
    /// without changing anything (for the hover preview).
    pub fn preview(&self, sow: Sow) -> Result<Sown, MancalaError> {
        let mut copy = *self;
        copy.play(sow)
    }

    /// The sowings of the player to move.
    pub fn moves(&self, out: &mut Vec<Sow>) {
        if self.outcome.is_some() {
            return;
        }
        let mut bits = self.playable();
        while bits != 0 {
            out.push(Sow { side: self.to_move.0, pit: bits.trailing_zeros() as u8 });
            bits &= bits - 1;
        }
    }

    /// Performs a sowing by the player to move (agents' searches use this).
    pub fn play(&mut self, sow: Sow) -> Result<Sown, MancalaError> {
        let from = self.check(sow)?;
        Ok(self.sow(sow_table(self.pits), from))
    }

    /// The sowing from the pit in `cell`; `None` for a store or no cell.
    pub fn sow_at(&self, cell: usize) -> Option<Sow> {
        let side = self.row_of(cell)? as u8;
        Some(Sow { side, pit: (cell - side as usize * (self.pits as usize + 1)) as u8 })
    }

    /// The row (0 or 1) a cell's pit belongs to; `None` for the stores.
    pub fn row_of(&self, cell: usize) -> Option<usize> {
        let n = self.pits as usize;
        if cell < n {
            Some(0)
        } else if cell > n && cell < 2 * n + 1 {
            Some(1)
        } else {
            None
        }
    }

    /// A cell's name on the board: "A3", "B1", or whose store it is.
    pub fn cell_name(&self, cell: usize) -> String {
        let n = self.pits as usize;
        match self.row_of(cell) {
            Some(0) => format!("A{}", cell + 1),
            Some(_) => format!("B{}", cell - n),
            None if cell == n => "store A".to_owned(),
            None => "store B".to_owned(),
        }
    }

    /// The store a row's stones are swept to.
    fn row_store(&self, row: usize) -> usize {
        self.store_cell(Player(row as u8))
    }

    /// Own non-empty pits as a bit set over pit numbers.
    fn playable(&self) -> u32 {
        let n = self.pits as usize;
        let start = self.to_move.index() * (n + 1);
        let mut bits = 0;
        for (i, &c) in self.cells[start..start + n].iter().enumerate() {
            bits |= ((c != 0) as u32) << i;
        }
        bits
    }

    /// A uniformly random legal sowing.
    pub fn random_sow(&self, rng: &mut GameRng) -> Option<Sow> {
        if self.outcome.is_some() {
            return None;
        }
        self.draw_pit(rng).map(|pit| Sow { side: self.to_move.0, pit })
    }

    /// A uniformly random non-empty pit of the player to move.
    #[inline(always)]
    fn draw_pit(&self, rng: &mut GameRng) -> Option<u8> {
        let n = self.pits as usize;
        let start = self.to_move.index() * (n + 1);
        if n <= 8 {
            // Up to 8 pits: eight cells compared at once make a byte of the
            // non-empty ones, and a table names its k-th set bit. No loop,
            // no mispredicted branch.
            let mut mask = 0usize;
            for (pit, &stones) in self.cells[start..start + 8].iter().enumerate() {
                mask |= ((stones != 0) as usize) << pit;
            }
            mask &= (1 << n) - 1;
            if mask == 0 {
                return None;
            }
            let bits = &KTH_BIT[mask];
            let k = rng.random_range(0..bits[8] as u32);
            return Some(bits[k as usize]);
        }
        let mut playable = [0u8; MAX_PITS as usize];
        let mut count = 0;
        for (pit, &stones) in self.cells[start..start + n].iter().enumerate() {
            playable[count] = pit as u8;
            count += (stones != 0) as usize;
        }
        if count == 0 {
            return None;
        }
        // A u32 range: Lemire's method without 128-bit products.
        Some(playable[rng.random_range(0..count as u32) as usize])
    }

    /// Sows the stones of cell `from`, which `check` has found to be a
    /// non-empty pit of the player to move in a running game.
    #[inline(always)]
    fn sow(&mut self, table: &SowTable, from: usize) -> Sown {
        let n = self.pits as usize;
        let me = self.to_move;
        let my_store = self.store_cell(me);
        let stones = self.cells[from];
        let cycle = (2 * n + 1) as u16;
        // The whole move as vector additions on a copy of the board: no loop
        // whose length depends on the move, no partial writes to reread.
        let mut board = self.cells;
        // (`board` is never indexed by a variable: that would keep it in
        // memory and the additions scalar.)
        let entry;
        let mut rows;
        if stones < cycle {
            // Nearly every move: one addition, the origin emptied with it.
            entry = table.entry(me, from, stones as usize);
            let adds = &entry.adds;
            for i in 0..CELLS {
                board[i] = board[i].wrapping_add(adds[i]);
            }
            self.cells = board;
            rows = [
                self.row_stones[0].wrapping_add(entry.row_adds[0]),
                self.row_stones[1].wrapping_add(entry.row_adds[1]),
            ];
        } else {
            (entry, rows) = self.sow_laps(table, from);
        }
        let last = entry.last as usize;
        let mut fx = Sown {
            by: me,
            sow: Sow { side: me.0, pit: (from - me.index() * (n + 1)) as u8 },
            from: from as u8,
            stones,
            last: last as u8,
            extra_turn: false,
            captured: 0,
            opposite: 0,
            swept: false,
            ended: false,
        };
        let own_pit = if me == Player::ONE { last < n } else { last > n && last < 2 * n + 1 };
        let opposite = (2 * n).wrapping_sub(last) & (CELLS - 1);
        let across = self.cells[opposite];
        let captures = own_pit
            & (self.cells[last] == 1)
            & match self.capture {
                Capture::None => false,
                Capture::Standard => across > 0,
                Capture::Empty => true,
            };
        // A branch, not arithmetic that always writes: writing single cells
        // on every move would make the next move's vector read of the board
        // wait for those writes.
        if captures {
            fx.captured = across + 1;
            fx.opposite = opposite as u8;
            rows[0] -= if me == Player::ONE { 1 } else { across };
            rows[1] -= if me == Player::ONE { across } else { 1 };
            self.cells[my_store] += across + 1;
            self.cells[last] = 0;
            self.cells[opposite] = 0;
        }
        self.row_stones = rows;
        self.plies += 1;
        if rows[0] == 0 || rows[1] == 0 {
            self.end_with_a_row_empty(&mut fx);
        } else if self.plies >= self.move_cap {
            self.outcome = Some(Outcome::Draw);
            fx.ended = true;
        } else {
            fx.extra_turn = last == my_store;
            self.to_move = if fx.extra_turn { me } else { me.next(2) };
        }
        fx
    }

    /// A sowing of a lap or more round the board (rare): the board after
    /// it, and the stones in each row.
    #[cold]
    fn sow_laps<'t>(&mut self, table: &'t SowTable, from: usize) -> (&'t SowEntry, [u16; 2]) {
        let (n, me) = (self.pits as usize, self.to_move);
        let (stones, cycle, mine) = (self.cells[from], (2 * n + 1) as u16, (me == Player::ONE) as u16);
        let (laps, rest) = (stones / cycle, stones % cycle);
        let entry = table.entry(me, from, rest as usize);
        let (adds, lap) = (&entry.adds, &table.lap[me.index()]);
        let mut board = self.cells;
        for i in 0..CELLS {
            board[i] = board[i].wrapping_add(lap[i] * laps).wrapping_add(adds[i]);
        }
        // The origin gave up all its stones and got one back each lap.
        self.cells = board;
        self.cells[from] = laps;
        let (lap_add, lapped) = (laps * n as u16, laps * cycle);
        let rows = [
            self.row_stones[0].wrapping_add(entry.row_adds[0]).wrapping_add(lap_add) - lapped * mine,
            self.row_stones[1].wrapping_add(entry.row_adds[1]).wrapping_add(lap_add) - lapped * (1 - mine),
        ];
        (entry, rows)
    }

    /// A row is empty: the sweep (if the rules sweep), and the end.
    #[cold]
    fn end_with_a_row_empty(&mut self, fx: &mut Sown) {
        let n = self.pits as usize;
        if self.sweep {
            for side in 0..2 {
                let start = side * (n + 1);
                self.cells[start..start + n].fill(0);
                self.cells[start + n] += self.row_stones[side];
            }
            self.row_stones = [0, 0];
            fx.swept = true;
        }
        let (a, b) = (self.store(Player::ONE), self.store(Player::TWO));
        self.outcome = Some(match a.cmp(&b) {
            std::cmp::Ordering::Greater => Outcome::Win(Player::ONE),
            std::cmp::Ordering::Less => Outcome::Win(Player::TWO),
            std::cmp::Ordering::Equal => Outcome::Draw,
        });
        fx.ended = true;
    }
}

impl Game for Mancala {
    type Move = Sow;
    type Error = MancalaError;
    type Effects = Sown;
    type Step = MancalaStep;
    type Level = MancalaLevel;
    type Observation = Mancala;

    const NAME: &'static str = "Mancala";
    const TITLE: &'static str = "Mancala / Kalah";
    const FOLDER: &'static str = "mancala";
    const SEATS: (usize, usize) = (2, 2);
    const PERFECT_INFORMATION: bool = true;

    fn new(level: &MancalaLevel, _seed: u64) -> Result<Mancala, RuleViolation> {
        level.check()?;
        let n = level.pits as usize;
        let mut cells = [0; CELLS];
        for (i, cell) in cells.iter_mut().enumerate().take(2 * n + 1) {
            if i != n {
                *cell = level.stones;
            }
        }
        let row = level.pits as u16 * level.stones;
        Ok(Mancala {
            cells,
            row_stones: [row, row],
            pits: level.pits,
            capture: level.capture,
            sweep: level.sweep,
            to_move: Player::ONE,
            plies: 0,
            move_cap: level.move_cap,
            outcome: None,
        })
    }

    fn num_players(&self) -> usize {
        2
    }

    fn current_player(&self) -> Player {
        self.to_move
    }

    fn legal_moves(&self, player: Player, out: &mut Vec<Sow>) {
        if player == self.to_move {
            self.moves(out);
        }
    }

    fn apply(&mut self, player: Player, sow: Sow) -> Result<Sown, MancalaError> {
        if self.outcome.is_none() && player != self.to_move {
            return Err(NotYourTurn { player, to_move: self.to_move }.into());
        }
        self.play(sow)
    }

    fn outcome(&self) -> Option<Outcome> {
        self.outcome
    }

    fn observe(&self, _viewer: Option<Player>) -> Cow<'_, Mancala> {
        Cow::Borrowed(self)
    }

    fn sample_state(observation: &Mancala, _viewer: Option<Player>, _rng: &mut GameRng) -> Mancala {
        *observation
    }

    fn steps(before: &Mancala, fx: &Sown) -> Vec<MancalaStep> {
        // The board is followed along, so the sweep knows what each pit held.
        let mut board = *before;
        let mut steps = Vec::with_capacity(fx.stones as usize + 4);
        let mut push = |board: &mut Mancala, step: MancalaStep| {
            board.follow(&step);
            steps.push(step);
        };
        push(&mut board, MancalaStep::Sowed { by: fx.by, sow: fx.sow, stones: fx.stones });
        let (from, mut at) = (fx.from, fx.from as usize);
        for _ in 0..fx.stones {
            at = before.next_cell(at, fx.by);
            push(&mut board, MancalaStep::Moved { from, to: at as u8, stones: 1, why: Transfer::Sowing });
        }
        let store = before.store_cell(fx.by) as u8;
        if fx.captured > 0 {
            push(
                &mut board,
                MancalaStep::Moved { from: fx.last, to: store, stones: 1, why: Transfer::Capture },
            );
            if fx.captured > 1 {
                let (from, stones) = (fx.opposite, fx.captured - 1);
                push(&mut board, MancalaStep::Moved { from, to: store, stones, why: Transfer::Capture });
            }
        }
        if fx.swept {
            for cell in 0..2 * before.pits() + 2 {
                let (Some(row), stones) = (board.row_of(cell), board.cells[cell]) else { continue };
                if stones > 0 {
                    let to = board.row_store(row) as u8;
                    push(
                        &mut board,
                        MancalaStep::Moved { from: cell as u8, to, stones, why: Transfer::Sweep },
                    );
                }
            }
        }
        if fx.ended {
            let emptied = board.row_stones[0] == 0 || board.row_stones[1] == 0;
            let (a, b) = (board.store(Player::ONE), board.store(Player::TWO));
            let outcome = match a.cmp(&b) {
                _ if !emptied => Outcome::Draw,
                std::cmp::Ordering::Greater => Outcome::Win(Player::ONE),
                std::cmp::Ordering::Less => Outcome::Win(Player::TWO),
                std::cmp::Ordering::Equal => Outcome::Draw,
            };
            push(&mut board, MancalaStep::Ended(outcome));
        } else {
            let to = if fx.extra_turn { fx.by } else { fx.by.next(2) };
            push(&mut board, MancalaStep::TurnChanged { to, extra_turn: fx.extra_turn });
        }
        steps
    }

    fn public_state(&self) -> serde_json::Value {
        let n = self.pits();
        let cells = self.cells();
        serde_json::json!({
            "pits": [&cells[..n], &cells[n + 1..2 * n + 1]],
            "stores": [cells[n], cells[2 * n + 1]],
        })
    }

    fn move_bound(&self) -> u64 {
        if self.outcome.is_some() { 0 } else { (self.move_cap - self.plies) as u64 }
    }

    /// A sowing a pit of the mover's row.
    fn legal_bound(&self) -> u64 {
        u64::from(self.pits)
    }

    fn scores(&self) -> Vec<i64> {
        vec![self.store(Player::ONE) as i64, self.store(Player::TWO) as i64]
    }

    fn random_move(&self, rng: &mut GameRng) -> Option<Sow> {
        self.random_sow(rng)
    }

    fn play_out(&mut self, rng: &mut GameRng) -> Result<u64, (Sow, MancalaError)> {
        // The table looked up once, and no checks: a drawn pit is legal.
        let table = sow_table(self.pits);
        let mut plies = 0;
        while self.outcome.is_none() {
            let Some(pit) = self.draw_pit(rng) else { break };
            self.sow(table, self.pit_cell(self.to_move.0, pit));
            plies += 1;
        }
        Ok(plies)
    }

    fn probe_moves(&self, out: &mut Vec<Sow>) {
        for side in 0..=2 {
            for pit in 0..=self.pits {
                out.push(Sow { side, pit });
            }
        }
    }
}

impl Observation<Mancala> for Mancala {
    fn legal_moves(&self, player: Player, out: &mut Vec<Sow>) {
        Game::legal_moves(self, player, out)
    }

    fn follow(&mut self, step: &MancalaStep) {
        match *step {
            MancalaStep::Sowed { .. } => self.plies += 1,
            MancalaStep::Moved { from, to, stones, .. } => {
                let (from, to) = (from as usize, to as usize);
                self.cells[from] -= stones;
                self.cells[to] += stones;
                if let Some(row) = self.row_of(from) {
                    self.row_stones[row] -= stones;
                }
                if let Some(row) = self.row_of(to) {
                    self.row_stones[row] += stones;
                }
            }
            MancalaStep::TurnChanged { to, .. } => self.to_move = to,
            MancalaStep::Ended(outcome) => self.outcome = Some(outcome),
        }
    }

    fn random_move(&self, player: Player, rng: &mut GameRng) -> Option<Sow> {
        (player == self.to_move).then(|| self.random_sow(rng)).flatten()
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::core::{conformance, perft::perft};

    pub(crate) fn level(pits: u8, stones: u16, capture: Capture, sweep: bool) -> MancalaLevel {
        MancalaLevel {
            name: String::new(),
            description: String::new(),
            group: Default::default(),
            pits,
            stones,
            capture,
            sweep,
            move_cap: super::super::level::DEFAULT_MOVE_CAP,
        }
    }

    pub(crate) fn board(pits: u8, cells: &[u16], capture: Capture, sweep: bool, to_move: Player) -> Mancala {
        let mut m = Mancala::new(&level(pits, 1, capture, sweep), 0).unwrap();
        m.cells = [0; CELLS];
        m.cells[..cells.len()].copy_from_slice(cells);
        let n = pits as usize;
        m.row_stones = [cells[..n].iter().sum(), cells[n + 1..2 * n + 1].iter().sum()];
        m.to_move = to_move;
        m
    }

    #[test]
    fn kalah_6_4_perft_matches_the_published_start() {
        let kalah = Mancala::new(&level(6, 4, Capture::Standard, true), 0).unwrap();
        let counts: Vec<u64> = (1..=4).map(|d| perft(&kalah, d)).collect();
        assert_eq!(counts, [6, 35, 185, 942]);
    }

    #[test]
    fn sowing_skips_the_opponents_store_and_wraps() {
        // Player 2 sows 5 stones from B3 (cell 6) on a 3-pit board:
        // 7 (own store), 0, 1, 2 (A1-A3), skipping 3 (player 1's store), 4.
        let mut m = board(3, &[0, 0, 0, 0, 1, 1, 5, 0], Capture::None, false, Player::TWO);
        let fx = m.play(Sow { side: 1, pit: 2 }).unwrap();
        assert_eq!(m.cells(), &[1, 1, 1, 0, 2, 1, 0, 1]);
        assert_eq!(fx.last, 4);
        assert!(!fx.extra_turn);
    }

    #[test]
    fn last_stone_in_own_store_gives_another_turn() {
        let mut m = Mancala::new(&level(3, 2, Capture::None, false), 0).unwrap();
        let fx = m.play(Sow { side: 0, pit: 1 }).unwrap(); // A2: 2 stones to A3 and the store
        assert!(fx.extra_turn);
        assert_eq!(m.current_player(), Player::ONE);
        assert_eq!(m.store(Player::ONE), 1);
    }

    #[test]
    fn laps_fill_every_cell_but_the_opponents_store() {
        // 8 stones from A1 on a 3-pit board: the cycle has 7 cells.
        let mut m = board(3, &[8, 0, 0, 0, 1, 1, 1, 0], Capture::None, false, Player::ONE);
        let fx = m.play(Sow { side: 0, pit: 0 }).unwrap();
        assert_eq!(m.cells(), &[1, 2, 1, 1, 2, 2, 2, 0]);
        assert_eq!(fx.last, 1, "the eighth stone lands in A2, past the origin");
    }

    #[test]
    fn captures_follow_the_level_rule() {
        // A1 holds 1 stone; A2 is empty; B2 (cell 5), opposite A2, holds 3.
        let cells = [1, 0, 1, 0, 1, 3, 1, 0];
        for (capture, store, opposite_left) in
            [(Capture::None, 0, 3), (Capture::Standard, 4, 0), (Capture::Empty, 4, 0)]
        {
            let mut m = board(3, &cells, capture, false, Player::ONE);
            let fx = m.play(Sow { side: 0, pit: 0 }).unwrap();
            assert_eq!(m.store(Player::ONE), store, "{capture:?}");
            assert_eq!(m.cells()[5], opposite_left, "{capture:?}");
            assert_eq!(fx.captured, store, "{capture:?}");
        }
        // Opposite empty: only the Empty rule captures, the lone stone.
        let cells = [1, 0, 1, 0, 1, 0, 1, 0];
        let mut standard = board(3, &cells, Capture::Standard, false, Player::ONE);
        standard.play(Sow { side: 0, pit: 0 }).unwrap();
        assert_eq!((standard.store(Player::ONE), standard.cells()[1]), (0, 1));
        let mut empty = board(3, &cells, Capture::Empty, false, Player::ONE);
        empty.play(Sow { side: 0, pit: 0 }).unwrap();
        assert_eq!((empty.store(Player::ONE), empty.cells()[1]), (1, 0));
    }

    #[test]
    fn no_capture_in_a_pit_that_was_not_empty_or_on_the_other_side() {
        let mut m = board(3, &[1, 2, 1, 0, 1, 3, 1, 0], Capture::Standard, false, Player::ONE);
        m.play(Sow { side: 0, pit: 0 }).unwrap();
        assert_eq!(m.store(Player::ONE), 0);
        // Player 2's last stone in player 1's empty pit captures nothing.
        let mut m = board(3, &[0, 1, 1, 0, 1, 1, 2, 0], Capture::Standard, false, Player::TWO);
        m.play(Sow { side: 1, pit: 2 }).unwrap();
        assert_eq!(m.store(Player::TWO), 1);
        assert_eq!(m.cells()[0], 1);
    }

    #[test]
    fn the_end_sweeps_or_leaves_stones_and_compares_stores() {
        // Player 1 empties their side by sowing A3's single stone to the store.
        let cells = [0, 0, 1, 5, 2, 0, 1, 4];
        let mut swept = board(3, &cells, Capture::None, true, Player::ONE);
        let fx = swept.play(Sow { side: 0, pit: 2 }).unwrap();
        assert!(fx.ended && fx.swept && !fx.extra_turn);
        assert_eq!((swept.store(Player::ONE), swept.store(Player::TWO)), (6, 7));
        assert_eq!(swept.outcome(), Some(Outcome::Win(Player::TWO)));
        let mut kept = board(3, &cells, Capture::None, false, Player::ONE);
        kept.play(Sow { side: 0, pit: 2 }).unwrap();
        assert_eq!((kept.store(Player::ONE), kept.store(Player::TWO)), (6, 4));
        assert_eq!(kept.cells()[4], 2, "without sweep the stones stay");
        assert_eq!(kept.outcome(), Some(Outcome::Win(Player::ONE)));
        // Equal stores draw.
        let mut draw = board(3, &[0, 0, 1, 3, 0, 0, 1, 4], Capture::None, false, Player::ONE);
        draw.play(Sow { side: 0, pit: 2 }).unwrap();
        assert_eq!(draw.outcome(), Some(Outcome::Draw));
    }

    #[test]
    fn random_sowing_is_uniform_over_legal_moves() {
        let mut rng = crate::core::rng_from_seed(11);
        for m in [
            board(6, &[0, 3, 0, 1, 5, 0, 9, 1, 1, 1, 1, 1, 1, 0], Capture::Standard, true, Player::ONE),
            board(6, &[1, 1, 1, 1, 1, 1, 0, 0, 2, 0, 0, 7, 1, 0], Capture::Standard, true, Player::TWO),
            Mancala::new(&level(12, 2, Capture::None, false), 0).unwrap(),
        ] {
            let mut legal = Vec::new();
            m.moves(&mut legal);
            let mut counts = std::collections::HashMap::new();
            let draws = 12_000 * legal.len();
            for _ in 0..draws {
                *counts.entry(m.random_sow(&mut rng).unwrap()).or_insert(0usize) += 1;
            }
            assert_eq!(counts.len(), legal.len());
            for mv in legal {
                let n = counts[&mv];
                assert!((11_000..13_000).contains(&n), "{mv}: {n}");
            }
        }
    }

    #[test]
    fn the_move_cap_ends_a_game_as_a_draw() {
        let mut lvl = level(6, 4, Capture::Standard, true);
        lvl.move_cap = 3;
        let mut m = Mancala::new(&lvl, 0).unwrap();
        let mut rng = crate::core::rng_from_seed(1);
        for _ in 0..3 {
            let mv = m.random_sow(&mut rng).unwrap();
            m.play(mv).unwrap();
        }
        assert_eq!(m.outcome(), Some(Outcome::Draw));
        assert_eq!(m.move_bound(), 0);
    }

    #[test]
    fn refusals_name_the_problem_and_change_nothing() {
        let mut m = Mancala::new(&level(3, 2, Capture::None, false), 0).unwrap();
        let start = m;
        let (one, two) = (Player::ONE, Player::TWO);
        assert!(matches!(m.apply(one, Sow { side: 1, pit: 0 }), Err(MancalaError::NotYourPit { .. })));
        assert_eq!(m, start);
        assert!(matches!(m.apply(one, Sow { side: 0, pit: 3 }), Err(MancalaError::NoSuchPit { .. })));
        assert_eq!(m, start);
        let err = m.apply(two, Sow { side: 1, pit: 0 }).unwrap_err();
        assert_eq!(err, MancalaError::NotYourTurn(NotYourTurn { player: two, to_move: one }));
        assert_eq!(err.not_your_turn(), Some(NotYourTurn { player: two, to_move: one }));
        assert_eq!(m, start);
        m.apply(one, Sow { side: 0, pit: 0 }).unwrap();
        m.apply(two, Sow { side: 1, pit: 0 }).unwrap();
        let before = m;
        let err = m.apply(one, Sow { side: 0, pit: 0 }).unwrap_err();
        assert_eq!(err.to_string(), "pit A1 is empty");
        assert_eq!(m, before, "the refused sowing changed nothing");
    }

    /// Steps followed on the board before a move give the board after it.
    fn follow_steps(before: &Mancala, sow: Sow) -> (Mancala, Vec<MancalaStep>) {
        let mut after = *before;
        let (_, steps) = crate::core::apply_with_steps(&mut after, before.to_move, sow).unwrap();
        let mut followed = *before;
        steps.iter().for_each(|s| followed.follow(s));
        assert_eq!(followed, after, "{steps:?}");
        (after, steps)
    }

    #[test]
    fn steps_name_every_stone_capture_and_sweep_in_order() {
        use MancalaStep::*;
        use Transfer::{Sowing, Sweep};
        // A1 holds 1 stone; B2 (cell 5), opposite A2, holds 3: a capture.
        let m = board(3, &[1, 0, 1, 0, 1, 3, 1, 0], Capture::Standard, false, Player::ONE);
        let (_, steps) = follow_steps(&m, Sow { side: 0, pit: 0 });
        assert_eq!(
            steps,
            [
                Sowed { by: Player::ONE, sow: Sow { side: 0, pit: 0 }, stones: 1 },
                Moved { from: 0, to: 1, stones: 1, why: Sowing },
                Moved { from: 1, to: 3, stones: 1, why: Transfer::Capture },
                Moved { from: 5, to: 3, stones: 3, why: Transfer::Capture },
                TurnChanged { to: Player::TWO, extra_turn: false },
            ]
        );
        // Player 2 sows B3 (cell 6) past their store, skipping player 1's (3).
        let m = board(3, &[0, 0, 0, 0, 1, 1, 5, 0], Capture::None, false, Player::TWO);
        let (_, steps) = follow_steps(&m, Sow { side: 1, pit: 2 });
        let targets: Vec<u8> =
            steps.iter().filter_map(|s| if let Moved { to, .. } = s { Some(*to) } else { None }).collect();
        assert_eq!(targets, [7, 0, 1, 2, 4]);
        // The last stone of A3 ends player 1's side: the rest sweep to B's store.
        let m = board(3, &[0, 0, 1, 5, 2, 0, 1, 4], Capture::None, true, Player::ONE);
        let (_, steps) = follow_steps(&m, Sow { side: 0, pit: 2 });
        assert_eq!(
            steps[2..],
            [
                Moved { from: 4, to: 7, stones: 2, why: Sweep },
                Moved { from: 6, to: 7, stones: 1, why: Sweep },
                Ended(Outcome::Win(Player::TWO)),
            ]
        );
        // Cells name their pits and sowings as the moves do.
        let m = Mancala::new(&level(3, 2, Capture::None, false), 0).unwrap();
        for sow in [Sow { side: 0, pit: 2 }, Sow { side: 1, pit: 0 }] {
            let cell = m.pit_cell(sow.side, sow.pit);
            assert_eq!(m.sow_at(cell), Some(sow));
            assert_eq!(format!("sow pit {}", m.cell_name(cell)), sow.to_string());
        }
        assert_eq!((m.sow_at(3), m.sow_at(7), m.sow_at(8)), (None, None, None), "stores and past the board");
        // An extra turn.
        let (_, steps) = follow_steps(&m, Sow { side: 0, pit: 1 });
        assert_eq!(steps.last(), Some(&TurnChanged { to: Player::ONE, extra_turn: true }));
    }

    #[test]
    fn passes_the_conformance_test_under_every_rule_option() {
        for capture in [Capture::None, Capture::Standard, Capture::Empty] {
            for sweep in [false, true] {
                conformance::check_random_games::<Mancala>(&level(6, 4, capture, sweep), 60, 3);
                conformance::check_random_games::<Mancala>(&level(3, 2, capture, sweep), 60, 4);
                conformance::check_random_games::<Mancala>(&level(2, 9, capture, sweep), 30, 5);
            }
        }
    }
}

#[cfg(test)]
mod perft_table {
    use super::tests::level;
    use super::*;
    use crate::core::perft::perft;
    use crate::mancala::naive::Naive;

    /// Kalah(6,4), Standard capture, sweep: depths 1 to 10. Depths 1-4 are
    /// the published figures; the rest agree with the plain implementation.
    pub const KALAH_6_4: [u64; 10] = [6, 35, 185, 942, 4690, 23233, 114430, 563055, 2763490, 13519608];

    #[test]
    fn engine_and_plain_implementation_agree_to_depth_10() {
        let kalah = Mancala::new(&level(6, 4, Capture::Standard, true), 0).unwrap();
        let naive = Naive::new(6, 4, Capture::Standard, true);
        for (d, &expected) in (1..=10).zip(KALAH_6_4.iter()) {
            assert_eq!(perft(&kalah, d), expected, "engine, depth {d}");
            assert_eq!(naive.perft(d), expected, "plain implementation, depth {d}");
        }
    }

    #[test]
    fn every_rule_option_agrees_with_the_plain_implementation() {
        for capture in [Capture::None, Capture::Standard, Capture::Empty] {
            for sweep in [false, true] {
                for (pits, stones, depth) in [(3, 2, 9), (4, 3, 7), (6, 6, 5), (2, 7, 8)] {
                    let engine = Mancala::new(&level(pits, stones, capture, sweep), 0).unwrap();
                    let naive = Naive::new(pits as usize, stones as u32, capture, sweep);
                    assert_eq!(
                        perft(&engine, depth),
                        naive.perft(depth),
                        "{pits} pits, {stones} stones, {capture:?}, sweep {sweep}, depth {depth}"
                    );
                }
            }
        }
    }
}
