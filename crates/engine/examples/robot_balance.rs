//! Seat wins of a Robot board level between the given agents, seats
//! rotated: for designing levels without building the window.
//! `cargo run -p tabula-engine --example robot_balance -- <level.ron> <games> <agent>...`

use tabula_engine::core::AgentSpec;
use tabula_engine::core::runner::{MatchConfig, run_match};
use tabula_engine::level::load;
use tabula_engine::robots::Robots;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [path, games, agents @ ..] = &args[..] else {
        eprintln!("usage: robot_balance <level.ron> <games> <agent>...");
        std::process::exit(2);
    };
    let file = load(std::path::Path::new(path)).unwrap_or_else(|e| panic!("{e}"));
    let level = file.get::<Robots>().expect("a Robot board level");
    let specs: Vec<AgentSpec> = agents.iter().map(|a| a.parse().expect("an agent")).collect();
    let config =
        MatchConfig { games: games.parse().expect("a number"), seed: 1, jobs: 2, record_moves: false };
    let start = std::time::Instant::now();
    let summary =
        run_match::<Robots>(level, &specs, &config, &mut |_| {}, &|_| {}).unwrap_or_else(|e| panic!("{e}"));
    let n = summary.games as f64;
    let pct = |w: u64| format!("{:.1}%", 100.0 * w as f64 / n);
    println!(
        "{path}: {} games in {:.1} s; by seat {}; by agent {}; draws {}; mean {:.1} moves",
        summary.games,
        start.elapsed().as_secs_f64(),
        summary.seat_wins.iter().map(|&w| pct(w)).collect::<Vec<_>>().join(" "),
        summary.wins.iter().map(|&w| pct(w)).collect::<Vec<_>>().join(" "),
        pct(summary.draws),
        summary.mean_plies()
    );
}
