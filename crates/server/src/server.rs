//! The server: bound (its database opened, its levels read), the listener
//! (plain or TLS), and the tick that runs clocks, hands gone players' seats
//! to agents and forgets long-finished tables.

use std::collections::BTreeMap;
use std::net::SocketAddr;
use std::path::Path;
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::{Context, bail};
use tabula_engine::level::{self, LevelFile};
use tokio::io::{AsyncRead, AsyncWrite};
use tokio::net::TcpListener;
use tokio::runtime::Handle;
use tokio_rustls::TlsAcceptor;

use crate::config::{Config, Limits};
use crate::protocol::ServerMessage;
use crate::shared::{Shared, lock};
use crate::store::{Halt, Job, Store};
use crate::table::say;
use crate::{agents, front, restore, table};

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
            Some(dir) => hosted_levels(read_levels(dir)?, &config.limits),
            None => BTreeMap::new(),
        };
        if let Some(dir) = &config.replays {
            std::fs::create_dir_all(dir)
                .with_context(|| format!("cannot make the replays folder {}", dir.display()))?;
        }
        let (store, saved) = Store::open(&config.database, config.database_bytes)
            .with_context(|| format!("cannot open the database {}", config.database.display()))?;
        let listener = TcpListener::bind(config.listen)
            .await
            .with_context(|| format!("cannot listen on {}", config.listen))?;
        let shared = Arc::new(Shared::new(config, store, levels, Handle::current()));
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

    /// Why the server stopped taking moves, once it has.
    pub fn halt(&self) -> Arc<Halt> {
        self.shared.store.halt().clone()
    }

    /// Serves until the process ends, or until the database refuses a
    /// write: then every client is told why, and so is the caller.
    pub async fn run(self) -> anyhow::Result<()> {
        let shared = self.shared.clone();
        let ticking = tokio::spawn(tick(shared.clone()));
        let halt = self.halt();
        let why = loop {
            let accepted = tokio::select! {
                accepted = self.listener.accept() => accepted,
                why = halt.stopped() => break why,
            };
            let Ok((stream, address)) = accepted else { continue };
            let _ = stream.set_nodelay(true);
            let shared = shared.clone();
            let tls = self.tls.clone();
            tokio::spawn(async move {
                let admitted = shared.admit(address.ip());
                if !admitted && !shared.refusing() {
                    // Already answering many refused sockets: this one is
                    // dropped unanswered, so a flood costs nothing more.
                    return;
                }
                match tls {
                    Some(tls) => {
                        if let Ok(Ok(stream)) =
                            tokio::time::timeout(Duration::from_secs(10), tls.accept(stream)).await
                        {
                            serve_stream(&shared, stream, admitted).await;
                        }
                    }
                    None => serve_stream(&shared, stream, admitted).await,
                }
                if admitted {
                    shared.release(address.ip());
                } else {
                    shared.refused();
                }
            });
        };
        ticking.abort();
        let told = say(ServerMessage::Halted { message: why.clone() }, None);
        shared.tell_everyone(told);
        // A moment for the word to reach every client.
        tokio::time::sleep(Duration::from_millis(300)).await;
        Err(anyhow::anyhow!("{why}: no move is taken any more; every acknowledged move is in the database"))
    }
}

async fn serve_stream<S: AsyncRead + AsyncWrite + Unpin + Send + 'static>(
    shared: &Arc<Shared>,
    stream: S,
    admitted: bool,
) {
    front::serve(shared, stream, admitted).await;
}

/// How long a finished table stays for a rematch and late readers; its
/// game is in the database and the replays folder for good.
const KEEP_FINISHED: Duration = Duration::from_secs(600);

/// Forgets tables finished more than [`KEEP_FINISHED`] ago, and their tokens.
fn forget_finished(shared: &Shared, now: Instant) {
    // Each table's lock is taken without holding the map's, as every
    // request takes them, so that neither waits on the other.
    let all: Vec<_> = lock(&shared.tables).iter().map(|(id, t)| (id.clone(), t.clone())).collect();
    let old: Vec<String> = all
        .into_iter()
        .filter(|(_, t)| lock(t).finished_at().is_some_and(|at| now.duration_since(at) > KEEP_FINISHED))
        .map(|(id, _)| id)
        .collect();
    if old.is_empty() {
        return;
    }
    let mut tables = lock(&shared.tables);
    for id in &old {
        tables.remove(id);
    }
    drop(tables);
    lock(&shared.tokens).retain(|_, (table, _)| !old.contains(table));
}

/// Runs clocks out, seats agents for people gone past the grace period,
/// and forgets long-finished tables.
async fn tick(shared: Arc<Shared>) {
    let mut interval = tokio::time::interval(Duration::from_millis(100));
    let mut ticks = 0u64;
    loop {
        interval.tick().await;
        ticks += 1;
        let now = Instant::now();
        if ticks.is_multiple_of(100) {
            forget_finished(&shared, now);
        }
        let tables: Vec<_> = lock(&shared.tables).values().cloned().collect();
        for table in tables {
            let job = {
                let mut t = lock(&table);
                let mut job = Job::default();
                if !t.flag(now, &mut job) {
                    t.stand_in_for_the_gone(now, &mut job);
                }
                job
            };
            if !job.ops.is_empty() || !job.deliveries.is_empty() {
                agents::submit(&shared, &table, job);
            }
        }
    }
}

/// The levels of `levels` within `limits`; each of the others is named on
/// standard error and left out.
fn hosted_levels(levels: BTreeMap<String, LevelFile>, limits: &Limits) -> BTreeMap<String, LevelFile> {
    levels
        .into_iter()
        .filter(|(name, level)| {
            let hosted = tabula_engine::games::start(level, 0)
                .map_err(|e| e.to_string())
                .and_then(|live| table::check_hosted(&*live, limits).map_err(|e| e.message));
            if let Err(why) = &hosted {
                eprintln!("tabula serve: level {name} is not offered: {why}");
            }
            hosted.is_ok()
        })
        .collect()
}

/// Every level under `dir`, by its path without `.ron` (`<game folder>/<file>`).
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
        server.run().await
    })
}
