//! An arena's results in SQLite: a row a finished game, written in the
//! order the games were played, many to a transaction. A transaction is
//! all or nothing, so after a kill the table holds a prefix of each part's
//! games: a resumed run starts after it, playing no game twice and losing
//! none. The arena itself is written down too, so a database is never
//! resumed or merged with another arena's games.

use std::path::Path;
use std::sync::Arc;

use anyhow::{Context, bail};
use rusqlite::{Connection, OptionalExtension, params};
use serde_json::value::RawValue;
use tabula_engine::arena::Part;

const SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS arena (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS games (
    level INTEGER NOT NULL,      -- the level's place in the arena file, from 0
    pairing INTEGER NOT NULL,    -- which agents met, as `Arena::levels[l].pairings`
    game INTEGER NOT NULL,       -- the game's number in its pairing
    level_path TEXT NOT NULL,
    seed INTEGER NOT NULL,       -- the game's seed, its 64 bits as a signed integer
    seats TEXT NOT NULL,         -- JSON: the agents' names, seat 1 first
    agents TEXT NOT NULL,        -- JSON: what each seat played (agent specs)
    winner_seat INTEGER,         -- from 1; NULL for a draw
    scores TEXT NOT NULL,        -- JSON, a score a seat
    plies INTEGER NOT NULL,
    moves TEXT NOT NULL,         -- JSON, the game's moves in replay notation
    micros INTEGER NOT NULL,     -- how long the game took
    PRIMARY KEY (level, pairing, game)
) WITHOUT ROWID;
";

/// The columns of `games`.
const COLUMNS: usize = 12;
/// Rows inserted by one statement.
const MANY_ROWS: usize = 32;

/// `INSERT OR IGNORE INTO games VALUES (?, ...), ...` for `n` rows.
fn insert_rows(n: usize) -> String {
    let row = format!("({})", ["?"; COLUMNS].join(", "));
    format!("INSERT OR IGNORE INTO games VALUES {}", vec![row; n].join(", "))
}

/// Binds `r` to the parameters of a row starting after `first`.
fn bind_row(statement: &mut rusqlite::CachedStatement<'_>, first: usize, r: &Row) -> anyhow::Result<()> {
    let scores = serde_json::to_string(&r.scores)?;
    let values: [&dyn rusqlite::ToSql; COLUMNS] = [
        &(r.level as i64),
        &(r.pairing as i64),
        &(r.game as i64),
        &r.seating.level_path,
        &(r.seed as i64),
        &r.seating.seats,
        &r.seating.agents,
        &r.winner_seat,
        &scores,
        &(r.plies as i64),
        &r.moves.get(),
        &(r.micros as i64),
    ];
    for (k, value) in values.iter().enumerate() {
        statement.raw_bind_parameter(first + k + 1, value)?;
    }
    Ok(())
}

/// A finished game, as a row.
#[derive(Clone, Debug)]
pub struct Row {
    pub level: usize,
    pub pairing: usize,
    pub game: u64,
    pub seed: u64,
    pub seating: Arc<Seating>,
    pub winner_seat: Option<u8>,
    pub scores: Vec<i64>,
    pub plies: u64,
    /// JSON, the game's moves in replay notation.
    pub moves: Box<RawValue>,
    pub micros: u64,
}

/// What every game of a level seated alike writes the same: made once and
/// shared, not once a game.
#[derive(Debug, PartialEq)]
pub struct Seating {
    pub level_path: String,
    /// JSON: the agents' names, seat 1 first.
    pub seats: String,
    /// JSON: what each seat played (agent specs).
    pub agents: String,
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
    /// The arena's agent names, to write and read seats by name.
    names: Vec<String>,
}

impl Store {
    /// Opens (or makes) the database of the arena described by `identity`,
    /// refusing one that holds another arena's games.
    pub fn open(path: &Path, identity: &str, names: &[String]) -> anyhow::Result<Store> {
        let db = Connection::open(path).with_context(|| format!("cannot open {}", path.display()))?;
        // WAL: a kill loses at most the transaction being written.
        db.pragma_update(None, "journal_mode", "WAL")?;
        db.pragma_update(None, "synchronous", "NORMAL")?;
        db.execute_batch(SCHEMA).with_context(|| format!("{} is not an arena database", path.display()))?;
        match identity_of(&db)? {
            None => {
                db.execute("INSERT INTO arena (key, value) VALUES ('identity', ?1)", [identity])?;
            }
            Some(known) if known == identity => {}
            Some(_) => bail!(
                "{} holds the games of another arena (or of this one before it was changed): give another --db",
                path.display()
            ),
        }
        Ok(Store { db, names: names.to_vec() })
    }

    /// Opens the database of the arena described by `identity` only to
    /// read it, while a run may be writing it (WAL lets both): what the
    /// window's Arena screen rates as the games come in.
    pub fn open_read_only(path: &Path, identity: &str, names: &[String]) -> anyhow::Result<Store> {
        let db = Connection::open_with_flags(path, rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY)
            .with_context(|| format!("cannot open {}", path.display()))?;
        match identity_of(&db) {
            Ok(Some(known)) if known == identity => Ok(Store { db, names: names.to_vec() }),
            Ok(Some(_)) => bail!("{} holds the games of another arena", path.display()),
            _ => bail!("{} is not an arena database", path.display()),
        }
    }

    /// How many games of each part are done: the length of the prefix of
    /// its games the table holds (what a run resumes from).
    pub fn done(&self, parts: &[Part]) -> anyhow::Result<Vec<u64>> {
        let mut query = self.db.prepare_cached(
            "SELECT game FROM games WHERE level = ?1 AND pairing = ?2 AND game >= ?3 AND game < ?4 ORDER BY game",
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

    /// Writes `rows` in one transaction: all of them, or none.
    pub fn write(&mut self, rows: &[Row]) -> anyhow::Result<()> {
        let tx = self.db.transaction()?;
        {
            // Many rows a statement: a step of SQLite's program per
            // MANY_ROWS games rather than per game.
            let mut many = tx.prepare_cached(&insert_rows(MANY_ROWS))?;
            let mut chunks = rows.chunks_exact(MANY_ROWS);
            for chunk in &mut chunks {
                for (k, r) in chunk.iter().enumerate() {
                    bind_row(&mut many, k * COLUMNS, r)?;
                }
                many.raw_execute()?;
            }
            let mut one = tx.prepare_cached(&insert_rows(1))?;
            for r in chunks.remainder() {
                bind_row(&mut one, 0, r)?;
                one.raw_execute()?;
            }
        }
        tx.commit()?;
        Ok(())
    }

    /// Who played and who won each game, in (level, pairing, game) order:
    /// what the ratings read, without the moves.
    pub fn outcomes(&self) -> anyhow::Result<Vec<Outcome>> {
        let mut query = self
            .db
            .prepare("SELECT level, game, seats, winner_seat FROM games ORDER BY level, pairing, game")?;
        let rows = query.query_map([], |r| {
            Ok((r.get::<_, i64>(0)?, r.get::<_, i64>(1)?, r.get::<_, String>(2)?, r.get::<_, Option<u8>>(3)?))
        })?;
        let mut out = Vec::new();
        for row in rows {
            let (level, game, seats, winner_seat) = row?;
            out.push(Outcome {
                level: level as usize,
                game: game as u64,
                seats: self.agents_of(&seats)?,
                winner_seat,
            });
        }
        Ok(out)
    }

    /// The games of one pairing on one level, in order: each game's number,
    /// its agents by seat, and the winning seat (what a sequential test
    /// counts pairs from).
    pub fn games_of(&self, level: usize, pairing: usize) -> anyhow::Result<Vec<Outcome>> {
        let mut query = self.db.prepare_cached(
            "SELECT game, seats, winner_seat FROM games WHERE level = ?1 AND pairing = ?2 ORDER BY game",
        )?;
        let rows = query.query_map(params![level as i64, pairing as i64], |r| {
            Ok((r.get::<_, i64>(0)?, r.get::<_, String>(1)?, r.get::<_, Option<u8>>(2)?))
        })?;
        let mut out = Vec::new();
        for row in rows {
            let (game, seats, winner_seat) = row?;
            out.push(Outcome { level, game: game as u64, seats: self.agents_of(&seats)?, winner_seat });
        }
        Ok(out)
    }

    /// The arena's agents a row's seats name.
    fn agents_of(&self, seats: &str) -> anyhow::Result<Vec<usize>> {
        let seats: Vec<&str> = serde_json::from_str(seats)?;
        seats
            .iter()
            .map(|s| self.names.iter().position(|n| n == s).context("a seat names no agent of the arena"))
            .collect()
    }

    /// Copies every game of `other` (a shard of the same arena) in; a game
    /// both hold must be the same game.
    pub fn merge(&mut self, other: &Path) -> anyhow::Result<u64> {
        let before: i64 = self.db.query_row("SELECT count(*) FROM games", [], |r| r.get(0))?;
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
        self.db.execute("INSERT OR IGNORE INTO games SELECT * FROM shard.games", [])?;
        self.db.execute("DETACH DATABASE shard", [])?;
        let after: i64 = self.db.query_row("SELECT count(*) FROM games", [], |r| r.get(0))?;
        Ok((after - before) as u64)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Row `i` of a made-up table, every column telling it apart.
    fn row(i: u64, seating: &Arc<Seating>) -> Row {
        Row {
            level: (i % 3) as usize,
            pairing: (i % 5) as usize,
            game: i,
            seed: i.wrapping_mul(0x9E37_79B9_7F4A_7C15),
            seating: seating.clone(),
            winner_seat: (!i.is_multiple_of(4)).then_some((i % 2) as u8 + 1),
            scores: vec![i as i64, -(i as i64)],
            plies: i * 7,
            moves: serde_json::value::to_raw_value(&[i, i + 1]).unwrap(),
            micros: i * 11,
        }
    }

    #[test]
    fn rows_written_many_a_statement_read_back_column_for_column() {
        let path = std::env::temp_dir().join(format!("tabula-store-{}.db", std::process::id()));
        let _ = std::fs::remove_file(&path);
        let names = vec!["a".to_owned(), "b".to_owned()];
        let mut store = Store::open(&path, "test", &names).unwrap();
        let seating = Arc::new(Seating {
            level_path: "levels/x.ron".into(),
            seats: r#"["b","a"]"#.into(),
            agents: r#"["random","greedy"]"#.into(),
        });
        // Two statements of MANY_ROWS rows and a remainder of one a statement.
        let rows: Vec<Row> = (0..2 * MANY_ROWS as u64 + 6).map(|i| row(i, &seating)).collect();
        store.write(&rows).unwrap();
        let read: Vec<Vec<rusqlite::types::Value>> = {
            let mut query = store.db.prepare("SELECT * FROM games ORDER BY game").unwrap();
            query
                .query_map([], |r| (0..COLUMNS).map(|c| r.get(c)).collect())
                .unwrap()
                .map(Result::unwrap)
                .collect()
        };
        assert_eq!(read.len(), rows.len());
        use rusqlite::types::Value::{Integer, Null, Text};
        for (got, r) in read.iter().zip(&rows) {
            let want = vec![
                Integer(r.level as i64),
                Integer(r.pairing as i64),
                Integer(r.game as i64),
                Text(r.seating.level_path.clone()),
                Integer(r.seed as i64),
                Text(r.seating.seats.clone()),
                Text(r.seating.agents.clone()),
                r.winner_seat.map_or(Null, |w| Integer(w.into())),
                Text(serde_json::to_string(&r.scores).unwrap()),
                Integer(r.plies as i64),
                Text(r.moves.get().to_owned()),
                Integer(r.micros as i64),
            ];
            assert_eq!(got, &want, "game {}", r.game);
        }
        // Written again: nothing doubled.
        store.write(&rows[..40]).unwrap();
        let count: i64 = store.db.query_row("SELECT count(*) FROM games", [], |r| r.get(0)).unwrap();
        assert_eq!(count as usize, rows.len());
        drop(store);
        let _ = std::fs::remove_file(&path);
    }
}
