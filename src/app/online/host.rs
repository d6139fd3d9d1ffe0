//! The server a window runs for a friend to join ("Host"): in this
//! process, on a port the player chooses, until the window closes.

use std::net::{IpAddr, Ipv4Addr, SocketAddr, UdpSocket};
use std::path::Path;

use bevy::prelude::*;
use tabula_server::Config;
use tabula_server::link::Hosted;

/// The server this window runs, and where a friend finds it.
#[derive(Resource)]
pub struct Hosting {
    server: Hosted,
}

impl Hosting {
    /// Starts a server listening on `listen`, its database and replays in
    /// `data`, offering the levels of `levels`.
    pub fn start(listen: SocketAddr, data: &Path, levels: &Path) -> anyhow::Result<Hosting> {
        Hosting::start_with(Hosting::config(listen, data, levels))
    }

    /// What [`Hosting::start`] serves with: its database and replays in
    /// `data`, the levels of `levels`.
    pub fn config(listen: SocketAddr, data: &Path, levels: &Path) -> Config {
        Config {
            listen,
            database: data.join("hosted.db"),
            levels: Some(levels.to_owned()),
            replays: Some(data.join("replays").join("hosted")),
            ..Config::default()
        }
    }

    /// Starts a server as `config` says (its database's folder made).
    pub fn start_with(config: Config) -> anyhow::Result<Hosting> {
        if let Some(folder) = config.database.parent() {
            std::fs::create_dir_all(folder)?;
        }
        Ok(Hosting { server: Hosted::start(config)? })
    }

    /// Where this window's own connection goes.
    pub fn local_url(&self) -> String {
        let port = self.server.addr.port();
        match self.server.addr.ip() {
            IpAddr::V6(ip) if !ip.is_unspecified() => format!("ws://[{ip}]:{port}"),
            IpAddr::V4(ip) if !ip.is_unspecified() => format!("ws://{ip}:{port}"),
            _ => format!("ws://127.0.0.1:{port}"),
        }
    }

    /// The address to give a friend: this machine's address on its
    /// network (a server listening on loopback only is reachable here only).
    pub fn invite_url(&self) -> String {
        let port = self.server.addr.port();
        if self.server.addr.ip().is_loopback() {
            return self.local_url();
        }
        format!("ws://{}:{port}", network_address())
    }

    pub fn port(&self) -> u16 {
        self.server.addr.port()
    }

    /// Why the server stopped taking moves (its database failed), if it
    /// has; the window and its games go on.
    pub fn halted(&self) -> Option<String> {
        self.server.halted()
    }
}

/// Says once, on the status line, that the server this window hosts
/// stopped taking moves, and why: the local games are not touched.
pub(super) fn tell_if_halted(
    hosting: Option<Res<Hosting>>,
    mut status: ResMut<crate::app::session::StatusLine>,
    mut told: Local<bool>,
) {
    if *told {
        return;
    }
    if let Some(why) = hosting.and_then(|h| h.halted()) {
        status.error(format!("The server this window hosts stopped taking moves: {why}"));
        *told = true;
    }
}

/// This machine's address on the network its default route leaves by:
/// a UDP socket "connected" to an outside address says which (no packet is
/// sent); loopback if there is no network.
fn network_address() -> IpAddr {
    UdpSocket::bind((Ipv4Addr::UNSPECIFIED, 0))
        .and_then(|socket| {
            socket.connect((Ipv4Addr::new(192, 0, 2, 1), 9))?;
            socket.local_addr()
        })
        .map(|addr| addr.ip())
        .unwrap_or(IpAddr::V4(Ipv4Addr::LOCALHOST))
}
