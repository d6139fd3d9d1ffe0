//! `tabula serve` and `tabula bot`: the game server, and an agent that
//! plays a seat at one of its tables (docs/protocol.md).

use std::path::PathBuf;
use std::process::ExitCode;

use tabula_server::client::{BotEvent, BotPlan, run_bot};
use tabula_server::protocol::{Message, ServerMessage};

pub use tabula_server::cli::ServeArgs;

pub fn serve(args: ServeArgs) -> anyhow::Result<ExitCode> {
    tabula_server::cli::serve(args, "tabula serve")?;
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
