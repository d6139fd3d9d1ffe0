//! Bad input changes nothing: each kind of bad message gets its error (or,
//! for floods and oversized frames, the connection is closed), the table is
//! exactly as it was, and the server goes on serving every other table.
//! Then thousands of mangled messages, and the same holds.

mod common;

use common::*;
use serde_json::{Value, json};
use tabula_server::Limits;
use tabula_server::client::Client;
use tabula_server::protocol::Request;
use tokio_tungstenite::tungstenite::Message;

/// A Kalah table with both seats taken; the seats' clients and a spectator.
struct Scene {
    addr: std::net::SocketAddr,
    table: String,
    ann: Client,
    bob: Client,
    watcher: Client,
    /// Seat 1's first legal move.
    first_move: Value,
}

async fn scene(name: &str, limits: Limits) -> Scene {
    let dir = temp_dir(name);
    let mut config = config(&dir);
    config.limits = limits;
    let addr = start(config).await;
    let mut ann = client(addr, "Ann").await;
    let mut bob = client(addr, "Bob").await;
    let table = create(&mut ann, json!({"level": "mancala/small-solved-4x3"})).await;
    join(&mut ann, &table, Some(1)).await;
    join(&mut bob, &table, Some(2)).await;
    // The game begins with the last seat taken: Ann is told her moves.
    let state = next_of(&mut ann, "state").await;
    let watcher = client(addr, "watcher").await;
    Scene { addr, table, ann, bob, watcher, first_move: state["legal"][0]["move"].clone() }
}

/// The table as a spectator sees it now.
async fn seen(scene: &mut Scene) -> Value {
    let mut state = scene.watcher.request(json!({"type": "watch", "table": scene.table})).await.unwrap();
    for volatile in ["re", "seats"] {
        state.as_object_mut().unwrap().remove(volatile);
    }
    state
}

/// The error `client` gets for `message`.
async fn refused(client: &mut Client, message: Value) -> Value {
    let mut message = message;
    message["id"] = json!("probe");
    client.send(&message).await.unwrap();
    loop {
        let answer = client.recv().await.unwrap();
        if answer["re"] == "probe" {
            assert_eq!(answer["type"], "error", "{message} was not refused: {answer}");
            return answer;
        }
    }
}

/// The next error `client` gets (for a message that cannot carry an id).
async fn next_error(client: &mut Client) -> Value {
    next_of(client, "error").await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn each_kind_of_bad_request_gets_its_error_and_changes_nothing() {
    let mut s = scene("kinds", Limits::default()).await;
    let before = seen(&mut s).await;
    let t = s.table.clone();
    let first_move = s.first_move.clone();
    assert!(!first_move.is_null());
    let cases: Vec<(Value, &str)> = vec![
        (json!({"type": "fly"}), "bad_request"),
        (json!({"type": "move", "table": t}), "bad_request"),
        (json!({"type": "move", "table": t, "move": {"Nonsense": 1}}), "bad_request"),
        (json!({"type": "move", "table": t, "move": first_move, "extra": 1}), "bad_request"),
        (json!({"type": "move", "table": "t000000000000", "move": first_move}), "no_table"),
        (json!({"type": "move", "table": t, "move": first_move, "seat": 2}), "not_seated"),
        (json!({"type": "move", "table": t, "move": first_move, "ply": 7}), "stale"),
        (json!({"type": "join", "table": t}), "no_seat"),
        (json!({"type": "resume", "token": "00000000000000000000000000000000"}), "bad_token"),
        (json!({"type": "join", "table": t, "seat": 9}), "no_seat"),
        (json!({"type": "watch", "table": "nope"}), "no_table"),
        (json!({"type": "create", "level": "../../etc/passwd"}), "bad_level"),
        (json!({"type": "create", "level": "/etc/passwd"}), "bad_level"),
        (json!({"type": "create", "level_text": "Mancala(name: \"x\", pits: [], )"}), "bad_level"),
        (json!({"type": "create", "level_text": "x".repeat(20_000)}), "bad_level"),
        (
            json!({"type": "create", "level": "nim/beginner-2-3", "seats": ["person", "grandmaster"]}),
            "bad_agent",
        ),
        (json!({"type": "create", "level": "nim/beginner-2-3", "seats": ["person"]}), "bad_request"),
        (json!({"type": "take_back", "table": t}), "take_back"),
        (json!({"type": "answer", "table": t, "accept": true}), "take_back"),
        (json!({"type": "rematch", "table": t}), "bad_request"),
        (json!({"type": "replay", "table": t}), "not_over"),
        (json!({"type": "replay", "table": "nope"}), "no_table"),
        (json!({"type": "hello", "version": 1}), "bad_request"),
    ];
    for (message, code) in cases {
        let answer = refused(&mut s.ann, message.clone()).await;
        assert_eq!(answer["code"], code, "{message}: {answer}");
        assert!(!answer["message"].as_str().unwrap().is_empty());
    }
    // Bob moving out of turn, and Ann's illegal move (a pit of Bob's side).
    let answer = refused(&mut s.bob, json!({"type": "move", "table": t, "move": first_move})).await;
    assert_eq!(answer["code"], "not_your_turn", "{answer}");
    let answer = refused(&mut s.ann, json!({"type": "move", "table": t, "move": 40})).await;
    assert!(["illegal", "bad_request"].contains(&answer["code"].as_str().unwrap()), "{answer}");
    // Not JSON at all, and a binary frame: no id to answer, still an error.
    s.ann.send_raw(Message::text("{not json")).await.unwrap();
    assert_eq!(next_error(&mut s.ann).await["code"], "bad_json");
    s.ann.send_raw(Message::binary(vec![1, 2, 3])).await.unwrap();
    assert_eq!(next_error(&mut s.ann).await["code"], "bad_json");
    // A level error names the line and column.
    let answer =
        refused(&mut s.ann, json!({"type": "create", "level_text": "Nim(\n  piles: [1,, 2],\n)"})).await;
    assert!(answer["message"].as_str().unwrap().contains("the level sent:2:"), "{answer}");
    assert_eq!(seen(&mut s).await, before, "bad input changed the table");
    // And the table plays on: Ann's move is taken.
    let moved =
        s.ann.request(json!({"type": "move", "table": t, "move": first_move, "ply": 0})).await.unwrap();
    assert_eq!(moved["type"], "moved");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_message_before_hello_is_refused() {
    let s = scene("hello", Limits::default()).await;
    let tcp = tokio::net::TcpStream::connect(s.addr).await.unwrap();
    let (mut socket, _) = tokio_tungstenite::client_async(url(s.addr), tcp).await.unwrap();
    use futures_util::{SinkExt, StreamExt};
    socket.send(Message::text(json!({"type": "levels"}).to_string())).await.unwrap();
    let Some(Ok(Message::Text(answer))) = socket.next().await else { panic!("no answer") };
    let answer: Value = serde_json::from_str(&answer).unwrap();
    assert_eq!(answer["code"], "hello_first", "{answer}");
    socket.send(Message::text(json!({"type": "hello", "version": 99}).to_string())).await.unwrap();
    let Some(Ok(Message::Text(answer))) = socket.next().await else { panic!("no answer") };
    let answer: Value = serde_json::from_str(&answer).unwrap();
    assert_eq!(answer["code"], "version", "{answer}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_oversized_frame_closes_only_its_connection() {
    let mut s = scene("size", Limits::default()).await;
    let before = seen(&mut s).await;
    let mut big = client(s.addr, "big").await;
    let _ = big
        .send_raw(Message::text(format!("{{\"type\": \"ping\", \"pad\": \"{}\"}}", "x".repeat(70_000))))
        .await;
    let error = big.recv().await;
    let closed = match error {
        Ok(m) => {
            assert_eq!(m["code"], "too_large", "{m}");
            big.recv().await.is_err()
        }
        Err(_) => true,
    };
    assert!(closed, "the connection is closed");
    assert_eq!(seen(&mut s).await, before);
    assert_eq!(s.ann.request(json!({"type": "ping"})).await.unwrap()["type"], "pong");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_flood_of_refusals_or_guessed_tokens_is_cut_off() {
    let mut s = scene("flood", Limits::default()).await;
    let before = seen(&mut s).await;
    let mut flooder = client(s.addr, "flood").await;
    let mut closed = false;
    for _ in 0..2000 {
        if flooder.send(&json!({"type": "move", "table": s.table, "move": 1})).await.is_err() {
            closed = true;
            break;
        }
    }
    let mut codes = Vec::new();
    while let Ok(Ok(m)) = tokio::time::timeout(std::time::Duration::from_secs(5), flooder.recv()).await {
        codes.push(m["code"].as_str().unwrap_or_default().to_owned());
    }
    assert!(
        closed || codes.iter().any(|c| c == "flood"),
        "the flood was not cut off: {:?}",
        &codes[codes.len().saturating_sub(3)..]
    );
    let mut guesser = client(s.addr, "guess").await;
    let mut cut = false;
    for i in 0..20 {
        match guesser.request(json!({"type": "resume", "token": format!("{i:032x}")})).await {
            Err(e) if e.to_string().contains("no seat has this token") => {}
            Err(_) => {
                cut = true;
                break;
            }
            Ok(m) => panic!("a guessed token took a seat: {m}"),
        }
    }
    assert!(cut, "guessing tokens is cut off");
    assert_eq!(seen(&mut s).await, before);
    assert_eq!(s.bob.request(json!({"type": "ping"})).await.unwrap()["type"], "pong");
}

/// A valid request with some part changed at random.
fn mangle(rng: &mut impl rand::Rng, table: &str) -> Message {
    let types: Vec<&str> = Request::TYPES.into_iter().chain(["x", ""]).collect();
    let values = [
        json!(null),
        json!(1),
        json!(-1),
        json!(1e300),
        json!("x"),
        json!(table),
        json!([]),
        json!({}),
        json!(true),
        json!({"Play": {"from": "Hand", "to": {"Tableau": 9}}}),
        json!(u64::MAX),
        json!("t000000000000"),
    ];
    let fields = [
        "table",
        "seat",
        "move",
        "ply",
        "token",
        "level",
        "level_text",
        "seats",
        "accept",
        "version",
        "clock",
        "grace",
        "takeover",
        "id",
    ];
    let mut m = json!({"type": types[rng.random_range(0..types.len())]});
    for _ in 0..rng.random_range(0..4) {
        m[fields[rng.random_range(0..fields.len())]] = values[rng.random_range(0..values.len())].clone();
    }
    let text = m.to_string();
    match rng.random_range(0..6) {
        0 => Message::text(text[..rng.random_range(0..text.len())].to_owned()),
        1 => Message::binary((0..rng.random_range(0..64)).map(|_| rng.random::<u8>()).collect::<Vec<_>>()),
        _ => Message::text(text),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn thousands_of_mangled_messages_change_nothing() {
    let limits =
        Limits { refusals_per_second: 1e6, messages_per_second: 1e6, burst: 1e6, ..Limits::default() };
    let mut s = scene("fuzz", limits).await;
    let before = seen(&mut s).await;
    let mut rng = tabula_engine::core::rng_from_seed(28);
    let mut sent = 0;
    for round in 0..10 {
        let mut fuzzer = client(s.addr, &format!("fuzz {round}")).await;
        for _ in 0..500 {
            if fuzzer.send_raw(mangle(&mut rng, &s.table)).await.is_err() {
                break;
            }
            sent += 1;
        }
        let _ = fuzzer.request(json!({"type": "ping"})).await;
    }
    assert!(sent >= 3000, "only {sent} sent");
    assert_eq!(seen(&mut s).await, before, "the fuzzing changed the table");
    let legal = s.ann.request(json!({"type": "resume", "token": "x"})).await;
    assert!(legal.is_err());
    // The seats still play.
    let mut probe = client(s.addr, "after").await;
    assert_eq!(probe.request(json!({"type": "levels"})).await.unwrap()["type"], "levels");
}

/// The answer `client` gets for the raw text `text`, as it came.
async fn raw_answer(client: &mut Client, text: &str) -> String {
    client.send_raw(Message::text(text.to_owned())).await.unwrap();
    client.recv_text().await.unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn unknown_fields_and_moves_written_otherwise_are_refused() {
    let dir = temp_dir("unknown");
    let addr = start(config(&dir)).await;
    let mut ann = client(addr, "Ann").await;
    let mut bob = client(addr, "Bob").await;
    let answer = refused(&mut ann, json!({"type": "ping", "bogus": true})).await;
    assert_eq!(answer["code"], "bad_request", "{answer}");
    assert!(answer["message"].as_str().unwrap().contains("bogus"), "the field is named: {answer}");
    let answer = refused(&mut ann, json!({"type": "levels", "bogus": 1})).await;
    assert_eq!(answer["code"], "bad_request", "{answer}");
    let table = create(&mut ann, json!({"level": "nim/beginner-2-3"})).await;
    join(&mut ann, &table, Some(1)).await;
    join(&mut bob, &table, Some(2)).await;
    for mv in [json!({"pile": 0, "count": 1, "bogus": 9}), json!([1, 1]), json!({"pile": 1})] {
        let answer = refused(&mut ann, json!({"type": "move", "table": table, "move": mv})).await;
        assert_eq!(answer["code"], "bad_request", "{mv}: {answer}");
    }
    // Nothing was played: the first move is still move 1.
    let moved = ann
        .request(json!({"type": "move", "table": table, "move": {"pile": 1, "count": 1}, "ply": 0}))
        .await
        .unwrap();
    assert_eq!(moved["ply"], 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_id_comes_back_exactly_or_is_refused() {
    let dir = temp_dir("ids");
    let addr = start(config(&dir)).await;
    let mut ann = client(addr, "Ann").await;
    for id in ["18446744073709551615", "-9223372036854775808", "0", "\"a \\\"quoted\\\" id\""] {
        let answer = raw_answer(&mut ann, &format!("{{\"type\": \"ping\", \"id\": {id}}}")).await;
        assert!(answer.contains(&format!("\"re\":{id}")), "{id} came back as {answer}");
        assert!(answer.contains("\"type\":\"pong\""), "{answer}");
    }
    for id in ["18446744073709551623", "1.5", "1e3", "null", "[1]", "{}"] {
        let answer = raw_answer(&mut ann, &format!("{{\"type\": \"ping\", \"id\": {id}}}")).await;
        let answer: Value = serde_json::from_str(&answer).unwrap();
        assert_eq!(answer["code"], "bad_request", "id {id}: {answer}");
        assert!(answer.get("re").is_none(), "{answer}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn names_seats_and_a_second_hello_are_refused_not_guessed() {
    let dir = temp_dir("names");
    let addr = start(config(&dir)).await;
    let mut ann = client(addr, "Ann").await;
    let answer = refused(&mut ann, json!({"type": "hello", "version": 1, "name": "Ann"})).await;
    assert_eq!(answer["code"], "bad_request", "a second hello: {answer}");
    let table = create(&mut ann, json!({"level": "nim/beginner-2-3"})).await;
    let long = "x".repeat(41);
    let answer = refused(&mut ann, json!({"type": "join", "table": table, "name": long})).await;
    assert_eq!(answer["code"], "bad_request", "{answer}");
    assert!(answer["message"].as_str().unwrap().contains("40"), "{answer}");
    let forty = "é".repeat(40);
    let joined = ann.request(json!({"type": "join", "table": table, "name": forty})).await.unwrap();
    assert_eq!(joined["type"], "joined");
    let answer = refused(&mut ann, json!({"type": "create", "level": "nim/beginner-2-3", "seats": []})).await;
    assert_eq!(answer["code"], "bad_request", "no seat named: {answer}");
    // A hello with a long name is refused, and the connection is not greeted.
    let tcp = tokio::net::TcpStream::connect(addr).await.unwrap();
    let (mut socket, _) = tokio_tungstenite::client_async(url(addr), tcp).await.unwrap();
    use futures_util::{SinkExt, StreamExt};
    let hello = json!({"type": "hello", "version": 1, "name": "y".repeat(41)});
    socket.send(Message::text(hello.to_string())).await.unwrap();
    let Some(Ok(Message::Text(answer))) = socket.next().await else { panic!("no answer") };
    assert!(answer.contains("bad_request"), "{answer}");
    socket.send(Message::text(json!({"type": "levels"}).to_string())).await.unwrap();
    let Some(Ok(Message::Text(answer))) = socket.next().await else { panic!("no answer") };
    assert!(answer.contains("hello_first"), "{answer}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_burst_of_refusals_hears_flood_and_a_policy_close() {
    let dir = temp_dir("burst");
    let addr = start(config(&dir)).await;
    let tcp = tokio::net::TcpStream::connect(addr).await.unwrap();
    let (socket, _) = tokio_tungstenite::client_async(url(addr), tcp).await.unwrap();
    use futures_util::{SinkExt, StreamExt};
    let (mut sink, mut frames) = socket.split();
    sink.send(Message::text(json!({"type": "hello", "version": 1}).to_string())).await.unwrap();
    // All at once, none read meanwhile.
    for _ in 0..131 {
        if sink.feed(Message::text(json!({"type": "fly"}).to_string())).await.is_err() {
            break;
        }
    }
    let _ = sink.flush().await;
    let (mut flood, mut close) = (false, None);
    while let Ok(Some(frame)) = tokio::time::timeout(std::time::Duration::from_secs(10), frames.next()).await
    {
        match frame {
            Ok(Message::Text(text)) => flood |= text.contains("\"code\":\"flood\""),
            Ok(Message::Close(frame)) => {
                close = frame.map(|f| u16::from(f.code));
                break;
            }
            Ok(_) => {}
            Err(e) => panic!("the connection ended without a close: {e}"),
        }
    }
    assert!(flood, "no flood error came");
    assert_eq!(close, Some(1008), "closed as a policy violation");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_connection_past_its_address_limit_hears_why() {
    let dir = temp_dir("per-address");
    let mut config = config(&dir);
    config.limits.connections_per_address = 2;
    let addr = start(config).await;
    let first = client(addr, "one").await;
    let _second = client(addr, "two").await;
    let refused = Client::connect(&url(addr), None, "three").await.err().expect("a third is refused");
    let http = refused
        .chain()
        .find_map(|e| e.downcast_ref::<tokio_tungstenite::tungstenite::Error>())
        .expect("a WebSocket error");
    let tokio_tungstenite::tungstenite::Error::Http(response) = http else { panic!("{http}") };
    assert_eq!(response.status(), 503);
    let body = String::from_utf8_lossy(response.body().as_deref().unwrap_or_default()).into_owned();
    assert!(body.contains("at most 2"), "{body}");
    drop(first);
    // Once one goes, another may come.
    let mut again = None;
    for _ in 0..50 {
        if let Ok(c) = Client::connect(&url(addr), None, "again").await {
            again = Some(c);
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
    assert!(again.is_some());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_welcome_names_every_limit() {
    let dir = temp_dir("welcome");
    let addr = start(config(&dir)).await;
    let ann = client(addr, "Ann").await;
    let limits = ann.welcome["limits"].as_object().unwrap();
    for key in [
        "message_bytes",
        "level_bytes",
        "messages_per_second",
        "burst",
        "refusals_per_second",
        "tables_per_connection",
        "connections_per_address",
        "wrong_tokens",
        "tables",
        "hosted_level_bytes",
        "legal_moves",
        "plies",
        "sent_bytes",
    ] {
        assert!(limits.contains_key(key), "{key} missing from {limits:?}");
    }
    assert_eq!(limits.len(), 13, "{limits:?}");
}
