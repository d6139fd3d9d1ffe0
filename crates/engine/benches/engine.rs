//! Speed goals (README, "Benchmarks"): run with
//! `cargo bench -p tabula-engine --bench engine`.

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use tabula_engine::core::perft::perft;
use tabula_engine::core::runner::{MatchConfig, run_match};
use tabula_engine::core::{AgentSpec, Game};
use tabula_engine::nim::{Ending, Nim, NimLevel, optimal_move};

fn mcmorran() -> NimLevel {
    NimLevel { name: String::new(), description: String::new(), piles: vec![5, 6, 7], ending: Ending::Misere }
}

fn nim_match(c: &mut Criterion) {
    const GAMES: u64 = 200_000;
    let agents: Vec<AgentSpec> = ["optimal", "random"].iter().map(|a| a.parse().unwrap()).collect();
    let mut group = c.benchmark_group("nim_match_mcmorran_optimal_vs_random");
    group.throughput(Throughput::Elements(GAMES));
    group.sample_size(10);
    for jobs in [1, 2] {
        let config = MatchConfig { games: GAMES, seed: 1, jobs, record_moves: false };
        group.bench_function(format!("jobs_{jobs}"), |b| {
            b.iter(|| run_match::<Nim>(&mcmorran(), &agents, &config, &mut |_| {}, &|_| {}).unwrap())
        });
    }
    group.finish();
}

fn nim_optimal(c: &mut Criterion) {
    // 64 piles of up to a million stones, the XOR not zero.
    let piles: Vec<u32> = (0..64).map(|i| 1_000_000 - i * 7919).collect();
    c.bench_function("nim_optimal_64_piles_1e6_stones", |b| {
        b.iter(|| optimal_move(black_box(&piles), black_box(Ending::Normal)))
    });
    let misere: Vec<u32> = (0..64).map(|i| if i == 40 { 999_999 } else { 1 }).collect();
    c.bench_function("nim_optimal_64_piles_misere_endgame", |b| {
        b.iter(|| optimal_move(black_box(&misere), black_box(Ending::Misere)))
    });
}

fn nim_perft(c: &mut Criterion) {
    let nim = Nim::new(&mcmorran(), 0).unwrap();
    let nodes = perft(&nim, 4);
    let mut group = c.benchmark_group("nim_perft_mcmorran");
    group.throughput(Throughput::Elements(nodes));
    group.bench_function("depth_4", |b| b.iter(|| perft(black_box(&nim), 4)));
    group.finish();
}

criterion_group!(benches, nim_match, nim_optimal, nim_perft);
criterion_main!(benches);
