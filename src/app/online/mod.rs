//! Playing at a game server's table from the window: a table hosted by
//! this window's own server or by another's, joined, watched, and come
//! back to. The game screen is the local one; only its moves come from the
//! server, which sends this seat's view and each move's steps.
//!
//! This file holds what the window knows of its table; `link` what is said
//! when the connection comes up and what the server's messages change,
//! `play` a game's session at the table (moves sent, moves heard), `news`
//! what the table tells the panels,
//! `seats_file` the seats kept on disk to come back to, `host` the server
//! this window runs for a friend to join, `start` going online from the
//! menu or the command line.

#[cfg(feature = "dev")]
mod autoplay;
pub mod host;
mod link;
mod news;
mod play;
pub mod seats_file;
pub mod start;

use std::time::{Duration, Instant};

use bevy::prelude::*;
use bevy::time::common_conditions::on_timer;
use serde_json::Value;
use tabula_engine::Player;
use tabula_server::link::Link;
use tabula_server::protocol::{
    ClockState, CreateTable, ErrorCode, Id, Moved, Request, Result as TableResult, SeatInfo, SeatKind,
    SeatNumber,
};

use super::frames::NextFrame;
use super::game::WindowGame;
use super::screen::Screen;
use super::session::SessionSet;

pub use play::begin;

/// What this window asks of the server once it is connected.
#[derive(Clone, Debug, PartialEq)]
pub enum Seek {
    /// Open a table (this `create` request) and take its first seat.
    Create(CreateTable),
    /// Take a seat (the first open one if none is named).
    Join { table: String, seat: Option<u8> },
    /// Follow a table as a spectator.
    Watch { table: String },
    /// Take back a seat held before.
    Resume { token: String },
}

/// The table this window plays (or watches) on a game server.
#[derive(Resource)]
pub struct OnlineTable {
    link: Link,
    pub name: String,
    pub seek: Seek,
    pub table: Option<String>,
    /// This window's seat; `None` for a spectator.
    pub seat: Option<Player>,
    pub token: Option<String>,
    /// Connected now.
    pub up: bool,
    /// Connected once at least (a connection made again is a reconnect).
    was_up: bool,
    /// Why the connection is down, while it is.
    pub trouble: Option<String>,
    /// How many times the connection came back.
    pub reconnects: u32,
    pub seats: Vec<SeatInfo>,
    /// The clocks as last told, and when.
    pub clock: Option<(ClockState, Instant)>,
    /// A take-back waiting for answers: who asked, back to which move.
    pub take_back: Option<(Player, usize)>,
    /// Seats that asked for a rematch.
    pub rematch_asked: Vec<Player>,
    pub result: Option<TableResult>,
    /// The table whose replay was asked for, once its game ended.
    replay_asked: Option<String>,
    /// The replay asked for was asked by the player (Save), not by the
    /// setting that saves every finished game.
    replay_by_hand: bool,
    /// Moves sent and not yet answered, by request id.
    pending: Vec<(u64, Player)>,
    next_id: u64,
}

impl OnlineTable {
    /// A table to seek at the server at `url`, as `name`.
    pub fn open(url: &str, name: &str, seek: Seek) -> std::io::Result<OnlineTable> {
        let link = Link::open(url, name, super::frames::wake_for_one_frame)?;
        Ok(OnlineTable {
            link,
            name: name.to_owned(),
            token: match &seek {
                Seek::Resume { token } => Some(token.clone()),
                _ => None,
            },
            seek,
            table: None,
            seat: None,
            up: false,
            was_up: false,
            trouble: None,
            reconnects: 0,
            seats: Vec::new(),
            clock: None,
            take_back: None,
            rematch_asked: Vec::new(),
            result: None,
            replay_asked: None,
            replay_by_hand: false,
            pending: Vec::new(),
            next_id: 1,
        })
    }

    pub fn url(&self) -> &str {
        self.link.url()
    }

    /// Sends `request` with an id; the id.
    fn send(&mut self, request: Request) -> u64 {
        let id = self.next_id;
        self.next_id += 1;
        self.link.send(request, Some(Id::number(id)));
        id
    }

    /// Sends a request about the table this window sits at, made of the
    /// table and the seat it holds; the id.
    fn ask_at_table(&mut self, request: impl FnOnce(String, Option<SeatNumber>) -> Request) -> u64 {
        let table = self.table.clone().unwrap_or_default();
        let seat = self.seat.map(|p| p.0 + 1);
        self.send(request(table, seat))
    }

    /// Sends `by`'s move, chosen at move `ply`: a move meant for another
    /// position is refused, not played there.
    fn send_move(&mut self, by: Player, mv: Value, ply: usize) {
        let seat = Some(by.0 + 1);
        let id = self.ask_at_table(|table, _| Request::Move { table, mv, seat, ply: Some(ply) });
        self.pending.push((id, by));
    }

    /// Asks the server for the finished game's replay, once a table unless
    /// the player asks again (`by_hand`).
    fn ask_replay(&mut self, by_hand: bool) {
        let Some(table) = self.table.clone() else { return };
        if self.replay_asked.as_ref() == Some(&table) && !by_hand {
            return;
        }
        self.replay_asked = Some(table.clone());
        self.replay_by_hand |= by_hand;
        self.send(Request::Replay { table });
    }

    /// Drops the connection as a failing network would: it comes back by
    /// itself (tests, and the measuring of a reconnect).
    pub fn cut(&self) {
        self.link.cut();
    }

    /// The seat's state in words: "you", "connected", "reconnecting",
    /// "agent greedy", "greedy plays for them".
    pub fn seat_state(&self, seat: usize) -> String {
        let Some(info) = self.seats.get(seat) else { return String::new() };
        if self.seat.is_some_and(|p| p.index() == seat) {
            return if self.up { "you".into() } else { "you, reconnecting".into() };
        }
        if info.kind == SeatKind::Agent {
            return format!("agent {}", info.name.as_deref().unwrap_or("?"));
        }
        match (&info.standing_in, info.taken, info.connected) {
            (Some(agent), _, _) => format!("gone: {agent} plays for them"),
            (None, false, _) => "open: waiting for a player".into(),
            (None, true, true) => "connected".into(),
            (None, true, false) => "reconnecting".into(),
        }
    }

    /// What remains on each seat's clock now, in milliseconds.
    pub fn clocks_now(&self) -> Option<Vec<i64>> {
        let (clock, at) = self.clock.as_ref()?;
        let spent = if self.result.is_none() { at.elapsed().as_millis() as i64 } else { 0 };
        Some(
            clock
                .remaining_ms
                .iter()
                .enumerate()
                .map(|(i, &ms)| if clock.running == Some(i as u8 + 1) { (ms - spent).max(0) } else { ms })
                .collect(),
        )
    }

    /// Whether every seat is taken (the game has begun).
    pub fn all_seated(&self) -> bool {
        self.seats.iter().all(|s| s.taken)
    }
}

/// A clock's time as people read it: 4:05, or 0:07.3 under ten seconds.
pub fn clock_text(ms: i64) -> String {
    let d = Duration::from_millis(ms.max(0) as u64);
    let (m, s) = (d.as_secs() / 60, d.as_secs() % 60);
    if d < Duration::from_secs(10) {
        format!("{m}:{s:02}.{}", d.subsec_millis() / 100)
    } else {
        format!("{m}:{s:02}")
    }
}

/// What the server said of this window's table that the game's session
/// takes in.
#[derive(Message, Clone, Debug)]
pub enum ServerSaid {
    /// A move was played.
    Moved(Box<Moved>),
    /// A flag or a resignation ended the game.
    Ended(TableResult),
    /// `by`'s move was refused.
    Refused { by: Player, code: ErrorCode, message: String },
    /// The finished game's replay; `by_hand`, asked for by the player.
    Replay { text: String, by_hand: bool },
}

pub(super) fn plugin(app: &mut App) {
    app.add_message::<ServerSaid>()
        .init_resource::<seats_file::SeatsFile>()
        .add_systems(Update, link::read_link.before(SessionSet::Requests))
        .add_systems(Update, link::requests.in_set(SessionSet::Requests))
        .add_systems(Update, keep_clocks_ticking)
        .add_systems(Update, news::tell_the_panels.after(link::read_link))
        .add_systems(Update, host::tell_if_halted.run_if(on_timer(Duration::from_millis(500))))
        .add_systems(OnEnter(Screen::Menu), leave_table);
}

/// A running clock is redrawn as it runs (the window otherwise rests).
fn keep_clocks_ticking(online: Option<Res<OnlineTable>>, mut next: ResMut<NextFrame>) {
    let running = online
        .is_some_and(|o| o.result.is_none() && o.clock.as_ref().is_some_and(|(c, _)| c.running.is_some()));
    if running {
        next.ask();
    }
}

/// The systems of one game's sessions at a server's table.
pub(crate) fn game_plugin<G: WindowGame>(app: &mut App) {
    play::plugin::<G>(app);
    #[cfg(feature = "dev")]
    autoplay::plugin::<G>(app);
}

/// Back in the menu, the table is left: its seat stays this player's (its
/// token is on disk), and the connection closes.
fn leave_table(mut commands: Commands) {
    commands.remove_resource::<OnlineTable>();
}
