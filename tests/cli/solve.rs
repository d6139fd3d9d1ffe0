//! `tabula solve`: the value of a Kalah board, and a solve killed with
//! SIGKILL that goes on from its checkpoint.

use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use crate::{tabula, temp_dir, text};

/// Kalah (6,3) with empty capture: +2 for the first player (Irving et al.).
const KALAH_6_3: &str = "Mancala(name: \"Kalah (6,3)\", pits: 6, stones: 3, capture: Empty, sweep: true)";

#[test]
fn a_solve_killed_with_sigkill_goes_on_from_its_checkpoint() {
    let dir = temp_dir("solve-kill");
    let level = dir.join("kalah-6-3.ron");
    std::fs::write(&level, KALAH_6_3).unwrap();
    let db = dir.join("db");
    // Small databases, a small table and one thread: seconds of search,
    // with a checkpoint every tenth of one.
    let args = [
        "solve",
        level.to_str().unwrap(),
        "--dir",
        db.to_str().unwrap(),
        "--tiers",
        "8",
        "--memory",
        "16",
        "--threads",
        "1",
        "--every-move",
        "--checkpoint-every",
        "0.1",
    ];
    let mut first = Command::new(env!("CARGO_BIN_EXE_tabula"))
        .args(args)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("tabula runs");
    let checkpoint = db.join("6-empty-sweep").join("solve-6x3.checkpoint.ron");
    let waited = Instant::now();
    while !checkpoint.exists() {
        assert!(waited.elapsed() < Duration::from_secs(60), "no checkpoint within a minute");
        assert!(first.try_wait().unwrap().is_none(), "the solve ended before its first checkpoint");
        std::thread::sleep(Duration::from_millis(20));
    }
    first.kill().unwrap(); // SIGKILL
    first.wait().unwrap();
    assert!(!db.join("6-empty-sweep").join("solved-6x3.ron").exists());

    let again = tabula(&args);
    let stdout = text(&again.stdout);
    let stderr = text(&again.stderr);
    assert!(again.status.success(), "{stdout}{stderr}");
    assert!(stderr.contains("resumed from the checkpoint"), "{stderr}");
    assert!(stderr.contains("tier  8 loaded") || !stderr.contains("tier  8 built"), "{stderr}");
    assert!(stdout.contains("value: +2 (the first player wins by 2 with perfect play)"), "{stdout}");
    assert!(stdout.contains("best first moves: A5"), "{stdout}");
    assert!(!checkpoint.exists(), "a finished solve leaves no checkpoint");

    // Asked again, the finished solve answers at once.
    let third = tabula(&args);
    assert!(text(&third.stdout).contains("solved before"), "{}", text(&third.stdout));
}

#[test]
fn solve_refuses_other_games_and_boards_beyond_it() {
    let run = tabula(&["solve", "levels/nim/mcmorran-5-6-7.ron"]);
    assert!(!run.status.success());
    assert!(
        text(&run.stderr).contains("proves Mancala levels; this is a Nim level"),
        "{}",
        text(&run.stderr)
    );

    let dir = temp_dir("solve-beyond");
    let level = dir.join("huge.ron");
    std::fs::write(&level, "Mancala(name: \"Huge\", pits: 12, stones: 40, capture: Standard, sweep: true)")
        .unwrap();
    let run = tabula(&["solve", level.to_str().unwrap(), "--dir", dir.to_str().unwrap()]);
    let stderr = text(&run.stderr);
    assert!(!run.status.success());
    assert!(stderr.contains("beyond the solver") && stderr.contains("positions"), "{stderr}");

    // Databases larger than the memory allowed are refused before any is built.
    let run = tabula(&[
        "solve",
        "levels/mancala/kalah-6-4.ron",
        "--tiers",
        "60",
        "--memory",
        "64",
        "--dir",
        dir.to_str().unwrap(),
    ]);
    let stderr = text(&run.stderr);
    assert!(!run.status.success());
    assert!(stderr.contains("more than the 64 MiB of --memory"), "{stderr}");
}
