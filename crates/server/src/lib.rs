//! tabula's game server: tables of every registered game, played over
//! WebSocket by people and bots in any language (docs/protocol.md). The
//! engine decides every move; each connection is told only what its seat,
//! or a spectator, may see; every accepted move is on disk before anyone
//! hears of it. No Bevy here: the window's online play uses this crate's
//! protocol and client.

mod agents;
pub mod cli;
pub mod client;
mod config;
mod connection;
mod front;
pub mod link;
mod lobby;
pub mod page;
pub mod protocol;
mod random;
mod restore;
mod server;
mod shared;
mod store;
mod table;

pub use config::{Config, Limits};
pub use server::{Server, read_levels, serve};
pub use store::Halt;
