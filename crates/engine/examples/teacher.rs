//! How long a Mancala teacher takes on a level, from nothing or from what
//! its folder keeps (docs/benchmarks.md, "The teacher on a big board"):
//! the preparation, then every position of one game, the margins of every
//! move proven at each.
//!
//! ```sh
//! cargo run -p tabula-engine --example teacher -- levels/mancala/kalah-6-4.ron /tmp/kalah
//! ```
//!
//! The game: the best move at each ply, but a seeded one move in four any
//! legal move, so that it leaves the line the preparation proved.

use std::path::{Path, PathBuf};
use std::time::Instant;

use std::sync::atomic::Ordering;
use tabula_engine::core::{Game, rng_from_seed};
use tabula_engine::level;

use tabula_engine::mancala::solver::teach::OVERLAY_NODES;
use tabula_engine::mancala::solver::{Shared, Teacher, needs_preparing, prepare};
use tabula_engine::mancala::{Mancala, MancalaLevel};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let (Some(path), Some(dir)) = (args.next(), args.next()) else {
        return Err("usage: teacher <mancala level> <folder for the solver's files> [seed] [nodes]".into());
    };
    let seed = args.next().map(|s| s.parse()).transpose()?.unwrap_or(1);
    // Nodes searched at most for one position (the window's overlay's
    // limit unless given).
    let budget = args.next().map(|s| s.parse()).transpose()?.unwrap_or(OVERLAY_NODES);
    let file = level::load(Path::new(&path))?;
    let lvl: MancalaLevel = file.get::<Mancala>().ok_or("not a Mancala level")?.clone();
    let dir = PathBuf::from(dir);
    let started = Instant::now();
    if needs_preparing(&lvl, &dir) {
        let prep = prepare(&lvl, &dir);
        prep.wait();
        println!("prepared in {:.1} s: {}", started.elapsed().as_secs_f64(), prep.stage().words());
    } else {
        println!("nothing to prepare");
    }
    let teacher = Teacher::with_dir(&lvl, &dir);
    println!(
        "teacher ready after {:.1} s, databases up to {} stones",
        started.elapsed().as_secs_f64(),
        teacher.tiers()
    );
    let mut rng = rng_from_seed(seed);
    let mut board = Mancala::new(&lvl, 0)?;
    let mut ply = 0;
    while board.outcome().is_none() {
        let asked = Instant::now();
        let shared = Shared::default();
        shared.node_limit.store(budget, Ordering::Relaxed);
        let margins = teacher.move_margins_until(&board, &shared, &|_| {});
        let seconds = asked.elapsed().as_secs_f64();
        let in_pits: u32 = board.cells().iter().map(|&c| u32::from(c)).sum::<u32>()
            - u32::from(board.store(tabula_engine::Player::ONE))
            - u32::from(board.store(tabula_engine::Player::TWO));
        println!(
            "ply {ply:>2}: {seconds:>7.3} s, {in_pits:>2} stones in the pits, {}",
            if margins.is_some() { "proven" } else { "beyond the budget" }
        );
        let mut moves = Vec::new();
        board.legal_moves(board.current_player(), &mut moves);
        let best = margins.as_ref().and_then(|m| m.iter().max_by_key(|m| m.margin)).map(|m| m.sow);
        let wander = rand::Rng::random_range(&mut rng, 0..4) == 0;
        let mv = match best {
            Some(best) if !wander => best,
            _ => moves[rand::Rng::random_range(&mut rng, 0..moves.len())],
        };
        board.play(mv)?;
        ply += 1;
    }
    println!("game over after {ply} plies, {:.1} s in all", started.elapsed().as_secs_f64());
    Ok(())
}
