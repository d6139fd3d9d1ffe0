//! A database that refuses a write (here: one grown to its size limit, as
//! a full disk does) stops the server taking moves: every client is told
//! why, every request after is refused with `halted`, nothing more is
//! acknowledged, and `serve` (so `tabula serve`) returns the reason as an
//! error instead of ending the process under whoever hosts it.

mod common;

use std::time::Duration;

use common::*;
use serde_json::json;

#[test]
fn a_full_database_halts_the_server_and_every_client_hears_why() {
    let dir = temp_dir("halt");
    let mut config = config(&dir);
    config.database_bytes = Some(192 * 1024);
    config.limits.tables_per_connection = 1000;
    let (ready, addr) = std::sync::mpsc::channel();
    let serving =
        std::thread::spawn(move || tabula_server::serve(config, |addr, _| ready.send(addr).unwrap()));
    let addr = addr.recv_timeout(Duration::from_secs(20)).unwrap();
    let runtime = tokio::runtime::Runtime::new().unwrap();
    runtime.block_on(async {
        // A game in progress at another table.
        let mut ann = client(addr, "Ann").await;
        let mut bob = client(addr, "Bob").await;
        let table = create(&mut ann, json!({"level": "nim/beginner-2-3"})).await;
        join(&mut ann, &table, Some(1)).await;
        join(&mut bob, &table, Some(2)).await;
        let moved = ann
            .request(json!({"type": "move", "table": table, "move": {"pile": 1, "count": 1}}))
            .await
            .unwrap();
        assert_eq!(moved["ply"], 1);
        // Tables of a large level until the database is full.
        let level = std::fs::read_to_string(levels().join("robots/10-four-player-race.ron")).unwrap();
        let padded = format!("{level}\n// {}", "padding ".repeat(1500));
        let mut filler = client(addr, "filler").await;
        let mut refused = None;
        for _ in 0..200 {
            match filler.request(json!({"type": "create", "level_text": padded})).await {
                Ok(_) => {}
                Err(e) => {
                    refused = Some(e.to_string());
                    break;
                }
            }
        }
        let refused = refused.expect("the database filled up");
        // The table that could not be kept was never acknowledged: the
        // refusal is the halt's.
        assert!(refused.contains("halted") || refused.contains("gone"), "{refused}");
        let halted =
            tokio::time::timeout(Duration::from_secs(10), next_of(&mut bob, "halted")).await.unwrap();
        assert!(halted["message"].as_str().unwrap().contains("database"), "{halted}");
    });
    let stopped = serving.join().unwrap();
    let why = stopped.expect_err("serve returns the reason").to_string();
    assert!(why.contains("database"), "{why}");
    // Every acknowledged move is on disk.
    let db = rusqlite::Connection::open(dir.join("server.db")).unwrap();
    let moves: i64 = db.query_row("SELECT COUNT(*) FROM moves", [], |r| r.get(0)).unwrap();
    assert_eq!(moves, 1);
}
