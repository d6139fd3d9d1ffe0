//! Making tables, taking seats (a token each), taking them back, watching,
//! leaving and rematches: what changes who is at a table, not the game.

use std::sync::{Arc, Mutex};
use std::time::Instant;

use tabula_engine::Player;
use tabula_engine::games;
use tabula_engine::level::{self, LevelFile};
use tabula_engine::live::LiveGame;

use crate::agents;
use crate::config::Limits;
use crate::protocol::{CreateTable, ErrorCode, Id, ServerMessage};
use crate::random::{new_table_id, new_token, random_u64};
use crate::shared::{Shared, lock};
use crate::store::{Job, Op, Outbox};
use crate::table::{Clocks, ConnId, Follower, Refused, Seat, Table, number, say};

/// Refuses a level whose games could make a message or a table too big
/// for the server's limits (docs/protocol.md, "Limits"): the level's text
/// as every seat gets it, the most legal moves a seat can have at once
/// (each goes out in `legal`), and the most moves a game can last (each
/// goes out again in `moves` to a connection that comes back).
pub fn check_hosted(live: &dyn LiveGame, limits: &Limits) -> Result<(), Refused> {
    let refuse = |what: String| Err(Refused::new(ErrorCode::BadLevel, what));
    let text = live.public_level().len();
    if text > limits.hosted_level_bytes {
        return refuse(format!(
            "the level's text is {text} bytes; this server hosts levels of at most {} (hosted_level_bytes)",
            limits.hosted_level_bytes
        ));
    }
    let (legal, plies) = live.bounds();
    if legal > limits.legal_moves {
        return refuse(format!(
            "a seat could have {legal} moves at once here; this server hosts levels of at most {} (legal_moves)",
            limits.legal_moves
        ));
    }
    if plies > limits.plies {
        return refuse(format!(
            "a game of this level may last {plies} moves; this server hosts games of at most {} (plies): lower its move cap",
            limits.plies
        ));
    }
    Ok(())
}

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

/// A table of `level` as `spec` says, checked in full; nothing is kept yet.
pub fn build_table(
    shared: &Shared,
    id: String,
    level: &LevelFile,
    seed: u64,
    spec: CreateTable,
) -> Result<Table, Refused> {
    let live = games::start(level, seed).map_err(|e| Refused::new(ErrorCode::BadLevel, e.to_string()))?;
    check_hosted(&*live, &shared.config.limits)?;
    let n = live.num_players();
    let kinds = spec.seats.clone().unwrap_or_else(|| vec!["person".to_owned(); n]);
    if kinds.len() != n {
        return Err(Refused::new(
            ErrorCode::BadRequest,
            format!("the level has {n} seats, but \"seats\" names {}", kinds.len()),
        ));
    }
    let agent = |text: &str| {
        let spec = text
            .parse()
            .map_err(|e: tabula_engine::core::AgentError| Refused::new(ErrorCode::BadAgent, e.to_string()))?;
        live.agent(&spec).map_err(|e| Refused::new(ErrorCode::BadAgent, e.to_string()))
    };
    let mut seats = Vec::with_capacity(n);
    for (i, kind) in kinds.iter().enumerate() {
        let person = kind == "person";
        seats.push(Seat {
            agent_spec: (!person).then(|| kind.clone()),
            agent: if person { None } else { Some(Arc::new(Mutex::new(agent(kind)?))) },
            token: None,
            name: format!("Player {}", i + 1),
            stand_in: None,
            connected: 0,
            left_at: None,
        });
    }
    if let Some(takeover) = &spec.takeover {
        agent(takeover)?;
    }
    let clock = match spec.clock {
        None => None,
        Some(_) if n != 2 => {
            return Err(Refused::new(ErrorCode::BadRequest, "a clock is for a table of two seats"));
        }
        Some(c) if !(c.minutes > 0.0 && c.minutes <= 1440.0 && (0.0..=3600.0).contains(&c.increment)) => {
            return Err(Refused::new(
                ErrorCode::BadRequest,
                "a clock takes 0 to 1440 minutes and an increment of 0 to 3600 seconds",
            ));
        }
        Some(c) => Some(Clocks {
            remaining_ms: vec![(c.minutes * 60_000.0) as i64; n],
            increment_ms: (c.increment * 1000.0) as i64,
            // Runs once every seat is taken (`begin`).
            running: None,
            since: Instant::now(),
        }),
    };
    Ok(Table {
        id,
        live,
        config: spec,
        seats,
        followers: Vec::new(),
        clock,
        result: None,
        ask: None,
        rematch: Vec::new(),
        rematch_table: None,
        thinking: false,
        passed_at: None,
        replays: shared.config.replays.clone(),
        moves_by: Vec::new(),
        finished_at: None,
    })
}

/// Keeps a new table: on disk first, then open to all.
fn open_table(shared: &Arc<Shared>, table: Table, level: &LevelFile, mut job: Job) -> Arc<Mutex<Table>> {
    job.ops.insert(
        0,
        Op::Table {
            id: table.id.clone(),
            game: table.live.game().to_owned(),
            level: level::to_ron(level),
            seed: table.live.seed(),
            config: serde_json::to_string(&table.config).expect("settings serialise"),
        },
    );
    let id = table.id.clone();
    let table = Arc::new(Mutex::new(table));
    lock(&shared.tables).insert(id, table.clone());
    agents::submit(shared, &table, job);
    table
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
    let table = build_table(shared, new_table_id(), &level, random_u64(), spec)?;
    let mut job = Job::default();
    let created = ServerMessage::Created {
        table: table.id.clone(),
        game: table.live.game().to_owned(),
        level: level.name().to_owned(),
        seats: table.seat_infos(),
    };
    job.send(outbox, say(created, re));
    let id = table.id.clone();
    open_table(shared, table, &level, job);
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
    let job = {
        let mut t = lock(&table);
        if t.result.is_some() {
            return Err(Refused::new(ErrorCode::Over, format!("the game at table {table_id} is over")));
        }
        let open = |s: &Seat| s.agent_spec.is_none() && s.token.is_none();
        let index = match seat {
            Some(n) => {
                let i = usize::from(n).wrapping_sub(1);
                match t.seats.get(i) {
                    Some(s) if open(s) => i,
                    Some(_) => {
                        return Err(Refused::new(
                            ErrorCode::NoSeat,
                            format!("seat {n} at table {table_id} is taken"),
                        ));
                    }
                    None => {
                        return Err(Refused::new(
                            ErrorCode::NoSeat,
                            format!("table {table_id} has no seat {n}"),
                        ));
                    }
                }
            }
            None => t.seats.iter().position(open).ok_or_else(|| {
                Refused::new(ErrorCode::NoSeat, format!("table {table_id} has no open seat"))
            })?,
        };
        let player = Player(index as u8);
        let mut job = Job::default();
        let token = seat_person(shared, &mut t, player, name, &mut job);
        attach(&mut t, conn, outbox, player, &token, re, &mut job);
        if t.open_seats() == 0 {
            begin(&mut t, conn, player, &mut job);
        }
        job
    };
    agents::submit(shared, &table, job);
    Ok(())
}

/// The last seat is taken: the clock starts, and every follower of the
/// table but the seat just taken is told the state with their moves (that
/// seat has had it). One connection may hold several seats.
fn begin(t: &mut Table, joiner: ConnId, seat: Player, job: &mut Job) {
    let to_move = t.live.to_move();
    if let Some(clock) = &mut t.clock {
        clock.running = Some(to_move);
        clock.since = Instant::now();
    }
    for f in t.followers.iter().filter(|f| !(f.conn == joiner && f.seat == Some(seat))) {
        job.send(&f.outbox, t.state_text(f.seat, None));
    }
}

/// Seats a person called `name` at `seat` of `t` with a new token, kept
/// on disk by `job`; the token.
fn seat_person(shared: &Shared, t: &mut Table, seat: Player, name: String, job: &mut Job) -> String {
    let token = new_token();
    job.ops.push(Op::Seat {
        table: t.id.clone(),
        seat: number(seat),
        token: token.clone(),
        name: name.clone(),
    });
    let s = &mut t.seats[seat.index()];
    s.token = Some(token.clone());
    s.name = name;
    lock(&shared.tokens).insert(token.clone(), (t.id.clone(), seat));
    token
}

/// A connection holds `seat` from now: it is told its token and the state,
/// and everyone is told who sits where.
fn attach(
    t: &mut Table,
    conn: ConnId,
    outbox: &Outbox,
    seat: Player,
    token: &str,
    re: Option<&Id>,
    job: &mut Job,
) {
    if !t.followers.iter().any(|f| f.conn == conn && f.seat == Some(seat)) {
        t.followers.push(Follower { conn, seat: Some(seat), outbox: outbox.clone() });
        let s = &mut t.seats[seat.index()];
        s.connected += 1;
        s.left_at = None;
    }
    let joined = ServerMessage::Joined { table: t.id.clone(), seat: number(seat), token: token.to_owned() };
    job.send(outbox, say(joined, re));
    job.send(outbox, t.state_text(Some(seat), None));
    t.tell_seats(job);
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
    let job = {
        let mut t = lock(&table);
        if t.seats[seat.index()].token.as_deref() != Some(token) {
            return Err(bad());
        }
        let mut job = Job::default();
        if t.seats[seat.index()].stand_in.take().is_some() {
            job.ops.push(Op::StandIn { table: table_id.clone(), seat: number(seat), agent: None });
        }
        // The token moves to this connection: any other holding the seat
        // is told and no longer acts for it (a client that came back on a
        // new connection while the old one lingers).
        let displaced = ServerMessage::Displaced { table: table_id.clone(), seat: number(seat) };
        let mut gone = 0;
        t.followers.retain(|f| {
            let other = f.seat == Some(seat) && f.conn != conn;
            if other {
                job.send(&f.outbox, say(displaced.clone(), None));
                gone += 1;
            }
            !other
        });
        let s = &mut t.seats[seat.index()];
        s.connected = s.connected.saturating_sub(gone);
        attach(&mut t, conn, outbox, seat, token, re, &mut job);
        job
    };
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
    let job = {
        let mut t = lock(&table);
        if !t.config.spectators {
            return Err(Refused::new(
                ErrorCode::NoSpectators,
                format!("table {table_id} takes no spectators"),
            ));
        }
        if !t.followers.iter().any(|f| f.conn == conn && f.seat.is_none()) {
            t.followers.push(Follower { conn, seat: None, outbox: outbox.clone() });
        }
        let mut job = Job::default();
        job.send(outbox, t.state_text(None, re));
        job
    };
    agents::submit(shared, &table, job);
    Ok(())
}

/// The connection stops following the table; its seats wait for their tokens.
pub fn leave(shared: &Arc<Shared>, conn: ConnId, table_id: &str) {
    let Some(table) = shared.table(table_id) else { return };
    let job = {
        let mut t = lock(&table);
        let now = Instant::now();
        let mut gone = Vec::new();
        t.followers.retain(|f| {
            let mine = f.conn == conn;
            if mine {
                gone.extend(f.seat);
            }
            !mine
        });
        for seat in &gone {
            let s = &mut t.seats[seat.index()];
            s.connected = s.connected.saturating_sub(1);
            if s.connected == 0 {
                s.left_at = Some(now);
            }
        }
        if gone.is_empty() {
            // Watching only, or not at this table at all (a closed
            // connection leaves every table): nothing to tell.
            return;
        }
        let mut job = Job::default();
        t.tell_seats(&mut job);
        job
    };
    agents::submit(shared, &table, job);
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
    seat: Player,
    asker: ConnId,
    re: Option<&Id>,
) -> Result<(), Refused> {
    let mut t = lock(table);
    if t.result.is_none() {
        return Err(Refused::new(ErrorCode::BadRequest, "a rematch is for a finished game"));
    }
    if t.rematch_table.is_some() {
        return Err(Refused::new(ErrorCode::BadRequest, "the rematch is made already"));
    }
    t.rematch[seat.index()] = true;
    let waiting = t.seats.iter().enumerate().any(|(i, s)| s.token.is_some() && !t.rematch[i]);
    if waiting {
        let mut job = Job::default();
        let told = ServerMessage::RematchAsked { table: t.id.clone(), by: number(seat) };
        t.tell_all_answering(&mut job, told, asker, re);
        drop(t);
        agents::submit(shared, table, job);
        return Ok(());
    }
    let n = t.seats.len();
    let mut spec = t.config.clone();
    spec.seats = Some(
        (0..n)
            .map(|i| t.seats[(i + n - 1) % n].agent_spec.clone().unwrap_or_else(|| "person".into()))
            .collect(),
    );
    let level = t.live.level().clone();
    let mut new = build_table(shared, new_table_id(), &level, random_u64(), spec)?;
    let mut job = Job::default();
    for old in 0..n {
        let Some(old_token) = t.seats[old].token.clone() else { continue };
        let to = Player(((old + 1) % n) as u8);
        let token = seat_person(shared, &mut new, to, t.seats[old].name.clone(), &mut job);
        lock(&shared.tokens).remove(&old_token);
        let holders: Vec<_> = t
            .followers
            .iter()
            .filter(|f| f.seat == Some(Player(old as u8)))
            .map(|f| (f.conn, f.outbox.clone()))
            .collect();
        for (conn, outbox) in holders {
            let told = ServerMessage::Rematch {
                table: t.id.clone(),
                new_table: new.id.clone(),
                seat: number(to),
                token: token.clone(),
            };
            job.send(&outbox, say(told, if conn == asker { re } else { None }));
            new.followers.push(Follower { conn, seat: Some(to), outbox: outbox.clone() });
            new.seats[to.index()].connected += 1;
        }
    }
    for f in t.followers.iter().filter(|f| f.seat.is_none()) {
        new.followers.push(Follower { conn: f.conn, seat: None, outbox: f.outbox.clone() });
    }
    t.rematch_table = Some(new.id.clone());
    new.tell_state(&mut job);
    drop(t);
    open_table(shared, new, &level, job);
    Ok(())
}
