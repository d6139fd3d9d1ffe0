//! What every connection, table task and the tick share: the tables, the
//! seat tokens, the store, the levels offered, and the count of connections
//! from each address.

use std::collections::{BTreeMap, HashMap};
use std::net::IpAddr;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};

use tabula_engine::level::LevelFile;
use tokio::runtime::Handle;

use crate::config::Config;
use crate::page::Page;
use crate::store::{Outbox, Outgoing, Store};
use crate::table::{ConnId, Table};

/// What every connection and the tick share.
pub struct Shared {
    pub config: Config,
    pub tables: Mutex<HashMap<String, Arc<Mutex<Table>>>>,
    /// Each seat token's table and seat.
    pub tokens: Mutex<HashMap<String, (String, tabula_engine::Player)>>,
    pub store: Store,
    /// The levels offered by name.
    pub levels: BTreeMap<String, LevelFile>,
    pub runtime: Handle,
    next_connection: AtomicU64,
    per_address: Mutex<HashMap<IpAddr, usize>>,
    /// Every connection's outbox, for what the server tells everyone.
    connections: Mutex<HashMap<ConnId, Outbox>>,
    /// Sockets over their address's limit being told so.
    refusing: AtomicUsize,
    /// Agents thinking at once: as many as the cores (two at the least).
    pub thinking: Arc<tokio::sync::Semaphore>,
    /// The web page served on the same port.
    pub page: Page,
}

/// The most refused sockets answered at once (an HTTP 503 each); past it
/// they are dropped.
const REFUSING: usize = 64;

/// A lock, whatever a panicking holder left: every table's state is valid
/// between requests, since a request changes nothing until it succeeds.
pub fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(|e| e.into_inner())
}

impl Shared {
    pub fn new(config: Config, store: Store, levels: BTreeMap<String, LevelFile>, runtime: Handle) -> Shared {
        Shared {
            page: Page { folder: config.web.clone() },
            config,
            tables: Mutex::new(HashMap::new()),
            tokens: Mutex::new(HashMap::new()),
            store,
            levels,
            runtime,
            next_connection: AtomicU64::new(1),
            per_address: Mutex::new(HashMap::new()),
            connections: Mutex::new(HashMap::new()),
            refusing: AtomicUsize::new(0),
            thinking: Arc::new(tokio::sync::Semaphore::new(
                std::thread::available_parallelism().map_or(2, |n| n.get()).max(2),
            )),
        }
    }

    pub fn connected(&self, conn: ConnId, outbox: &Outbox) {
        lock(&self.connections).insert(conn, outbox.clone());
    }

    pub fn disconnected(&self, conn: ConnId) {
        lock(&self.connections).remove(&conn);
    }

    /// Sends `text` to every connection.
    pub fn tell_everyone(&self, text: std::sync::Arc<str>) {
        for outbox in lock(&self.connections).values() {
            outbox.send(Outgoing::Text(text.clone()));
        }
    }

    pub fn table(&self, id: &str) -> Option<Arc<Mutex<Table>>> {
        lock(&self.tables).get(id).cloned()
    }

    pub fn next_connection(&self) -> u64 {
        self.next_connection.fetch_add(1, Ordering::Relaxed)
    }

    /// Counts a new connection from `address`, or refuses one too many.
    pub fn admit(&self, address: IpAddr) -> bool {
        let mut counts = lock(&self.per_address);
        let count = counts.entry(address).or_default();
        if *count >= self.config.limits.connections_per_address {
            return false;
        }
        *count += 1;
        true
    }

    /// Counts one more refused socket being answered, unless many are.
    pub fn refusing(&self) -> bool {
        self.refusing.fetch_add(1, Ordering::Relaxed) < REFUSING || {
            self.refusing.fetch_sub(1, Ordering::Relaxed);
            false
        }
    }

    pub fn refused(&self) {
        self.refusing.fetch_sub(1, Ordering::Relaxed);
    }

    pub fn release(&self, address: IpAddr) {
        let mut counts = lock(&self.per_address);
        if let Some(count) = counts.get_mut(&address) {
            *count -= 1;
            if *count == 0 {
                counts.remove(&address);
            }
        }
    }
}
