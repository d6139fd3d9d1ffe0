//! A secret is kept when it cannot be told: two tables whose levels differ
//! only in what a seat may not see (the order and the split of face-down
//! cards, where the hidden homes are, another seat's secret) are played
//! with the same requests, side by side. Every byte each seat and a
//! spectator receives (the level's text, views, legal moves, words, steps,
//! errors, a take-back, a connection that comes back, the rematch) must be
//! the same at both tables, the table ids, tokens and clock readings aside,
//! until the rules show that seat the difference: the engine's own
//! observations for it first differ.

#[path = "../../../tests/common/toy.rs"]
#[allow(dead_code, reason = "the window's tests use the rest")]
mod toy;

mod common;

use common::*;
use rand::Rng;
use serde_json::{Value, json};
use tabula_engine::core::{Game, Registered};
use tabula_engine::level::{self, LevelFile};
use tabula_engine::robots::Robots;
use tabula_engine::russian_bank::rules::written_out;
use tabula_engine::russian_bank::{Deal, FixedPosition, RussianBank, RussianBankLevel};
use tabula_engine::{Player, games};
use tabula_server::client::Client;

/// What one table's connections heard, and the ids and tokens the server
/// made for it (which differ between any two tables).
struct Twin {
    table: String,
    watcher: Client,
    seats: Vec<Client>,
    tokens: Vec<String>,
    /// Index 0 the spectator's messages, then each seat's, as sent.
    streams: Vec<Vec<String>>,
    /// Every id and token of this table, in the order they came.
    names: Vec<String>,
    /// The last message each seat heard with a position in it.
    last: Vec<Value>,
    /// The next request id.
    id: u64,
}

/// Reads `client`'s messages into `stream` until `done` says one is the last.
async fn read_until(client: &mut Client, stream: &mut Vec<String>, done: impl Fn(&Value) -> bool) -> Value {
    loop {
        let text = tokio::time::timeout(std::time::Duration::from_secs(20), client.recv_text())
            .await
            .unwrap_or_else(|_| {
                panic!("nothing came; the last messages: {:#?}", &stream[stream.len().saturating_sub(3)..])
            })
            .unwrap();
        stream.push(text.clone());
        let message: Value = serde_json::from_str(&text).unwrap();
        if done(&message) {
            return message;
        }
    }
}

/// Reads what comes until nothing has come for a moment.
async fn read_quiet(client: &mut Client, stream: &mut Vec<String>) {
    while let Ok(text) = tokio::time::timeout(std::time::Duration::from_millis(300), client.recv_text()).await
    {
        stream.push(text.unwrap());
    }
}

fn at_ply(ply: usize) -> impl Fn(&Value) -> bool {
    move |m: &Value| (m["type"] == "moved" || m["type"] == "state") && m["ply"] == ply || m["type"] == "ended"
}

impl Twin {
    async fn open(addr: std::net::SocketAddr, level_text: &str, seats: usize, clock: bool) -> Twin {
        let mut host = client(addr, "host").await;
        let mut spec = json!({"level_text": level_text});
        if clock {
            spec["clock"] = json!({"minutes": 30, "increment": 5});
        }
        let table = create(&mut host, spec).await;
        let mut twin = Twin {
            table: table.clone(),
            watcher: client(addr, "watcher").await,
            seats: Vec::new(),
            tokens: Vec::new(),
            streams: vec![Vec::new(); seats + 1],
            names: vec![table.clone()],
            last: Vec::new(),
            id: 100,
        };
        twin.watcher.send(&json!({"type": "watch", "table": table, "id": 1})).await.unwrap();
        read_until(&mut twin.watcher, &mut twin.streams[0], |m| m["type"] == "state").await;
        for seat in 0..seats {
            let mut c = client(addr, &format!("seat {}", seat + 1)).await;
            c.send(&json!({"type": "join", "table": table, "seat": seat + 1, "id": 2})).await.unwrap();
            let joined = read_until(&mut c, &mut twin.streams[seat + 1], |m| m["type"] == "joined").await;
            twin.tokens.push(joined["token"].as_str().unwrap().to_owned());
            twin.names.push(twin.tokens[seat].clone());
            let state = read_until(&mut c, &mut twin.streams[seat + 1], |m| m["type"] == "state").await;
            twin.last.push(state);
            twin.seats.push(c);
            // Everyone hears who sat down before the next one does.
            for (i, other) in twin.seats.iter_mut().enumerate() {
                read_quiet(other, &mut twin.streams[i + 1]).await;
            }
            read_quiet(&mut twin.watcher, &mut twin.streams[0]).await;
        }
        // The last seat taken, the others are told their moves.
        twin.hear_all().await;
        for s in 0..seats {
            twin.last[s] = last_position(&twin.streams[s + 1]);
        }
        twin
    }

    /// Sends `message` for seat `seat` (from 0), with an id.
    async fn send(&mut self, seat: usize, mut message: Value) {
        message["table"] = json!(self.table);
        message["id"] = json!(self.id);
        self.id += 1;
        self.seats[seat].send(&message).await.unwrap();
    }

    /// Every connection reads on to move `ply`.
    async fn hear_ply(&mut self, ply: usize) {
        for s in 0..self.seats.len() {
            self.last[s] = read_until(&mut self.seats[s], &mut self.streams[s + 1], at_ply(ply)).await;
        }
        read_until(&mut self.watcher, &mut self.streams[0], at_ply(ply)).await;
    }

    /// Every connection reads until nothing more comes.
    async fn hear_all(&mut self) {
        for s in 0..self.seats.len() {
            read_quiet(&mut self.seats[s], &mut self.streams[s + 1]).await;
        }
        read_quiet(&mut self.watcher, &mut self.streams[0]).await;
    }
}

/// `text` with this table's ids and tokens, and every clock reading, put
/// as placeholders: the parts any two tables differ in, secrets or not.
fn plain(text: &str, names: &[String]) -> String {
    let mut text = text.to_owned();
    for (i, name) in names.iter().enumerate() {
        text = text.replace(name.as_str(), &format!("<name {i}>"));
    }
    let key = "\"remaining_ms\":[";
    let mut out = String::new();
    let mut rest = text.as_str();
    while let Some(at) = rest.find(key) {
        out.push_str(&rest[..at + key.len()]);
        rest = &rest[at + key.len()..];
        let end = rest.find(']').unwrap();
        out.push_str("<clock>");
        rest = &rest[end..];
    }
    out.push_str(rest);
    out
}

/// The last message of `stream` with a position in it.
fn last_position(stream: &[String]) -> Value {
    stream
        .iter()
        .rev()
        .map(|t| serde_json::from_str::<Value>(t).unwrap())
        .find(|m| m["type"] == "state" || m["type"] == "moved")
        .unwrap()
}

/// Each viewer whose observation now differs between the two games is
/// marked, the first time, as free to hear the difference from message
/// `at(viewer)` of its stream on.
fn mark<G: Game>(
    engines: &[G],
    viewers: &[Option<Player>],
    shown_from: &mut [Option<usize>],
    at: &dyn Fn(usize) -> usize,
) {
    for (v, viewer) in viewers.iter().enumerate() {
        let seen: Vec<Value> =
            engines.iter().map(|g| serde_json::to_value(&*g.observe(*viewer)).unwrap()).collect();
        if seen[0] != seen[1] && shown_from[v].is_none() {
            shown_from[v] = Some(at(v));
        }
    }
}

/// The position each stream's messages have reached, a message at a time.
fn plies(stream: &[String]) -> Vec<Option<u64>> {
    let mut ply = None;
    stream
        .iter()
        .map(|text| {
            let m: Value = serde_json::from_str(text).unwrap();
            if let Some(p) = m["ply"].as_u64().filter(|_| m["type"] == "moved" || m["type"] == "state") {
                ply = Some(p);
            }
            ply
        })
        .collect()
}

/// Plays the two tables of `texts` with the same requests and compares
/// what every connection heard. Move choices come from table A's legal
/// moves; a seat may interject (a Stop) where the game lets it.
async fn twins<G: Registered>(texts: [&str; 2], name: &str, most_moves: usize) {
    let dir = temp_dir(name);
    let addr = start(config(&dir)).await;
    let levels: Vec<LevelFile> = texts.iter().map(|t| level::parse(t, "level").unwrap()).collect();
    let seats = games::find(G::NAME).unwrap().num_players(&levels[0]);
    let mut engines: Vec<G> = levels.iter().map(|l| G::new(l.get::<G>().unwrap(), 0).unwrap()).collect();
    let mut twins = Vec::new();
    for text in texts {
        twins.push(Twin::open(addr, text, seats, seats == 2).await);
    }
    // Each viewer (spectator first, then the seats) may hear the
    // difference from this message of its stream on.
    let viewers: Vec<Option<Player>> =
        std::iter::once(None).chain((0..seats).map(|s| Some(Player(s as u8)))).collect();
    let mut shown_from: Vec<Option<usize>> = vec![None; viewers.len()];
    // A difference in sight from the start: from the first view on.
    let first_views: Vec<usize> = twins[0]
        .streams
        .iter()
        .map(|s| s.iter().position(|t| t.contains("\"type\":\"state\"")).unwrap())
        .collect();
    mark(&engines, &viewers, &mut shown_from, &|v| first_views[v]);
    let mut rng = tabula_engine::core::rng_from_seed(7);
    let mut ply = 0;
    let mut took_back = false;
    let mut history: Vec<(Player, G::Move)> = Vec::new();
    for step in 0..most_moves {
        if twins[0].last.iter().any(|m| !m["result"].is_null()) {
            break;
        }
        let to_move = twins[0].last[0]["to_move"].as_u64().unwrap() as usize - 1;
        let others: Vec<usize> = (0..seats)
            .filter(|&s| s != to_move && !twins[0].last[s]["legal"].as_array().unwrap().is_empty())
            .collect();
        let seat = if !others.is_empty() && rng.random_ratio(1, 3) { others[0] } else { to_move };
        let legal = twins[0].last[seat]["legal"].as_array().unwrap().clone();
        if legal.is_empty() {
            break;
        }
        if step == 3 {
            // A move out of turn, and a move the rules refuse, in both.
            let other = (to_move + 1) % seats;
            for twin in &mut twins {
                twin.send(other, json!({"type": "move", "move": legal[0]["move"], "ply": ply})).await;
                read_until(&mut twin.seats[other], &mut twin.streams[other + 1], |m| m["type"] == "error")
                    .await;
            }
        }
        // Mostly one of the first two: the toy game's "show" comes last,
        // and a game where everything is shown at once compares little.
        let pick = if legal.len() > 2 && rng.random_ratio(3, 4) { 2 } else { legal.len() };
        let mv = legal[rng.random_range(0..pick)]["move"].clone();
        for twin in &mut twins {
            twin.send(seat, json!({"type": "move", "move": mv, "ply": ply})).await;
        }
        ply += 1;
        // The same move at both tables, on the test's own games too.
        let typed: G::Move = serde_json::from_value(mv.clone()).unwrap();
        let applied: Vec<bool> =
            engines.iter_mut().map(|g| g.apply(Player(seat as u8), typed).is_ok()).collect();
        assert!(applied[0], "{name}: a legal move of table A refused by the engine");
        if !applied[1] {
            // Table B refused it: the seats already saw different moves.
            for twin in &mut twins {
                twin.hear_all().await;
            }
            break;
        }
        history.push((Player(seat as u8), typed));
        for twin in &mut twins {
            twin.hear_ply(ply).await;
        }
        let lens: Vec<usize> = twins[0].streams.iter().map(Vec::len).collect();
        mark(&engines, &viewers, &mut shown_from, &|v| lens[v] - 1);
        if ply == 4 && !took_back && twins[0].last[0]["result"].is_null() {
            // The last mover asks to take its move back; the others agree.
            took_back = true;
            for twin in &mut twins {
                twin.send(seat, json!({"type": "take_back"})).await;
                twin.hear_all().await;
            }
            let asked = serde_json::from_str::<Value>(twins[0].streams[seat + 1].last().unwrap()).unwrap();
            if asked["type"] == "take_back_asked" {
                for twin in &mut twins {
                    for other in (0..seats).filter(|&s| s != seat) {
                        twin.send(other, json!({"type": "answer", "accept": true})).await;
                    }
                }
                let back = asked["to_ply"].as_u64().unwrap() as usize;
                history.truncate(back);
                for (g, level) in engines.iter_mut().zip(&levels) {
                    *g = G::new(level.get::<G>().unwrap(), 0).unwrap();
                    for &(p, m) in &history {
                        g.apply(p, m).unwrap();
                    }
                }
                ply = back;
                for twin in &mut twins {
                    twin.hear_all().await;
                    for s in 0..seats {
                        twin.last[s] = last_position(&twin.streams[s + 1]);
                    }
                }
            }
        }
        if ply == 6 {
            // Seat 1 drops and comes back with its token on a new connection.
            for twin in &mut twins {
                let fresh = client(addr, "seat 1 again").await;
                let old = std::mem::replace(&mut twin.seats[0], fresh);
                drop(old);
                twin.hear_all().await;
                let token = twin.tokens[0].clone();
                twin.seats[0].send(&json!({"type": "resume", "token": token, "id": 3})).await.unwrap();
                twin.last[0] =
                    read_until(&mut twin.seats[0], &mut twin.streams[1], |m| m["type"] == "state").await;
                twin.hear_all().await;
            }
        }
    }
    // The end, if the game has not ended: seat 1 resigns (at a bigger
    // table an agent plays on for it), then every seat asks for a rematch.
    if twins[0].last.iter().all(|m| m["result"].is_null()) && seats == 2 {
        for twin in &mut twins {
            twin.send(0, json!({"type": "resign"})).await;
            twin.hear_all().await;
        }
    }
    let ended = twins
        .iter()
        .all(|t| t.streams[1].iter().any(|m| m.contains("\"type\":\"ended\"") || m.contains("\"result\":{")));
    if ended {
        for twin in &mut twins {
            for s in 0..seats {
                twin.send(s, json!({"type": "rematch"})).await;
                twin.hear_all().await;
            }
            for s in 0..seats {
                for text in &twin.streams[s + 1] {
                    let m: Value = serde_json::from_str(text).unwrap();
                    if m["type"] == "rematch" {
                        let (table, token) = (m["new_table"].as_str().unwrap(), m["token"].as_str().unwrap());
                        for name in [table, token] {
                            if !twin.names.iter().any(|n| n == name) {
                                twin.names.push(name.to_owned());
                            }
                        }
                    }
                }
            }
        }
    }
    let [a, b] = [&twins[0], &twins[1]];
    // A spectator knows what every seat knows: the moves and their steps.
    // Its view may differ between the tables only once a step did (a card
    // turned up, a robot home), whatever the engine's observation says.
    let parse = |t: &String| serde_json::from_str::<Value>(t).unwrap();
    let (sa, sb) = (&a.streams[0], &b.streams[0]);
    let steps_differ = (0..sa.len().min(sb.len()))
        .find(|&i| {
            let (ma, mb) = (parse(&sa[i]), parse(&sb[i]));
            ma["type"] == "moved" && ma["steps"] != mb["steps"]
        })
        .unwrap_or(usize::MAX);
    assert!(
        shown_from[0].unwrap_or(usize::MAX) >= steps_differ,
        "{name}: a spectator's observation differs (message {:?}) before any step showed it (message {steps_differ})",
        shown_from[0]
    );
    for (v, viewer) in viewers.iter().enumerate() {
        let (sa, sb) = (&a.streams[v], &b.streams[v]);
        let until = shown_from[v].unwrap_or(usize::MAX);
        let same = sa.len().min(sb.len()).min(until);
        for i in 0..same {
            let (ta, tb) = (plain(&sa[i], &a.names), plain(&sb[i], &b.names));
            assert_eq!(
                ta,
                tb,
                "{name}: {viewer:?} heard message {i} differently before the rules showed it the difference (at message {until:?}; position {:?})",
                plies(sa)[i]
            );
        }
        if shown_from[v].is_none() {
            assert_eq!(sa.len(), sb.len(), "{name}: {viewer:?} heard more at one table");
        }
    }
    // The comparison bit: some viewer heard the same for a good while.
    let compared: usize = viewers
        .iter()
        .enumerate()
        .map(|(v, _)| shown_from[v].unwrap_or(a.streams[v].len()).min(a.streams[v].len()))
        .max()
        .unwrap();
    assert!(compared >= 10, "{name}: the tables differed to every viewer within {compared} messages");
}

/// Two full deals that differ only in face-down cards: a reserve card and
/// a hand card at the bottom, traded between the two sides (so each side's
/// unseen cards differ too, not only their order).
fn bank_twins() -> [String; 2] {
    let deal = written_out(11);
    let mut other = deal.clone();
    let (r, h) = (other.players[0].reserve[0], other.players[1].hand[0]);
    assert_ne!(r, h, "the two cards traded differ");
    other.players[0].reserve[0] = h;
    other.players[1].hand[0] = r;
    let level = |deal| RussianBankLevel {
        deal: Deal::Fixed(FixedPosition(deal)),
        move_cap: 240,
        ..RussianBankLevel::shuffled("Twins")
    };
    [level(deal), level(other)].map(|l| LevelFile::new::<RussianBank>(l).layout())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_deals_differing_in_face_down_cards_look_alike() {
    let [a, b] = bank_twins();
    twins::<RussianBank>([&a, &b], "twins-bank", 200).await;
}

/// The shipped hidden-home board with one candidate home a robot, the
/// `which`-th of its letter in reading order.
fn homes_at(which: usize) -> String {
    let text = std::fs::read_to_string(levels().join("robots/12-hidden-homes.ron")).unwrap();
    let start = text.find("board: [").unwrap() + "board: [".len();
    let end = start + text[start..].find(']').unwrap();
    let mut seen = std::collections::HashMap::new();
    let board: String = text[start..end]
        .chars()
        .map(|c| {
            if tabula_engine::robots::level::robot_of_home(c).is_none() {
                return c;
            }
            let n = seen.entry(c).or_insert(0);
            *n += 1;
            if *n == which { c } else { '.' }
        })
        .collect();
    let text = format!("{}{}{}", &text[..start], board, &text[end..]);
    text.replace("homes: Hidden,", "homes: Hidden,\n    move_cap: 120,")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_boards_differing_in_their_hidden_homes_look_alike() {
    let (a, b) = (homes_at(1), homes_at(2));
    assert_ne!(a, b);
    twins::<Robots>([&a, &b], "twins-robots", 100).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_toy_games_other_secrets_look_alike_to_a_seat() {
    games::register::<toy::Tally>();
    // Seat 1's secret is the same at both tables; the others' are not.
    let a = "Tally(name: \"Secrets\", seats: 3, target: 24, secrets: Some([2, 1, 3]))";
    let b = "Tally(name: \"Secrets\", seats: 3, target: 24, secrets: Some([2, 3, 0]))";
    twins::<toy::Tally>([a, b], "twins-toy", 60).await;
}

#[test]
fn plain_puts_placeholders_for_names_and_clock_readings_only() {
    let names = vec!["t0123".to_owned(), "abcd".to_owned()];
    let text = r#"{"table":"t0123","token":"abcd","clock":{"remaining_ms":[5,6],"running":1},"view":[1]}"#;
    assert_eq!(
        plain(text, &names),
        r#"{"table":"<name 0>","token":"<name 1>","clock":{"remaining_ms":[<clock>],"running":1},"view":[1]}"#
    );
}
