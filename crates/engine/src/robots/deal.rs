//! A hidden-home board dealt anew like a level (`tabula generate robots
//! --like`, and the window's new board each game): the same size and
//! robots where the level starts them, and as many hints, broken robots,
//! belt tiles and candidate homes, all placed afresh, the candidates a
//! third of the board away from their robot's start.
//! Two players' tiles are a half turn apart, four players' on a square
//! board a quarter turn, as on the shipped boards, so the seats stay even;
//! other boards are drawn as they come.

use rand::Rng;

use super::level::{Dir, Homes, RobotsLevel, home_char};
use super::rules::Robots;
use crate::core::{Game, GameRng, derive_seed, rng_from_seed};

/// A start tile while the board is laid: nothing goes on it.
const START: char = '*';

/// Draws before giving up: a draw fails only when broken robots or belts
/// cut a candidate off, rare on boards of a few hints and walls.
const TRIES: u64 = 200;

/// A board like `level` (a hidden-home level), dealt from `seed`.
pub fn deal_like(level: &RobotsLevel, seed: u64) -> Result<RobotsLevel, String> {
    if level.homes != Homes::Hidden {
        return Err(format!(
            "'{}' shows its homes: only a hidden-home level is dealt anew (its puzzles are placed by hand)",
            level.name
        ));
    }
    let mut last = String::new();
    for attempt in 0..TRIES {
        let Some(dealt) = draw(level, derive_seed(seed, attempt)) else {
            last = "room for every robot and candidate home".into();
            continue;
        };
        match Robots::new(&dealt, 0) {
            Ok(_) => return Ok(dealt),
            Err(e) => last = e.message,
        }
    }
    Err(format!("no valid board like '{}' in {TRIES} draws; the last broke the rule: {last}", level.name))
}

/// The board's turns onto itself that deal the seats evenly.
struct Symmetry {
    w: usize,
    h: usize,
    /// 1 (none), 2 (a half turn) or 4 (quarter turns).
    order: usize,
    /// Quarter turns of one step: 2 for a half turn, 1 for a quarter.
    quarters: u8,
}

impl Symmetry {
    fn of(level: &RobotsLevel, w: usize, h: usize) -> Symmetry {
        let players = usize::from(level.players());
        let per_player = |p: usize| level.robots.iter().filter(|r| usize::from(r.player) == p).count();
        let even = (1..=players).all(|p| per_player(p) == per_player(1));
        match players {
            2 if even => Symmetry { w, h, order: 2, quarters: 2 },
            4 if even && w == h => Symmetry { w, h, order: 4, quarters: 1 },
            _ => Symmetry { w, h, order: 1, quarters: 0 },
        }
    }

    /// Tile `at` turned `k` steps (clockwise on screen).
    fn turn(&self, at: (usize, usize), k: usize) -> (usize, usize) {
        let (x, y) = at;
        match (self.quarters, k % self.order) {
            (_, 0) => at,
            (2, _) => (self.w - 1 - x, self.h - 1 - y),
            // Quarter turns, on a square board.
            (_, k) => (0..k).fold(at, |(x, y), _| (self.h - 1 - y, x)),
        }
    }

    fn turn_dir(&self, dir: Dir, k: usize) -> Dir {
        Dir::from_quarters(dir.quarters() + (k * usize::from(self.quarters) % 4) as u8)
    }

    /// The tiles `at` turns onto, itself first, each once.
    fn orbit(&self, at: (usize, usize)) -> Vec<(usize, usize)> {
        let mut tiles = Vec::with_capacity(self.order);
        for k in 0..self.order {
            let t = self.turn(at, k);
            if !tiles.contains(&t) {
                tiles.push(t);
            }
        }
        tiles
    }
}

/// What a draw fills in, tile by tile.
struct Ground {
    board: Vec<Vec<char>>,
    sym: Symmetry,
}

impl Ground {
    fn plain(&self, at: (usize, usize)) -> bool {
        self.board[at.1][at.0] == '.'
    }

    fn random_tile(&self, rng: &mut GameRng) -> (usize, usize) {
        (rng.random_range(0..self.sym.w), rng.random_range(0..self.sym.h))
    }

    /// Puts `tile` on a random plain tile and its turns, `count` tiles or
    /// just over; gives up after a bounded number of tries.
    fn scatter(
        &mut self,
        tile: char,
        count: usize,
        rng: &mut GameRng,
        allowed: impl Fn(&Self, (usize, usize)) -> bool,
    ) {
        let (mut placed, mut tries) = (0, 0);
        while placed < count && tries < 50 * (count + 1) {
            tries += 1;
            let orbit = self.sym.orbit(self.random_tile(rng));
            if orbit.iter().all(|&t| self.plain(t) && allowed(self, t)) {
                for &(x, y) in &orbit {
                    self.board[y][x] = tile;
                }
                placed += orbit.len();
            }
        }
    }

    /// Straight belts of 2 to 4 tiles and their turns, each ending on a
    /// plain tile, until `count` belt tiles are laid.
    fn lay_belts(&mut self, count: usize, rng: &mut GameRng) {
        let (mut laid, mut tries) = (0, 0);
        while laid < count && tries < 50 * (count + 1) {
            tries += 1;
            let (start, dir, len) =
                (self.random_tile(rng), Dir::ALL[rng.random_range(0..4)], rng.random_range(2..=4));
            let (dx, dy) = dir.delta();
            let run: Option<Vec<(usize, usize)>> = (0..=len)
                .map(|k| {
                    let (x, y) = (start.0 as i32 + dx * k, start.1 as i32 + dy * k);
                    ((0..self.sym.w as i32).contains(&x) && (0..self.sym.h as i32).contains(&y))
                        .then_some((x as usize, y as usize))
                })
                .collect();
            let Some(run) = run else { continue };
            let turned: Vec<((usize, usize), char)> = (0..self.sym.order)
                .flat_map(|k| {
                    let arrow = self.sym.turn_dir(dir, k).arrow();
                    run.iter().enumerate().map(move |(i, &t)| (t, i, arrow, k)).collect::<Vec<_>>()
                })
                .map(|(t, i, arrow, k)| (self.sym.turn(t, k), if i < len as usize { arrow } else { '.' }))
                .collect();
            let tiles: Vec<(usize, usize)> = turned.iter().map(|(t, _)| *t).collect();
            let apart = tiles.iter().enumerate().all(|(i, t)| !tiles[..i].contains(t));
            if !apart || !tiles.iter().all(|&t| self.plain(t)) {
                continue;
            }
            for ((x, y), c) in turned {
                self.board[y][x] = c;
                laid += usize::from(c != '.');
            }
        }
    }

    /// Whether a hint is on `at` or next to it (diagonals too): a home
    /// there would be found by a step, not worked out.
    fn near_hint(&self, at: (usize, usize)) -> bool {
        let (x, y) = (at.0 as i32, at.1 as i32);
        (-1..=1).any(|dy| {
            (-1..=1).any(|dx| {
                let (nx, ny) = (x + dx, y + dy);
                (0..self.sym.w as i32).contains(&nx)
                    && (0..self.sym.h as i32).contains(&ny)
                    && self.board[ny as usize][nx as usize] == '?'
            })
        })
    }
}

/// A board like `level`, or `None` when no room was found for a robot or
/// a home (drawn again).
fn draw(level: &RobotsLevel, seed: u64) -> Option<RobotsLevel> {
    let (w, h) = (level.board.first().map_or(0, |r| r.chars().count()), level.board.len());
    let count = |wanted: &dyn Fn(char) -> bool| {
        level.board.iter().flat_map(|r| r.chars()).filter(|&c| wanted(c)).count()
    };
    let mut rng = rng_from_seed(seed);
    let mut ground = Ground { board: vec![vec!['.'; w]; h], sym: Symmetry::of(level, w, h) };
    // The robots start where the level starts them (far from where their
    // homes will be, as its designer placed them): nothing is laid there.
    let robots = level.robots.clone();
    let starts: Vec<(usize, usize)> = robots.iter().map(|r| (r.at.0 as usize, r.at.1 as usize)).collect();
    for &(x, y) in &starts {
        ground.board[y][x] = START;
    }
    let order = ground.sym.order;
    let players = usize::from(level.players());
    // Player 1's robots' candidates are drawn, each other player's are
    // their turns, when the seats are turns of each other; else every
    // robot's are drawn.
    let drawn: Vec<usize> = (0..robots.len()).filter(|&i| order == 1 || robots[i].player == 1).collect();
    ground.lay_belts(count(&|c| matches!(c, '^' | '>' | 'v' | '<')), &mut rng);
    ground.scatter('#', count(&|c| c == '#'), &mut rng, |_, _| true);
    ground.scatter('?', count(&|c| c == '?'), &mut rng, |_, _| true);
    // A home at least a third of the board's width and height away from
    // its robot's start: found by working it out, not by stumbling on it.
    let far = (w + h) / 3;
    for (j, &i) in drawn.iter().enumerate() {
        let (id, start) = (robots[i].id, starts[i]);
        let candidates = count(&|c| c == home_char(id)).max(1);
        for _ in 0..candidates {
            let at = pick(&ground, &mut rng, |g, t| {
                g.plain(t) && !g.near_hint(t) && t.0.abs_diff(start.0) + t.1.abs_diff(start.1) >= far
            });
            let at = at.or_else(|| pick(&ground, &mut rng, |g, t| g.plain(t) && !g.near_hint(t)))?;
            for k in 0..order.min(players) {
                let r = if order == 1 { i } else { nth_of_player(&robots, k as u8 + 1, j) };
                let (x, y) = ground.sym.turn(at, k);
                ground.board[y][x] = home_char(robots[r].id);
            }
        }
    }
    for &(x, y) in &starts {
        ground.board[y][x] = '.';
    }
    Some(RobotsLevel {
        name: format!("{}, dealt", level.name),
        description: level.description.clone(),
        group: level.group,
        board: ground.board.into_iter().map(|row| row.into_iter().collect()).collect(),
        robots,
        swaps: level.swaps,
        move_cap: level.move_cap,
        homes: level.homes,
    })
}

/// The index of the `j`-th robot of `player`, in the level's order.
fn nth_of_player(robots: &[super::level::RobotSpec], player: u8, j: usize) -> usize {
    robots.iter().enumerate().filter(|(_, r)| r.player == player).nth(j).map_or(0, |(i, _)| i)
}

/// A random tile that `ok` allows, its turns too, each a tile of its own;
/// `None` if none is found in a bounded number of tries.
fn pick(
    ground: &Ground,
    rng: &mut GameRng,
    ok: impl Fn(&Ground, (usize, usize)) -> bool,
) -> Option<(usize, usize)> {
    (0..20 * ground.sym.w * ground.sym.h).map(|_| ground.random_tile(rng)).find(|&at| {
        let orbit = ground.sym.orbit(at);
        orbit.len() == ground.sym.order && orbit.iter().all(|&t| ok(ground, t))
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::robots::exchange_tests::shipped;

    fn tally(level: &RobotsLevel, wanted: impl Fn(char) -> bool) -> usize {
        level.board.iter().flat_map(|r| r.chars()).filter(|&c| wanted(c)).count()
    }

    #[test]
    fn a_dealt_board_is_valid_even_and_as_full_as_its_level() {
        for name in ["12-hidden-homes.ron", "13-fog-and-belts.ron", "15-four-in-the-fog.ron"] {
            let level = shipped(name);
            let (w, h) = (level.board[0].chars().count(), level.board.len());
            let sym = Symmetry::of(&level, w, h);
            assert_eq!(sym.order, usize::from(level.players()), "{name}: the seats are turns of each other");
            let mut boards = std::collections::HashSet::new();
            let (mut far, mut all) = (0, 0);
            for seed in 0..25 {
                let dealt = deal_like(&level, seed).unwrap_or_else(|e| panic!("{name} seed {seed}: {e}"));
                assert_eq!(dealt, deal_like(&level, seed).unwrap(), "{name}: one seed, one board");
                Robots::new(&dealt, seed).unwrap();
                assert_eq!((dealt.board.len(), dealt.board[0].chars().count()), (h, w));
                for c in ['?', '#'] {
                    assert!(tally(&dealt, |t| t == c) >= tally(&level, |t| t == c), "{name}: as many {c}");
                }
                let belts = |t: char| matches!(t, '^' | '>' | 'v' | '<');
                assert!(tally(&dealt, belts) >= tally(&level, belts), "{name}: as many belt tiles");
                let ids: Vec<(char, u8, super::super::RuleSet)> =
                    level.robots.iter().map(|r| (r.id, r.player, r.rule)).collect();
                let dealt_ids: Vec<(char, u8, super::super::RuleSet)> =
                    dealt.robots.iter().map(|r| (r.id, r.player, r.rule)).collect();
                assert_eq!(dealt_ids, ids, "{name}: the same robots for the same players");
                for robot in &level.robots {
                    let home = home_char(robot.id);
                    assert_eq!(
                        tally(&dealt, |t| t == home),
                        tally(&level, |t| t == home),
                        "{name}: candidates"
                    );
                }
                assert_eq!(
                    dealt.robots, level.robots,
                    "{name}: the robots start where the level starts them"
                );
                // Each player's candidates are the first player's, turned.
                let rows: Vec<Vec<char>> = dealt.board.iter().map(|r| r.chars().collect()).collect();
                for (j, first) in dealt.robots.iter().filter(|r| r.player == 1).enumerate() {
                    for (y, row) in rows.iter().enumerate() {
                        for (x, _) in row.iter().enumerate().filter(|(_, c)| **c == home_char(first.id)) {
                            let start = (first.at.0 as usize, first.at.1 as usize);
                            far += usize::from(x.abs_diff(start.0) + y.abs_diff(start.1) >= (w + h) / 3);
                            all += 1;
                            for k in 1..sym.order {
                                let other = &dealt.robots[nth_of_player(&dealt.robots, k as u8 + 1, j)];
                                let (tx, ty) = sym.turn((x, y), k);
                                assert_eq!(rows[ty][tx], home_char(other.id), "{name}: a candidate turned");
                            }
                        }
                    }
                }
                boards.insert(dealt.board);
            }
            assert!(boards.len() >= 24, "{name}: 25 seeds dealt {} boards", boards.len());
            assert!(
                far * 4 >= all * 3,
                "{name}: {far} of {all} candidates a third of the board from the start"
            );
        }
    }

    #[test]
    fn a_level_that_shows_its_homes_is_not_dealt() {
        let e = deal_like(&shipped("04-corners.ron"), 1).unwrap_err();
        assert!(e.contains("shows its homes: only a hidden-home level is dealt anew"), "{e}");
    }

    #[test]
    fn a_half_turn_and_quarter_turns_come_back_round() {
        let half = Symmetry { w: 11, h: 10, order: 2, quarters: 2 };
        assert_eq!(half.turn((0, 0), 1), (10, 9));
        assert_eq!(half.turn_dir(Dir::North, 1), Dir::South);
        let quarter = Symmetry { w: 13, h: 13, order: 4, quarters: 1 };
        assert_eq!(quarter.turn((0, 0), 1), (12, 0));
        assert_eq!(quarter.turn((2, 1), 4), (2, 1));
        assert_eq!(quarter.turn_dir(Dir::North, 1), Dir::East);
        // A step north from (2, 1), turned, is a step east from its turn.
        let (a, b) = (quarter.turn((2, 1), 1), quarter.turn((2, 0), 1));
        assert_eq!((b.0 as i32 - a.0 as i32, b.1 as i32 - a.1 as i32), Dir::East.delta());
        assert_eq!(quarter.orbit((6, 6)), vec![(6, 6)], "the centre is its own turn");
    }
}
