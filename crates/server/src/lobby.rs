//! Making tables, taking seats (a token each), taking them back, watching,
//! leaving and rematches: the server's maps of tables and tokens kept with
//! what each table says of who is at it (`table::seating`).

use std::sync::{Arc, Mutex};
use std::time::Instant;

use tabula_engine::level::{self, LevelFile};

use crate::agents;
use crate::protocol::{CreateTable, ErrorCode, Id};
use crate::random::{new_table_id, new_token, random_u64};
use crate::shared::{Shared, lock};
use crate::store::{Job, Outbox};
use crate::table::{ConnId, Refused, Rematch, Table, say};

/// The level a creator names or sends.
fn level_of(shared: &Shared, spec: &CreateTable) -> Result<LevelFile, Refused> {
    match (&spec.level, &spec.level_text) {
        (Some(name), None) => shared.levels.get(name).cloned().ok_or_else(|| {
            Refused::new(
                ErrorCode::BadLevel,
                format!("no level is called \"{name}\" here: the levels request lists them"),
            )
        }),
        (None, Some(text)) => {
            let most = shared.config.limits.level_bytes;
            if text.len() > most {
                return Err(Refused::new(
                    ErrorCode::BadLevel,
                    format!("the level is {} bytes; at most {most} are taken", text.len()),
                ));
            }
            level::parse(text, "the level sent").map_err(|e| Refused::new(ErrorCode::BadLevel, e.to_string()))
        }
        _ => Err(Refused::new(
            ErrorCode::BadLevel,
            "name a level (\"level\") or send one (\"level_text\"), not both",
        )),
    }
}

/// A new table of `level` as `spec` says, with this server's limits.
fn build(shared: &Shared, level: &LevelFile, spec: CreateTable) -> Result<Table, Refused> {
    let config = &shared.config;
    Table::build(new_table_id(), level, random_u64(), spec, &config.limits, config.replays.clone())
}

/// Keeps a new table: on disk first, then open to all.
fn open_table(shared: &Arc<Shared>, table: Table, mut job: Job) {
    job.ops.insert(0, table.kept());
    let id = table.id().to_owned();
    let table = Arc::new(Mutex::new(table));
    lock(&shared.tables).insert(id, table.clone());
    agents::submit(shared, &table, job);
}

pub fn create(
    shared: &Arc<Shared>,
    outbox: &Outbox,
    spec: CreateTable,
    re: Option<&Id>,
) -> Result<String, Refused> {
    if lock(&shared.tables).len() >= shared.config.limits.tables {
        return Err(Refused::new(ErrorCode::Limit, "the server holds all the tables it may"));
    }
    let level = level_of(shared, &spec)?;
    let table = build(shared, &level, spec)?;
    let mut job = Job::default();
    job.send(outbox, say(table.created(), re));
    let id = table.id().to_owned();
    open_table(shared, table, job);
    Ok(id)
}

/// Takes an open seat for a person and hands back its token.
pub fn join(
    shared: &Arc<Shared>,
    conn: ConnId,
    outbox: &Outbox,
    table_id: &str,
    seat: Option<u8>,
    name: String,
    re: Option<&Id>,
) -> Result<(), Refused> {
    let table = shared.table(table_id).ok_or_else(|| no_table(table_id))?;
    let token = new_token();
    let job = {
        let mut t = lock(&table);
        let (seat, job) = t.join(conn, outbox, seat, name, token.clone(), re)?;
        lock(&shared.tokens).insert(token, (table_id.to_owned(), seat));
        job
    };
    agents::submit(shared, &table, job);
    Ok(())
}

pub fn resume(
    shared: &Arc<Shared>,
    conn: ConnId,
    outbox: &Outbox,
    token: &str,
    re: Option<&Id>,
) -> Result<(), Refused> {
    let bad = || Refused::new(ErrorCode::BadToken, "no seat has this token");
    let (table_id, seat) = lock(&shared.tokens).get(token).cloned().ok_or_else(bad)?;
    let table = shared.table(&table_id).ok_or_else(bad)?;
    let job = lock(&table).resume(conn, outbox, seat, token, re)?;
    agents::submit(shared, &table, job);
    Ok(())
}

pub fn watch(
    shared: &Arc<Shared>,
    conn: ConnId,
    outbox: &Outbox,
    table_id: &str,
    re: Option<&Id>,
) -> Result<(), Refused> {
    let table = shared.table(table_id).ok_or_else(|| no_table(table_id))?;
    let job = lock(&table).watch(conn, outbox, re)?;
    agents::submit(shared, &table, job);
    Ok(())
}

/// The connection stops following the table; its seats wait for their tokens.
pub fn leave(shared: &Arc<Shared>, conn: ConnId, table_id: &str) {
    let Some(table) = shared.table(table_id) else { return };
    let job = lock(&table).leave(conn, Instant::now());
    if let Some(job) = job {
        agents::submit(shared, &table, job);
    }
}

pub fn no_table(id: &str) -> Refused {
    Refused::new(ErrorCode::NoTable, format!("there is no table {id}"))
}

/// `seat` wants to play again; once every person at the table does, a new
/// table opens with the seats moved round by one, each person told their new
/// seat and token there.
pub fn rematch(
    shared: &Arc<Shared>,
    table: &Arc<Mutex<Table>>,
    seat: tabula_engine::Player,
    asker: ConnId,
    re: Option<&Id>,
) -> Result<(), Refused> {
    let mut t = lock(table);
    let (spec, level) = match t.ask_rematch(seat, asker, re)? {
        Rematch::Asked(job) => {
            drop(t);
            agents::submit(shared, table, job);
            return Ok(());
        }
        Rematch::Ready { spec, level } => (spec, level),
    };
    let mut new = build(shared, &level, spec)?;
    let mut job = Job::default();
    let moved = t.move_to(&mut new, &mut new_token, asker, re, &mut job);
    drop(t);
    let mut tokens = lock(&shared.tokens);
    for (old, token, seat) in moved {
        tokens.remove(&old);
        tokens.insert(token, (new.id().to_owned(), seat));
    }
    drop(tokens);
    open_table(shared, new, job);
    Ok(())
}

/// The most tables a `tables` answer lists: a lobby page's worth, and a
/// bounded answer however many tables the server holds.
pub const MOST_LISTED: usize = 100;

/// The listed tables not yet over, those with an open seat first, then by
/// id; at most [`MOST_LISTED`].
pub fn tables(shared: &Shared) -> crate::table::Say<'static> {
    // Each table's lock is taken without holding the map's, as every
    // request takes them.
    let all: Vec<_> = lock(&shared.tables).values().cloned().collect();
    let mut listed: Vec<_> = all.iter().filter_map(|t| lock(t).entry()).collect();
    listed.sort_by(|a, b| (a.open == 0, &a.table).cmp(&(b.open == 0, &b.table)));
    listed.truncate(MOST_LISTED);
    crate::protocol::ServerMessage::Tables { tables: listed }
}
