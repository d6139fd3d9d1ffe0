//! A browser at a window's table: Chromium (driven by web/tests/seat.mjs)
//! opens the link a hosting window shows, on the page the window's own
//! server serves, and plays seat 2 of a table of each game against the
//! window, choosing among the moves the page lists. Each sees the other's
//! moves: the window plays the browser's, and the page's move log lists
//! the window's, by name, to the end.

use std::process::{Command, Stdio};
use std::time::Instant;

use tabula_engine::mancala::Mancala;
use tabula_engine::nim::Nim;
use tabula_engine::robots::Robots;
use tabula_engine::russian_bank::RussianBank;

use super::*;

/// Everything the browser's side of one game may take, from Chromium's
/// start to the end.
const BROWSER_TIME: Duration = Duration::from_secs(120);

/// A whole game of `level` between the hosting window (seat 1, played by
/// `agent`) and a browser (seat 2, a random move of those its page lists);
/// the moves the browser made.
fn against_a_browser<G: WindowGame>(name: &str, level: &str, agent: &str) -> usize {
    let dir = temp_dir(name);
    let server = host(&dir);
    let url = server.local_url();
    let mut ann = window(&dir, "ann");
    seek(&mut ann, &url, "Ann", Seek::Create(create_of(level, &["person", "person"])));
    run_until(&mut [&mut ann], "the host's table", |a| has_session::<G>(a[0]));
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
    let mut hand = Hand::<G>::new(agent, 7);
    let mut window_moves = 0;
    while !over::<G>(&ann) {
        if start.elapsed() > BROWSER_TIME || browser.try_wait().unwrap().is_some() {
            let _ = browser.kill();
            let out = browser.wait_with_output().unwrap();
            panic!(
                "{level}: the game did not end at move {}; the browser said: {}",
                plies::<G>(&ann),
                String::from_utf8_lossy(&out.stderr)
            );
        }
        let ply = plies::<G>(&ann);
        // The game begins once the browser has taken its seat.
        if online(&ann).all_seated() && hand.play(&mut ann) {
            window_moves += 1;
            run_until(&mut [&mut ann], "the window's move heard back", |a| plies::<G>(a[0]) > ply);
        }
        ann.update();
        std::thread::sleep(Duration::from_millis(5));
    }
    // The page prints what it showed once it shows the end.
    while browser.try_wait().unwrap().is_none() {
        assert!(
            start.elapsed() < BROWSER_TIME + Duration::from_secs(30),
            "{level}: the browser did not finish"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    let out = browser.wait_with_output().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{level}: {stdout}{}", String::from_utf8_lossy(&out.stderr));
    let shown: Value = serde_json::from_str(stdout.lines().last().unwrap_or_default()).unwrap();
    let log: Vec<&str> = shown["log"].as_array().unwrap().iter().map(|l| l.as_str().unwrap()).collect();
    let moves = game_session::<G>(&ann).moves.len();
    assert_eq!(log.len(), moves, "{level}: the page lists every move the window played or heard: {log:?}");
    assert!(log.iter().all(|l| l.starts_with("Ann: ") || l.starts_with("Web: ")), "{level}: {log:?}");
    let by_window = log.iter().filter(|l| l.starts_with("Ann: ")).count();
    assert_eq!(by_window, window_moves, "{level}: the page names the window's moves as Ann's: {log:?}");
    let result = shown["result"].as_str().unwrap();
    assert!(!result.is_empty(), "{level}: the page shows the end");
    moves - window_moves
}

#[test]
fn a_browser_and_the_window_at_one_table_see_each_others_moves_in_every_game() {
    // Nim and Kalah alternate: the browser moves in each.
    assert!(against_a_browser::<Nim>("browser-nim", "nim/traditional-3-4-5", "random") > 0);
    assert!(against_a_browser::<Mancala>("browser-kalah", "mancala/small-solved-4x3", "greedy") > 0);
    // The window's planner, or its Russian Bank seat, may win before the
    // browser's first move: the page still follows every move to the end.
    against_a_browser::<Robots>("browser-robots", "robots/01-first-steps", "planner");
    against_a_browser::<RussianBank>("browser-bank", "russian_bank/04-quick-win", "greedy");
}
