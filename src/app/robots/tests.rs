//! The Robot board's words and geometry in the window: tiles found where
//! they are drawn, refusals, clues and turns said as a person says them.

use super::*;

#[test]
fn tiles_are_found_where_they_are_drawn() {
    let layout = RobotLayout { width: 7, height: 4 };
    for y in 0..4 {
        for x in 0..7 {
            assert_eq!(layout.tile_at(layout.position((x, y))), Some((x, y)));
        }
    }
    assert!(layout.position((0, 0)).y > layout.position((0, 3)).y, "y grows downwards");
    assert_eq!(layout.tile_at(Vec2::new(10.0 * TILE, 0.0)), None);
}

#[test]
fn refusals_and_exchanges_name_tiles_as_on_a_chess_board() {
    use tabula_engine::robots::{RobotSpec, RuleSet};
    let level = RobotsLevel {
        name: "test".into(),
        description: String::new(),
        group: Default::default(),
        board: vec!["a..".into(), ".#.".into(), "..b".into()],
        robots: vec![
            RobotSpec { id: 'A', at: (1, 0), facing: Dir::North, rule: RuleSet::A, player: 1 },
            RobotSpec { id: 'B', at: (2, 0), facing: Dir::South, rule: RuleSet::B, player: 2 },
        ],
        swaps: 0,
        move_cap: 500,
        homes: Default::default(),
    };
    let board = Robots::new(&level, 0).unwrap();
    let refused = |dir| {
        let e = board.clone().apply(Player::ONE, RobotMove::Step { robot: 'A', dir }).unwrap_err();
        Robots::refusal(&board, &e)
    };
    assert_eq!(refused(Dir::North), "the walk would leave the board past the north edge");
    assert_eq!(refused(Dir::South), "blocked at B2 by a broken robot");
    assert_eq!(refused(Dir::East), "blocked at C3 by robot B");
    let swap = RobotMove::Exchange { a: (0, 1), b: (2, 2) };
    assert_eq!(Robots::move_text(&level, &swap), "exchange A2 and C1");
    // Turns as a person says them; the notation keeps its quarters.
    let turn = |quarters| Robots::move_text(&level, &RobotMove::Rotate { robot: 'B', quarters });
    assert_eq!([turn(1), turn(2), turn(3)], ["B turns left", "B turns around", "B turns right"]);
}

#[test]
fn clues_say_where_home_lies_on_the_board_then_as_the_robot_heard_it() {
    // Seen on J9 facing south, ahead left is south-east; ahead is due south.
    let held = |hint| HeldHint { hint, at: (9, 1), facing: Dir::South };
    assert_eq!(
        clue_words(held(Hint::AheadLeft), 10),
        "south-east of J9 (ahead left, seen there facing south)"
    );
    assert_eq!(clue_words(held(Hint::Ahead), 10), "due south of J9 (ahead, seen there facing south)");
    // Facing West, right is north: the board's words never turn with the robot.
    let west = HeldHint { hint: Hint::Right, at: (1, 1), facing: Dir::West };
    assert!(clue_words(west, 10).starts_with("due north of B9"));
}

#[test]
fn the_keys_listed_are_those_the_level_has_a_use_for() {
    use tabula_engine::robots::{RobotSpec, RuleSet};
    let robot = |id, rule, player| RobotSpec { id, at: (0, 0), facing: Dir::North, rule, player };
    let mut level = RobotsLevel {
        name: "keys".into(),
        description: String::new(),
        group: Default::default(),
        board: vec!["a.b".into()],
        robots: vec![robot('A', RuleSet::A, 1), robot('B', RuleSet::A, 2)],
        swaps: 0,
        move_cap: 500,
        homes: Homes::Shown,
    };
    let listed = |level: &RobotsLevel| -> Vec<&str> {
        let controls = Robots::controls(level);
        controls.keys.iter().chain(&controls.more).map(|k| k.keys).collect()
    };
    let keys = listed(&level);
    assert!(keys.contains(&"arrows") && keys.contains(&"N"), "{keys:?}");
    for absent in ["X", "H", "Up or 1-3", "Left/Right/Down"] {
        assert!(!keys.contains(&absent), "{absent} listed: {keys:?}");
    }
    level.swaps = 1;
    level.homes = Homes::Hidden;
    level.robots[1].rule = RuleSet::B;
    let keys = listed(&level);
    for present in ["X", "H", "arrows", "Up or 1-3", "Left/Right/Down"] {
        assert!(keys.contains(&present), "{present} not listed: {keys:?}");
    }
}
