//! `tabula serve` and `tabula bot` as a user runs them, in two terminals:
//! two bots play whole games of Russian Bank over a server that is killed
//! (kill -9) in the middle of them and started again on the same database;
//! the bots come back with their tokens and the games go on to their end.

use std::io::{BufRead, BufReader};
use std::net::TcpListener;
use std::process::{Child, Command, Stdio};
use std::sync::mpsc::{Receiver, channel};
use std::time::{Duration, Instant};

/// A command running, its output read line by line as it comes.
struct Running {
    child: Child,
    lines: Receiver<String>,
    seen: Vec<String>,
}

fn spawn(args: &[&str]) -> Running {
    let mut child = Command::new(env!("CARGO_BIN_EXE_tabula"))
        .args(args)
        .current_dir(crate::manifest_dir())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("tabula starts");
    let (send, lines) = channel();
    for stream in [
        Box::new(child.stdout.take().unwrap()) as Box<dyn std::io::Read + Send>,
        Box::new(child.stderr.take().unwrap()),
    ] {
        let send = send.clone();
        std::thread::spawn(move || {
            for line in BufReader::new(stream).lines().map_while(Result::ok) {
                let _ = send.send(line);
            }
        });
    }
    Running { child, lines, seen: Vec::new() }
}

impl Running {
    /// The first line (from now) for which `wanted` holds, within `limit`.
    fn wait_for(&mut self, what: &str, limit: Duration, wanted: impl Fn(&str) -> bool) -> String {
        let deadline = Instant::now() + limit;
        while let Some(left) = deadline.checked_duration_since(Instant::now()) {
            match self.lines.recv_timeout(left) {
                Ok(line) => {
                    self.seen.push(line.clone());
                    if wanted(&line) {
                        return line;
                    }
                }
                Err(_) => break,
            }
        }
        let _ = self.child.kill();
        panic!("no {what} within {limit:?}; the output so far:\n{}", self.seen.join("\n"));
    }

    /// Waits for the process to end by itself, and all its output.
    fn finish(&mut self, limit: Duration) -> bool {
        let deadline = Instant::now() + limit;
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                self.seen.extend(self.lines.try_iter());
                std::thread::sleep(Duration::from_millis(100));
                self.seen.extend(self.lines.try_iter());
                return status.success();
            }
            if Instant::now() > deadline {
                let _ = self.child.kill();
                panic!("still running after {limit:?}:\n{}", self.seen.join("\n"));
            }
            self.seen.extend(self.lines.try_iter());
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// The highest move number in the lines seen so far.
    fn last_move(&self) -> u64 {
        self.seen
            .iter()
            .filter_map(|l| l.strip_prefix("move ")?.split(':').next()?.parse().ok())
            .max()
            .unwrap_or(0)
    }
}

impl Drop for Running {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn serve(port: u16, dir: &std::path::Path) -> Running {
    let mut server = spawn(&[
        "serve",
        "--listen",
        &format!("127.0.0.1:{port}"),
        "--db",
        dir.join("server.db").to_str().unwrap(),
        "--replays",
        dir.join("replays").to_str().unwrap(),
        // Slow enough that the kill lands in the middle of the games.
        "--messages-per-second",
        "40",
    ]);
    server.wait_for("server", Duration::from_secs(30), |l| l.contains("listening on ws://127.0.0.1"));
    server
}

#[test]
fn bots_play_russian_bank_over_a_server_killed_and_started_again() {
    let dir = crate::temp_dir("serve");
    let port = TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
    let url = format!("ws://127.0.0.1:{port}");
    let mut server = serve(port, &dir);
    let mut pairs = Vec::new();
    for (a, b) in [("Ann", "Bob"), ("Cid", "Dee")] {
        let mut first = spawn(&[
            "bot",
            &url,
            "--create",
            "russian_bank/01-shuffled-deal",
            "--agent",
            "greedy",
            "--name",
            a,
        ]);
        let line = first.wait_for("a table", Duration::from_secs(30), |l| l.starts_with("table "));
        let table = line.split_whitespace().nth(1).unwrap().to_owned();
        let second = spawn(&["bot", &url, "--table", &table, "--agent", "greedy", "--name", b]);
        pairs.push((table, first, second));
    }
    for (_, first, _) in &mut pairs {
        first.wait_for("move 40", Duration::from_secs(60), |l| l.starts_with("move 40:"));
    }
    // kill -9: no chance to write anything more.
    server.child.kill().unwrap();
    server.child.wait().unwrap();
    let acknowledged: Vec<u64> = pairs
        .iter_mut()
        .map(|(_, a, _)| {
            std::thread::sleep(Duration::from_millis(200));
            a.seen.extend(a.lines.try_iter());
            a.last_move()
        })
        .collect();
    let mut again = serve(port, &dir);
    assert!(again.seen.iter().any(|l| l.contains("(2 tables in play")), "{:?}", again.seen);
    for ((table, first, second), acked) in pairs.iter_mut().zip(acknowledged) {
        assert!(first.finish(Duration::from_secs(240)), "{}", first.seen.join("\n"));
        assert!(second.finish(Duration::from_secs(60)), "{}", second.seen.join("\n"));
        for bot in [&*first, &*second] {
            let out = bot.seen.join("\n");
            assert!(out.contains("lost the server"), "{out}");
        }
        // Back at the move it last heard of, or later: nothing acknowledged was lost.
        let lost = first.seen.iter().position(|l| l.contains("lost the server")).unwrap();
        let back = first.seen[lost..]
            .iter()
            .find_map(|l| l.strip_prefix("at move ")?.split(',').next()?.parse::<u64>().ok())
            .unwrap();
        assert!(back >= acked, "acknowledged move {acked}, but the table came back at {back}");
        let end =
            |bot: &Running| bot.seen.iter().find(|l| l.starts_with("the game is over")).cloned().unwrap();
        assert_eq!(end(first), end(second));
        let replay = dir.join("replays").join(format!("{table}.ron"));
        let check = Command::new(env!("CARGO_BIN_EXE_tabula"))
            .args(["replay", replay.to_str().unwrap()])
            .output()
            .unwrap();
        assert!(check.status.success(), "{}", String::from_utf8_lossy(&check.stderr));
    }
    drop(again.child.kill());
}
