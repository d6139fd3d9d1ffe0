//! Agents at the server's tables: those a table seats, and those standing
//! in for a person gone past the grace period. An agent thinks on a copy of
//! the game, off the table's lock, and its move goes through the same door
//! as a person's.

use std::sync::{Arc, Mutex};

use tabula_engine::core::rng_from_seed;

use crate::shared::{Shared, lock};
use crate::store::Job;
use crate::table::{Table, Turn};

/// Commits `job` and, once it is queued, lets an agent move if one is to.
pub fn submit(shared: &Arc<Shared>, table: &Arc<Mutex<Table>>, job: Job) {
    shared.store.submit(job);
    wake(shared, table);
}

/// Lets an agent move at `table` if one is to; its move, once made, wakes
/// the next. Agents think a few at a time ([`Shared::thinking`]): tables of
/// the strongest agents queue for the cores instead of sharing them ever
/// thinner, and the connections are served meanwhile.
pub fn wake(shared: &Arc<Shared>, table: &Arc<Mutex<Table>>) {
    let Some(turn) = lock(table).agent_turn() else { return };
    let shared = shared.clone();
    let table = table.clone();
    let runtime = shared.runtime.clone();
    runtime.spawn(async move {
        let Ok(permit) = shared.thinking.clone().acquire_owned().await else { return };
        let runtime = shared.runtime.clone();
        runtime.spawn_blocking(move || {
            think(&shared, &table, turn);
            drop(permit);
        });
    });
}

/// The agent of `turn` chooses, off the table's lock; its move is played.
fn think(shared: &Arc<Shared>, table: &Arc<Mutex<Table>>, turn: Turn) {
    let mut rng = rng_from_seed(crate::random::random_u64());
    let mv = {
        let mut agent = lock(&turn.agent);
        if turn.interject {
            agent.interject(&*turn.game, turn.seat, &mut rng)
        } else {
            agent.choose(&*turn.game, turn.seat, &mut rng)
        }
    };
    let (job, again) = lock(table).agent_chose(&turn, mv);
    match job {
        Some(job) => submit(shared, table, job),
        None if again => wake(shared, table),
        None => {}
    }
}
