//! What a table asks of its agents: which one moves now (an agent that may
//! interject, a Stop, first; then the seat to move's), the copy of the game
//! it thinks on, and its move, taken as a person's is. Who stands in for a
//! person gone past the grace period.

use std::time::{Duration, Instant};

use serde_json::Value;
use tabula_engine::Player;
use tabula_engine::live::LiveGame;

use super::{SharedAgent, Table};
use crate::store::Job;

/// An agent to move: its seat, itself, whether it may only interject, the
/// game to think on and the ply it was at.
pub struct Turn {
    pub seat: Player,
    pub agent: SharedAgent,
    pub interject: bool,
    pub game: Box<dyn LiveGame>,
    pub ply: usize,
}

impl Table {
    /// The agent to move now, if one is (and none is thinking already):
    /// it thinks on the copy of the game handed over.
    pub fn agent_turn(&mut self) -> Option<Turn> {
        if self.thinking || self.result.is_some() || self.ask.is_some() || self.open_seats() > 0 {
            return None;
        }
        let ply = self.live.ply();
        let to_move = self.live.to_move();
        let mut chosen = None;
        if self.live.interjections() && ply > 0 && self.passed_at != Some(ply) {
            chosen = self.seats.iter().enumerate().find_map(|(i, s)| {
                let seat = Player(i as u8);
                let agent = s.playing_agent()?;
                (seat != to_move && self.live.may_move(seat)).then(|| (seat, agent.clone(), true))
            });
            if chosen.is_none() {
                self.passed_at = Some(ply);
            }
        }
        let chosen = chosen
            .or_else(|| self.seats[to_move.index()].playing_agent().map(|a| (to_move, a.clone(), false)));
        let (seat, agent, interject) = chosen?;
        self.thinking = true;
        Some(Turn { seat, agent, interject, game: self.live.boxed_clone(), ply })
    }

    /// The agent of `turn` chose `mv` (or to let play go on): played as a
    /// person's move is, unless the game moved on meanwhile. The job, and
    /// whether an agent should be asked again.
    pub fn agent_chose(&mut self, turn: &Turn, mv: Option<Value>) -> (Option<Job>, bool) {
        self.thinking = false;
        if self.live.ply() != turn.ply || self.result.is_some() {
            // The game moved on while the agent thought: think again.
            return (None, true);
        }
        match mv {
            Some(mv) => (self.play(turn.seat, &mv, None, None, None).ok(), false),
            None => {
                // Letting a chance to interject pass; a seat to move
                // with no move at all has nothing more to do.
                self.passed_at = Some(turn.ply);
                (None, turn.interject)
            }
        }
    }

    /// Seats the table's takeover agent for each person gone past the
    /// grace period; the person's token takes the seat back when they
    /// return.
    pub fn stand_in_for_the_gone(&mut self, now: Instant, job: &mut Job) {
        if self.result.is_some() {
            return;
        }
        let Some(spec) = self.config.takeover.clone() else { return };
        let grace = Duration::from_secs(u64::from(self.config.grace));
        let gone: Vec<Player> = self
            .seats
            .iter()
            .enumerate()
            .filter(|(_, s)| {
                s.agent_spec.is_none() && s.token.is_some() && s.connected == 0 && s.stand_in.is_none()
            })
            .filter(|(_, s)| s.left_at.is_some_and(|at| now.duration_since(at) >= grace))
            .map(|(i, _)| Player(i as u8))
            .collect();
        for &seat in &gone {
            // The spec was checked when the table was made.
            let _ = self.stand_in(seat, &spec, job);
        }
        if !gone.is_empty() {
            self.tell_seats(job);
        }
    }
}
