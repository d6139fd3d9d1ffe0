//! The server: its settings, what every connection shares (tables, seat
//! tokens, the store, the levels offered), the listener (plain or TLS),
//! and the tick that runs clocks and hands gone players' seats to agents.

use std::collections::{BTreeMap, HashMap};
use std::net::{IpAddr, SocketAddr};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use anyhow::{Context, bail};
use tabula_engine::level::{self, LevelFile};
use tokio::io::{AsyncRead, AsyncWrite};
use tokio::net::TcpListener;
use tokio::runtime::Handle;
use tokio_rustls::TlsAcceptor;

use crate::store::{Job, Store};
use crate::table::Table;
use crate::{agents, connection, restore};

/// What `tabula serve` is told on its command line.
#[derive(Clone, Debug)]
pub struct Config {
    /// Where to listen; localhost unless told otherwise.
    pub listen: SocketAddr,
    pub database: PathBuf,
    /// The folder of levels offered by name (`nim/01-first-steps`).
    pub levels: Option<PathBuf>,
    /// Where finished games' replays are written.
    pub replays: Option<PathBuf>,
    /// A certificate chain and its private key (PEM) to serve `wss://`.
    pub tls: Option<(PathBuf, PathBuf)>,
    pub limits: Limits,
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
    /// Messages a second a connection may send, on average ...
    pub messages_per_second: f64,
    /// ... and at once.
    pub burst: f64,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            connections_per_address: 64,
            tables_per_connection: 16,
            tables: 10_000,
            message_bytes: 64 * 1024,
            level_bytes: 16 * 1024,
            messages_per_second: 50.0,
            burst: 200.0,
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
            limits: Limits::default(),
        }
    }
}

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
}

/// A lock, whatever a panicking holder left: every table's state is valid
/// between requests, since a request changes nothing until it succeeds.
pub fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(|e| e.into_inner())
}

impl Shared {
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

    pub fn release(&self, address: IpAddr) {
        let mut counts = lock(&self.per_address);
        if let Some(count) = counts.get_mut(&address) {
            *count -= 1;
            if *count == 0 {
                counts.remove(&address);
            }
        }
    }

    /// Commits `job` and, once it is on disk, lets an agent move if one is to.
    pub fn submit(self: &Arc<Shared>, table: &Arc<Mutex<Table>>, job: Job) {
        self.store.submit(job);
        agents::wake(self, table);
    }
}

/// A bound server, ready to run.
pub struct Server {
    shared: Arc<Shared>,
    listener: TcpListener,
    tls: Option<TlsAcceptor>,
}

impl Server {
    /// Opens the database (playing on every unfinished table in it), reads
    /// the levels and binds the address. Call within a Tokio runtime.
    pub async fn bind(config: Config) -> anyhow::Result<Server> {
        let tls = config.tls.as_ref().map(|(cert, key)| tls_acceptor(cert, key)).transpose()?;
        let levels = match &config.levels {
            Some(dir) => read_levels(dir)?,
            None => BTreeMap::new(),
        };
        if let Some(dir) = &config.replays {
            std::fs::create_dir_all(dir)
                .with_context(|| format!("cannot make the replays folder {}", dir.display()))?;
        }
        let (store, saved) = Store::open(&config.database)
            .with_context(|| format!("cannot open the database {}", config.database.display()))?;
        let listener = TcpListener::bind(config.listen)
            .await
            .with_context(|| format!("cannot listen on {}", config.listen))?;
        let shared = Arc::new(Shared {
            config,
            tables: Mutex::new(HashMap::new()),
            tokens: Mutex::new(HashMap::new()),
            store,
            levels,
            runtime: Handle::current(),
            next_connection: AtomicU64::new(1),
            per_address: Mutex::new(HashMap::new()),
        });
        restore::tables(&shared, saved);
        Ok(Server { shared, listener, tls })
    }

    pub fn local_addr(&self) -> SocketAddr {
        self.listener.local_addr().expect("a bound listener has an address")
    }

    /// Tables open now (restored ones included).
    pub fn tables(&self) -> usize {
        lock(&self.shared.tables).len()
    }

    /// Serves until the process ends.
    pub async fn run(self) {
        let shared = self.shared.clone();
        tokio::spawn(tick(shared.clone()));
        loop {
            let Ok((stream, address)) = self.listener.accept().await else { continue };
            let _ = stream.set_nodelay(true);
            let shared = shared.clone();
            let tls = self.tls.clone();
            tokio::spawn(async move {
                if !shared.admit(address.ip()) {
                    // Refused before the handshake: a flood of sockets from one
                    // address costs the server nothing more.
                    return;
                }
                match tls {
                    Some(tls) => {
                        if let Ok(Ok(stream)) =
                            tokio::time::timeout(Duration::from_secs(10), tls.accept(stream)).await
                        {
                            serve_stream(&shared, stream).await;
                        }
                    }
                    None => serve_stream(&shared, stream).await,
                }
                shared.release(address.ip());
            });
        }
    }
}

async fn serve_stream<S: AsyncRead + AsyncWrite + Unpin + Send + 'static>(shared: &Arc<Shared>, stream: S) {
    connection::serve(shared.clone(), stream).await;
}

/// Runs clocks out and seats agents for people gone past the grace period.
async fn tick(shared: Arc<Shared>) {
    let mut interval = tokio::time::interval(Duration::from_millis(100));
    loop {
        interval.tick().await;
        let tables: Vec<_> = lock(&shared.tables).values().cloned().collect();
        let now = Instant::now();
        for table in tables {
            let job = {
                let mut t = lock(&table);
                let mut job = Job::default();
                if !t.flag(now, &mut job) {
                    agents::stand_in_for_the_gone(&mut t, now, &mut job);
                }
                job
            };
            if !job.ops.is_empty() || !job.deliveries.is_empty() {
                shared.submit(&table, job);
            }
        }
    }
}

/// Every level under `dir`, by its path without `.ron` (`nim/01-first-steps`).
pub fn read_levels(dir: &Path) -> anyhow::Result<BTreeMap<String, LevelFile>> {
    let mut levels = BTreeMap::new();
    let mut folders = vec![dir.to_path_buf()];
    while let Some(folder) = folders.pop() {
        let entries = std::fs::read_dir(&folder)
            .with_context(|| format!("cannot read the levels folder {}", folder.display()))?;
        for entry in entries.flatten() {
            let path = entry.path();
            if path.is_dir() {
                folders.push(path);
            } else if path.extension().is_some_and(|e| e == "ron") {
                let Ok(level) = level::load(&path) else { continue };
                let name = path.strip_prefix(dir).unwrap_or(&path).with_extension("");
                let name =
                    name.components().map(|c| c.as_os_str().to_string_lossy()).collect::<Vec<_>>().join("/");
                levels.insert(name, level);
            }
        }
    }
    Ok(levels)
}

fn tls_acceptor(cert: &Path, key: &Path) -> anyhow::Result<TlsAcceptor> {
    use tokio_rustls::rustls::pki_types::pem::PemObject;
    use tokio_rustls::rustls::pki_types::{CertificateDer, PrivateKeyDer};
    let certs = CertificateDer::pem_file_iter(cert)
        .with_context(|| format!("cannot read the certificate {}", cert.display()))?
        .collect::<Result<Vec<_>, _>>()
        .with_context(|| format!("{}: not a PEM certificate", cert.display()))?;
    if certs.is_empty() {
        bail!("{}: holds no certificate", cert.display());
    }
    let key = PrivateKeyDer::from_pem_file(key)
        .with_context(|| format!("{}: no PEM private key", key.display()))?;
    let provider = Arc::new(tokio_rustls::rustls::crypto::ring::default_provider());
    let config = tokio_rustls::rustls::ServerConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()?
        .with_no_client_auth()
        .with_single_cert(certs, key)
        .context("the certificate and key do not go together")?;
    Ok(TlsAcceptor::from(Arc::new(config)))
}

/// Runs a server on a runtime of its own until the process ends: `tabula serve`.
pub fn serve(config: Config, on_ready: impl FnOnce(SocketAddr, usize)) -> anyhow::Result<()> {
    let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build()?;
    runtime.block_on(async move {
        let server = Server::bind(config).await?;
        on_ready(server.local_addr(), server.tables());
        server.run().await;
        Ok(())
    })
}
