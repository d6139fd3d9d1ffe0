//! The messages of tabula's game protocol, both ways (docs/protocol.md says
//! the same for people, and a test holds the two together): JSON objects in
//! WebSocket text frames, each with a `type`. A client sends [`Request`]s;
//! the server answers with [`Message`]s, and tells each connection what its
//! seats (or, watching, a spectator) may see, nothing more. The server, the
//! bot and the window's client all read and write these types: no message
//! is built by hand, and an error is told by its [`ErrorCode`].
//!
//! A message holds game data (a view, a move, steps) as `J`: text made once
//! and sent as it is on the server (`&RawValue`), a [`Value`] for a client.

use std::collections::BTreeMap;
use std::fmt;

use serde::{Deserialize, Serialize};
use serde_json::Value;

/// The protocol's version, agreed at the hello.
pub const VERSION: u32 = 1;

/// A seat as the protocol numbers it: from 1, as on screen.
pub type SeatNumber = u8;

/// The most characters of a name people see.
pub const NAME_CHARS: usize = 40;

/// A request from a client. Any request may also carry an `id` (an
/// [`Id`]), which the answer to it repeats as `re`.
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
    Levels {},
    /// The tables their creators listed, for a lobby: who sits where, and
    /// whether a seat is open or the game may be watched.
    Tables {},
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
    /// After the end: the finished game as a replay file, to keep.
    Replay {
        table: String,
    },
    Ping {},
}

impl Request {
    /// Every request's `type`, as docs/protocol.md lists them.
    pub const TYPES: [&'static str; 15] = [
        "hello",
        "levels",
        "tables",
        "create",
        "join",
        "resume",
        "watch",
        "leave",
        "move",
        "take_back",
        "answer",
        "resign",
        "rematch",
        "replay",
        "ping",
    ];

    /// This request's `type` (one of [`Request::TYPES`]).
    pub fn type_name(&self) -> &'static str {
        match self {
            Request::Hello { .. } => "hello",
            Request::Levels {} => "levels",
            Request::Tables {} => "tables",
            Request::Create(_) => "create",
            Request::Join { .. } => "join",
            Request::Resume { .. } => "resume",
            Request::Watch { .. } => "watch",
            Request::Leave { .. } => "leave",
            Request::Move { .. } => "move",
            Request::TakeBack { .. } => "take_back",
            Request::Answer { .. } => "answer",
            Request::Resign { .. } => "resign",
            Request::Rematch { .. } => "rematch",
            Request::Replay { .. } => "replay",
            Request::Ping {} => "ping",
        }
    }

    /// The request with its `id`, as JSON text to send.
    pub fn with_id(&self, id: Option<&Id>) -> String {
        let mut value = serde_json::to_value(self).expect("requests serialise");
        if let Some(id) = id {
            value["id"] = serde_json::to_value(id).expect("ids serialise");
        }
        value.to_string()
    }
}

/// What a table is made of.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
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
    /// seat open to a person; given, one entry for every seat.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seats: Option<Vec<String>>,
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
    /// Whether the `tables` answer lists the table (default no: a table is
    /// found by its id, which only those it is given know).
    #[serde(default, skip_serializing_if = "is_false")]
    pub listed: bool,
}

fn is_false(b: &bool) -> bool {
    !*b
}

/// What a `create` that says nothing more than its level makes.
impl Default for CreateTable {
    fn default() -> CreateTable {
        CreateTable {
            level: None,
            level_text: None,
            seats: None,
            clock: None,
            spectators: yes(),
            grace: default_grace(),
            takeover: None,
            listed: false,
        }
    }
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

/// A request's id: a whole number from -2^63 to 2^64 - 1, or a string.
/// The answer's `re` is exactly the id sent; any other id is refused (a
/// JSON reader that holds numbers as doubles could not give it back).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(untagged)]
pub enum Id {
    Number(serde_json::Number),
    Text(String),
}

impl Id {
    pub fn number(n: u64) -> Id {
        Id::Number(n.into())
    }
}

impl TryFrom<Value> for Id {
    type Error = String;

    fn try_from(value: Value) -> std::result::Result<Id, String> {
        match value {
            Value::Number(n) if n.is_i64() || n.is_u64() => Ok(Id::Number(n)),
            Value::String(s) => Ok(Id::Text(s)),
            other => Err(format!("an id is a whole number from -2^63 to 2^64 - 1 or a string, not {other}")),
        }
    }
}

impl<'de> Deserialize<'de> for Id {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> std::result::Result<Id, D::Error> {
        Id::try_from(Value::deserialize(d)?).map_err(serde::de::Error::custom)
    }
}

impl fmt::Display for Id {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Id::Number(n) => write!(f, "{n}"),
            Id::Text(s) => write!(f, "{s:?}"),
        }
    }
}

/// A message from the server, and the id of the request it answers.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Message<J = Value> {
    #[serde(flatten)]
    pub body: ServerMessage<J>,
    /// The request's `id`, on the answer to it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub re: Option<Id>,
}

impl<J: Serialize> Message<J> {
    /// As JSON text.
    pub fn text(&self) -> String {
        serde_json::to_string(self).expect("messages serialise")
    }
}

impl<J> From<ServerMessage<J>> for Message<J> {
    fn from(body: ServerMessage<J>) -> Message<J> {
        Message { body, re: None }
    }
}

/// Everything the server says, by its `type`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ServerMessage<J = Value> {
    /// After `hello`.
    Welcome {
        version: u32,
        server: String,
        games: Vec<GameInfo>,
        limits: LimitsInfo,
    },
    /// After `levels`.
    Levels {
        levels: Vec<LevelEntry>,
        agents: BTreeMap<String, Vec<AgentEntry>>,
    },
    /// After `tables`: the listed tables not yet over, those with an open
    /// seat first.
    Tables {
        tables: Vec<TableEntry>,
    },
    /// After `create`.
    Created {
        table: String,
        game: String,
        level: String,
        seats: Vec<SeatInfo>,
    },
    /// After `join` or `resume`: the seat and its token.
    Joined {
        table: String,
        seat: SeatNumber,
        token: String,
    },
    /// A table as the receiver's seat (or a spectator) sees it.
    State(Box<TableState<J>>),
    /// A move was played.
    Moved(Box<Moved<J>>),
    /// Someone joined, left, came back, or an agent stood in.
    Seats {
        table: String,
        seats: Vec<SeatInfo>,
    },
    /// A flag (time) or a resignation ended the game.
    Ended {
        table: String,
        result: Result,
    },
    /// A seat asked to take back its last move; other persons `answer`.
    TakeBackAsked {
        table: String,
        by: SeatNumber,
        to_ply: usize,
    },
    TakeBackDeclined {
        table: String,
        by: SeatNumber,
        asked_by: SeatNumber,
    },
    /// Followed by `state`.
    TakenBack {
        table: String,
        ply: usize,
    },
    RematchAsked {
        table: String,
        by: SeatNumber,
    },
    /// The new table is open; the receiver already follows it (a
    /// spectator, without a seat or token).
    Rematch {
        table: String,
        new_table: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        seat: Option<SeatNumber>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        token: Option<String>,
    },
    /// After `replay`: the finished game as a replay file's text (its
    /// level, seed and moves, every secret of that game included).
    Replay {
        table: String,
        replay: String,
    },
    /// After `leave`.
    Left {
        table: String,
    },
    /// Another connection resumed the seat with its token: this one no
    /// longer acts for it, nor hears of the table as that seat.
    Displaced {
        table: String,
        seat: SeatNumber,
    },
    /// The server stopped taking moves (its database failed): why.
    Halted {
        message: String,
    },
    /// After `ping`.
    Pong {},
    /// A request was refused; nothing changed.
    Error {
        code: ErrorCode,
        message: String,
    },
}

impl<J> ServerMessage<J> {
    /// Every message's `type`, as docs/protocol.md lists them.
    pub const TYPES: [&'static str; 20] = [
        "welcome",
        "levels",
        "tables",
        "created",
        "joined",
        "state",
        "moved",
        "seats",
        "ended",
        "take_back_asked",
        "take_back_declined",
        "taken_back",
        "rematch_asked",
        "rematch",
        "replay",
        "left",
        "displaced",
        "halted",
        "pong",
        "error",
    ];

    /// This message's `type` (one of [`ServerMessage::TYPES`]).
    pub fn type_name(&self) -> &'static str {
        match self {
            ServerMessage::Welcome { .. } => "welcome",
            ServerMessage::Levels { .. } => "levels",
            ServerMessage::Tables { .. } => "tables",
            ServerMessage::Created { .. } => "created",
            ServerMessage::Joined { .. } => "joined",
            ServerMessage::State(_) => "state",
            ServerMessage::Moved(_) => "moved",
            ServerMessage::Seats { .. } => "seats",
            ServerMessage::Ended { .. } => "ended",
            ServerMessage::TakeBackAsked { .. } => "take_back_asked",
            ServerMessage::TakeBackDeclined { .. } => "take_back_declined",
            ServerMessage::TakenBack { .. } => "taken_back",
            ServerMessage::RematchAsked { .. } => "rematch_asked",
            ServerMessage::Rematch { .. } => "rematch",
            ServerMessage::Replay { .. } => "replay",
            ServerMessage::Left { .. } => "left",
            ServerMessage::Displaced { .. } => "displaced",
            ServerMessage::Halted { .. } => "halted",
            ServerMessage::Pong {} => "pong",
            ServerMessage::Error { .. } => "error",
        }
    }
}

/// A game the server hosts, with the fewest and most seats of its levels.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameInfo {
    pub game: String,
    pub title: String,
    pub seats: [usize; 2],
}

/// The limits a client is held to, and those of the levels the server
/// hosts (docs/protocol.md, "Limits").
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LimitsInfo {
    pub message_bytes: usize,
    pub level_bytes: usize,
    pub messages_per_second: f64,
    pub burst: f64,
    pub refusals_per_second: f64,
    pub tables_per_connection: usize,
    pub connections_per_address: usize,
    pub wrong_tokens: u32,
    pub tables: usize,
    pub hosted_level_bytes: usize,
    pub legal_moves: u64,
    pub plies: u64,
    pub sent_bytes: usize,
}

/// A level the server offers by name.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LevelEntry {
    pub level: String,
    pub game: String,
    pub name: String,
    pub seats: usize,
    pub description: String,
}

/// An agent a game's tables may seat.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct AgentEntry {
    pub name: String,
    pub plays: String,
}

/// A table as one seat, or a spectator, sees it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TableState<J = Value> {
    pub table: String,
    /// The receiver's seat; `None` for a spectator.
    pub seat: Option<SeatNumber>,
    pub game: String,
    pub level: LevelInfo,
    pub ply: usize,
    pub to_move: SeatNumber,
    pub view: J,
    pub legal: Vec<LegalMove<J>>,
    pub moves: Vec<PastMove<J>>,
    pub seats: Vec<SeatInfo>,
    pub clock: Option<ClockState>,
    pub result: Option<Result>,
    pub take_back: Option<TakeBackAsk>,
    pub spectators: bool,
}

/// A move played, as each follower hears it: the view and legal moves are
/// the receiver's.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Moved<J = Value> {
    pub table: String,
    pub ply: usize,
    pub seat: SeatNumber,
    #[serde(rename = "move")]
    pub mv: J,
    pub says: String,
    pub steps: J,
    pub to_move: SeatNumber,
    pub view: J,
    pub legal: Vec<LegalMove<J>>,
    pub clock: Option<ClockState>,
    pub result: Option<Result>,
}

/// The level of a table as every seat may know it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LevelInfo {
    pub name: String,
    pub description: String,
    pub summary: Vec<String>,
    /// The level file as every seat may read it: a window draws the
    /// board's fixed parts from it.
    pub text: String,
}

/// A move of the game so far, as a `moved` message told it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PastMove<J = Value> {
    pub seat: SeatNumber,
    #[serde(rename = "move")]
    pub mv: J,
    pub says: String,
}

/// A move a seat may make now, as the `move` request takes it, and in words.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LegalMove<J = Value> {
    #[serde(rename = "move")]
    pub mv: J,
    pub says: String,
}

/// A take-back waiting for answers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TakeBackAsk {
    pub by: SeatNumber,
    pub to_ply: usize,
}

/// Who holds a seat, as every client at the table sees it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SeatInfo {
    pub seat: SeatNumber,
    pub kind: SeatKind,
    /// The person's name, or the agent's spec.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// Someone holds the seat (a person joined; agents always do).
    pub taken: bool,
    /// A connection holds it now.
    pub connected: bool,
    /// The agent playing for a person gone too long, if one is.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub standing_in: Option<String>,
}

/// A listed table, as a lobby shows it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TableEntry {
    pub table: String,
    pub game: String,
    /// The level's name.
    pub level: String,
    pub seats: Vec<SeatInfo>,
    /// Person seats no one has taken: `join` takes one.
    pub open: usize,
    /// Whether `watch` may follow it.
    pub spectators: bool,
    /// Moves played so far.
    pub ply: usize,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SeatKind {
    Person,
    Agent,
}

/// How a game ended.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Result {
    /// The winning seat, or null for a draw.
    pub winner: Option<SeatNumber>,
    pub reason: EndReason,
    /// The seat that lost on time or resigned.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub by: Option<SeatNumber>,
    pub scores: Vec<i64>,
}

/// Why a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EndReason {
    /// The game's own end (a level's move cap included).
    Rules,
    /// A flag.
    Time,
    Resigned,
}

/// Remaining time per seat, in milliseconds, and whose clock runs.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ClockState {
    pub remaining_ms: Vec<i64>,
    pub running: Option<SeatNumber>,
}

/// Why a request was refused: stable for programs to match; the message
/// beside it is for people.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ErrorCode {
    BadJson,
    BadRequest,
    Version,
    HelloFirst,
    NoTable,
    BadLevel,
    BadAgent,
    NoSeat,
    NotSeated,
    BadToken,
    NotYourTurn,
    Illegal,
    Stale,
    Over,
    NotOver,
    Waiting,
    TakeBack,
    NoSpectators,
    Limit,
    Flood,
    TooLarge,
    Halted,
}

impl ErrorCode {
    /// Every code, for the test that holds docs/protocol.md to them.
    pub const ALL: [ErrorCode; 22] = [
        ErrorCode::BadJson,
        ErrorCode::BadRequest,
        ErrorCode::Version,
        ErrorCode::HelloFirst,
        ErrorCode::NoTable,
        ErrorCode::BadLevel,
        ErrorCode::BadAgent,
        ErrorCode::NoSeat,
        ErrorCode::NotSeated,
        ErrorCode::BadToken,
        ErrorCode::NotYourTurn,
        ErrorCode::Illegal,
        ErrorCode::Stale,
        ErrorCode::Over,
        ErrorCode::NotOver,
        ErrorCode::Waiting,
        ErrorCode::TakeBack,
        ErrorCode::NoSpectators,
        ErrorCode::Limit,
        ErrorCode::Flood,
        ErrorCode::TooLarge,
        ErrorCode::Halted,
    ];

    /// The code as the protocol writes it.
    pub fn name(self) -> String {
        serde_json::to_value(self).ok().and_then(|v| v.as_str().map(str::to_owned)).unwrap_or_default()
    }

    /// A refusal that is no client's fault (a race with another seat):
    /// not counted towards a flood.
    pub fn is_race(self) -> bool {
        matches!(self, ErrorCode::Stale | ErrorCode::NotYourTurn)
    }
}

impl fmt::Display for ErrorCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn seat() -> SeatInfo {
        SeatInfo {
            seat: 1,
            kind: SeatKind::Person,
            name: None,
            taken: false,
            connected: false,
            standing_in: None,
        }
    }

    /// One message of every kind, as a client reads them.
    fn every_message() -> Vec<ServerMessage> {
        let t = || "t1".to_owned();
        let result = Result { winner: None, reason: EndReason::Rules, by: None, scores: vec![] };
        let level = LevelInfo { name: t(), description: t(), summary: vec![], text: t() };
        vec![
            ServerMessage::Welcome {
                version: VERSION,
                server: t(),
                games: vec![],
                limits: LimitsInfo {
                    message_bytes: 1,
                    level_bytes: 1,
                    messages_per_second: 1.0,
                    burst: 1.0,
                    refusals_per_second: 1.0,
                    tables_per_connection: 1,
                    connections_per_address: 1,
                    wrong_tokens: 1,
                    tables: 1,
                    hosted_level_bytes: 1,
                    legal_moves: 1,
                    plies: 1,
                    sent_bytes: 1,
                },
            },
            ServerMessage::Levels { levels: vec![], agents: BTreeMap::new() },
            ServerMessage::Tables {
                tables: vec![TableEntry {
                    table: t(),
                    game: t(),
                    level: t(),
                    seats: vec![seat()],
                    open: 1,
                    spectators: true,
                    ply: 0,
                }],
            },
            ServerMessage::Created { table: t(), game: t(), level: t(), seats: vec![seat()] },
            ServerMessage::Joined { table: t(), seat: 1, token: t() },
            ServerMessage::State(Box::new(TableState {
                table: t(),
                seat: None,
                game: t(),
                level,
                ply: 0,
                to_move: 1,
                view: Value::Null,
                legal: vec![],
                moves: vec![],
                seats: vec![seat()],
                clock: None,
                result: None,
                take_back: Some(TakeBackAsk { by: 1, to_ply: 0 }),
                spectators: true,
            })),
            ServerMessage::Moved(Box::new(Moved {
                table: t(),
                ply: 1,
                seat: 1,
                mv: Value::Null,
                says: t(),
                steps: Value::Null,
                to_move: 2,
                view: Value::Null,
                legal: vec![],
                clock: Some(ClockState { remaining_ms: vec![1, 2], running: Some(1) }),
                result: Some(result.clone()),
            })),
            ServerMessage::Seats { table: t(), seats: vec![] },
            ServerMessage::Ended { table: t(), result },
            ServerMessage::TakeBackAsked { table: t(), by: 1, to_ply: 0 },
            ServerMessage::TakeBackDeclined { table: t(), by: 2, asked_by: 1 },
            ServerMessage::TakenBack { table: t(), ply: 0 },
            ServerMessage::RematchAsked { table: t(), by: 1 },
            ServerMessage::Rematch { table: t(), new_table: t(), seat: Some(2), token: Some(t()) },
            ServerMessage::Replay { table: t(), replay: t() },
            ServerMessage::Left { table: t() },
            ServerMessage::Displaced { table: t(), seat: 1 },
            ServerMessage::Halted { message: t() },
            ServerMessage::Pong {},
            ServerMessage::Error { code: ErrorCode::Halted, message: t() },
        ]
    }

    #[test]
    fn every_message_goes_out_as_its_type_and_comes_back_the_same() {
        let all = every_message();
        let names: std::collections::BTreeSet<&str> = all.iter().map(|m| m.type_name()).collect();
        assert_eq!(names.len(), ServerMessage::<Value>::TYPES.len(), "a message of every type");
        for body in all {
            let message = Message { body, re: Some(Id::Text("r".into())) };
            let text = message.text();
            let value: Value = serde_json::from_str(&text).unwrap();
            assert_eq!(value["type"], message.body.type_name(), "{text}");
            assert!(ServerMessage::<Value>::TYPES.contains(&message.body.type_name()));
            assert_eq!(value["re"], "r");
            let back: Message = serde_json::from_str(&text).unwrap();
            assert_eq!(back, message, "{text}");
        }
    }

    #[test]
    fn requests_refuse_unknown_fields_and_go_out_as_their_type() {
        for text in [
            r#"{"type": "ping", "bogus": true}"#,
            r#"{"type": "levels", "x": 1}"#,
            r#"{"type": "create", "level": "a", "x": 1}"#,
            r#"{"type": "join", "table": "t", "bogus": 1}"#,
        ] {
            assert!(serde_json::from_str::<Request>(text).is_err(), "{text}");
        }
        let samples = [
            Request::Hello { version: 1, name: None },
            Request::Levels {},
            Request::Tables {},
            Request::Create(Box::default()),
            Request::Join { table: "t".into(), seat: None, name: None },
            Request::Resume { token: "k".into() },
            Request::Watch { table: "t".into() },
            Request::Leave { table: "t".into() },
            Request::Move { table: "t".into(), mv: Value::Null, seat: None, ply: None },
            Request::TakeBack { table: "t".into(), seat: None },
            Request::Answer { table: "t".into(), accept: true, seat: None },
            Request::Resign { table: "t".into(), seat: None },
            Request::Rematch { table: "t".into(), seat: None },
            Request::Replay { table: "t".into() },
            Request::Ping {},
        ];
        assert_eq!(samples.len(), Request::TYPES.len());
        for request in samples {
            let text = request.with_id(Some(&Id::number(u64::MAX)));
            let value: Value = serde_json::from_str(&text).unwrap();
            assert_eq!(value["type"], request.type_name());
            assert!(text.contains("\"id\":18446744073709551615"), "{text}");
            let mut back = value;
            back.as_object_mut().unwrap().remove("id");
            assert_eq!(serde_json::from_value::<Request>(back).unwrap(), request);
        }
    }

    #[test]
    fn a_create_by_default_is_a_create_that_names_only_its_level() {
        let read: CreateTable = serde_json::from_str(r#"{"level": "x"}"#).unwrap();
        assert_eq!(read, CreateTable { level: Some("x".into()), ..CreateTable::default() });
    }

    #[test]
    fn an_id_is_a_whole_number_or_a_string() {
        for ok in ["18446744073709551615", "-9223372036854775808", "\"x\""] {
            let value: Value = serde_json::from_str(ok).unwrap();
            let id = Id::try_from(value).unwrap();
            assert_eq!(serde_json::to_string(&id).unwrap(), ok);
        }
        for bad in ["18446744073709551616", "1.5", "null", "[]", "true"] {
            assert!(Id::try_from(serde_json::from_str::<Value>(bad).unwrap()).is_err(), "{bad}");
        }
    }

    #[test]
    fn every_error_code_has_its_name() {
        let names: std::collections::BTreeSet<String> = ErrorCode::ALL.iter().map(|c| c.name()).collect();
        assert_eq!(names.len(), ErrorCode::ALL.len());
        for code in ErrorCode::ALL {
            let back: ErrorCode = serde_json::from_value(Value::String(code.name())).unwrap();
            assert_eq!(back, code);
        }
    }
}
