//! No seat sees what it may not: every byte the server sends each
//! connection over whole games (Russian Bank with Stops, a hidden-home
//! Robot board, the toy game with secrets) is recorded, from the first
//! message on, through a take-back and a reconnect. Each connection's
//! messages are then followed on a game of the test's own, rebuilt from the
//! seed in the server's database: every view must be exactly the engine's
//! observation for that seat, every step and legal move the engine's, and
//! the hidden part of the true state (a reserve's order, a home, a secret,
//! the seed) must appear nowhere.

#[path = "../../../tests/common/toy.rs"]
#[allow(dead_code, reason = "the window's tests use the rest")]
mod toy;

mod common;

use std::collections::HashMap;

use common::*;
use serde_json::{Value, json};
use tabula_engine::core::{Game, Observation, Registered, apply_with_steps};
use tabula_engine::level;
use tabula_engine::robots::Robots;
use tabula_engine::russian_bank::RussianBank;
use tabula_engine::{Player, games};
use tabula_server::client::Client;

/// One connection's messages, and whose eyes it has (`None`: a spectator).
struct Stream {
    viewer: Option<Player>,
    messages: Vec<String>,
    /// A connection that came back with a token, mid-game.
    resumed: bool,
}

struct Played {
    table: String,
    streams: Vec<Stream>,
    seed: u64,
    /// A take-back was asked and accepted.
    took_back: bool,
}

/// Reads messages until `client` has seen the move numbered `ply` (or the
/// end), keeping every one.
async fn read_until(client: &mut Client, ply: u64, kept: &mut Vec<String>) -> Value {
    loop {
        let Ok(message) = tokio::time::timeout(std::time::Duration::from_secs(20), client.recv()).await
        else {
            panic!("no move {ply} came; the last messages: {:#?}", &kept[kept.len().saturating_sub(4)..]);
        };
        let message = message.unwrap();
        kept.push(message.to_string());
        let done = (message["type"] == "moved" || message["type"] == "state") && message["ply"] == ply
            || message["type"] == "ended";
        if done {
            return message;
        }
    }
}

/// Plays a whole game of `level_text`, every seat a person played by a
/// client choosing at random from its `legal` moves, a spectator watching
/// from the start. At move 6 the last mover asks for a take-back and the
/// others accept (or it is refused, as the rules say); at move 12 seat 1's
/// connection is dropped and a new one resumes with its token.
async fn play_recorded(level_text: &str, seats: usize, name: &str) -> Played {
    let dir = temp_dir(name);
    let addr = start(config(&dir)).await;
    let mut host = client(addr, "host").await;
    let table = create(&mut host, json!({"level_text": level_text})).await;
    let mut watcher = client(addr, "watcher").await;
    let mut streams = vec![Stream { viewer: None, messages: Vec::new(), resumed: false }];
    let watched = watcher.request(json!({"type": "watch", "table": table})).await.unwrap();
    streams[0].messages.push(watched.to_string());
    let mut clients = Vec::new();
    let mut tokens = Vec::new();
    let mut last = Vec::new();
    for seat in 0..seats {
        let mut c = client(addr, &format!("seat {}", seat + 1)).await;
        let joined = c.request(json!({"type": "join", "table": table, "seat": seat + 1})).await.unwrap();
        tokens.push(joined["token"].as_str().unwrap().to_owned());
        let state = next_of(&mut c, "state").await;
        streams.push(Stream {
            viewer: Some(Player(seat as u8)),
            messages: vec![joined.to_string(), state.to_string()],
            resumed: false,
        });
        last.push(state);
        clients.push(c);
    }
    // The game begins with the last seat: the others are told their moves.
    for s in 0..seats - 1 {
        last[s] = read_until(&mut clients[s], 0, &mut streams[s + 1].messages).await;
    }
    let mut rng = tabula_engine::core::rng_from_seed(name.len() as u64);
    let mut ply = 0;
    let mut took_back = false;
    let mut accepted = false;
    for _ in 0..4000 {
        if last.iter().any(|m| !m["result"].is_null()) {
            break;
        }
        // The seat to move, or one that may interject (a Stop) a third of the time.
        let to_move = last[0]["to_move"].as_u64().unwrap() as usize - 1;
        let others: Vec<usize> = (0..seats)
            .filter(|&s| s != to_move && !last[s]["legal"].as_array().unwrap().is_empty())
            .collect();
        let seat =
            if !others.is_empty() && rand::Rng::random_ratio(&mut rng, 1, 3) { others[0] } else { to_move };
        let legal = last[seat]["legal"].as_array().unwrap().clone();
        if legal.is_empty() {
            break;
        }
        let mv = legal[rand::Rng::random_range(&mut rng, 0..legal.len())]["move"].clone();
        clients[seat].send(&json!({"type": "move", "table": table, "move": mv, "ply": ply})).await.unwrap();
        ply += 1;
        for s in 0..seats {
            last[s] = read_until(&mut clients[s], ply, &mut streams[s + 1].messages).await;
        }
        read_until(&mut watcher, ply, &mut streams[0].messages).await;
        if ply == 6 && !took_back && last[0]["result"].is_null() {
            took_back = true;
            let mover = last[0]["seat"].as_u64().unwrap() as usize - 1;
            let asked = clients[mover].request(json!({"type": "take_back", "table": table})).await;
            if asked.is_ok() {
                accepted = true;
                for s in (0..seats).filter(|&s| s != mover) {
                    clients[s]
                        .send(&json!({"type": "answer", "table": table, "accept": true}))
                        .await
                        .unwrap();
                }
                let back = loop {
                    let m = clients[0].recv().await.unwrap();
                    streams[1].messages.push(m.to_string());
                    if m["type"] == "state" {
                        break m["ply"].as_u64().unwrap();
                    }
                };
                ply = back;
                for s in 0..seats {
                    if s > 0 {
                        last[s] = read_until(&mut clients[s], ply, &mut streams[s + 1].messages).await;
                    }
                }
                last[0] = serde_json::from_str(streams[1].messages.last().unwrap()).unwrap();
                read_until(&mut watcher, ply, &mut streams[0].messages).await;
            }
        }
        if ply == 12 {
            // Seat 1 drops and comes back with its token, as a new connection.
            let mut again = client(addr, "seat 1 again").await;
            let joined = again.request(json!({"type": "resume", "token": tokens[0]})).await.unwrap();
            streams.push(Stream {
                viewer: Some(Player(0)),
                messages: vec![joined.to_string()],
                resumed: true,
            });
            let old = std::mem::replace(&mut clients[0], again);
            drop(old);
            let n = streams.len() - 1;
            last[0] = read_until(&mut clients[0], ply, &mut streams[n].messages).await;
            // From here seat 1's messages are the new connection's.
            streams.swap(1, n);
        }
    }
    assert!(last.iter().all(|m| !m["result"].is_null()), "{name}: the game did not end");
    let seed = seed_of(&dir, &table);
    Played { table, streams, seed, took_back: accepted }
}

fn seed_of(dir: &std::path::Path, table: &str) -> u64 {
    let db = rusqlite::Connection::open(dir.join("server.db")).unwrap();
    db.query_row("SELECT seed FROM tables WHERE id = ?1", [table], |r| r.get::<_, i64>(0)).unwrap() as u64
}

/// Follows one connection's messages on the test's own game of `G`, checking
/// each against the engine; `hidden` names strings of the true state that
/// the viewer may not see then. A connection that came back mid-game starts
/// from the moves `before` it; the moves it saw come back.
fn check_stream<G: Registered>(
    level_text: &str,
    played: &Played,
    stream: &Stream,
    before: Vec<(Player, G::Move)>,
    hidden: &dyn Fn(&G, Option<Player>) -> Vec<String>,
) -> Vec<(Player, G::Move)> {
    let level = level::parse(level_text, "level").unwrap();
    let typed = level.get::<G>().unwrap();
    let start = || G::new(typed, played.seed).unwrap();
    let mut game = start();
    let mut history = before;
    for &(seat, mv) in &history {
        game.apply(seat, mv).unwrap();
    }
    let seed_text = played.seed.to_string();
    for text in &stream.messages {
        let m: Value = serde_json::from_str(text).unwrap();
        assert!(!text.contains(&seed_text), "the seed went out: {text}");
        match m["type"].as_str().unwrap() {
            "moved" => {
                let seat = Player(m["seat"].as_u64().unwrap() as u8 - 1);
                let mv: G::Move = serde_json::from_value(m["move"].clone()).unwrap();
                let before = game.clone();
                let (_, steps) = apply_with_steps(&mut game, seat, mv).unwrap();
                history.push((seat, mv));
                assert_eq!(m["steps"], serde_json::to_value(&steps).unwrap(), "{text}");
                for secret in
                    hidden(&before, stream.viewer).iter().filter(|s| hidden(&game, stream.viewer).contains(s))
                {
                    assert!(!text.contains(secret.as_str()), "{secret} went out while hidden: {text}");
                }
            }
            "state" => {
                let ply = m["ply"].as_u64().unwrap() as usize;
                if ply != history.len() {
                    history.truncate(ply);
                    game = start();
                    for &(seat, mv) in &history {
                        game.apply(seat, mv).unwrap();
                    }
                }
                assert_eq!(ply, history.len(), "a state at a move this connection has not seen: {text}");
            }
            _ => {}
        }
        if m.get("view").is_some() {
            let seen = serde_json::to_value(&*game.observe(stream.viewer)).unwrap();
            assert_eq!(m["view"], seen, "a view that is not the engine's observation");
            let mut legal = Vec::new();
            // No moves before the game begins (a seat still open) nor after it ends.
            let open = m["seats"].as_array().is_some_and(|seats| seats.iter().any(|s| s["taken"] == false));
            if let (Some(seat), true, false) = (stream.viewer, m["result"].is_null(), open) {
                game.observe(Some(seat)).legal_moves(seat, &mut legal);
            }
            let sent: Vec<Value> = m["legal"].as_array().unwrap().iter().map(|l| l["move"].clone()).collect();
            let expected: Vec<Value> = legal.iter().map(|mv| serde_json::to_value(mv).unwrap()).collect();
            assert_eq!(sent, expected, "{text}");
        }
        for secret in hidden(&game, stream.viewer) {
            assert!(!text.contains(&secret), "{secret} went out while hidden: {text}");
        }
    }
    history
}

fn check_all<G: Registered>(
    level_text: &str,
    played: &Played,
    hidden: &dyn Fn(&G, Option<Player>) -> Vec<String>,
) {
    assert!(played.streams.len() >= 3, "a spectator and the seats");
    let mut seen = HashMap::new();
    for stream in played.streams.iter().filter(|s| !s.resumed) {
        seen.insert(stream.viewer, check_stream::<G>(level_text, played, stream, Vec::new(), hidden));
    }
    for stream in played.streams.iter().filter(|s| s.resumed) {
        let first: Value = serde_json::from_str(&stream.messages[1]).unwrap();
        let mut before = seen[&stream.viewer].clone();
        before.truncate(first["ply"].as_u64().unwrap() as usize);
        check_stream::<G>(level_text, played, stream, before, hidden);
    }
    assert!(!played.table.is_empty());
}

/// The face-down cards of each side in their true order, three at a time,
/// where the observation (which lists them in a canonical order) does not
/// show those three so.
fn hidden_cards(game: &RussianBank, viewer: Option<Player>) -> Vec<String> {
    let state = serde_json::to_value(game).unwrap();
    let seen = serde_json::to_string(&*game.observe(viewer)).unwrap();
    let mut secrets = Vec::new();
    for side in state["sides"].as_array().unwrap() {
        for (pile, hidden) in [("reserve", "reserve_hidden"), ("hand", "hand_hidden")] {
            let cards: Vec<String> = side[pile].as_array().unwrap().iter().map(|c| c.to_string()).collect();
            let n = (side[hidden].as_u64().unwrap() as usize).min(cards.len());
            for w in cards[..n].windows(3) {
                let text = w.join(",");
                if !seen.contains(&text) {
                    secrets.push(text);
                }
            }
        }
    }
    secrets
}

const BANK: &str = "RussianBank(name: \"Leaks\", deal: Shuffled, stop_rule: true, move_cap: 300)";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn russian_bank_with_stops_shows_no_face_down_card() {
    let played = play_recorded(BANK, 2, "leak-bank").await;
    check_all::<RussianBank>(BANK, &played, &hidden_cards);
    let stops = played.streams.iter().flat_map(|s| &s.messages).filter(|m| m.contains("\"Stopped\"")).count();
    assert!(stops > 0, "no Stop was called");
}

fn robots_level() -> String {
    let text = std::fs::read_to_string(levels().join("robots/12-hidden-homes.ron")).unwrap_or_default();
    if text.is_empty() { hidden_level_any() } else { text }
}

/// Any hidden-home level of the repository.
fn hidden_level_any() -> String {
    let dir = levels().join("robots");
    let mut files: Vec<_> = std::fs::read_dir(&dir).unwrap().flatten().map(|e| e.path()).collect();
    files.sort();
    files
        .into_iter()
        .map(|p| std::fs::read_to_string(p).unwrap())
        .find(|t| t.contains("homes: Hidden"))
        .expect("a hidden-home level")
}

/// Where each robot's home truly is.
fn homes(game: &Robots, _viewer: Option<Player>) -> Vec<String> {
    let state = serde_json::to_value(game).unwrap();
    let mut secrets = vec!["\"Home\"".to_owned()];
    for robot in state["robots"].as_array().unwrap() {
        if !robot["home"].is_null() {
            secrets.push(format!("\"home\":{}", robot["home"]));
        }
    }
    secrets
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_hidden_home_robot_board_shows_no_home() {
    let level = robots_level();
    let seats = games::find("Robots").unwrap().num_players(&level::parse(&level, "level").unwrap());
    let played = play_recorded(&level, seats, "leak-robots").await;
    assert!(played.took_back, "a take-back was asked and accepted");
    check_all::<Robots>(&level, &played, &homes);
}

/// Each seat's secret, in the true state's words, while not shown.
fn secrets(game: &toy::Tally, viewer: Option<Player>) -> Vec<String> {
    let state = serde_json::to_value(game).unwrap();
    let shown: Vec<bool> = serde_json::from_value(state["shown"].clone()).unwrap();
    let seen = serde_json::to_value(&*game.observe(viewer)).unwrap()["secrets"].clone();
    let mut secrets = Vec::new();
    if seen != state["secrets"] {
        secrets.push(format!("\"secrets\":{}", state["secrets"]));
    }
    let seen: HashMap<usize, Value> = seen.as_array().unwrap().iter().cloned().enumerate().collect();
    for (i, s) in state["secrets"].as_array().unwrap().iter().enumerate() {
        if !shown[i] && seen[&i].is_null() {
            secrets.push(format!("\"by\":{i},\"secret\":{s}"));
        }
    }
    secrets
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_toy_games_secrets_stay_with_their_seats() {
    games::register::<toy::Tally>();
    let level = "Tally(name: \"Secrets\", seats: 3, target: 30)";
    let played = play_recorded(level, 3, "leak-toy").await;
    check_all::<toy::Tally>(level, &played, &secrets);
}
