//! A game's session at a server's table: begun from the server's `state`,
//! its moves sent as requests, the moves the server played taken in with
//! their steps, so the board shows them as it shows a local move.

use bevy::prelude::*;
use serde::de::DeserializeOwned;
use serde_json::Value;
use tabula_engine::{Outcome, Player};
use tabula_server::protocol::{EndReason, ErrorCode, Moved, Result as TableResult, TableState};

use super::{OnlineTable, ServerSaid};
use crate::app::game::{ActiveGame, WindowGame};
use crate::app::screen::Screen;
use crate::app::session::{
    Agents, BoardReset, Controller, GameEnded, Headline, MoveApplied, MovePlayed, MoveRefused, ReplaysFolder,
    RequestMove, SeatSetup, Session, SessionSet, StatusLine, Watch, save_heard_replay,
};
use crate::app::settings::Settings;

pub(super) fn plugin<G: WindowGame>(app: &mut App) {
    app.add_systems(Update, hear::<G>.in_set(SessionSet::Requests).run_if(resource_exists::<Session<G>>))
        .add_systems(Update, send_moves::<G>.in_set(SessionSet::Moves).run_if(resource_exists::<Session<G>>))
        .add_systems(
            Update,
            keep_replay::<G>.in_set(SessionSet::Requests).run_if(resource_exists::<Session<G>>),
        );
}

/// Game data the server sent (`what` names it in an error).
fn read<T: DeserializeOwned>(value: &Value, what: &str) -> Result<T, String> {
    T::deserialize(value).map_err(|e| format!("the server's {what}: {e}"))
}

/// A seat numbered from 1.
fn seat(n: u8) -> Option<Player> {
    (n >= 1).then(|| Player(n - 1))
}

/// A session at the table its `state` message describes (replacing the
/// one there was, unless it is the same position: a connection that came
/// back finds its board as it left it).
pub fn begin<G: WindowGame>(world: &mut World, state: &TableState) -> Result<(), String> {
    // The level as every seat may know it (hidden homes left out): read,
    // not checked against the rules, since the position comes as the view.
    let file = tabula_engine::level::read_unchecked(&state.level.text, "the table's level")
        .map_err(|e| e.to_string())?;
    let level = file.get::<G>().ok_or("the table's level is for another game")?.clone();
    let seen: G::Observation = read(&state.view, "view")?;
    let mut past = Vec::new();
    for played in &state.moves {
        let by = seat(played.seat).ok_or("a past move without its seat")?;
        let mv: G::Move = read(&played.mv, "move")?;
        past.push((by, mv, played.says.clone()));
    }
    let infos = &state.seats;
    let me = state.seat.and_then(seat);
    let seats = infos
        .iter()
        .enumerate()
        .map(|(i, info)| SeatSetup {
            name: info.name.clone().unwrap_or_else(|| format!("Seat {}", i + 1)),
            controller: if me.is_some_and(|p| p.index() == i) {
                Controller::Human
            } else {
                Controller::Online
            },
        })
        .collect();
    let mut session = Session::<G>::online(level, &seen, seats, past);
    if let Some(was) = world.get_resource::<Session<G>>()
        && was.kind.at_server()
        && was.moves == session.moves
        && was.game == session.game
    {
        // The same position: only the names may have changed (a friend
        // joined), and the board shows them again.
        let mut was = world.resource_mut::<Session<G>>();
        if was.seats != session.seats {
            was.seats = session.seats;
            world.write_message(BoardReset);
        }
        return Ok(());
    }
    if session.game.num_players() != session.seats.len() {
        return Err(format!("{} seats for a game of {}", session.seats.len(), session.game.num_players()));
    }
    if let Some(ended) = &state.result {
        session.called = Some(outcome_of(ended));
    }
    let agents = Agents::<G>::nobody(session.seats.len());
    crate::app::session::install(world, session, agents, Watch::default());
    world.write_message(BoardReset);
    world.resource_mut::<StatusLine>().info(match me {
        Some(p) => format!("At the table, in seat {}", p.0 + 1),
        None => "Watching the table".to_owned(),
    });
    world.resource_mut::<NextState<Screen>>().into_inner().set_if_neq(Screen::Game);
    world.resource_mut::<NextState<ActiveGame>>().into_inner().set_if_neq(ActiveGame::of::<G>());
    Ok(())
}

fn outcome_of(result: &TableResult) -> Outcome {
    match result.winner {
        Some(n) if n >= 1 => Outcome::Win(Player(n - 1)),
        _ => Outcome::Draw,
    }
}

/// A person's move goes to the server, with the position it was chosen
/// in; it is shown once the server plays it.
fn send_moves<G: WindowGame>(
    mut requests: MessageReader<RequestMove<G>>,
    session: Res<Session<G>>,
    online: Option<ResMut<OnlineTable>>,
    mut status: ResMut<StatusLine>,
) {
    let Some(mut online) = online.filter(|_| session.kind.at_server()) else { return };
    for request in requests.read() {
        if !online.up {
            status.error("Not connected: the move was not sent (reconnecting…)");
            continue;
        }
        let mv = serde_json::to_value(request.mv).expect("moves serialise");
        online.send_move(request.by, mv, session.moves.len());
    }
}

/// Takes in what the server said of the game: a move with its steps, an
/// end called off the board, a move refused.
#[allow(clippy::too_many_arguments)]
fn hear<G: WindowGame>(
    mut said: MessageReader<ServerSaid>,
    mut session: ResMut<Session<G>>,
    mut status: ResMut<StatusLine>,
    mut headline: ResMut<Headline>,
    mut applied: MessageWriter<MoveApplied<G>>,
    mut played: MessageWriter<MovePlayed>,
    mut refused: MessageWriter<MoveRefused>,
    mut ended: MessageWriter<GameEnded>,
) {
    if !session.kind.at_server() {
        return;
    }
    for message in said.read() {
        match message {
            ServerSaid::Moved(message) => match moved(&mut session, message) {
                Ok((by, mv, steps, words)) => {
                    status.info(format!("{}: {words}", session.name_of(by)));
                    applied.write(MoveApplied { by, mv, steps });
                    played.write(MovePlayed { by });
                    if let Some(outcome) = session.game.outcome() {
                        let text = G::outcome_text(&session.view(), &session.names());
                        status.info(text.clone());
                        ended.write(GameEnded { outcome, text });
                    }
                }
                Err(e) => status.error(format!("The server's move makes no sense here: {e}")),
            },
            ServerSaid::Ended(result) => {
                let outcome = outcome_of(result);
                session.called = Some(outcome);
                let text = called_text(&session, result);
                headline.0 = Some(text.clone());
                status.info(text.clone());
                ended.write(GameEnded { outcome, text });
            }
            ServerSaid::Replay { .. } => {}
            ServerSaid::Refused { by, code, message } => {
                let reason = match code {
                    ErrorCode::Stale => {
                        "the position changed before your move arrived: choose again".to_owned()
                    }
                    _ => message.clone(),
                };
                status.error(format!("Refused: {reason}"));
                let out_of_turn = *code == ErrorCode::NotYourTurn;
                refused.write(MoveRefused { by: *by, reason, out_of_turn });
            }
        }
    }
}

/// The finished game's replay, as the server gave it, kept with the games
/// played here (O lists it) when the settings save every finished game or
/// the player asked.
fn keep_replay<G: WindowGame>(
    mut said: MessageReader<ServerSaid>,
    mut session: ResMut<Session<G>>,
    mut status: ResMut<StatusLine>,
    settings: Res<Settings>,
    folder: Res<ReplaysFolder>,
) {
    for message in said.read() {
        let ServerSaid::Replay { text, by_hand } = message else { continue };
        if !session.kind.at_server() || !(*by_hand || settings.save_finished_games) {
            continue;
        }
        // Ctrl+S again after the game was kept: the same game, not a copy.
        if let Some((game, path)) = &session.saved
            && *game == session.as_saved()
        {
            status.info(format!("Saved already, to {}", path.display()));
            continue;
        }
        match save_heard_replay(&mut session, text, &folder.0) {
            Ok(path) => {
                let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
                let text = format!("{} · saved as the replay \"{name}\"", status.text);
                status.info(text);
            }
            Err(e) => status.error(format!("Cannot keep the game's replay: {e}")),
        }
    }
}

/// The move a `moved` message tells, taken into the session: who made it,
/// the move, its steps and its words.
fn moved<G: WindowGame>(
    session: &mut Session<G>,
    message: &Moved,
) -> Result<(Player, G::Move, Vec<G::Step>, String), String> {
    let by = seat(message.seat).ok_or("no seat")?;
    let mv: G::Move = read(&message.mv, "move")?;
    let steps: Vec<G::Step> = read(&message.steps, "steps")?;
    let seen: G::Observation = read(&message.view, "view")?;
    // Said from the position before: the move may name the card it takes.
    let words = G::move_words(&session.game, &session.level, &mv);
    session.heard(by, mv, words.clone(), &seen);
    if let Some(reason) = steps.iter().find_map(G::irreversible) {
        session.barrier = session.moves.len();
        session.barrier_reason = reason;
    }
    Ok((by, mv, steps, words))
}

/// An end the server called: a resignation or a flag.
fn called_text<G: WindowGame>(session: &Session<G>, result: &TableResult) -> String {
    let name = |n: u8| session.name_of(Player(n.saturating_sub(1))).to_owned();
    let by = result.by.map(name).unwrap_or_default();
    let winner = match result.winner {
        Some(n) => format!("{} wins", name(n)),
        None => "a draw".to_owned(),
    };
    match result.reason {
        EndReason::Time => format!("{by} ran out of time: {winner}"),
        EndReason::Resigned => format!("{by} resigned: {winner}"),
        EndReason::Rules => winner,
    }
}
