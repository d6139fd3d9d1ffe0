//! Every game offers the four difficulties and the newcomer, and on one of
//! its Games levels each difficulty beats the one below it and Beginner
//! loses to the newcomer (the full measure is `arenas/difficulty.ron`,
//! docs/agents-and-arenas.md).

use std::path::PathBuf;

use tabula_engine::core::runner::{MatchConfig, run_match};
use tabula_engine::core::{AgentRegistry, AgentSpec, DEFAULT_DIFFICULTY, DIFFICULTIES, NEWCOMER};
use tabula_engine::mancala::Mancala;
use tabula_engine::nim::Nim;
use tabula_engine::robots::Robots;
use tabula_engine::russian_bank::RussianBank;

fn level<G: AgentRegistry>(file: &str) -> G::Level {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../levels").join(file);
    let loaded = tabula_engine::level::load(&path).unwrap_or_else(|e| panic!("{e}"));
    loaded.get::<G>().expect("a level of the game").clone()
}

/// The share of `games` games (sides swapped) that `a` wins against `b`.
fn share<G: AgentRegistry>(level: &G::Level, a: &str, b: &str, games: u64) -> f64 {
    let specs: Vec<AgentSpec> = [a, b].iter().map(|s| s.parse().unwrap()).collect();
    let config = MatchConfig { games, seed: 39, jobs: 2, ..Default::default() };
    let summary = run_match::<G>(level, &specs, &config, &mut |_| {}, &|_| {}).unwrap();
    summary.wins[0] as f64 / summary.games as f64
}

/// Newcomer over Beginner, then each difficulty over the one below, each
/// by a clear share (more than `margin`).
fn ladder<G: AgentRegistry>(file: &str, games: u64, margin: f64) {
    let names: Vec<&str> = G::agents().iter().map(|a| a.name).collect();
    for name in DIFFICULTIES.iter().chain([&NEWCOMER]) {
        assert!(names.contains(name), "{} offers {name}: {names:?}", G::NAME);
    }
    assert_eq!(G::default_opponent(), DEFAULT_DIFFICULTY);
    let level = level::<G>(file);
    let mut pairs = vec![(NEWCOMER, DIFFICULTIES[0])];
    pairs.extend(DIFFICULTIES.windows(2).map(|w| (w[1], w[0])));
    for (a, b) in pairs {
        let won = share::<G>(&level, a, b, games);
        assert!(won > margin, "{}, {file}: {a} won {:.0}% against {b}", G::NAME, 100.0 * won);
    }
}

#[test]
fn nim_difficulties_climb() {
    ladder::<Nim>("nim/traditional-3-4-5.ron", 400, 0.6);
}

#[test]
fn mancala_difficulties_climb() {
    ladder::<Mancala>("mancala/kalah-6-4.ron", 100, 0.6);
}

#[test]
fn robot_board_difficulties_climb() {
    ladder::<Robots>("robots/12-hidden-homes.ron", 200, 0.55);
}

#[test]
fn russian_bank_difficulties_climb() {
    ladder::<RussianBank>("russian_bank/01-shuffled-deal.ron", 100, 0.6);
}
