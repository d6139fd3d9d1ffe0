//! The connection's news each frame: what is said when it comes up (take
//! the seat back, or seek the table), and what the server's messages change
//! at the table. A game's own messages (a move, the end) go on to its
//! session as [`ServerSaid`].

use std::path::Path;
use std::time::Instant;

use bevy::prelude::*;
use serde_json::{Value, json};
use tabula_engine::Player;
use tabula_server::link::LinkEvent;

use super::seats_file::{self, KeptSeat, SeatsFile};
use super::{OnlineRequest, OnlineTable, Seek, ServerSaid};
use crate::app::session::{SessionRequest, StatusLine, WindowGames};

/// Reads what the connection brought since the last frame.
pub(super) fn read_link(
    mut commands: Commands,
    online: Option<ResMut<OnlineTable>>,
    mut said: MessageWriter<ServerSaid>,
    mut status: ResMut<StatusLine>,
    file: Res<SeatsFile>,
) {
    let Some(mut online) = online else { return };
    for event in online.link.events() {
        match event {
            LinkEvent::Up(_) => {
                // A first connection that took several tries is no reconnect.
                if online.was_up {
                    online.reconnects += 1;
                    status.info("Connected again: back at the table");
                }
                online.trouble = None;
                online.up = true;
                online.was_up = true;
                introduce(&mut online);
            }
            LinkEvent::Down(why) => {
                if online.up {
                    status.error(format!("Connection lost ({why}): reconnecting…"));
                } else if online.table.is_none() {
                    status.error(format!("{why}: trying again…"));
                }
                online.up = false;
                online.trouble = Some(why);
            }
            LinkEvent::Message(message) => {
                if let Some(forward) = take_in(&mut commands, &mut online, &mut status, &file.0, message) {
                    said.write(ServerSaid(forward));
                }
            }
        }
    }
}

/// Says who this window is at the table: the seat's token if it has one,
/// else what it seeks.
fn introduce(online: &mut OnlineTable) {
    let request = match (&online.token, &online.seek) {
        (Some(token), _) => json!({"type": "resume", "token": token}),
        (None, Seek::Create(request)) => request.clone(),
        (None, Seek::Join { table, seat }) => {
            json!({"type": "join", "table": table, "seat": seat, "name": online.name})
        }
        (None, Seek::Watch { table }) => json!({"type": "watch", "table": table}),
        (None, Seek::Resume { token }) => json!({"type": "resume", "token": token}),
    };
    online.send(request);
}

/// What a message changes at the table; the message, if the game's session
/// must hear it too.
fn take_in(
    commands: &mut Commands,
    online: &mut OnlineTable,
    status: &mut StatusLine,
    file: &Path,
    message: Value,
) -> Option<Value> {
    let kind = message["type"].as_str().unwrap_or_default().to_owned();
    if let Some(table) = message["table"].as_str()
        && online.table.as_deref().is_some_and(|t| t != table)
        && kind != "created"
    {
        // About a table left behind (before a rematch).
        return None;
    }
    match kind.as_str() {
        "created" => {
            let table = message["table"].as_str().unwrap_or_default().to_owned();
            online.table = Some(table.clone());
            // The host takes the first seat open to a person; at a table of
            // agents alone, it watches them.
            let seats = message["seats"].as_array().map(Vec::as_slice).unwrap_or_default();
            let open = seats.iter().find(|s| s["kind"] == "person").and_then(|s| s["seat"].as_u64());
            online.seek = match open {
                Some(seat) => Seek::Join { table: table.clone(), seat: Some(seat as u8) },
                None => Seek::Watch { table: table.clone() },
            };
            introduce(online);
        }
        "joined" | "rematch" => seated(online, file, &message),
        "state" => {
            online.table = message["table"].as_str().map(str::to_owned);
            online.seat = message["seat"].as_u64().map(|n| Player(n as u8 - 1));
            facts(online, &message);
            online.take_back = take_back_of(&message["take_back"]);
            online.rematch_asked.clear();
            let state = message.clone();
            commands.queue(move |world: &mut World| begin_from_state(world, &state));
        }
        "seats" => online.seats = serde_json::from_value(message["seats"].clone()).unwrap_or_default(),
        "moved" | "ended" => {
            online.pending.retain(|(id, _)| message["re"] != json!(id));
            facts(online, &message);
            if message["result"].is_object() {
                let table = online.table.as_deref().unwrap_or_default();
                if let Err(e) = seats_file::forget_table(file, table) {
                    warn!("cannot forget the finished table's seat: {e}");
                }
            }
            return Some(message);
        }
        "take_back_asked" => online.take_back = take_back_of(&message),
        "take_back_declined" => {
            online.take_back = None;
            let by = message["by"].as_u64().unwrap_or(0);
            status.error(format!("The take-back was declined by seat {by}"));
        }
        "taken_back" => online.take_back = None,
        "rematch_asked" => {
            if let Some(by) = message["by"].as_u64() {
                online.rematch_asked.push(Player(by as u8 - 1));
            }
        }
        "error" => return refused(online, status, file, message),
        _ => {}
    }
    None
}

/// A seat taken (joining, coming back, a rematch): its token is kept on disk.
fn seated(online: &mut OnlineTable, file: &Path, message: &Value) {
    let table = message["new_table"].as_str().or(message["table"].as_str()).unwrap_or_default();
    online.table = Some(table.to_owned());
    online.seat = message["seat"].as_u64().map(|n| Player(n as u8 - 1));
    online.token = message["token"].as_str().map(str::to_owned);
    if let (Some(seat), Some(token)) = (online.seat, online.token.clone()) {
        let kept =
            KeptSeat { url: online.url().to_owned(), table: table.to_owned(), seat: seat.0 + 1, token };
        if let Err(e) = seats_file::keep(file, kept) {
            warn!("cannot keep the seat's token on disk: {e}");
        }
    }
}

/// The facts every table message may carry: seats, clock, result.
fn facts(online: &mut OnlineTable, message: &Value) {
    if let Ok(seats) = serde_json::from_value(message["seats"].clone()) {
        online.seats = seats;
    }
    online.clock = serde_json::from_value(message["clock"].clone()).ok().map(|c| (c, Instant::now()));
    online.result = serde_json::from_value(message["result"].clone()).ok();
}

fn take_back_of(ask: &Value) -> Option<(Player, usize)> {
    let by = ask["by"].as_u64()?;
    Some((Player(by as u8 - 1), ask["to_ply"].as_u64()? as usize))
}

/// A refusal: a move's goes to the session (it says why, as a local one
/// does); a seat that is not there any more is forgotten.
fn refused(online: &mut OnlineTable, status: &mut StatusLine, file: &Path, message: Value) -> Option<Value> {
    let code = message["code"].as_str().unwrap_or_default();
    let text = message["message"].as_str().unwrap_or("refused");
    if let Some(i) = online.pending.iter().position(|(id, _)| message["re"] == json!(id)) {
        let (_, by) = online.pending.remove(i);
        let mut refusal = message.clone();
        refusal["by"] = json!(by.0);
        return Some(refusal);
    }
    match (code, &online.seek) {
        ("bad_token", _) => {
            if let Some(token) = online.token.take() {
                let _ = seats_file::forget_token(file, &token);
            }
            status.error("That seat is no longer on the server (its game may be over): forgotten");
        }
        ("no_table", Seek::Join { table, .. } | Seek::Watch { table }) => {
            status.error(format!("No table {table} at {}: check the code", online.url()));
        }
        _ => status.error(format!("Refused: {text}")),
    }
    None
}

/// A session at the table, of the game its `state` names.
fn begin_from_state(world: &mut World, state: &Value) {
    let game = state["game"].as_str().unwrap_or_default();
    let begin = world.resource::<WindowGames>().find(game).map(|e| e.begin_online);
    let result = match begin {
        Some(begin) => begin(world, state),
        None => Err(format!("this window cannot show {game}")),
    };
    if let Err(e) = result {
        world.resource_mut::<StatusLine>().error(format!("Cannot show the table: {e}"));
    }
}

/// The game screen's requests at a server's table: undo asks to take
/// back, play again asks for a rematch; the online panels' answers.
pub(super) fn requests(
    online: Option<ResMut<OnlineTable>>,
    mut session_requests: MessageReader<SessionRequest>,
    mut online_requests: MessageReader<OnlineRequest>,
    mut status: ResMut<StatusLine>,
) {
    let Some(mut online) = online else { return };
    for request in session_requests.read() {
        match request {
            SessionRequest::Undo => {
                online.ask_at_table(json!({"type": "take_back"}));
                status.info("Asked to take back your last move");
            }
            SessionRequest::PlayAgain => {
                online.ask_at_table(json!({"type": "rematch"}));
                status.info("Rematch asked: waiting for the others");
            }
            SessionRequest::Redo | SessionRequest::Restart | SessionRequest::GoTo(_) => {
                status.error("At a server's table the moves stand: ask to take back your last one instead");
            }
            SessionRequest::SaveReplay => {
                status.info("The server saves every finished game as a replay");
            }
            _ => {}
        }
    }
    for request in online_requests.read() {
        match request {
            OnlineRequest::AnswerTakeBack(accept) => {
                online.ask_at_table(json!({"type": "answer", "accept": accept}));
            }
            OnlineRequest::Resign => {
                online.ask_at_table(json!({"type": "resign"}));
            }
            OnlineRequest::Rematch => {
                online.ask_at_table(json!({"type": "rematch"}));
            }
        }
    }
}
