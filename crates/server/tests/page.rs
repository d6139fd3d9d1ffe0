//! The web page on the WebSocket's port: every file of web/public served
//! as it is, with the headers that keep it to its own scripts; bad and
//! endless requests answered or dropped; the WebSocket on the same port.

mod common;

use std::net::SocketAddr;
use std::path::PathBuf;
use std::time::Duration;

use common::{client, config, start, temp_dir};
use serde_json::json;
use tabula_server::page::{CONTENT_SECURITY_POLICY, Page};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

const WAIT: Duration = Duration::from_secs(20);

/// Sends `request` as it is and reads the answer to the end (the server
/// closes after it): its head and body.
async fn http(addr: SocketAddr, request: &[u8]) -> (String, Vec<u8>) {
    let mut socket = TcpStream::connect(addr).await.unwrap();
    socket.write_all(request).await.unwrap();
    let mut answer = Vec::new();
    tokio::time::timeout(WAIT, socket.read_to_end(&mut answer)).await.expect("answered in time").unwrap();
    let end = answer.windows(4).position(|w| w == b"\r\n\r\n").expect("a head") + 4;
    (String::from_utf8(answer[..end].to_vec()).unwrap(), answer[end..].to_vec())
}

async fn get(addr: SocketAddr, path: &str) -> (String, Vec<u8>) {
    http(addr, format!("GET {path} HTTP/1.1\r\nHost: {addr}\r\nAccept: */*\r\n\r\n").as_bytes()).await
}

fn web_folder() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../web/public")
}

#[tokio::test]
async fn every_file_of_the_page_is_served_as_it_is_with_its_own_scripts_only() {
    let dir = temp_dir("page-files");
    let addr = start(config(&dir)).await;
    let mut on_disk: Vec<String> = std::fs::read_dir(web_folder())
        .unwrap()
        .flatten()
        .filter(|e| e.file_type().unwrap().is_file())
        .map(|e| e.file_name().into_string().unwrap())
        .collect();
    on_disk.sort();
    let built_in: Vec<&str> = Page::built_in().map(|(name, _)| name).collect();
    assert_eq!(built_in, on_disk, "the server holds every file of web/public");
    assert!(on_disk.iter().any(|n| n == "index.html") && on_disk.iter().any(|n| n == "app.js"));
    for name in &on_disk {
        let (head, body) = get(addr, &format!("/{name}")).await;
        assert!(head.starts_with("HTTP/1.1 200 OK\r\n"), "{name}: {head}");
        assert_eq!(body, std::fs::read(web_folder().join(name)).unwrap(), "{name}");
        assert!(head.contains(&format!("Content-Security-Policy: {CONTENT_SECURITY_POLICY}\r\n")), "{head}");
        assert!(head.contains("X-Content-Type-Options: nosniff\r\n"), "{head}");
        if name.ends_with(".js") {
            assert!(head.contains("Content-Type: text/javascript"), "a module needs its type: {head}");
        }
    }
    let (head, body) = get(addr, "/?x=1").await;
    assert!(head.contains("Content-Type: text/html"), "{head}");
    assert_eq!(body, std::fs::read(web_folder().join("index.html")).unwrap(), "/ is the page");
    for path in ["/nope.js", "/../Cargo.toml", "/%2e%2e/Cargo.toml", "/.git", "/web/public/app.js"] {
        let (head, _) = get(addr, path).await;
        assert!(head.starts_with("HTTP/1.1 404 Not Found\r\n"), "{path}: {head}");
    }
    let (head, _) = http(addr, b"DELETE /app.js HTTP/1.1\r\nHost: x\r\n\r\n").await;
    assert!(head.starts_with("HTTP/1.1 405"), "{head}");
}

#[tokio::test]
async fn a_request_the_server_cannot_read_is_answered_and_the_port_serves_on() {
    let dir = temp_dir("page-bad");
    let addr = start(config(&dir)).await;
    let (head, _) = http(addr, b"\x16\x03\x01 not http at all\r\n\r\n").await;
    assert!(head.starts_with("HTTP/1.1 400 Bad Request\r\n"), "{head}");
    // A head that never ends is cut at its bound, not read forever.
    let mut endless = b"GET / HTTP/1.1\r\n".to_vec();
    for i in 0..400 {
        endless.extend_from_slice(format!("X-Filler-{i}: {}\r\n", "a".repeat(20)).as_bytes());
    }
    endless.extend_from_slice(b"\r\n");
    let (head, _) = http(addr, &endless).await;
    assert!(head.starts_with("HTTP/1.1 431"), "{head}");
    // A client that sends half a head and goes is let go.
    let mut half = TcpStream::connect(addr).await.unwrap();
    half.write_all(b"GET / HTTP/1.1\r\nHost:").await.unwrap();
    drop(half);
    // The page and the WebSocket, on the same port, both still answer.
    let (head, _) = get(addr, "/").await;
    assert!(head.starts_with("HTTP/1.1 200 OK\r\n"), "{head}");
    let mut ann = client(addr, "Ann").await;
    let pong = ann.request(json!({"type": "ping"})).await.unwrap();
    assert_eq!(pong["type"], "pong");
}
