//! How much skill decides on Robot boards dealt like a two-player
//! hidden-home level (a new board each game): `sleuth` (works out where a
//! home can be from every hint and sighting) against `scout` (follows
//! its own hints), and the difficulties, 100 games on each of the boards
//! dealt from seeds 0 to 19, seats swapped every game.
//! Run with `cargo run -p tabula-engine --example dealt_skill -- LEVEL`
//! (default: levels/robots/12-hidden-homes.ron).

use tabula_engine::core::AgentSpec;
use tabula_engine::core::runner::{MatchConfig, run_match};
use tabula_engine::robots::Robots;
use tabula_engine::robots::deal::deal_like;

fn main() {
    let path = std::env::args().nth(1).unwrap_or("levels/robots/12-hidden-homes.ron".into());
    let file = tabula_engine::level::load(std::path::Path::new(&path)).unwrap();
    let level = file.get::<Robots>().expect("a Robot board level").clone();
    if level.players() != 2 {
        eprintln!("{path}: {} players; this measures two-player levels", level.players());
        std::process::exit(2);
    }
    for (a, b) in [("sleuth", "scout"), ("casual", "beginner"), ("newcomer", "beginner")] {
        let agents = [AgentSpec::new(a, None), AgentSpec::new(b, None)];
        let (mut wins, mut games, mut plies) = (0, 0, 0);
        for seed in 0..20 {
            let dealt = deal_like(&level, seed).unwrap();
            let config = MatchConfig { games: 100, seed, jobs: 1, ..MatchConfig::default() };
            let summary = run_match::<Robots>(&dealt, &agents, &config, &mut |_| {}, &|_| {}).unwrap();
            wins += summary.wins[0];
            games += summary.games;
            plies += summary.plies;
        }
        println!(
            "{a} against {b}: {:.1}% of {games} games, {:.1} moves a game",
            100.0 * wins as f64 / games as f64,
            plies as f64 / games as f64
        );
    }
}
