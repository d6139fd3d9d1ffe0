//! Edits of a Robot board level, as the level editor makes them: tiles
//! painted (one, a drag, a filled rectangle, a straight belt), a conveyor
//! turned, robots placed, moved or removed, the board resized, the level's
//! settings changed. Each applied hands back its undoing
//! ([`crate::core::history::Edit`]), holding only what it changed.

use super::level::{Dir, Homes, RobotSpec, RobotsLevel};
use super::rules::Pos;
use crate::core::LevelGroup;
use crate::core::history::Edit;

/// The level's settings beside its board and robots.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Settings {
    pub name: String,
    pub description: String,
    pub group: LevelGroup,
    pub swaps: u16,
    pub move_cap: u32,
    pub homes: Homes,
}

impl Settings {
    pub fn of(level: &RobotsLevel) -> Settings {
        Settings {
            name: level.name.clone(),
            description: level.description.clone(),
            group: level.group,
            swaps: level.swaps,
            move_cap: level.move_cap,
            homes: level.homes,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RobotEdit {
    /// Tiles set to characters of the board's legend, in order.
    Tiles(Vec<(Pos, char)>),
    /// The robots, all at once.
    Robots(Vec<RobotSpec>),
    /// The board's rows, all at once.
    Board(Vec<String>),
    Settings(Box<Settings>),
    /// Several edits as one, undone as one.
    Many(Vec<RobotEdit>),
}

/// The board's character at `p`, if `p` is on it.
pub fn tile_at(level: &RobotsLevel, p: Pos) -> Option<char> {
    level.board.get(p.1 as usize)?.chars().nth(p.0 as usize)
}

fn set_tile(level: &mut RobotsLevel, p: Pos, c: char) -> Option<char> {
    let row = level.board.get_mut(p.1 as usize)?;
    let mut chars: Vec<char> = row.chars().collect();
    let old = std::mem::replace(chars.get_mut(p.0 as usize)?, c);
    *row = chars.into_iter().collect();
    Some(old)
}

impl Edit<RobotsLevel> for RobotEdit {
    fn apply(self, level: &mut RobotsLevel) -> RobotEdit {
        match self {
            RobotEdit::Tiles(tiles) => {
                // Undone last first, so a tile set twice comes back as it was.
                let mut old: Vec<(Pos, char)> =
                    tiles.into_iter().filter_map(|(p, c)| set_tile(level, p, c).map(|o| (p, o))).collect();
                old.reverse();
                RobotEdit::Tiles(old)
            }
            RobotEdit::Robots(robots) => RobotEdit::Robots(std::mem::replace(&mut level.robots, robots)),
            RobotEdit::Board(board) => RobotEdit::Board(std::mem::replace(&mut level.board, board)),
            RobotEdit::Settings(new) => {
                let old = Settings::of(level);
                let Settings { name, description, group, swaps, move_cap, homes } = *new;
                (level.name, level.description, level.group) = (name, description, group);
                (level.swaps, level.move_cap, level.homes) = (swaps, move_cap, homes);
                RobotEdit::Settings(Box::new(old))
            }
            RobotEdit::Many(edits) => {
                let mut back: Vec<RobotEdit> = edits.into_iter().map(|e| e.apply(level)).collect();
                back.reverse();
                RobotEdit::Many(back)
            }
        }
    }
}

impl RobotEdit {
    /// `c` on every tile of the rectangle with corners `a` and `b`.
    pub fn fill(a: Pos, b: Pos, c: char) -> RobotEdit {
        let (x0, x1) = (a.0.min(b.0), a.0.max(b.0));
        let (y0, y1) = (a.1.min(b.1), a.1.max(b.1));
        RobotEdit::Tiles((y0..=y1).flat_map(|y| (x0..=x1).map(move |x| ((x, y), c))).collect())
    }

    /// A straight belt from `from` toward `to`, along the longer way, its
    /// conveyors pointing the way it was drawn.
    pub fn belt(from: Pos, to: Pos) -> RobotEdit {
        let (dx, dy) = (to.0 as i32 - from.0 as i32, to.1 as i32 - from.1 as i32);
        let (dir, len) = if dx.abs() >= dy.abs() {
            (if dx >= 0 { Dir::East } else { Dir::West }, dx.unsigned_abs())
        } else {
            (if dy >= 0 { Dir::South } else { Dir::North }, dy.unsigned_abs())
        };
        let (sx, sy) = dir.delta();
        let tiles = (0..=len as i32)
            .map(|i| ((from.0 as i32 + sx * i) as u16, (from.1 as i32 + sy * i) as u16))
            .map(|p| (p, dir.arrow()))
            .collect();
        RobotEdit::Tiles(tiles)
    }

    /// The conveyor at `p` turned a quarter clockwise (nothing elsewhere).
    pub fn turn(level: &RobotsLevel, p: Pos) -> Option<RobotEdit> {
        let dir = Dir::ALL.into_iter().find(|d| Some(d.arrow()) == tile_at(level, p))?;
        Some(RobotEdit::Tiles(vec![(p, Dir::from_quarters(dir.quarters() + 1).arrow())]))
    }

    /// `robot` placed: it replaces the robot of its id, or joins the others.
    pub fn place(level: &RobotsLevel, robot: RobotSpec) -> RobotEdit {
        let mut robots = level.robots.clone();
        match robots.iter_mut().find(|r| r.id == robot.id) {
            Some(r) => *r = robot,
            None => robots.push(robot),
        }
        RobotEdit::Robots(robots)
    }

    /// Robot `id` taken off the board, with its homes.
    pub fn remove(level: &RobotsLevel, id: char) -> RobotEdit {
        let robots = level.robots.iter().filter(|r| r.id != id).cloned().collect();
        let home = id.to_lowercase().next().unwrap_or(id);
        let homes = positions(level).filter(|&p| tile_at(level, p) == Some(home)).map(|p| (p, '.')).collect();
        RobotEdit::Many(vec![RobotEdit::Robots(robots), RobotEdit::Tiles(homes)])
    }

    /// The board made `width` x `height` (at least 1 x 1): rows and columns
    /// cut at the right and bottom or added there as plain tiles; robots
    /// left outside are taken off.
    pub fn resize(level: &RobotsLevel, width: u16, height: u16) -> RobotEdit {
        let (w, h) = (width.max(1) as usize, height.max(1) as usize);
        let board = (0..h)
            .map(|y| {
                let row: Vec<char> = level.board.get(y).map(|r| r.chars().collect()).unwrap_or_default();
                (0..w).map(|x| row.get(x).copied().unwrap_or('.')).collect()
            })
            .collect();
        let robots =
            level.robots.iter().filter(|r| (r.at.0 as usize) < w && (r.at.1 as usize) < h).cloned().collect();
        RobotEdit::Many(vec![RobotEdit::Board(board), RobotEdit::Robots(robots)])
    }
}

/// Every tile of the board, in reading order.
pub fn positions(level: &RobotsLevel) -> impl Iterator<Item = Pos> + '_ {
    let width = level.board.first().map_or(0, |r| r.chars().count());
    (0..level.board.len()).flat_map(move |y| (0..width).map(move |x| (x as u16, y as u16)))
}

#[cfg(test)]
mod tests {
    use rand::{Rng, SeedableRng};

    use super::*;
    use crate::core::history::History;
    use crate::robots::RuleSet;

    fn swap_puzzle() -> RobotsLevel {
        let path = crate::manifest_dir().join("../../levels/robots/09-swap-puzzle.ron");
        crate::level::load(&path).unwrap().get::<crate::robots::Robots>().unwrap().clone()
    }

    fn random_edit(level: &RobotsLevel, rng: &mut impl Rng) -> RobotEdit {
        let (w, h) = (level.board[0].chars().count() as u16, level.board.len() as u16);
        let tile = |rng: &mut dyn rand::RngCore| (rng.random_range(0..w), rng.random_range(0..h));
        const LEGEND: [char; 9] = ['.', '?', '#', '^', '>', 'v', '<', 'a', 'e'];
        match rng.random_range(0..9) {
            0 | 1 => RobotEdit::Tiles(vec![(tile(rng), LEGEND[rng.random_range(0..LEGEND.len())])]),
            2 => RobotEdit::fill(tile(rng), tile(rng), LEGEND[rng.random_range(0..LEGEND.len())]),
            3 => RobotEdit::belt(tile(rng), tile(rng)),
            4 => RobotEdit::turn(level, tile(rng)).unwrap_or(RobotEdit::Tiles(vec![])),
            5 => {
                let id = ['A', 'B', 'E', 'F'][rng.random_range(0..4)];
                let rule = if rng.random_bool(0.5) { RuleSet::A } else { RuleSet::B };
                let facing = Dir::ALL[rng.random_range(0..4)];
                let spec = RobotSpec { id, at: tile(rng), facing, rule, player: rng.random_range(1..=3) };
                RobotEdit::place(level, spec)
            }
            6 => RobotEdit::remove(level, ['A', 'B', 'E'][rng.random_range(0..3)]),
            7 => RobotEdit::resize(level, rng.random_range(1..12), rng.random_range(1..10)),
            _ => {
                let mut settings = Settings::of(level);
                settings.name.push('!');
                settings.swaps = rng.random_range(0..4);
                settings.homes = if rng.random_bool(0.5) { Homes::Hidden } else { Homes::Shown };
                RobotEdit::Settings(Box::new(settings))
            }
        }
    }

    #[test]
    fn undoing_random_edits_gives_back_the_level_and_redoing_them_the_edited_one() {
        for seed in 0..40 {
            let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
            let start = swap_puzzle();
            let mut history = History::new(start.clone());
            let n = rng.random_range(1..60);
            let mut each = vec![start.clone()];
            for _ in 0..n {
                let edit = random_edit(history.level(), &mut rng);
                history.edit(edit);
                each.push(history.level().clone());
            }
            let edited = history.level().clone();
            for i in (0..n).rev() {
                assert!(history.undo());
                assert_eq!(history.level(), &each[i], "seed {seed}: undone back to edit {i}");
            }
            assert!(!history.undo(), "nothing before the start");
            assert_eq!(history.level(), &start);
            for _ in 0..n {
                assert!(history.redo());
            }
            assert!(!history.redo());
            assert_eq!(history.level(), &edited, "seed {seed}");
            // A drag squashed into one edit is undone in one step.
            let (depth, _) = history.depth();
            let before = history.level().clone();
            for x in 0..3 {
                history.edit(RobotEdit::Tiles(vec![((x, 0), '?')]));
            }
            history.squash(depth, RobotEdit::Many);
            assert_eq!(history.depth().0, depth + 1);
            history.undo();
            assert_eq!(history.level(), &before);
            history.redo();
            // A new edit after an undo drops what was undone.
            history.undo();
            history.edit(RobotEdit::Tiles(vec![((0, 0), '#')]));
            assert!(!history.redo());
        }
    }

    #[test]
    fn belts_run_the_way_they_are_drawn_and_turn_clockwise() {
        let level = swap_puzzle();
        assert_eq!(
            RobotEdit::belt((5, 1), (2, 2)),
            RobotEdit::Tiles(vec![((5, 1), '<'), ((4, 1), '<'), ((3, 1), '<'), ((2, 1), '<')])
        );
        assert_eq!(
            RobotEdit::belt((1, 4), (1, 2)),
            RobotEdit::Tiles(vec![((1, 4), '^'), ((1, 3), '^'), ((1, 2), '^')])
        );
        let mut edited = level.clone();
        RobotEdit::belt((0, 1), (2, 1)).apply(&mut edited);
        assert_eq!(tile_at(&edited, (1, 1)), Some('>'));
        RobotEdit::turn(&edited, (1, 1)).unwrap().apply(&mut edited);
        assert_eq!(tile_at(&edited, (1, 1)), Some('v'));
        assert_eq!(RobotEdit::turn(&edited, (9, 9)), None, "off the board");
    }

    #[test]
    fn a_resize_takes_off_robots_left_outside_and_pads_with_plain_tiles() {
        let level = swap_puzzle();
        let mut small = level.clone();
        RobotEdit::resize(&level, 2, 2).apply(&mut small);
        assert_eq!(small.board.len(), 2);
        assert!(small.board.iter().all(|r| r.chars().count() == 2));
        assert!(small.robots.iter().all(|r| r.at.0 < 2 && r.at.1 < 2));
        let mut big = level.clone();
        RobotEdit::resize(&level, 20, 3).apply(&mut big);
        assert!(big.board[0].ends_with(&".".repeat(20 - level.board[0].len())));
    }
}
