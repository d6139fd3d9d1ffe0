//! A session's line of play: started again (on the same deal or a new
//! one), stepped back and forward, undone, and rebuilt from its start.

use tabula_engine::core::derive_seed;

use super::{Controller, Session, SessionKind};
use crate::app::game::WindowGame;

impl<G: WindowGame> Session<G> {
    /// The state after the moves played, played again from the start. Each
    /// move was checked when it was played or its replay opened, so each
    /// applies again; one that did not would end the history there, not
    /// the window.
    fn rebuild(&mut self) {
        let mut game = self.start.clone();
        self.movers.clear();
        for &mv in &self.moves {
            let by = game.actor(&mv);
            if game.apply(by, mv).is_err() {
                break;
            }
            self.movers.push(by);
        }
        if self.movers.len() < self.moves.len() {
            self.moves.truncate(self.movers.len());
            self.redo.clear();
            self.said.truncate(self.moves.len());
        }
        self.game = game;
    }

    /// Whether Play again turns the two seats round
    /// (`WindowGame::TAKES_TURNS_TO_START`): in a game played here, one
    /// person against one agent.
    pub fn turns_seats_round(&self) -> bool {
        let people = self.seats.iter().filter(|s| s.controller == Controller::Human).count();
        G::TAKES_TURNS_TO_START && self.kind.plays_here() && self.seats.len() == 2 && people == 1
    }

    /// Who moves first in the game Play again starts.
    pub fn first_again(&self) -> &str {
        let first = if self.turns_seats_round() { self.seats.len() - 1 } else { 0 };
        self.seats.get(first).map_or("", |s| s.name.as_str())
    }

    /// Where Play again turns the seats round: who starts the next game,
    /// and the seat and colour the person plays in it ("Mary starts, John
    /// plays second, in orange"; "John plays first, in sky blue", the
    /// starter said once), since the board's colours stay with the seats.
    pub fn person_again(&self) -> Option<String> {
        if !self.turns_seats_round() {
            return None;
        }
        let now = self.seats.iter().position(|s| s.controller == Controller::Human)?;
        let next = self.seats.len() - 1 - now;
        let color = crate::app::seat_colors::seat_color_name(next);
        let person = &self.seats[now].name;
        Some(match next {
            0 => format!("{person} plays first, in {color}"),
            _ => format!("{} starts, {person} plays second, in {color}", self.first_again()),
        })
    }

    /// The game again from its start, as a game rather than a replay.
    pub fn restart(&mut self) {
        self.moves.clear();
        self.movers.clear();
        self.redo.clear();
        self.said.clear();
        if self.kind.steps_through() {
            self.kind = SessionKind::Local;
        }
        self.barrier = 0;
        self.game = self.start.clone();
    }

    /// A new game on the same level, dealt from `seed`.
    /// Where the level deals by chance, the deal differs from the last one
    /// (a level with few deals would otherwise repeat one often): seeds
    /// after `seed` are tried, a bounded number of them.
    /// A session whose boards are dealt anew deals the next one here.
    pub fn play_again(&mut self, seed: u64) -> Result<(), String> {
        if let Some(from) = &self.dealt_from {
            let level = dealt_like::<G>(from, seed)?;
            self.start = G::new(&level, seed).map_err(|e| e.message)?;
            self.level_name = tabula_engine::core::Level::name(&level).to_owned();
            (self.level, self.seed) = (level, seed);
            self.restart();
            return Ok(());
        }
        let last = format!("{:?}", self.start);
        let mut chosen = (seed, G::new(&self.level, seed).map_err(|e| e.message)?);
        for n in 1..64 {
            if !self.deals || format!("{:?}", chosen.1) != last {
                break;
            }
            let next = derive_seed(seed, n);
            chosen = (next, G::new(&self.level, next).map_err(|e| e.message)?);
        }
        (self.seed, self.start) = chosen;
        self.restart();
        Ok(())
    }

    /// Steps back or forward through the moves to just after move `n` (0:
    /// the start), as replay stepping does: back no further than a move
    /// that showed what was hidden (outside replays), forward along the
    /// moves taken back. Returns whether the position changed.
    pub fn go_to(&mut self, n: usize) -> bool {
        let floor = if self.kind.steps_through() { 0 } else { self.barrier };
        let before = self.moves.len();
        while self.moves.len() > n.max(floor) {
            let Some(mv) = self.moves.pop() else { break };
            self.redo.push(mv);
        }
        while self.moves.len() < n {
            let Some(mv) = self.redo.pop() else { break };
            self.moves.push(mv);
        }
        let changed = self.moves.len() != before;
        if changed {
            self.rebuild();
        }
        changed
    }

    /// Takes back the last move; against an agent, back to the human's turn;
    /// never past a move the game says cannot be undone (outside replays).
    /// Returns whether anything was undone.
    pub fn undo(&mut self) -> bool {
        let mut undone = false;
        while self.kind.steps_through() || self.moves.len() > self.barrier {
            let Some(mv) = self.moves.pop() else { break };
            self.redo.push(mv);
            undone = true;
            self.rebuild();
            if self.kind.steps_through() || !self.has_human() || self.is_human(self.game.current_player()) {
                break;
            }
        }
        undone
    }
}

/// A board like `level`, dealt from `seed` by its game's generator.
pub fn dealt_like<G: WindowGame>(level: &G::Level, seed: u64) -> Result<G::Level, String> {
    let generators = tabula_engine::games::generators();
    let generator =
        generators.iter().find(|g| g.game == G::NAME).ok_or("this game has no generator to deal boards")?;
    let dealt = generator.deal_like(&tabula_engine::level::LevelFile::new::<G>(level.clone()), seed)?;
    dealt.get::<G>().cloned().ok_or_else(|| "the generator dealt a level of another game".into())
}

/// A seed for a new game, from the clock: each game deals anew.
pub fn seed_now() -> u64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_nanos() as u64)
}
