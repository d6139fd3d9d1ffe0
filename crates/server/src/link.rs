//! The protocol for a program that is not async (the window): a connection
//! on a thread of its own that comes back by itself when it drops, and a
//! server hosted in-process.
//!
//! A [`Link`] says when it is up; whoever holds it then says who they are
//! (`resume` with a token, `join`, `watch`). Requests handed over while it
//! is down are dropped, not sent late to a connection that does not know
//! them yet.

use std::net::SocketAddr;
use std::sync::mpsc as std_mpsc;
use std::thread::JoinHandle;
use std::time::Duration;

use std::sync::Arc;

use serde_json::Value;
use tokio::sync::mpsc;

use crate::client::Client;
use crate::protocol::{Id, Message, Request};
use crate::store::Halt;
use crate::{Config, Server};

/// What the link tells its holder.
#[derive(Clone, Debug, PartialEq)]
pub enum LinkEvent {
    /// Connected, and the server said welcome (its text here).
    Up(Value),
    Message(Message),
    /// The connection dropped or could not be made: the link tries again.
    Down(String),
}

enum Command {
    Send(Request, Option<Id>),
    /// Drop the connection as a failing network would (the link comes back).
    Cut,
}

/// A connection to a server that keeps itself up.
pub struct Link {
    url: String,
    commands: mpsc::UnboundedSender<Command>,
    /// Behind a lock only so that a link may be shared (as a Bevy resource is).
    events: std::sync::Mutex<std_mpsc::Receiver<LinkEvent>>,
    _thread: JoinHandle<()>,
}

/// How long the link waits before trying again: short at first, then
/// longer, so a server gone for good is not hammered.
const FIRST_RETRY: Duration = Duration::from_millis(150);
const LONGEST_RETRY: Duration = Duration::from_secs(2);

impl Link {
    /// Connects to `url` as `name` on a thread of its own; `wake` is called
    /// after every event (the window wakes to read it).
    pub fn open(url: &str, name: &str, wake: impl Fn() + Send + 'static) -> std::io::Result<Link> {
        let (commands, inbox) = mpsc::unbounded_channel();
        let (tell, events) = std_mpsc::channel();
        let (url_owned, name) = (url.to_owned(), name.to_owned());
        let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build()?;
        let thread = std::thread::Builder::new()
            .name("tabula-link".into())
            .spawn(move || runtime.block_on(keep_up(url_owned, name, inbox, tell, wake)))?;
        Ok(Link { url: url.to_owned(), commands, events: std::sync::Mutex::new(events), _thread: thread })
    }

    pub fn url(&self) -> &str {
        &self.url
    }

    /// Sends `request` with `id` if the connection is up (else it is
    /// dropped).
    pub fn send(&self, request: Request, id: Option<Id>) {
        let _ = self.commands.send(Command::Send(request, id));
    }

    /// Drops the connection as a failing network would; the link connects
    /// again by itself.
    pub fn cut(&self) {
        let _ = self.commands.send(Command::Cut);
    }

    /// What happened since the last call, in order.
    pub fn events(&self) -> Vec<LinkEvent> {
        self.events.lock().map(|events| events.try_iter().collect()).unwrap_or_default()
    }
}

async fn keep_up(
    url: String,
    name: String,
    mut inbox: mpsc::UnboundedReceiver<Command>,
    tell: std_mpsc::Sender<LinkEvent>,
    wake: impl Fn(),
) {
    let mut retry = FIRST_RETRY;
    loop {
        let why = match Client::connect(&url, None, &name).await {
            Ok(mut client) => {
                retry = FIRST_RETRY;
                // What was asked while down was meant for the connection lost.
                while inbox.try_recv().is_ok() {}
                if tell.send(LinkEvent::Up(client.welcome.clone())).is_err() {
                    return;
                }
                wake();
                match pump(&mut client, &mut inbox, &tell, &wake).await {
                    Some(why) => why,
                    None => return,
                }
            }
            Err(e) => format!("{e:#}"),
        };
        if tell.send(LinkEvent::Down(why)).is_err() {
            return;
        }
        wake();
        tokio::time::sleep(retry).await;
        retry = (retry * 2).min(LONGEST_RETRY);
        if inbox.is_closed() {
            return;
        }
    }
}

/// Passes requests out and messages in until the connection drops (why),
/// or the link's holder is gone (`None`).
async fn pump(
    client: &mut Client,
    inbox: &mut mpsc::UnboundedReceiver<Command>,
    tell: &std_mpsc::Sender<LinkEvent>,
    wake: &impl Fn(),
) -> Option<String> {
    loop {
        tokio::select! {
            command = inbox.recv() => match command {
                None => return None,
                Some(Command::Cut) => return Some("the connection was cut".into()),
                Some(Command::Send(request, id)) => {
                    if let Err(e) = client.send_request(&request, id.as_ref()).await {
                        return Some(format!("{e:#}"));
                    }
                }
            },
            message = client.next() => match message {
                Ok(message) => {
                    tell.send(LinkEvent::Message(message)).ok()?;
                    wake();
                }
                Err(e) => return Some(format!("{e:#}")),
            },
        }
    }
}

/// A server run by this process on a thread of its own (the window's
/// "Host"), stopped when dropped.
pub struct Hosted {
    pub addr: SocketAddr,
    halt: Arc<Halt>,
    runtime: Option<tokio::runtime::Runtime>,
}

impl Hosted {
    /// Binds `config.listen` and serves until dropped.
    pub fn start(config: Config) -> anyhow::Result<Hosted> {
        let runtime = tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build()?;
        let server = runtime.block_on(Server::bind(config))?;
        let addr = server.local_addr();
        let halt = server.halt();
        runtime.spawn(server.run());
        Ok(Hosted { addr, halt, runtime: Some(runtime) })
    }

    /// Why the server stopped taking moves (its database failed), if it
    /// has: the clients at its tables are told so too.
    pub fn halted(&self) -> Option<String> {
        self.halt.reason()
    }
}

impl Drop for Hosted {
    fn drop(&mut self) {
        if let Some(runtime) = self.runtime.take() {
            runtime.shutdown_background();
        }
    }
}
