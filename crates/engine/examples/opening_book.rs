//! Proves every position of a Mancala level's first plies into the folder's
//! `teacher.margins`, the book the game ships for its first game
//! (docs/solver.md, "The opening book"): the margins a person meets first,
//! after any opening, weak or strong, answered at once.
//!
//! ```sh
//! cargo run -p tabula-engine --example opening_book -- levels/mancala/kalah-6-4.ron /tmp/kalah 2
//! ```

use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::sync::atomic::Ordering;
use std::time::Instant;

use tabula_engine::core::Game;
use tabula_engine::level;
use tabula_engine::mancala::solver::{Shared, Teacher, needs_preparing, prepare};
use tabula_engine::mancala::{Mancala, MancalaLevel};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let (Some(path), Some(dir)) = (args.next(), args.next()) else {
        return Err("usage: opening_book <mancala level> <folder for the solver's files> [plies]".into());
    };
    let plies: usize = args.next().map(|s| s.parse()).transpose()?.unwrap_or(2);
    let file = level::load(Path::new(&path))?;
    let lvl: MancalaLevel = file.get::<Mancala>().ok_or("not a Mancala level")?.clone();
    let dir = PathBuf::from(dir);
    let started = Instant::now();
    if needs_preparing(&lvl, &dir) {
        prepare(&lvl, &dir).wait();
        println!("prepared in {:.1} s", started.elapsed().as_secs_f64());
    }
    let teacher = Teacher::with_dir(&lvl, &dir);
    // Every position within `plies` moves of the start, each once.
    let mut seen = HashSet::new();
    let mut layer = vec![Mancala::new(&lvl, 0)?];
    for ply in 0..=plies {
        let mut next = Vec::new();
        for board in layer {
            if board.outcome().is_some()
                || !seen.insert(format!("{:?}", (board.cells(), board.current_player())))
            {
                continue;
            }
            let asked = Instant::now();
            let shared = Shared::default();
            shared.node_limit.store(u64::MAX, Ordering::Relaxed);
            let proven = teacher.move_margins_until(&board, &shared, &|_| {}).is_some();
            println!(
                "ply {ply}: {:>7.2} s {}",
                asked.elapsed().as_secs_f64(),
                if proven { "" } else { "not proven" }
            );
            let mut moves = Vec::new();
            board.legal_moves(board.current_player(), &mut moves);
            for mv in moves {
                let mut after = board;
                after.play(mv)?;
                next.push(after);
            }
        }
        layer = next;
    }
    println!("{} positions in {:.1} s", seen.len(), started.elapsed().as_secs_f64());
    Ok(())
}
