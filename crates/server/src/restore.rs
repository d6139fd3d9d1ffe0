//! A restarted server plays on: every unfinished table in the database is
//! built again from its level and seed, and its moves played in order, so
//! that each stands where its last acknowledged move left it
//! ([`Table::restore`]).

use std::sync::{Arc, Mutex};
use std::time::Instant;

use crate::agents;
use crate::shared::{Shared, lock};
use crate::store::SavedTable;
use crate::table::Table;

pub fn tables(shared: &Arc<Shared>, saved: Vec<SavedTable>) {
    let now = Instant::now();
    for saved in saved {
        let id = saved.id.clone();
        match Table::restore(saved, &shared.config.limits, shared.config.replays.clone(), now) {
            Ok((table, job)) => {
                for (token, seat) in table.tokens() {
                    lock(&shared.tokens).insert(token, (id.clone(), seat));
                }
                let table = Arc::new(Mutex::new(table));
                lock(&shared.tables).insert(id, table.clone());
                agents::submit(shared, &table, job);
            }
            Err(e) => eprintln!("tabula serve: table {id} cannot be played on: {}", e.message),
        }
    }
}
