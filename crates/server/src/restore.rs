//! A restarted server plays on: every unfinished table in the database is
//! built again from its level and seed, and its moves played in order, so
//! that each stands where its last acknowledged move left it.

use std::sync::{Arc, Mutex};
use std::time::Instant;

use tabula_engine::Player;
use tabula_engine::level;

use crate::agents;
use crate::lobby::build_table;
use crate::protocol::{CreateTable, ErrorCode};
use crate::shared::{Shared, lock};
use crate::store::{Job, SavedTable};
use crate::table::{Refused, Table};

pub fn tables(shared: &Arc<Shared>, saved: Vec<SavedTable>) {
    for saved in saved {
        let id = saved.id.clone();
        match table(shared, saved) {
            Ok((table, job)) => {
                for (i, s) in table.seats.iter().enumerate() {
                    if let Some(token) = &s.token {
                        lock(&shared.tokens).insert(token.clone(), (id.clone(), Player(i as u8)));
                    }
                }
                let table = Arc::new(Mutex::new(table));
                lock(&shared.tables).insert(id, table.clone());
                agents::submit(shared, &table, job);
            }
            Err(e) => eprintln!("tabula serve: table {id} cannot be played on: {}", e.message),
        }
    }
}

fn table(shared: &Shared, saved: SavedTable) -> Result<(Table, Job), Refused> {
    let bad = |what: String| Refused::new(ErrorCode::BadLevel, what);
    let level = level::parse(&saved.level, &format!("table {}", saved.id)).map_err(|e| bad(e.to_string()))?;
    let spec: CreateTable = serde_json::from_str(&saved.config).map_err(|e| bad(e.to_string()))?;
    let mut t = build_table(shared, saved.id.clone(), &level, saved.seed, spec)?;
    let now = Instant::now();
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
    job.ops.clear();
    let clocks = |t: &mut Table, text: Option<String>| -> Result<(), Refused> {
        if let (Some(c), Some(text)) = (&mut t.clock, text) {
            c.remaining_ms = serde_json::from_str(&text).map_err(|e| bad(e.to_string()))?;
        }
        Ok(())
    };
    let (back_ply, mut back_clock) = saved.taken_back.map_or((None, None), |(ply, clock)| (Some(ply), clock));
    if back_ply == Some(0) {
        clocks(&mut t, back_clock.take())?;
    }
    // Each move through the door a seat's move takes, then the clocks as
    // they stood when it was acknowledged (or when the latest take-back
    // came back to it).
    for (seat, mv, clock) in saved.moves {
        let mv = serde_json::from_str(&mv).map_err(|e| bad(e.to_string()))?;
        let seat = Player(seat.wrapping_sub(1));
        t.advance(seat, &mv, now).map_err(|e| bad(format!("a saved move was refused: {}", e.message)))?;
        clocks(&mut t, clock)?;
        if back_ply == Some(t.live.ply()) {
            clocks(&mut t, back_clock.take())?;
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
