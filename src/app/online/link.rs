//! The connection's news each frame: what is said when it comes up (take
//! the seat back, or seek the table), and what the server's messages change
//! at the table. A game's own messages (a move, the end) go on to its
//! session as [`ServerSaid`].

use std::path::Path;
use std::time::Instant;

use bevy::prelude::*;
use tabula_engine::Player;
use tabula_server::link::LinkEvent;
use tabula_server::protocol::{
    ErrorCode, Id, Message, Moved, Request, Result as TableResult, SeatInfo, SeatKind, ServerMessage,
    TableState,
};

use super::seats_file::{self, KeptSeat, SeatsFile};
use super::{OnlineTable, Seek, ServerSaid};
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
                    said.write(forward);
                }
            }
        }
    }
}

/// Says who this window is at the table: the seat's token if it has one,
/// else what it seeks.
fn introduce(online: &mut OnlineTable) {
    let request = match (&online.token, &online.seek) {
        (Some(token), _) => Request::Resume { token: token.clone() },
        (None, Seek::Create(create)) => Request::Create(Box::new(create.clone())),
        (None, Seek::Join { table, seat }) => {
            Request::Join { table: table.clone(), seat: *seat, name: Some(online.name.clone()) }
        }
        (None, Seek::Watch { table }) => Request::Watch { table: table.clone() },
        (None, Seek::Resume { token }) => Request::Resume { token: token.clone() },
    };
    online.send(request);
}

/// The table a message is about, if it is about one.
fn table_of(body: &ServerMessage) -> Option<&str> {
    match body {
        ServerMessage::State(s) => Some(&s.table),
        ServerMessage::Moved(m) => Some(&m.table),
        ServerMessage::Joined { table, .. }
        | ServerMessage::Seats { table, .. }
        | ServerMessage::Ended { table, .. }
        | ServerMessage::TakeBackAsked { table, .. }
        | ServerMessage::TakeBackDeclined { table, .. }
        | ServerMessage::TakenBack { table, .. }
        | ServerMessage::RematchAsked { table, .. }
        | ServerMessage::Rematch { table, .. }
        | ServerMessage::Displaced { table, .. }
        | ServerMessage::Left { table } => Some(table),
        _ => None,
    }
}

/// What a message changes at the table; what the game's session must hear
/// of it, if anything.
fn take_in(
    commands: &mut Commands,
    online: &mut OnlineTable,
    status: &mut StatusLine,
    file: &Path,
    message: Message,
) -> Option<ServerSaid> {
    if let Some(table) = table_of(&message.body)
        && online.table.as_deref().is_some_and(|t| t != table)
        && !matches!(message.body, ServerMessage::Rematch { .. } | ServerMessage::Replay { .. })
    {
        // About a table left behind (before a rematch).
        return None;
    }
    let answers = |id: &u64| message.re == Some(Id::number(*id));
    match message.body {
        ServerMessage::Created { table, seats, .. } => {
            // Also for a host who started from a terminal: the code to send.
            info!("table {table} at {}: a friend joins with --join and --code {table}", online.url());
            online.table = Some(table.clone());
            // The host takes the first seat open to a person; at a table of
            // agents alone, it watches them.
            let open = seats.iter().find(|s| s.kind == SeatKind::Person).map(|s| s.seat);
            online.seek = match open {
                Some(seat) => Seek::Join { table, seat: Some(seat) },
                None => Seek::Watch { table },
            };
            introduce(online);
        }
        ServerMessage::Joined { table, seat, token } => seated(online, file, table, seat, token),
        ServerMessage::Rematch { new_table, seat, token, .. } => {
            rematch(online, file, new_table, seat.zip(token))
        }
        ServerMessage::Replay { replay, .. } => {
            let by_hand = std::mem::take(&mut online.replay_by_hand);
            return Some(ServerSaid::Replay { text: replay, by_hand });
        }
        ServerMessage::State(state) => {
            took_state(online, &state);
            commands.queue(move |world: &mut World| begin_from_state(world, &state));
        }
        ServerMessage::Seats { seats, .. } => online.seats = seats,
        ServerMessage::Moved(moved) => {
            online.pending.retain(|(id, _)| !answers(id));
            return Some(heard_move(online, file, moved));
        }
        ServerMessage::Ended { result, .. } => {
            online.pending.retain(|(id, _)| !answers(id));
            return Some(ended(online, file, result));
        }
        ServerMessage::TakeBackAsked { by, to_ply, .. } => {
            online.take_back = Some((Player(by.saturating_sub(1)), to_ply));
        }
        ServerMessage::TakeBackDeclined { by, .. } => {
            online.take_back = None;
            status.error(format!("{} declined the take-back", seat_name(&online.seats, by)));
        }
        ServerMessage::TakenBack { .. } => online.take_back = None,
        ServerMessage::RematchAsked { by, .. } => online.rematch_asked.push(Player(by.saturating_sub(1))),
        ServerMessage::Displaced { seat, .. } => {
            online.seat = None;
            status.error(format!(
                "Seat {seat} was taken back on another connection: watching no more from here"
            ));
        }
        ServerMessage::Halted { message } => {
            status.error(format!("The server stopped taking moves: {message}"))
        }
        ServerMessage::Error { code, message: text } => {
            let move_refused = online.pending.iter().position(|(id, _)| answers(id));
            return refused(commands, online, status, file, move_refused, (code, text));
        }
        _ => {}
    }
    None
}

/// A move was played: the clocks as it left them, and the end if it came.
fn heard_move(online: &mut OnlineTable, file: &Path, moved: Box<Moved>) -> ServerSaid {
    online.clock = moved.clock.clone().map(|c| (c, Instant::now()));
    online.result = moved.result.clone();
    if moved.result.is_some() {
        finished(online, file);
    }
    ServerSaid::Moved(moved)
}

/// A flag or a resignation ended the game: the clocks stop.
fn ended(online: &mut OnlineTable, file: &Path, result: TableResult) -> ServerSaid {
    if let Some(clock) = &mut online.clock {
        clock.0.running = None;
    }
    online.result = Some(result.clone());
    finished(online, file);
    ServerSaid::Ended(result)
}

/// The table's rematch is open: a seat is taken there with its new token
/// (`seated_as`); a spectator follows the table into it.
fn rematch(online: &mut OnlineTable, file: &Path, new_table: String, seated_as: Option<(u8, String)>) {
    match seated_as {
        Some((seat, token)) => seated(online, file, new_table, seat, token),
        None => {
            online.table = Some(new_table);
            online.seat = None;
        }
    }
}

/// A seat as the table names it: its player's name, else "Seat N".
fn seat_name(seats: &[SeatInfo], seat: u8) -> String {
    let named = seats.iter().find(|s| s.seat == seat).and_then(|s| s.name.clone());
    named.unwrap_or_else(|| format!("Seat {seat}"))
}

/// What a `state` tells of the table: its seats, clocks, end and asks.
fn took_state(online: &mut OnlineTable, state: &TableState) {
    online.table = Some(state.table.clone());
    online.seat = state.seat.filter(|&n| n >= 1).map(|n| Player(n - 1));
    online.seats = state.seats.clone();
    online.clock = state.clock.clone().map(|c| (c, Instant::now()));
    online.result = state.result.clone();
    online.take_back = state.take_back.map(|a| (Player(a.by.saturating_sub(1)), a.to_ply));
    online.rematch_asked.clear();
}

/// The game at the table is over: its seat's token is no longer kept, and
/// a seat asks for the game's replay to keep it with the games played here.
fn finished(online: &mut OnlineTable, file: &Path) {
    let table = online.table.as_deref().unwrap_or_default();
    if let Err(e) = seats_file::forget_table(file, table) {
        warn!("cannot forget the finished table's seat: {e}");
    }
    if online.seat.is_some() {
        online.ask_replay(false);
    }
}

/// A seat taken (joining, coming back, a rematch): its token is kept on disk.
fn seated(online: &mut OnlineTable, file: &Path, table: String, seat: u8, token: String) {
    online.table = Some(table.clone());
    online.seat = (seat >= 1).then(|| Player(seat - 1));
    online.token = Some(token.clone());
    let kept = KeptSeat { url: online.url().to_owned(), table, seat, token };
    if let Err(e) = seats_file::keep(file, kept) {
        warn!("cannot keep the seat's token on disk: {e}");
    }
}

/// A refusal: a move's (the `pending` one at `move_refused`) goes to the
/// session, which says why as a local one does; a seat that is not there
/// any more is forgotten, and a table sought is sought no more.
fn refused(
    commands: &mut Commands,
    online: &mut OnlineTable,
    status: &mut StatusLine,
    file: &Path,
    move_refused: Option<usize>,
    (code, text): (ErrorCode, String),
) -> Option<ServerSaid> {
    if let Some(i) = move_refused {
        let (_, by) = online.pending.remove(i);
        return Some(ServerSaid::Refused { by, code, message: text });
    }
    // A table sought and refused (no such table, no seat, a token gone):
    // nothing is sought any more, and the menu says why rather than that
    // it waits for the table.
    if online.table.is_none() {
        commands.remove_resource::<OnlineTable>();
    }
    match (code, &online.seek) {
        (ErrorCode::BadToken, _) => {
            if let Some(token) = online.token.take() {
                let _ = seats_file::forget_token(file, &token);
            }
            status.error("That seat is no longer on the server (its game may be over): forgotten");
        }
        (ErrorCode::NoTable, Seek::Join { table, .. } | Seek::Watch { table }) => {
            status.error(format!("No table {table} at {}: check the code", online.url()));
        }
        _ => status.error(format!("Refused: {text}")),
    }
    None
}

/// A session at the table, of the game its `state` names.
fn begin_from_state(world: &mut World, state: &TableState) {
    let game = state.game.as_str();
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
/// back, play again asks for a rematch; resigning and answering a take-back.
pub(super) fn requests(
    online: Option<ResMut<OnlineTable>>,
    mut session_requests: MessageReader<SessionRequest>,
    mut status: ResMut<StatusLine>,
) {
    let Some(mut online) = online else { return };
    for request in session_requests.read() {
        match request {
            SessionRequest::Undo => {
                online.ask_at_table(|table, seat| Request::TakeBack { table, seat });
                status.info("Asked to take back your last move");
            }
            SessionRequest::PlayAgain => {
                online.ask_at_table(|table, seat| Request::Rematch { table, seat });
                status.info("Rematch asked: waiting for the others");
            }
            SessionRequest::Redo | SessionRequest::Restart | SessionRequest::GoTo(_) => {
                status.error("At a server's table the moves stand: ask to take back your last one instead");
            }
            SessionRequest::SaveReplay if online.result.is_some() => {
                online.ask_replay(true);
                status.info("Asking the server for the game's replay…");
            }
            SessionRequest::SaveReplay => {
                status.info("A game at a server's table is saved when it ends: O lists it then");
            }
            SessionRequest::AnswerTakeBack(accept) => {
                let accept = *accept;
                online.ask_at_table(|table, seat| Request::Answer { table, accept, seat });
            }
            SessionRequest::Resign => {
                online.ask_at_table(|table, seat| Request::Resign { table, seat });
            }
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_seat_is_named_by_its_player() {
        let seat = |seat, name: Option<&str>| SeatInfo {
            seat,
            kind: SeatKind::Person,
            name: name.map(str::to_owned),
            taken: name.is_some(),
            connected: true,
            standing_in: None,
        };
        let seats = [seat(1, Some("Ann")), seat(2, None)];
        assert_eq!(seat_name(&seats, 1), "Ann");
        assert_eq!(seat_name(&seats, 2), "Seat 2", "nobody there yet");
        assert_eq!(seat_name(&seats, 3), "Seat 3");
    }
}
