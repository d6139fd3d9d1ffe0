//! `wss://`: the server serves TLS (rustls) with a certificate and key it is
//! given; a client that trusts the certificate plays, one that speaks plain
//! WebSocket to it gets nowhere, and a broken key file is said at start-up.
//! The web page comes over `https://` on the same port.

mod common;

use common::*;
use serde_json::json;
use tabula_server::client::Client;
use tabula_server::{Config, Server};

/// `GET path` over TLS trusting `cert`: the answer whole.
async fn https_get(port: u16, cert: &std::path::Path, path: &str) -> String {
    use std::sync::Arc;
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    use tokio_rustls::rustls::pki_types::pem::PemObject;
    use tokio_rustls::rustls::pki_types::{CertificateDer, ServerName};
    use tokio_rustls::rustls::{ClientConfig, RootCertStore, crypto};
    let mut roots = RootCertStore::empty();
    for c in CertificateDer::pem_file_iter(cert).unwrap() {
        roots.add(c.unwrap()).unwrap();
    }
    let config = ClientConfig::builder_with_provider(Arc::new(crypto::ring::default_provider()))
        .with_safe_default_protocol_versions()
        .unwrap()
        .with_root_certificates(roots)
        .with_no_client_auth();
    let tcp = tokio::net::TcpStream::connect(("127.0.0.1", port)).await.unwrap();
    let connector = tokio_rustls::TlsConnector::from(Arc::new(config));
    let mut tls = connector.connect(ServerName::try_from("localhost").unwrap(), tcp).await.unwrap();
    tls.write_all(format!("GET {path} HTTP/1.1\r\nHost: localhost\r\n\r\n").as_bytes()).await.unwrap();
    let mut answer = Vec::new();
    let read = tls.read_to_end(&mut answer);
    tokio::time::timeout(std::time::Duration::from_secs(20), read).await.unwrap().unwrap();
    String::from_utf8_lossy(&answer).into_owned()
}

/// A self-signed certificate for localhost, written as PEM files.
fn certificate(dir: &std::path::Path) -> (std::path::PathBuf, std::path::PathBuf) {
    let made = rcgen::generate_simple_self_signed(vec!["localhost".to_owned()]).unwrap();
    let cert = dir.join("cert.pem");
    let key = dir.join("key.pem");
    std::fs::write(&cert, made.cert.pem()).unwrap();
    std::fs::write(&key, made.signing_key.serialize_pem()).unwrap();
    (cert, key)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_is_played_over_tls_and_plain_websocket_is_refused() {
    let dir = temp_dir("tls");
    let (cert, key) = certificate(&dir);
    let addr = start(Config { tls: Some((cert.clone(), key)), ..config(&dir) }).await;
    let url = format!("wss://localhost:{}", addr.port());
    let mut ann = Client::connect(&url, Some(&cert), "Ann").await.unwrap();
    assert_eq!(ann.welcome["version"], 1);
    let table = create(&mut ann, json!({"level": "nim/beginner-2-3", "seats": ["person", "random"]})).await;
    let (_, state) = join(&mut ann, &table, None).await;
    let moved = ann
        .request(json!({"type": "move", "table": table, "move": state["legal"][0]["move"]}))
        .await
        .unwrap();
    assert_eq!(moved["type"], "moved");
    // Plain WebSocket to a TLS port, and TLS trusting nothing of this server.
    assert!(Client::connect(&format!("ws://127.0.0.1:{}", addr.port()), None, "plain").await.is_err());
    let stranger = dir.join("other.pem");
    std::fs::write(
        &stranger,
        rcgen::generate_simple_self_signed(vec!["localhost".to_owned()]).unwrap().cert.pem(),
    )
    .unwrap();
    assert!(Client::connect(&url, Some(&stranger), "wary").await.is_err());
    // The page on the same port, over TLS too.
    let page = https_get(addr.port(), &cert, "/").await;
    assert!(page.starts_with("HTTP/1.1 200 OK\r\n") && page.contains("<html"), "{page}");
    assert!(page.contains("Content-Security-Policy: default-src 'self'"), "{page}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_missing_or_broken_key_is_said_before_serving() {
    let dir = temp_dir("tls-broken");
    let (cert, _) = certificate(&dir);
    let broken = dir.join("broken.pem");
    std::fs::write(&broken, "not a key").unwrap();
    let err = Server::bind(Config { tls: Some((cert.clone(), broken)), ..config(&dir) }).await.err().unwrap();
    assert!(format!("{err:#}").contains("broken.pem"), "{err:#}");
    let err =
        Server::bind(Config { tls: Some((dir.join("none.pem"), cert)), ..config(&dir) }).await.err().unwrap();
    assert!(format!("{err:#}").contains("none.pem"), "{err:#}");
}
