//! Exchanges checked against a plain search: the board after an exchange is
//! built from scratch and every robot is searched for again, with none of
//! the engine's shortcuts (its way-home cache, its `Layout`). Every
//! exchange the engine accepts or refuses in random games must get the same
//! verdict here.

use super::generate::{Plan, generate};
use super::*;
use crate::core::{Game, GameRng, Player, rng_from_seed};
use crate::level::LevelFile;

/// The issue's four-player board: a belt stopped by a broken robot and one
/// by the board's edge.
const FOUR_PLAYERS: &str = r##"Robots(
    name: "Four players with exchanges",
    board: [
        "a.>v.b",
        "#..v?.",
        "c.<<.d",
        "...?.#",
    ],
    robots: [
        (id: 'A', at: (4, 3), facing: West, rule: A, player: 1),
        (id: 'B', at: (0, 3), facing: East, rule: B, player: 2),
        (id: 'C', at: (5, 1), facing: North, rule: B, player: 3),
        (id: 'D', at: (1, 0), facing: South, rule: A, player: 4),
    ],
    swaps: 1,
    move_cap: 500,
)"##;

pub(super) fn parsed(text: &str) -> RobotsLevel {
    let file = crate::level::parse(text, "test.ron").unwrap_or_else(|e| panic!("{e}"));
    file.get::<Robots>().unwrap().clone()
}

pub(super) fn shipped(name: &str) -> RobotsLevel {
    let path = crate::manifest_dir().join("../../levels/robots").join(name);
    let file: LevelFile = crate::level::load(&path).unwrap_or_else(|e| panic!("{e}"));
    file.get::<Robots>().unwrap().clone()
}

fn exchange(a: Pos, b: Pos) -> RobotMove {
    RobotMove::Exchange { a, b }
}

/// The board as a plain grid of tiles, row by row.
#[derive(Clone)]
struct Grid {
    width: i32,
    height: i32,
    tiles: Vec<Tile>,
}

impl Grid {
    fn of(g: &Robots) -> Grid {
        let (width, height) = (g.width() as i32, g.height() as i32);
        let tiles = (0..height)
            .flat_map(|y| (0..width).map(move |x| (x as u16, y as u16)))
            .map(|p| g.tile(p))
            .collect();
        Grid { width, height, tiles }
    }

    fn get(&self, x: i32, y: i32) -> Option<Tile> {
        (x >= 0 && y >= 0 && x < self.width && y < self.height)
            .then(|| self.tiles[(y * self.width + x) as usize])
    }

    /// Where a robot put on (x, y) stands once belts have carried it, other
    /// robots ignored: along the conveyors while the next tile is on the
    /// board and not broken, stopping on the first tile that is no conveyor.
    fn settled(&self, (mut x, mut y): (i32, i32)) -> (i32, i32) {
        // Belts cannot loop on a valid board; the bound only guards the test.
        for _ in 0..self.tiles.len() {
            let Some(Tile::Conveyor(d)) = self.get(x, y) else { break };
            let (dx, dy) = d.delta();
            match self.get(x + dx, y + dy) {
                None | Some(Tile::Broken) => break,
                Some(_) => (x, y) = (x + dx, y + dy),
            }
        }
        (x, y)
    }

    /// Reachability as the rules state it, breadth first over every tile.
    fn reaches(&self, from: Pos, home: Pos) -> bool {
        let home = (home.0 as i32, home.1 as i32);
        let start = self.settled((from.0 as i32, from.1 as i32));
        let mut seen = vec![false; self.tiles.len()];
        let mut queue = std::collections::VecDeque::from([start]);
        seen[(start.1 * self.width + start.0) as usize] = true;
        while let Some((x, y)) = queue.pop_front() {
            if (x, y) == home {
                return true;
            }
            for d in Dir::ALL {
                let (dx, dy) = d.delta();
                let (nx, ny) = (x + dx, y + dy);
                match self.get(nx, ny) {
                    None | Some(Tile::Broken) => continue,
                    Some(_) => {}
                }
                let land = self.settled((nx, ny));
                let i = (land.1 * self.width + land.0) as usize;
                if !seen[i] {
                    seen[i] = true;
                    queue.push_back(land);
                }
            }
        }
        false
    }

    /// Some conveyor whose belt comes back to itself.
    fn has_loop(&self) -> bool {
        (0..self.height).flat_map(|y| (0..self.width).map(move |x| (x, y))).any(|(sx, sy)| {
            let (mut x, mut y) = (sx, sy);
            for _ in 0..self.tiles.len() {
                let Some(Tile::Conveyor(d)) = self.get(x, y) else { return false };
                let (dx, dy) = d.delta();
                (x, y) = (x + dx, y + dy);
                if (x, y) == (sx, sy) {
                    return true;
                }
            }
            false
        })
    }
}

/// What the rules say of exchanging `a` and `b` for the player to move,
/// when both tiles may be exchanged and the exchange changes something:
/// `BeltLoop` (tile not compared), `WouldStrand` naming the first robot in
/// the level's order that could reach its home and no longer can, or fine.
fn plain_verdict(g: &Robots, before: &Grid, could: &[bool], a: Pos, b: Pos) -> Result<(), RobotsError> {
    let mut after = before.clone();
    let (ia, ib) =
        (a.1 as usize * g.width() as usize + a.0 as usize, b.1 as usize * g.width() as usize + b.0 as usize);
    after.tiles.swap(ia, ib);
    for i in [ia, ib] {
        if let Tile::Conveyor(d) = after.tiles[i] {
            after.tiles[i] = Tile::Conveyor(d.turned_left(1));
        }
    }
    if after.has_loop() {
        return Err(RobotsError::BeltLoop { at: (0, 0) });
    }
    for (robot, &could) in g.robots().iter().zip(could) {
        let at = match robot.at {
            p if p == a => b,
            p if p == b => a,
            p => p,
        };
        if could && !after.reaches(at, robot.home.expect("a state knows its homes")) {
            return Err(RobotsError::WouldStrand { robot: robot.id });
        }
    }
    Ok(())
}

/// Asks the engine about every exchange of the player to move and compares
/// its answer with the plain search; returns how many it accepted and how
/// many it refused with `WouldStrand`. Accepted exchanges are applied, and
/// every robot that could reach its home before must still reach it on the
/// settled board.
fn compare_every_exchange(g: &Robots, tag: &str) -> (usize, usize) {
    let player = g.current_player();
    if g.swaps_left(player) == 0 || g.outcome().is_some() {
        return (0, 0);
    }
    let before = Grid::of(g);
    let could: Vec<bool> =
        g.robots().iter().map(|r| before.reaches(r.at, r.home.expect("a state knows its homes"))).collect();
    let mut legal = Vec::new();
    g.moves(&mut legal);
    let tiles: Vec<Pos> = (0..g.height()).flat_map(|y| (0..g.width()).map(move |x| (x, y))).collect();
    let (mut accepted, mut stranding) = (0, 0);
    for (i, &a) in tiles.iter().enumerate() {
        for &b in &tiles[i + 1..] {
            let mv = exchange(a, b);
            let mut after = g.clone();
            let engine = after.apply(player, mv).map(|_| ());
            let listed = legal.contains(&mv);
            assert_eq!(listed, engine.is_ok(), "{tag}: {mv} listed {listed} but apply says {engine:?}");
            match engine {
                Err(
                    RobotsError::SameTile | RobotsError::HomeOrHintTile { .. } | RobotsError::NothingChanges,
                ) => {
                    assert_eq!(after, *g, "{tag}: {mv} refused but changed the state");
                    continue;
                }
                Err(e) => assert_eq!(after, *g, "{tag}: {mv} refused ({e}) but changed the state"),
                Ok(()) => {}
            }
            let plain = plain_verdict(g, &before, &could, a, b);
            match (engine, plain) {
                (Ok(()), Ok(())) => {
                    accepted += 1;
                    let settled = Grid::of(&after);
                    for (r, (old, new)) in g.robots().iter().zip(after.robots()).enumerate() {
                        assert!(
                            !could[r] || settled.reaches(new.at, new.home.expect("a state knows its homes")),
                            "{tag}: {mv} accepted, and robot {} at {:?} no longer reaches its home",
                            old.id,
                            new.at
                        );
                    }
                }
                (Err(RobotsError::BeltLoop { .. }), Err(RobotsError::BeltLoop { .. })) => {}
                (Err(e @ RobotsError::WouldStrand { .. }), Err(p @ RobotsError::WouldStrand { .. })) => {
                    assert_eq!(e, p, "{tag}: {mv} strands another robot first");
                    stranding += 1;
                }
                (engine, plain) => {
                    panic!(
                        "{tag}: {mv}: the engine says {engine:?}, the plain search {plain:?}\n{:#?}",
                        g.rows()
                    )
                }
            }
        }
    }
    (accepted, stranding)
}

/// Plays random games, exchanges drawn as often as walks, comparing every
/// possible exchange at every turn of a player with swaps left.
fn random_games(level: &RobotsLevel, games: u64, plies: u32, seed: u64, tag: &str) -> (usize, usize) {
    let (mut accepted, mut stranding) = (0, 0);
    for game in 0..games {
        let mut g = Robots::new(level, game).unwrap_or_else(|e| panic!("{tag}: {e}"));
        let mut rng: GameRng = rng_from_seed(seed ^ (game << 8));
        for ply in 0..plies {
            if g.outcome().is_some() {
                break;
            }
            let (a, s) = compare_every_exchange(&g, &format!("{tag} game {game} ply {ply}"));
            accepted += a;
            stranding += s;
            let mut moves = Vec::new();
            g.moves(&mut moves);
            let (exchanges, others): (Vec<RobotMove>, Vec<RobotMove>) =
                moves.into_iter().partition(|m| matches!(m, RobotMove::Exchange { .. }));
            use rand::Rng;
            let pool = if !exchanges.is_empty() && (others.is_empty() || rng.random_bool(0.5)) {
                &exchanges
            } else {
                &others
            };
            let mv = pool[rng.random_range(0..pool.len())];
            g.apply(g.current_player(), mv).unwrap_or_else(|e| panic!("{tag}: {mv}: {e}"));
        }
    }
    (accepted, stranding)
}

#[test]
fn an_exchange_that_swaps_away_the_broken_robot_ending_a_belt_is_refused() {
    let mut g = Robots::new(&parsed(FOUR_PLAYERS), 0).unwrap();
    g.apply(Player(0), exchange((0, 1), (2, 2))).unwrap();
    let before = g.clone();
    // The broken robot now at (2, 2) stops B's way along the bottom belt;
    // swapped with A's tile it lets the belt run on to the west edge.
    assert_eq!(g.apply(Player(1), exchange((2, 2), (4, 3))), Err(RobotsError::WouldStrand { robot: 'B' }));
    assert_eq!(g, before, "a refused exchange changes nothing");
    let grid = Grid::of(&g);
    assert!(
        g.robots().iter().all(|r| grid.reaches(r.at, r.home.expect("a state knows its homes"))),
        "every robot still reaches its home"
    );
}

#[test]
fn the_swap_puzzle_refuses_the_exchange_that_strands_a() {
    let mut g = Robots::new(&shipped("09-swap-puzzle.ron"), 0).unwrap();
    for (a, b) in [((5, 0), (4, 2)), ((5, 2), (0, 8)), ((7, 4), (1, 6))] {
        g.apply(g.current_player(), exchange(a, b)).unwrap_or_else(|e| panic!("{a:?} {b:?}: {e}"));
    }
    let before = g.clone();
    assert_eq!(
        g.apply(g.current_player(), exchange((4, 2), (8, 3))),
        Err(RobotsError::WouldStrand { robot: 'A' })
    );
    assert_eq!(g, before);
}

#[test]
fn every_exchange_in_random_games_on_shipped_levels_agrees_with_a_plain_search() {
    let mut totals = (0, 0);
    for (name, games) in [("09-swap-puzzle.ron", 6), ("10-four-player-race.ron", 4)] {
        let mut level = shipped(name);
        level.swaps = 40;
        let (a, s) = random_games(&level, games, 40, 9, name);
        totals = (totals.0 + a, totals.1 + s);
    }
    let mut four = parsed(FOUR_PLAYERS);
    four.swaps = 40;
    let (a, s) = random_games(&four, 8, 40, 13, "four players");
    totals = (totals.0 + a, totals.1 + s);
    eprintln!("shipped levels: {} exchanges accepted, {} refused as stranding", totals.0, totals.1);
    // The comparison must have seen both verdicts often, or it proves little.
    assert!(totals.0 > 10_000 && totals.1 > 100, "accepted {}, stranding {}", totals.0, totals.1);
}

#[test]
fn every_exchange_in_random_games_on_generated_boards_agrees_with_a_plain_search() {
    let mut totals = (0, 0);
    for seed in 0..6 {
        let plan = Plan::new(8 + seed as usize % 3, 8, 4, 2, seed);
        let mut level = generate(plan).unwrap_or_else(|e| panic!("{e}"));
        level.swaps = 40;
        let (a, s) = random_games(&level, 2, 30, seed, &format!("generated {seed}"));
        totals = (totals.0 + a, totals.1 + s);
    }
    eprintln!("generated boards: {} exchanges accepted, {} refused as stranding", totals.0, totals.1);
    assert!(totals.0 > 10_000 && totals.1 > 20, "accepted {}, stranding {}", totals.0, totals.1);
}
