//! Speed goals (docs/benchmarks.md, "The engine"): run with
//! `cargo bench -p tabula-engine --bench engine`.

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use tabula_engine::core::perft::perft;
use tabula_engine::core::runner::{MatchConfig, run_match};
use tabula_engine::core::{AgentSpec, Game};
use tabula_engine::nim::{Ending, Nim, NimLevel, optimal_move};

/// The package's folder, as cargo tells the running test: a test binary
/// built by another checkout sharing the target folder still reads this
/// checkout's files (a path built in at compile time would be the other's).
fn manifest_dir() -> std::path::PathBuf {
    std::env::var_os("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR for tests").into()
}

fn mcmorran() -> NimLevel {
    NimLevel {
        name: String::new(),
        description: String::new(),
        group: Default::default(),
        piles: vec![5, 6, 7],
        ending: Ending::Misere,
    }
}

fn nim_match(c: &mut Criterion) {
    const GAMES: u64 = 200_000;
    let agents: Vec<AgentSpec> = ["optimal", "random"].iter().map(|a| a.parse().unwrap()).collect();
    let mut group = c.benchmark_group("nim_match_mcmorran_optimal_vs_random");
    group.throughput(Throughput::Elements(GAMES));
    group.sample_size(10);
    for jobs in [1, 2] {
        let config = MatchConfig { games: GAMES, seed: 1, jobs, record_moves: false, ..Default::default() };
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

mod mancala_benches {
    use super::*;
    use tabula_engine::core::rng_from_seed;
    use tabula_engine::mancala::ai::DEFAULT_DEPTH;
    use tabula_engine::mancala::{Capture, Mancala, MancalaLevel};

    pub fn kalah(stones: u16) -> MancalaLevel {
        MancalaLevel {
            name: String::new(),
            description: String::new(),
            group: Default::default(),
            pits: 6,
            stones,
            capture: Capture::Standard,
            sweep: true,
            move_cap: 2000,
        }
    }

    pub fn perft_kalah(c: &mut Criterion) {
        let board = Mancala::new(&kalah(4), 0).unwrap();
        let mut group = c.benchmark_group("mancala_perft_kalah_6_4");
        group.throughput(Throughput::Elements(perft(&board, 8)));
        group.sample_size(10);
        group.bench_function("depth_8", |b| b.iter(|| perft(black_box(&board), 8)));
        group.finish();
    }

    pub fn playouts(c: &mut Criterion) {
        let start = Mancala::new(&kalah(4), 0).unwrap();
        // Plies in the measured batch, counted once outside the timing.
        let batch = |seed: u64| {
            let mut rng = rng_from_seed(seed);
            let mut plies = 0u64;
            for _ in 0..1000 {
                let mut board = start;
                plies += board.play_out(&mut rng).unwrap();
            }
            plies
        };
        let mut group = c.benchmark_group("mancala_random_playouts_kalah_6_4");
        group.throughput(Throughput::Elements(batch(7)));
        group.bench_function("1000_games", |b| b.iter(|| batch(black_box(7))));
        group.finish();
    }

    pub fn random_match(c: &mut Criterion) {
        const GAMES: u64 = 200_000;
        let agents: Vec<AgentSpec> = ["random", "random"].iter().map(|a| a.parse().unwrap()).collect();
        let mut group = c.benchmark_group("mancala_match_kalah_6_4_random_vs_random");
        group.throughput(Throughput::Elements(GAMES));
        group.sample_size(10);
        for jobs in [1, 2] {
            let config =
                MatchConfig { games: GAMES, seed: 1, jobs, record_moves: false, ..Default::default() };
            group.bench_function(format!("jobs_{jobs}"), |b| {
                b.iter(|| run_match::<Mancala>(&kalah(4), &agents, &config, &mut |_| {}, &|_| {}).unwrap())
            });
        }
        group.finish();
    }

    pub fn minimax_move(c: &mut Criterion) {
        use tabula_engine::core::AgentRegistry;
        let board = Mancala::new(&kalah(6), 0).unwrap();
        let mut group = c.benchmark_group("mancala_minimax_default_kalah_6_6");
        group.sample_size(10);
        group.bench_function(format!("depth_{DEFAULT_DEPTH}_first_move"), |b| {
            b.iter(|| {
                // A fresh agent each time: no table carried over.
                let mut agent = Mancala::agent_from_str("minimax").unwrap();
                agent.choose(board.current_player(), &board, &mut rng_from_seed(0))
            })
        });
        group.finish();
    }
}

criterion_group!(
    mancala,
    mancala_benches::perft_kalah,
    mancala_benches::playouts,
    mancala_benches::random_match,
    mancala_benches::minimax_move
);
mod robot_benches {
    use super::*;
    use tabula_engine::core::{AgentRegistry, rng_from_seed};
    use tabula_engine::robots::generate::{Plan, generate};
    use tabula_engine::robots::{Robots, RobotsLevel};

    /// Validating a level: the board read, homes, belts checked for loops,
    /// every robot's way home found.
    pub fn validate(c: &mut Criterion) {
        for robots in [25, 64] {
            let level = generate(Plan::new(512, 512, robots, 8, 1)).unwrap();
            c.bench_function(&format!("robots_validate_512x512_{robots}_robots"), |b| {
                b.iter(|| Robots::new(black_box(&level), 0).unwrap())
            });
        }
    }

    /// 250 belt lanes across a 512 x 512 board, each running east into a
    /// broken robot; four robots beside each lane, their homes at the end
    /// of their row. Robot 0 follows rule B (facing north), the rest rule A.
    fn lanes() -> RobotsLevel {
        use tabula_engine::robots::level::{home_char, robot_ids};
        use tabula_engine::robots::{Dir, RobotSpec, RuleSet};
        const SIDE: usize = 512;
        let ids: Vec<char> = robot_ids().take(1000).collect();
        let mut board = vec![vec!['.'; SIDE]; SIDE];
        let mut robots = Vec::new();
        for lane in 0..250 {
            let (belt_y, walk_y) = (2 * lane, 2 * lane + 1);
            board[belt_y][1..=500].fill('>');
            board[belt_y][501] = '#';
            for j in 0..4 {
                let i = lane * 4 + j;
                board[walk_y][505 + j] = home_char(ids[i]);
                robots.push(RobotSpec {
                    id: ids[i],
                    at: ((1 + j) as u16, walk_y as u16),
                    facing: Dir::North,
                    rule: if i == 0 { RuleSet::B } else { RuleSet::A },
                    // The robots step on from the far end of their lane
                    // (j = 3 first), players taking turns.
                    player: if (3 - j) % 2 == 0 { 1 } else { 2 },
                });
            }
        }
        RobotsLevel {
            name: "lanes".into(),
            description: String::new(),
            group: Default::default(),
            board: board.into_iter().map(|row| row.into_iter().collect()).collect(),
            robots,
            swaps: 0,
            move_cap: 5000,
            homes: Default::default(),
        }
    }

    /// Robot `i` of the lanes level steps onto its belt.
    fn onto_belt(board: &Robots, i: usize) -> tabula_engine::robots::RobotMove {
        use tabula_engine::robots::{Dir, RobotMove};
        let robot = board.robots()[i].id;
        if i == 0 {
            RobotMove::Forward { robot, steps: 1 }
        } else {
            RobotMove::Step { robot, dir: Dir::North }
        }
    }

    /// Settling after a move with 1,000 robots, 999 of them queued on belts:
    /// the last robot steps onto its lane and rides to the back of its queue,
    /// round after round.
    pub fn settle_1000(c: &mut Criterion) {
        let mut board = Robots::new(&lanes(), 0).unwrap();
        // The robots step on lane by lane, the last robot of each lane
        // first, so the queues fill from the far end.
        let order: Vec<usize> = (0..250).flat_map(|lane| (0..4).rev().map(move |j| lane * 4 + j)).collect();
        let (last, before) = order.split_last().unwrap();
        for &i in before {
            board.apply(board.current_player(), onto_belt(&board, i)).unwrap();
        }
        let on_belts = board.robots().iter().filter(|r| r.at.1 % 2 == 0).count();
        assert_eq!(on_belts, 999, "every robot but the last waits on a belt");
        // The last robot rides its lane to the back of the queue: 496 tiles.
        let mut check = board.clone();
        check.apply(check.current_player(), onto_belt(&check, *last)).unwrap();
        assert_eq!(check.robots()[*last].at, (497, 498));
        let mut group = c.benchmark_group("robots_settle_512x512");
        group.sample_size(20);
        group.bench_function("1000_robots_999_on_belts", |b| {
            b.iter(|| {
                let mut next = board.clone();
                next.apply(next.current_player(), onto_belt(&next, *last)).unwrap()
            })
        });
        group.finish();
    }

    /// A fresh planner's first move on `board`, threat checks on.
    fn planner_first_move(c: &mut Criterion, group: &str, board: &Robots) {
        let mut group = c.benchmark_group(group);
        group.sample_size(10);
        group.bench_function("first_move", |b| {
            b.iter(|| {
                let mut agent = Robots::agent_from_str("planner").unwrap();
                agent.choose(board.current_player(), board, &mut rng_from_seed(0))
            })
        });
        group.finish();
    }

    pub fn planner(c: &mut Criterion) {
        let level = generate(Plan::new(256, 256, 4, 2, 3)).unwrap();
        planner_first_move(c, "robots_planner_256x256", &Robots::new(&level, 0).unwrap());
    }

    fn shipped(name: &str) -> RobotsLevel {
        let path = crate::manifest_dir().join("../../levels/robots").join(name);
        tabula_engine::level::load(&path).unwrap().get::<Robots>().unwrap().clone()
    }

    /// Four planners on the four-player race, as `tabula match` plays them
    /// (threat checks and exchanges weighed on every move).
    pub fn four_planners(c: &mut Criterion) {
        const GAMES: u64 = 40;
        let race = shipped("10-four-player-race.ron");
        let agents: Vec<AgentSpec> = ["planner"; 4].iter().map(|a| a.parse().unwrap()).collect();
        let mut group = c.benchmark_group("robots_match_four_player_race_4_planners");
        group.throughput(Throughput::Elements(GAMES));
        group.sample_size(10);
        for jobs in [1, 2] {
            let config =
                MatchConfig { games: GAMES, seed: 1, jobs, record_moves: false, ..Default::default() };
            group.bench_function(format!("jobs_{jobs}"), |b| {
                b.iter(|| run_match::<Robots>(&race, &agents, &config, &mut |_| {}, &|_| {}).unwrap())
            });
        }
        group.finish();
    }

    /// A planner's move on the shipped 128 x 128 board, threat checks on.
    pub fn planner_128(c: &mut Criterion) {
        let board = Robots::new(&shipped("large-128x128-four-robots.ron"), 0).unwrap();
        planner_first_move(c, "robots_planner_128x128", &board);
    }

    /// The level editor's work for one painted tile on a 256 x 256 board:
    /// the edit, and the engine's checks of the whole level after it.
    pub fn paint_and_check_256(c: &mut Criterion) {
        use tabula_engine::core::history::History;
        use tabula_engine::robots::diagnose::diagnose;
        use tabula_engine::robots::edit::RobotEdit;
        let level = generate(Plan::new(256, 256, 8, 2, 5)).unwrap();
        let mut history = History::new(level);
        let mut group = c.benchmark_group("robots_editor_256x256");
        group.sample_size(20);
        let mut x = 0u16;
        group.bench_function("paint_one_tile_and_check", |b| {
            b.iter(|| {
                x = (x + 1) % 256;
                let c = if history.level().board[128].as_bytes()[x as usize] == b'?' { '.' } else { '?' };
                history.edit(RobotEdit::Tiles(vec![((x, 128), c)]));
                black_box(diagnose(history.level()))
            })
        });
        // The same with every robot walled in by broken robots: the check
        // then finds each stranded robot and the tiles it can reach.
        let mut walls = Vec::new();
        for robot in &history.level().robots.clone() {
            let (x, y) = (robot.at.0 as i32, robot.at.1 as i32);
            for (dx, dy) in [(0, -1), (1, 0), (0, 1), (-1, 0)] {
                let (wx, wy) = (x + dx, y + dy);
                if (0..256).contains(&wx) && (0..256).contains(&wy) {
                    walls.push(((wx as u16, wy as u16), '#'));
                }
            }
        }
        history.edit(RobotEdit::Tiles(walls));
        assert_eq!(diagnose(history.level()).map(|f| f.rule), Some("unreachable-home"));
        group.bench_function("paint_one_tile_and_check_eight_robots_stranded", |b| {
            b.iter(|| {
                // Past the walls: painting one away would free its robot.
                x = (x + 1) % 256;
                while history.level().board[128].as_bytes()[x as usize] == b'#' {
                    x = (x + 1) % 256;
                }
                let c = if history.level().board[128].as_bytes()[x as usize] == b'?' { '.' } else { '?' };
                history.edit(RobotEdit::Tiles(vec![((x, 128), c)]));
                black_box(diagnose(history.level()))
            })
        });
        group.finish();
    }

    /// Undo and redo of 10,000 painted tiles, and the history's memory.
    pub fn undo_redo_10000(c: &mut Criterion) {
        use tabula_engine::core::history::History;
        use tabula_engine::robots::edit::RobotEdit;
        const EDITS: u16 = 10_000;
        let level = generate(Plan::new(128, 128, 4, 2, 1)).unwrap();
        // Memory: `cargo run --release -p tabula-engine --example history_memory`.
        let mut history = History::new(level);
        for i in 0..EDITS {
            history.edit(RobotEdit::Tiles(vec![((i % 128, i / 128), '#')]));
        }
        let mut group = c.benchmark_group("robots_editor_history");
        group.sample_size(10);
        group.bench_function("undo_then_redo_10000_edits", |b| {
            b.iter(|| {
                while history.undo() {}
                while history.redo() {}
            })
        });
        group.finish();
    }

    pub fn perft_swaps(c: &mut Criterion) {
        let path = crate::manifest_dir().join("../../levels/robots/09-swap-puzzle.ron");
        let file = tabula_engine::level::load(&path).unwrap();
        let board = Robots::new(file.get::<Robots>().unwrap(), 0).unwrap();
        let mut group = c.benchmark_group("robots_perft_swap_puzzle");
        group.throughput(Throughput::Elements(perft(&board, 2)));
        group.sample_size(10);
        group.bench_function("depth_2", |b| b.iter(|| perft(black_box(&board), 2)));
        group.finish();
    }
}

criterion_group!(
    robots,
    robot_benches::validate,
    robot_benches::settle_1000,
    robot_benches::planner,
    robot_benches::planner_128,
    robot_benches::four_planners,
    robot_benches::paint_and_check_256,
    robot_benches::undo_redo_10000,
    robot_benches::perft_swaps
);

mod bank_benches {
    use super::*;
    use tabula_engine::core::{AgentRegistry, rng_from_seed};
    use tabula_engine::russian_bank::{BankMove, RussianBank, RussianBankLevel, Target};

    fn level(name: &str) -> RussianBankLevel {
        let path = crate::manifest_dir().join("../../levels/russian_bank").join(name);
        let file = tabula_engine::level::load(&path).unwrap();
        file.get::<RussianBank>().unwrap().clone()
    }

    /// Greedy against greedy on shuffled deals, as `tabula match` plays them.
    pub fn greedy_match(c: &mut Criterion) {
        const GAMES: u64 = 2000;
        let shuffled = level("01-shuffled-deal.ron");
        let agents: Vec<AgentSpec> = ["greedy", "greedy"].iter().map(|a| a.parse().unwrap()).collect();
        let mut group = c.benchmark_group("russian_bank_match_greedy_vs_greedy");
        group.throughput(Throughput::Elements(GAMES));
        group.sample_size(10);
        for jobs in [1, 2] {
            let config =
                MatchConfig { games: GAMES, seed: 1, jobs, record_moves: false, ..Default::default() };
            group.bench_function(format!("jobs_{jobs}"), |b| {
                b.iter(|| {
                    run_match::<RussianBank>(&shuffled, &agents, &config, &mut |_| {}, &|_| {}).unwrap()
                })
            });
        }
        group.finish();
    }

    /// Random play-outs of whole games, counted in moves.
    pub fn playouts(c: &mut Criterion) {
        let shuffled = level("01-shuffled-deal.ron");
        let games: Vec<RussianBank> =
            (0..20).map(|seed| RussianBank::new(&shuffled, seed).unwrap()).collect();
        let moves: u64 = games.iter().map(|g| g.clone().play_out(&mut rng_from_seed(7)).unwrap()).sum();
        let mut group = c.benchmark_group("russian_bank_random_playouts");
        group.throughput(Throughput::Elements(moves));
        group.sample_size(10);
        group.bench_function("20_games", |b| {
            b.iter(|| {
                for game in &games {
                    black_box(game.clone().play_out(&mut rng_from_seed(7)).unwrap());
                }
            })
        });
        group.finish();
    }

    /// `lookahead` at its default strength choosing a move with choices to
    /// weigh, a few turns into a shuffled deal.
    pub fn lookahead_move(c: &mut Criterion) {
        let shuffled = level("01-shuffled-deal.ron");
        let mut game = RussianBank::new(&shuffled, 3).unwrap();
        let mut greedy = RussianBank::agent_from_str("greedy").unwrap();
        let mut rng = rng_from_seed(1);
        // The first position after 40 moves with at least five different
        // moves that break no priority, so there is something to weigh.
        let choices = |game: &RussianBank| {
            let mut moves = Vec::new();
            game.legal_moves(game.current_player(), &mut moves);
            // Empty piles are alike: one choice however many there are.
            let mut kinds: Vec<String> = moves
                .iter()
                .filter(|&&mv| game.breaks_priority(game.current_player(), mv).is_none())
                .map(|&mv| match mv {
                    BankMove::Play { from, to: Target::Foundation(n) }
                        if game.foundation(n as usize - 1).is_none() =>
                    {
                        format!("{from:?} to an empty foundation")
                    }
                    BankMove::Play { from, to: Target::Tableau(n) }
                        if game.tableau(n as usize - 1).is_empty() =>
                    {
                        format!("{from:?} to a space")
                    }
                    mv => format!("{mv:?}"),
                })
                .collect();
            kinds.sort();
            kinds.dedup();
            kinds.len()
        };
        let mut plies = 0;
        while plies < 40 || choices(&game) < 5 {
            let seat = game.current_player();
            let mv = greedy.choose(seat, &game.observe(Some(seat)), &mut rng).unwrap();
            game.apply(seat, mv).unwrap();
            plies += 1;
        }
        let seat = game.current_player();
        let seen = game.observe(Some(seat)).into_owned();
        let mut group = c.benchmark_group("russian_bank_lookahead");
        group.sample_size(20);
        group.bench_function(format!("default_move_{}_choices", choices(&game)), |b| {
            b.iter(|| {
                let mut agent = RussianBank::agent_from_str("lookahead").unwrap();
                agent.choose(seat, &seen, &mut rng_from_seed(0))
            })
        });
        group.finish();
    }

    /// Perft on the full fixed deal with the Stop rule off.
    pub fn perft_full_deal(c: &mut Criterion) {
        let board = RussianBank::new(&level("07-full-deal-no-stop.ron"), 0).unwrap();
        let mut group = c.benchmark_group("russian_bank_perft_full_deal");
        group.throughput(Throughput::Elements(perft(&board, 7)));
        group.sample_size(10);
        group.bench_function("depth_7", |b| b.iter(|| perft(black_box(&board), 7)));
        group.finish();
    }
}

criterion_group!(
    russian_bank,
    bank_benches::greedy_match,
    bank_benches::playouts,
    bank_benches::lookahead_move,
    bank_benches::perft_full_deal
);
criterion_main!(benches, mancala, robots, russian_bank);
