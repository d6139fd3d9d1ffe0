//! One client's connection: WebSocket frames in, requests read and
//! answered, messages out in order. Bad input gets an error and changes
//! nothing; a flood or an oversized frame closes the connection.

use std::sync::Arc;
use std::time::{Duration, Instant};

use futures_util::{SinkExt, StreamExt};
use serde_json::{Map, Value};
use tokio::io::{AsyncRead, AsyncWrite};
use tokio_tungstenite::WebSocketStream;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::tungstenite::protocol::frame::coding::CloseCode;
use tokio_tungstenite::tungstenite::protocol::{CloseFrame, WebSocketConfig};

use crate::agents;
use crate::lobby;
use crate::protocol::{
    AgentEntry, ErrorCode, GameInfo, Id, LevelEntry, LimitsInfo, NAME_CHARS, Request, ServerMessage, VERSION,
};
use crate::shared::{Shared, lock};
use crate::store::{Outbox, Outgoing};
use crate::table::{ConnId, Refused, Say, say};

/// Messages waiting for a slow reader before it is let go.
const OUTBOX: usize = 4096;
/// How long, and for how many frames, a connection closed by the server
/// is still read: a peer still sending when the socket closes would get a
/// reset, and lose the error and close frame on their way to it. Frames
/// are dropped unread as fast as they come (a flooding client sends
/// thousands back to back); the time bounds the work.
const LINGER: Duration = Duration::from_secs(2);
const LINGER_FRAMES: usize = 1 << 16;
/// Bytes read from the socket at a time. Requests are small; a larger
/// message is still read whole, in more reads. tungstenite's default, 128
/// KiB, is zeroed before every read and held by every connection: under load
/// the zeroing was the server's largest cost, and the buffer most of its
/// memory a connection (the load benchmark, docs/benchmarks.md).
const READ_BUFFER: usize = 4 * 1024;

/// A connection's allowance of messages: `burst` at once, refilled at
/// `rate` a second.
struct Bucket {
    level: f64,
    rate: f64,
    burst: f64,
    at: Instant,
}

impl Bucket {
    fn new(rate: f64, burst: f64) -> Bucket {
        Bucket { level: burst, rate, burst, at: Instant::now() }
    }

    fn refill(&mut self) {
        let now = Instant::now();
        self.level = (self.level + now.duration_since(self.at).as_secs_f64() * self.rate).min(self.burst);
        self.at = now;
    }

    /// Takes one; false when none is left.
    fn take(&mut self) -> bool {
        self.refill();
        if self.level < 1.0 {
            return false;
        }
        self.level -= 1.0;
        true
    }

    /// Takes one, and how long to wait first if none is left.
    fn wait(&mut self) -> Option<Duration> {
        self.refill();
        self.level -= 1.0;
        (self.level < 0.0).then(|| Duration::from_secs_f64(-self.level / self.rate))
    }
}

/// Answers a WebSocket handshake over its address's connection limit with
/// HTTP 503 and why, instead of dropping the socket unanswered.
pub async fn refuse<S: AsyncRead + AsyncWrite + Unpin>(most: usize, stream: S) {
    use tokio_tungstenite::tungstenite::handshake::server::{ErrorResponse, Request, Response};
    use tokio_tungstenite::tungstenite::http::StatusCode;
    // tungstenite's callback hands back its HTTP answer as the error.
    #[allow(clippy::result_large_err)]
    let reject = |_: &Request, _: Response| -> Result<Response, ErrorResponse> {
        let why = format!("too many connections from your address: at most {most} at once\n");
        let mut response = ErrorResponse::new(Some(why));
        *response.status_mut() = StatusCode::SERVICE_UNAVAILABLE;
        Err(response)
    };
    let _ = tokio::time::timeout(Duration::from_secs(5), tokio_tungstenite::accept_hdr_async(stream, reject))
        .await;
}

struct Conn {
    id: ConnId,
    outbox: Outbox,
    name: Option<String>,
    greeted: bool,
    created: usize,
    bad_tokens: u32,
}

/// The frames a connection reads.
type Frames<S> = futures_util::stream::SplitStream<WebSocketStream<S>>;

/// How a connection's reading ended.
struct Ended {
    /// The server closed it (a flood, a frame too large, a request to).
    closing: bool,
    /// The writer has finished (the peer read too slowly, or went).
    written: bool,
}

/// Serves one client, from its WebSocket handshake to the end of its
/// connection.
pub async fn serve<S: AsyncRead + AsyncWrite + Unpin + Send + 'static>(shared: Arc<Shared>, stream: S) {
    let limits = shared.config.limits;
    let config = WebSocketConfig::default()
        .read_buffer_size(READ_BUFFER)
        .max_message_size(Some(limits.message_bytes))
        .max_frame_size(Some(limits.message_bytes));
    let handshake = tokio_tungstenite::accept_async_with_config(stream, Some(config));
    let Ok(Ok(socket)) = tokio::time::timeout(Duration::from_secs(10), handshake).await else {
        return;
    };
    let (sink, mut frames) = socket.split();
    let (outbox, inbox) = Outbox::new(OUTBOX);
    let mut writer = tokio::spawn(write_out(sink, inbox));
    let mut conn =
        Conn { id: shared.next_connection(), outbox, name: None, greeted: false, created: 0, bad_tokens: 0 };
    shared.connected(conn.id, &conn.outbox);
    let ended = read_requests(&shared, &mut conn, &mut frames, &mut writer).await;
    // Whatever was said is said; the seats wait for their tokens.
    shared.disconnected(conn.id);
    let tables: Vec<String> = lock(&shared.tables).keys().cloned().collect();
    for table in tables {
        lobby::leave(&shared, conn.id, &table);
    }
    drop(conn);
    if ended.closing && !ended.written {
        // Read on (and drop) what the peer still sends until it answers
        // the close, for a while: its socket then gets the error and the
        // close frame, not a reset.
        let linger = async {
            let mut frames = frames.take(LINGER_FRAMES);
            while let Some(Ok(frame)) = frames.next().await {
                if frame.is_close() {
                    break;
                }
            }
        };
        let _ = tokio::time::timeout(LINGER, linger).await;
    }
    if !ended.written {
        let _ = writer.await;
    }
}

/// Writes the connection's messages out in order, until a close or the
/// peer goes.
async fn write_out<S: AsyncRead + AsyncWrite + Unpin>(
    mut sink: futures_util::stream::SplitSink<WebSocketStream<S>, Message>,
    mut inbox: crate::store::Inbox,
) {
    while let Some(message) = inbox.next().await {
        match message {
            Outgoing::Text(text) => {
                if sink.send(Message::text(&*text)).await.is_err() {
                    break;
                }
            }
            Outgoing::Close(reason) => {
                let frame = CloseFrame { code: CloseCode::Policy, reason: reason.into() };
                let _ = sink.send(Message::Close(Some(frame))).await;
                break;
            }
        }
    }
    let _ = sink.close().await;
}

/// Reads and answers requests, within the limits, until the peer closes,
/// the writer ends or the server closes the connection.
async fn read_requests<S: AsyncRead + AsyncWrite + Unpin>(
    shared: &Arc<Shared>,
    conn: &mut Conn,
    frames: &mut Frames<S>,
    writer: &mut tokio::task::JoinHandle<()>,
) -> Ended {
    let limits = shared.config.limits;
    let mut messages = Bucket::new(limits.messages_per_second, limits.burst);
    let mut refusals = Bucket::new(limits.refusals_per_second, limits.refusals_per_second * 10.0);
    let mut ended = Ended { closing: false, written: false };
    let flood = |conn: &Conn| close(conn, ErrorCode::Flood, "too many refused requests");
    loop {
        // A connection cut off for reading too slowly reads no more either.
        let frame = tokio::select! {
            frame = frames.next() => frame,
            _ = &mut *writer => {
                ended.written = true;
                None
            }
        };
        let Some(frame) = frame else { break };
        let text = match frame {
            Ok(Message::Text(text)) => text,
            Ok(Message::Binary(_)) => {
                error(conn, None, ErrorCode::BadJson, "send JSON in text frames, not binary ones");
                if !refusals.take() {
                    flood(conn);
                    ended.closing = true;
                    break;
                }
                continue;
            }
            Ok(Message::Close(_)) => break,
            Ok(_) => continue,
            Err(e) => {
                if matches!(e, tokio_tungstenite::tungstenite::Error::Capacity(_)) {
                    let most = limits.message_bytes;
                    close(conn, ErrorCode::TooLarge, &format!("a message may hold at most {most} bytes"));
                    ended.closing = true;
                }
                break;
            }
        };
        if let Some(wait) = messages.wait() {
            // Not read faster than the limit: the sender's socket fills up.
            tokio::time::sleep(wait).await;
        }
        match handle(shared, conn, &text) {
            Handled::Answered => {}
            Handled::Refused if refusals.take() => {}
            Handled::Refused => {
                flood(conn);
                ended.closing = true;
                break;
            }
            Handled::Close => {
                ended.closing = true;
                break;
            }
        }
    }
    ended
}

fn send(conn: &Conn, body: Say<'_>, re: Option<&Id>) {
    conn.outbox.send(Outgoing::Text(say(body, re)));
}

fn error(conn: &Conn, re: Option<&Id>, code: ErrorCode, message: &str) {
    send(conn, ServerMessage::Error { code, message: message.to_owned() }, re);
}

fn close(conn: &Conn, code: ErrorCode, message: &str) {
    error(conn, None, code, message);
    conn.outbox.send(Outgoing::Close(match code {
        ErrorCode::Flood => "flood",
        ErrorCode::TooLarge => "too_large",
        _ => "closed",
    }));
}

enum Handled {
    Answered,
    Refused,
    Close,
}

/// Reads and answers one message.
fn handle(shared: &Arc<Shared>, conn: &mut Conn, text: &str) -> Handled {
    let mut object: Map<String, Value> = match serde_json::from_str(text) {
        Ok(object) => object,
        Err(e) => {
            error(conn, None, ErrorCode::BadJson, &format!("not a JSON object: {e}"));
            return Handled::Refused;
        }
    };
    let re = match object.remove("id").map(Id::try_from).transpose() {
        Ok(re) => re,
        Err(e) => {
            error(conn, None, ErrorCode::BadRequest, &e);
            return Handled::Refused;
        }
    };
    let request: Request = match serde_json::from_value(Value::Object(object)) {
        Ok(request) => request,
        Err(e) => {
            let message = format!("not a request of protocol {VERSION}: {e}");
            error(conn, re.as_ref(), ErrorCode::BadRequest, &message);
            return Handled::Refused;
        }
    };
    match answer(shared, conn, request, re.as_ref()) {
        Ok(()) => Handled::Answered,
        Err(refused) => {
            error(conn, re.as_ref(), refused.code, &refused.message);
            // A move that lost a race (another seat moved first, a Stop)
            // is no client's fault: it does not count towards a flood.
            if refused.code.is_race() {
                return Handled::Answered;
            }
            if refused.code == ErrorCode::BadToken {
                conn.bad_tokens += 1;
                if conn.bad_tokens >= shared.config.limits.wrong_tokens {
                    close(conn, ErrorCode::Flood, "too many wrong tokens");
                    return Handled::Close;
                }
            }
            Handled::Refused
        }
    }
}

fn answer(shared: &Arc<Shared>, conn: &mut Conn, request: Request, re: Option<&Id>) -> Result<(), Refused> {
    let hello = matches!(request, Request::Hello { .. });
    if !conn.greeted && !hello {
        return Err(Refused::new(
            ErrorCode::HelloFirst,
            format!("say hello first: {{\"type\": \"hello\", \"version\": {VERSION}}}"),
        ));
    }
    if conn.greeted && hello {
        return Err(Refused::new(ErrorCode::BadRequest, "hello was said already on this connection"));
    }
    if let Some(why) = shared.store.halt().reason()
        && !matches!(request, Request::Ping {})
    {
        return Err(Refused::new(ErrorCode::Halted, format!("the server takes no requests now: {why}")));
    }
    match request {
        Request::Hello { version, name } => hello_to(shared, conn, version, name, re),
        Request::Levels {} => {
            send(conn, levels(shared), re);
            Ok(())
        }
        Request::Tables {} => {
            send(conn, lobby::tables(shared), re);
            Ok(())
        }
        Request::Create(spec) => {
            if conn.created >= shared.config.limits.tables_per_connection {
                let most = shared.config.limits.tables_per_connection;
                return Err(Refused::new(
                    ErrorCode::Limit,
                    format!("a connection may open at most {most} tables"),
                ));
            }
            lobby::create(shared, &conn.outbox, *spec, re)?;
            conn.created += 1;
            Ok(())
        }
        Request::Join { table, seat, name } => {
            let name = match name {
                Some(name) => clean_name(&name)?,
                None => conn.name.clone().unwrap_or_else(|| "Guest".into()),
            };
            lobby::join(shared, conn.id, &conn.outbox, &table, seat, name, re)
        }
        Request::Resume { token } => lobby::resume(shared, conn.id, &conn.outbox, &token, re),
        Request::Watch { table } => lobby::watch(shared, conn.id, &conn.outbox, &table, re),
        Request::Leave { table } => {
            lobby::leave(shared, conn.id, &table);
            send(conn, ServerMessage::Left { table }, re);
            Ok(())
        }
        Request::Ping {} => {
            send(conn, ServerMessage::Pong {}, re);
            Ok(())
        }
        Request::Replay { table } => {
            let at = shared.table(&table).ok_or_else(|| lobby::no_table(&table))?;
            let replay = lock(&at).replay_for(conn.id)?;
            send(conn, ServerMessage::Replay { table, replay }, re);
            Ok(())
        }
        other => play(shared, conn, other, re),
    }
}

/// A name as others will see it: printable, trimmed, at most
/// [`NAME_CHARS`] characters (a longer one is refused, not cut).
fn clean_name(name: &str) -> Result<String, Refused> {
    let name: String = name.chars().filter(|c| !c.is_control()).collect();
    let name = name.trim();
    if name.chars().count() > NAME_CHARS {
        return Err(Refused::new(
            ErrorCode::BadRequest,
            format!("a name has at most {NAME_CHARS} characters; this one has {}", name.chars().count()),
        ));
    }
    Ok(if name.is_empty() { "Guest".into() } else { name.to_owned() })
}

fn hello_to(
    shared: &Shared,
    conn: &mut Conn,
    version: u32,
    name: Option<String>,
    re: Option<&Id>,
) -> Result<(), Refused> {
    if version != VERSION {
        return Err(Refused::new(
            ErrorCode::Version,
            format!("this server speaks protocol {VERSION}, not {version}"),
        ));
    }
    conn.name = name.as_deref().map(clean_name).transpose()?;
    conn.greeted = true;
    let games = tabula_engine::games::all()
        .iter()
        .map(|g| GameInfo {
            game: g.name().to_owned(),
            title: g.title().to_owned(),
            seats: [g.seats().0, g.seats().1],
        })
        .collect();
    let l = shared.config.limits;
    let limits = LimitsInfo {
        message_bytes: l.message_bytes,
        level_bytes: l.level_bytes,
        messages_per_second: l.messages_per_second,
        burst: l.burst,
        refusals_per_second: l.refusals_per_second,
        tables_per_connection: l.tables_per_connection,
        connections_per_address: l.connections_per_address,
        wrong_tokens: l.wrong_tokens,
        tables: l.tables,
        legal_moves: l.legal_moves,
        plies: l.plies,
        hosted_level_bytes: l.hosted_level_bytes,
        sent_bytes: l.sent_bytes(),
    };
    let server = concat!("tabula ", env!("CARGO_PKG_VERSION")).to_owned();
    send(conn, ServerMessage::Welcome { version: VERSION, server, games, limits }, re);
    Ok(())
}

fn levels(shared: &Shared) -> Say<'static> {
    let levels = shared
        .levels
        .iter()
        .map(|(name, level)| {
            let game = level.game();
            LevelEntry {
                level: name.clone(),
                game: game.name().to_owned(),
                name: level.name().to_owned(),
                seats: game.num_players(level),
                description: level.description().to_owned(),
            }
        })
        .collect();
    let agents = tabula_engine::games::all()
        .iter()
        .map(|g| {
            let agents = g
                .agents()
                .iter()
                .map(|a| AgentEntry { name: a.name.to_owned(), plays: a.plain.to_owned() })
                .collect();
            (g.name().to_owned(), agents)
        })
        .collect();
    ServerMessage::Levels { levels, agents }
}

/// The requests a seat makes at its table.
fn play(shared: &Arc<Shared>, conn: &Conn, request: Request, re: Option<&Id>) -> Result<(), Refused> {
    let (table_id, named) = match &request {
        Request::Move { table, seat, .. }
        | Request::TakeBack { table, seat }
        | Request::Answer { table, seat, .. }
        | Request::Resign { table, seat }
        | Request::Rematch { table, seat } => (table.clone(), *seat),
        _ => unreachable!("the lobby's requests are answered before"),
    };
    let table = shared.table(&table_id).ok_or_else(|| lobby::no_table(&table_id))?;
    let seat = lock(&table).seat_of(conn.id, named)?;
    if let Request::Rematch { .. } = request {
        return lobby::rematch(shared, &table, seat, conn.id, re);
    }
    let job = {
        let mut t = lock(&table);
        match request {
            Request::Move { mv, ply, .. } => t.play(seat, &mv, ply, re, Some(conn.id))?,
            Request::TakeBack { .. } => t.ask_take_back(seat, conn.id, re)?,
            Request::Answer { accept, .. } => t.answer(seat, accept, conn.id, re)?,
            Request::Resign { .. } => t.resign(seat, conn.id, re)?,
            _ => unreachable!("matched above"),
        }
    };
    agents::submit(shared, &table, job);
    Ok(())
}
