//! The port's front door: a connection's first bytes, an HTTP request's
//! head, say whether it asks for the WebSocket (then the head is handed on
//! to the handshake, as if unread) or for the web page.

use std::io;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::Duration;

use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt, ReadBuf};

use crate::connection;
use crate::page::{Answer, text};
use crate::shared::Shared;

/// The largest request head read: a browser's is well under it.
const HEAD_BYTES: usize = 8 * 1024;
/// How long a request's head may take to arrive.
const HEAD_TIME: Duration = Duration::from_secs(10);
/// How long an answer may take to be written to a slow reader.
const ANSWER_TIME: Duration = Duration::from_secs(30);

/// Serves one connection: the WebSocket, or one answer of the page.
pub async fn serve<S: AsyncRead + AsyncWrite + Unpin + Send + 'static>(
    shared: &Arc<Shared>,
    mut stream: S,
    admitted: bool,
) {
    let Ok(head) = tokio::time::timeout(HEAD_TIME, read_head(&mut stream)).await else { return };
    let request = match head {
        Ok(Some(head)) => head,
        Ok(None) => return,
        Err(status) => {
            let _ = answer(&mut stream, &text(status, "a request this server cannot read\n")).await;
            return;
        }
    };
    if request.websocket {
        let stream = Prefixed { head: request.bytes, read: 0, inner: stream };
        if admitted {
            connection::serve(shared.clone(), stream).await;
        } else {
            connection::refuse(shared.config.limits.connections_per_address, stream).await;
        }
        return;
    }
    let reply = if admitted {
        shared.page.answer(&request.method, &request.target)
    } else {
        let most = shared.config.limits.connections_per_address;
        text(
            "503 Service Unavailable",
            &format!("too many connections from your address: at most {most} at once\n"),
        )
    };
    let _ = answer(&mut stream, &reply).await;
}

async fn answer<S: AsyncWrite + Unpin>(stream: &mut S, answer: &Answer) -> io::Result<()> {
    let wire = answer.bytes();
    tokio::time::timeout(ANSWER_TIME, async {
        stream.write_all(&wire).await?;
        stream.flush().await?;
        stream.shutdown().await
    })
    .await
    .unwrap_or_else(|_| Err(io::ErrorKind::TimedOut.into()))
}

/// A request's head as read.
struct Head {
    method: String,
    target: String,
    /// It asks to upgrade to a WebSocket.
    websocket: bool,
    /// Every byte read so far (the head, and any byte after it).
    bytes: Vec<u8>,
}

/// Reads until the head's end: `None` when the peer went first, the status
/// to answer when the head is no HTTP or too large.
async fn read_head<S: AsyncRead + Unpin>(stream: &mut S) -> Result<Option<Head>, &'static str> {
    let mut bytes = Vec::with_capacity(1024);
    let mut chunk = [0u8; 1024];
    loop {
        let n = stream.read(&mut chunk).await.map_err(|_| "400 Bad Request")?;
        if n == 0 {
            return Ok(None);
        }
        bytes.extend_from_slice(&chunk[..n]);
        let mut headers = [httparse::EMPTY_HEADER; 64];
        let mut request = httparse::Request::new(&mut headers);
        match request.parse(&bytes) {
            Ok(httparse::Status::Complete(_)) => {
                let websocket = request.headers.iter().any(|h| {
                    h.name.eq_ignore_ascii_case("upgrade")
                        && String::from_utf8_lossy(h.value).to_ascii_lowercase().contains("websocket")
                });
                let method = request.method.unwrap_or("").to_owned();
                let target = request.path.unwrap_or("").to_owned();
                return Ok(Some(Head { method, target, websocket, bytes }));
            }
            Ok(httparse::Status::Partial) if bytes.len() < HEAD_BYTES => {}
            Ok(httparse::Status::Partial) | Err(httparse::Error::TooManyHeaders) => {
                return Err("431 Request Header Fields Too Large");
            }
            Err(_) => return Err("400 Bad Request"),
        }
    }
}

/// A stream whose first bytes, already read, are read again.
struct Prefixed<S> {
    head: Vec<u8>,
    read: usize,
    inner: S,
}

impl<S: AsyncRead + Unpin> AsyncRead for Prefixed<S> {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let this = &mut *self;
        if this.read < this.head.len() {
            let n = buf.remaining().min(this.head.len() - this.read);
            buf.put_slice(&this.head[this.read..this.read + n]);
            this.read += n;
            if this.read == this.head.len() {
                this.head = Vec::new();
                this.read = 0;
            }
            return Poll::Ready(Ok(()));
        }
        Pin::new(&mut this.inner).poll_read(cx, buf)
    }
}

impl<S: AsyncWrite + Unpin> AsyncWrite for Prefixed<S> {
    fn poll_write(mut self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &[u8]) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.inner).poll_write(cx, buf)
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.inner).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.inner).poll_shutdown(cx)
    }
}
