//! What a table does beyond the game: clocks that flag, take-backs only
//! with consent, resigning, rematches with the seats moved round, agents
//! standing in for a player gone past the grace period, and every move in
//! the database before it is acknowledged, so that a server stopped dead
//! plays on from where it was.

mod common;

use std::time::Duration;

use common::*;
use serde_json::{Value, json};
use tabula_server::client::Client;

const NIM: &str = "nim/beginner-2-3";

/// Ann in seat 1 and Bob in seat 2 of a new table of `level`.
async fn pair(addr: std::net::SocketAddr, spec: Value) -> (String, Client, String, Client, String) {
    let mut ann = client(addr, "Ann").await;
    let mut bob = client(addr, "Bob").await;
    let table = create(&mut ann, spec).await;
    let (ann_token, _) = join(&mut ann, &table, Some(1)).await;
    let (bob_token, _) = join(&mut bob, &table, Some(2)).await;
    (table, ann, ann_token, bob, bob_token)
}

async fn play(c: &mut Client, table: &str, pile: u8, count: u8) -> Value {
    c.request(json!({"type": "move", "table": table, "move": {"pile": pile, "count": count}})).await.unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_game_begins_once_every_seat_is_taken() {
    let dir = temp_dir("waiting");
    let addr = start(config(&dir)).await;
    let mut ann = client(addr, "Ann").await;
    let table = create(&mut ann, json!({"level": NIM, "clock": {"minutes": 0.002}})).await;
    let (_, state) = join(&mut ann, &table, Some(1)).await;
    assert_eq!(state["legal"], json!([]), "no moves while a seat is open");
    assert_eq!(state["clock"]["running"], Value::Null, "no clock runs while a seat is open");
    let early = ann.request(json!({"type": "move", "table": table, "move": {"pile": 0, "count": 1}})).await;
    assert!(early.unwrap_err().to_string().contains("every seat is taken"));
    // Longer than the whole clock: it has not started.
    tokio::time::sleep(Duration::from_millis(300)).await;
    let mut bob = client(addr, "Bob").await;
    let (_, bobs) = join(&mut bob, &table, Some(2)).await;
    let begun = next_of(&mut ann, "state").await;
    assert_eq!(begun["legal"].as_array().unwrap().len(), 5, "{begun}");
    assert_eq!(begun["clock"]["running"], 1);
    // The last to sit sees the clock run from the same moment, as in a rematch.
    assert_eq!(bobs["clock"]["running"], 1, "{bobs}");
    let moved = play(&mut ann, &table, 0, 1).await;
    assert_eq!(moved["ply"], 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_seat_whose_time_runs_out_loses() {
    let dir = temp_dir("clock");
    let addr = start(config(&dir)).await;
    let clock = json!({"level": NIM, "clock": {"minutes": 0.004, "increment": 0}});
    let (table, mut ann, _, mut bob, _) = pair(addr, clock).await;
    let moved = play(&mut ann, &table, 1, 1).await;
    assert_eq!(moved["clock"]["running"], 2);
    let ended = tokio::time::timeout(Duration::from_secs(5), next_of(&mut bob, "ended")).await.unwrap();
    assert_eq!(ended["result"], json!({"winner": 1, "reason": "time", "by": 2, "scores": []}));
    let late = bob.request(json!({"type": "move", "table": table, "move": {"pile": 0, "count": 1}})).await;
    assert!(late.unwrap_err().to_string().contains("is over"));
    let four = json!({"type": "create", "level": "robots/10-four-player-race", "clock": {"minutes": 5}});
    let refused = ann.request(four).await.unwrap_err();
    assert!(refused.to_string().contains("two seats"), "{refused}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_take_back_needs_the_other_seats_consent() {
    let dir = temp_dir("take-back");
    let addr = start(config(&dir)).await;
    let (table, mut ann, _, mut bob, _) = pair(addr, json!({"level": NIM})).await;
    play(&mut ann, &table, 1, 1).await;
    let asked = ann.request(json!({"type": "take_back", "table": table})).await.unwrap();
    assert_eq!(asked["type"], "take_back_asked");
    assert_eq!(asked["to_ply"], 0);
    // While it is asked, Bob may not have Ann answer for him, nor ask twice.
    assert!(ann.request(json!({"type": "answer", "table": table, "accept": true})).await.is_err());
    let declined = bob.request(json!({"type": "answer", "table": table, "accept": false})).await.unwrap();
    assert_eq!(declined["type"], "take_back_declined");
    let state = bob.request(json!({"type": "watch", "table": table})).await.unwrap();
    assert_eq!(state["ply"], 1, "a declined take-back changes nothing");
    ann.request(json!({"type": "take_back", "table": table})).await.unwrap();
    let taken = bob.request(json!({"type": "answer", "table": table, "accept": true})).await.unwrap();
    assert_eq!(taken["type"], "taken_back");
    let state = next_of(&mut ann, "state").await;
    assert_eq!((state["ply"].clone(), state["to_move"].clone()), (json!(0), json!(1)));
    assert_eq!(state["view"]["piles"], json!([2, 3]));
    // Bob has made no move to take back.
    let none = bob.request(json!({"type": "take_back", "table": table})).await.unwrap_err();
    assert!(none.to_string().contains("no move"), "{none}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn resigning_ends_the_game_and_a_rematch_moves_the_seats_round() {
    let dir = temp_dir("rematch");
    let addr = start(config(&dir)).await;
    let (table, mut ann, ann_token, mut bob, _) = pair(addr, json!({"level": NIM})).await;
    let ended = bob.request(json!({"type": "resign", "table": table})).await.unwrap();
    assert_eq!(ended["result"]["reason"], "resigned");
    assert_eq!(ended["result"]["winner"], 1);
    let asked = ann.request(json!({"type": "rematch", "table": table})).await.unwrap();
    assert_eq!(asked["type"], "rematch_asked");
    let bobs = bob.request(json!({"type": "rematch", "table": table})).await.unwrap();
    assert_eq!(bobs["type"], "rematch");
    assert_eq!(bobs["seat"], 1, "Bob moves from seat 2 to seat 1");
    let anns = next_of(&mut ann, "rematch").await;
    assert_eq!(anns["seat"], 2);
    assert_eq!(anns["new_table"], bobs["new_table"]);
    let new_table = bobs["new_table"].as_str().unwrap().to_owned();
    // Both follow the new table already; Bob, now seat 1, moves first.
    let moved = play(&mut bob, &new_table, 0, 2).await;
    assert_eq!(moved["seat"], 1);
    let old = client(addr, "again").await.request(json!({"type": "resume", "token": ann_token})).await;
    assert!(old.is_err(), "the old table's token seats no one now");
    let replay = dir.join("replays").join(format!("{table}.ron"));
    assert!(std::fs::read_to_string(replay).unwrap().contains("Nim("));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_replay_is_given_after_the_end_and_a_spectator_follows_into_the_rematch() {
    use tabula_engine::nim::Take;
    let dir = temp_dir("replay-asked");
    let addr = start(config(&dir)).await;
    let (table, mut ann, _, mut bob, _) = pair(addr, json!({"level": NIM})).await;
    let mut cy = client(addr, "Cy").await;
    cy.request(json!({"type": "watch", "table": table})).await.unwrap();
    play(&mut ann, &table, 1, 1).await;
    let early = ann.request(json!({"type": "replay", "table": table})).await.unwrap_err();
    assert!(early.to_string().contains("is not over"), "{early}");
    let moved = play(&mut bob, &table, 0, 2).await;
    assert_eq!(moved["ply"], 2, "a replay refused changed nothing");
    bob.request(json!({"type": "resign", "table": table})).await.unwrap();
    let outside = client(addr, "Dee").await.request(json!({"type": "replay", "table": table})).await;
    assert!(outside.unwrap_err().to_string().contains("do not follow"));
    for c in [&mut ann, &mut cy] {
        let given = c.request(json!({"type": "replay", "table": table})).await.unwrap();
        assert_eq!((given["type"].as_str(), given["table"].as_str()), (Some("replay"), Some(table.as_str())));
        let replay =
            tabula_engine::replay::parse::<Take>(given["replay"].as_str().unwrap(), "given").unwrap();
        assert_eq!(replay.moves, [Take { pile: 1, count: 1 }, Take { pile: 0, count: 2 }]);
        assert_eq!(replay.players.iter().map(|p| p.name.as_str()).collect::<Vec<_>>(), ["Ann", "Bob"]);
    }
    ann.request(json!({"type": "rematch", "table": table})).await.unwrap();
    let bobs = bob.request(json!({"type": "rematch", "table": table})).await.unwrap();
    let told = next_of(&mut cy, "rematch").await;
    assert_eq!(told["new_table"], bobs["new_table"]);
    assert!(told.get("seat").is_none() && told.get("token").is_none(), "a spectator holds no seat: {told}");
    let state = next_of(&mut cy, "state").await;
    assert_eq!(state["table"], bobs["new_table"]);
    assert_eq!(state["seat"], Value::Null);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_agent_stands_in_for_a_player_gone_past_the_grace_period() {
    let dir = temp_dir("grace");
    let addr = start(config(&dir)).await;
    let spec = json!({"level": "nim/mcmorran-5-6-7", "grace": 0, "takeover": "random"});
    let (table, ann, ann_token, mut bob, _) = pair(addr, spec).await;
    drop(ann);
    let seats = loop {
        let m = tokio::time::timeout(Duration::from_secs(5), next_of(&mut bob, "seats")).await.unwrap();
        if m["seats"][0]["standing_in"] == "random" {
            break m;
        }
    };
    assert_eq!(seats["seats"][0]["connected"], false);
    // The stand-in moves for Ann, who was to move.
    let moved = tokio::time::timeout(Duration::from_secs(5), next_of(&mut bob, "moved")).await.unwrap();
    assert_eq!(moved["seat"], 1);
    // Ann comes back: her seat is hers again.
    let mut back = client(addr, "Ann").await;
    back.request(json!({"type": "resume", "token": ann_token})).await.unwrap();
    let state = next_of(&mut back, "state").await;
    assert!(state["seats"][0].get("standing_in").is_none(), "{state}");
    assert_eq!(state["table"], table.as_str());
}

fn moves_in_database(dir: &std::path::Path, table: &str) -> i64 {
    let db = rusqlite::Connection::open(dir.join("server.db")).unwrap();
    db.query_row("SELECT COUNT(*) FROM moves WHERE table_id = ?1", [table], |r| r.get(0)).unwrap()
}

#[test]
fn every_acknowledged_move_is_on_disk_and_a_stopped_server_plays_on() {
    let dir = temp_dir("durable");
    let mut config = config(&dir);
    let first = tokio::runtime::Runtime::new().unwrap();
    let addr = first.block_on(start(config.clone()));
    let (table, ann_token, bob_token) = first.block_on(async {
        let (table, mut ann, ann_token, mut bob, bob_token) =
            pair(addr, json!({"level": "nim/mcmorran-5-6-7"})).await;
        for i in 0..3u8 {
            let c = if i % 2 == 0 { &mut ann } else { &mut bob };
            let moved = play(c, &table, i, 1).await;
            // Acknowledged: so in the database already.
            assert_eq!(moves_in_database(&dir, &table), moved["ply"].as_i64().unwrap());
        }
        (table, ann_token, bob_token)
    });
    // Stopped dead: no task of the server runs again.
    first.shutdown_background();
    config.listen.set_port(0);
    let second = tokio::runtime::Runtime::new().unwrap();
    second.block_on(async {
        let addr = start(config).await;
        let mut bob = client(addr, "Bob").await;
        bob.request(json!({"type": "resume", "token": bob_token})).await.unwrap();
        let state = next_of(&mut bob, "state").await;
        assert_eq!(state["ply"], 3);
        assert_eq!(state["view"]["piles"], json!([4, 5, 6]));
        assert_eq!(state["to_move"], 2);
        let mut ann = client(addr, "Ann").await;
        ann.request(json!({"type": "resume", "token": ann_token})).await.unwrap();
        let moved = play(&mut bob, &table, 2, 6).await;
        assert_eq!(moved["ply"], 4);
    });
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn one_connection_holding_two_seats_hears_as_both() {
    let dir = temp_dir("two-seats");
    let addr = start(config(&dir)).await;
    let mut both = client(addr, "Both").await;
    let table = create(&mut both, json!({"level": NIM})).await;
    join(&mut both, &table, Some(1)).await;
    let (_, second) = join(&mut both, &table, Some(2)).await;
    assert_eq!(second["seat"], 2);
    // The game began with seat 2: seat 1 is told its moves.
    let begun = loop {
        let m = both.recv().await.unwrap();
        if m["type"] == "state" && m["seat"] == 1 {
            break m;
        }
    };
    assert_eq!(begun["legal"].as_array().unwrap().len(), 5, "{begun}");
    // Each seat's copy of each move.
    both.send(&json!({"type": "move", "table": table, "seat": 1, "move": {"pile": 1, "count": 1}, "ply": 0}))
        .await
        .unwrap();
    let (mut one, mut two) = (None, None);
    while one.is_none() || two.is_none() {
        let m = both.recv().await.unwrap();
        if m["type"] == "moved" {
            if m["legal"].as_array().unwrap().is_empty() { one = Some(m) } else { two = Some(m) }
        }
    }
    assert_eq!(two.unwrap()["legal"].as_array().unwrap().len(), 4);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn resuming_a_held_seat_displaces_the_connection_that_held_it() {
    let dir = temp_dir("displace");
    let addr = start(config(&dir)).await;
    let (table, mut ann, ann_token, _bob, _) = pair(addr, json!({"level": NIM})).await;
    let mut again = client(addr, "Ann again").await;
    again.request(json!({"type": "resume", "token": ann_token})).await.unwrap();
    let displaced = next_of(&mut ann, "displaced").await;
    assert_eq!(displaced["seat"], 1);
    assert_eq!(displaced["table"], table.as_str());
    let old = ann.request(json!({"type": "move", "table": table, "move": {"pile": 0, "count": 1}})).await;
    assert!(old.unwrap_err().to_string().contains("not_seated"));
    let moved = play(&mut again, &table, 0, 1).await;
    assert_eq!(moved["ply"], 1);
}

/// Every seat's time left, as the state `client` gets on resuming `token`.
async fn clocks_on_resuming(addr: std::net::SocketAddr, token: &str) -> Vec<i64> {
    let mut c = client(addr, "back").await;
    c.request(json!({"type": "resume", "token": token})).await.unwrap();
    let state = next_of(&mut c, "state").await;
    serde_json::from_value(state["clock"]["remaining_ms"].clone()).unwrap()
}

#[test]
fn a_take_back_keeps_the_clocks_and_a_restart_gives_them_back() {
    let dir = temp_dir("clock-restart");
    let mut config = config(&dir);
    let first = tokio::runtime::Runtime::new().unwrap();
    let addr = first.block_on(start(config.clone()));
    let (live, ann_token) = first.block_on(async {
        let spec = json!({"level": NIM, "clock": {"minutes": 10, "increment": 30}});
        let (table, mut ann, ann_token, mut bob, _) = pair(addr, spec).await;
        play(&mut ann, &table, 1, 1).await;
        ann.request(json!({"type": "take_back", "table": table})).await.unwrap();
        bob.request(json!({"type": "answer", "table": table, "accept": true})).await.unwrap();
        next_of(&mut ann, "taken_back").await;
        let state = next_of(&mut ann, "state").await;
        assert_eq!(state["ply"], 0);
        let live: Vec<i64> = serde_json::from_value(state["clock"]["remaining_ms"].clone()).unwrap();
        (live, ann_token)
    });
    // The increment earned by the move taken back stays earned.
    assert!(live[0] > 600_000 + 25_000, "{live:?}");
    first.shutdown_background();
    config.listen.set_port(0);
    let second = tokio::runtime::Runtime::new().unwrap();
    second.block_on(async {
        let addr = start(config).await;
        let restarted = clocks_on_resuming(addr, &ann_token).await;
        // What the live server had at the take-back, less the moments since.
        for (seat, (&was, &now)) in live.iter().zip(&restarted).enumerate() {
            assert!(now <= was && was - now < 5_000, "seat {}: {live:?} became {restarted:?}", seat + 1);
        }
    });
}

/// `tables` lists the tables their creators listed, an open seat first,
/// until the game is over; a table not listed is never in it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_lobby_lists_listed_tables_until_their_game_is_over() {
    let dir = temp_dir("lobby");
    let addr = start(config(&dir)).await;
    let mut ann = client(addr, "Ann").await;
    let hidden = create(&mut ann, json!({"level": NIM})).await;
    let full = create(&mut ann, json!({"level": NIM, "seats": ["person", "random"], "listed": true})).await;
    let open = create(&mut ann, json!({"level": NIM, "listed": true, "spectators": false})).await;
    join(&mut ann, &full, Some(1)).await;
    let mut bob = client(addr, "Bob").await;
    let lobby = bob.request(json!({"type": "tables"})).await.unwrap();
    let ids: Vec<&str> =
        lobby["tables"].as_array().unwrap().iter().map(|t| t["table"].as_str().unwrap()).collect();
    assert_eq!(ids, [open.as_str(), full.as_str()], "listed only, an open seat first: {lobby}");
    assert!(!ids.contains(&hidden.as_str()));
    let first = &lobby["tables"][0];
    assert_eq!((first["open"].clone(), first["spectators"].clone()), (json!(2), json!(false)));
    assert_eq!((first["game"].clone(), first["level"].clone()), (json!("Nim"), json!("Beginner 2-3")));
    assert_eq!(
        lobby["tables"][1]["seats"][1],
        json!({"seat": 2, "kind": "agent", "name": "random", "taken": true, "connected": true})
    );
    // Ann resigns the full table's game: it is over, and off the list.
    ann.request(json!({"type": "resign", "table": full})).await.unwrap();
    let lobby = bob.request(json!({"type": "tables"})).await.unwrap();
    assert_eq!(lobby["tables"].as_array().unwrap().len(), 1, "{lobby}");
}
