//! Agents at the server's tables: those a table seats, and those standing
//! in for a person gone past the grace period. An agent thinks on a copy of
//! the game, off the table's lock, and its move goes through the same door
//! as a person's.

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use tabula_engine::Player;
use tabula_engine::core::rng_from_seed;

use crate::shared::{Shared, lock};
use crate::store::Job;
use crate::table::{SharedAgent, Table};

/// Commits `job` and, once it is queued, lets an agent move if one is to.
pub fn submit(shared: &Arc<Shared>, table: &Arc<Mutex<Table>>, job: Job) {
    shared.store.submit(job);
    wake(shared, table);
}

/// The agent to move now at `t`, if one is: an agent that may interject
/// (a Stop) first, then the agent of the seat to move.
fn next_agent(t: &mut Table) -> Option<(Player, SharedAgent, bool)> {
    if t.thinking || t.result.is_some() || t.ask.is_some() || t.open_seats() > 0 {
        return None;
    }
    let ply = t.live.ply();
    let to_move = t.live.to_move();
    if t.live.interjections() && ply > 0 && t.passed_at != Some(ply) {
        let chance = t.seats.iter().enumerate().find_map(|(i, s)| {
            let seat = Player(i as u8);
            let agent = s.playing_agent()?;
            (seat != to_move && t.live.may_move(seat)).then(|| (seat, agent.clone(), true))
        });
        if chance.is_some() {
            return chance;
        }
        t.passed_at = Some(ply);
    }
    t.seats[to_move.index()].playing_agent().map(|a| (to_move, a.clone(), false))
}

/// Lets an agent move at `table` if one is to; its move, once made, wakes
/// the next.
pub fn wake(shared: &Arc<Shared>, table: &Arc<Mutex<Table>>) {
    let (seat, agent, interject, snapshot, ply) = {
        let mut t = lock(table);
        let Some((seat, agent, interject)) = next_agent(&mut t) else { return };
        t.thinking = true;
        (seat, agent, interject, t.live.boxed_clone(), t.live.ply())
    };
    let shared = shared.clone();
    let table = table.clone();
    shared.runtime.clone().spawn_blocking(move || {
        let mut rng = rng_from_seed(crate::random::random_u64());
        let mv = {
            let mut agent = lock(&agent);
            if interject {
                agent.interject(&*snapshot, seat, &mut rng)
            } else {
                agent.choose(&*snapshot, seat, &mut rng)
            }
        };
        let (job, again) = {
            let mut t = lock(&table);
            t.thinking = false;
            if t.live.ply() != ply || t.result.is_some() {
                // The game moved on while the agent thought: think again.
                (None, true)
            } else {
                match mv {
                    Some(mv) => (t.play(seat, &mv, None, None, None).ok(), false),
                    None => {
                        // Letting a chance to interject pass; a seat to move
                        // with no move at all has nothing more to do.
                        t.passed_at = Some(ply);
                        (None, interject)
                    }
                }
            }
        };
        match job {
            Some(job) => submit(&shared, &table, job),
            None if again => wake(&shared, &table),
            None => {}
        }
    });
}

/// Seats the table's takeover agent for each person gone past the grace
/// period; the person's token takes the seat back when they return.
pub fn stand_in_for_the_gone(t: &mut Table, now: Instant, job: &mut Job) {
    if t.result.is_some() {
        return;
    }
    let Some(spec) = t.config.takeover.clone() else { return };
    let grace = Duration::from_secs(u64::from(t.config.grace));
    let gone: Vec<Player> = t
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
        let _ = t.stand_in(seat, &spec, job);
    }
    if !gone.is_empty() {
        t.tell_seats(job);
    }
}
