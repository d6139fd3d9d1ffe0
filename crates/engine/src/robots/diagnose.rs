//! Why a Robot board level cannot be played, in tiles the level editor can
//! draw: the rule the engine's own check finds broken (`Robots::new`), and
//! where on the board it is broken.

use super::edit::tile_at;
use super::level::{RobotsLevel, home_char, robot_of_home};
use super::rules::{Pos, Robots, belt_loop, reachable_tiles};
use crate::core::Game;

/// A broken rule, and the tiles that show it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Finding {
    /// The rule's short name, as `tabula check` reports it.
    pub rule: &'static str,
    pub message: String,
    /// Tiles to light: the robot that cannot get home and that home, a
    /// belt loop, a home without its robot, a robot in a place it may not be.
    pub lit: Vec<Pos>,
    /// Tiles to shade: where the robot that cannot get home can go.
    pub shaded: Vec<Pos>,
}

/// The first rule the level breaks, with its tiles; `None` for a level
/// that can be played.
pub fn diagnose(level: &RobotsLevel) -> Option<Finding> {
    let violation = Robots::new(level, 0).err()?;
    let mut finding =
        Finding { rule: violation.rule, message: violation.message, lit: Vec::new(), shaded: Vec::new() };
    // Every home on the board, found in one pass: reading a tile by its
    // place walks its row, and a 256 x 256 board has 65,536 places.
    let homes: Vec<(Pos, char)> = level
        .board
        .iter()
        .enumerate()
        .flat_map(|(y, row)| row.chars().enumerate().map(move |(x, c)| ((x as u16, y as u16), c)))
        .filter(|&(_, c)| robot_of_home(c).is_some())
        .collect();
    let homes_of = |id: char| homes.iter().filter(move |&&(_, c)| c == home_char(id)).map(|&(p, _)| p);
    match finding.rule {
        "belt-loop" => finding.lit = belt_loop(level).unwrap_or_default(),
        "unreachable-home" => {
            // Every stranded robot, not only the first the rule names: each
            // with the home it cannot reach, the tiles it can reach shaded.
            let starts: Vec<Pos> = level.robots.iter().map(|r| r.at).collect();
            let stranded: Vec<(char, Pos, Pos, Vec<Pos>)> = level
                .robots
                .iter()
                .zip(reachable_tiles(level, &starts))
                .filter_map(|(r, reached)| {
                    let reached = reached?;
                    let home = homes_of(r.id).find(|h| !reached.contains(h))?;
                    Some((r.id, r.at, home, reached))
                })
                .collect();
            let mut shaded = std::collections::BTreeSet::new();
            for (_, at, home, reached) in &stranded {
                finding.lit.extend([*at, *home]);
                shaded.extend(reached.iter().copied());
            }
            finding.shaded = shaded.into_iter().collect();
            if let [_, others @ ..] = stranded.as_slice()
                && !others.is_empty()
            {
                let ids: Vec<String> = others.iter().map(|s| s.0.to_string()).collect();
                let robots = if ids.len() == 1 { "robot" } else { "robots" };
                finding.message += &format!("; nor can {robots} {}", ids.join(", "));
            }
        }
        "homes" => {
            // Homes whose robot is missing, robots without a home, robots
            // standing on a home.
            finding.lit = homes
                .iter()
                .filter(|&&(_, c)| robot_of_home(c).is_some_and(|id| level.robots.iter().all(|r| r.id != id)))
                .map(|&(p, _)| p)
                .chain(level.robots.iter().filter(|r| homes_of(r.id).next().is_none()).map(|r| r.at))
                .chain(
                    level
                        .robots
                        .iter()
                        .filter(|r| tile_at(level, r.at).and_then(robot_of_home).is_some())
                        .map(|r| r.at),
                )
                .collect();
        }
        "robot-place" => {
            finding.lit = level
                .robots
                .iter()
                .filter(|r| {
                    let tile = tile_at(level, r.at);
                    tile.is_none_or(|c| "#^>v<".contains(c))
                        || level.robots.iter().filter(|o| o.at == r.at).count() > 1
                })
                .map(|r| r.at)
                .collect();
        }
        _ => {}
    }
    Some(finding)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::history::Edit;
    use crate::robots::edit::RobotEdit;

    fn first_steps() -> RobotsLevel {
        let path = crate::manifest_dir().join("../../levels/robots/01-first-steps.ron");
        crate::level::load(&path).unwrap().get::<Robots>().unwrap().clone()
    }

    #[test]
    fn a_playable_level_has_no_finding() {
        assert_eq!(diagnose(&first_steps()), None);
    }

    /// Broken robots all round the tile `at`.
    fn wall_in(level: &mut RobotsLevel, at: Pos) {
        let around: Vec<(Pos, char)> = [(0i32, -1i32), (1, 0), (0, 1), (-1, 0)]
            .into_iter()
            .map(|(dx, dy)| (at.0 as i32 + dx, at.1 as i32 + dy))
            .filter(|&(x, y)| {
                x >= 0 && y >= 0 && (x as usize) < level.board[0].len() && (y as usize) < level.board.len()
            })
            .map(|(x, y)| ((x as u16, y as u16), '#'))
            .collect();
        RobotEdit::Tiles(around).apply(level);
    }

    #[test]
    fn a_walled_in_robot_is_lit_with_its_home_and_the_tiles_it_can_reach_shaded() {
        let mut level = first_steps();
        let a = level.robots[0].clone();
        wall_in(&mut level, a.at);
        let finding = diagnose(&level).unwrap();
        assert_eq!(finding.rule, "unreachable-home");
        assert_eq!(finding.message, "robot A cannot reach its home at F4 (5, 2)", "named as the edges do");
        assert_eq!(finding.lit[0], a.at);
        assert_eq!(tile_at(&level, finding.lit[1]), Some('a'));
        assert_eq!(finding.shaded, vec![a.at], "walled in, A reaches only its own tile");
    }

    #[test]
    fn every_stranded_robot_is_lit_not_only_the_first() {
        let mut level = first_steps();
        let (a, c) = (level.robots[0].clone(), level.robots[2].clone());
        assert_eq!(c.id, 'C');
        wall_in(&mut level, a.at);
        wall_in(&mut level, c.at);
        let finding = diagnose(&level).unwrap();
        assert!(finding.message.ends_with("; nor can robot C"), "{}", finding.message);
        assert_eq!(finding.lit.len(), 4, "two robots and their homes: {:?}", finding.lit);
        assert!(finding.lit.contains(&c.at) && finding.lit.iter().any(|&p| tile_at(&level, p) == Some('c')));
        let mut shaded = finding.shaded.clone();
        shaded.sort();
        let mut both = vec![a.at, c.at];
        both.sort();
        assert_eq!(shaded, both, "each reaches only its own tile");
    }

    #[test]
    fn a_belt_loop_and_a_home_without_its_robot_are_lit() {
        let mut level = first_steps();
        RobotEdit::Tiles(vec![((3, 1), '>'), ((4, 1), 'v'), ((4, 2), '<'), ((3, 2), '^')]).apply(&mut level);
        let finding = diagnose(&level).unwrap();
        assert_eq!(finding.rule, "belt-loop");
        let mut lit = finding.lit.clone();
        lit.sort();
        assert_eq!(lit, vec![(3, 1), (3, 2), (4, 1), (4, 2)]);
        let mut level = first_steps();
        RobotEdit::Tiles(vec![((7, 5), 'e')]).apply(&mut level);
        let finding = diagnose(&level).unwrap();
        assert_eq!((finding.rule, finding.lit), ("homes", vec![(7, 5)]));
    }
}
