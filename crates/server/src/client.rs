//! A client of the protocol, for `tabula bot`, the tests and the load
//! benchmark: connect (`ws://` or `wss://`), say hello, send requests and
//! read messages as JSON; and [`play_seat`], a whole game played by an agent
//! that sees only what the server sends.

use std::collections::VecDeque;
use std::path::Path;
use std::sync::Arc;

use anyhow::{Context, anyhow, bail};
use futures_util::{SinkExt, StreamExt};
use serde_json::{Value, json};
use tabula_engine::Player;
use tabula_engine::core::{AgentSpec, rng_from_seed};
use tokio::io::{AsyncRead, AsyncWrite};
use tokio::net::TcpStream;
use tokio_tungstenite::WebSocketStream;
use tokio_tungstenite::tungstenite::protocol::WebSocketConfig;
use tokio_tungstenite::tungstenite::{Message, Utf8Bytes};

use crate::protocol::VERSION;

/// A plain or TLS stream.
pub trait Io: AsyncRead + AsyncWrite + Unpin + Send {}
impl<T: AsyncRead + AsyncWrite + Unpin + Send> Io for T {}

pub struct Client {
    socket: WebSocketStream<Box<dyn Io>>,
    /// Messages read while waiting for an answer, in order.
    pending: VecDeque<Value>,
    next_id: u64,
    /// The server's welcome.
    pub welcome: Value,
}

/// Where the certificates that `wss://` trusts come from: `ca`, a PEM
/// file, or else the system's (Debian's bundle).
fn tls_config(ca: Option<&Path>) -> anyhow::Result<tokio_rustls::rustls::ClientConfig> {
    use tokio_rustls::rustls::pki_types::CertificateDer;
    use tokio_rustls::rustls::pki_types::pem::PemObject;
    let file = ca.unwrap_or(Path::new("/etc/ssl/certs/ca-certificates.crt"));
    let mut roots = tokio_rustls::rustls::RootCertStore::empty();
    for cert in CertificateDer::pem_file_iter(file)
        .with_context(|| format!("cannot read certificates from {}", file.display()))?
    {
        roots.add(cert.with_context(|| format!("{}: not a PEM certificate", file.display()))?)?;
    }
    let provider = Arc::new(tokio_rustls::rustls::crypto::ring::default_provider());
    Ok(tokio_rustls::rustls::ClientConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()?
        .with_root_certificates(roots)
        .with_no_client_auth())
}

impl Client {
    /// Connects to `url` (`ws://host:port` or `wss://host:port`), trusting
    /// `ca` for TLS, and says hello as `name`.
    pub async fn connect(url: &str, ca: Option<&Path>, name: &str) -> anyhow::Result<Client> {
        let (tls, rest) = if let Some(rest) = url.strip_prefix("wss://") {
            (true, rest)
        } else if let Some(rest) = url.strip_prefix("ws://") {
            (false, rest)
        } else {
            bail!("{url}: a server's address starts with ws:// or wss://");
        };
        let authority = rest.split('/').next().unwrap_or(rest);
        let host = authority.rsplit_once(':').map_or(authority, |(h, _)| h).trim_matches(['[', ']']);
        let tcp = TcpStream::connect(authority).await.with_context(|| format!("cannot reach {authority}"))?;
        tcp.set_nodelay(true)?;
        let stream: Box<dyn Io> = if tls {
            let connector = tokio_rustls::TlsConnector::from(Arc::new(tls_config(ca)?));
            let name = tokio_rustls::rustls::pki_types::ServerName::try_from(host.to_owned())?;
            Box::new(
                connector.connect(name, tcp).await.with_context(|| format!("TLS with {authority} failed"))?,
            )
        } else {
            Box::new(tcp)
        };
        // A small read buffer, as the server's (connection.rs): tungstenite
        // zeroes its whole buffer, 128 KiB unless told, before every read.
        let config = WebSocketConfig::default().read_buffer_size(16 * 1024);
        let (socket, _) = tokio_tungstenite::client_async_with_config(url, stream, Some(config))
            .await
            .with_context(|| format!("no WebSocket at {url}"))?;
        let mut client = Client { socket, pending: VecDeque::new(), next_id: 1, welcome: Value::Null };
        client.welcome = client.request(json!({"type": "hello", "version": VERSION, "name": name})).await?;
        Ok(client)
    }

    pub async fn send(&mut self, message: &Value) -> anyhow::Result<()> {
        self.socket.send(Message::text(message.to_string())).await.context("the server closed the connection")
    }

    /// Sends text as it is (tests send what no client should).
    pub async fn send_raw(&mut self, message: Message) -> anyhow::Result<()> {
        self.socket.send(message).await.context("the server closed the connection")
    }

    /// The next message from the server.
    pub async fn recv(&mut self) -> anyhow::Result<Value> {
        if let Some(message) = self.pending.pop_front() {
            return Ok(message);
        }
        self.read().await
    }

    /// The next message from the server as its text, for a reader that
    /// takes only the fields it needs (the load benchmark).
    pub async fn recv_text(&mut self) -> anyhow::Result<String> {
        if let Some(message) = self.pending.pop_front() {
            return Ok(message.to_string());
        }
        Ok(self.read_text().await?.as_str().to_owned())
    }

    async fn read(&mut self) -> anyhow::Result<Value> {
        serde_json::from_str(&self.read_text().await?).context("the server sent bad JSON")
    }

    async fn read_text(&mut self) -> anyhow::Result<Utf8Bytes> {
        loop {
            match self.socket.next().await {
                Some(Ok(Message::Text(text))) => return Ok(text),
                Some(Ok(Message::Close(_))) | None => bail!("the server closed the connection"),
                Some(Ok(_)) => continue,
                Some(Err(e)) => return Err(e).context("the connection failed"),
            }
        }
    }

    /// Sends `message` with an id and waits for its answer (an error
    /// answer is an `Err`); what comes meanwhile waits for `recv`.
    pub async fn request(&mut self, mut message: Value) -> anyhow::Result<Value> {
        let id = self.next_id;
        self.next_id += 1;
        message["id"] = json!(id);
        self.send(&message).await?;
        loop {
            let answer = self.read().await?;
            if answer["re"] == json!(id) {
                if answer["type"] == "error" {
                    bail!(
                        "{} ({})",
                        answer["message"].as_str().unwrap_or("refused"),
                        answer["code"].as_str().unwrap_or("")
                    );
                }
                return Ok(answer);
            }
            self.pending.push_back(answer);
        }
    }
}

/// How a seat's game went.
#[derive(Debug)]
pub struct SeatGame {
    pub result: Value,
    pub moves: u64,
}

/// Plays `seat` (joined or resumed already, `state` its first state) with
/// agent `spec` until the game ends; `each` hears every message.
pub async fn play_seat(
    client: &mut Client,
    table: &str,
    state: Value,
    spec: &AgentSpec,
    each: &mut (dyn FnMut(&Value) + Send),
) -> anyhow::Result<SeatGame> {
    let game = state["game"].as_str().ok_or_else(|| anyhow!("the state names no game"))?.to_owned();
    let seat = Player(state["seat"].as_u64().ok_or_else(|| anyhow!("the state names no seat"))? as u8 - 1);
    let mut agent = tabula_engine::live::agent(&game, spec)?;
    let mut rng = rng_from_seed(crate::lobby::random_u64());
    let mut moves = 0;
    let mut message = state;
    loop {
        each(&message);
        if !message["result"].is_null() {
            return Ok(SeatGame { result: message["result"].clone(), moves });
        }
        if message["table"] == table && message["legal"].as_array().is_some_and(|l| !l.is_empty()) {
            let view = message["view"].to_string();
            let interject = message["to_move"].as_u64() != Some(u64::from(seat.0) + 1);
            let chosen = agent.choose_seen(&view, seat, interject, &mut rng).map_err(|e| anyhow!(e))?;
            if let Some(mv) = chosen {
                let ply = message["ply"].clone();
                client.send(&json!({"type": "move", "table": table, "move": mv, "ply": ply})).await?;
                moves += 1;
            }
        }
        message = client.recv().await?;
        if message["type"] == "error" && message["code"] != "stale" && message["code"] != "not_your_turn" {
            bail!("the server refused: {}", message["message"]);
        }
        if message["type"] == "ended" {
            return Ok(SeatGame { result: message["result"].clone(), moves });
        }
    }
}
