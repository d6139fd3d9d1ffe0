//! `tabula-server`, the server alone as a host runs it: it says where it
//! listens, serves a whole game to clients, links no window library, and a
//! database that refuses a write ends it with an error and the reason.

mod common;

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};

use common::*;
use serde_json::json;

/// The server started with `args`, and the address its first line names.
fn start_binary(args: &[&str]) -> (Child, std::net::SocketAddr) {
    let mut command = Command::new(env!("CARGO_BIN_EXE_tabula-server"));
    command.args(args);
    started(command)
}

/// `command` started, and the address its first line names.
fn started(mut command: Command) -> (Child, std::net::SocketAddr) {
    let mut child = command.stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().unwrap();
    let mut first = String::new();
    BufReader::new(child.stdout.as_mut().unwrap()).read_line(&mut first).unwrap();
    let at = first.split("ws://").nth(1).and_then(|r| r.split_whitespace().next()).expect(&first);
    assert!(first.starts_with("tabula-server: listening on"), "{first}");
    (child, at.parse().unwrap())
}

#[test]
fn the_server_binary_serves_a_game_to_its_end() {
    let dir = temp_dir("binary");
    let db = dir.join("server.db");
    let levels = levels();
    let (mut child, addr) = start_binary(&[
        "--listen",
        "127.0.0.1:0",
        "--db",
        db.to_str().unwrap(),
        "--levels",
        levels.to_str().unwrap(),
        "--replays",
        dir.join("replays").to_str().unwrap(),
    ]);
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let result = runtime.block_on(async {
        let mut ann = client(addr, "Ann").await;
        let table =
            create(&mut ann, json!({"level": "nim/beginner-2-3", "seats": ["random", "random"]})).await;
        // The agents may have finished before the watch: its state says so.
        let mut m = ann.request(json!({"type": "watch", "table": table})).await.unwrap();
        while m["result"].is_null() {
            m = ann.recv().await.unwrap();
        }
        m["result"].clone()
    });
    assert_eq!(result["reason"], "rules");
    child.kill().unwrap();
    child.wait().unwrap();
}

#[test]
fn the_server_binary_links_no_window_library() {
    let Ok(out) = Command::new("ldd").arg(env!("CARGO_BIN_EXE_tabula-server")).output() else {
        return;
    };
    let libraries = String::from_utf8_lossy(&out.stdout);
    assert!(libraries.contains("libc.so"), "ldd read nothing: {libraries}");
    for window in ["asound", "X11", "xcb", "vulkan", "wayland"] {
        assert!(!libraries.contains(window), "tabula-server links {window}: {libraries}");
    }
}

#[test]
fn the_server_binary_ends_with_the_reason_when_its_database_is_full() {
    let dir = temp_dir("binary-full");
    let db = dir.join("server.db");
    let (mut child, addr) = start_binary(&[
        "--listen",
        "127.0.0.1:0",
        "--db",
        db.to_str().unwrap(),
        "--levels",
        levels().to_str().unwrap(),
        "--max-database-mb",
        "1",
        "--max-tables-per-connection",
        "1000",
    ]);
    let runtime = tokio::runtime::Runtime::new().unwrap();
    runtime.block_on(async {
        let level = std::fs::read_to_string(levels().join("robots/10-four-player-race.ron")).unwrap();
        let padded = format!("{level}\n// {}", "padding ".repeat(1500));
        let mut filler = client(addr, "filler").await;
        for _ in 0..400 {
            if filler.request(json!({"type": "create", "level_text": padded})).await.is_err() {
                break;
            }
        }
    });
    // It ends by itself, once it has told its clients why.
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(30);
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if std::time::Instant::now() > deadline {
            child.kill().unwrap();
            panic!("the server with a full database did not stop");
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    };
    assert_eq!(status.code(), Some(1));
    let mut said = String::new();
    std::io::Read::read_to_string(child.stderr.as_mut().unwrap(), &mut said).unwrap();
    assert!(said.contains("database or disk is full"), "{said}");
}

#[test]
fn an_installed_server_offers_the_levels_installed_beside_it() {
    // As a package lays it out: bin/tabula-server, share/tabula/levels/.
    let prefix = temp_dir("binary-installed");
    std::fs::create_dir_all(prefix.join("bin")).unwrap();
    std::fs::create_dir_all(prefix.join("share/tabula/levels/nim")).unwrap();
    let bin = prefix.join("bin/tabula-server");
    std::fs::copy(env!("CARGO_BIN_EXE_tabula-server"), &bin).unwrap();
    std::fs::copy(
        levels().join("nim/beginner-2-3.ron"),
        prefix.join("share/tabula/levels/nim/beginner-2-3.ron"),
    )
    .unwrap();
    let mut command = Command::new(&bin);
    command
        .args(["--listen", "127.0.0.1:0", "--db", "server.db", "--replays", "replays"])
        .current_dir(&prefix)
        .env_remove("TABULA_LEVELS");
    let (mut child, addr) = started(command);
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let offered = runtime.block_on(async {
        let mut c = client(addr, "stranger").await;
        c.request(json!({"type": "levels"})).await.unwrap()
    });
    child.kill().unwrap();
    child.wait().unwrap();
    let names: Vec<&str> =
        offered["levels"].as_array().unwrap().iter().map(|l| l["level"].as_str().unwrap()).collect();
    assert_eq!(names, ["nim/beginner-2-3"]);
}
