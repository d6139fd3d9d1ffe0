//! How long the default `minimax` takes a move over whole games of Kalah
//! (6,6) against `mcts:200`, sides alternating: the mean and the slowest.
//! Run with `cargo run --release -p tabula-engine --example minimax_move_times`.

use std::time::Instant;

use tabula_engine::core::{AgentRegistry, Game, rng_from_seed};
use tabula_engine::mancala::{Capture, Mancala, MancalaLevel};

const GAMES: u64 = 10;

fn main() {
    let level = MancalaLevel {
        name: "Kalah (6,6)".into(),
        description: String::new(),
        group: Default::default(),
        pits: 6,
        stones: 6,
        capture: Capture::Standard,
        sweep: true,
        move_cap: 2000,
    };
    let (mut slowest, mut total, mut moves) = (0f64, 0f64, 0u32);
    for seed in 0..GAMES {
        let mut game = Mancala::new(&level, seed).expect("a valid level");
        let mut rng = rng_from_seed(seed);
        let mut minimax = Mancala::agent_from_str("minimax").expect("a known agent");
        let mut mcts = Mancala::agent_from_str("mcts:200").expect("a known agent");
        let minimax_seat = (seed % 2) as u8;
        while game.outcome().is_none() {
            let mv = if game.current_player().0 == minimax_seat {
                let start = Instant::now();
                let mv = minimax.choose(game.current_player(), &game, &mut rng);
                let took = start.elapsed().as_secs_f64();
                slowest = slowest.max(took);
                total += took;
                moves += 1;
                mv
            } else {
                mcts.choose(game.current_player(), &game, &mut rng)
            };
            game.play(mv.expect("a move in a running game")).expect("agents play legal moves");
        }
    }
    println!(
        "minimax: {moves} moves in {GAMES} games, mean {:.1} ms, slowest {:.1} ms",
        total / moves as f64 * 1e3,
        slowest * 1e3
    );
}
