//! Hand-worked cases of docs/rules/robot-board.md, one rule each, and the
//! shared conformance test with 2, 3, 4 and 8 seats.

use super::*;
use crate::core::{Game, NotYourTurn, Outcome, Player, conformance, perft::perft};

use Dir::{East, North, South, West};
use RuleSet::{A, B};

type Spec = (char, Pos, Dir, RuleSet, u8);

fn level(board: &[&str], robots: &[Spec], swaps: u16) -> RobotsLevel {
    RobotsLevel {
        name: "test".into(),
        description: String::new(),
        group: Default::default(),
        board: board.iter().map(|r| r.to_string()).collect(),
        robots: robots
            .iter()
            .map(|&(id, at, facing, rule, player)| RobotSpec { id, at, facing, rule, player })
            .collect(),
        swaps,
        move_cap: 500,
        homes: Homes::Shown,
    }
}

fn game(board: &[&str], robots: &[Spec], swaps: u16) -> Robots {
    Robots::new(&level(board, robots, swaps), 0).unwrap_or_else(|e| panic!("{e}"))
}

/// Applies `mv` for the player to move, checking that following the steps
/// gives the same state.
fn play(g: &mut Robots, mv: RobotMove) -> Vec<RobotStep> {
    let before = g.clone();
    let by = g.current_player();
    let steps = g.apply(by, mv).unwrap_or_else(|e| panic!("{mv}: {e}"));
    let mut followed = before;
    steps.iter().for_each(|s| followed.follow_step(s));
    assert_eq!(&followed, g, "{mv}: the steps do not tell the whole move");
    steps
}

fn refused(g: &mut Robots, mv: RobotMove) -> RobotsError {
    let before = g.clone();
    let err = g.apply(g.current_player(), mv).expect_err(&mv.to_string());
    assert_eq!(*g, before, "{mv} was refused ({err}) but changed the state");
    err
}

fn at(g: &Robots, id: char) -> (Pos, Dir) {
    let r = g.robot(id).unwrap();
    (r.at, r.facing)
}

/// Conveyors east then a corner south, then east again.
const CORNERS: [&str; 5] = ["...>v.", "....v.", "....>.", "#.....", "a....b"];

fn corners() -> Robots {
    game(&CORNERS, &[('A', (0, 0), North, A, 1), ('B', (1, 0), East, B, 2)], 0)
}

#[test]
fn a_walk_takes_the_first_free_conveyor_and_a_corner_turns_the_robot() {
    let mut g = corners();
    play(&mut g, RobotMove::Step { robot: 'A', dir: South });
    // B walks 3 ahead: (2,0) is free, (3,0) is a conveyor: B steps on and rides.
    let steps = play(&mut g, RobotMove::Forward { robot: 'B', steps: 3 });
    assert_eq!(
        steps[1..5],
        [
            RobotStep::Walked { robot: 'B', to: (3, 0) },
            // East onto a south belt: a quarter clockwise, East to South.
            RobotStep::Rode { robot: 'B', to: (4, 0), facing: South },
            RobotStep::Rode { robot: 'B', to: (4, 1), facing: South },
            // South onto an east belt: a quarter counter-clockwise.
            RobotStep::Rode { robot: 'B', to: (4, 2), facing: East },
        ]
    );
    // Leaving the belt turns nothing.
    assert_eq!(steps[5], RobotStep::Rode { robot: 'B', to: (5, 2), facing: East });
    assert_eq!(at(&g, 'B'), ((5, 2), East));
    assert_eq!(steps.last(), Some(&RobotStep::TurnChanged { to: Player::ONE }));
}

#[test]
fn every_tile_of_the_path_must_be_on_the_board_even_past_a_conveyor() {
    let mut g = game(&["....v", "b...a"], &[('A', (3, 0), East, B, 1), ('B', (0, 0), South, A, 2)], 0);
    // (4,0) is a conveyor, but the second tile of the path is off the board.
    assert_eq!(
        refused(&mut g, RobotMove::Forward { robot: 'A', steps: 2 }),
        RobotsError::OffBoard { at: (5, 0) }
    );
    // One step takes the belt south to the home at (4,1): a win by ride.
    let steps = play(&mut g, RobotMove::Forward { robot: 'A', steps: 1 });
    assert_eq!(g.outcome(), Some(Outcome::Win(Player::ONE)));
    assert!(steps.contains(&RobotStep::Won { robot: 'A' }));
}

#[test]
fn an_occupied_tile_before_any_conveyor_blocks_the_whole_walk() {
    let mut g = game(
        &["......>.", "........", "a.bc...."],
        &[('A', (1, 0), East, B, 1), ('B', (3, 0), North, A, 2), ('C', (0, 1), North, A, 1)],
        0,
    );
    assert_eq!(
        refused(&mut g, RobotMove::Forward { robot: 'A', steps: 3 }),
        RobotsError::Blocked { at: (3, 0) }
    );
    // The free tile before it is fine; there are no partial walks past it.
    play(&mut g, RobotMove::Forward { robot: 'A', steps: 1 });
    assert_eq!(at(&g, 'A'), ((2, 0), East));
    // Broken robots block too.
    let mut g = game(&["..#..", "a...b"], &[('A', (0, 0), East, B, 1), ('B', (4, 0), West, A, 2)], 0);
    assert_eq!(
        refused(&mut g, RobotMove::Forward { robot: 'A', steps: 3 }),
        RobotsError::Blocked { at: (2, 0) }
    );
}

#[test]
fn rule_sets_owners_and_turns_are_the_rules_business() {
    let mut g = corners();
    let one = Player::ONE;
    assert_eq!(
        g.apply(Player::TWO, RobotMove::Forward { robot: 'B', steps: 1 }),
        Err(RobotsError::NotYourTurn(NotYourTurn { player: Player::TWO, to_move: one }))
    );
    assert_eq!(
        refused(&mut g, RobotMove::Forward { robot: 'B', steps: 1 }),
        RobotsError::NotYourRobot { robot: 'B', owner: 2 }
    );
    assert_eq!(
        refused(&mut g, RobotMove::Rotate { robot: 'A', quarters: 1 }),
        RobotsError::NotAllowed { robot: 'A', rule: A }
    );
    assert_eq!(
        refused(&mut g, RobotMove::Step { robot: 'Q', dir: East }),
        RobotsError::NoSuchRobot { robot: 'Q' }
    );
    assert_eq!(
        refused(&mut g, RobotMove::Step { robot: 'A', dir: North }),
        RobotsError::OffBoard { at: (0, -1) }
    );
    assert_eq!(refused(&mut g, RobotMove::Pass), RobotsError::MustMove);
    play(&mut g, RobotMove::Step { robot: 'A', dir: South });
    assert_eq!(
        refused(&mut g, RobotMove::Step { robot: 'B', dir: East }),
        RobotsError::NotAllowed { robot: 'B', rule: B }
    );
    assert_eq!(
        refused(&mut g, RobotMove::Rotate { robot: 'B', quarters: 0 }),
        RobotsError::BadQuarters { quarters: 0 }
    );
    assert_eq!(
        refused(&mut g, RobotMove::Forward { robot: 'B', steps: 4 }),
        RobotsError::BadSteps { steps: 4 }
    );
    // A quarter turn is counter-clockwise on screen: East to North.
    let steps = play(&mut g, RobotMove::Rotate { robot: 'B', quarters: 1 });
    assert_eq!(steps[1], RobotStep::Rotated { robot: 'B', facing: North });
    let mut g2 = g.clone();
    g2.apply(one, RobotMove::Step { robot: 'A', dir: North }).unwrap();
    g2.apply(Player::TWO, RobotMove::Rotate { robot: 'B', quarters: 3 }).unwrap();
    assert_eq!(at(&g2, 'B').1, East, "three quarters left from North is East");
}

#[test]
fn a_player_with_no_request_passes_and_only_then() {
    // A is in the corner, B east of it and C south: no step, no swaps.
    let mut g = game(
        &["....", "....", "..a.", "bc.."],
        &[('A', (0, 0), North, A, 1), ('B', (1, 0), South, B, 2), ('C', (0, 1), North, A, 2)],
        0,
    );
    let mut moves = Vec::new();
    g.moves(&mut moves);
    assert_eq!(moves, [RobotMove::Pass]);
    let steps = play(&mut g, RobotMove::Pass);
    assert_eq!(steps, [RobotStep::Began { by: Player::ONE }, RobotStep::TurnChanged { to: Player::TWO }]);
}

/// A belt (1..=4, 1) running east to (5, 1); robots wait on it while (5, 1)
/// is taken, then move on in rounds.
fn belt(home_of_x: Pos, swaps: u16) -> Robots {
    let mut rows = ["..f.....".to_string(), ".>>>>...".into(), "........".into(), "ye..b...".into()];
    let (hx, hy) = (home_of_x.0 as usize, home_of_x.1 as usize);
    rows[hy].replace_range(hx..hx + 1, "x");
    let rows: Vec<&str> = rows.iter().map(String::as_str).collect();
    belt_on(&rows, swaps)
}

/// The robots of [`belt`] on the board `rows`.
fn belt_on(rows: &[&str], swaps: u16) -> Robots {
    game(
        rows,
        &[
            ('E', (5, 1), North, A, 1),
            ('Y', (3, 0), North, A, 1),
            ('F', (7, 0), North, B, 1),
            ('X', (4, 0), North, A, 2),
            ('B', (7, 2), North, B, 2),
        ],
        swaps,
    )
}

fn fill_the_belt(g: &mut Robots) {
    play(g, RobotMove::Rotate { robot: 'F', quarters: 1 });
    // X steps onto the belt and waits: (5,1) is taken by E.
    let steps = play(g, RobotMove::Step { robot: 'X', dir: South });
    assert!(!steps.iter().any(|s| matches!(s, RobotStep::Rode { .. } | RobotStep::Carried { .. })));
    play(g, RobotMove::Step { robot: 'Y', dir: South });
    assert_eq!(at(g, 'Y').0, (3, 1), "Y waits behind X");
    play(g, RobotMove::Rotate { robot: 'B', quarters: 1 });
}

#[test]
fn a_blocked_belt_moves_on_in_rounds_once_the_way_is_free() {
    let mut g = belt((6, 3), 0);
    fill_the_belt(&mut g);
    let steps = play(&mut g, RobotMove::Step { robot: 'E', dir: North });
    let carried: Vec<_> = steps.iter().filter(|s| matches!(s, RobotStep::Carried { .. })).cloned().collect();
    assert_eq!(
        carried,
        [
            // Round 1: X moves off the belt; Y's next tile was taken at the start of the round.
            RobotStep::Carried { robot: 'X', to: (5, 1), facing: North, round: 1 },
            RobotStep::Carried { robot: 'Y', to: (4, 1), facing: North, round: 2 },
        ]
    );
    assert_eq!(at(&g, 'Y').0, (4, 1), "Y waits again: X stands at the end of the belt");
    assert_eq!(g.outcome(), None);
}

#[test]
fn a_belt_can_win_the_game_for_a_player_in_another_players_turn() {
    let mut g = belt((5, 1), 0);
    fill_the_belt(&mut g);
    // Player 1 moves E away; the belt carries player 2's X onto its home.
    let steps = play(&mut g, RobotMove::Step { robot: 'E', dir: North });
    assert_eq!(g.outcome(), Some(Outcome::Win(Player::TWO)));
    assert!(steps.ends_with(&[RobotStep::Won { robot: 'X' }, RobotStep::Ended(Outcome::Win(Player::TWO))]));
    assert_eq!(at(&g, 'Y').0, (3, 1), "the game ends with the round that brought X home");
    assert_eq!(refused(&mut g, RobotMove::Pass), RobotsError::GameOver);
}

#[test]
fn two_robots_merging_onto_one_tile_neither_moves() {
    let mut g = game(
        &[".......", "..>.<..", ".......", "a.c.d.b"],
        &[
            ('A', (2, 0), North, A, 1),
            ('C', (3, 1), North, A, 1),
            ('D', (4, 0), North, A, 2),
            ('B', (6, 0), North, B, 2),
        ],
        0,
    );
    play(&mut g, RobotMove::Step { robot: 'A', dir: South });
    play(&mut g, RobotMove::Step { robot: 'D', dir: South });
    assert_eq!((at(&g, 'A').0, at(&g, 'D').0), ((2, 1), (4, 1)), "both wait for C");
    let steps = play(&mut g, RobotMove::Step { robot: 'C', dir: North });
    assert!(!steps.iter().any(|s| matches!(s, RobotStep::Carried { .. })), "{steps:?}");
    assert_eq!((at(&g, 'A').0, at(&g, 'D').0), ((2, 1), (4, 1)));
    // A can still walk off its belt.
    play(&mut g, RobotMove::Rotate { robot: 'B', quarters: 1 });
    play(&mut g, RobotMove::Step { robot: 'A', dir: North });
    assert_eq!(at(&g, 'A').0, (2, 0));
}

#[test]
fn hints_are_in_the_robots_own_frame_for_all_eight_directions() {
    // The examples of docs/rules/robot-board.md, "Hints".
    assert_eq!(Hint::toward(-3, -2, East), Hint::BehindLeft);
    assert_eq!(Hint::toward(2, -5, North), Hint::AheadRight);
    assert_eq!(Hint::toward(4, 0, South), Hint::Left);
    assert_eq!(Hint::toward(5, 0, North), Hint::Right);
    assert_eq!(Hint::toward(5, -1, North), Hint::AheadRight, "5 east and 1 north is north-east");
    // Facing North, the eight compass directions in order.
    let compass = [(0, -1), (1, -1), (1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1)];
    let hints: Vec<Hint> = compass.iter().map(|&(dx, dy)| Hint::toward(dx, dy, North)).collect();
    use Hint::*;
    assert_eq!(hints, [Ahead, AheadRight, Right, BehindRight, Behind, BehindLeft, Left, AheadLeft]);
    // Facing West, home due west is ahead and due north is to the right.
    assert_eq!((Hint::toward(-2, 0, West), Hint::toward(0, -2, West)), (Ahead, Right));
}

#[test]
fn a_walk_onto_a_hint_tile_gives_a_hint_and_a_ride_clears_them() {
    let mut g = game(
        &["..?.b", ".....", ".....", "....a", "....."],
        &[('A', (2, 2), North, B, 1), ('B', (0, 4), North, A, 2)],
        0,
    );
    let mut bob = [North, South].into_iter().cycle();
    let mut turn = |g: &mut Robots, mv: RobotMove| {
        let steps = play(g, mv);
        play(g, RobotMove::Step { robot: 'B', dir: bob.next().unwrap() });
        steps
    };
    // Facing North at (2,0), the home at (4,3) is south-east: behind right.
    let steps = turn(&mut g, RobotMove::Forward { robot: 'A', steps: 2 });
    assert_eq!(steps[2], RobotStep::HintGiven { robot: 'A', hint: Hint::BehindRight });
    turn(&mut g, RobotMove::Rotate { robot: 'A', quarters: 1 }); // West
    let steps = turn(&mut g, RobotMove::Forward { robot: 'A', steps: 1 }); // (1,0): no hint there
    assert!(!steps.iter().any(|s| matches!(s, RobotStep::HintGiven { .. })));
    turn(&mut g, RobotMove::Rotate { robot: 'A', quarters: 2 }); // East
    turn(&mut g, RobotMove::Forward { robot: 'A', steps: 1 }); // (2,0) again
    // Facing East, south-east is ahead right; hints accumulate in order.
    assert_eq!(g.robot('A').unwrap().hints, [Hint::BehindRight, Hint::AheadRight]);

    // A ride clears the hints: A takes a hint at (0,1), then rides (0,2)'s belt.
    let mut h =
        game(&["..", "?.", ">.", "..", "ba"], &[('A', (0, 0), South, B, 1), ('B', (1, 0), North, A, 2)], 0);
    let steps = play(&mut h, RobotMove::Forward { robot: 'A', steps: 1 });
    // Facing South, home south-east is ahead left.
    assert_eq!(steps[2], RobotStep::HintGiven { robot: 'A', hint: Hint::AheadLeft });
    play(&mut h, RobotMove::Step { robot: 'B', dir: South });
    let steps = play(&mut h, RobotMove::Forward { robot: 'A', steps: 1 });
    assert_eq!(at(&h, 'A').0, (1, 2));
    assert!(steps.contains(&RobotStep::HintsCleared { robot: 'A' }));
    assert!(h.robot('A').unwrap().hints.is_empty());
}

#[test]
fn a_hints_bearing_is_the_compass_direction_of_home_for_every_facing() {
    let compass = [(0, -1), (1, -1), (1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1)];
    for facing in Dir::ALL {
        for (eighth, &(dx, dy)) in compass.iter().enumerate() {
            let hint = Hint::toward(dx * 3, dy * 2, facing);
            assert_eq!(hint.bearing(facing) as usize, eighth, "{hint:?} facing {facing:?}");
        }
    }
    assert_eq!(compass_name(Hint::AheadLeft.bearing(South)), "south-east");
    assert_eq!(compass_name(Hint::Right.bearing(West)), "north");
}

#[test]
fn held_hints_keep_where_and_how_they_were_given_while_the_robot_turns() {
    // A (rule B) takes a hint at (2,0) facing North: home (4,3) is behind right.
    let mut g = game(
        &["..?.b", ".....", ".....", "....a", "....."],
        &[('A', (2, 2), North, B, 1), ('B', (0, 4), North, A, 2)],
        0,
    );
    let given = HeldHint { hint: Hint::BehindRight, at: (2, 0), facing: North };
    play(&mut g, RobotMove::Forward { robot: 'A', steps: 2 });
    assert_eq!(g.held_hints('A'), [given]);
    for quarters in [1, 2, 3, 1] {
        play(&mut g, RobotMove::Step { robot: 'B', dir: if quarters == 2 { South } else { North } });
        play(&mut g, RobotMove::Rotate { robot: 'A', quarters });
        // The hint is still the one given facing North, and home is still
        // south-east of (2,0) on the board, whichever way A now faces.
        assert_eq!(g.held_hints('A'), [given]);
        assert_eq!(compass_name(g.held_hints('A')[0].bearing()), "south-east");
    }
    assert!(g.held_hints('B').is_empty() && g.held_hints('Z').is_empty());
}

/// A wall of broken robots at x = 3 with one gap at (3, 2); spare broken
/// robots and a conveyor to exchange.
fn walled(swaps: u16) -> Robots {
    game(
        &["...#..", "...#.>", "......", ".#.#..", "a?.#.b"],
        &[('A', (5, 0), North, A, 1), ('B', (0, 0), East, B, 2)],
        swaps,
    )
}

#[test]
fn every_kind_of_refused_exchange_is_named_and_changes_nothing() {
    let mut g = walled(1);
    let ex = |a: Pos, b: Pos| RobotMove::Exchange { a, b };
    assert_eq!(refused(&mut g, ex((2, 2), (2, 2))), RobotsError::SameTile);
    assert_eq!(refused(&mut g, ex((0, 4), (2, 2))), RobotsError::HomeOrHintTile { at: (0, 4) });
    assert_eq!(refused(&mut g, ex((2, 2), (1, 4))), RobotsError::HomeOrHintTile { at: (1, 4) });
    assert_eq!(refused(&mut g, ex((0, 0), (9, 9))), RobotsError::OffBoard { at: (9, 9) });
    assert_eq!(refused(&mut g, ex((1, 1), (2, 2))), RobotsError::NothingChanges);
    assert_eq!(refused(&mut g, ex((1, 3), (3, 0))), RobotsError::NothingChanges, "two broken robots");
    // The spare broken robot into the gap strands A, the first to lose its way.
    assert_eq!(refused(&mut g, ex((1, 3), (3, 2))), RobotsError::WouldStrand { robot: 'A' });
    let mut none = walled(0);
    assert_eq!(refused(&mut none, ex((1, 1), (3, 2))), RobotsError::NoSwapsLeft);
    // A belt that would run in a loop.
    let mut l = game(
        &["......", ".>v...", "..<...", "......", "a...>b"],
        &[('A', (5, 0), North, A, 1), ('B', (0, 0), East, B, 2)],
        1,
    );
    // '>' at (4,4) moved to (1,2) turns to '^': (1,2) -> (1,1) -> (2,1) -> (2,2) -> (1,2).
    assert_eq!(refused(&mut l, ex((1, 2), (4, 4))), RobotsError::BeltLoop { at: (1, 2) });
    // The swaps are still there: another exchange goes through.
    play(&mut l, ex((0, 2), (4, 4)));
    assert_eq!(l.tile((0, 2)), Tile::Conveyor(North), "the moved conveyor turned a quarter left");
    assert_eq!(
        (l.swaps_left(Player::ONE), l.swaps_left(Player::TWO)),
        (0, 1),
        "swaps are counted per player"
    );
}

#[test]
fn an_exchange_carries_robots_with_their_tiles_and_turns_them_on_conveyors() {
    let mut g = belt((6, 3), 1);
    fill_the_belt(&mut g);
    // X waits on (4,1), a belt running east. Exchange it with (6,2):
    // X travels to (6,2) on its conveyor, which turns to run north, and X
    // turns with it (North to West); the belt carries X to (6,1).
    let steps = play(&mut g, RobotMove::Exchange { a: (4, 1), b: (6, 2) });
    assert_eq!(steps[1], RobotStep::Swapped { by: Player::ONE, a: (4, 1), b: (6, 2) });
    assert_eq!(g.tile((6, 2)), Tile::Conveyor(North));
    assert_eq!(g.tile((4, 1)), Tile::Normal);
    assert!(
        steps.contains(&RobotStep::Carried { robot: 'X', to: (6, 1), facing: West, round: 1 }),
        "{steps:?}"
    );
    // Y, behind, now rides on to (4,1) in the same settling.
    assert!(
        steps.contains(&RobotStep::Carried { robot: 'Y', to: (4, 1), facing: North, round: 1 }),
        "{steps:?}"
    );
    assert_eq!(g.swaps_left(Player::ONE), 0);
}

#[test]
fn levels_name_the_robot_tile_and_rule_they_break() {
    let robots = [('A', (1, 0), North, A, 1), ('B', (2, 0), North, B, 2)];
    let check = |board: &[&str], robots: &[Spec]| Robots::new(&level(board, robots, 0), 0).unwrap_err();
    let e = check(&["....", "####", "a..b"], &robots);
    assert_eq!(
        (e.rule, e.message.as_str()),
        ("unreachable-home", "robot A cannot reach its home at A1 (0, 2)")
    );
    let e = check(&["a>v.", ".^<b"], &[('A', (0, 1), North, A, 1), ('B', (3, 0), North, B, 2)]);
    assert_eq!(
        (e.rule, e.message.as_str()),
        ("belt-loop", "conveyors loop at B2 (1, 0), C2 (2, 0), C1 (2, 1), B1 (1, 1)")
    );
    let e = check(&["a..b", "..c."], &robots);
    assert_eq!((e.rule, e.message.as_str()), ("homes", "home 'c' at C1 (2, 1) has no robot C"));
    let e = check(&["a...", "...."], &robots);
    assert_eq!(e.rule, "homes");
    assert!(e.message.contains("robot B has no home"), "{}", e.message);
    let e = check(&["ab.", "..x"], &robots);
    assert_eq!(e.rule, "homes");
    let e = check(&["a..b", "...."], &[('A', (1, 0), North, A, 1), ('B', (2, 0), North, A, 2)]);
    assert_eq!(e.rule, "rule-sets");
    let e = check(&["a..b", "...."], &[('A', (1, 0), North, A, 1), ('B', (2, 0), North, B, 1)]);
    assert_eq!(e.rule, "players");
    let e = check(&["a..b", "...."], &[('A', (1, 0), North, A, 1), ('B', (2, 0), North, B, 3)]);
    assert_eq!((e.rule, e.message.as_str()), ("players", "player 2 owns no robot; every player needs one"));
    let e = check(&["a..b", "...."], &[('A', (1, 0), North, A, 1), ('B', (1, 0), North, B, 2)]);
    assert_eq!(e.rule, "robot-place");
    let e = check(&["a.>b", "...."], &[('A', (1, 0), North, A, 1), ('B', (2, 0), North, B, 2)]);
    assert_eq!((e.rule, e.message.as_str()), ("robot-place", "robot B starts on a conveyor at C2 (2, 0)"));
    let e = check(&["a..b", "...x"], &[('A', (0, 0), North, A, 1), ('B', (2, 0), North, B, 2)]);
    assert_eq!(e.rule, "homes");
    let e = check(&["a..b", "..."], &robots);
    assert_eq!(e.rule, "board-shape");
    let e = check(&["a..b", "..!."], &robots);
    assert_eq!(
        (e.rule, e.message.as_str()),
        ("board-legend", "unknown tile '!' at (2, 1): the legend is . ? # ^ > v < and lowercase homes")
    );
    let e = check(&["a..v", "...."], &[('A', (1, 0), North, A, 1), ('V', (2, 0), North, B, 2)]);
    assert_eq!(e.rule, "robot-id");
}

fn race(players: u8) -> RobotsLevel {
    // One robot a player on a board with belts, hints and broken robots.
    let board = [
        "..?.....#...",
        ".>>>v...#.?.",
        "....v.......",
        ".?..>>>>v...",
        "........v..#",
        "#...?...v...",
        "...^<<<<<...",
        "............",
    ];
    let homes = [(11, 7), (0, 7), (11, 0), (6, 2), (2, 4), (10, 6), (5, 7), (0, 2)];
    let starts = [(0, 0), (11, 2), (0, 4), (9, 0), (7, 7), (1, 6), (10, 4), (6, 0)];
    let ids = ['A', 'B', 'C', 'D', 'E', 'F', 'G', 'H'];
    let mut rows: Vec<String> = board.iter().map(|r| r.to_string()).collect();
    let n = players as usize;
    for i in 0..n {
        let (x, y) = homes[i];
        rows[y].replace_range(x..x + 1, &ids[i].to_ascii_lowercase().to_string());
    }
    let rows: Vec<&str> = rows.iter().map(String::as_str).collect();
    let robots: Vec<Spec> = (0..n)
        .map(|i| (ids[i], starts[i], Dir::ALL[i % 4], if i % 2 == 0 { A } else { B }, i as u8 + 1))
        .collect();
    level(&rows, &robots, 1)
}

#[test]
fn passes_the_conformance_test_with_2_3_4_and_8_seats() {
    for (players, games) in [(2, 30), (3, 15), (4, 10), (8, 4)] {
        let mut lvl = race(players);
        lvl.move_cap = 60;
        conformance::check_random_games::<Robots>(&lvl, games, players as u64);
    }
}

#[test]
fn perft_counts_walks_turns_and_exchanges() {
    // Two robots on an open 3 x 3 board, one exchange each.
    let g = game(&["a..", "...", "..b"], &[('A', (1, 0), North, A, 1), ('B', (1, 2), North, B, 2)], 1);
    let mut moves = Vec::new();
    g.moves(&mut moves);
    // A: west (onto its home), east, south; north is off the board. On a
    // board of plain tiles only exchanges that move a robot change
    // anything: A's tile with the 6 others, B's with the 5 others left.
    let steps = moves.iter().filter(|m| matches!(m, RobotMove::Step { .. })).count();
    let exchanges = moves.iter().filter(|m| matches!(m, RobotMove::Exchange { .. })).count();
    assert_eq!((steps, exchanges), (3, 6 + 5));
    assert_eq!(perft(&g, 1), 14);
    assert!(perft(&g, 2) > 14 * 10);
}

mod agents {
    use super::*;
    use crate::core::{AgentRegistry, rng_from_seed};

    fn plays(agent: &str, g: &Robots) -> RobotMove {
        let mut agent = Robots::agent_from_str(agent).unwrap();
        agent.choose(g.current_player(), g, &mut rng_from_seed(1)).unwrap()
    }

    #[test]
    fn the_planner_takes_a_shortest_way_home_with_belts() {
        // A (rule A) at (0,0), home at (6,3): 9 steps on foot, or 2 steps and
        // a belt ride along row 1 that ends at (6,1): 2 + 2 = 4.
        let mut g = game(
            &["......b", ".>>>>>.", ".......", "......a"],
            &[('A', (0, 0), North, A, 1), ('B', (0, 3), North, B, 2)],
            0,
        );
        let mut moves = 0;
        while g.outcome().is_none() {
            let mv = if g.current_player() == Player::ONE {
                moves += 1;
                plays("planner", &g)
            } else {
                RobotMove::Rotate { robot: 'B', quarters: 1 }
            };
            play(&mut g, mv);
        }
        assert_eq!(g.outcome(), Some(Outcome::Win(Player::ONE)));
        assert_eq!(moves, 4, "east, south onto the belt (it rides to (6,1)), south, south");
        // It plans with the robots where they stand: with (1,0) taken, it
        // goes round.
        let g =
            game(&["a....", ".....", "....b"], &[('A', (2, 0), North, A, 1), ('B', (1, 0), North, B, 2)], 0);
        assert_eq!(plays("planner", &g), RobotMove::Step { robot: 'A', dir: South });
    }

    /// The planner's move, and that it leaves no opponent a win in one.
    fn planner_blocks(g: &Robots) -> RobotMove {
        let mv = plays("planner", g);
        let mut after = g.clone();
        play(&mut after, mv);
        assert!(after.outcome().is_none(), "{mv} ends the game: {:?}", after.outcome());
        let next = after.current_player();
        assert_eq!(crate::robots::ai::winning_move(&after, next), None, "after {mv}, {next:?} wins in one");
        mv
    }

    #[test]
    fn the_planner_takes_a_win_in_one_by_walk_or_by_exchange() {
        // A (rule B, facing West) waits on the conveyor at (0,0), whose
        // next tile is off the board; it can only turn. Exchanging its tile
        // with (1,1) carries it there, the conveyor turns to face West, and
        // the belt takes A onto its home at (0,1).
        let mut g = game(&["^..", "a..", "..b"], &[('A', (1, 0), West, B, 1), ('B', (2, 1), North, A, 2)], 1);
        play(&mut g, RobotMove::Forward { robot: 'A', steps: 1 });
        assert_eq!(g.robot('A').unwrap().at, (0, 0), "A waits on the belt");
        play(&mut g, RobotMove::Step { robot: 'B', dir: North });
        let mv = plays("planner", &g);
        play(&mut g, mv);
        assert_eq!(g.outcome(), Some(Outcome::Win(Player::ONE)), "{mv}");
        // With a step home and exchanges that would lengthen the other's
        // way, it steps home.
        let mut g = game(
            &["a.......", ">>>>>>.b", "........"],
            &[('A', (1, 0), North, A, 1), ('B', (0, 2), North, B, 2)],
            2,
        );
        let mv = plays("planner", &g);
        play(&mut g, mv);
        assert_eq!(g.outcome(), Some(Outcome::Win(Player::ONE)), "{mv}");
    }

    #[test]
    fn the_planner_never_lets_an_opponent_win_by_its_move() {
        // B waits on the conveyor at (2,0): A stands on B's home at (3,0).
        // Any step of A frees the belt and carries B home; C may turn.
        let mut g = game(
            &["..>b.", ".....", "a...c"],
            &[('A', (3, 0), North, A, 1), ('B', (1, 0), North, A, 2), ('C', (0, 1), North, B, 1)],
            0,
        );
        play(&mut g, RobotMove::Rotate { robot: 'C', quarters: 1 });
        play(&mut g, RobotMove::Step { robot: 'B', dir: East });
        assert_eq!(g.robot('B').unwrap().at, (2, 0), "B waits on the belt");
        let mv = planner_blocks(&g);
        assert!(!matches!(mv, RobotMove::Step { robot: 'A', .. }), "{mv}");
    }

    #[test]
    fn the_planner_blocks_a_win_in_one_on_the_swap_puzzle() {
        // The opening the planner used to miss: exchanging (0,0) with (2,3)
        // carries A beside its home at (2,4); a step would win.
        let path = crate::manifest_dir().join("../../levels/robots/09-swap-puzzle.ron");
        let file = crate::level::load(&path).unwrap();
        let mut g = Robots::new(file.get::<Robots>().unwrap(), 0).unwrap();
        play(&mut g, RobotMove::Exchange { a: (0, 0), b: (2, 3) });
        assert!(crate::robots::ai::winning_move(&g, Player::ONE).is_some(), "A threatens to win");
        planner_blocks(&g);
    }

    #[test]
    fn the_scout_reads_a_hint_and_follows_its_bearing() {
        // Facing North on the hint at (2,1), the home at (4,4) is behind
        // right: south-east. The scout then heads south or east, not back.
        let mut g = game(
            &["b....", "..?..", ".....", ".....", "....a"],
            &[('A', (2, 2), North, A, 1), ('B', (0, 4), North, B, 2)],
            0,
        );
        let mut scout = Robots::agent_from_str("scout").unwrap();
        let mut rng = rng_from_seed(3);
        let first = scout.choose(Player::ONE, &g, &mut rng).unwrap();
        assert_eq!(first, RobotMove::Step { robot: 'A', dir: North }, "the nearest unread hint");
        play(&mut g, first);
        assert_eq!(g.robot('A').unwrap().hints, [Hint::BehindRight]);
        play(&mut g, RobotMove::Rotate { robot: 'B', quarters: 1 });
        let next = scout.choose(Player::ONE, &g, &mut rng).unwrap();
        assert!(matches!(next, RobotMove::Step { robot: 'A', dir: South | East }), "{next}");
        assert_eq!(scout.choose(Player::TWO, &g, &mut rng), None, "not its turn");
    }

    #[test]
    fn the_planner_exchanges_tiles_when_that_gains_more_than_a_step() {
        // The swap puzzle: the first exchange the planner makes must leave
        // it better placed against the other player than before.
        let path = crate::manifest_dir().join("../../levels/robots/09-swap-puzzle.ron");
        let file = crate::level::load(&path).unwrap();
        let mut g = Robots::new(file.get::<Robots>().unwrap(), 0).unwrap();
        let margin = |g: &Robots, seat: Player| {
            let ours = super::super::ai::nearest_home(g, seat, false).unwrap().0 as i64;
            let theirs = super::super::ai::nearest_home(g, seat, true).unwrap().0 as i64;
            theirs - ours
        };
        let mut exchanged = false;
        for _ in 0..40 {
            if g.outcome().is_some() {
                break;
            }
            let seat = g.current_player();
            let before = margin(&g, seat);
            let mv = plays("planner", &g);
            play(&mut g, mv);
            if matches!(mv, RobotMove::Exchange { .. }) && g.outcome().is_none() {
                exchanged = true;
                assert!(margin(&g, seat) > before + 1, "{mv} gained too little");
            }
        }
        assert!(exchanged, "the planner used an exchange");
    }

    /// A stranger read a Beginner that turned on the spot as not playing:
    /// its slips walk, so its robot is seen to go somewhere on nearly every
    /// move, and it still gets home.
    #[test]
    fn the_beginner_errs_by_walking_the_wrong_way_not_by_turning_on_the_spot() {
        let mut g = game(
            &["......b", ".......", ".......", "......a"],
            &[('A', (0, 0), North, B, 1), ('B', (0, 3), North, A, 2)],
            0,
        );
        let mut beginner = Robots::agent_from_str("beginner").unwrap();
        let mut rng = rng_from_seed(3);
        let (mut moves, mut turns) = (0, 0);
        while g.outcome().is_none() && moves < 200 {
            let mv = if g.current_player() == Player::ONE {
                moves += 1;
                let mv = beginner.choose(Player::ONE, &g, &mut rng).unwrap();
                turns += matches!(mv, RobotMove::Rotate { .. }) as u32;
                mv
            } else {
                // B paces between two tiles, out of A's way.
                let dir = if at(&g, 'B').0 == (0, 3) { East } else { West };
                RobotMove::Step { robot: 'B', dir }
            };
            play(&mut g, mv);
        }
        assert_eq!(g.outcome(), Some(Outcome::Win(Player::ONE)), "home within {moves} moves");
        // Rule B turns to face its way, so some turns are the plan's own;
        // a beginner slipping into a turn on 6 moves in 10 turned on most.
        assert!(turns * 3 < moves, "{turns} of {moves} moves were turns");
    }

    /// A stranger saw the Beginner race one robot and never move its
    /// second: its slips set off with any of its robots, so on the hidden
    /// homes it is seen to use both.
    #[test]
    fn the_beginner_moves_every_robot_it_has() {
        let file = crate::level::load(&crate::manifest_dir().join("../../levels/robots/12-hidden-homes.ron"))
            .unwrap();
        let level = file.get::<Robots>().unwrap();
        let mut beginner = Robots::agent_from_str("beginner").unwrap();
        let mut moved = std::collections::BTreeMap::new();
        for seed in 0..6 {
            let mut g = Robots::new(level, seed).unwrap();
            let mut rng = rng_from_seed(seed);
            for _ in 0..60 {
                if g.outcome().is_some() {
                    break;
                }
                let mv = beginner.choose(g.current_player(), &g, &mut rng).unwrap();
                if let RobotMove::Step { robot, .. }
                | RobotMove::Forward { robot, .. }
                | RobotMove::Rotate { robot, .. } = mv
                {
                    *moved.entry(robot).or_insert(0) += 1;
                }
                play(&mut g, mv);
            }
        }
        let total: u32 = moved.values().sum();
        for robot in ['A', 'B', 'C', 'D'] {
            let n = moved.get(&robot).copied().unwrap_or(0);
            assert!(
                n * 8 >= total / 2,
                "robot {robot} moved {n} times of its player's {}: {moved:?}",
                total / 2
            );
        }
    }

    #[test]
    fn planner_and_scout_beat_random_and_the_planner_beats_the_scout() {
        use crate::core::runner::{MatchConfig, run_match};
        let dir = crate::manifest_dir().join("../../levels/robots/07-hints.ron");
        let file = crate::level::load(&dir).unwrap();
        let level = file.get::<Robots>().unwrap();
        let config = MatchConfig { games: 60, seed: 4, jobs: 2, record_moves: false, ..Default::default() };
        let wins = |a: &str, b: &str| {
            let agents = [a.parse().unwrap(), b.parse().unwrap()];
            run_match::<Robots>(level, &agents, &config, &mut |_| {}, &|_| {}).unwrap().wins[0]
        };
        assert!(wins("planner", "random") >= 59);
        assert!(wins("planner", "scout") >= 48);
        assert!(wins("scout", "random") > 30);
    }
}

#[test]
fn ids_go_past_z_with_letters_that_have_a_lowercase_home() {
    use super::level::{MAX_ROBOTS, home_char, is_robot_id, robot_ids, robot_of_home};
    let ids: Vec<char> = robot_ids().take(MAX_ROBOTS).collect();
    assert_eq!(ids.len(), MAX_ROBOTS, "enough ids for the largest level");
    assert_eq!(ids[..25].iter().collect::<String>(), "ABCDEFGHIJKLMNOPQRSTUWXYZ");
    assert_eq!(ids[25], '\u{C0}', "then À");
    for &id in &ids {
        assert!(is_robot_id(id), "{id}");
        assert_eq!(robot_of_home(home_char(id)), Some(id), "{id}'s home names it");
    }
    assert!(!is_robot_id('V') && robot_of_home('v').is_none(), "v stays a conveyor");
    assert!(!is_robot_id('a') && !is_robot_id('1') && !is_robot_id('ß'));
    let mut sorted = ids.clone();
    sorted.sort_unstable();
    sorted.dedup();
    assert_eq!(sorted.len(), ids.len(), "no id twice");
}

#[test]
fn a_generated_board_with_a_hundred_robots_reads_back_from_its_file() {
    let level = super::generate::generate(super::generate::Plan::new(64, 64, 100, 4, 5)).unwrap();
    let text = crate::level::to_ron(&crate::level::LevelFile::new::<Robots>(level.clone()));
    let back = crate::level::parse(&text, "big.ron").unwrap();
    let back = back.get::<Robots>().unwrap();
    assert_eq!(*back, level);
    let board = Robots::new(back, 0).unwrap();
    assert_eq!(board.robots().len(), 100);
    assert_eq!(board.rows(), level.board, "homes drawn with their letters");
}

/// The hand-worked cases of docs/rules/robot-board.md not covered above.
mod worked_cases {
    use super::*;

    #[test]
    fn seed_001_prints_hints_for_a_robot_facing_east() {
        use Hint::*;
        let east = [(1, 0), (0, -1), (0, 1), (-1, 0)].map(|(dx, dy)| Hint::toward(dx, dy, East));
        assert_eq!(east, [Ahead, Left, Right, Behind], "east, north, south, west");
    }

    #[test]
    fn a_quarter_turn_from_north_faces_west() {
        let mut g =
            game(&["a..", "...", "..b"], &[('A', (1, 1), North, B, 1), ('B', (0, 2), North, A, 2)], 0);
        play(&mut g, RobotMove::Rotate { robot: 'A', quarters: 1 });
        assert_eq!(g.robot('A').unwrap().facing, West);
    }

    #[test]
    fn a_belt_turns_a_robot_by_its_own_angle_whatever_it_faces() {
        // A faces North and steps East onto an East belt that turns South:
        // a quarter clockwise, so A then faces East.
        let mut g =
            game(&[".>v", "...", "a.b"], &[('A', (0, 0), North, A, 1), ('B', (0, 1), North, B, 2)], 0);
        play(&mut g, RobotMove::Step { robot: 'A', dir: East });
        let a = g.robot('A').unwrap();
        assert_eq!((a.at, a.facing), ((2, 1), East));
    }

    #[test]
    fn a_walk_over_the_robots_home_does_not_win() {
        let mut g =
            game(&["...", "a..", "...", "..b"], &[('A', (0, 0), South, B, 1), ('B', (2, 0), North, A, 2)], 0);
        play(&mut g, RobotMove::Forward { robot: 'A', steps: 2 });
        assert_eq!((g.outcome(), g.robot('A').unwrap().at), (None, (0, 2)));
    }

    /// A takes a hint at (0,0) and steps onto the belt at (1,0), whose next
    /// tile B holds; C (player 2's second robot) marks time.
    fn waiting_with_a_hint() -> Robots {
        let mut g = game(
            &["?>..", "....", "...c", "a..b"],
            &[('A', (0, 1), North, B, 1), ('B', (2, 0), North, A, 2), ('C', (3, 1), North, A, 2)],
            0,
        );
        play(&mut g, RobotMove::Forward { robot: 'A', steps: 1 });
        play(&mut g, RobotMove::Step { robot: 'C', dir: West });
        play(&mut g, RobotMove::Rotate { robot: 'A', quarters: 3 }); // East
        play(&mut g, RobotMove::Step { robot: 'C', dir: East });
        g
    }

    #[test]
    fn a_blocked_ride_keeps_the_hints_until_a_belt_moves_the_robot() {
        let mut g = waiting_with_a_hint();
        let steps = play(&mut g, RobotMove::Forward { robot: 'A', steps: 1 });
        assert_eq!(g.robot('A').unwrap().at, (1, 0), "A waits on the belt");
        assert_eq!(g.robot('A').unwrap().hints, [Hint::Behind], "not carried: the hint stays");
        assert!(!steps.iter().any(|s| matches!(s, RobotStep::HintsCleared { .. })));
        // B steps away: the settle carries A on and clears its hints.
        let steps = play(&mut g, RobotMove::Step { robot: 'B', dir: South });
        assert!(steps.contains(&RobotStep::HintsCleared { robot: 'A' }), "{steps:?}");
        assert_eq!(g.robot('A').unwrap().at, (2, 0));
        assert!(g.robot('A').unwrap().hints.is_empty());
    }

    #[test]
    fn an_exchange_clears_the_hints_of_the_robots_it_carries_and_gives_none() {
        // A takes a hint at (0,1) and walks on to the plain (0,2); player 2
        // exchanges that tile with (1,2).
        let mut h = game(
            &["....", "?...", "...c", "a..b"],
            &[('A', (0, 0), South, B, 1), ('B', (2, 0), North, A, 2), ('C', (3, 1), North, A, 2)],
            1,
        );
        play(&mut h, RobotMove::Forward { robot: 'A', steps: 1 }); // hint at (0,1)
        play(&mut h, RobotMove::Step { robot: 'C', dir: West });
        play(&mut h, RobotMove::Forward { robot: 'A', steps: 1 }); // (0,2), hint kept
        assert_eq!(h.robot('A').unwrap().hints.len(), 1);
        let steps = play(&mut h, RobotMove::Exchange { a: (0, 2), b: (1, 2) });
        assert_eq!(h.robot('A').unwrap().at, (1, 2), "A travels with its tile");
        assert!(steps.contains(&RobotStep::HintsCleared { robot: 'A' }));
        assert!(!steps.iter().any(|s| matches!(s, RobotStep::HintGiven { .. })));
        assert!(h.robot('A').unwrap().hints.is_empty());
    }

    #[test]
    fn the_move_cap_ends_the_game_as_a_draw_and_then_nothing_moves() {
        let mut lvl =
            level(&["a..", "...", "..b"], &[('A', (1, 1), North, B, 1), ('B', (0, 2), North, A, 2)], 0);
        lvl.move_cap = 2;
        let mut g = Robots::new(&lvl, 0).unwrap();
        play(&mut g, RobotMove::Rotate { robot: 'A', quarters: 1 });
        assert_eq!(g.outcome(), None);
        play(&mut g, RobotMove::Step { robot: 'B', dir: North });
        assert_eq!(g.outcome(), Some(Outcome::Draw), "every move counts toward the cap");
        assert_eq!(refused(&mut g, RobotMove::Rotate { robot: 'A', quarters: 1 }), RobotsError::GameOver);
    }

    #[test]
    fn a_pass_counts_toward_the_move_cap() {
        // A is boxed in by B and C: a pass is its only request.
        let mut lvl = level(
            &["....", "....", "..a.", "bc.."],
            &[('A', (0, 0), North, A, 1), ('B', (1, 0), South, B, 2), ('C', (0, 1), North, A, 2)],
            0,
        );
        lvl.move_cap = 1;
        let mut g = Robots::new(&lvl, 0).unwrap();
        let steps = play(&mut g, RobotMove::Pass);
        assert_eq!(steps, [RobotStep::Began { by: Player::ONE }, RobotStep::Ended(Outcome::Draw)]);
    }

    #[test]
    fn a_ride_that_ends_on_a_hint_tile_clears_the_hints_then_gives_the_new_one() {
        let mut g = game(
            &[".....", "?>>?.", ".....", "b...a"],
            &[('A', (0, 0), North, A, 1), ('B', (4, 0), North, B, 2)],
            0,
        );
        // On (0,1), facing North, home (4,3) lies south-east: behind right.
        play(&mut g, RobotMove::Step { robot: 'A', dir: South });
        assert_eq!(g.robot('A').unwrap().hints, [Hint::BehindRight]);
        play(&mut g, RobotMove::Rotate { robot: 'B', quarters: 1 });
        let steps = play(&mut g, RobotMove::Step { robot: 'A', dir: East });
        assert_eq!(
            steps,
            [
                RobotStep::Began { by: Player::ONE },
                RobotStep::Walked { robot: 'A', to: (1, 1) },
                RobotStep::Rode { robot: 'A', to: (2, 1), facing: North },
                RobotStep::Rode { robot: 'A', to: (3, 1), facing: North },
                RobotStep::HintsCleared { robot: 'A' },
                RobotStep::HintGiven { robot: 'A', hint: Hint::BehindRight },
                RobotStep::TurnChanged { to: Player::TWO },
            ]
        );
        assert_eq!(g.robot('A').unwrap().hints, [Hint::BehindRight], "the old hint gone, the new one held");
    }

    #[test]
    fn the_acting_robot_home_by_its_walk_wins_before_the_board_settles() {
        // As `belt`, but E's home is (5,0), one step north: X waits on the
        // belt for E's tile, which is X's home.
        let mut g = belt_on(&["..f..e..", ".>>>>x..", "........", "y...b..."], 0);
        fill_the_belt(&mut g);
        let steps = play(&mut g, RobotMove::Step { robot: 'E', dir: North });
        assert!(!steps.iter().any(|s| matches!(s, RobotStep::Carried { .. })), "{steps:?}");
        assert!(
            steps.ends_with(&[RobotStep::Won { robot: 'E' }, RobotStep::Ended(Outcome::Win(Player::ONE))])
        );
        assert_eq!(at(&g, 'X').0, (4, 1), "X was not carried home");
    }

    #[test]
    fn robots_home_in_the_same_settle_round_win_in_seat_order_from_the_acting_player() {
        // X (player 3) and Y (player 2) wait on conveyors pointing at broken
        // robots. Player 1 exchanges their two tiles: each conveyor turns a
        // quarter counter-clockwise to point West, onto the other's home,
        // and both arrive in round 1. Player 2 comes first after player 1.
        let mut g = game(
            &[".#..#.", "y^.x^.", "......", "a....."],
            &[('A', (5, 3), North, A, 1), ('X', (1, 2), North, A, 3), ('Y', (4, 2), North, B, 2)],
            1,
        );
        play(&mut g, RobotMove::Step { robot: 'A', dir: West });
        play(&mut g, RobotMove::Forward { robot: 'Y', steps: 1 });
        play(&mut g, RobotMove::Step { robot: 'X', dir: North });
        assert_eq!((at(&g, 'X').0, at(&g, 'Y').0), ((1, 1), (4, 1)), "both wait on their belts");
        let steps = play(&mut g, RobotMove::Exchange { a: (1, 1), b: (4, 1) });
        assert_eq!(
            steps[2..],
            [
                RobotStep::Carried { robot: 'X', to: (3, 1), facing: West, round: 1 },
                RobotStep::Carried { robot: 'Y', to: (0, 1), facing: West, round: 1 },
                RobotStep::Won { robot: 'Y' },
                RobotStep::Ended(Outcome::Win(Player::TWO)),
            ]
        );
    }

    #[test]
    fn a_robot_that_stranded_itself_by_walking_does_not_block_exchanges() {
        // R steps onto the belt into the walled pit at the bottom: it can
        // never get out. An exchange that moves R within the pit is legal.
        let mut g = game(
            &["r.....", "q.....", "####v#", "###..#", "###..#"],
            &[('R', (4, 1), North, A, 1), ('Q', (5, 0), West, B, 2)],
            1,
        );
        play(&mut g, RobotMove::Step { robot: 'R', dir: South });
        assert_eq!(at(&g, 'R').0, (4, 3), "walks are never refused for reachability");
        let swap = RobotMove::Exchange { a: (3, 3), b: (4, 3) };
        let mut moves = Vec::new();
        g.moves(&mut moves);
        assert!(moves.contains(&swap));
        play(&mut g, swap);
        assert_eq!(at(&g, 'R').0, (3, 3));
    }
}
