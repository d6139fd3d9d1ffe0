//! One client's connection: WebSocket frames in, requests read and
//! answered, messages out in order. Bad input gets an error and changes
//! nothing; a flood or an oversized frame closes the connection.

use std::sync::Arc;
use std::time::{Duration, Instant};

use futures_util::{SinkExt, StreamExt};
use serde_json::{Map, Value, json};
use tokio::io::{AsyncRead, AsyncWrite};
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::tungstenite::protocol::frame::coding::CloseCode;
use tokio_tungstenite::tungstenite::protocol::{CloseFrame, WebSocketConfig};

use crate::agents;
use crate::lobby::{self, answering};
use crate::protocol::{Request, VERSION, code};
use crate::shared::{Shared, lock};
use crate::store::{Outbox, Outgoing};
use crate::table::{ConnId, Refused};

/// Messages waiting for a slow reader before it is let go.
const OUTBOX: usize = 4096;
/// Wrong tokens a connection may try before it is let go.
const BAD_TOKENS: u32 = 8;
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

struct Conn {
    id: ConnId,
    outbox: Outbox,
    name: Option<String>,
    greeted: bool,
    created: usize,
    bad_tokens: u32,
}

pub async fn serve<S: AsyncRead + AsyncWrite + Unpin + Send + 'static>(shared: Arc<Shared>, stream: S) {
    let limits = shared.config.limits;
    let config = WebSocketConfig::default()
        .read_buffer_size(READ_BUFFER)
        .max_message_size(Some(limits.message_bytes))
        .max_frame_size(Some(limits.message_bytes));
    let handshake = tokio_tungstenite::accept_async_with_config(stream, Some(config));
    let Ok(Ok(socket)) = tokio::time::timeout(std::time::Duration::from_secs(10), handshake).await else {
        return;
    };
    let (mut sink, mut frames) = socket.split();
    let (outbox, mut inbox) = Outbox::new(OUTBOX);
    let mut writer = tokio::spawn(async move {
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
    });
    let mut conn =
        Conn { id: shared.next_connection(), outbox, name: None, greeted: false, created: 0, bad_tokens: 0 };
    let mut messages = Bucket::new(limits.messages_per_second, limits.burst);
    let mut refusals = Bucket::new(limits.refusals_per_second, limits.refusals_per_second * 10.0);
    let mut written = false;
    loop {
        // A connection cut off for reading too slowly reads no more either.
        let frame = tokio::select! {
            frame = frames.next() => frame,
            _ = &mut writer => {
                written = true;
                None
            }
        };
        let Some(frame) = frame else { break };
        let text = match frame {
            Ok(Message::Text(text)) => text,
            Ok(Message::Binary(_)) => {
                error(&conn, None, code::BAD_JSON, "send JSON in text frames, not binary ones");
                if !refusals.take() {
                    close(&conn, code::FLOOD, "too many refused requests");
                    break;
                }
                continue;
            }
            Ok(Message::Close(_)) => break,
            Ok(_) => continue,
            Err(e) => {
                let too_large = matches!(e, tokio_tungstenite::tungstenite::Error::Capacity(_));
                if too_large {
                    let most = limits.message_bytes;
                    close(&conn, code::TOO_LARGE, &format!("a message may hold at most {most} bytes"));
                }
                break;
            }
        };
        if let Some(wait) = messages.wait() {
            // Not read faster than the limit: the sender's socket fills up.
            tokio::time::sleep(wait).await;
        }
        match handle(&shared, &mut conn, &text) {
            Handled::Answered => {}
            Handled::Refused if refusals.take() => {}
            Handled::Refused => {
                close(&conn, code::FLOOD, "too many refused requests");
                break;
            }
            Handled::Close => break,
        }
    }
    // Whatever was said is said; the seats wait for their tokens.
    let tables: Vec<String> = lock(&shared.tables).keys().cloned().collect();
    for table in tables {
        lobby::leave(&shared, conn.id, &table);
    }
    drop(conn);
    if !written {
        let _ = writer.await;
    }
}

fn send(conn: &Conn, value: &Value) {
    conn.outbox.send(Outgoing::Text(value.to_string().into()));
}

fn error(conn: &Conn, re: Option<&Value>, code: &str, message: &str) {
    let mut value = json!({"type": "error", "code": code, "message": message});
    if let Some(re) = re {
        value["re"] = re.clone();
    }
    send(conn, &value);
}

fn close(conn: &Conn, code: &'static str, message: &str) {
    error(conn, None, code, message);
    conn.outbox.send(Outgoing::Close(code));
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
            error(conn, None, code::BAD_JSON, &format!("not a JSON object: {e}"));
            return Handled::Refused;
        }
    };
    let re = object.remove("id");
    let request: Request = match serde_json::from_value(Value::Object(object)) {
        Ok(request) => request,
        Err(e) => {
            error(conn, re.as_ref(), code::BAD_REQUEST, &format!("not a request of protocol {VERSION}: {e}"));
            return Handled::Refused;
        }
    };
    match answer(shared, conn, request, re.as_ref()) {
        Ok(()) => Handled::Answered,
        Err(refused) => {
            error(conn, re.as_ref(), refused.code, &refused.message);
            // A move that lost a race (another seat moved first, a Stop)
            // is no client's fault: it does not count towards a flood.
            if refused.code == code::STALE || refused.code == code::NOT_YOUR_TURN {
                return Handled::Answered;
            }
            if refused.code == code::BAD_TOKEN {
                conn.bad_tokens += 1;
                if conn.bad_tokens >= BAD_TOKENS {
                    close(conn, code::FLOOD, "too many wrong tokens");
                    return Handled::Close;
                }
            }
            Handled::Refused
        }
    }
}

fn answer(
    shared: &Arc<Shared>,
    conn: &mut Conn,
    request: Request,
    re: Option<&Value>,
) -> Result<(), Refused> {
    if !conn.greeted && !matches!(request, Request::Hello { .. }) {
        return Err(Refused::new(
            code::HELLO_FIRST,
            format!("say hello first: {{\"type\": \"hello\", \"version\": {VERSION}}}"),
        ));
    }
    match request {
        Request::Hello { version, name } => hello(shared, conn, version, name, re),
        Request::Levels => {
            send(conn, &levels(shared, re));
            Ok(())
        }
        Request::Create(spec) => {
            if conn.created >= shared.config.limits.tables_per_connection {
                let most = shared.config.limits.tables_per_connection;
                return Err(Refused::new(
                    code::LIMIT,
                    format!("a connection may open at most {most} tables"),
                ));
            }
            lobby::create(shared, &conn.outbox, *spec, re)?;
            conn.created += 1;
            Ok(())
        }
        Request::Join { table, seat, name } => {
            let name = name.or_else(|| conn.name.clone()).unwrap_or_else(|| "Guest".into());
            lobby::join(shared, conn.id, &conn.outbox, &table, seat, clean_name(&name), re)
        }
        Request::Resume { token } => lobby::resume(shared, conn.id, &conn.outbox, &token, re),
        Request::Watch { table } => lobby::watch(shared, conn.id, &conn.outbox, &table, re),
        Request::Leave { table } => {
            lobby::leave(shared, conn.id, &table);
            send(conn, &answering(json!({"type": "left", "table": table}), re));
            Ok(())
        }
        Request::Ping => {
            send(conn, &answering(json!({"type": "pong"}), re));
            Ok(())
        }
        other => play(shared, conn, other, re),
    }
}

/// A name as others will see it: printable, at most 40 characters.
fn clean_name(name: &str) -> String {
    let name: String = name.chars().filter(|c| !c.is_control()).take(40).collect();
    if name.trim().is_empty() { "Guest".into() } else { name.trim().to_owned() }
}

fn hello(
    shared: &Shared,
    conn: &mut Conn,
    version: u32,
    name: Option<String>,
    re: Option<&Value>,
) -> Result<(), Refused> {
    if version != VERSION {
        return Err(Refused::new(
            code::VERSION,
            format!("this server speaks protocol {VERSION}, not {version}"),
        ));
    }
    conn.greeted = true;
    conn.name = name.as_deref().map(clean_name);
    let games: Vec<Value> = tabula_engine::games::all()
        .iter()
        .map(|g| json!({"game": g.name(), "title": g.title(), "seats": [g.seats().0, g.seats().1]}))
        .collect();
    let l = shared.config.limits;
    send(
        conn,
        &answering(
            json!({"type": "welcome", "version": VERSION, "server": concat!("tabula ", env!("CARGO_PKG_VERSION")),
            "games": games, "limits": {"message_bytes": l.message_bytes, "level_bytes": l.level_bytes,
            "messages_per_second": l.messages_per_second, "burst": l.burst, "refusals_per_second": l.refusals_per_second,
            "tables_per_connection": l.tables_per_connection}}),
            re,
        ),
    );
    Ok(())
}

fn levels(shared: &Shared, re: Option<&Value>) -> Value {
    let levels: Vec<Value> = shared
        .levels
        .iter()
        .map(|(name, level)| {
            let game = level.game();
            json!({"level": name, "game": game.name(), "name": level.name(), "seats": game.num_players(level),
                "description": level.description()})
        })
        .collect();
    let agents: Map<String, Value> = tabula_engine::games::all()
        .iter()
        .map(|g| {
            (
                g.name().to_owned(),
                g.agents().iter().map(|a| json!({"name": a.name, "plays": a.plain})).collect(),
            )
        })
        .collect();
    answering(json!({"type": "levels", "levels": levels, "agents": agents}), re)
}

/// The requests a seat makes at its table.
fn play(shared: &Arc<Shared>, conn: &Conn, request: Request, re: Option<&Value>) -> Result<(), Refused> {
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
