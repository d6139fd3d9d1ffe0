//! Large Robot board levels made from a seed (`tabula generate robots`):
//! open ground with broken robots, hint tiles and straight belts, robots
//! and homes placed at random. Every level returned has passed the same
//! validation as a level file; a draw that fails it is drawn again.

use rand::Rng;

use super::level::{
    Dir, MAX_PLAYERS, MAX_ROBOTS, MAX_SIDE, RobotSpec, RobotsLevel, RuleSet, home_char, robot_ids,
};
use super::rules::Robots;
use crate::core::{Game, LevelGroup, derive_seed, rng_from_seed};

/// What to generate.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Plan {
    pub width: usize,
    pub height: usize,
    pub robots: usize,
    /// Players; robots are dealt to them in turn.
    pub players: u8,
    pub seed: u64,
}

/// Draws before giving up: a draw fails only on an unlucky wall of broken
/// robots or belt loop, so this is never reached on sensible sizes.
const TRIES: u64 = 200;

pub fn generate(plan: Plan) -> Result<RobotsLevel, String> {
    if !(8..=MAX_SIDE).contains(&plan.width) || !(8..=MAX_SIDE).contains(&plan.height) {
        return Err(format!("width and height must be 8 to {MAX_SIDE}"));
    }
    if !(2..=MAX_ROBOTS).contains(&plan.robots) {
        return Err(format!("--robots must be 2 to {MAX_ROBOTS}"));
    }
    if plan.robots * 4 > plan.width * plan.height {
        return Err(format!(
            "{} robots and their homes need more room than a {} x {} board",
            plan.robots, plan.width, plan.height
        ));
    }
    if !(2..=MAX_PLAYERS).contains(&plan.players) || plan.players as usize > plan.robots {
        return Err(format!("--players must be 2 to {MAX_PLAYERS} and at most the number of robots"));
    }
    let mut last = String::new();
    for attempt in 0..TRIES {
        let level = draw(plan, derive_seed(plan.seed, attempt));
        match Robots::new(&level, 0) {
            Ok(_) => return Ok(level),
            Err(e) => last = e.message,
        }
    }
    Err(format!("no valid board in {TRIES} draws; the last broke the rule: {last}"))
}

fn draw(plan: Plan, seed: u64) -> RobotsLevel {
    let (w, h) = (plan.width, plan.height);
    let mut rng = rng_from_seed(seed);
    let mut board = vec![vec!['.'; w]; h];
    // Straight belts, each ending on open ground: a belt never runs into
    // another, so belts cannot loop.
    let belts = w * h / 90;
    let mut belt_tiles = vec![vec![false; w]; h];
    for _ in 0..belts {
        let dir = Dir::ALL[rng.random_range(0..4)];
        let len = rng.random_range(3..=12);
        let (mut x, mut y) = (rng.random_range(0..w) as i64, rng.random_range(0..h) as i64);
        let (dx, dy) = dir.delta();
        let mut tiles = Vec::new();
        // The belt and the tile after it must be free of other belts.
        let fits = (0..=len).all(|k| {
            let (tx, ty) = (x + dx as i64 * k, y + dy as i64 * k);
            tx >= 0
                && ty >= 0
                && (tx as usize) < w
                && (ty as usize) < h
                && !belt_tiles[ty as usize][tx as usize]
        });
        if !fits {
            continue;
        }
        for _ in 0..len {
            tiles.push((x as usize, y as usize));
            x += dx as i64;
            y += dy as i64;
        }
        for &(tx, ty) in &tiles {
            board[ty][tx] = dir.arrow();
            belt_tiles[ty][tx] = true;
        }
        belt_tiles[y as usize][x as usize] = true; // the landing stays open ground
    }
    for row in board.iter_mut() {
        for tile in row.iter_mut().filter(|t| **t == '.') {
            match rng.random_range(0..100) {
                0..5 => *tile = '#',
                5..7 => *tile = '?',
                _ => {}
            }
        }
    }
    // Robots and homes on plain open ground, all on different tiles.
    let mut free: Vec<(u16, u16)> = (0..h)
        .flat_map(|y| (0..w).map(move |x| (x as u16, y as u16)))
        .filter(|&(x, y)| board[y as usize][x as usize] == '.')
        .collect();
    let mut take = |rng: &mut crate::core::GameRng| free.swap_remove(rng.random_range(0..free.len()));
    let mut robots = Vec::with_capacity(plan.robots);
    for (i, id) in robot_ids().take(plan.robots).enumerate() {
        let at = take(&mut rng);
        let home = take(&mut rng);
        board[home.1 as usize][home.0 as usize] = home_char(id);
        robots.push(RobotSpec {
            id,
            at,
            facing: Dir::ALL[rng.random_range(0..4)],
            rule: if i % 2 == 0 { RuleSet::A } else { RuleSet::B },
            player: (i % plan.players as usize) as u8 + 1,
        });
    }
    RobotsLevel {
        name: format!("Generated {w} x {h}, {} robots, seed {}", plan.robots, plan.seed),
        description: format!(
            "Made by `tabula generate robots --width {w} --height {h} --robots {} --players {} --seed {}`.",
            plan.robots, plan.players, plan.seed
        ),
        // Boards this size are for watching and zooming, not for a quick game.
        group: if w * h >= 64 * 64 { LevelGroup::Large } else { LevelGroup::Game },
        board: board.into_iter().map(|row| row.into_iter().collect()).collect(),
        robots,
        swaps: 0,
        move_cap: 4 * (w + h) as u32 * plan.players as u32,
        homes: Default::default(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn generated_levels_are_valid_deterministic_and_as_asked() {
        for seed in 0..20 {
            let plan = Plan { width: 24 + seed as usize, height: 16, robots: 6, players: 3, seed };
            let level = generate(plan).unwrap();
            assert_eq!(generate(plan).unwrap(), level, "the same seed gives the same board");
            assert_eq!((level.board.len(), level.board[0].len()), (16, 24 + seed as usize));
            assert_eq!(level.robots.len(), 6);
            assert_eq!(level.players(), 3);
            // Valid through the level file's own path, text and all.
            let text = crate::level::to_ron(&crate::level::LevelFile::new::<Robots>(level.clone()));
            crate::level::parse(&text, "generated.ron").unwrap_or_else(|e| panic!("{e}"));
        }
        let big = generate(Plan { width: 128, height: 128, robots: 8, players: 4, seed: 1 }).unwrap();
        assert!(big.board.concat().contains('>') || big.board.concat().contains('<'), "it has belts");
        assert!(generate(Plan { width: 4, height: 16, robots: 2, players: 2, seed: 0 }).is_err());
        // Robots and homes need room: a quarter of the board at most.
        assert!(generate(Plan { width: 16, height: 16, robots: 65, players: 2, seed: 0 }).is_err());
        assert!(generate(Plan { width: 16, height: 16, robots: 30, players: 2, seed: 0 }).is_ok());
        assert!(generate(Plan { width: 16, height: 16, robots: 3, players: 4, seed: 0 }).is_err());
    }
}
