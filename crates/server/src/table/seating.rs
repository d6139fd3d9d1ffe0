//! Who is at a table: a table made of a level and its settings, persons
//! seated with their tokens, connections that follow it (a seat's or a
//! spectator's), come back, leave or are displaced, and the rematch's new
//! table. The lobby keeps the server's maps of tables and tokens; these
//! keep the table.

use std::sync::{Arc, Mutex};
use std::time::Instant;

use tabula_engine::Player;
use tabula_engine::games;
use tabula_engine::level::{self, LevelFile};
use tabula_engine::live::LiveGame;

use super::{Clocks, ConnId, Follower, Refused, Seat, Table, number, say};
use crate::config::Limits;
use crate::protocol::{CreateTable, ErrorCode, Id, ServerMessage};
use crate::store::{Job, Op, Outbox};

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

/// A rematch asked for: told to the table, or ready to be made.
pub enum Rematch {
    Asked(Job),
    /// Every person asked: a new table of `level` as `spec` says, the
    /// seats moved round by one.
    Ready {
        spec: CreateTable,
        level: LevelFile,
    },
}

impl Table {
    /// A table of `level` as `spec` says, checked in full against the
    /// level's rules and the server's `limits`; nothing is kept yet.
    pub fn build(
        id: String,
        level: &LevelFile,
        seed: u64,
        spec: CreateTable,
        limits: &Limits,
        replays: Option<std::path::PathBuf>,
    ) -> Result<Table, Refused> {
        let live = games::start(level, seed).map_err(|e| Refused::new(ErrorCode::BadLevel, e.to_string()))?;
        check_hosted(&*live, limits)?;
        let n = live.num_players();
        let kinds = spec.seats.clone().unwrap_or_else(|| vec!["person".to_owned(); n]);
        if kinds.len() != n {
            return Err(Refused::new(
                ErrorCode::BadRequest,
                format!("the level has {n} seats, but \"seats\" names {}", kinds.len()),
            ));
        }
        let agent = |text: &str| {
            let spec = text.parse().map_err(|e: tabula_engine::core::AgentError| {
                Refused::new(ErrorCode::BadAgent, e.to_string())
            })?;
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
            replays,
            moves_by: Vec::new(),
            finished_at: None,
        })
    }

    /// The row that keeps this table in the database.
    pub fn kept(&self) -> Op {
        Op::Table {
            id: self.id.clone(),
            game: self.live.game().to_owned(),
            level: level::to_ron(self.live.level()),
            seed: self.live.seed(),
            config: serde_json::to_string(&self.config).expect("settings serialise"),
        }
    }

    /// The `created` answer to the request that made this table.
    pub fn created(&self) -> ServerMessage<&'static serde_json::value::RawValue> {
        ServerMessage::Created {
            table: self.id.clone(),
            game: self.live.game().to_owned(),
            level: self.live.level().name().to_owned(),
            seats: self.seat_infos(),
        }
    }

    /// A person called `name` takes `seat` (the first open one if `None`)
    /// with `token`, on connection `conn`: the seat kept on disk, the
    /// joiner told its token and the state, everyone who sits where; the
    /// game begins once no seat is open. The seat taken.
    #[allow(clippy::too_many_arguments)]
    pub fn join(
        &mut self,
        conn: ConnId,
        outbox: &Outbox,
        seat: Option<u8>,
        name: String,
        token: String,
        re: Option<&Id>,
    ) -> Result<(Player, Job), Refused> {
        let id = &self.id;
        if self.result.is_some() {
            return Err(Refused::new(ErrorCode::Over, format!("the game at table {id} is over")));
        }
        let open = |s: &Seat| s.agent_spec.is_none() && s.token.is_none();
        let index = match seat {
            Some(n) => {
                let i = usize::from(n).wrapping_sub(1);
                match self.seats.get(i) {
                    Some(s) if open(s) => i,
                    Some(_) => {
                        return Err(Refused::new(
                            ErrorCode::NoSeat,
                            format!("seat {n} at table {id} is taken"),
                        ));
                    }
                    None => {
                        return Err(Refused::new(ErrorCode::NoSeat, format!("table {id} has no seat {n}")));
                    }
                }
            }
            None => self
                .seats
                .iter()
                .position(open)
                .ok_or_else(|| Refused::new(ErrorCode::NoSeat, format!("table {id} has no open seat")))?,
        };
        let player = Player(index as u8);
        let mut job = Job::default();
        self.seat_person(player, name, token.clone(), &mut job);
        let begins = self.open_seats() == 0;
        if begins {
            // Before the joiner's state: it shows the clock running, as
            // everyone else's does (and as a rematch's does).
            self.start_clock();
        }
        self.attach(conn, outbox, player, &token, re, &mut job);
        if begins {
            self.begin(conn, player, &mut job);
        }
        Ok((player, job))
    }

    /// Seats a person called `name` at `seat` with `token`, kept on disk by
    /// `job`.
    fn seat_person(&mut self, seat: Player, name: String, token: String, job: &mut Job) {
        job.ops.push(Op::Seat {
            table: self.id.clone(),
            seat: number(seat),
            token: token.clone(),
            name: name.clone(),
        });
        let s = &mut self.seats[seat.index()];
        s.token = Some(token);
        s.name = name;
    }

    /// A connection holds `seat` from now: it is told its token and the
    /// state, and everyone is told who sits where.
    fn attach(
        &mut self,
        conn: ConnId,
        outbox: &Outbox,
        seat: Player,
        token: &str,
        re: Option<&Id>,
        job: &mut Job,
    ) {
        if !self.followers.iter().any(|f| f.conn == conn && f.seat == Some(seat)) {
            self.followers.push(Follower { conn, seat: Some(seat), outbox: outbox.clone() });
            let s = &mut self.seats[seat.index()];
            s.connected += 1;
            s.left_at = None;
        }
        let joined =
            ServerMessage::Joined { table: self.id.clone(), seat: number(seat), token: token.to_owned() };
        job.send(outbox, say(joined, re));
        job.send(outbox, self.state_text(Some(seat), None));
        self.tell_seats(job);
    }

    /// The last seat is taken (its clock started): every follower of the
    /// table but the seat just taken is told the state with their moves
    /// (that seat has had it). One connection may hold several seats.
    fn begin(&mut self, joiner: ConnId, seat: Player, job: &mut Job) {
        for f in self.followers.iter().filter(|f| !(f.conn == joiner && f.seat == Some(seat))) {
            job.send(&f.outbox, self.state_text(f.seat, None));
        }
    }

    /// `token`, held by `seat`, takes it back on connection `conn`: an
    /// agent standing in stands down, and any other connection holding the
    /// seat is told it is displaced and no longer acts for it.
    pub fn resume(
        &mut self,
        conn: ConnId,
        outbox: &Outbox,
        seat: Player,
        token: &str,
        re: Option<&Id>,
    ) -> Result<Job, Refused> {
        if self.seats.get(seat.index()).and_then(|s| s.token.as_deref()) != Some(token) {
            return Err(Refused::new(ErrorCode::BadToken, "no seat has this token"));
        }
        let mut job = Job::default();
        if self.seats[seat.index()].stand_in.take().is_some() {
            job.ops.push(Op::StandIn { table: self.id.clone(), seat: number(seat), agent: None });
        }
        let displaced = ServerMessage::Displaced { table: self.id.clone(), seat: number(seat) };
        let mut gone = 0;
        self.followers.retain(|f| {
            let other = f.seat == Some(seat) && f.conn != conn;
            if other {
                job.send(&f.outbox, say(displaced.clone(), None));
                gone += 1;
            }
            !other
        });
        let s = &mut self.seats[seat.index()];
        s.connected = s.connected.saturating_sub(gone);
        self.attach(conn, outbox, seat, token, re, &mut job);
        Ok(job)
    }

    /// Connection `conn` follows the table as a spectator.
    pub fn watch(&mut self, conn: ConnId, outbox: &Outbox, re: Option<&Id>) -> Result<Job, Refused> {
        if !self.config.spectators {
            return Err(Refused::new(
                ErrorCode::NoSpectators,
                format!("table {} takes no spectators", self.id),
            ));
        }
        if !self.followers.iter().any(|f| f.conn == conn && f.seat.is_none()) {
            self.followers.push(Follower { conn, seat: None, outbox: outbox.clone() });
        }
        let mut job = Job::default();
        job.send(outbox, self.state_text(None, re));
        Ok(job)
    }

    /// Connection `conn` stops following the table; its seats wait for
    /// their tokens. Who sits where, if that changed.
    pub fn leave(&mut self, conn: ConnId, now: Instant) -> Option<Job> {
        let mut gone = Vec::new();
        self.followers.retain(|f| {
            let mine = f.conn == conn;
            if mine {
                gone.extend(f.seat);
            }
            !mine
        });
        for seat in &gone {
            let s = &mut self.seats[seat.index()];
            s.connected = s.connected.saturating_sub(1);
            if s.connected == 0 {
                s.left_at = Some(now);
            }
        }
        // Watching only, or not at this table at all: nothing to tell.
        (!gone.is_empty()).then(|| {
            let mut job = Job::default();
            self.tell_seats(&mut job);
            job
        })
    }

    /// `seat` wants to play again: told to all, or, once every person
    /// asked, what the new table is made of.
    pub fn ask_rematch(&mut self, seat: Player, asker: ConnId, re: Option<&Id>) -> Result<Rematch, Refused> {
        if self.result.is_none() {
            return Err(Refused::new(ErrorCode::BadRequest, "a rematch is for a finished game"));
        }
        if self.rematch_table.is_some() {
            return Err(Refused::new(ErrorCode::BadRequest, "the rematch is made already"));
        }
        self.rematch[seat.index()] = true;
        let waiting = self.seats.iter().enumerate().any(|(i, s)| s.token.is_some() && !self.rematch[i]);
        if waiting {
            let mut job = Job::default();
            let told = ServerMessage::RematchAsked { table: self.id.clone(), by: number(seat) };
            self.tell_all_answering(&mut job, told, asker, re);
            return Ok(Rematch::Asked(job));
        }
        let n = self.seats.len();
        let mut spec = self.config.clone();
        spec.seats = Some(
            (0..n)
                .map(|i| self.seats[(i + n - 1) % n].agent_spec.clone().unwrap_or_else(|| "person".into()))
                .collect(),
        );
        Ok(Rematch::Ready { spec, level: self.live.level().clone() })
    }

    /// Moves everyone to `new`, the rematch's table: each person one seat
    /// round with a new token from `token`, each told so, spectators along.
    /// The old tokens and the new, each with its new seat.
    pub fn move_to(
        &mut self,
        new: &mut Table,
        token: &mut dyn FnMut() -> String,
        asker: ConnId,
        re: Option<&Id>,
        job: &mut Job,
    ) -> Vec<(String, String, Player)> {
        let n = self.seats.len();
        let mut tokens = Vec::new();
        for old in 0..n {
            let Some(old_token) = self.seats[old].token.clone() else { continue };
            let to = Player(((old + 1) % n) as u8);
            let new_token = token();
            new.seat_person(to, self.seats[old].name.clone(), new_token.clone(), job);
            let holders: Vec<_> = self
                .followers
                .iter()
                .filter(|f| f.seat == Some(Player(old as u8)))
                .map(|f| (f.conn, f.outbox.clone()))
                .collect();
            for (conn, outbox) in holders {
                let told = ServerMessage::Rematch {
                    table: self.id.clone(),
                    new_table: new.id.clone(),
                    seat: Some(number(to)),
                    token: Some(new_token.clone()),
                };
                job.send(&outbox, say(told, if conn == asker { re } else { None }));
                new.followers.push(Follower { conn, seat: Some(to), outbox });
                new.seats[to.index()].connected += 1;
            }
            tokens.push((old_token, new_token, to));
        }
        // Spectators are told too, so that they follow into the new table.
        for f in self.followers.iter().filter(|f| f.seat.is_none()) {
            let told = ServerMessage::Rematch {
                table: self.id.clone(),
                new_table: new.id.clone(),
                seat: None,
                token: None,
            };
            job.send(&f.outbox, say(told, None));
            new.followers.push(Follower { conn: f.conn, seat: None, outbox: f.outbox.clone() });
        }
        self.rematch_table = Some(new.id.clone());
        if new.open_seats() == 0 {
            new.start_clock();
        }
        new.tell_state(job);
        tokens
    }

    /// Every seat is taken: the clock of the seat to move runs.
    fn start_clock(&mut self) {
        let to_move = self.live.to_move();
        if let Some(clock) = &mut self.clock {
            clock.running = Some(to_move);
            clock.since = Instant::now();
        }
    }
}
