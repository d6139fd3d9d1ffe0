//! The server's command line, shared by `tabula serve` and the
//! `tabula-server` binary (a host's server with no window: no Bevy, ALSA
//! or X11 in it).

use std::net::SocketAddr;
use std::path::PathBuf;

use crate::{Config, Limits};

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
    /// `.ron` [default: $TABULA_LEVELS, else the levels installed beside the
    /// executable (share/tabula/levels), else ./levels, else the sources']
    #[arg(long)]
    levels: Option<PathBuf>,
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
    /// Serve the web page from this folder, read anew at every request,
    /// instead of the page built into the server (for working on the page:
    /// web/public).
    #[arg(long)]
    web: Option<PathBuf>,
}

/// Serves until the process ends, or until the database refuses a
/// write (then the reason is the error); `name` is the program's, as its
/// first line says it.
pub fn serve(args: ServeArgs, name: &str) -> anyhow::Result<()> {
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
    let (scheme, page) = if tls.is_some() { ("wss", "https") } else { ("ws", "http") };
    let db = args.db.clone();
    let config = Config {
        listen: args.listen,
        database: args.db,
        levels: Some(
            args.levels.unwrap_or_else(|| tabula_engine::shipped::folder("TABULA_LEVELS", "levels")),
        ),
        replays: Some(args.replays),
        tls,
        database_bytes: args.max_database_mb.map(|mb| mb * 1024 * 1024),
        limits,
        web: args.web,
    };
    crate::serve(config, |addr, tables| {
        println!("{name}: listening on {scheme}://{addr} ({tables} tables in play from {})", db.display());
        println!("{name}: the web page: {page}://{addr}/");
    })
}
