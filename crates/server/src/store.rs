//! Every table, seat token and accepted move in SQLite, written before the
//! server says so to anyone. One writer thread commits the jobs of many
//! tables in one transaction, then hands out the messages those jobs hold:
//! a move is acknowledged, and shown to the other seats, only once it is
//! on disk, and a table's messages go out in the order its jobs came.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicI64, Ordering};
use std::sync::mpsc;
use std::time::Duration;

use rusqlite::{Connection, params};
use tokio::sync::mpsc as tokio_mpsc;

/// What a connection is sent: text, or an order to close.
#[derive(Clone, Debug)]
pub enum Outgoing {
    Text(Arc<str>),
    Close(&'static str),
}

/// Where a connection's messages wait to be sent. A reader too slow to
/// keep up is cut off rather than skipped: once its queue is full, the
/// connection is closed (its seats stay held by their tokens), so that no
/// client plays on having missed a message.
#[derive(Clone, Debug)]
pub struct Outbox {
    queue: tokio_mpsc::Sender<Outgoing>,
    cut: Arc<tokio::sync::Notify>,
}

impl Outbox {
    /// An outbox of `capacity` messages, and the end its connection reads.
    pub fn new(capacity: usize) -> (Outbox, Inbox) {
        let (queue, messages) = tokio_mpsc::channel(capacity);
        let cut = Arc::new(tokio::sync::Notify::new());
        (Outbox { queue, cut: cut.clone() }, Inbox { messages, cut })
    }

    /// Queues `message`; a full queue cuts the connection off.
    pub fn send(&self, message: Outgoing) {
        if let Err(tokio_mpsc::error::TrySendError::Full(_)) = self.queue.try_send(message) {
            self.cut.notify_one();
        }
    }
}

/// The connection's end of its outbox.
pub struct Inbox {
    messages: tokio_mpsc::Receiver<Outgoing>,
    cut: Arc<tokio::sync::Notify>,
}

impl Inbox {
    /// The next message to send: an order to close once the outbox
    /// overflowed; `None` once no one can send any more.
    pub async fn next(&mut self) -> Option<Outgoing> {
        tokio::select! {
            // The cut first: what is queued behind it is not sent.
            biased;
            () = self.cut.notified() => Some(Outgoing::Close("too slow to keep up")),
            message = self.messages.recv() => message,
        }
    }
}

#[cfg(test)]
impl Inbox {
    /// What is waiting, as text (tests of a table read its messages so).
    pub fn drain(&mut self) -> Vec<String> {
        let mut texts = Vec::new();
        while let Ok(message) = self.messages.try_recv() {
            if let Outgoing::Text(text) = message {
                texts.push(text.to_string());
            }
        }
        texts
    }
}

#[cfg(test)]
impl Job {
    /// Hands out the messages as the store does once the job is kept.
    pub fn deliver(self) -> Vec<Op> {
        for (outbox, message) in self.deliveries {
            outbox.send(message);
        }
        self.ops
    }
}

/// A change to the database.
#[derive(Debug)]
pub enum Op {
    Table {
        id: String,
        game: String,
        level: String,
        seed: u64,
        config: String,
    },
    Seat {
        table: String,
        seat: u8,
        token: String,
        name: String,
    },
    Move {
        table: String,
        ply: usize,
        seat: u8,
        mv: String,
        clock: Option<String>,
    },
    /// Moves after `ply` are taken back; the clocks stand at `clock`.
    TakeBack {
        table: String,
        ply: usize,
        clock: Option<String>,
    },
    /// An agent stands in for a person gone (or no longer, `None`).
    StandIn {
        table: String,
        seat: u8,
        agent: Option<String>,
    },
    Finish {
        table: String,
        result: String,
        replay: Option<(PathBuf, String)>,
    },
}

/// Changes to commit together, then messages to send.
#[derive(Debug, Default)]
pub struct Job {
    pub ops: Vec<Op>,
    pub deliveries: Vec<(Outbox, Outgoing)>,
}

impl Job {
    pub fn send(&mut self, to: &Outbox, text: Arc<str>) {
        self.deliveries.push((to.clone(), Outgoing::Text(text)));
    }
}

/// A table as the database holds it.
#[derive(Debug)]
pub struct SavedTable {
    pub id: String,
    pub level: String,
    pub seed: u64,
    pub config: String,
    pub seats: Vec<SavedSeat>,
    /// Seat (from 1), move (JSON) and clock (JSON) of each move, in order.
    pub moves: Vec<(u8, String, Option<String>)>,
    /// The latest take-back: to which move, and the clocks it left.
    pub taken_back: Option<(usize, Option<String>)>,
}

#[derive(Debug)]
pub struct SavedSeat {
    pub seat: u8,
    pub token: String,
    pub name: String,
    pub stand_in: Option<String>,
}

/// The writer thread's side of the channel.
#[derive(Clone)]
pub struct Store {
    jobs: mpsc::SyncSender<Job>,
    halt: Arc<Halt>,
}

/// Why the store stopped writing, once it has: a database that refuses a
/// write (a full disk, a broken file) stops the server taking moves, since
/// nothing may be acknowledged that is not on disk.
#[derive(Default)]
pub struct Halt {
    reason: std::sync::Mutex<Option<String>>,
    told: tokio::sync::Notify,
}

impl Halt {
    /// Why the store stopped, if it has.
    pub fn reason(&self) -> Option<String> {
        self.reason.lock().unwrap_or_else(|e| e.into_inner()).clone()
    }

    fn stop(&self, why: String) {
        let mut reason = self.reason.lock().unwrap_or_else(|e| e.into_inner());
        if reason.is_none() {
            *reason = Some(why);
            self.told.notify_waiters();
            self.told.notify_one();
        }
    }

    /// Waits until the store stops; why.
    pub async fn stopped(&self) -> String {
        loop {
            let told = self.told.notified();
            if let Some(why) = self.reason() {
                return why;
            }
            told.await;
        }
    }
}

/// The most jobs one transaction commits.
const BATCH: usize = 4096;

/// How often the checkpointer copies the write-ahead log into the
/// database: often, so that little is left for the writer's own
/// checkpoint below (one that finds nothing new costs nothing).
const CHECKPOINT_EVERY: Duration = Duration::from_millis(50);

/// Pages in the write-ahead log past which the writer checkpoints it
/// itself (128 MiB at 4 KiB pages), so that its next transaction starts
/// the log over. The checkpointer alone cannot: under steady load the
/// writer adds pages while it copies, and the log would grow without end.
/// With the checkpointer keeping up, the writer's checkpoint has few pages
/// left to copy, but still two fsyncs: 6 to 18 ms, about every 5 s at
/// 6,000 moves/s (a move adds a page or so), after the batch's messages
/// are out.
const LOG_RESTART_PAGES: i64 = 1 << 15;

fn open(path: &Path, most_bytes: Option<u64>) -> rusqlite::Result<Connection> {
    let db = Connection::open(path)?;
    if let Some(bytes) = most_bytes {
        let page: i64 = db.query_row("PRAGMA page_size", [], |r| r.get(0))?;
        db.pragma_update(None, "max_page_count", (bytes as i64 / page).max(1))?;
    }
    db.pragma_update(None, "journal_mode", "WAL")?;
    // A commit survives the server's process being killed (the write is the
    // operating system's once the call returns); FULL would also survive a
    // power cut, at an fsync a batch.
    db.pragma_update(None, "synchronous", "NORMAL")?;
    // Checkpoints (two fsyncs each) are the checkpointer's, off the writer:
    // SQLite's automatic one ran inside a commit every 1,000 pages, several
    // times a second under load, and held every move of the batch 20 ms.
    db.pragma_update(None, "wal_autocheckpoint", 0)?;
    db.execute_batch(
        "CREATE TABLE IF NOT EXISTS tables (
             id TEXT PRIMARY KEY, game TEXT NOT NULL, level TEXT NOT NULL, seed INTEGER NOT NULL,
             config TEXT NOT NULL, result TEXT);
         CREATE TABLE IF NOT EXISTS seats (
             table_id TEXT NOT NULL, seat INTEGER NOT NULL, token TEXT NOT NULL UNIQUE,
             name TEXT NOT NULL, stand_in TEXT, PRIMARY KEY (table_id, seat));
         CREATE TABLE IF NOT EXISTS moves (
             table_id TEXT NOT NULL, ply INTEGER NOT NULL, seat INTEGER NOT NULL,
             move TEXT NOT NULL, clock TEXT, PRIMARY KEY (table_id, ply));",
    )?;
    // The latest take-back of a table and the clocks it left (a database
    // made before the column was added gets it).
    let has_column = |name: &str| -> rusqlite::Result<bool> {
        let mut columns = db.prepare("SELECT name FROM pragma_table_info('tables')")?;
        let names =
            columns.query_map([], |r| r.get::<_, String>(0))?.collect::<rusqlite::Result<Vec<_>>>()?;
        Ok(names.iter().any(|n| n == name))
    };
    if !has_column("back_ply")? {
        db.execute_batch(
            "ALTER TABLE tables ADD COLUMN back_ply INTEGER; ALTER TABLE tables ADD COLUMN back_clock TEXT;",
        )?;
    }
    Ok(db)
}

impl Store {
    /// Opens (or makes) the database at `path`, of at most `most_bytes`,
    /// and starts its writer; also returns every table not yet finished, to
    /// play on.
    pub fn open(path: &Path, most_bytes: Option<u64>) -> rusqlite::Result<(Store, Vec<SavedTable>)> {
        let db = open(path, most_bytes)?;
        let saved = load(&db)?;
        let checkpoints = Connection::open(path)?;
        checkpoints.pragma_update(None, "synchronous", "NORMAL")?;
        let log = Arc::new(AtomicI64::new(0));
        let (jobs, queue) = mpsc::sync_channel(1 << 16);
        // The checkpointer stops when the writer does, which drops `stop`.
        let (stop, stopped) = mpsc::channel::<()>();
        let pages = log.clone();
        std::thread::Builder::new()
            .name("tabula-checkpoint".into())
            .spawn(move || checkpoint(checkpoints, stopped, pages))
            .expect("a thread starts");
        let halt = Arc::new(Halt::default());
        let halting = halt.clone();
        std::thread::Builder::new()
            .name("tabula-store".into())
            .spawn(move || write(db, queue, log, stop, &halting))
            .expect("a thread starts");
        Ok((Store { jobs, halt }, saved))
    }

    /// Queues `job`; its messages go out once its changes are committed.
    pub fn submit(&self, job: Job) {
        if job.ops.is_empty() && job.deliveries.is_empty() {
            return;
        }
        // The writer only stops when the process does.
        let _ = self.jobs.send(job);
    }

    /// Why the store stopped writing, if it has.
    pub fn halt(&self) -> &Arc<Halt> {
        &self.halt
    }
}

fn load(db: &Connection) -> rusqlite::Result<Vec<SavedTable>> {
    let mut tables = db.prepare(
        "SELECT id, level, seed, config, back_ply, back_clock FROM tables WHERE result IS NULL ORDER BY rowid",
    )?;
    let mut seats =
        db.prepare("SELECT seat, token, name, stand_in FROM seats WHERE table_id = ?1 ORDER BY seat")?;
    let mut moves = db.prepare("SELECT seat, move, clock FROM moves WHERE table_id = ?1 ORDER BY ply")?;
    let rows = tables.query_map([], |r| {
        Ok(SavedTable {
            id: r.get(0)?,
            level: r.get(1)?,
            seed: r.get::<_, i64>(2)? as u64,
            config: r.get(3)?,
            seats: Vec::new(),
            moves: Vec::new(),
            taken_back: r.get::<_, Option<i64>>(4)?.map(|ply| (ply as usize, None)),
        })
        .and_then(|mut t| {
            if let Some((_, clock)) = &mut t.taken_back {
                *clock = r.get(5)?;
            }
            Ok(t)
        })
    })?;
    let mut saved = rows.collect::<rusqlite::Result<Vec<_>>>()?;
    for table in &mut saved {
        table.seats = seats
            .query_map([&table.id], |r| {
                Ok(SavedSeat { seat: r.get(0)?, token: r.get(1)?, name: r.get(2)?, stand_in: r.get(3)? })
            })?
            .collect::<rusqlite::Result<_>>()?;
        table.moves = moves
            .query_map([&table.id], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))?
            .collect::<rusqlite::Result<_>>()?;
    }
    Ok(saved)
}

/// Copies the log into the database every [`CHECKPOINT_EVERY`] without
/// holding up the writer (a passive checkpoint), and tells it the log's
/// length in pages.
fn checkpoint(db: Connection, stop: mpsc::Receiver<()>, log: Arc<AtomicI64>) {
    let mut failing = false;
    while let Err(mpsc::RecvTimeoutError::Timeout) = stop.recv_timeout(CHECKPOINT_EVERY) {
        match db.query_row("PRAGMA wal_checkpoint(PASSIVE)", [], |r| r.get::<_, i64>(1)) {
            Ok(pages) => {
                log.store(pages, Ordering::Relaxed);
                failing = false;
            }
            // Said once, not twenty times a second; commits go on
            // regardless, into a longer log.
            Err(e) if !failing => {
                eprintln!("tabula serve: a checkpoint failed ({e}); trying again");
                failing = true;
            }
            Err(_) => {}
        }
    }
}

fn write(
    mut db: Connection,
    queue: mpsc::Receiver<Job>,
    log: Arc<AtomicI64>,
    _stop: mpsc::Sender<()>,
    halt: &Halt,
) {
    let mut batch = Vec::with_capacity(BATCH);
    while let Ok(first) = queue.recv() {
        if halt.reason().is_some() {
            // Stopped: what needs no write (an answer, an error) still goes
            // out; what does is neither kept nor acknowledged.
            if first.ops.is_empty() {
                first.deliveries.into_iter().for_each(|(outbox, message)| outbox.send(message));
            }
            continue;
        }
        batch.push(first);
        while batch.len() < BATCH {
            match queue.try_recv() {
                Ok(job) => batch.push(job),
                Err(_) => break,
            }
        }
        if let Err(e) = commit(&mut db, &batch) {
            // Nothing may be acknowledged that is not on disk: no move is
            // taken from now on, and whoever runs the server is told why.
            halt.stop(format!("the database refused a write ({e})"));
            for job in batch.drain(..).filter(|j| j.ops.is_empty()) {
                job.deliveries.into_iter().for_each(|(outbox, message)| outbox.send(message));
            }
            continue;
        }
        for job in batch.drain(..) {
            for (outbox, message) in job.deliveries {
                outbox.send(message);
            }
        }
        if log.load(Ordering::Relaxed) > LOG_RESTART_PAGES {
            // Nothing else writes meanwhile, so this one copies every page
            // left; the next transaction then starts the log over.
            if db
                .query_row("PRAGMA wal_checkpoint(PASSIVE)", [], |r| r.get::<_, i64>(0))
                .is_ok_and(|busy| busy == 0)
            {
                log.store(0, Ordering::Relaxed);
            }
        }
    }
}

fn commit(db: &mut Connection, batch: &[Job]) -> rusqlite::Result<()> {
    let tx = db.transaction()?;
    let mut replays = Vec::new();
    for op in batch.iter().flat_map(|j| &j.ops) {
        match op {
            Op::Table { id, game, level, seed, config } => {
                tx.prepare_cached(
                    "INSERT INTO tables (id, game, level, seed, config) VALUES (?1, ?2, ?3, ?4, ?5)",
                )?
                .execute(params![id, game, level, *seed as i64, config])?;
            }
            Op::Seat { table, seat, token, name } => {
                tx.prepare_cached("INSERT INTO seats (table_id, seat, token, name) VALUES (?1, ?2, ?3, ?4)")?
                    .execute(params![table, seat, token, name])?;
            }
            Op::Move { table, ply, seat, mv, clock } => {
                tx.prepare_cached(
                    "INSERT INTO moves (table_id, ply, seat, move, clock) VALUES (?1, ?2, ?3, ?4, ?5)",
                )?
                .execute(params![table, *ply as i64, seat, mv, clock])?;
            }
            Op::TakeBack { table, ply, clock } => {
                tx.prepare_cached("DELETE FROM moves WHERE table_id = ?1 AND ply > ?2")?
                    .execute(params![table, *ply as i64])?;
                tx.prepare_cached("UPDATE tables SET back_ply = ?2, back_clock = ?3 WHERE id = ?1")?
                    .execute(params![table, *ply as i64, clock])?;
            }
            Op::StandIn { table, seat, agent } => {
                tx.prepare_cached("UPDATE seats SET stand_in = ?3 WHERE table_id = ?1 AND seat = ?2")?
                    .execute(params![table, seat, agent])?;
            }
            Op::Finish { table, result, replay } => {
                tx.prepare_cached("UPDATE tables SET result = ?2 WHERE id = ?1")?
                    .execute(params![table, result])?;
                replays.extend(replay.as_ref());
            }
        }
    }
    tx.commit()?;
    for (path, text) in replays {
        // A replay is a convenience beside the database, which holds every
        // move: a folder that cannot be written costs the file, not the game.
        if let Err(e) = tabula_engine::level::write_atomically(path, text) {
            eprintln!("tabula serve: could not save the replay {}: {e}", path.display());
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_full_outbox_cuts_its_connection_off() {
        let (outbox, mut inbox) = Outbox::new(2);
        for _ in 0..3 {
            outbox.send(Outgoing::Text("{}".into()));
        }
        // The order to close comes first: what was queued is not sent.
        let next = tokio::time::timeout(std::time::Duration::from_millis(50), inbox.next()).await.unwrap();
        assert!(matches!(next, Some(Outgoing::Close(_))), "{next:?}");
        let (outbox, mut inbox) = Outbox::new(2);
        outbox.send(Outgoing::Text("{}".into()));
        assert!(matches!(inbox.next().await, Some(Outgoing::Text(_))));
        drop(outbox);
        assert!(inbox.next().await.is_none(), "no one can send any more");
    }
}
