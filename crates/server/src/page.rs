//! The web page the server hands out on the WebSocket's port: its files
//! (built in, or read from a folder with `--web` while the page is being
//! written), and the HTTP answers that carry them.

use std::borrow::Cow;
use std::path::PathBuf;

mod embedded {
    include!(concat!(env!("OUT_DIR"), "/web_files.rs"));
}

/// Only the page's own scripts, styles and images run; its WebSocket goes
/// to this server alone; no other site may frame it.
pub const CONTENT_SECURITY_POLICY: &str = "default-src 'self'; img-src 'self' data:; style-src 'self'; \
     connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

/// Where the page's files come from.
#[derive(Clone, Debug, Default)]
pub struct Page {
    /// A folder read at every request instead of the built-in files.
    pub folder: Option<PathBuf>,
}

/// An HTTP answer, written whole.
#[derive(Debug)]
pub struct Answer {
    pub status: &'static str,
    pub kind: &'static str,
    pub body: Cow<'static, [u8]>,
    /// The headers are sent but not the body (a `HEAD`).
    pub head_only: bool,
}

impl Page {
    /// The answer to `method` `target` (as the request line has them).
    pub fn answer(&self, method: &str, target: &str) -> Answer {
        let head_only = method == "HEAD";
        if method != "GET" && !head_only {
            return text("405 Method Not Allowed", "only GET and HEAD are served here\n");
        }
        let path = target.split(['?', '#']).next().unwrap_or("");
        let name = match path {
            "/" | "" => "index.html",
            _ => path.strip_prefix('/').unwrap_or(path),
        };
        match self.file(name) {
            Some(body) => Answer { status: "200 OK", kind: kind(name), body, head_only },
            None => Answer { head_only, ..text("404 Not Found", "no such page\n") },
        }
    }

    /// The file `name`: only a plain name of the page's folder, never a
    /// path out of it.
    fn file(&self, name: &str) -> Option<Cow<'static, [u8]>> {
        let plain = !name.is_empty()
            && !name.starts_with('.')
            && name.bytes().all(|b| b.is_ascii_alphanumeric() || b"._-".contains(&b));
        if !plain {
            return None;
        }
        match &self.folder {
            Some(folder) => std::fs::read(folder.join(name)).ok().map(Cow::Owned),
            None => embedded::FILES.iter().find(|(n, _)| *n == name).map(|(_, body)| Cow::Borrowed(*body)),
        }
    }

    /// The built-in files' names.
    pub fn built_in() -> impl Iterator<Item = (&'static str, &'static [u8])> {
        embedded::FILES.iter().copied()
    }
}

/// The web page of the server at `server` (`ws://host:port`, or `wss://`
/// for `https://`).
pub fn page_link(server: &str) -> Option<String> {
    let (scheme, rest) = match server.split_once("://")? {
        ("ws", rest) => ("http", rest),
        ("wss", rest) => ("https", rest),
        _ => return None,
    };
    let host = rest.split('/').next().filter(|h| !h.is_empty())?;
    Some(format!("{scheme}://{host}/"))
}

/// The web page's link that seats a browser at `table`.
pub fn table_link(server: &str, table: &str) -> Option<String> {
    page_link(server).map(|page| format!("{page}#table={table}"))
}

/// A short answer in words.
pub fn text(status: &'static str, words: &str) -> Answer {
    Answer {
        status,
        kind: "text/plain; charset=utf-8",
        body: Cow::Owned(words.as_bytes().to_vec()),
        head_only: false,
    }
}

fn kind(name: &str) -> &'static str {
    match name.rsplit('.').next().unwrap_or("") {
        "html" => "text/html; charset=utf-8",
        "js" | "mjs" => "text/javascript; charset=utf-8",
        "css" => "text/css; charset=utf-8",
        "svg" => "image/svg+xml",
        "png" => "image/png",
        "ico" => "image/x-icon",
        "json" => "application/json",
        "woff2" => "font/woff2",
        "txt" => "text/plain; charset=utf-8",
        _ => "application/octet-stream",
    }
}

impl Answer {
    /// The answer as bytes on the wire; the connection closes after it.
    pub fn bytes(&self) -> Vec<u8> {
        let mut out = format!(
            "HTTP/1.1 {}\r\nContent-Type: {}\r\nContent-Length: {}\r\nContent-Security-Policy: {}\r\n\
             X-Content-Type-Options: nosniff\r\nReferrer-Policy: no-referrer\r\nX-Frame-Options: DENY\r\n\
             Cache-Control: no-cache\r\nConnection: close\r\n\r\n",
            self.status,
            self.kind,
            self.body.len(),
            CONTENT_SECURITY_POLICY
        )
        .into_bytes();
        if !self.head_only {
            out.extend_from_slice(&self.body);
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_table_link_is_the_page_of_the_server_it_names() {
        assert_eq!(
            table_link("ws://192.168.1.5:7878", "t1").as_deref(),
            Some("http://192.168.1.5:7878/#table=t1")
        );
        assert_eq!(table_link("wss://[::1]:7878/any", "t2").as_deref(), Some("https://[::1]:7878/#table=t2"));
        assert_eq!(table_link("http://x:1", "t3"), None);
        assert_eq!(table_link("ws://", "t3"), None);
    }

    #[test]
    fn only_plain_names_of_the_folder_are_served() {
        let dir = std::env::temp_dir().join(format!("tabula-page-{}", std::process::id()));
        std::fs::create_dir_all(dir.join("sub")).unwrap();
        std::fs::write(dir.join("app.js"), "let a = 1;").unwrap();
        std::fs::write(dir.join("sub/x.js"), "no").unwrap();
        std::fs::write(dir.join(".hidden"), "no").unwrap();
        let page = Page { folder: Some(dir.join("sub").join("..")) };
        let ok = page.answer("GET", "/app.js?v=2");
        assert_eq!(
            (ok.status, ok.kind, &*ok.body),
            ("200 OK", "text/javascript; charset=utf-8", &b"let a = 1;"[..])
        );
        for target in ["/sub/x.js", "/../page.rs", "/.hidden", "/%2e%2e/x", "//etc/passwd", "/sub%2fx.js"] {
            assert_eq!(page.answer("GET", target).status, "404 Not Found", "{target}");
        }
        assert_eq!(page.answer("POST", "/app.js").status, "405 Method Not Allowed");
        let head = page.answer("HEAD", "/app.js");
        let wire = String::from_utf8(head.bytes()).unwrap();
        assert!(wire.starts_with("HTTP/1.1 200 OK\r\n") && wire.ends_with("\r\n\r\n"), "{wire}");
        assert!(wire.contains("Content-Length: 10\r\n"), "HEAD says the length of what GET sends");
    }
}
