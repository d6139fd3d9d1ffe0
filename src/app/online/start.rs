//! Going online, from the menu or the command line: a table hosted at this
//! window's own server (started the first time, on the port the player
//! chose, and kept for the window's life), or a table at another's server
//! joined, watched, or come back to. Also what both ask alike: an address
//! as people type it, and the `create` request for a level and its seats.

use std::net::{Ipv4Addr, SocketAddr};
use std::path::{Path, PathBuf};

use bevy::prelude::*;
use tabula_server::protocol::{Clock as TableClock, CreateTable};

use super::host::Hosting;
use super::{OnlineTable, Seek};
use crate::app::session::StatusLine;
use crate::app::settings::Settings;

/// The port a hosted server listens on unless the player chooses another,
/// and the one an address without a port means.
pub const DEFAULT_PORT: u16 = 7878;

/// What the player asked for.
#[derive(Message, Clone, Debug, PartialEq)]
pub enum GoOnline {
    /// A table at this window's own server, made by this `create` request
    /// of the `level` file (which the menu then opens on, as after a local
    /// game); the server is started on `port` unless it runs already.
    Host { port: u16, create: CreateTable, level: Option<PathBuf> },
    /// A table at the server at `url`.
    At { url: String, seek: Seek },
}

/// Going online asked on the command line, done on the first frame.
#[derive(Resource, Clone, Debug)]
pub struct StartOnline(pub GoOnline);

/// Where a hosted server keeps its database and replays.
#[derive(Resource, Clone, Debug)]
pub struct HostFolder(pub PathBuf);

impl Default for HostFolder {
    fn default() -> HostFolder {
        HostFolder(crate::app::settings::data_dir())
    }
}

/// A table's clock: minutes for each seat, seconds added after each move.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Clock {
    pub minutes: u32,
    pub increment: u32,
}

impl std::str::FromStr for Clock {
    type Err = String;

    /// `5+2` (or `5`): five minutes each, two seconds a move.
    fn from_str(text: &str) -> Result<Clock, String> {
        let (minutes, increment) = text.split_once('+').unwrap_or((text, "0"));
        let number = |s: &str| {
            s.trim().parse::<u32>().map_err(|_| format!("{text}: a clock is minutes+seconds, as 5+2"))
        };
        let clock = Clock { minutes: number(minutes)?, increment: number(increment)? };
        if clock.minutes == 0 {
            return Err(format!("{text}: a clock needs at least a minute"));
        }
        Ok(clock)
    }
}

/// The `create` request for a table of the level at `path`, one entry a
/// seat (`"person"` or an agent's spec). A level under `levels` goes by its
/// name there, which the server offers; any other by its text.
pub fn create_request(
    path: &Path,
    levels: &Path,
    seats: &[String],
    spectators: bool,
    clock: Option<Clock>,
) -> Result<CreateTable, String> {
    let mut request = CreateTable { seats: Some(seats.to_vec()), spectators, ..CreateTable::default() };
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    // The text as it is now (the server read its levels folder when it
    // started, before this file's last edit); a level past the server's
    // limit on a text (a large board) goes by its name.
    match level_name(path, levels) {
        Some(name) if text.len() > LEVEL_TEXT_LIMIT => request.level = Some(name),
        _ => request.level_text = Some(text),
    }
    if let Some(clock) = clock {
        if seats.len() != 2 {
            return Err("a clock is for two seats only".into());
        }
        request.clock =
            Some(TableClock { minutes: f64::from(clock.minutes), increment: f64::from(clock.increment) });
    }
    Ok(request)
}

/// The longest level text a server takes (`Limits::level_bytes`).
const LEVEL_TEXT_LIMIT: usize = 16 * 1024;

/// `<folder>/<stem>` for a level file under `levels`, as the server names it.
fn level_name(path: &Path, levels: &Path) -> Option<String> {
    let full = |p: &Path| std::fs::canonicalize(p).unwrap_or_else(|_| p.to_owned());
    let inside = full(path).strip_prefix(full(levels)).ok()?.with_extension("");
    let parts: Vec<String> =
        inside.components().map(|c| c.as_os_str().to_string_lossy().into_owned()).collect();
    (!parts.is_empty()).then(|| parts.join("/"))
}

/// The server's address as people type it (`192.168.1.20`,
/// `192.168.1.20:7878`, `ws://host:port`, `wss://host`, `[::1]:7878`) as
/// a URL; the port is 7878 unless given.
pub fn server_url(address: &str) -> Result<String, String> {
    let address = address.trim().trim_end_matches('/');
    let (scheme, rest) = match address.split_once("://") {
        Some((scheme @ ("ws" | "wss"), rest)) => (scheme, rest),
        Some((other, _)) => return Err(format!("{other}:// is not a game server's address: ws:// is")),
        None => ("ws", address),
    };
    let bad = || format!("“{address}” is not an address: give host:port, as 192.168.1.20:7878");
    if rest.is_empty() || rest.contains(char::is_whitespace) || rest.contains('/') {
        return Err(bad());
    }
    let (host, port) = if let Some(inside) = rest.strip_prefix('[') {
        let (ip, after) = inside.split_once(']').ok_or_else(bad)?;
        match after {
            "" => (format!("[{ip}]"), None),
            _ => (format!("[{ip}]"), Some(after.strip_prefix(':').ok_or_else(bad)?)),
        }
    } else if rest.matches(':').count() > 1 {
        // A bare IPv6 address: its colons are not a port's.
        (format!("[{rest}]"), None)
    } else {
        match rest.split_once(':') {
            Some((host, port)) => (host.to_owned(), Some(port)),
            None => (rest.to_owned(), None),
        }
    };
    let port = match port {
        None => DEFAULT_PORT,
        Some(port) => {
            port.parse::<u16>().map_err(|_| format!("“{port}” is not a port: a port is a number, as 7878"))?
        }
    };
    Ok(format!("{scheme}://{host}:{port}"))
}

pub(crate) fn plugin(app: &mut App) {
    app.add_message::<GoOnline>()
        .init_resource::<HostFolder>()
        .add_systems(Update, (start_from_command_line, go_online).chain());
}

fn start_from_command_line(
    mut commands: Commands,
    start: Option<Res<StartOnline>>,
    mut go: MessageWriter<GoOnline>,
) {
    let Some(start) = start else { return };
    go.write(start.0.clone());
    commands.remove_resource::<StartOnline>();
}

/// Opens the table asked for, as seat 1's name. A server that cannot start
/// (its port taken) changes nothing, and says so.
fn go_online(
    mut commands: Commands,
    mut asked: MessageReader<GoOnline>,
    hosting: Option<Res<Hosting>>,
    folder: Res<HostFolder>,
    mut settings: ResMut<Settings>,
    mut status: ResMut<StatusLine>,
) {
    // The server is started once: the port asked the second time is not
    // the server's any more.
    let mut hosted = hosting.map(|h| h.local_url());
    for go in asked.read() {
        let (url, seek) = match go {
            GoOnline::At { url, seek } => {
                // A seat at a table this window hosted before it was closed:
                // the server comes back first, its tables from its database.
                if let (Seek::Resume { .. }, Some(port), None) = (seek, own_port(url), &hosted)
                    && let Ok(started) = start_server(port, &folder.0)
                {
                    hosted = Some(started.local_url());
                    commands.insert_resource(started);
                }
                (url.clone(), seek.clone())
            }
            GoOnline::Host { port, create, level } => {
                if hosted.is_none() {
                    match start_server(*port, &folder.0) {
                        Ok(started) => {
                            hosted = Some(started.local_url());
                            commands.insert_resource(started);
                        }
                        Err(e) => {
                            status.error(e);
                            continue;
                        }
                    }
                }
                if level.is_some() && settings.last_level != *level {
                    settings.last_level = level.clone();
                }
                (hosted.clone().unwrap_or_default(), Seek::Create(create.clone()))
            }
        };
        match OnlineTable::open(&url, &settings.name(0), seek) {
            Ok(table) => {
                status.info(format!("Connecting to {url}…"));
                commands.insert_resource(table);
            }
            Err(e) => status.error(format!("Cannot connect to {url}: {e}")),
        }
    }
}

/// The port of a server on this machine's loopback, as a hosting window
/// names its own (`ws://127.0.0.1:7878`).
fn own_port(url: &str) -> Option<u16> {
    url.strip_prefix("ws://127.0.0.1:")?.parse().ok()
}

/// This window's server, on `port` of every network interface (a friend
/// on the network joins it there); port 0 takes any free one.
fn start_server(port: u16, folder: &Path) -> Result<Hosting, String> {
    let listen = SocketAddr::from((Ipv4Addr::UNSPECIFIED, port));
    let levels = crate::app::levels::library::levels_root();
    Hosting::start(listen, folder, &levels).map_err(|e| {
        let taken = e.chain().any(|cause| {
            cause.downcast_ref::<std::io::Error>().is_some_and(|io| io.kind() == std::io::ErrorKind::AddrInUse)
        });
        if taken {
            format!("Port {port} is taken (another program, or another tabula, listens there): choose another port")
        } else {
            format!("Cannot host on port {port}: {e:#}")
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn addresses_as_people_type_them() {
        assert_eq!(server_url("192.168.1.20").unwrap(), "ws://192.168.1.20:7878");
        assert_eq!(server_url(" 192.168.1.20:9000 ").unwrap(), "ws://192.168.1.20:9000");
        assert_eq!(server_url("ws://example.org:80/").unwrap(), "ws://example.org:80");
        assert_eq!(server_url("wss://example.org").unwrap(), "wss://example.org:7878");
        assert_eq!(server_url("[::1]:7000").unwrap(), "ws://[::1]:7000");
        assert_eq!(server_url("[::1]").unwrap(), "ws://[::1]:7878");
        assert_eq!(server_url("::1").unwrap(), "ws://[::1]:7878");
        assert!(server_url("").is_err());
        assert!(server_url("http://example.org").is_err());
        assert!(server_url("example.org:port").is_err());
        assert!(server_url("two words").is_err());
    }

    #[test]
    fn clocks_as_people_type_them() {
        assert_eq!("5+2".parse(), Ok(Clock { minutes: 5, increment: 2 }));
        assert_eq!("10".parse(), Ok(Clock { minutes: 10, increment: 0 }));
        assert!("0+5".parse::<Clock>().is_err());
        assert!("five".parse::<Clock>().is_err());
    }

    #[test]
    fn a_level_goes_by_its_text_a_large_shipped_one_by_name() {
        let levels = crate::app::levels::library::levels_root();
        let seats = ["person".to_owned(), "greedy:0.3".to_owned()];
        // A shipped level over the limit (a large board), whichever it is.
        let files = std::fs::read_dir(&levels).unwrap().flatten().flat_map(|game| {
            std::fs::read_dir(game.path()).into_iter().flatten().flatten().map(|f| f.path())
        });
        let large = files
            .filter(|f| std::fs::metadata(f).is_ok_and(|m| m.len() > LEVEL_TEXT_LIMIT as u64))
            .min()
            .expect("a shipped level over the limit on a text");
        let request = create_request(&large, &levels, &seats, true, None).unwrap();
        let name = large.strip_prefix(&levels).unwrap().with_extension("");
        assert_eq!(request.level.as_deref(), Some(name.to_string_lossy().as_ref()));
        assert!(request.level_text.is_none());
        let shipped = levels.join("nim").join("beginner-2-3.ron");
        let clock = Some(Clock { minutes: 5, increment: 2 });
        let request = create_request(&shipped, &levels, &seats, false, clock).unwrap();
        assert_eq!(request.level_text, Some(std::fs::read_to_string(&shipped).unwrap()));
        assert_eq!(request.seats, Some(seats.to_vec()));
        assert!(!request.spectators);
        assert_eq!(request.clock, Some(TableClock { minutes: 5.0, increment: 2.0 }));
        assert!(request.level.is_none());

        let dir = std::env::temp_dir().join(format!("tabula-create-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let own = dir.join("mine.ron");
        std::fs::copy(&shipped, &own).unwrap();
        let request = create_request(&own, &levels, &seats, true, None).unwrap();
        assert_eq!(request.level_text, Some(std::fs::read_to_string(&shipped).unwrap()));
        assert!(request.level.is_none() && request.clock.is_none());
        let three = ["person".to_owned(), "person".to_owned(), "random".to_owned()];
        assert!(create_request(&own, &levels, &three, true, clock).is_err(), "a clock is for two seats");
        let _ = std::fs::remove_dir_all(dir);
    }
}
