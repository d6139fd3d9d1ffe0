//! `tabula serve` and `tabula bot`: the game server, and an agent that
//! plays a seat at one of its tables (docs/protocol.md).

use std::net::SocketAddr;
use std::path::PathBuf;
use std::process::ExitCode;

use serde_json::Value;
use tabula_server::client::{BotPlan, run_bot};
use tabula_server::{Config, Limits};

#[derive(clap::Args, Debug)]
pub struct ServeArgs {
    /// Where to listen: localhost unless told otherwise (0.0.0.0:7878 for
    /// every network).
    #[arg(long, default_value = "127.0.0.1:7878")]
    listen: SocketAddr,
    /// The database of tables and moves; a restarted server plays on from it.
    #[arg(long, default_value = "tabula-server.db")]
    db: PathBuf,
    /// The folder of the levels offered by name: a level's path in it, without
    /// `.ron`.
    #[arg(long, default_value = "levels")]
    levels: PathBuf,
    /// Where every finished game is saved as a replay.
    #[arg(long, default_value = "replays/server")]
    replays: PathBuf,
    /// A certificate chain (PEM) to serve wss:// with, and its key.
    #[arg(long, requires = "tls_key")]
    tls_cert: Option<PathBuf>,
    /// The certificate's private key (PEM).
    #[arg(long, requires = "tls_cert")]
    tls_key: Option<PathBuf>,
    /// Connections one address may hold at once.
    #[arg(long, default_value_t = Limits::default().connections_per_address)]
    max_connections_per_address: usize,
    /// Tables one connection may open.
    #[arg(long, default_value_t = Limits::default().tables_per_connection)]
    max_tables_per_connection: usize,
    /// Tables the server holds at most.
    #[arg(long, default_value_t = Limits::default().tables)]
    max_tables: usize,
    /// Messages a second a connection may send on average (a burst of 2
    /// seconds' worth at once): past that the server reads it no faster.
    #[arg(long, default_value_t = Limits::default().messages_per_second)]
    messages_per_second: f64,
    /// Refused requests a second a connection may send on average (ten
    /// times that at once): past that it is closed as a flood.
    #[arg(long, default_value_t = Limits::default().refusals_per_second)]
    refusals_per_second: f64,
}

pub fn serve(args: ServeArgs) -> anyhow::Result<ExitCode> {
    let limits = Limits {
        connections_per_address: args.max_connections_per_address,
        tables_per_connection: args.max_tables_per_connection,
        tables: args.max_tables,
        messages_per_second: args.messages_per_second,
        burst: args.messages_per_second * 2.0,
        refusals_per_second: args.refusals_per_second,
        ..Limits::default()
    };
    let tls = args.tls_cert.zip(args.tls_key);
    let scheme = if tls.is_some() { "wss" } else { "ws" };
    let db = args.db.clone();
    let config = Config {
        listen: args.listen,
        database: args.db,
        levels: Some(args.levels),
        replays: Some(args.replays),
        tls,
        limits,
    };
    tabula_server::serve(config, |addr, tables| {
        println!(
            "tabula serve: listening on {scheme}://{addr} ({tables} tables in play from {})",
            db.display()
        );
    })?;
    Ok(ExitCode::SUCCESS)
}

#[derive(clap::Args, Debug)]
pub struct BotArgs {
    /// The server: ws://host:port, or wss://host:port.
    server: String,
    /// The table to join.
    #[arg(long)]
    table: Option<String>,
    /// Or a level of the server's (as its levels list names them) to open a
    /// table of, this bot in the first open seat.
    #[arg(long, conflicts_with = "table")]
    create: Option<String>,
    /// With --create: who sits where, `person` (open for someone to join)
    /// or an agent, seat 1 first; every seat open by default.
    #[arg(long, value_delimiter = ',', requires = "create")]
    seats: Vec<String>,
    /// The seat to take (the first open one by default).
    #[arg(long)]
    seat: Option<u8>,
    /// A seat's token from before: play on there (with --table).
    #[arg(long)]
    token: Option<String>,
    /// The agent that plays the seat: `random`, `greedy`, `sleuth`, ...
    #[arg(long, default_value = "random")]
    agent: String,
    /// The name the other seats see.
    #[arg(long)]
    name: Option<String>,
    /// Certificates (PEM) to trust for wss:// besides none: the server's own,
    /// or its authority's (default: the system's).
    #[arg(long)]
    ca: Option<PathBuf>,
}

pub fn bot(args: BotArgs) -> anyhow::Result<ExitCode> {
    let plan = BotPlan {
        url: args.server.clone(),
        ca: args.ca,
        name: args.name.unwrap_or_else(|| format!("{} (bot)", args.agent)),
        table: args.table,
        create: args.create.map(|level| {
            let seats = if args.seats.is_empty() { Vec::new() } else { args.seats.clone() };
            (level, seats)
        }),
        seat: args.seat,
        token: args.token,
        agent: args.agent.parse()?,
    };
    let server = args.server;
    let game = run_bot(plan, &mut |message| say(&server, message))?;
    println!("{} moves played by this seat", game.moves);
    Ok(ExitCode::SUCCESS)
}

/// One line a message worth telling.
fn say(server: &str, m: &Value) {
    let s = |key: &str| m[key].as_str().unwrap_or_default().to_owned();
    match m["type"].as_str().unwrap_or_default() {
        "created" => println!(
            "table {} ({}); another bot joins with: tabula bot {server} --table {}",
            s("table"),
            s("level"),
            s("table")
        ),
        "joined" => println!(
            "seat {} at table {}; token {} (with --table {} --token {} this seat plays on after a stop)",
            m["seat"],
            s("table"),
            s("token"),
            s("table"),
            s("token")
        ),
        "state" => println!("at move {}, seat {} to move", m["ply"], m["to_move"]),
        "moved" => println!("move {}: seat {} {}", m["ply"], m["seat"], s("says")),
        "seats" => {
            let who: Vec<String> = m["seats"]
                .as_array()
                .into_iter()
                .flatten()
                .map(|seat| {
                    let here = if seat["connected"] == true { "here" } else { "away" };
                    format!("seat {} {} {here}", seat["seat"], seat["name"].as_str().unwrap_or("open"))
                })
                .collect();
            println!("{}", who.join(", "));
        }
        "reconnecting" => println!("lost the server ({}); coming back with the token", s("why")),
        "error" => println!("refused: {}", s("message")),
        _ => {}
    }
    if let Some(result) = m.get("result").filter(|r| !r.is_null()) {
        let winner = result["winner"].as_u64().map_or("a draw".to_owned(), |w| format!("seat {w} won"));
        println!(
            "the game is over: {winner} ({}), scores {}",
            result["reason"].as_str().unwrap_or_default(),
            result["scores"]
        );
    }
}
