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

use crate::config::Config;
use crate::shared::{Shared, lock};
use crate::store::{Job, Store};
use crate::{agents, connection, restore};

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
        .filter(|(_, t)| lock(t).finished_at.is_some_and(|at| now.duration_since(at) > KEEP_FINISHED))
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
                    agents::stand_in_for_the_gone(&mut t, now, &mut job);
                }
                job
            };
            if !job.ops.is_empty() || !job.deliveries.is_empty() {
                agents::submit(&shared, &table, job);
            }
        }
    }
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
        server.run().await;
        Ok(())
    })
}
