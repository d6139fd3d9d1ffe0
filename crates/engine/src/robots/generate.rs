//! Large Robot board levels made from a seed (`tabula generate robots`):
//! open ground with broken robots, hint tiles and straight belts, robots
//! and homes placed at random. Every level returned has passed the same
//! validation as a level file; a draw that fails it is drawn again.

use rand::Rng;

use super::level::{
    Dir, MAX_PLAYERS, MAX_ROBOTS, MAX_SIDE, RobotSpec, RobotsLevel, RuleSet, home_char, robot_ids,
};
use super::rules::Robots;
use crate::core::{Game, LevelGenerator, LevelGroup, derive_seed, rng_from_seed};

/// What to generate.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Plan {
    pub width: usize,
    pub height: usize,
    pub robots: usize,
    /// Players; robots are dealt to them in turn.
    pub players: u8,
    /// Straight belts tried (one that would run into another is left out).
    pub belts: usize,
    /// Hint tiles, in per cent of the open ground.
    pub hints: u8,
    /// Broken robots, in per cent of the open ground.
    pub broken: u8,
    pub seed: u64,
}

impl Plan {
    /// A plan with the usual ground: a belt tried for every 90 tiles, 2% hint
    /// tiles and 5% broken robots.
    pub fn new(width: usize, height: usize, robots: usize, players: u8, seed: u64) -> Plan {
        Plan {
            width,
            height,
            robots,
            players,
            belts: Plan::default_belts(width, height),
            hints: DEFAULT_HINTS,
            broken: DEFAULT_BROKEN,
            seed,
        }
    }

    pub fn default_belts(width: usize, height: usize) -> usize {
        width * height / 90
    }

    /// The command that makes this level; options at their default left out.
    pub fn command(&self) -> String {
        let (w, h) = (self.width, self.height);
        let mut command = format!(
            "tabula generate robots --width {w} --height {h} --robots {} --players {}",
            self.robots, self.players
        );
        if self.belts != Plan::default_belts(w, h) {
            command += &format!(" --belts {}", self.belts);
        }
        if self.hints != DEFAULT_HINTS {
            command += &format!(" --hints {}", self.hints);
        }
        if self.broken != DEFAULT_BROKEN {
            command += &format!(" --broken {}", self.broken);
        }
        command + &format!(" --seed {}", self.seed)
    }
}

/// The options `tabula generate robots` takes, for its help.
pub const OPTIONS: &str = "\
  --width W     board width, 8 to 1024 (default 128)
  --height H    board height, 8 to 1024 (default 128)
  --robots N    robots, 2 to 1400 (default 4)
  --players P   players the robots are dealt to (default: one a robot, at most 8)
  --belts B     straight belts to try laying (default: one for every 90 tiles)
  --hints H     hint tiles, in per cent of the open ground (default 2)
  --broken B    broken robots, in per cent of the open ground (default 5)";

impl Plan {
    /// The plan the `--name value` options of `tabula generate robots`
    /// describe, the others at their defaults.
    pub fn from_options(options: &[(String, String)], seed: u64) -> Result<Plan, String> {
        let mut plan = Plan::new(128, 128, 4, 0, seed);
        let (mut players, mut belts) = (None, None);
        for (name, value) in options {
            let number = |max: usize| -> Result<usize, String> {
                value
                    .parse::<usize>()
                    .ok()
                    .filter(|n| *n <= max)
                    .ok_or_else(|| format!("--{name} takes a whole number up to {max}, not '{value}'"))
            };
            match name.as_str() {
                "width" => plan.width = number(MAX_SIDE)?,
                "height" => plan.height = number(MAX_SIDE)?,
                "robots" => plan.robots = number(usize::from(u16::MAX))?,
                "players" => players = Some(number(usize::from(u8::MAX))? as u8),
                "belts" => belts = Some(number(MAX_SIDE * MAX_SIDE)?),
                "hints" => plan.hints = number(100)? as u8,
                "broken" => plan.broken = number(100)? as u8,
                _ => {
                    return Err(format!(
                        "the Robot board's generator has no option --{name}; it takes:\n{OPTIONS}"
                    ));
                }
            }
        }
        plan.players = players.unwrap_or(plan.robots.min(usize::from(MAX_PLAYERS)) as u8);
        plan.belts = belts.unwrap_or(Plan::default_belts(plan.width, plan.height));
        Ok(plan)
    }
}

/// `tabula generate robots`, for the catalog.
pub struct RobotsGenerator;

impl LevelGenerator for RobotsGenerator {
    type Game = Robots;
    const OPTIONS: &'static str = OPTIONS;

    fn generate(options: &[(String, String)], seed: u64) -> Result<RobotsLevel, String> {
        generate(Plan::from_options(options, seed)?)
    }

    fn deal_like(level: &RobotsLevel, seed: u64) -> Result<RobotsLevel, String> {
        super::deal::deal_like(level, seed)
    }
}

pub const DEFAULT_HINTS: u8 = 2;
pub const DEFAULT_BROKEN: u8 = 5;

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
    if plan.hints as u32 + plan.broken as u32 > 50 {
        return Err("--hints and --broken together may take at most 50% of the open ground".into());
    }
    if plan.belts > plan.width * plan.height / 4 {
        return Err(format!(
            "--belts may be at most a quarter of the tiles ({})",
            plan.width * plan.height / 4
        ));
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
    let mut belt_tiles = vec![vec![false; w]; h];
    for _ in 0..plan.belts {
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
    // i32, as the draw always was, so a seed gives the boards it gave before.
    let (broken, hints) = (plan.broken as i32, plan.broken as i32 + plan.hints as i32);
    for row in board.iter_mut() {
        for tile in row.iter_mut().filter(|t| **t == '.') {
            let draw = rng.random_range(0..100i32);
            if draw < broken {
                *tile = '#';
            } else if draw < hints {
                *tile = '?';
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
        description: format!("Made by `{}`.", plan.command()),
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
            let plan = Plan::new(24 + seed as usize, 16, 6, 3, seed);
            let level = generate(plan).unwrap();
            assert_eq!(generate(plan).unwrap(), level, "the same seed gives the same board");
            assert_eq!((level.board.len(), level.board[0].len()), (16, 24 + seed as usize));
            assert_eq!(level.robots.len(), 6);
            assert_eq!(level.players(), 3);
            // Valid through the level file's own path, text and all.
            let text = crate::level::to_ron(&crate::level::LevelFile::new::<Robots>(level.clone()));
            crate::level::parse(&text, "generated.ron").unwrap_or_else(|e| panic!("{e}"));
        }
        let big = generate(Plan::new(128, 128, 8, 4, 1)).unwrap();
        assert!(big.board.concat().contains('>') || big.board.concat().contains('<'), "it has belts");
        assert!(generate(Plan::new(4, 16, 2, 2, 0)).is_err());
        // Robots and homes need room: a quarter of the board at most.
        assert!(generate(Plan::new(16, 16, 65, 2, 0)).is_err());
        assert!(generate(Plan::new(16, 16, 30, 2, 0)).is_ok());
        assert!(generate(Plan::new(16, 16, 3, 4, 0)).is_err());
    }

    #[test]
    fn the_shipped_generated_boards_are_what_their_command_makes() {
        // Their descriptions give the command; the options added since
        // (belts, hints, broken) must keep drawing the same boards.
        for (file, plan) in [
            ("large-128x128-four-robots.ron", Plan::new(128, 128, 4, 4, 1)),
            ("large-192x128-eight-robots.ron", Plan::new(192, 128, 8, 4, 2)),
        ] {
            let path = crate::manifest_dir().join("../../levels/robots").join(file);
            let text = std::fs::read_to_string(&path).unwrap();
            let made = crate::level::LevelFile::new::<Robots>(generate(plan).unwrap()).layout();
            assert!(text == made, "{file} is not what `{}` makes", plan.command());
        }
    }

    #[test]
    fn the_ground_follows_the_options() {
        let count = |level: &RobotsLevel, of: &dyn Fn(char) -> bool| {
            level.board.iter().flat_map(|row| row.chars()).filter(|&c| of(c)).count()
        };
        let belt = |c: char| "^>v<".contains(c);
        let bare = Plan { belts: 0, hints: 0, broken: 0, ..Plan::new(40, 30, 4, 2, 7) };
        let level = generate(bare).unwrap();
        assert_eq!(
            (count(&level, &belt), count(&level, &|c| c == '?'), count(&level, &|c| c == '#')),
            (0, 0, 0)
        );
        assert!(
            level.description.contains("--belts 0 --hints 0 --broken 0 --seed 7"),
            "{}",
            level.description
        );

        let busy = Plan { belts: 60, hints: 20, broken: 10, ..bare };
        let level = generate(busy).unwrap();
        let open = 40 * 30 - count(&level, &belt);
        let hints = count(&level, &|c| c == '?') as f64 / open as f64;
        let broken = count(&level, &|c| c == '#') as f64 / open as f64;
        assert!((0.15..0.25).contains(&hints), "hints on {:.0}% of the ground", hints * 100.0);
        assert!((0.06..0.14).contains(&broken), "broken robots on {:.0}% of the ground", broken * 100.0);
        assert!(count(&level, &belt) > count(&generate(Plan::new(40, 30, 4, 2, 7)).unwrap(), &belt));

        assert!(generate(Plan { hints: 30, broken: 30, ..bare }).is_err(), "more than half the ground");
        assert!(generate(Plan { belts: 40 * 30, ..bare }).is_err());
    }
}
