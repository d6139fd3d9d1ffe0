//! The messages of tabula's game protocol (docs/protocol.md says the same
//! for people): JSON objects in WebSocket text frames, each with a `type`.
//! A client sends requests; the server answers, and tells each connection
//! what its seats (or, watching, a spectator) may see, nothing more.

use serde::{Deserialize, Serialize};
use serde_json::Value;
use serde_json::value::RawValue;

/// The protocol's version, agreed at the hello.
pub const VERSION: u32 = 1;

/// A seat as the protocol numbers it: from 1, as on screen.
pub type SeatNumber = u8;

/// A request from a client. Any request may also carry an `id` (a string
/// or a number), which the answer to it repeats as `re`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum Request {
    /// The first message: the protocol version the client speaks.
    Hello {
        version: u32,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        name: Option<String>,
    },
    /// The levels the server offers by name, and each game's agents.
    Levels,
    /// Opens a table.
    Create(Box<CreateTable>),
    /// Takes a seat (the first open one when `seat` is absent); the answer
    /// holds the seat's token.
    Join {
        table: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        seat: Option<SeatNumber>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        name: Option<String>,
    },
    /// Takes back a seat held before, on this or another connection.
    Resume {
        token: String,
    },
    /// Watches a table as a spectator.
    Watch {
        table: String,
    },
    /// Stops following a table (a seat stays held by its token).
    Leave {
        table: String,
    },
    /// A move, in the replay notation. `ply`, if given, is the number of
    /// moves the client has seen: a move meant for another position is
    /// refused rather than played there.
    Move {
        table: String,
        #[serde(rename = "move")]
        mv: Value,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        seat: Option<SeatNumber>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        ply: Option<usize>,
    },
    /// Asks the other seats to take back this seat's last move.
    TakeBack {
        table: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        seat: Option<SeatNumber>,
    },
    /// Accepts or declines another seat's take-back.
    Answer {
        table: String,
        accept: bool,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        seat: Option<SeatNumber>,
    },
    /// Gives the game up.
    Resign {
        table: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        seat: Option<SeatNumber>,
    },
    /// After the end: play again at a new table, seats moved round by one.
    Rematch {
        table: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        seat: Option<SeatNumber>,
    },
    Ping,
}

/// What a table is made of.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CreateTable {
    /// One of the server's levels by name (`<game folder>/<file>`, as the
    /// `levels` answer lists them) ...
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub level: Option<String>,
    /// ... or a level file's text.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub level_text: Option<String>,
    /// Who sits where, seat 1 first: `"person"` (open for someone to
    /// join) or an agent's spec (`"greedy"`, `"mcts:2000"`). Absent: every
    /// seat open to a person.
    #[serde(default)]
    pub seats: Vec<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub clock: Option<Clock>,
    /// Whether spectators may watch (default yes).
    #[serde(default = "yes")]
    pub spectators: bool,
    /// Seconds a person's seat may stay without a connection before the
    /// takeover agent plays for it (default 60).
    #[serde(default = "default_grace")]
    pub grace: u32,
    /// The agent that plays for a person gone past the grace period; absent,
    /// the game waits for them.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub takeover: Option<String>,
}

fn yes() -> bool {
    true
}

fn default_grace() -> u32 {
    60
}

/// A time control: minutes for the game, plus seconds added after each move.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Clock {
    pub minutes: f64,
    #[serde(default)]
    pub increment: f64,
}

/// Who holds a seat, as every client at the table sees it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SeatInfo {
    pub seat: SeatNumber,
    /// `"person"` or `"agent"`.
    pub kind: String,
    /// The person's name, or the agent's spec.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// Someone holds the seat (a person joined; agents always do).
    pub taken: bool,
    /// A connection holds it now.
    pub connected: bool,
    /// The agent playing for a person gone too long, if one is.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub standing_in: Option<String>,
}

/// How a game ended.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Result {
    /// The winning seat, or null for a draw.
    pub winner: Option<SeatNumber>,
    /// `"rules"` (the game's own end), `"time"` (a flag), `"resigned"`.
    pub reason: String,
    /// The seat that lost on time or resigned.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub by: Option<SeatNumber>,
    pub scores: Vec<i64>,
}

/// A move a seat may make now, as the `move` request takes it, and in words.
#[derive(Debug, Serialize)]
pub struct LegalMove<'a> {
    #[serde(rename = "move")]
    pub mv: &'a RawValue,
    pub says: &'a str,
}

/// Remaining time per seat, in milliseconds, and whose clock runs.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ClockState {
    pub remaining_ms: Vec<i64>,
    pub running: Option<SeatNumber>,
}

/// Error codes, stable for programs to match; the message is for people.
pub mod code {
    pub const BAD_JSON: &str = "bad_json";
    pub const BAD_REQUEST: &str = "bad_request";
    pub const VERSION: &str = "version";
    pub const HELLO_FIRST: &str = "hello_first";
    pub const NO_TABLE: &str = "no_table";
    pub const BAD_LEVEL: &str = "bad_level";
    pub const BAD_AGENT: &str = "bad_agent";
    pub const NO_SEAT: &str = "no_seat";
    pub const NOT_SEATED: &str = "not_seated";
    pub const BAD_TOKEN: &str = "bad_token";
    pub const NOT_YOUR_TURN: &str = "not_your_turn";
    pub const ILLEGAL: &str = "illegal";
    pub const STALE: &str = "stale";
    pub const OVER: &str = "over";
    pub const WAITING: &str = "waiting";
    pub const TAKE_BACK: &str = "take_back";
    pub const NO_SPECTATORS: &str = "no_spectators";
    pub const LIMIT: &str = "limit";
    pub const FLOOD: &str = "flood";
    pub const TOO_LARGE: &str = "too_large";
}
