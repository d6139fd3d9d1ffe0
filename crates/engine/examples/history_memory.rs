//! The level editor's history: resident memory taken by a million painted
//! tiles (a million, so that the growth is far above the allocator's and the
//! page size's grain), per edit and for 10,000, and the time to undo and
//! redo 10,000. `cargo run --release -p tabula-engine --example history_memory`

use std::time::Instant;

use tabula_engine::core::history::History;
use tabula_engine::robots::edit::RobotEdit;
use tabula_engine::robots::generate::{Plan, generate};

/// Resident memory, in bytes, as Linux counts it.
fn resident() -> u64 {
    let statm = std::fs::read_to_string("/proc/self/statm").unwrap_or_default();
    statm.split_whitespace().nth(1).and_then(|p| p.parse::<u64>().ok()).unwrap_or(0) * 4096
}

fn painted(
    level: &tabula_engine::robots::RobotsLevel,
    edits: u32,
) -> History<tabula_engine::robots::RobotsLevel, RobotEdit> {
    let mut history = History::new(level.clone());
    for i in 0..edits {
        let c = if i % 2 == 0 { '#' } else { '.' };
        history.edit(RobotEdit::Tiles(vec![(((i % 128) as u16, ((i / 128) % 128) as u16), c)]));
    }
    history
}

fn main() {
    let level = generate(Plan::new(128, 128, 4, 2, 1)).unwrap();
    let before = resident();
    let big = painted(&level, 1_000_000);
    let per_edit = (resident() - before) as f64 / 1e6;
    drop(big);
    println!(
        "history: {per_edit:.0} bytes of resident memory an edit (a million painted tiles); 10,000 edits: {:.0} KiB",
        per_edit * 10_000.0 / 1024.0
    );
    let mut history = painted(&level, 10_000);
    let start = Instant::now();
    while history.undo() {}
    let undo = start.elapsed();
    let start = Instant::now();
    while history.redo() {}
    let redo = start.elapsed();
    println!(
        "undo of 10,000 edits: {:.1} ms; redo: {:.1} ms",
        undo.as_secs_f64() * 1e3,
        redo.as_secs_f64() * 1e3
    );
}
