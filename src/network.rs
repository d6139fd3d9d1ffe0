//! `tabula serve` and `tabula bot`: the game server, and an agent that
//! plays a seat at one of its tables (docs/protocol.md).

use std::net::SocketAddr;
use std::path::PathBuf;
use std::process::ExitCode;

use tabula_server::client::{BotEvent, BotPlan, run_bot};
use tabula_server::protocol::{Message, ServerMessage};
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
    /// The most legal moves a level hosted may give a seat at once (each
    /// goes out in every message's `legal`).
    #[arg(long, default_value_t = Limits::default().legal_moves)]
    max_legal_moves: u64,
    /// The most moves a game hosted may last: a level's move cap must be
    /// within it.
    #[arg(long, default_value_t = Limits::default().plies)]
    max_game_moves: u64,
    /// The most megabytes the database may grow to; past it (as on a full
    /// disk) the server stops taking moves, tells every client why and
    /// exits with an error. No limit by default.
    #[arg(long)]
    max_database_mb: Option<u64>,
}

pub fn serve(args: ServeArgs) -> anyhow::Result<ExitCode> {
    let limits = Limits {
        connections_per_address: args.max_connections_per_address,
        tables_per_connection: args.max_tables_per_connection,
        tables: args.max_tables,
        messages_per_second: args.messages_per_second,
        burst: args.messages_per_second * 2.0,
        refusals_per_second: args.refusals_per_second,
        legal_moves: args.max_legal_moves,
        plies: args.max_game_moves,
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
        database_bytes: args.max_database_mb.map(|mb| mb * 1024 * 1024),
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
        create: args.create.map(|level| (level, (!args.seats.is_empty()).then(|| args.seats.clone()))),
        seat: args.seat,
        token: args.token,
        agent: args.agent.parse()?,
    };
    let server = args.server;
    let game = run_bot(plan, &mut |event| match event {
        BotEvent::Heard(message) => say(&server, message),
        BotEvent::Reconnecting(why) => println!("lost the server ({why}); coming back with the token"),
    })?;
    println!("{} moves played by this seat", game.moves);
    Ok(ExitCode::SUCCESS)
}

/// One line a message worth telling.
fn say(server: &str, message: &Message) {
    let mut result = None;
    match &message.body {
        ServerMessage::Created { table, level, .. } => {
            println!("table {table} ({level}); another bot joins with: tabula bot {server} --table {table}")
        }
        ServerMessage::Joined { table, seat, token } => println!(
            "seat {seat} at table {table}; token {token} (with --table {table} --token {token} this seat plays on after a stop)"
        ),
        ServerMessage::State(state) => {
            println!("at move {}, seat {} to move", state.ply, state.to_move);
            result = state.result.as_ref();
        }
        ServerMessage::Moved(moved) => {
            println!("move {}: seat {} {}", moved.ply, moved.seat, moved.says);
            result = moved.result.as_ref();
        }
        ServerMessage::Seats { seats, .. } => {
            let who: Vec<String> = seats
                .iter()
                .map(|seat| {
                    let here = if seat.connected { "here" } else { "away" };
                    format!("seat {} {} {here}", seat.seat, seat.name.as_deref().unwrap_or("open"))
                })
                .collect();
            println!("{}", who.join(", "));
        }
        ServerMessage::Ended { result: ended, .. } => result = Some(ended),
        ServerMessage::Error { message, .. } => println!("refused: {message}"),
        ServerMessage::Halted { message } => println!("the server stopped taking moves: {message}"),
        _ => {}
    }
    if let Some(result) = result {
        let winner = result.winner.map_or("a draw".to_owned(), |w| format!("seat {w} won"));
        let reason = serde_json::to_value(result.reason).unwrap_or_default();
        println!(
            "the game is over: {winner} ({}), scores {:?}",
            reason.as_str().unwrap_or_default(),
            result.scores
        );
    }
}
