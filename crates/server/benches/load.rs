//! The game server under load (issue 28, item 8): a server in this process
//! on 127.0.0.1 with a database of its own, tables of two clients each
//! playing Kalah (6,4) over real WebSocket connections, each seat moving at
//! random among the legal moves its messages list, and a rematch at every
//! game's end so that load goes on; beside them, idle connections that said
//! hello and watch a table (one each, the first tables'), reading what they
//! are sent and sending nothing. It measures the moves acknowledged a
//! second (each one on disk before its "moved" comes back), the round trip
//! from sending a move to its own "moved", resident memory a table, the CPU
//! of the server's, the store's and the clients' threads, and, once
//! stopped, that every acknowledged move is in the database as it was
//! played, and that no watcher missed a move.
//!
//! `cargo bench -p tabula-server --bench load -- [--tables 500,200,500/80,200/100]
//! [--idle 100] [--seconds 20] [--max-moves 2000000] [--level mancala/kalah-6-4] [--no-replays]`
//!
//! Each entry of `--tables` is a configuration: tables, and after a slash
//! the mean time in ms a seat thinks before each move (none: it moves as
//! soon as it may, so the round trip is as long as the queue of every
//! table's move). Each runs in turn in a process of its own on a fresh
//! server. Load goes to the loopback address only; every loop stops by
//! itself at the deadline or when the move budget is spent, whichever comes
//! first, and waits at most 10 s more for answers.

use std::borrow::Cow;
use std::collections::HashMap;
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, OnceLock};
use std::time::{Duration, Instant};

use serde::Deserialize;
use serde::de::IgnoredAny;
use serde_json::value::RawValue;
use serde_json::{Value, json};
use tabula_server::client::Client;
use tabula_server::{Config, Limits, Server};
use tokio::runtime::Runtime;
use tokio::sync::Semaphore;
use tokio::task::JoinSet;
use tokio_tungstenite::tungstenite::Message;

/// After the deadline: how long a seat waits for its last move's answer,
/// and the idle connections for their last messages.
const GRACE: Duration = Duration::from_secs(10);
/// Connections opening at once while the tables are set up.
const OPENING: usize = 16;

/// One configuration: tables, and the mean time a seat thinks before a
/// move (0: it moves as soon as it is told it may).
#[derive(Clone, Copy)]
struct Setup {
    tables: usize,
    think_ms: u64,
}

struct Args {
    setups: Vec<Setup>,
    idle: usize,
    seconds: f64,
    max_moves: u64,
    level: String,
    /// Write no replay files (as `tabula serve` does when told no folder).
    no_replays: bool,
}

fn args() -> Args {
    let mut args = Args {
        setups: Vec::new(),
        idle: 100,
        seconds: 20.0,
        max_moves: 2_000_000,
        level: "mancala/kalah-6-4".into(),
        no_replays: false,
    };
    let mut setups = "500,200,500/80,200/100".to_owned();
    let mut it = std::env::args().skip(1);
    while let Some(arg) = it.next() {
        let mut value = || it.next().unwrap_or_else(|| panic!("{arg} wants a value"));
        match arg.as_str() {
            "--tables" => setups = value(),
            "--idle" => args.idle = value().parse().expect("--idle: a number"),
            "--seconds" => args.seconds = value().parse().expect("--seconds: a number"),
            "--max-moves" => args.max_moves = value().parse().expect("--max-moves: a number"),
            "--level" => args.level = value(),
            "--no-replays" => args.no_replays = true,
            // What cargo adds (`--bench`), and anything else: not ours.
            _ => {}
        }
    }
    for setup in setups.split(',') {
        let (tables, think) = setup.trim().split_once('/').unwrap_or((setup.trim(), "0"));
        let tables = tables.parse().expect("--tables: numbers, each maybe with /think-ms");
        let think_ms = think.parse().expect("--tables: a think time in ms after /");
        assert!(tables > 0, "--tables: at least one table");
        args.setups.push(Setup { tables, think_ms });
    }
    assert!(args.seconds > 0.0 && args.seconds <= 600.0, "--seconds: more than 0, at most 600");
    args
}

/// What every seat shares: when to stop, and the moves left to send.
struct Control {
    start: Instant,
    deadline: Instant,
    moves_left: AtomicU64,
    /// When the last move of the budget was taken, if it was.
    spent: OnceLock<Instant>,
    /// The players are done: the idle connections may stop.
    done: AtomicBool,
}

impl Control {
    /// Takes one move from the budget, unless it is spent or time is up.
    fn may_move(&self) -> bool {
        if Instant::now() >= self.stop() {
            return false;
        }
        let taken =
            self.moves_left.fetch_update(Ordering::Relaxed, Ordering::Relaxed, |n| n.checked_sub(1)).is_ok();
        if !taken {
            self.spent.get_or_init(Instant::now);
        }
        taken
    }

    /// When the seats stop moving: the deadline, or sooner once the
    /// budget is spent.
    fn stop(&self) -> Instant {
        self.spent.get().map_or(self.deadline, |&spent| spent.min(self.deadline))
    }
}

/// What one seat saw.
#[derive(Default)]
struct SeatReport {
    sent: u64,
    /// Round trips of the moves acknowledged before the deadline, in µs.
    round_trips: Vec<u32>,
    /// Every acknowledged move: table, ply, move.
    acked: Vec<(String, u64, String)>,
    acked_in_time: u64,
    refused: u64,
    unanswered: u64,
    games: u64,
    failure: Option<String>,
}

/// A small random number generator (splitmix64): choosing among a few
/// legal moves needs nothing more.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        ((z ^ (z >> 31)) % n as u64) as usize
    }
}

/// What a seat reads of a message: the fields it acts on, nothing else
/// built (the view, the steps and the rest are skipped unread).
#[derive(Deserialize)]
struct Seen<'a> {
    #[serde(rename = "type", borrow)]
    kind: Cow<'a, str>,
    re: Option<u64>,
    #[serde(borrow)]
    table: Option<Cow<'a, str>>,
    ply: Option<u64>,
    to_move: Option<u64>,
    /// Present and not null once the game is over.
    result: Option<IgnoredAny>,
    #[serde(default, borrow)]
    legal: Vec<Legal<'a>>,
    #[serde(rename = "move", borrow)]
    mv: Option<&'a RawValue>,
    #[serde(borrow)]
    new_table: Option<Cow<'a, str>>,
    seat: Option<u64>,
}

#[derive(Deserialize)]
struct Legal<'a> {
    #[serde(rename = "move", borrow)]
    mv: &'a RawValue,
}

/// Plays a seat until the deadline or the budget: a random legal move when
/// the seat is to move, a rematch at each game's end.
async fn play(
    mut client: Client,
    mut table: String,
    mut seat: u64,
    first: String,
    control: Arc<Control>,
    seed: u64,
    think_ms: u64,
) -> SeatReport {
    let mut report = SeatReport::default();
    let mut rng = Rng(seed);
    let mut next_id = 1_000u64;
    // The move waiting for its "moved": id, when sent.
    let mut waiting: Option<(u64, Instant)> = None;
    let mut stopping = false;
    let mut text = Some(first);
    loop {
        if let Some(t) = text.take() {
            let m: Seen = match serde_json::from_str(&t) {
                Ok(m) => m,
                Err(e) => {
                    report.failure = Some(format!("{e}: {t}"));
                    break;
                }
            };
            let answers = waiting.is_some_and(|(id, _)| m.re == Some(id));
            match &*m.kind {
                "moved" if answers => {
                    let (_, sent) = waiting.take().expect("checked");
                    let now = Instant::now();
                    if now <= control.deadline {
                        report
                            .round_trips
                            .push(now.duration_since(sent).as_micros().min(u32::MAX as u128) as u32);
                        report.acked_in_time += 1;
                    }
                    let mv = m.mv.map_or(String::new(), |mv| mv.get().to_owned());
                    report.acked.push((table.clone(), m.ply.unwrap_or(0), mv));
                }
                "error" if answers => {
                    waiting = None;
                    report.refused += 1;
                }
                "error" => {
                    report.failure = Some(format!("refused: {t}"));
                    break;
                }
                "rematch" => {
                    table = m.new_table.as_deref().unwrap_or_default().to_owned();
                    seat = m.seat.unwrap_or(0);
                }
                _ => {}
            }
            if (m.kind == "moved" || m.kind == "state") && m.table.as_deref() == Some(table.as_str()) {
                if m.result.is_some() {
                    report.games += 1;
                    if !stopping && Instant::now() < control.stop() {
                        let ask = format!(r#"{{"type":"rematch","table":"{table}"}}"#);
                        if let Err(e) = client.send_raw(Message::text(ask)).await {
                            report.failure = Some(e.to_string());
                            break;
                        }
                    }
                } else if waiting.is_none() && !stopping && m.to_move == Some(seat) && !m.legal.is_empty() {
                    if think_ms > 0 {
                        // Between none and twice the mean, evenly.
                        let ms = rng.below(2 * think_ms as usize + 1) as u64;
                        tokio::time::sleep(Duration::from_millis(ms)).await;
                    }
                    if control.may_move() {
                        let mv = m.legal[rng.below(m.legal.len())].mv.get();
                        next_id += 1;
                        let ply = m.ply.unwrap_or(0);
                        let request = format!(
                            r#"{{"type":"move","table":"{table}","move":{mv},"ply":{ply},"id":{next_id}}}"#
                        );
                        waiting = Some((next_id, Instant::now()));
                        report.sent += 1;
                        if let Err(e) = client.send_raw(Message::text(request)).await {
                            report.failure = Some(e.to_string());
                            break;
                        }
                    } else {
                        stopping = true;
                    }
                }
            }
        }
        let now = Instant::now();
        let stop = control.stop();
        if now >= stop {
            stopping = true;
        }
        if stopping && waiting.is_none() {
            break;
        }
        // Before the stop, a look every 100 ms whether the budget is spent.
        let until = if now < stop { stop.min(now + Duration::from_millis(100)) } else { stop + GRACE };
        if now >= stop + GRACE {
            report.unanswered += u64::from(waiting.is_some());
            break;
        }
        match tokio::time::timeout_at(until.into(), client.recv_text()).await {
            Ok(Ok(t)) => text = Some(t),
            Ok(Err(e)) => {
                report.failure = Some(e.to_string());
                report.unanswered += u64::from(waiting.is_some());
                break;
            }
            Err(_) => {}
        }
    }
    report
}

/// What an idle connection saw: messages, and moves it missed (a "moved"
/// whose ply is not one more than the last it saw of that table).
#[derive(Default)]
struct IdleReport {
    messages: u64,
    gaps: u64,
    failure: Option<String>,
}

/// Watches until the players are done, reading what it is sent.
async fn idle(mut client: Client, table: String, control: Arc<Control>) -> IdleReport {
    let mut report = IdleReport::default();
    if let Err(e) = client.request(json!({"type": "watch", "table": table})).await {
        report.failure = Some(e.to_string());
        return report;
    }
    let mut last: HashMap<String, u64> = HashMap::new();
    let hard_stop = control.deadline + 2 * GRACE;
    while !control.done.load(Ordering::Relaxed) && Instant::now() < hard_stop {
        match tokio::time::timeout(Duration::from_millis(200), client.recv_text()).await {
            Ok(Ok(t)) => {
                report.messages += 1;
                let Ok(m) = serde_json::from_str::<Seen>(&t) else {
                    report.failure = Some(format!("not a message: {t}"));
                    break;
                };
                let table = m.table.as_deref().unwrap_or_default();
                let ply = m.ply.unwrap_or(0);
                match &*m.kind {
                    "state" => {
                        last.insert(table.to_owned(), ply);
                    }
                    "moved" => {
                        let before = last.insert(table.to_owned(), ply);
                        if before.is_some_and(|b| b + 1 != ply) {
                            report.gaps += 1;
                        }
                    }
                    _ => {}
                }
            }
            Ok(Err(e)) => {
                report.failure = Some(e.to_string());
                break;
            }
            Err(_) => {}
        }
    }
    report
}

/// Resident memory of this process, in KiB.
fn rss_kib() -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .unwrap_or(0)
}

/// CPU seconds spent so far by this process's threads, by thread name.
fn cpu_by_thread() -> HashMap<String, f64> {
    let mut cpu = HashMap::new();
    let ticks = 100.0; // USER_HZ on Linux
    let Ok(tasks) = std::fs::read_dir("/proc/self/task") else { return cpu };
    for task in tasks.flatten() {
        let Ok(stat) = std::fs::read_to_string(task.path().join("stat")) else { continue };
        // The name is in parentheses; utime and stime are the 12th and
        // 13th fields after it.
        let (Some(open), Some(close)) = (stat.find('('), stat.rfind(')')) else { continue };
        let name = stat[open + 1..close].to_owned();
        let fields: Vec<&str> = stat[close + 2..].split(' ').collect();
        let used = fields.get(11).and_then(|u| u.parse::<f64>().ok()).unwrap_or(0.0)
            + fields.get(12).and_then(|s| s.parse::<f64>().ok()).unwrap_or(0.0);
        *cpu.entry(name).or_insert(0.0) += used / ticks;
    }
    cpu
}

fn percentile(sorted: &[u32], p: f64) -> f64 {
    if sorted.is_empty() {
        return f64::NAN;
    }
    let i = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    f64::from(sorted[i]) / 1000.0
}

/// One table's two seats, opened and joined: clients, table, first states.
async fn open_table(url: &str, level: &str) -> anyhow::Result<(Client, Client, String, String, String)> {
    let mut a = Client::connect(url, None, "Ann").await?;
    let created = a.request(json!({"type": "create", "level": level, "seats": ["person", "person"]})).await?;
    let table = created["table"].as_str().unwrap_or_default().to_owned();
    a.request(json!({"type": "join", "table": table, "seat": 1})).await?;
    let first_a = next_state(&mut a).await?;
    let mut b = Client::connect(url, None, "Bob").await?;
    b.request(json!({"type": "join", "table": table, "seat": 2})).await?;
    let first_b = next_state(&mut b).await?;
    Ok((a, b, table, first_a, first_b))
}

async fn next_state(client: &mut Client) -> anyhow::Result<String> {
    loop {
        let m = tokio::time::timeout(Duration::from_secs(10), client.recv()).await??;
        if m["type"] == "state" {
            return Ok(m.to_string());
        }
    }
}

struct Run {
    tables: usize,
    think_ms: u64,
    idle: usize,
    seconds: f64,
    opened_in: f64,
    rss_before: u64,
    rss_open: u64,
    rss_after: u64,
    sent: u64,
    acked: u64,
    acked_in_time: u64,
    refused: u64,
    unanswered: u64,
    games: u64,
    round_trips: Vec<u32>,
    failures: Vec<String>,
    idle_messages: u64,
    idle_gaps: u64,
    db_rows: u64,
    db_missing: u64,
    db_different: u64,
    cpu: HashMap<String, f64>,
}

fn run(args: &Args, setup: Setup, dir: &Path) -> anyhow::Result<Run> {
    let tables = setup.tables;
    let _ = std::fs::remove_dir_all(dir);
    std::fs::create_dir_all(dir)?;
    let database = dir.join("server.db");
    let levels = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../levels");
    let config = Config {
        listen: SocketAddr::from(([127, 0, 0, 1], 0)),
        database: database.clone(),
        levels: Some(levels),
        replays: (!args.no_replays).then(|| dir.join("replays")),
        tls: None,
        database_bytes: None,
        // The defaults are for the internet: here every connection comes
        // from one address and sends as fast as it is answered.
        limits: Limits {
            connections_per_address: 100_000,
            tables_per_connection: 16,
            tables: 1_000_000,
            messages_per_second: 100_000.0,
            burst: 100_000.0,
            ..Limits::default()
        },
        web: None,
    };
    // The server on a runtime of its own, as `tabula serve` runs it (a
    // worker a core); the clients on another.
    let server_rt = tokio::runtime::Builder::new_multi_thread().thread_name("server").enable_all().build()?;
    let client_rt: Runtime =
        tokio::runtime::Builder::new_multi_thread().thread_name("clients").enable_all().build()?;
    let addr = server_rt.block_on(async {
        let server = Server::bind(config).await?;
        let addr = server.local_addr();
        tokio::spawn(server.run());
        anyhow::Ok(addr)
    })?;
    assert!(addr.ip().is_loopback());
    let url = format!("ws://{addr}");
    let rss_before = rss_kib();
    let opening = Instant::now();
    let opened = client_rt.block_on(async {
        let gate = Arc::new(Semaphore::new(OPENING));
        let mut set = JoinSet::new();
        for i in 0..tables {
            let (gate, url, level) = (gate.clone(), url.clone(), args.level.clone());
            set.spawn(async move {
                let _permit = gate.acquire_owned().await;
                (i, tokio::time::timeout(Duration::from_secs(30), open_table(&url, &level)).await)
            });
        }
        let mut opened = Vec::with_capacity(tables);
        while let Some(done) = set.join_next().await {
            match done? {
                (i, Ok(Ok(table))) => opened.push((i, table)),
                (i, Ok(Err(e))) => anyhow::bail!("table {i} did not open: {e}"),
                (i, Err(_)) => anyhow::bail!("table {i} did not open in 30 s"),
            }
        }
        opened.sort_by_key(|(i, _)| *i);
        let mut idle = Vec::with_capacity(args.idle);
        for i in 0..args.idle {
            let client = Client::connect(&url, None, "Idle").await?;
            idle.push((client, opened[i % tables].1.2.clone()));
        }
        anyhow::Ok((opened, idle))
    });
    let (opened, idle_clients) = opened?;
    let opened_in = opening.elapsed().as_secs_f64();
    // Let the opening's messages settle before measuring memory.
    std::thread::sleep(Duration::from_millis(500));
    let rss_open = rss_kib();
    let cpu_before = cpu_by_thread();

    let start = Instant::now();
    let control = Arc::new(Control {
        start,
        deadline: start + Duration::from_secs_f64(args.seconds),
        moves_left: AtomicU64::new(args.max_moves),
        spent: OnceLock::new(),
        done: AtomicBool::new(false),
    });
    let (reports, idle_reports) = client_rt.block_on(async {
        let mut idlers = JoinSet::new();
        for (client, table) in idle_clients {
            idlers.spawn(idle(client, table, control.clone()));
        }
        let mut players = JoinSet::new();
        for (i, (a, b, table, first_a, first_b)) in opened.into_iter().map(|(i, t)| (i as u64, t)) {
            players.spawn(play(a, table.clone(), 1, first_a, control.clone(), 2 * i + 1, setup.think_ms));
            players.spawn(play(b, table, 2, first_b, control.clone(), 2 * i + 2, setup.think_ms));
        }
        let mut reports = Vec::new();
        while let Some(report) = players.join_next().await {
            reports.push(report.expect("a seat's task does not panic"));
        }
        control.done.store(true, Ordering::Relaxed);
        let mut idle_reports = Vec::new();
        while let Some(report) = idlers.join_next().await {
            idle_reports.push(report.expect("an idle task does not panic"));
        }
        (reports, idle_reports)
    });
    let played_for = control.start.elapsed();
    let cpu_after = cpu_by_thread();
    let rss_after = rss_kib();

    let mut run = Run {
        tables,
        think_ms: setup.think_ms,
        idle: args.idle,
        seconds: (control.stop() - control.start).as_secs_f64(),
        opened_in,
        rss_before,
        rss_open,
        rss_after,
        sent: 0,
        acked: 0,
        acked_in_time: 0,
        refused: 0,
        unanswered: 0,
        games: 0,
        round_trips: Vec::new(),
        failures: Vec::new(),
        idle_messages: idle_reports.iter().map(|r| r.messages).sum(),
        idle_gaps: idle_reports.iter().map(|r| r.gaps).sum(),
        db_rows: 0,
        db_missing: 0,
        db_different: 0,
        cpu: HashMap::new(),
    };
    run.failures.extend(idle_reports.iter().filter_map(|r| r.failure.clone()));
    for (name, used) in &cpu_after {
        let key = match name.as_str() {
            n if n.starts_with("server") => "server",
            n if n.starts_with("clients") => "clients",
            "tabula-store" => "store",
            _ => "other",
        };
        *run.cpu.entry(key.to_owned()).or_insert(0.0) +=
            (used - cpu_before.get(name).copied().unwrap_or(0.0)) / played_for.as_secs_f64();
    }
    // Nothing lost: every acknowledged move is in the database, as sent.
    let db = rusqlite::Connection::open_with_flags(&database, rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY)?;
    run.db_rows = db.query_row("SELECT COUNT(*) FROM moves", [], |r| r.get::<_, i64>(0))? as u64;
    let mut find = db.prepare("SELECT move FROM moves WHERE table_id = ?1 AND ply = ?2")?;
    for report in reports {
        run.sent += report.sent;
        run.acked += report.acked.len() as u64;
        run.acked_in_time += report.acked_in_time;
        run.refused += report.refused;
        run.unanswered += report.unanswered;
        run.games += report.games;
        run.round_trips.extend(&report.round_trips);
        run.failures.extend(report.failure);
        for (table, ply, mv) in &report.acked {
            let stored: Option<String> = find
                .query_row(rusqlite::params![table, *ply as i64], |r| r.get(0))
                .map(Some)
                .or_else(|e| match e {
                    rusqlite::Error::QueryReturnedNoRows => Ok(None),
                    e => Err(e),
                })?;
            match stored {
                None => run.db_missing += 1,
                Some(text)
                    if serde_json::from_str::<Value>(&text).ok()
                        != serde_json::from_str::<Value>(mv).ok() =>
                {
                    run.db_different += 1
                }
                Some(_) => {}
            }
        }
    }
    // Games end with a rematch on both sides: each is counted by both seats.
    run.games /= 2;
    run.round_trips.sort_unstable();
    drop(find);
    drop(db);
    client_rt.shutdown_timeout(Duration::from_secs(5));
    server_rt.shutdown_timeout(Duration::from_secs(5));
    Ok(run)
}

fn mib(kib: u64) -> f64 {
    kib as f64 / 1024.0
}

fn print(run: &Run) {
    let per_table = (run.rss_open.saturating_sub(run.rss_before)) as f64 / run.tables as f64;
    let rt = &run.round_trips;
    println!();
    let pace = match run.think_ms {
        0 => "each seat moves as soon as it may".to_owned(),
        ms => format!("each seat thinks {ms} ms on average"),
    };
    println!(
        "== {} tables ({} connections) + {} idle connections, {:.1} s; {pace} ==",
        run.tables,
        2 * run.tables,
        run.idle,
        run.seconds
    );
    println!("  opened in                      {:>10.2} s", run.opened_in);
    println!(
        "  moves acknowledged             {:>10}   ({} in time, {} sent)",
        run.acked, run.acked_in_time, run.sent
    );
    println!("  moves/s acknowledged           {:>10.0}", run.acked_in_time as f64 / run.seconds);
    println!("  games finished (rematched)     {:>10}", run.games);
    println!(
        "  round trip, ms                 median {:.2}   p90 {:.2}   p99 {:.2}   max {:.2}",
        percentile(rt, 0.5),
        percentile(rt, 0.9),
        percentile(rt, 0.99),
        rt.last().map_or(f64::NAN, |&m| f64::from(m) / 1000.0)
    );
    println!(
        "  resident memory, MiB           before {:.1}   tables open {:.1}   after the run {:.1}",
        mib(run.rss_before),
        mib(run.rss_open),
        mib(run.rss_after)
    );
    println!("  resident memory a table        {:>10.1} KiB (server and both clients' ends)", per_table);
    let cpu = |k: &str| run.cpu.get(k).copied().unwrap_or(0.0) * 100.0;
    println!(
        "  CPU, % of one core             server {:.0}   store writer {:.0}   clients {:.0}   other {:.0}",
        cpu("server"),
        cpu("store"),
        cpu("clients"),
        cpu("other")
    );
    println!("  refused / unanswered           {:>10} / {}", run.refused, run.unanswered);
    println!(
        "  idle connections: messages     {:>10}   (missed moves: {})",
        run.idle_messages, run.idle_gaps
    );
    println!(
        "  database: moves rows           {:>10}   acknowledged but missing: {}   different: {}",
        run.db_rows, run.db_missing, run.db_different
    );
    for failure in run.failures.iter().take(5) {
        println!("  failure: {failure}");
    }
    if run.failures.len() > 5 {
        println!("  ... {} failures in all", run.failures.len());
    }
}

/// The summary's columns.
const HEADER: &str = "| tables | think | idle | moves/s | round trip median | p99 | max | memory a table | acknowledged | missing from the database |";

fn row(run: &Run) -> String {
    let rt = &run.round_trips;
    format!(
        "| {} | {} ms | {} | {:.0} | {:.2} ms | {:.2} ms | {:.1} ms | {:.0} KiB | {} | {} |",
        run.tables,
        run.think_ms,
        run.idle,
        run.acked_in_time as f64 / run.seconds,
        percentile(rt, 0.5),
        percentile(rt, 0.99),
        rt.last().map_or(f64::NAN, |&m| f64::from(m) / 1000.0),
        (run.rss_open.saturating_sub(run.rss_before)) as f64 / run.tables as f64,
        run.acked,
        run.db_missing + run.db_different
    )
}

fn main() -> anyhow::Result<()> {
    let args = args();
    if args.setups.len() > 1 {
        // Each configuration in a process of its own: memory freed by one
        // would be reused by the next, and its figure a table be wrong.
        let mut rows = Vec::new();
        let mut failed = 0;
        for setup in &args.setups {
            let output = std::process::Command::new(std::env::current_exe()?)
                .args(["--tables", &format!("{}/{}", setup.tables, setup.think_ms)])
                .args(["--idle", &args.idle.to_string(), "--seconds", &args.seconds.to_string()])
                .args(["--max-moves", &args.max_moves.to_string(), "--level", &args.level])
                .args(args.no_replays.then_some("--no-replays"))
                .stderr(std::process::Stdio::inherit())
                .output()?;
            let text = String::from_utf8_lossy(&output.stdout);
            for line in text.lines() {
                match line.strip_prefix("row: ") {
                    Some(row) => rows.push(row.to_owned()),
                    None => println!("{line}"),
                }
            }
            failed += usize::from(!output.status.success());
        }
        println!();
        println!("{HEADER}");
        println!("|{}", " --- |".repeat(HEADER.matches(" | ").count() + 1));
        for row in rows {
            println!("{row}");
        }
        if failed > 0 {
            anyhow::bail!("{failed} configurations lost moves or connections");
        }
        return Ok(());
    }
    let setup = args.setups[0];
    let dir = std::env::temp_dir().join(format!("tabula-load-{}", std::process::id()));
    let run = run(&args, setup, &dir);
    let _ = std::fs::remove_dir_all(&dir);
    let run = run?;
    print(&run);
    println!("row: {}", row(&run));
    let lost = run.db_missing + run.db_different + run.unanswered + run.idle_gaps;
    if lost > 0 || !run.failures.is_empty() {
        anyhow::bail!("{lost} moves lost or unanswered, {} connections failed", run.failures.len());
    }
    Ok(())
}
