//! A game from a level: every rule a level can break, checked in the order
//! a designer meets them (the robots, where they stand, their homes, the
//! belts and the ways home), each refusal naming its rule; then the homes
//! drawn from the seed and the board set.

use super::board::{Layout, describe, parse_board, spot};
use super::*;
use crate::robots::level::RobotSpec;

/// The game `level` sets, with each hidden choice drawn from `seed`.
pub(super) fn set_up(level: &RobotsLevel, seed: u64) -> Result<Robots, RuleViolation> {
    let (width, height, mut tiles, homes) = parse_board(level)?;
    let specs = &level.robots;
    let players = check_robots(level)?;
    check_places(specs, &tiles, width, height)?;
    let candidates = candidate_homes(level, &homes, height)?;
    // Every candidate is a plain tile until one is drawn (a home is no
    // obstacle: reachability reads homes as plain tiles).
    for &(_, p) in &homes {
        tiles[p.1 as usize * width as usize + p.0 as usize] = Tile::Normal;
    }
    check_ways(&Layout { width, height, tiles: &tiles }, specs, &candidates)?;
    let robot_homes: Vec<Pos> =
        candidates.iter().enumerate().map(|(r, own)| own[draw_candidate(seed, r, own.len())]).collect();
    for (r, home) in robot_homes.iter().enumerate() {
        tiles[home.1 as usize * width as usize + home.0 as usize] = Tile::Home(r as u16);
    }
    if level.move_cap == 0 {
        return Err(violation("move-cap", "move_cap must be at least 1".into()));
    }
    let mut occupant = vec![0u16; tiles.len()];
    let robots: Vec<Robot> = specs
        .iter()
        .zip(&robot_homes)
        .enumerate()
        .map(|(r, (spec, &home))| {
            occupant[spec.at.1 as usize * width as usize + spec.at.0 as usize] = r as u16 + 1;
            Robot {
                id: spec.id,
                at: spec.at,
                facing: spec.facing,
                rule: spec.rule,
                player: Player(spec.player - 1),
                home: Some(home),
                start: spec.at,
                hints: Vec::new(),
            }
        })
        .collect();
    let homes_hidden = level.homes == Homes::Hidden;
    let sightings = match homes_hidden {
        true => specs.iter().map(|s| Sighting::StoodOn { robot: s.id, at: s.at }).collect(),
        false => Vec::new(),
    };
    Ok(Robots {
        width,
        height,
        tiles,
        occupant,
        robots,
        players,
        swaps_left: vec![level.swaps; players as usize],
        to_move: Player::ONE,
        plies: 0,
        move_cap: level.move_cap,
        outcome: None,
        homes_hidden,
        sightings,
        home_robot: None,
    })
}

/// The robots' count and ids, their players and rule sets; the number of
/// players.
fn check_robots(level: &RobotsLevel) -> Result<u8, RuleViolation> {
    let specs = &level.robots;
    if specs.len() < 2 {
        return Err(violation(
            "robot-count",
            format!("a level needs at least two robots, it has {}", specs.len()),
        ));
    }
    if specs.len() > MAX_ROBOTS {
        return Err(violation(
            "robot-count",
            format!("a level may have {MAX_ROBOTS} robots, it has {}", specs.len()),
        ));
    }
    for (i, spec) in specs.iter().enumerate() {
        if !is_robot_id(spec.id) {
            return Err(violation(
                "robot-id",
                format!(
                    "robot {:?}: ids are the letters A to Z except V (a lowercase v is a conveyor), then other capital letters with a lowercase",
                    spec.id
                ),
            ));
        }
        if specs[..i].iter().any(|s| s.id == spec.id) {
            return Err(violation("robot-id", format!("two robots are called {}", spec.id)));
        }
    }
    let players = level.players();
    if let Some(spec) = specs.iter().find(|s| s.player == 0 || s.player > MAX_PLAYERS) {
        return Err(violation(
            "players",
            format!(
                "robot {} belongs to player {}: players are numbered 1 to {MAX_PLAYERS}",
                spec.id, spec.player
            ),
        ));
    }
    if players < 2 {
        return Err(violation(
            "players",
            "a level needs 2 to 8 players; all robots belong to player 1".into(),
        ));
    }
    if let Some(p) = (1..=players).find(|&p| specs.iter().all(|s| s.player != p)) {
        return Err(violation("players", format!("player {p} owns no robot; every player needs one")));
    }
    for rule in [RuleSet::A, RuleSet::B] {
        if specs.iter().all(|s| s.rule != rule) {
            return Err(violation(
                "rule-sets",
                format!("a level needs a robot of rule A and one of rule B; none follows {rule:?}"),
            ));
        }
    }
    Ok(players)
}

/// Each robot stands on the board, on a tile it may stand on, alone.
fn check_places(specs: &[RobotSpec], tiles: &[Tile], width: u16, height: u16) -> Result<(), RuleViolation> {
    for (i, spec) in specs.iter().enumerate() {
        let (x, y) = spec.at;
        if x >= width || y >= height {
            return Err(violation(
                "robot-place",
                format!("robot {} at ({x}, {y}) is off the {width} x {height} board", spec.id),
            ));
        }
        let refused = match tiles[y as usize * width as usize + x as usize] {
            Tile::Broken => Some("stands on a broken robot"),
            Tile::Conveyor(_) => Some("starts on a conveyor"),
            _ => None,
        };
        if let Some(refused) = refused {
            return Err(violation(
                "robot-place",
                format!("robot {} {refused} at {}", spec.id, spot(spec.at, height)),
            ));
        }
        if let Some(other) = specs[..i].iter().find(|s| s.at == spec.at) {
            return Err(violation(
                "robot-place",
                format!("robots {} and {} both stand at {}", other.id, spec.id, spot(spec.at, height)),
            ));
        }
    }
    Ok(())
}

/// Each robot's candidate homes, in reading order: at least one, none
/// under a robot where that would tell, and no home without its robot.
fn candidate_homes(
    level: &RobotsLevel,
    homes: &[(char, Pos)],
    height: u16,
) -> Result<Vec<Vec<Pos>>, RuleViolation> {
    let specs = &level.robots;
    let mut candidates: Vec<Vec<Pos>> = Vec::with_capacity(specs.len());
    for spec in specs {
        let own: Vec<Pos> = homes.iter().filter(|(id, _)| *id == spec.id).map(|&(_, p)| p).collect();
        if own.is_empty() {
            return Err(violation(
                "homes",
                format!("robot {} has no home: put a '{}' on the board", spec.id, home_char(spec.id)),
            ));
        }
        let which = if own.len() == 1 { "its home" } else { "a candidate home" };
        if let Some(home) = own.iter().find(|&&home| home == spec.at) {
            return Err(violation(
                "homes",
                format!("robot {} starts on {which} at {}", spec.id, spot(*home, height)),
            ));
        }
        // RULES.md, "Hidden homes": no candidate is under a robot at the
        // start; with hidden homes, no home is (a robot standing there and
        // not winning would tell whose it is not).
        if own.len() > 1 || level.homes == Homes::Hidden {
            let under = specs.iter().find_map(|o| own.iter().find(|&&p| p == o.at).map(|&p| (o.id, p)));
            if let Some((other, at)) = under {
                let which = if own.len() == 1 { "the home" } else { "a candidate home" };
                return Err(violation(
                    "homes",
                    format!("robot {other} starts on {which} of robot {} at {}", spec.id, spot(at, height)),
                ));
            }
        }
        candidates.push(own);
    }
    if let Some((id, p)) = homes.iter().find(|(id, _)| specs.iter().all(|s| s.id != *id)) {
        return Err(violation(
            "homes",
            format!("home '{}' at {} has no robot {id}", home_char(*id), spot(*p, height)),
        ));
    }
    if level.homes == Homes::Hidden && level.swaps > 0 {
        return Err(violation(
            "hidden-homes",
            "a level with hidden homes allows no exchanges (swaps: 0): which tiles may be exchanged would give the homes away".into(),
        ));
    }
    Ok(candidates)
}

/// No belts in a loop, and every robot can reach each of its candidate
/// homes.
fn check_ways(
    layout: &Layout<'_>,
    specs: &[RobotSpec],
    candidates: &[Vec<Pos>],
) -> Result<(), RuleViolation> {
    let (width, height) = (layout.width, layout.height);
    let conveyors = (0..height)
        .flat_map(|y| (0..width).map(move |x| (x, y)))
        .filter(|&p| matches!(layout.at(p), Tile::Conveyor(_)));
    if let Some(ring) = layout.loop_through(conveyors) {
        return Err(violation("belt-loop", format!("conveyors loop at {}", describe(&ring, height))));
    }
    for (spec, own) in specs.iter().zip(candidates) {
        let which = if own.len() == 1 { "its home" } else { "its candidate home" };
        if let Some(home) = own.iter().find(|&&home| !layout.reaches(spec.at, home)) {
            return Err(violation(
                "unreachable-home",
                format!("robot {} cannot reach {which} at {}", spec.id, spot(*home, height)),
            ));
        }
    }
    Ok(())
}

/// Which of `count` candidate homes robot `r` (in the level's order) gets
/// in the game of `seed`: SplitMix64 of the seed and the robot's index,
/// modulo the count (docs/formats.md), so another implementation draws the
/// same.
pub fn draw_candidate(seed: u64, r: usize, count: usize) -> usize {
    if count <= 1 { 0 } else { (derive_seed(seed, r as u64) % count as u64) as usize }
}

/// Kuhn's augmenting path for robot `r`: a candidate no one holds, or one
/// whose holder can move to another of its own. `tried` are the tiles
/// already tried in this search.
pub(in crate::robots) fn augment(
    r: usize,
    options: &mut [Vec<Pos>],
    owner: &mut HashMap<Pos, usize>,
    tried: &mut Vec<Pos>,
) -> bool {
    for k in 0..options[r].len() {
        let p = options[r][k];
        if tried.contains(&p) {
            continue;
        }
        tried.push(p);
        let free = match owner.get(&p) {
            None => true,
            Some(&holder) => augment(holder, options, owner, tried),
        };
        if free {
            owner.insert(p, r);
            return true;
        }
    }
    false
}
