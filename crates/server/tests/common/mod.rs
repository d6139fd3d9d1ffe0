//! What the server's tests share: a server on a loopback port with a
//! database of its own, and clients for it.

#![allow(dead_code, reason = "each test binary uses its own part")]

use std::net::SocketAddr;
use std::path::PathBuf;

use serde_json::{Value, json};
use tabula_server::client::Client;
use tabula_server::{Config, Limits, Server};

/// A fresh folder for one test's database and replays.
pub fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("tabula-server-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The repository's levels folder.
pub fn levels() -> PathBuf {
    PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").unwrap()).join("../../levels")
}

pub fn config(dir: &std::path::Path) -> Config {
    Config {
        listen: SocketAddr::from(([127, 0, 0, 1], 0)),
        database: dir.join("server.db"),
        levels: Some(levels()),
        replays: Some(dir.join("replays")),
        tls: None,
        database_bytes: None,
        limits: Limits::default(),
        web: None,
    }
}

/// Starts a server with `config` on this runtime; its address.
pub async fn start(config: Config) -> SocketAddr {
    let server = Server::bind(config).await.unwrap();
    let addr = server.local_addr();
    tokio::spawn(server.run());
    addr
}

pub fn url(addr: SocketAddr) -> String {
    format!("ws://{addr}")
}

pub async fn client(addr: SocketAddr, name: &str) -> Client {
    Client::connect(&url(addr), None, name).await.unwrap()
}

/// Creates a table; its id.
pub async fn create(client: &mut Client, spec: Value) -> String {
    let mut request = json!({"type": "create"});
    request.as_object_mut().unwrap().extend(spec.as_object().unwrap().clone());
    let created = client.request(request).await.unwrap();
    created["table"].as_str().unwrap().to_owned()
}

/// Joins `table`; the token and the first state.
pub async fn join(client: &mut Client, table: &str, seat: Option<u8>) -> (String, Value) {
    let mut request = json!({"type": "join", "table": table});
    if let Some(seat) = seat {
        request["seat"] = json!(seat);
    }
    let joined = client.request(request).await.unwrap();
    let token = joined["token"].as_str().unwrap().to_owned();
    (token, next_of(client, "state").await)
}

/// The next message of `kind`, passing over others.
pub async fn next_of(client: &mut Client, kind: &str) -> Value {
    loop {
        let message = client.recv().await.unwrap();
        if message["type"] == kind {
            return message;
        }
    }
}
