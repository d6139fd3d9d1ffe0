//! A client of the protocol, for `tabula bot`, the window, the tests and
//! the load benchmark: connect (`ws://` or `wss://`), say hello, send
//! [`Request`]s and read [`Message`]s (or, for tests that send what no
//! client should, any JSON); and [`play_seat`], a whole game played by an
//! agent that sees only what the server sends.

use std::collections::VecDeque;
use std::path::Path;
use std::sync::Arc;

use anyhow::{Context, anyhow, bail};
use futures_util::{SinkExt, StreamExt};
use serde_json::Value;
use tabula_engine::Player;
use tabula_engine::core::{AgentSpec, rng_from_seed};
use tokio::io::{AsyncRead, AsyncWrite};
use tokio::net::TcpStream;
use tokio_tungstenite::WebSocketStream;
use tokio_tungstenite::tungstenite::protocol::WebSocketConfig;
use tokio_tungstenite::tungstenite::{Message as WsMessage, Utf8Bytes};

use crate::protocol::{CreateTable, ErrorCode, Id, Message, Request, ServerMessage, TableState, VERSION};

/// A plain or TLS stream.
pub trait Io: AsyncRead + AsyncWrite + Unpin + Send {}
impl<T: AsyncRead + AsyncWrite + Unpin + Send> Io for T {}

/// The connection to the server is gone (closed, reset, or the server
/// stopped): a bot may come back with its token.
#[derive(Debug, thiserror::Error)]
#[error("the connection to the server is gone: {0}")]
pub struct Disconnected(String);

/// The server refused a request: its code, and its words for people.
#[derive(Debug, thiserror::Error)]
#[error("{message} ({code})")]
pub struct Refusal {
    pub code: ErrorCode,
    pub message: String,
}

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
        let hello = Request::Hello { version: VERSION, name: Some(name.to_owned()) };
        client.welcome = client.request_text(&hello).await?;
        Ok(client)
    }

    /// Sends `request` with `id`, if one (its answer carries it as `re`).
    pub async fn send_request(&mut self, request: &Request, id: Option<&Id>) -> anyhow::Result<()> {
        self.send_raw(WsMessage::text(request.with_id(id))).await
    }

    /// Sends `request` and waits for its answer (a refusal is a
    /// [`Refusal`] error); what comes meanwhile waits for [`Client::next`].
    pub async fn ask(&mut self, request: &Request) -> anyhow::Result<Message> {
        let answer = self.request_text(request).await?;
        serde_json::from_value(answer).context("the server sent a message of no known type")
    }

    /// The next message from the server.
    pub async fn next(&mut self) -> anyhow::Result<Message> {
        let message = self.recv().await?;
        serde_json::from_value(message).context("the server sent a message of no known type")
    }

    async fn request_text(&mut self, request: &Request) -> anyhow::Result<Value> {
        let id = Id::number(self.next_id);
        self.next_id += 1;
        self.send_raw(WsMessage::text(request.with_id(Some(&id)))).await?;
        self.answer_to(&id).await
    }

    /// Sends any JSON (tests send what no client should).
    pub async fn send(&mut self, message: &Value) -> anyhow::Result<()> {
        self.send_raw(WsMessage::text(message.to_string())).await
    }

    /// Sends a frame as it is (tests send what no client should).
    pub async fn send_raw(&mut self, message: WsMessage) -> anyhow::Result<()> {
        Ok(self.socket.send(message).await.map_err(|e| Disconnected(e.to_string()))?)
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
                Some(Ok(WsMessage::Text(text))) => return Ok(text),
                Some(Ok(WsMessage::Close(frame))) => {
                    let why = frame.map_or_else(String::new, |f| f.reason.to_string());
                    return Err(Disconnected(format!("the server closed it {why}")).into());
                }
                None => return Err(Disconnected("the server closed it".into()).into()),
                Some(Ok(_)) => continue,
                Some(Err(e)) => return Err(Disconnected(e.to_string()).into()),
            }
        }
    }

    /// Sends JSON `message` with an id and waits for its answer, as JSON
    /// (a refusal is a [`Refusal`] error); what comes meanwhile waits for
    /// `recv`.
    pub async fn request(&mut self, mut message: Value) -> anyhow::Result<Value> {
        let id = Id::number(self.next_id);
        self.next_id += 1;
        message["id"] = serde_json::to_value(&id)?;
        self.send(&message).await?;
        self.answer_to(&id).await
    }

    async fn answer_to(&mut self, id: &Id) -> anyhow::Result<Value> {
        let id = serde_json::to_value(id)?;
        loop {
            let answer = self.read().await?;
            if answer["re"] == id {
                if answer["type"] == "error"
                    && let Ok(Message::<Value> { body: ServerMessage::Error { code, message }, .. }) =
                        serde_json::from_value(answer.clone())
                {
                    return Err(Refusal { code, message }.into());
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
    pub result: crate::protocol::Result,
    pub moves: u64,
}

/// Plays `seat` (joined or resumed already, `state` its first state) with
/// agent `spec` until the game ends; `each` hears every message.
pub async fn play_seat(
    client: &mut Client,
    table: &str,
    state: Message,
    spec: &AgentSpec,
    each: &mut (dyn FnMut(&Message) + Send),
) -> anyhow::Result<SeatGame> {
    let mut moves = 0;
    let result = play_counting(client, table, state, spec, &mut moves, each).await?;
    Ok(SeatGame { result, moves })
}

/// What a seat must know to choose a move from a message: the table, the
/// ply, the seat to move, the view and whether it has a legal move.
struct Turn<'a> {
    table: &'a str,
    ply: usize,
    to_move: u8,
    view: &'a Value,
    can_move: bool,
}

fn turn_of(message: &Message) -> Option<Turn<'_>> {
    match &message.body {
        ServerMessage::State(s) => Some(Turn {
            table: &s.table,
            ply: s.ply,
            to_move: s.to_move,
            view: &s.view,
            can_move: !s.legal.is_empty(),
        }),
        ServerMessage::Moved(m) => Some(Turn {
            table: &m.table,
            ply: m.ply,
            to_move: m.to_move,
            view: &m.view,
            can_move: !m.legal.is_empty(),
        }),
        _ => None,
    }
}

/// The result a message gives, if the game ended.
fn result_of(message: &Message, table: &str) -> Option<crate::protocol::Result> {
    match &message.body {
        ServerMessage::State(s) if s.table == table => s.result.clone(),
        ServerMessage::Moved(m) if m.table == table => m.result.clone(),
        ServerMessage::Ended { table: t, result } if t == table => Some(result.clone()),
        _ => None,
    }
}

/// The same, counting the moves sent in `moves` as it goes; the result.
async fn play_counting(
    client: &mut Client,
    table: &str,
    state: Message,
    spec: &AgentSpec,
    moves: &mut u64,
    each: &mut (dyn FnMut(&Message) + Send),
) -> anyhow::Result<crate::protocol::Result> {
    let ServerMessage::State(first) = &state.body else { bail!("a seat's game begins with its state") };
    let seat = Player(first.seat.filter(|&s| s >= 1).ok_or_else(|| anyhow!("the state names no seat"))? - 1);
    let mut agent = tabula_engine::games::live_agent(&first.game, spec)?;
    let mut rng = rng_from_seed(crate::random::random_u64());
    let mut message = state;
    loop {
        each(&message);
        if let Some(result) = result_of(&message, table) {
            return Ok(result);
        }
        if let Some(turn) = turn_of(&message).filter(|t| t.table == table && t.can_move) {
            let view = turn.view.to_string();
            let interject = turn.to_move != seat.0 + 1;
            let chosen = agent.choose_seen(&view, seat, interject, &mut rng).map_err(|e| anyhow!(e))?;
            if let Some(mv) = chosen {
                let request = Request::Move { table: table.to_owned(), mv, seat: None, ply: Some(turn.ply) };
                client.send_request(&request, None).await?;
                *moves += 1;
            }
        }
        message = client.next().await?;
        if let ServerMessage::Error { code, message } = &message.body
            && !code.is_race()
        {
            return Err(Refusal { code: *code, message: message.clone() }.into());
        }
    }
}

/// What a bot tells whoever runs it.
pub enum BotEvent<'a> {
    /// A message from the server.
    Heard(&'a Message),
    /// The connection dropped (why): the bot comes back with its token.
    Reconnecting(&'a str),
}

/// How long a bot keeps trying to reach a server that went away.
pub const RECONNECT_FOR: std::time::Duration = std::time::Duration::from_secs(120);

/// Connects, retrying every half second for up to [`RECONNECT_FOR`].
pub async fn connect_again(url: &str, ca: Option<&Path>, name: &str) -> anyhow::Result<Client> {
    let deadline = tokio::time::Instant::now() + RECONNECT_FOR;
    loop {
        match Client::connect(url, ca, name).await {
            Ok(client) => return Ok(client),
            Err(e) if tokio::time::Instant::now() >= deadline => return Err(e),
            Err(_) => tokio::time::sleep(std::time::Duration::from_millis(500)).await,
        }
    }
}

/// Plays the seat `token` holds at `table` to the end of the game, coming
/// back with the token whenever the connection drops (a restarted server
/// included).
pub async fn play_to_the_end(
    url: &str,
    ca: Option<&Path>,
    name: &str,
    table: &str,
    token: &str,
    spec: &AgentSpec,
    each: &mut (dyn FnMut(BotEvent<'_>) + Send),
) -> anyhow::Result<SeatGame> {
    let mut moves = 0;
    loop {
        let mut client = connect_again(url, ca, name).await?;
        client.ask(&Request::Resume { token: token.to_owned() }).await?;
        let state = loop {
            let message = client.next().await?;
            if matches!(message.body, ServerMessage::State(_)) {
                break message;
            }
        };
        let played = {
            let mut heard = |m: &Message| each(BotEvent::Heard(m));
            play_counting(&mut client, table, state, spec, &mut moves, &mut heard).await
        };
        match played {
            Ok(result) => return Ok(SeatGame { result, moves }),
            Err(e) if e.downcast_ref::<Disconnected>().is_some() => {
                each(BotEvent::Reconnecting(&e.to_string()))
            }
            Err(e) => return Err(e),
        }
    }
}

/// What `tabula bot` is asked to do.
#[derive(Clone, Debug)]
pub struct BotPlan {
    pub url: String,
    pub ca: Option<std::path::PathBuf>,
    pub name: String,
    /// A table to join ...
    pub table: Option<String>,
    /// ... or a level of the server's to open a table of, with its seats
    /// (absent: every seat open to a person).
    pub create: Option<(String, Option<Vec<String>>)>,
    pub seat: Option<u8>,
    /// A seat held before.
    pub token: Option<String>,
    pub agent: AgentSpec,
}

/// Refuses an agent the table's game does not have before a seat is taken:
/// the table is watched a moment to learn its game (a table without
/// spectators is learnt of only once joined).
async fn check_agent_for(client: &mut Client, table: &str, spec: &AgentSpec) -> anyhow::Result<()> {
    let Ok(watched) = client.ask(&Request::Watch { table: table.to_owned() }).await else { return Ok(()) };
    client.ask(&Request::Leave { table: table.to_owned() }).await?;
    if let ServerMessage::State(state) = &watched.body {
        let TableState { game, .. } = &**state;
        tabula_engine::games::live_agent(game, spec)?;
    }
    Ok(())
}

/// Runs `plan` on a runtime of its own: takes a seat (or comes back to one
/// with its token) and plays it to the end of the game.
pub fn run_bot(plan: BotPlan, each: &mut (dyn FnMut(BotEvent<'_>) + Send)) -> anyhow::Result<SeatGame> {
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build()?;
    runtime.block_on(async move {
        let ca = plan.ca.as_deref();
        let (table, token) = match (&plan.token, &plan.table) {
            (Some(token), Some(table)) => (table.clone(), token.clone()),
            (Some(_), None) => bail!("--token needs the table it is for (--table)"),
            (None, _) => {
                let mut client = connect_again(&plan.url, ca, &plan.name).await?;
                let table = match (&plan.table, &plan.create) {
                    (Some(table), _) => table.clone(),
                    (None, Some((level, seats))) => {
                        let create = CreateTable {
                            level: Some(level.clone()),
                            seats: seats.clone(),
                            ..CreateTable::default()
                        };
                        let created = client.ask(&Request::Create(Box::new(create))).await?;
                        each(BotEvent::Heard(&created));
                        match created.body {
                            ServerMessage::Created { table, .. } => table,
                            other => bail!("the server answered create with {other:?}"),
                        }
                    }
                    (None, None) => {
                        bail!("name a table to join (--table) or a level to open one of (--create)")
                    }
                };
                check_agent_for(&mut client, &table, &plan.agent).await?;
                let joined =
                    client.ask(&Request::Join { table: table.clone(), seat: plan.seat, name: None }).await?;
                each(BotEvent::Heard(&joined));
                match joined.body {
                    ServerMessage::Joined { token, .. } => (table, token),
                    other => bail!("the server answered join with {other:?}"),
                }
            }
        };
        play_to_the_end(&plan.url, ca, &plan.name, &table, &token, &plan.agent, each).await
    })
}
