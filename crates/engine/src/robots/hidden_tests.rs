//! Candidate homes and hidden homes (RULES.md, "Hidden homes"), and the
//! sleuth that reasons from hints.

use super::ai::Sleuth;
use super::exchange_tests::{parsed, shipped};
use super::rules::{augment, draw_candidate};
use super::*;
use crate::core::runner::{MatchConfig, run_match};
use crate::core::{Agent, AgentSpec, Game, Observation, Player, conformance, rng_from_seed};

/// A 7 x 3 board: A's home is one of three tiles, B's is fixed; a hint
/// tile in the middle.
const CANDIDATES: &str = r#"Robots(
    name: "candidates",
    board: [
        "a.....b",
        "...?...",
        "a.....a",
    ],
    robots: [
        (id: 'A', at: (3, 0), facing: South, rule: A, player: 1),
        (id: 'B', at: (3, 2), facing: North, rule: B, player: 2),
    ],
    homes: HOMES,
)"#;

/// A level as read, before the rules check it.
fn unchecked(text: &str) -> RobotsLevel {
    let text = text.strip_prefix("Robots").expect("a Robot board level");
    ron::from_str(text).unwrap_or_else(|e| panic!("{e}"))
}

fn candidates(homes: &str) -> RobotsLevel {
    parsed(&CANDIDATES.replace("HOMES", homes))
}

#[test]
fn each_game_draws_one_candidate_home_from_its_seed() {
    let level = candidates("Shown");
    let tiles = [(0, 0), (0, 2), (6, 2)];
    let mut drawn = std::collections::HashSet::new();
    for seed in 0..64 {
        let g = Robots::new(&level, seed).unwrap();
        let home = g.robot('A').unwrap().home.unwrap();
        assert_eq!(home, tiles[draw_candidate(seed, 0, 3)], "seed {seed}");
        assert_eq!(g.tile(home), Tile::Home(0));
        for other in tiles.iter().filter(|&&t| t != home) {
            assert_eq!(g.tile(*other), Tile::Normal, "seed {seed}: a candidate not drawn is a plain tile");
        }
        assert_eq!(Robots::new(&level, seed).unwrap(), g, "the same seed draws the same home");
        drawn.insert(home);
    }
    assert_eq!(drawn.len(), 3, "every candidate is drawn by some seed");
}

#[test]
fn every_candidate_home_must_pass_the_level_rules() {
    // Broken robots wall off the candidate at (6, 2).
    let e = Robots::new(
        &unchecked(
            &CANDIDATES
                .replace("HOMES", "Shown")
                .replace("\"a.....b\"", "\"a....#b\"")
                .replace("\"...?...\"", "\"...?.##\"")
                .replace("\"a.....a\"", "\"a....#a\""),
        ),
        0,
    )
    .unwrap_err();
    assert_eq!(e.rule, "unreachable-home");
    assert!(e.message.contains("robot A cannot reach its candidate home at G1 (6, 2)"), "{}", e.message);
    let e = Robots::new(
        &unchecked(&CANDIDATES.replace("HOMES", "Shown").replace("\"a.....b\"", "\"a..a..b\"")),
        0,
    )
    .unwrap_err();
    assert_eq!((e.rule, e.message.as_str()), ("homes", "robot A starts on a candidate home at D3 (3, 0)"));
    // No candidate under any robot at the start (here B, on one of A's).
    let e = Robots::new(
        &unchecked(&CANDIDATES.replace("HOMES", "Shown").replace("\"a.....a\"", "\"a..a..a\"")),
        0,
    )
    .unwrap_err();
    assert_eq!(
        (e.rule, e.message.as_str()),
        ("homes", "robot B starts on a candidate home of robot A at D1 (3, 2)")
    );
    // A single home under another robot is fine when shown, not when hidden.
    let under = CANDIDATES.replace("\"a.....b\"", "\"a..b...\"");
    assert!(Robots::new(&unchecked(&under.replace("HOMES", "Shown")), 0).is_ok());
    let e = Robots::new(&unchecked(&under.replace("HOMES", "Hidden")), 0).unwrap_err();
    assert_eq!((e.rule, e.message.as_str()), ("homes", "robot A starts on the home of robot B at D3 (3, 0)"));
    assert!(Robots::new(&candidates("Hidden"), 0).is_ok());
    let with_swaps = CANDIDATES.replace("HOMES", "Hidden").replace("    homes:", "    swaps: 1,\n    homes:");
    let e = Robots::new(&unchecked(&with_swaps), 0).unwrap_err();
    assert_eq!(e.rule, "hidden-homes");
}

#[test]
fn hidden_homes_are_in_no_observation() {
    let level = candidates("Hidden");
    let views: Vec<Robots> = (0..16)
        .map(|seed| {
            let g = Robots::new(&level, seed).unwrap();
            assert!(g.robots().iter().all(|r| r.home.is_some()), "the state knows every home");
            let seen = g.observe(Some(Player::ONE)).into_owned();
            for viewer in [None, Some(Player::TWO)] {
                assert_eq!(*g.observe(viewer), seen, "every seat and a spectator see the same");
            }
            assert!(seen.robots().iter().all(|r| r.home.is_none()));
            let text = ron::to_string(&seen).unwrap();
            assert!(!text.contains("Home"), "no home tile in {text}");
            seen
        })
        .collect();
    // Different draws look the same: the candidates are not shown either.
    assert!(views.windows(2).all(|w| w[0] == w[1]));
}

#[test]
fn sightings_record_tiles_stood_on_and_hints_with_where_and_how_the_robot_faced() {
    let mut g = Robots::new(&candidates("Hidden"), 0).unwrap();
    assert_eq!(
        g.sightings(),
        [Sighting::StoodOn { robot: 'A', at: (3, 0) }, Sighting::StoodOn { robot: 'B', at: (3, 2) }]
    );
    g.apply(Player::ONE, RobotMove::Step { robot: 'A', dir: Dir::South }).unwrap();
    let home = g.robot('A').unwrap().home.unwrap();
    let hint = Hint::toward(home.0 as i32 - 3, home.1 as i32 - 1, Dir::South);
    assert_eq!(
        g.sightings()[2..],
        [
            Sighting::StoodOn { robot: 'A', at: (3, 1) },
            Sighting::Hinted { robot: 'A', at: (3, 1), facing: Dir::South, hint }
        ]
    );
    // The observation keeps the same history, and from it the candidates:
    // the three tiles, less those the hint rules out.
    let seen = g.observe(Some(Player::TWO)).into_owned();
    assert_eq!(seen.sightings(), g.sightings());
    let left = seen.home_candidates(0);
    assert!(left.contains(&home), "the true home is always a candidate");
    for p in &left {
        assert_eq!(Hint::toward(p.0 as i32 - 3, p.1 as i32 - 1, Dir::South), hint);
    }
    assert!(!left.contains(&(3, 0)) && !left.contains(&(3, 1)), "tiles stood on are no home");
}

/// Over random games of the hidden-home levels: the true home is always
/// among the candidates; a sampled state puts every home on a candidate,
/// no two on one tile, and looks the same as the observation it came from.
#[test]
fn sampled_homes_agree_with_every_hint_and_sighting() {
    for name in ["12-hidden-homes.ron", "13-fog-and-belts.ron", "15-four-in-the-fog.ron"] {
        let level = shipped(name);
        for seed in 0..6 {
            let mut g = Robots::new(&level, seed).unwrap();
            let mut rng = rng_from_seed(seed);
            while g.outcome().is_none() {
                let seen = g.observe(Some(g.current_player())).into_owned();
                for r in 0..g.robots().len() {
                    let home = g.robots()[r].home.unwrap();
                    assert!(seen.home_candidates(r).contains(&home), "{name} seed {seed}: robot {r}");
                }
                let sample = Robots::sample_state(&seen, None, &mut rng);
                assert_eq!(*sample.observe(None), seen, "{name}: a sample looks like what it came from");
                let homes: Vec<Pos> = sample.robots().iter().map(|r| r.home.unwrap()).collect();
                for (r, home) in homes.iter().enumerate() {
                    assert!(seen.home_candidates(r).contains(home), "{name}: sampled home of robot {r}");
                    assert_eq!(homes.iter().filter(|h| *h == home).count(), 1, "{name}: homes apart");
                }
                let mv = Observation::random_move(&seen, g.current_player(), &mut rng).unwrap();
                g.apply(g.current_player(), mv).unwrap();
            }
        }
    }
}

#[test]
fn hidden_homes_pass_the_conformance_test() {
    for name in ["12-hidden-homes.ron", "14-scattered-hints.ron", "15-four-in-the-fog.ron"] {
        let mut level = shipped(name);
        level.move_cap = 80;
        conformance::check_random_games::<Robots>(&level, 6, 3);
    }
}

#[test]
fn the_sleuth_reads_the_strongest_hint_and_heads_home_once_one_tile_is_left() {
    // Nothing known: of the two hint tiles, the one in the middle splits
    // the candidates far better than the one in the corner, and is as near.
    let level = parsed(
        r#"Robots(
        name: "two hints",
        board: [
            "?......",
            ".......",
            "...?...",
            ".......",
            "......a",
        ],
        robots: [
            (id: 'A', at: (1, 1), facing: North, rule: A, player: 1),
            (id: 'B', at: (5, 0), facing: North, rule: B, player: 2),
        ],
        homes: Hidden,
    )"#
        .replace("        \"?......\"", "        \"?.....b\"")
        .as_str(),
    );
    let g = Robots::new(&level, 0).unwrap();
    let seen = g.observe(Some(Player::ONE)).into_owned();
    let mut sleuth = Sleuth::default();
    let mv = sleuth.choose(Player::ONE, &seen, &mut rng_from_seed(0)).unwrap();
    // (3, 2) is 3 steps away; (0, 0) 2: the middle is still better.
    assert!(
        matches!(mv, RobotMove::Step { robot: 'A', dir: Dir::East | Dir::South }),
        "toward the middle hint, not {mv}"
    );
    // With its home known (homes shown), it takes the shortest way.
    let mut shown = level.clone();
    shown.homes = Homes::Shown;
    let g = Robots::new(&shown, 0).unwrap();
    let mv = Sleuth::default().choose(Player::ONE, &g, &mut rng_from_seed(0)).unwrap();
    assert!(matches!(mv, RobotMove::Step { robot: 'A', dir: Dir::East | Dir::South }), "{mv}");
    assert!(sleuth.note().unwrap().contains("could be home"), "{:?}", sleuth.note());
}

/// The issue's bar: the sleuth beats `scout` in at least 80% of the games
/// on each two-player hidden-home level (seats rotated). 400 games each; the
/// 2,000-game figures are in docs/agents-and-arenas.md.
#[test]
fn the_sleuth_beats_the_scout_on_the_hidden_home_levels() {
    for name in ["12-hidden-homes.ron", "13-fog-and-belts.ron", "14-scattered-hints.ron"] {
        let level = shipped(name);
        let agents: Vec<AgentSpec> = ["sleuth", "scout"].iter().map(|a| a.parse().unwrap()).collect();
        let config = MatchConfig { games: 400, seed: 7, jobs: 2, record_moves: false, ..Default::default() };
        let summary = run_match::<Robots>(&level, &agents, &config, &mut |_| {}, &|_| {}).unwrap();
        let share = summary.wins[0] as f64 / summary.games as f64;
        assert!(share >= 0.8, "{name}: the sleuth won {:.1}%", 100.0 * share);
    }
}

/// The difficulties keep the lead they follow: a robot turns one way and
/// back by a slip and its putting right, never round in circles. Before,
/// Casual slipped again while putting a slip right and turned one robot up
/// to fourteen times in a row in 200 games (a stranger saw four wrong
/// turns in a row).
#[test]
fn no_difficulty_turns_a_robot_round_and_round() {
    let level = shipped("12-hidden-homes.ron");
    // The planner itself turns at most three times in a row (a turn round,
    // then a quarter); a slip and its putting right add one or two.
    for (agent, most) in [("best", 3), ("strong", 4), ("casual", 5)] {
        let agents: Vec<AgentSpec> = [agent, "newcomer"].iter().map(|a| a.parse().unwrap()).collect();
        let config = MatchConfig { games: 200, seed: 5, jobs: 2, record_moves: true, ..Default::default() };
        let mut longest = 0;
        let mut sink = |game: &crate::core::runner::GameRecord<RobotMove>| {
            let ours = |robot: char| {
                let seat = level.robots.iter().find(|r| r.id == robot).map_or(0, |r| r.player as usize - 1);
                game.seats[seat] == 0
            };
            // Turns of each robot since it last moved otherwise.
            let mut turns = std::collections::HashMap::new();
            for mv in &game.moves {
                match *mv {
                    RobotMove::Rotate { robot, .. } if ours(robot) => {
                        let run = turns.entry(robot).or_insert(0);
                        *run += 1;
                        longest = longest.max(*run);
                    }
                    RobotMove::Step { robot, .. } | RobotMove::Forward { robot, .. } => {
                        turns.insert(robot, 0);
                    }
                    _ => {}
                }
            }
        };
        run_match::<Robots>(&level, &agents, &config, &mut sink, &|_| {}).unwrap();
        assert!(longest <= most, "{agent} turned a robot {longest} times in a row");
    }
}

/// Two equal planners on the four-player race, with the scout and random:
/// seated by turning one order round the table, the planner moving right
/// after random won 78.5% and the other 20.5% of 200 games. Balanced over
/// every order of play, they win alike.
#[test]
fn equal_agents_win_alike_when_seats_are_balanced_over_orders_of_play() {
    let level = shipped("10-four-player-race.ron");
    let agents: Vec<AgentSpec> =
        ["planner", "scout", "planner", "random"].iter().map(|a| a.parse().unwrap()).collect();
    let config = MatchConfig { games: 96, seed: 3, jobs: 2, record_moves: false, ..Default::default() };
    let summary = run_match::<Robots>(&level, &agents, &config, &mut |_| {}, &|_| {}).unwrap();
    let (first, second) = (summary.wins[0] as i64, summary.wins[2] as i64);
    assert!(first + second > 60, "the planners win most games: {summary:?}");
    assert!((first - second).abs() * 4 <= first + second, "planners won {first} and {second} of 96 games");
}

#[test]
fn tiles_are_named_as_on_a_chess_board() {
    assert_eq!(tile_name((0, 7), 8), "A1");
    assert_eq!(tile_name((2, 4), 8), "C4");
    assert_eq!(tile_name((25, 0), 8), "Z8");
    assert_eq!(tile_name((26, 0), 128), "AA128");
    assert_eq!(tile_name((127, 127), 128), "DX1");
}

#[test]
fn sampling_matches_every_robot_to_a_home_of_its_own() {
    // Robot 1 may be on either tile, robot 0 only on the first: taking the
    // first for robot 1 (as a first come, first served draw would) leaves
    // robot 0 none; the augmenting path moves robot 1 to the second.
    let (p, q) = ((0, 0), (1, 0));
    let mut options = vec![vec![p], vec![p, q]];
    let mut owner = std::collections::HashMap::new();
    assert!(augment(1, &mut options, &mut owner, &mut Vec::new()));
    assert_eq!(owner[&p], 1);
    assert!(augment(0, &mut options, &mut owner, &mut Vec::new()));
    assert_eq!((owner[&p], owner[&q]), (0, 1));
    // A robot with no candidate left at all gets none, and nothing moves.
    let mut options = vec![vec![p], vec![p]];
    let mut owner = std::collections::HashMap::new();
    assert!(augment(0, &mut options, &mut owner, &mut Vec::new()));
    assert!(!augment(1, &mut options, &mut owner, &mut Vec::new()));
    assert_eq!(owner.len(), 1);
}
