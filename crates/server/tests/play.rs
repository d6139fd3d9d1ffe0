//! Whole games over the network: people (played by agents through the
//! client) and the server's own agents, every game to its end.

mod common;

use common::*;
use serde_json::json;
use tabula_server::client::play_seat;
use tabula_server::protocol::{EndReason, Message};

/// A state as the client reads it, typed.
fn typed(state: serde_json::Value) -> Message {
    serde_json::from_value(state).unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_clients_play_a_whole_game_of_nim_and_agree_on_the_end() {
    let dir = temp_dir("nim");
    let addr = start(config(&dir)).await;
    let mut ann = client(addr, "Ann").await;
    let mut bob = client(addr, "Bob").await;
    let table = create(&mut ann, json!({"level": "nim/beginner-2-3"})).await;
    let (_, ann_state) = join(&mut ann, &table, Some(1)).await;
    let (_, bob_state) = join(&mut bob, &table, None).await;
    assert_eq!(bob_state["seat"], 2);
    let spec = "random".parse().unwrap();
    let t = table.clone();
    let bob_game =
        tokio::spawn(
            async move { play_seat(&mut bob, &t, typed(bob_state), &spec, &mut |_| {}).await.unwrap() },
        );
    let ann_game =
        play_seat(&mut ann, &table, typed(ann_state), &"random".parse().unwrap(), &mut |_| {}).await.unwrap();
    let bob_game = bob_game.await.unwrap();
    assert_eq!(ann_game.result, bob_game.result);
    assert_eq!(ann_game.result.reason, EndReason::Rules);
    assert!(ann_game.moves + bob_game.moves > 0);
    let replay = std::fs::read_to_string(dir.join("replays").join(format!("{table}.ron"))).unwrap();
    assert!(replay.contains("moves: ["), "{replay}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_person_plays_russian_bank_against_the_servers_agent() {
    let dir = temp_dir("bank-agent");
    let addr = start(config(&dir)).await;
    let mut ann = client(addr, "Ann").await;
    let level = "RussianBank(name: \"Quick\", deal: Shuffled, stop_rule: true, move_cap: 400)";
    let table = create(&mut ann, json!({"level_text": level, "seats": ["person", "greedy"]})).await;
    let (_, state) = join(&mut ann, &table, None).await;
    let game =
        play_seat(&mut ann, &table, typed(state), &"greedy".parse().unwrap(), &mut |_| {}).await.unwrap();
    assert_eq!(game.result.reason, EndReason::Rules, "{:?}", game.result);
}
