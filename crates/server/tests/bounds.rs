//! Bounded by construction: the largest level of each game that the
//! server hosts (at its limits on a level's legal moves, its move cap and
//! its text) is played to its end, and no message it sends is over
//! `sent_bytes` (docs/protocol.md, "Limits"); a level one step past a
//! limit is refused. The 50-byte Nim level that made an 82 MB message is
//! among the refused.

mod common;

use std::time::{Duration, Instant};

use common::*;
use serde_json::{Value, json};
use tabula_server::Limits;
use tabula_server::client::Client;

/// The process's resident memory, in bytes (Linux).
fn resident() -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.trim().trim_end_matches(" kB").trim().parse::<u64>().ok())
        .unwrap_or(0)
        * 1024
}

/// A square Robot board of `side` tiles, one robot of each rule, their
/// homes in the far corners.
fn robots_board(width: usize, height: usize, swaps: u16, cap: u32) -> String {
    let mut rows = vec![".".repeat(width); height];
    let set = |rows: &mut Vec<String>, x: usize, y: usize, c: char| {
        let mut row: Vec<char> = rows[y].chars().collect();
        row[x] = c;
        rows[y] = row.into_iter().collect();
    };
    set(&mut rows, width - 1, height - 1, 'a');
    set(&mut rows, 0, height - 1, 'b');
    if width > 4 {
        // Something for an exchange to change: belts and a broken robot.
        set(&mut rows, 2, 1, '>');
        set(&mut rows, 3, 1, '>');
        set(&mut rows, 1, 2, '#');
    }
    let board: Vec<String> = rows.iter().map(|r| format!("        \"{r}\",")).collect();
    format!(
        "Robots(\n    name: \"Largest\",\n    board: [\n{}\n    ],\n    robots: [\n        (id: 'A', at: (0, 0), facing: South, rule: A, player: 1),\n        (id: 'B', at: ({}, 0), facing: West, rule: B, player: 2),\n    ],\n    swaps: {swaps},\n    move_cap: {cap},\n)",
        board.join("\n"),
        width - 1
    )
}

/// Waits until the game at `table` is over, as the database says.
async fn finished(dir: &std::path::Path, table: &str) {
    let deadline = Instant::now() + Duration::from_secs(120);
    loop {
        let db = rusqlite::Connection::open(dir.join("server.db")).unwrap();
        let result: Option<String> =
            db.query_row("SELECT result FROM tables WHERE id = ?1", [table], |r| r.get(0)).unwrap_or(None);
        if result.is_some() {
            return;
        }
        assert!(Instant::now() < deadline, "the game at {table} did not end");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// The largest of `client`'s messages until the game at `table` ends,
/// the seat playing its first legal move whenever it has one.
async fn play_first_moves(client: &mut Client, table: &str) -> usize {
    let mut largest = 0;
    loop {
        let text = tokio::time::timeout(Duration::from_secs(60), client.recv_text()).await.unwrap().unwrap();
        largest = largest.max(text.len());
        let m: Value = serde_json::from_str(&text).unwrap();
        if m["table"] != table {
            continue;
        }
        if !m["result"].is_null() || m["type"] == "ended" {
            return largest;
        }
        if let Some(first) = m["legal"].as_array().and_then(|l| l.first()) {
            let mv = json!({"type": "move", "table": table, "move": first["move"], "ply": m["ply"]});
            client.send(&mv).await.unwrap();
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_largest_levels_of_each_game_make_bounded_messages() {
    let dir = temp_dir("bounds");
    let limits = Limits::default();
    let addr = start(config(&dir)).await;
    let mut host = client(addr, "host").await;
    let most = host.welcome["limits"]["sent_bytes"].as_u64().unwrap() as usize;
    assert_eq!(most, limits.sent_bytes());
    let cap = limits.plies;
    let before = resident();

    // Refused: one step past a limit, and the level that made 82 MB.
    let nim_over = format!("Nim(name: \"Over\", piles: [{}], ending: Normal)", limits.legal_moves + 1);
    let refused = [
        ("Nim(name:\"Big\", piles:[1000000], ending:Normal)".to_owned(), "legal_moves"),
        (
            format!("Nim(name: \"Big\", piles: [{}], ending: Normal)", vec!["1000000"; 64].join(", ")),
            "legal_moves",
        ),
        (nim_over, "legal_moves"),
        (
            format!(
                "Mancala(name: \"Long\", pits: 6, stones: 4, capture: Standard, sweep: true, move_cap: {})",
                cap + 1
            ),
            "plies",
        ),
        (
            format!("RussianBank(name: \"Long\", deal: Shuffled, stop_rule: true, move_cap: {})", cap + 1),
            "plies",
        ),
        (robots_board(15, 10, 1, 500), "legal_moves"),
    ];
    for (text, limit) in refused {
        let answer = host.request(json!({"type": "create", "level_text": text})).await.unwrap_err();
        let said = answer.to_string();
        assert!(said.contains("bad_level") && said.contains(limit), "{text}: {said}");
    }

    // Hosted: the largest of each game within the limits.
    let per_pile = limits.legal_moves / 64;
    let nim = format!(
        "Nim(name: \"Largest\", piles: [{}], ending: Normal)",
        vec![per_pile.to_string(); 64].join(", ")
    );
    let mancala = format!(
        "Mancala(name: \"Largest\", pits: 15, stones: 133, capture: Standard, sweep: true, move_cap: {cap})"
    );
    let bank = format!("RussianBank(name: \"Largest\", deal: Shuffled, stop_rule: true, move_cap: {cap})");
    let wide = robots_board(120, 120, 0, cap as u32);
    assert!(wide.len() <= limits.level_bytes, "{} bytes", wide.len());
    let swaps = robots_board(14, 10, 5, cap as u32);
    let mut largest = 0;
    let mut tables = Vec::new();
    for (text, seats) in [
        (&nim, ["random", "random"]),
        (&bank, ["random", "random"]),
        (&wide, ["random", "random"]),
        (&swaps, ["random", "random"]),
    ] {
        let created =
            host.request(json!({"type": "create", "level_text": text, "seats": seats})).await.unwrap();
        tables.push((created["table"].as_str().unwrap().to_owned(), text.len()));
    }
    // A person's seat at the Kalah board hears every move; at the board of
    // exchanges, every exchange is in its legal moves.
    let mut person = client(addr, "person").await;
    for (text, seats) in [(&mancala, ["person", "random"]), (&swaps, ["person", "random"])] {
        let created =
            host.request(json!({"type": "create", "level_text": text, "seats": seats})).await.unwrap();
        let table = created["table"].as_str().unwrap().to_owned();
        person.request(json!({"type": "join", "table": table, "seat": 1})).await.unwrap();
        let heard = play_first_moves(&mut person, &table).await;
        largest = largest.max(heard);
    }
    for (table, _) in &tables {
        finished(&dir, table).await;
        // The whole game in one message: what a connection coming back gets.
        let mut watcher = client(addr, "watcher").await;
        let text = {
            watcher.send(&json!({"type": "watch", "table": table})).await.unwrap();
            watcher.recv_text().await.unwrap()
        };
        let state: Value = serde_json::from_str(&text).unwrap();
        assert!(!state["result"].is_null(), "{table} is over");
        println!("{table}: {} moves, its state {} bytes", state["ply"], text.len());
        largest = largest.max(text.len());
    }
    let grown = resident().saturating_sub(before);
    println!("largest message {largest} bytes (bound {most}); memory grew {} MiB", grown >> 20);
    assert!(largest <= most, "a message of {largest} bytes, over the bound of {most}");
    assert!(largest > 100_000, "the levels were not large: {largest} bytes at most");
    // Six tables of the largest levels played to their ends, their games
    // and messages included: docs/protocol.md states this bound.
    assert!(grown < 256 << 20, "the server grew by {} MiB", grown >> 20);
}
