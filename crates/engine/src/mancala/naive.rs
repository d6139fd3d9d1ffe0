//! A second, deliberately plain Mancala written from docs/rules/mancala.md
//! alone, one stone at a time, to check the engine's perft counts
//! independently.

use super::level::Capture;

#[derive(Clone)]
pub(crate) struct Naive {
    cells: Vec<u32>,
    n: usize,
    player: usize,
    capture: Capture,
    sweep: bool,
    over: bool,
}

impl Naive {
    pub(crate) fn new(n: usize, stones: u32, capture: Capture, sweep: bool) -> Naive {
        let mut cells = vec![stones; 2 * n + 2];
        cells[n] = 0;
        cells[2 * n + 1] = 0;
        Naive { cells, n, player: 0, capture, sweep, over: false }
    }

    fn store(&self, player: usize) -> usize {
        if player == 0 { self.n } else { 2 * self.n + 1 }
    }

    fn owner(&self, cell: usize) -> Option<usize> {
        if cell < self.n {
            Some(0)
        } else if cell > self.n && cell < 2 * self.n + 1 {
            Some(1)
        } else {
            None
        }
    }

    fn moves(&self) -> Vec<usize> {
        if self.over {
            return Vec::new();
        }
        (0..2 * self.n + 2).filter(|&c| self.owner(c) == Some(self.player) && self.cells[c] > 0).collect()
    }

    fn play(&mut self, from: usize) {
        let mut hand = self.cells[from];
        self.cells[from] = 0;
        let mut at = from;
        while hand > 0 {
            at = (at + 1) % self.cells.len();
            if at == self.store(1 - self.player) {
                continue;
            }
            self.cells[at] += 1;
            hand -= 1;
        }
        if self.owner(at) == Some(self.player) && self.cells[at] == 1 && self.capture != Capture::None {
            let across = 2 * self.n - at;
            if self.cells[across] > 0 || self.capture == Capture::Empty {
                let store = self.store(self.player);
                self.cells[store] += self.cells[across] + 1;
                self.cells[across] = 0;
                self.cells[at] = 0;
            }
        }
        let side_empty = |p: usize| {
            (0..self.cells.len()).filter(|&c| self.owner(c) == Some(p)).all(|c| self.cells[c] == 0)
        };
        if side_empty(0) || side_empty(1) {
            self.over = true;
            if self.sweep {
                for c in 0..self.cells.len() {
                    if let Some(p) = self.owner(c) {
                        let store = self.store(p);
                        self.cells[store] += self.cells[c];
                        self.cells[c] = 0;
                    }
                }
            }
        } else if at != self.store(self.player) {
            self.player = 1 - self.player;
        }
    }

    pub(crate) fn perft(&self, depth: u32) -> u64 {
        if depth == 0 || self.over {
            return 1;
        }
        self.moves()
            .into_iter()
            .map(|m| {
                let mut next = self.clone();
                next.play(m);
                next.perft(depth - 1)
            })
            .sum()
    }
}
