//! A browser at a window's table: Chromium (driven by web/tests/seat.mjs)
//! opens the link a hosting window shows, on the page the window's own
//! server serves, and plays seat 2 of a Nim table against the window.
//! Each sees the other's moves: the window plays the browser's, and the
//! page's move log lists the window's, by name, to the end.

use std::process::{Command, Stdio};
use std::time::Instant;

use tabula_engine::nim::Nim;

use super::*;

/// Everything the browser's side may take, from Chromium's start to the end.
const BROWSER_TIME: Duration = Duration::from_secs(120);

#[test]
fn a_browser_and_the_window_at_one_table_see_each_others_moves() {
    let dir = temp_dir("online-browser");
    let server = host(&dir);
    let url = server.local_url();
    let mut ann = window(&dir, "ann");
    seek(&mut ann, &url, "Ann", Seek::Create(create_of("nim/traditional-3-4-5", &["person", "person"])));
    run_until(&mut [&mut ann], "the host's table", |a| has_session::<Nim>(a[0]));
    let table = online(&ann).table.clone().unwrap();
    let link = tabula_server::page::table_link(&url, &table).unwrap();
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("web/tests/seat.mjs");
    let mut browser = Command::new("node")
        .arg(&script)
        .arg(&link)
        .arg("Web")
        .arg(BROWSER_TIME.as_secs().to_string())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("node runs web/tests/seat.mjs (scripts/setup.sh installs Node.js and Chromium)");
    let start = Instant::now();
    let mut hand = Hand::<Nim>::new("random", 7);
    while !over::<Nim>(&ann) {
        if start.elapsed() > BROWSER_TIME || browser.try_wait().unwrap().is_some() {
            let _ = browser.kill();
            let out = browser.wait_with_output().unwrap();
            panic!(
                "the game did not end at move {}; the browser said: {}",
                plies::<Nim>(&ann),
                String::from_utf8_lossy(&out.stderr)
            );
        }
        let ply = plies::<Nim>(&ann);
        // The game begins once the browser has taken its seat.
        if online(&ann).all_seated() && hand.play(&mut ann) {
            run_until(&mut [&mut ann], "the window's move heard back", |a| plies::<Nim>(a[0]) > ply);
        }
        ann.update();
        std::thread::sleep(Duration::from_millis(5));
    }
    // The page prints what it showed once it shows the end.
    while browser.try_wait().unwrap().is_none() {
        assert!(start.elapsed() < BROWSER_TIME + Duration::from_secs(30), "the browser did not finish");
        std::thread::sleep(Duration::from_millis(50));
    }
    let out = browser.wait_with_output().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{stdout}{}", String::from_utf8_lossy(&out.stderr));
    let shown: Value = serde_json::from_str(stdout.lines().last().unwrap_or_default()).unwrap();
    let log: Vec<&str> = shown["log"].as_array().unwrap().iter().map(|l| l.as_str().unwrap()).collect();
    let session = game_session::<Nim>(&ann);
    assert_eq!(
        log.len(),
        session.moves.len(),
        "the page lists every move the window played or heard: {log:?}"
    );
    for (i, line) in log.iter().enumerate() {
        let by = if i % 2 == 0 { "Ann" } else { "Web" };
        assert!(line.starts_with(&format!("{by}: take ")), "move {}: {line:?}", i + 1);
    }
    let winner =
        if session.outcome() == Some(tabula_engine::Outcome::Win(Player::ONE)) { "Ann" } else { "you" };
    let result = shown["result"].as_str().unwrap();
    assert!(result.contains(winner), "the page's end names the winner ({winner}): {result}");
}
