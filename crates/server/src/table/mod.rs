//! One table: a game in progress, who sits where, who follows it, its
//! clock, and what each follower is told. Everything here runs under the
//! table's lock and hands back a [`Job`] for the store: what must be on disk,
//! then the messages that may go out once it is. Its fields are its own:
//! the rest of the server asks (a request in, a job out), which is what
//! the tests beside it do too.

mod agents;
mod restore;
mod seating;
#[cfg(test)]
mod tests;

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Instant;

use serde_json::Value;
use serde_json::value::RawValue;
use tabula_engine::Player;
use tabula_engine::live::{Json, LiveAgent, LiveGame, Played, RefusalKind};

use crate::protocol::{
    self, ClockState, CreateTable, EndReason, ErrorCode, Id, LegalMove, LevelInfo, Message, Moved, PastMove,
    SeatInfo, SeatKind, SeatNumber, ServerMessage, TableState, TakeBackAsk,
};
use crate::store::{Job, Op, Outbox};

pub use agents::Turn;
pub use seating::{Rematch, check_hosted};

/// A request refused: a stable code and words for people. Nothing changed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Refused {
    pub code: ErrorCode,
    pub message: String,
}

impl Refused {
    pub fn new(code: ErrorCode, message: impl Into<String>) -> Refused {
        Refused { code, message: message.into() }
    }
}

/// A connection, as tables know it.
pub type ConnId = u64;

pub type SharedAgent = Arc<Mutex<Box<dyn LiveAgent>>>;

struct Seat {
    /// The agent spec of an agent's seat; `None` for a person's.
    agent_spec: Option<String>,
    agent: Option<SharedAgent>,
    /// The token of the person who took the seat.
    token: Option<String>,
    name: String,
    /// The agent playing for a person gone past the grace period.
    stand_in: Option<(String, SharedAgent)>,
    /// Connections holding the seat now.
    connected: usize,
    /// When the last of them went.
    left_at: Option<Instant>,
}

impl Seat {
    /// The agent that moves for this seat now, if one does.
    fn playing_agent(&self) -> Option<&SharedAgent> {
        self.agent.as_ref().or(self.stand_in.as_ref().map(|(_, a)| a))
    }
}

/// A connection following the table, as a seat or a spectator.
struct Follower {
    conn: ConnId,
    seat: Option<Player>,
    outbox: Outbox,
}

/// Each seat's time left, and whose runs since when.
struct Clocks {
    remaining_ms: Vec<i64>,
    increment_ms: i64,
    running: Option<Player>,
    since: Instant,
}

impl Clocks {
    fn left(&self, seat: Player, now: Instant) -> i64 {
        let spent =
            if self.running == Some(seat) { now.duration_since(self.since).as_millis() as i64 } else { 0 };
        self.remaining_ms[seat.index()] - spent
    }

    /// The running seat's time spent is taken off, and it runs on from `now`.
    fn settle(&mut self, now: Instant) {
        if let Some(running) = self.running {
            self.remaining_ms[running.index()] = self.left(running, now).max(0);
        }
        self.since = now;
    }

    /// The time left per seat as the database keeps it.
    fn saved(&self) -> String {
        serde_json::to_string(&self.remaining_ms).expect("numbers serialise")
    }

    fn state(&self, now: Instant) -> ClockState {
        ClockState {
            remaining_ms: Player::all(self.remaining_ms.len()).map(|p| self.left(p, now).max(0)).collect(),
            running: self.running.map(number),
        }
    }
}

/// A take-back asked for: back to `to_ply`, once every other person agrees.
struct Ask {
    by: Player,
    to_ply: usize,
    agreed: Vec<bool>,
}

pub struct Table {
    id: String,
    live: Box<dyn LiveGame>,
    config: CreateTable,
    seats: Vec<Seat>,
    followers: Vec<Follower>,
    clock: Option<Clocks>,
    result: Option<protocol::Result>,
    ask: Option<Ask>,
    /// Seats that asked for a rematch, and the new table once all did.
    rematch: Vec<bool>,
    rematch_table: Option<String>,
    /// An agent is choosing a move.
    thinking: bool,
    /// The ply at which the agents last let a chance to interject pass.
    passed_at: Option<usize>,
    /// Where finished games' replays go.
    replays: Option<std::path::PathBuf>,
    /// The seat that made each move, in order.
    moves_by: Vec<Player>,
    /// When the game ended: the table is forgotten a while after.
    finished_at: Option<Instant>,
}

/// A seat as the protocol numbers it.
pub fn number(p: Player) -> SeatNumber {
    p.0 + 1
}

/// What the server says, its game data made once as JSON text.
pub type Say<'a> = ServerMessage<&'a RawValue>;

/// `body` as the text sent, answering request `re` if given.
pub fn say(body: Say<'_>, re: Option<&Id>) -> Arc<str> {
    Message { body, re: re.cloned() }.text().into()
}

fn legal_list(moves: &[(Json, String)]) -> Vec<LegalMove<&RawValue>> {
    moves.iter().map(|(mv, says)| LegalMove { mv: &**mv, says: says.clone() }).collect()
}

impl Table {
    pub fn id(&self) -> &str {
        &self.id
    }

    /// When the game ended, if it has: the table is forgotten a while after.
    pub fn finished_at(&self) -> Option<Instant> {
        self.finished_at
    }

    /// Person seats no one has taken yet: the game begins once there are none.
    pub fn open_seats(&self) -> usize {
        self.seats.iter().filter(|s| s.agent_spec.is_none() && s.token.is_none()).count()
    }

    /// The moves `seat` may make now: none before the game begins or after it ends.
    fn legal_for(&self, viewer: Option<Player>) -> Vec<(Json, String)> {
        match viewer {
            Some(seat) if self.result.is_none() && self.open_seats() == 0 => self.live.legal(seat),
            _ => Vec::new(),
        }
    }

    /// The table as a lobby lists it, if its creator listed it and its
    /// game is not over.
    pub fn entry(&self) -> Option<protocol::TableEntry> {
        (self.config.listed && self.result.is_none()).then(|| protocol::TableEntry {
            table: self.id.clone(),
            game: self.live.game().to_owned(),
            level: self.live.level().name().to_owned(),
            seats: self.seat_infos(),
            open: self.open_seats(),
            spectators: self.config.spectators,
            ply: self.live.ply(),
        })
    }

    pub fn seat_infos(&self) -> Vec<SeatInfo> {
        self.seats
            .iter()
            .enumerate()
            .map(|(i, s)| SeatInfo {
                seat: i as SeatNumber + 1,
                kind: if s.agent_spec.is_some() { SeatKind::Agent } else { SeatKind::Person },
                name: s.agent_spec.clone().or_else(|| s.token.as_ref().map(|_| s.name.clone())),
                taken: s.agent_spec.is_some() || s.token.is_some(),
                connected: s.agent_spec.is_some() || s.connected > 0,
                standing_in: s.stand_in.as_ref().map(|(spec, _)| spec.clone()),
            })
            .collect()
    }

    /// What `viewer` is told of the table as it stands.
    pub fn state_text(&self, viewer: Option<Player>, re: Option<&Id>) -> Arc<str> {
        let view = self.live.observe(viewer);
        let legal = self.legal_for(viewer);
        let level = self.live.level();
        let moves = self.live.moves();
        let state = TableState {
            table: self.id.clone(),
            seat: viewer.map(number),
            game: self.live.game().to_owned(),
            level: LevelInfo {
                name: level.name().to_owned(),
                description: level.description().to_owned(),
                summary: level.summary(),
                text: self.live.public_level(),
            },
            ply: self.live.ply(),
            to_move: number(self.live.to_move()),
            view: &*view,
            legal: legal_list(&legal),
            moves: moves
                .iter()
                .map(|(seat, mv, says)| PastMove { seat: number(*seat), mv: &**mv, says: says.clone() })
                .collect(),
            seats: self.seat_infos(),
            clock: self.clock.as_ref().map(|c| c.state(Instant::now())),
            result: self.result.clone(),
            take_back: self.ask.as_ref().map(|a| TakeBackAsk { by: number(a.by), to_ply: a.to_ply }),
            spectators: self.config.spectators,
        };
        say(ServerMessage::State(Box::new(state)), re)
    }

    /// Tells every follower something that is the same for all.
    pub fn tell_all(&self, job: &mut Job, body: Say<'_>) {
        let message = say(body, None);
        for f in &self.followers {
            job.send(&f.outbox, message.clone());
        }
    }

    /// The same, the copy to connection `asker` answering its request `re`.
    pub fn tell_all_answering(&self, job: &mut Job, body: Say<'_>, asker: ConnId, re: Option<&Id>) {
        if re.is_none() {
            return self.tell_all(job, body);
        }
        let plain = say(body.clone(), None);
        let answer = say(body, re);
        for f in &self.followers {
            job.send(&f.outbox, if f.conn == asker { answer.clone() } else { plain.clone() });
        }
    }

    /// Sends every follower the table as it now stands.
    pub fn tell_state(&self, job: &mut Job) {
        let mut made: HashMap<Option<Player>, Arc<str>> = HashMap::new();
        for f in &self.followers {
            let message = made.entry(f.seat).or_insert_with(|| self.state_text(f.seat, None));
            job.send(&f.outbox, message.clone());
        }
    }

    pub fn tell_seats(&self, job: &mut Job) {
        self.tell_all(job, ServerMessage::Seats { table: self.id.clone(), seats: self.seat_infos() });
    }

    /// The seat a connection acts for at this table: the one it names, if
    /// it holds it, or the only one it holds.
    pub fn seat_of(&self, conn: ConnId, named: Option<SeatNumber>) -> Result<Player, Refused> {
        let held: Vec<Player> =
            self.followers.iter().filter(|f| f.conn == conn).filter_map(|f| f.seat).collect();
        match named {
            Some(n) => {
                let seat = Player(n.wrapping_sub(1));
                if held.contains(&seat) {
                    Ok(seat)
                } else {
                    Err(Refused::new(
                        ErrorCode::NotSeated,
                        format!("you do not hold seat {n} at table {}", self.id),
                    ))
                }
            }
            None => match held.as_slice() {
                [seat] => Ok(*seat),
                [] => Err(Refused::new(
                    ErrorCode::NotSeated,
                    format!("you hold no seat at table {}: join it or resume your seat first", self.id),
                )),
                _ => Err(Refused::new(
                    ErrorCode::NotSeated,
                    "you hold several seats here: say which with \"seat\"",
                )),
            },
        }
    }

    fn check_open(&self) -> Result<(), Refused> {
        match &self.result {
            Some(_) => Err(Refused::new(ErrorCode::Over, format!("the game at table {} is over", self.id))),
            None => Ok(()),
        }
    }

    /// Plays `mv` for `seat`: on disk, then told to every follower.
    pub fn play(
        &mut self,
        seat: Player,
        mv: &Value,
        ply: Option<usize>,
        re: Option<&Id>,
        by: Option<ConnId>,
    ) -> Result<Job, Refused> {
        self.check_open()?;
        let open = self.open_seats();
        if open > 0 {
            return Err(Refused::new(
                ErrorCode::Waiting,
                format!("the game begins once every seat is taken: {open} still open"),
            ));
        }
        if let Some(ply) = ply.filter(|&p| p != self.live.ply()) {
            return Err(Refused::new(
                ErrorCode::Stale,
                format!("the move was meant for move {ply}, but the game is at move {}", self.live.ply()),
            ));
        }
        let now = Instant::now();
        let mut job = Job::default();
        if self.flag(now, &mut job) {
            return Ok(job);
        }
        let played = self.advance(seat, mv, now)?;
        job.ops.push(Op::Move {
            table: self.id.clone(),
            ply: self.live.ply(),
            seat: number(seat),
            mv: played.mv.get().to_owned(),
            clock: self.clock.as_ref().map(Clocks::saved),
        });
        self.end_by_the_rules(&mut job);
        self.tell_moved(&played, re, by, &mut job);
        Ok(job)
    }

    /// The one way a move changes a table, whether a seat plays it now or
    /// a restarted server plays it again from its database: the game, who
    /// moved, the clocks, and a take-back or chance to interject let go.
    pub fn advance(&mut self, seat: Player, mv: &Value, now: Instant) -> Result<Played, Refused> {
        let played = self.live.play(seat, mv).map_err(|r| {
            let code = match r.kind {
                RefusalKind::Malformed => ErrorCode::BadRequest,
                RefusalKind::NotYourTurn => ErrorCode::NotYourTurn,
                RefusalKind::Illegal => ErrorCode::Illegal,
            };
            Refused::new(code, r.message)
        })?;
        self.ask = None;
        self.passed_at = None;
        self.moves_by.push(seat);
        let to_move = self.live.to_move();
        if let Some(clock) = &mut self.clock {
            if clock.running == Some(seat) {
                clock.remaining_ms[seat.index()] = clock.left(seat, now) + clock.increment_ms;
            }
            clock.running = Some(to_move);
            clock.since = now;
        }
        Ok(played)
    }

    /// Ends the game if the rules have: the result on disk with the replay.
    pub fn end_by_the_rules(&mut self, job: &mut Job) {
        if self.result.is_some() {
            return;
        }
        if let Some(outcome) = self.live.outcome() {
            let winner = outcome.winner().map(number);
            let result =
                protocol::Result { winner, reason: EndReason::Rules, by: None, scores: self.live.scores() };
            self.finish(result, job);
        }
    }

    fn tell_moved(&self, played: &Played, re: Option<&Id>, by: Option<ConnId>, job: &mut Job) {
        let mut views: HashMap<Option<Player>, (Json, Vec<(Json, String)>)> = HashMap::new();
        let clock = self.clock.as_ref().map(|c| c.state(Instant::now()));
        for f in &self.followers {
            let (view, legal) =
                views.entry(f.seat).or_insert_with(|| (self.live.observe(f.seat), self.legal_for(f.seat)));
            let mine = by == Some(f.conn) && f.seat == Some(played.seat);
            let moved = Moved {
                table: self.id.clone(),
                ply: self.live.ply(),
                seat: number(played.seat),
                mv: &*played.mv,
                says: played.says.clone(),
                steps: &*played.steps,
                to_move: number(self.live.to_move()),
                view: &**view,
                legal: legal_list(legal),
                clock: clock.clone(),
                result: self.result.clone(),
            };
            job.send(&f.outbox, say(ServerMessage::Moved(Box::new(moved)), if mine { re } else { None }));
        }
    }

    /// Ends the game: the result on disk with the replay, told to all.
    pub fn finish(&mut self, result: protocol::Result, job: &mut Job) {
        if let Some(clock) = &mut self.clock {
            clock.settle(Instant::now());
            clock.running = None;
        }
        let replay = self.replays.as_ref().map(|dir| (dir.join(format!("{}.ron", self.id)), self.replay()));
        job.ops.push(Op::Finish {
            table: self.id.clone(),
            result: serde_json::to_string(&result).expect("results serialise"),
            replay,
        });
        self.rematch = vec![false; self.seats.len()];
        self.result = Some(result);
        self.finished_at = Some(Instant::now());
    }

    /// The game as a replay file: its level, seed and every move.
    fn replay(&self) -> String {
        let players: Vec<_> = self
            .seats
            .iter()
            .map(|s| tabula_engine::replay::Seat {
                name: s.agent_spec.clone().unwrap_or_else(|| s.name.clone()),
                agent: s.agent_spec.clone().unwrap_or_else(|| "human".into()),
            })
            .collect();
        self.live.replay(&players)
    }

    /// The finished game's replay, for a connection that follows the table
    /// (a seat or a spectator). Only after the end: the replay holds the
    /// seed, so every card and home that was hidden, which no longer
    /// changes anything once the game is over.
    pub fn replay_for(&self, conn: ConnId) -> Result<String, Refused> {
        if !self.followers.iter().any(|f| f.conn == conn) {
            return Err(Refused::new(
                ErrorCode::NotSeated,
                format!("you do not follow table {}: join or watch it first", self.id),
            ));
        }
        if self.result.is_none() {
            return Err(Refused::new(
                ErrorCode::NotOver,
                format!("the game at table {} is not over: its replay is given after the end", self.id),
            ));
        }
        Ok(self.replay())
    }

    /// Ends the game if the seat to move has run out of time.
    pub fn flag(&mut self, now: Instant, job: &mut Job) -> bool {
        let Some(clock) = &self.clock else { return false };
        let Some(running) = clock.running else { return false };
        if self.result.is_some() || clock.left(running, now) > 0 {
            return false;
        }
        let winner = Player::all(self.seats.len()).find(|&p| p != running).map(number);
        let result = protocol::Result {
            winner,
            reason: EndReason::Time,
            by: Some(number(running)),
            scores: self.live.scores(),
        };
        self.finish(result.clone(), job);
        self.tell_all(job, ServerMessage::Ended { table: self.id.clone(), result });
        true
    }

    /// `seat` gives up: a two-seat game ends; at a bigger table an agent
    /// plays the seat on (the takeover agent, else `random`).
    pub fn resign(&mut self, seat: Player, asker: ConnId, re: Option<&Id>) -> Result<Job, Refused> {
        self.check_open()?;
        let mut job = Job::default();
        if self.seats.len() == 2 {
            let winner = Some(number(Player(1 - seat.0)));
            let result = protocol::Result {
                winner,
                reason: EndReason::Resigned,
                by: Some(number(seat)),
                scores: self.live.scores(),
            };
            self.finish(result.clone(), &mut job);
            let told = ServerMessage::Ended { table: self.id.clone(), result };
            self.tell_all_answering(&mut job, told, asker, re);
        } else {
            let spec = self.config.takeover.clone().unwrap_or_else(|| "random".into());
            self.stand_in(seat, &spec, &mut job)?;
            self.seats[seat.index()].token = None;
            let told = ServerMessage::Seats { table: self.id.clone(), seats: self.seat_infos() };
            self.tell_all_answering(&mut job, told, asker, re);
        }
        Ok(job)
    }

    /// An agent plays for the person at `seat` from now on.
    pub fn stand_in(&mut self, seat: Player, spec: &str, job: &mut Job) -> Result<(), Refused> {
        let agent = self
            .live
            .agent(&spec.parse().map_err(|e: tabula_engine::core::AgentError| {
                Refused::new(ErrorCode::BadAgent, e.to_string())
            })?)
            .map_err(|e| Refused::new(ErrorCode::BadAgent, e.to_string()))?;
        self.seats[seat.index()].stand_in = Some((spec.to_owned(), Arc::new(Mutex::new(agent))));
        job.ops.push(Op::StandIn {
            table: self.id.clone(),
            seat: number(seat),
            agent: Some(spec.to_owned()),
        });
        Ok(())
    }

    /// `seat` asks to take back its last move (`asker` and `re` its request).
    pub fn ask_take_back(&mut self, seat: Player, asker: ConnId, re: Option<&Id>) -> Result<Job, Refused> {
        self.check_open()?;
        if self.ask.is_some() {
            return Err(Refused::new(ErrorCode::TakeBack, "a take-back is asked already"));
        }
        let last = self
            .last_move_of(seat)
            .ok_or_else(|| Refused::new(ErrorCode::TakeBack, "you have made no move to take back"))?;
        let (limit, why) = self.live.take_back_limit();
        if last < limit {
            let why = why.unwrap_or("it cannot be taken back");
            return Err(Refused::new(ErrorCode::TakeBack, format!("that move cannot be taken back: {why}")));
        }
        // People must agree; agents and empty seats do not mind.
        let agreed = self
            .seats
            .iter()
            .enumerate()
            .map(|(i, s)| i == seat.index() || s.token.is_none() || s.stand_in.is_some())
            .collect();
        self.ask = Some(Ask { by: seat, to_ply: last, agreed });
        let mut job = Job::default();
        self.settle_ask(&mut job, asker, re);
        Ok(job)
    }

    /// The position before `seat`'s last move, as a ply.
    fn last_move_of(&self, seat: Player) -> Option<usize> {
        self.moves_by.iter().rposition(|&s| s == seat)
    }

    pub fn answer(
        &mut self,
        seat: Player,
        accept: bool,
        asker: ConnId,
        re: Option<&Id>,
    ) -> Result<Job, Refused> {
        let Some(ask) = &mut self.ask else {
            return Err(Refused::new(ErrorCode::TakeBack, "no take-back is asked"));
        };
        if ask.by == seat {
            return Err(Refused::new(ErrorCode::TakeBack, "you asked for this take-back yourself"));
        }
        let mut job = Job::default();
        if !accept {
            let by = ask.by;
            self.ask = None;
            let told = ServerMessage::TakeBackDeclined {
                table: self.id.clone(),
                by: number(seat),
                asked_by: number(by),
            };
            self.tell_all_answering(&mut job, told, asker, re);
            return Ok(job);
        }
        ask.agreed[seat.index()] = true;
        self.settle_ask(&mut job, asker, re);
        Ok(job)
    }

    /// Takes the move back once all agreed; otherwise tells them it is asked.
    fn settle_ask(&mut self, job: &mut Job, asker: ConnId, re: Option<&Id>) {
        let Some(ask) = &self.ask else { return };
        if !ask.agreed.iter().all(|&a| a) {
            let told = ServerMessage::TakeBackAsked {
                table: self.id.clone(),
                by: number(ask.by),
                to_ply: ask.to_ply,
            };
            self.tell_all_answering(job, told, asker, re);
            return;
        }
        let to_ply = ask.to_ply;
        self.ask = None;
        if self.take_back_to(to_ply, Instant::now()).is_err() {
            return;
        }
        job.ops.push(Op::TakeBack {
            table: self.id.clone(),
            ply: to_ply,
            clock: self.clock.as_ref().map(Clocks::saved),
        });
        self.tell_all_answering(
            job,
            ServerMessage::TakenBack { table: self.id.clone(), ply: to_ply },
            asker,
            re,
        );
        self.tell_state(job);
    }

    /// The game back to move `to_ply`. The clocks stand as they are (time
    /// spent stays spent, increments earned stay earned); the seat to move
    /// then runs from `now`. The database keeps the clocks it left, for a
    /// restarted server.
    pub fn take_back_to(&mut self, to_ply: usize, now: Instant) -> Result<(), &'static str> {
        self.live.take_back(to_ply)?;
        self.moves_by.truncate(to_ply);
        self.passed_at = None;
        let to_move = self.live.to_move();
        if let Some(clock) = &mut self.clock {
            clock.settle(now);
            if clock.running.is_some() {
                clock.running = Some(to_move);
            }
        }
        Ok(())
    }
}
