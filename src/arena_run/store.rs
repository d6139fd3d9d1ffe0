//! An arena's results in SQLite: a row a finished game, written in the
//! order the games were played, many to a transaction. A transaction is
//! all or nothing, so after a kill the table holds a prefix of each part's
//! games: a resumed run starts after it, playing no game twice and losing
//! none. The arena itself is written down too, so a database is never
//! resumed or merged with another arena's games.
//!
//! A game's row (`played`) names its seating (level, seats, agents), kept
//! once in `seatings`; the view `games` joins them, a row a game with every
//! column, and is what readers and scripts read.

use std::collections::HashMap;
use std::ops::Range;
use std::path::Path;

use anyhow::{Context, bail};
use rusqlite::{Connection, OptionalExtension, params};
use serde_json::value::RawValue;
use tabula_engine::arena::Part;

const SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS arena (key TEXT PRIMARY KEY, value TEXT NOT NULL);
-- Who sat where: the same for every game of a level seated alike, so
-- written once rather than in each of a million rows.
CREATE TABLE IF NOT EXISTS seatings (
    seating INTEGER PRIMARY KEY,
    level INTEGER NOT NULL,
    level_path TEXT NOT NULL,
    seats TEXT NOT NULL,         -- JSON: the agents' names, seat 1 first
    agents TEXT NOT NULL,        -- JSON: what each seat played (agent specs)
    UNIQUE (level, seats)
);
CREATE TABLE IF NOT EXISTS played (
    level INTEGER NOT NULL,      -- the level's place in the arena file, from 0
    pairing INTEGER NOT NULL,    -- which agents met, as `Arena::levels[l].pairings`
    game INTEGER NOT NULL,       -- the game's number in its pairing
    seating INTEGER NOT NULL REFERENCES seatings,
    seed INTEGER NOT NULL,       -- the game's seed, its 64 bits as a signed integer
    winner_seat INTEGER,         -- from 1; NULL for a draw
    scores TEXT NOT NULL,        -- JSON, a score a seat
    plies INTEGER NOT NULL,
    moves TEXT NOT NULL,         -- JSON, the game's moves in replay notation
    micros INTEGER NOT NULL,     -- how long the game took
    PRIMARY KEY (level, pairing, game)
) WITHOUT ROWID;
-- A game a row with everything said: what people and scripts read.
CREATE VIEW IF NOT EXISTS games AS
    SELECT p.level, p.pairing, p.game, s.level_path, p.seed, s.seats, s.agents,
           p.winner_seat, p.scores, p.plies, p.moves, p.micros
    FROM played p JOIN seatings s USING (seating);
";

/// The columns of `played`.
const COLUMNS: usize = 10;
/// Rows inserted by one statement.
const MANY_ROWS: usize = 128;

/// `INSERT OR IGNORE INTO played VALUES (?, ...), ...` for `n` rows.
fn insert_rows(n: usize) -> String {
    let row = format!("({})", ["?"; COLUMNS].join(", "));
    format!("INSERT OR IGNORE INTO played VALUES {}", vec![row; n].join(", "))
}

/// Binds `r` to the parameters of a row starting after `first`.
fn bind_row(
    statement: &mut rusqlite::CachedStatement<'_>,
    first: usize,
    r: &Row,
    scores: &mut Vec<u8>,
) -> rusqlite::Result<()> {
    // One buffer for every row's scores: SQLite copies what it is bound.
    scores.clear();
    serde_json::to_writer(&mut *scores, &r.scores)
        .map_err(|e| rusqlite::Error::ToSqlConversionFailure(e.into()))?;
    let scores = std::str::from_utf8(scores).expect("JSON is UTF-8");
    // Each column bound by its own type, not through `dyn ToSql`: a
    // million rows are ten million bindings.
    statement.raw_bind_parameter(first + 1, r.level as i64)?;
    statement.raw_bind_parameter(first + 2, r.pairing as i64)?;
    statement.raw_bind_parameter(first + 3, r.game as i64)?;
    statement.raw_bind_parameter(first + 4, r.seating)?;
    statement.raw_bind_parameter(first + 5, r.seed as i64)?;
    statement.raw_bind_parameter(first + 6, r.winner_seat)?;
    statement.raw_bind_parameter(first + 7, scores)?;
    statement.raw_bind_parameter(first + 8, r.plies as i64)?;
    statement.raw_bind_parameter(first + 9, r.moves.get())?;
    statement.raw_bind_parameter(first + 10, r.micros as i64)?;
    Ok(())
}

/// A finished game, as a row.
#[derive(Clone, Debug)]
pub struct Row {
    pub level: usize,
    pub pairing: usize,
    pub game: u64,
    pub seed: u64,
    /// Its seating's id in `seatings`, as `Store::seatings` gave it.
    pub seating: i64,
    pub winner_seat: Option<u8>,
    pub scores: Vec<i64>,
    pub plies: u64,
    /// JSON, the game's moves in replay notation.
    pub moves: Box<RawValue>,
    pub micros: u64,
}

/// What every game of a level seated alike has the same: written once, in
/// `seatings`, not once a game.
#[derive(Debug, PartialEq)]
pub struct Seating {
    pub level: usize,
    pub level_path: String,
    /// JSON: the agents' names, seat 1 first.
    pub seats: String,
    /// JSON: what each seat played (agent specs).
    pub agents: String,
}

/// The agents by seat of seating `id`.
fn seats_of(seated: &HashMap<i64, Vec<usize>>, id: i64) -> anyhow::Result<Vec<usize>> {
    seated.get(&id).cloned().context("a game names no seating of the database")
}

/// A game's result, as the ratings read it.
#[derive(Clone, Debug, PartialEq)]
pub struct Outcome {
    pub level: usize,
    /// The game's number in its pairing.
    pub game: u64,
    /// Arena agent per seat, seat 1 first.
    pub seats: Vec<usize>,
    /// From 1; `None` for a draw.
    pub winner_seat: Option<u8>,
}

/// The arena a database holds the games of, as `super::identity` wrote it.
fn identity_of(db: &Connection) -> rusqlite::Result<Option<String>> {
    db.query_row("SELECT value FROM arena WHERE key = 'identity'", [], |r| r.get(0)).optional()
}

pub struct Store {
    db: Connection,
    /// The database file, for a `Checkpointer`'s connection; `None` when
    /// opened only to read.
    path: Option<std::path::PathBuf>,
    /// The arena's agent names, to read seats by name.
    names: Vec<String>,
}

/// Copies the pages a writer puts in the WAL into the database file while
/// the writer goes on (SQLite's passive checkpoint, which never blocks a
/// writer or a reader): the copy, and its wait on the disk, overlap the
/// games rather than stopping the writes every few hundred megabytes.
pub struct Checkpointer {
    db: Connection,
}

impl Checkpointer {
    /// Checkpoints after each of the writer's commits (as many as came in
    /// while the last checkpoint ran count once) until `commits` closes.
    pub fn run(self, commits: std::sync::mpsc::Receiver<()>) {
        while commits.recv().is_ok() {
            while commits.try_recv().is_ok() {}
            // Busy (the writer checkpointing itself) is no fault: the pages
            // are copied either way.
            let _ = self.db.query_row("PRAGMA wal_checkpoint(PASSIVE)", [], |_| Ok(()));
        }
    }
}

impl Store {
    /// Opens (or makes) the database of the arena described by `identity`,
    /// refusing one that holds another arena's games.
    pub fn open(path: &Path, identity: &str, names: &[String]) -> anyhow::Result<Store> {
        let not_arena = || format!("{} is not an arena database", path.display());
        let db = Connection::open(path).with_context(|| format!("cannot open {}", path.display()))?;
        // No `arena` table yet: a new database (or not one at all, which
        // the pragmas below find out).
        let known = identity_of(&db).ok().flatten();
        if known.as_ref().is_some_and(|known| known != identity) {
            bail!(
                "{} holds the games of another arena (or of this one before it was changed): give another --db",
                path.display()
            );
        }
        // Large pages (for a new database; an old one keeps its own): a
        // game is a few hundred bytes, and SQLite's work goes by the page
        // (twice as many games a second as with the default 4 KiB).
        db.pragma_update(None, "page_size", 65536).with_context(not_arena)?;
        // WAL: a kill loses at most the transaction being written.
        db.pragma_update(None, "journal_mode", "WAL").with_context(not_arena)?;
        db.pragma_update(None, "synchronous", "NORMAL")?;
        db.execute_batch(SCHEMA).with_context(not_arena)?;
        if known.is_none() {
            db.execute("INSERT INTO arena (key, value) VALUES ('identity', ?1)", [identity])?;
        }
        Ok(Store { db, path: Some(path.to_owned()), names: names.to_vec() })
    }

    /// A connection of its own to copy what this store writes from the WAL
    /// into the database, on another thread.
    pub fn checkpointer(&self) -> anyhow::Result<Checkpointer> {
        let path = self.path.as_ref().context("a database opened only to read is written by no one")?;
        let db = Connection::open(path).with_context(|| format!("cannot open {}", path.display()))?;
        Ok(Checkpointer { db })
    }

    /// Opens the database of the arena described by `identity` only to
    /// read it, while a run may be writing it (WAL lets both): what the
    /// window's Arena screen rates as the games come in.
    pub fn open_read_only(path: &Path, identity: &str, names: &[String]) -> anyhow::Result<Store> {
        let db = Connection::open_with_flags(path, rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY)
            .with_context(|| format!("cannot open {}", path.display()))?;
        match identity_of(&db) {
            Ok(Some(known)) if known == identity => Ok(Store { db, path: None, names: names.to_vec() }),
            Ok(Some(_)) => bail!("{} holds the games of another arena", path.display()),
            _ => bail!("{} is not an arena database", path.display()),
        }
    }

    /// How many games of each part are done: the length of the prefix of
    /// its games the table holds (what a run resumes from).
    pub fn done(&self, parts: &[Part]) -> anyhow::Result<Vec<u64>> {
        let mut query = self.db.prepare_cached(
            "SELECT game FROM played WHERE level = ?1 AND pairing = ?2 AND game >= ?3 AND game < ?4 ORDER BY game",
        )?;
        let mut done = Vec::with_capacity(parts.len());
        for part in parts {
            let (start, end) = (part.games.start as i64, part.games.end as i64);
            let games = query
                .query_map(params![part.level as i64, part.pairing as i64, start, end], |r| {
                    r.get::<_, i64>(0)
                })?;
            let mut next = start;
            for game in games {
                if game? != next {
                    break;
                }
                next += 1;
            }
            done.push((next - start) as u64);
        }
        Ok(done)
    }

    /// Writes each of `seatings` not written yet; the id of each, in order,
    /// for the rows of its games.
    pub fn seatings(&mut self, seatings: &[Seating]) -> anyhow::Result<Vec<i64>> {
        let tx = self.db.transaction()?;
        let mut ids = Vec::with_capacity(seatings.len());
        for Seating { level, level_path, seats, agents } in seatings {
            tx.execute(
                "INSERT OR IGNORE INTO seatings (level, level_path, seats, agents) VALUES (?1, ?2, ?3, ?4)",
                params![*level as i64, level_path, seats, agents],
            )?;
            ids.push(tx.query_row(
                "SELECT seating FROM seatings WHERE level = ?1 AND seats = ?2",
                params![*level as i64, seats],
                |r| r.get(0),
            )?);
        }
        tx.commit()?;
        Ok(ids)
    }

    /// Writes `rows` in one transaction: all of them, or none.
    pub fn write(&mut self, rows: &[Row]) -> anyhow::Result<()> {
        let tx = self.db.transaction()?;
        {
            let mut scores = Vec::new();
            // Many rows a statement: a step of SQLite's program per
            // MANY_ROWS games rather than per game.
            let mut many = tx.prepare_cached(&insert_rows(MANY_ROWS))?;
            let mut chunks = rows.chunks_exact(MANY_ROWS);
            for chunk in &mut chunks {
                for (k, r) in chunk.iter().enumerate() {
                    bind_row(&mut many, k * COLUMNS, r, &mut scores)?;
                }
                many.raw_execute()?;
            }
            let mut one = tx.prepare_cached(&insert_rows(1))?;
            for r in chunks.remainder() {
                bind_row(&mut one, 0, r, &mut scores)?;
                one.raw_execute()?;
            }
        }
        tx.commit()?;
        Ok(())
    }

    /// Who played and who won each game, in (level, pairing, game) order:
    /// what the ratings read, without the moves.
    pub fn outcomes(&self) -> anyhow::Result<Vec<Outcome>> {
        let agents = self.seated()?;
        let mut query = self
            .db
            .prepare("SELECT level, game, seating, winner_seat FROM played ORDER BY level, pairing, game")?;
        let mut rows = query.query([])?;
        let mut out = Vec::new();
        while let Some(r) = rows.next()? {
            out.push(Outcome {
                level: r.get::<_, i64>(0)? as usize,
                game: r.get::<_, i64>(1)? as u64,
                seats: seats_of(&agents, r.get(2)?)?,
                winner_seat: r.get(3)?,
            });
        }
        Ok(out)
    }

    /// The games numbered in `games` of one pairing on one level, in order:
    /// each game's number, its agents by seat, and the winning seat (what a
    /// sequential test counts pairs from).
    pub fn games_of(&self, level: usize, pairing: usize, games: Range<u64>) -> anyhow::Result<Vec<Outcome>> {
        let agents = self.seated()?;
        let mut query = self.db.prepare_cached(
            "SELECT game, seating, winner_seat FROM played
             WHERE level = ?1 AND pairing = ?2 AND game >= ?3 AND game < ?4 ORDER BY game",
        )?;
        let mut rows =
            query.query(params![level as i64, pairing as i64, games.start as i64, games.end as i64])?;
        let mut out = Vec::new();
        while let Some(r) = rows.next()? {
            out.push(Outcome {
                level,
                game: r.get::<_, i64>(0)? as u64,
                seats: seats_of(&agents, r.get(1)?)?,
                winner_seat: r.get(2)?,
            });
        }
        Ok(out)
    }

    /// The arena's agents of each seating, by seat, read once for all the
    /// rows that name it.
    fn seated(&self) -> anyhow::Result<HashMap<i64, Vec<usize>>> {
        let mut query = self.db.prepare_cached("SELECT seating, seats FROM seatings")?;
        let mut rows = query.query([])?;
        let mut seated = HashMap::new();
        while let Some(r) = rows.next()? {
            let names: Vec<String> = serde_json::from_str(r.get_ref(1)?.as_str()?)?;
            let agents = names
                .iter()
                .map(|s| self.names.iter().position(|n| n == s).context("a seat names no agent of the arena"))
                .collect::<anyhow::Result<Vec<usize>>>()?;
            seated.insert(r.get(0)?, agents);
        }
        Ok(seated)
    }

    /// Copies every game of `other` (a shard of the same arena) in; a game
    /// both hold must be the same game.
    pub fn merge(&mut self, other: &Path) -> anyhow::Result<u64> {
        let before: i64 = self.db.query_row("SELECT count(*) FROM played", [], |r| r.get(0))?;
        // Read only: a shard named wrongly is not made, empty, by opening it.
        let ours = identity_of(&self.db)?.context("the database merged into holds no arena")?;
        drop(Store::open_read_only(other, &ours, &self.names)?);
        self.db.execute("ATTACH DATABASE ?1 AS shard", [other.display().to_string()])?;
        // A game both hold differs in something other than its time: refused.
        let clash: i64 = self.db.query_row(
            "SELECT count(*) FROM games a JOIN shard.games b USING (level, pairing, game)
             WHERE a.seed != b.seed OR a.seats != b.seats OR a.winner_seat IS NOT b.winner_seat OR a.moves != b.moves",
            [],
            |r| r.get(0),
        )?;
        if clash > 0 {
            self.db.execute("DETACH DATABASE shard", [])?;
            bail!("{} disagrees with the games already merged on {clash} game(s)", other.display());
        }
        // The shard's seatings become ours by their seats.
        let tx = self.db.transaction()?;
        tx.execute(
            "INSERT OR IGNORE INTO seatings (level, level_path, seats, agents)
             SELECT level, level_path, seats, agents FROM shard.seatings",
            [],
        )?;
        tx.execute(
            "INSERT OR IGNORE INTO played
             SELECT p.level, p.pairing, p.game, m.seating, p.seed, p.winner_seat, p.scores, p.plies, p.moves, p.micros
             FROM shard.played p JOIN shard.seatings s USING (seating)
             JOIN main.seatings m ON m.level = s.level AND m.seats = s.seats",
            [],
        )?;
        tx.commit()?;
        self.db.execute("DETACH DATABASE shard", [])?;
        let after: i64 = self.db.query_row("SELECT count(*) FROM played", [], |r| r.get(0))?;
        Ok((after - before) as u64)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The columns of the `games` view.
    const GAMES_COLUMNS: usize = 12;

    fn temp_db(name: &str) -> std::path::PathBuf {
        let path = std::env::temp_dir().join(format!("tabula-store-{name}-{}.db", std::process::id()));
        for end in ["", "-wal", "-shm"] {
            let _ = std::fs::remove_file(format!("{}{end}", path.display()));
        }
        path
    }

    /// The seatings of three levels, each with its two agents in both orders.
    fn six_seatings() -> Vec<Seating> {
        let json = |items: &[String]| serde_json::to_string(items).unwrap();
        (0..3)
            .flat_map(|level| [["a", "b"], ["b", "a"]].map(|order| (level, order)))
            .map(|(level, order)| Seating {
                level,
                level_path: format!("levels/{level}.ron"),
                seats: json(&order.map(String::from)),
                agents: json(&order.map(|name| format!("spec of {name}"))),
            })
            .collect()
    }

    /// Row `i` of a made-up table, every column telling it apart; its
    /// seating (and so its level) is one of the six, from `i` too.
    fn row(i: u64, seatings: &[Seating], ids: &[i64]) -> (Row, usize) {
        let k = (i % 6) as usize;
        let row = Row {
            level: seatings[k].level,
            pairing: (i % 5) as usize,
            game: i,
            seed: i.wrapping_mul(0x9E37_79B9_7F4A_7C15),
            seating: ids[k],
            winner_seat: (!i.is_multiple_of(4)).then_some((i % 2) as u8 + 1),
            scores: vec![i as i64, -(i as i64)],
            plies: i * 7,
            moves: serde_json::value::to_raw_value(&[i, i + 1]).unwrap(),
            micros: i * 11,
        };
        (row, k)
    }

    /// Every column of `games`, ordered by game.
    fn games(db: &Connection) -> Vec<Vec<rusqlite::types::Value>> {
        let mut query = db.prepare("SELECT * FROM games ORDER BY game").unwrap();
        query
            .query_map([], |r| (0..GAMES_COLUMNS).map(|c| r.get(c)).collect())
            .unwrap()
            .map(Result::unwrap)
            .collect()
    }

    /// What `games` must say of `r`, seated as `seating`.
    fn columns(r: &Row, seating: &Seating) -> Vec<rusqlite::types::Value> {
        use rusqlite::types::Value::{Integer, Null, Text};
        vec![
            Integer(r.level as i64),
            Integer(r.pairing as i64),
            Integer(r.game as i64),
            Text(seating.level_path.clone()),
            Integer(r.seed as i64),
            Text(seating.seats.clone()),
            Text(seating.agents.clone()),
            r.winner_seat.map_or(Null, |w| Integer(w.into())),
            Text(serde_json::to_string(&r.scores).unwrap()),
            Integer(r.plies as i64),
            Text(r.moves.get().to_owned()),
            Integer(r.micros as i64),
        ]
    }

    #[test]
    fn rows_written_many_a_statement_read_back_column_for_column() {
        let path = temp_db("columns");
        let names = vec!["a".to_owned(), "b".to_owned()];
        let mut store = Store::open(&path, "test", &names).unwrap();
        let seatings = six_seatings();
        let ids = store.seatings(&seatings).unwrap();
        // Two statements of MANY_ROWS rows and a remainder of one a statement.
        let rows: Vec<(Row, usize)> =
            (0..2 * MANY_ROWS as u64 + 6).map(|i| row(i, &seatings, &ids)).collect();
        store.write(&rows.iter().map(|(r, _)| r.clone()).collect::<Vec<_>>()).unwrap();
        let read = games(&store.db);
        assert_eq!(read.len(), rows.len());
        for (got, (r, k)) in read.iter().zip(&rows) {
            assert_eq!(got, &columns(r, &seatings[*k]), "game {}", r.game);
        }
        // Written again by another store: the same seatings, nothing doubled.
        drop(store);
        let mut store = Store::open(&path, "test", &names).unwrap();
        assert_eq!(store.seatings(&six_seatings()).unwrap(), ids);
        let seating_rows: i64 =
            store.db.query_row("SELECT count(*) FROM seatings", [], |r| r.get(0)).unwrap();
        assert_eq!(seating_rows, 6);
        store.write(&rows[..40].iter().map(|(r, _)| r.clone()).collect::<Vec<_>>()).unwrap();
        assert_eq!(games(&store.db), read);
        // Read back as the ratings read them.
        let outcomes = store.outcomes().unwrap();
        assert_eq!(outcomes.len(), rows.len());
        for o in &outcomes {
            let (r, k) = rows.iter().find(|(r, _)| r.game == o.game).unwrap();
            let seats = if seatings[*k].seats.starts_with(r#"["a""#) { vec![0, 1] } else { vec![1, 0] };
            assert_eq!((o.level, o.seats.clone(), o.winner_seat), (r.level, seats, r.winner_seat));
        }
        drop(store);
        let _ = std::fs::remove_file(&path);
    }

    #[test]
    fn another_arenas_database_is_refused_and_left_as_it_was() {
        let path = temp_db("other");
        let names = vec!["a".to_owned(), "b".to_owned()];
        let mut store = Store::open(&path, "one arena", &names).unwrap();
        store.seatings(&six_seatings()).unwrap();
        drop(store);
        let before = std::fs::read(&path).unwrap();
        let refused = Store::open(&path, "another arena", &names).err().unwrap();
        assert!(format!("{refused:#}").contains("another arena"), "{refused:#}");
        assert!(Store::open_read_only(&path, "another arena", &names).is_err());
        assert_eq!(std::fs::read(&path).unwrap(), before);
        let _ = std::fs::remove_file(&path);
    }
}
