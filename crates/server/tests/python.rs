//! The Python bot of `clients/python/tabula_bot.py`, written from
//! docs/protocol.md alone, plays whole games against itself and against the
//! server's own agent. It needs a Python with `websockets` (Debian's
//! `python3-websockets`, which `scripts/setup.sh` installs).

mod common;

use std::io::{BufRead, BufReader, Read};
use std::path::PathBuf;
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::{Duration, Instant};

use common::*;

/// How long one test's bots may take, all together.
const TIMEOUT: Duration = Duration::from_secs(120);

/// A quick Russian Bank: a shuffled deal, Stops, and an end within 400 moves.
const QUICK_BANK: &str = "RussianBank(name: \"Quick\", deal: Shuffled, stop_rule: true, move_cap: 400)";

/// The first of `/usr/bin/python3` and `python3` that can `import websockets`.
fn python() -> String {
    for candidate in ["/usr/bin/python3", "python3"] {
        let ok = Command::new(candidate)
            .args(["-c", "import websockets"])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .is_ok_and(|status| status.success());
        if ok {
            return candidate.to_owned();
        }
    }
    panic!(
        "no Python 3 with the `websockets` library (tried /usr/bin/python3 and python3): \
         install Debian's python3-websockets (scripts/setup.sh does)"
    );
}

fn bot_script() -> PathBuf {
    PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").unwrap()).join("../../clients/python/tabula_bot.py")
}

/// A server on a loopback port, run by a runtime of its own (the test's
/// thread is left free to wait on processes); the runtime and its URL.
fn server(name: &str) -> (tokio::runtime::Runtime, String) {
    let runtime = tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build().unwrap();
    let addr = runtime.block_on(start(config(&temp_dir(name))));
    (runtime, url(addr))
}

/// One `tabula_bot.py` process; its output lines arrive on `lines`.
struct Bot {
    name: &'static str,
    child: Child,
    lines: Receiver<String>,
    output: Vec<String>,
    status: Option<ExitStatus>,
}

impl Bot {
    fn spawn(name: &'static str, url: &str, args: &[&str]) -> Bot {
        let mut child = Command::new(python())
            .arg(bot_script())
            .arg(url)
            .args(args)
            .args(["--name", name])
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("starting the Python bot");
        let (send, lines) = channel();
        let stderr_send = send.clone();
        let stdout = child.stdout.take().unwrap();
        let stderr = child.stderr.take().unwrap();
        std::thread::spawn(move || forward(stdout, "", &send));
        std::thread::spawn(move || forward(stderr, "stderr: ", &stderr_send));
        Bot { name, child, lines, output: Vec::new(), status: None }
    }

    /// Waits (until `deadline`) for a line of stdout starting with `prefix`; the rest of it.
    fn line_starting(&mut self, prefix: &str, deadline: Instant) -> String {
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(line) => {
                    self.output.push(line.clone());
                    if let Some(rest) = line.strip_prefix(prefix) {
                        return rest.to_owned();
                    }
                }
                Err(RecvTimeoutError::Timeout) => {
                    self.kill();
                    panic!(
                        "{}: no line `{prefix}...` in time; its output:\n{}",
                        self.name,
                        self.output.join("\n")
                    );
                }
                Err(RecvTimeoutError::Disconnected) => {
                    panic!(
                        "{}: ended without a line `{prefix}...`; its output:\n{}",
                        self.name,
                        self.output.join("\n")
                    )
                }
            }
        }
    }

    fn drain(&mut self) {
        while let Ok(line) = self.lines.try_recv() {
            self.output.push(line);
        }
    }

    fn kill(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }

    /// The `result` line it printed (the result's JSON).
    fn result(&self) -> &str {
        self.output.iter().rev().find_map(|line| line.strip_prefix("result ")).unwrap_or_else(|| {
            panic!("{}: no result line; its output:\n{}", self.name, self.output.join("\n"))
        })
    }
}

/// Sends each line of `from` (prefixed) until it closes.
fn forward(from: impl Read, prefix: &str, to: &std::sync::mpsc::Sender<String>) {
    for line in BufReader::new(from).lines() {
        let Ok(line) = line else { break };
        if to.send(format!("{prefix}{line}")).is_err() {
            break;
        }
    }
}

/// Waits for every bot to end, until `deadline`; past it, kills them all and fails.
/// Each must exit 0, having printed its result.
fn finish(bots: &mut [Bot], deadline: Instant) {
    loop {
        for bot in bots.iter_mut() {
            bot.drain();
            if bot.status.is_none() {
                bot.status = bot.child.try_wait().unwrap();
            }
        }
        if bots.iter().all(|bot| bot.status.is_some()) {
            break;
        }
        if Instant::now() > deadline {
            let mut said = String::new();
            for bot in bots.iter_mut() {
                bot.kill();
                bot.drain();
                said += &format!("\n--- {}:\n{}", bot.name, bot.output.join("\n"));
            }
            panic!("the bots did not finish within {TIMEOUT:?}{said}");
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    for bot in bots.iter_mut() {
        // The output's last lines: the pipes close as the process ends (bounded all the same).
        let until = Instant::now() + Duration::from_secs(5);
        while let Ok(line) = bot.lines.recv_timeout(until.saturating_duration_since(Instant::now())) {
            bot.output.push(line);
        }
        // Shown when a test fails (or with --nocapture).
        println!("--- {}:\n{}", bot.name, bot.output.join("\n"));
        let status = bot.status.unwrap();
        assert!(
            status.success(),
            "{} exited with {status}; its output:\n{}",
            bot.name,
            bot.output.join("\n")
        );
    }
}

/// Two Python bots at one table: the first creates it and prints its id, the
/// second joins it. Both must end and agree on the result; it.
fn two_bots(url: &str, create: &[&str], second: &[&str]) -> String {
    let deadline = Instant::now() + TIMEOUT;
    let mut ann = Bot::spawn("Ann", url, create);
    let table = ann.line_starting("table ", deadline);
    let mut args = vec!["--table", &table];
    args.extend_from_slice(second);
    let bob = Bot::spawn("Bob", url, &args);
    let mut bots = [ann, bob];
    finish(&mut bots, deadline);
    let [ann, bob] = &bots;
    assert_eq!(
        ann.result(),
        bob.result(),
        "Ann:\n{}\nBob:\n{}",
        ann.output.join("\n"),
        bob.output.join("\n")
    );
    ann.result().to_owned()
}

fn result_json(result: &str) -> serde_json::Value {
    serde_json::from_str(result).unwrap_or_else(|e| panic!("a result that is not JSON ({e}): {result}"))
}

#[test]
fn two_python_bots_play_a_whole_game_of_nim() {
    let (_runtime, url) = server("python-nim");
    let result = two_bots(&url, &["--create", "nim/beginner-2-3"], &["--first"]);
    let result = result_json(&result);
    assert_eq!(result["reason"], "rules", "{result}");
    assert!(result["winner"] == 1 || result["winner"] == 2, "Nim has no draws: {result}");
}

#[test]
fn two_python_bots_play_a_whole_game_of_russian_bank_with_stops() {
    let (_runtime, url) = server("python-bank");
    let level = temp_dir("python-bank-level").join("quick.ron");
    std::fs::write(&level, QUICK_BANK).unwrap();
    let result = two_bots(&url, &["--level-text", level.to_str().unwrap()], &[]);
    assert_eq!(result_json(&result)["reason"], "rules", "{result}");
}

#[test]
fn a_python_bot_plays_russian_bank_against_the_servers_agent() {
    let (_runtime, url) = server("python-agent");
    let level = temp_dir("python-agent-level").join("quick.ron");
    std::fs::write(&level, QUICK_BANK).unwrap();
    let deadline = Instant::now() + TIMEOUT;
    let ann = Bot::spawn("Ann", &url, &["--level-text", level.to_str().unwrap(), "--seats", "person,greedy"]);
    let mut bots = [ann];
    finish(&mut bots, deadline);
    let result = result_json(bots[0].result());
    assert_eq!(result["reason"], "rules", "{result}");
    assert!(bots[0].output.iter().any(|line| line.ends_with("(mine)")), "the bot never moved");
}

#[test]
fn a_python_bot_stopped_comes_back_with_its_token() {
    let (_runtime, url) = server("python-token");
    let deadline = Instant::now() + TIMEOUT;
    // Ann opens a Nim table, takes seat 1, says her token, and is stopped.
    let mut ann = Bot::spawn("Ann", &url, &["--create", "nim/beginner-2-3", "--seat", "1"]);
    let table = ann.line_starting("table ", deadline);
    let token = ann.line_starting("seat 1 token ", deadline);
    ann.kill();
    // Bob takes seat 2; Ann's seat is played on by a new process holding her token.
    let bob = Bot::spawn("Bob", &url, &["--table", &table]);
    let again = Bot::spawn("Ann again", &url, &["--token", &token, "--table", &table]);
    let mut bots = [bob, again];
    finish(&mut bots, deadline);
    assert_eq!(bots[0].result(), bots[1].result());
    assert!(
        bots[1].output.iter().any(|line| *line == format!("seat 1 token {token}")),
        "{:?}",
        bots[1].output
    );
}

#[test]
fn python_bots_come_back_by_themselves_after_the_server_restarts() {
    let dir = temp_dir("python-restart");
    let runtime = tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build().unwrap();
    let addr = runtime.block_on(start(config(&dir)));
    let url = url(addr);
    let level = dir.join("quick.ron");
    std::fs::write(&level, QUICK_BANK).unwrap();
    let deadline = Instant::now() + TIMEOUT;
    let mut ann = Bot::spawn("Ann", &url, &["--level-text", level.to_str().unwrap()]);
    let table = ann.line_starting("table ", deadline);
    let bob = Bot::spawn("Bob", &url, &["--table", &table]);
    // Some moves in, the server goes away: every connection drops.
    ann.line_starting("move 20 ", deadline);
    runtime.shutdown_timeout(Duration::from_secs(5));
    // The same server again, on the same port and database (the port may take a moment to free).
    let runtime = tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build().unwrap();
    let mut again = config(&dir);
    again.listen = addr;
    let started = Instant::now();
    while let Err(e) = runtime.block_on(tabula_server::Server::bind(again.clone())).map(|server| {
        runtime.spawn(server.run());
    }) {
        assert!(started.elapsed() < Duration::from_secs(10), "the server could not start again: {e}");
        std::thread::sleep(Duration::from_millis(100));
    }
    let mut bots = [ann, bob];
    finish(&mut bots, deadline);
    assert_eq!(bots[0].result(), bots[1].result());
    for bot in &bots {
        assert!(
            bot.output.iter().any(|line| line.starts_with("connection lost")),
            "{}: {:?}",
            bot.name,
            bot.output
        );
    }
}
