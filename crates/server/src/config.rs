//! What `tabula serve` is told: where to listen, its files, and the limits
//! each client is held to.

use std::net::SocketAddr;
use std::path::PathBuf;

/// What `tabula serve` is told on its command line.
#[derive(Clone, Debug)]
pub struct Config {
    /// Where to listen; localhost unless told otherwise.
    pub listen: SocketAddr,
    pub database: PathBuf,
    /// The folder of levels offered by name (`<game folder>/<file>`).
    pub levels: Option<PathBuf>,
    /// Where finished games' replays are written.
    pub replays: Option<PathBuf>,
    /// A certificate chain and its private key (PEM) to serve `wss://`.
    pub tls: Option<(PathBuf, PathBuf)>,
    /// The most bytes the database may grow to: past it (as on a full
    /// disk) the server stops taking moves and says why.
    pub database_bytes: Option<u64>,
    pub limits: Limits,
    /// A folder to serve the web page from instead of the built-in one.
    pub web: Option<PathBuf>,
}

/// What one client may ask of the server, so that none can starve the rest.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Limits {
    pub connections_per_address: usize,
    pub tables_per_connection: usize,
    pub tables: usize,
    /// The largest message, in bytes.
    pub message_bytes: usize,
    /// The largest level text a creator may send, in bytes.
    pub level_bytes: usize,
    /// Messages a second a connection may send, on average, and at once:
    /// past that the server reads it no faster (a fast bot is slowed, not
    /// cut off).
    pub messages_per_second: f64,
    pub burst: f64,
    /// Refused requests a second a connection may send on average (ten
    /// times that at once): past that it is closed as a flood.
    pub refusals_per_second: f64,
    /// Wrong tokens a connection may try before it is closed.
    pub wrong_tokens: u32,
    /// The largest level the server hosts, as every seat gets its text.
    pub hosted_level_bytes: usize,
    /// The most legal moves a hosted level may give a seat at once.
    pub legal_moves: u64,
    /// The most moves a hosted level's game may last (its move cap).
    pub plies: u64,
}

impl Limits {
    /// The largest message the server sends, given the limits on what it
    /// hosts (docs/protocol.md, "Limits"; the test `bounds` checks it on
    /// the largest level of each game).
    pub fn sent_bytes(&self) -> usize {
        // The level's text, the view and a move's steps, which grow with
        // the level (a board's tiles, the stones sown), each
        // legal move and each past move with its words (under 200 bytes in
        // every game), and the rest of a message.
        self.hosted_level_bytes * 64 + (self.legal_moves + self.plies) as usize * 200 + 64 * 1024
    }
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            connections_per_address: 64,
            tables_per_connection: 16,
            tables: 10_000,
            message_bytes: 64 * 1024,
            level_bytes: 16 * 1024,
            messages_per_second: 200.0,
            burst: 400.0,
            refusals_per_second: 10.0,
            wrong_tokens: 8,
            hosted_level_bytes: 64 * 1024,
            legal_moves: 10_000,
            plies: 10_000,
        }
    }
}

impl Default for Config {
    fn default() -> Config {
        Config {
            listen: SocketAddr::from(([127, 0, 0, 1], 7878)),
            database: "tabula-server.db".into(),
            levels: Some("levels".into()),
            replays: Some("replays/server".into()),
            tls: None,
            database_bytes: None,
            limits: Limits::default(),
            web: None,
        }
    }
}
