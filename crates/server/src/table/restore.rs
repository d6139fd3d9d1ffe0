//! A table played on after a restart: built again from its level, seed and
//! settings, its seats given back their tokens and stand-ins, and its
//! moves played in order through the door a seat's move takes, each
//! followed by the clocks the database kept with it.

use std::time::Instant;

use tabula_engine::Player;
use tabula_engine::level;

use super::{Refused, Table};
use crate::config::Limits;
use crate::protocol::{CreateTable, ErrorCode};
use crate::store::{Job, SavedTable};

impl Table {
    /// The table `saved` holds, as its last acknowledged move left it, and
    /// what to keep or tell now (a game that ended with its last move is
    /// finished).
    pub fn restore(
        saved: SavedTable,
        limits: &Limits,
        replays: Option<std::path::PathBuf>,
        now: Instant,
    ) -> Result<(Table, Job), Refused> {
        let bad = |what: String| Refused::new(ErrorCode::BadLevel, what);
        let level =
            level::parse(&saved.level, &format!("table {}", saved.id)).map_err(|e| bad(e.to_string()))?;
        let spec: CreateTable = serde_json::from_str(&saved.config).map_err(|e| bad(e.to_string()))?;
        let mut t = Table::build(saved.id.clone(), &level, saved.seed, spec, limits, replays)?;
        let mut job = Job::default();
        for seat in saved.seats {
            let Some(s) = t.seats.get_mut(usize::from(seat.seat).wrapping_sub(1)) else { continue };
            s.token = Some(seat.token);
            s.name = seat.name;
            // The grace period of a person not back yet counts from the restart.
            s.left_at = Some(now);
            if let Some(agent) = seat.stand_in {
                t.stand_in(Player(seat.seat - 1), &agent, &mut job)?;
            }
        }
        // What was kept is not kept again.
        job.ops.clear();
        let (back_ply, mut back_clock) =
            saved.taken_back.map_or((None, None), |(ply, clock)| (Some(ply), clock));
        if back_ply == Some(0) {
            t.set_clocks(back_clock.take()).map_err(bad)?;
        }
        for (seat, mv, clock) in saved.moves {
            let mv = serde_json::from_str(&mv).map_err(|e| bad(e.to_string()))?;
            let seat = Player(seat.wrapping_sub(1));
            t.advance(seat, &mv, now).map_err(|e| bad(format!("a saved move was refused: {}", e.message)))?;
            t.set_clocks(clock).map_err(bad)?;
            if back_ply == Some(t.live.ply()) {
                t.set_clocks(back_clock.take()).map_err(bad)?;
            }
        }
        let to_move = t.live.to_move();
        let begun = t.open_seats() == 0;
        if let Some(c) = &mut t.clock {
            c.running = begun.then_some(to_move);
            c.since = now;
        }
        // Stopped between the last move and its result: the result now.
        t.end_by_the_rules(&mut job);
        Ok((t, job))
    }

    /// The clocks as the database kept them, if it kept any.
    fn set_clocks(&mut self, kept: Option<String>) -> Result<(), String> {
        if let (Some(c), Some(text)) = (&mut self.clock, kept) {
            c.remaining_ms = serde_json::from_str(&text).map_err(|e| e.to_string())?;
        }
        Ok(())
    }

    /// Each person's token and seat.
    pub fn tokens(&self) -> Vec<(String, Player)> {
        self.seats.iter().enumerate().filter_map(|(i, s)| Some((s.token.clone()?, Player(i as u8)))).collect()
    }
}
