//! The player's choices on the board: a robot chosen lights the tiles its
//! requests lead to (after its ride); a click there, or a key, requests the
//! walk or turn; X picks two tiles to exchange; Enter passes. The top bar
//! says what the choice would do.

use bevy::prelude::*;
use tabula_engine::Player;
use tabula_engine::robots::{Dir, Pos, RobotMove, Robots, RuleSet, tile_name};

use super::{RobotLayout, TILE, art};
use crate::app::board::{BoardPointer, digits_pressed};
use crate::app::game::{ActiveGame, WindowGame};
use crate::app::glide::Glide;
use crate::app::session::{MovePreview, RequestMove, Session, StatusLine};

/// A lit tile: where a request of the chosen robot leads.
#[derive(Component, Debug)]
pub struct Destination(pub RobotMove);

/// A tile picked for an exchange.
#[derive(Component, Debug)]
pub(super) struct SwapMark;

/// What the player has chosen on the board.
#[derive(Resource, Debug, Default)]
pub struct RobotChoice {
    pub selected: Option<char>,
    pub swapping: bool,
    pub swap_first: Option<Pos>,
    /// The board drawn for these lit tiles (rebuilt when either changes).
    lit_for: Option<(char, u32)>,
}

/// Lights the tiles the chosen robot's requests lead to, and the tile
/// picked for an exchange.
pub(super) fn show_destinations(
    mut commands: Commands,
    session: Res<Session<Robots>>,
    mut choice: ResMut<RobotChoice>,
    layout: Res<RobotLayout>,
    lit: Query<Entity, Or<(With<Destination>, With<SwapMark>)>>,
    moving: Query<(), With<Glide>>,
) {
    let view = session.view();
    let human = session.human_to_move();
    if human.is_none()
        || choice.selected.is_some_and(|id| view.robot(id).is_none_or(|r| Some(r.player) != human))
    {
        choice.selected = None;
    }
    let key = choice
        .selected
        .map(|id| (id, view.plies()))
        .or(choice.swap_first.map(|p| ('#', p.0 as u32 * 65536 + p.1 as u32 + view.plies() * 7)));
    let busy = !moving.is_empty();
    if choice.lit_for == key && !busy {
        return;
    }
    for entity in &lit {
        commands.entity(entity).despawn();
    }
    choice.lit_for = if busy { None } else { key };
    if busy {
        return;
    }
    if let Some(id) = choice.selected {
        for (mv, to, _) in view.destinations(id) {
            if matches!(mv, RobotMove::Rotate { .. }) {
                continue;
            }
            let at = layout.position(to);
            commands.spawn((
                Destination(mv),
                Sprite::from_color(art::TARGET, Vec2::splat(TILE - 10.0)),
                Transform::from_xyz(at.x, at.y, 1.0),
                DespawnOnExit(ActiveGame::of::<Robots>()),
            ));
        }
    }
    if let Some(p) = choice.swap_first {
        let at = layout.position(p);
        commands.spawn((
            SwapMark,
            Sprite::from_color(art::SWAP_PICK, Vec2::splat(TILE - 6.0)),
            Transform::from_xyz(at.x, at.y, 1.0),
            DespawnOnExit(ActiveGame::of::<Robots>()),
        ));
    }
}

/// Says what the player's choice would do.
pub(super) fn describe_choice(
    session: Res<Session<Robots>>,
    choice: Res<RobotChoice>,
    mut preview: ResMut<MovePreview>,
) {
    let view = session.view();
    let text = match session.human_to_move() {
        None => String::new(),
        Some(p) if choice.swapping => {
            let left = view.swaps_left(p);
            match choice.swap_first {
                None => {
                    format!("Exchange ({left} left): click the first tile (not a home or hint); X to stop.")
                }
                Some(a) => format!("Exchange {} with…: click the second tile.", tile_name(a, view.height())),
            }
        }
        Some(_) => match choice.selected.and_then(|id| view.robot(id)) {
            Some(r) if r.rule == RuleSet::A => {
                format!("Robot {} (rule A): click a green tile or press an arrow to step.", r.id)
            }
            Some(r) => format!(
                "Robot {} (rule B): click a green tile, Up or 1-3 to walk, Left/Right/Down to turn.",
                r.id
            ),
            None => "Click one of your robots (or N) to see where it can go.".into(),
        },
    };
    if preview.0 != text {
        preview.0 = text;
    }
}

fn own_robots(view: &Robots, player: Player) -> Vec<char> {
    view.robots().iter().filter(|r| r.player == player).map(|r| r.id).collect()
}

pub(super) fn click_board(
    pointer: BoardPointer,
    mouse: Res<ButtonInput<MouseButton>>,
    session: Res<Session<Robots>>,
    layout: Res<RobotLayout>,
    mut choice: ResMut<RobotChoice>,
    destinations: Query<(&Destination, &Transform)>,
    mut requests: MessageWriter<RequestMove<Robots>>,
    mut status: ResMut<StatusLine>,
) {
    if !mouse.just_pressed(MouseButton::Left) {
        return;
    }
    let Some(point) = pointer.world() else { return };
    let Some(tile) = layout.tile_at(point) else { return };
    let Some(by) = session.requester() else { return };
    let view = session.view();
    if choice.swapping {
        match swap_click(&view, choice.swap_first, tile) {
            SwapClick::First(a) => choice.swap_first = Some(a),
            // Still exchanging: the player picks another tile.
            SwapClick::Refused(why) => status.error(why),
            SwapClick::Request(mv) => {
                choice.swap_first = None;
                choice.swapping = false;
                requests.write(RequestMove { by, mv });
            }
        }
        return;
    }
    if let Some(robot) = view.robot_at(tile).filter(|r| r.player == by) {
        choice.selected = Some(robot.id);
        return;
    }
    let target = layout.position(tile);
    let chosen = destinations.iter().find(|(_, t)| t.translation.truncate().distance(target) < 1.0);
    match (chosen, choice.selected.and_then(|id| view.robot(id))) {
        (Some((Destination(mv), _)), _) => {
            requests.write(RequestMove { by, mv: *mv });
        }
        // The robot stays chosen; the player learns why not there.
        (None, Some(robot)) => status.error(why_not(&view, robot.id, tile)),
        (None, None) => {}
    }
}

/// What a click on a tile does in exchange mode.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SwapClick {
    /// The first tile is picked.
    First(Pos),
    /// The tile cannot be exchanged; the first pick, if any, stays.
    Refused(String),
    /// Both tiles are picked: the exchange is asked for.
    Request(RobotMove),
}

/// Homes and hint tiles are refused at once, before the second click.
pub fn swap_click(view: &Robots, first: Option<Pos>, tile: Pos) -> SwapClick {
    use tabula_engine::robots::Tile;
    let what = match view.tile(tile) {
        Tile::Home(_) => Some("a home"),
        Tile::Hint => Some("a hint tile"),
        _ => None,
    };
    match (what, first) {
        (Some(what), _) => SwapClick::Refused(format!(
            "{} is {what}: homes and hint tiles stay where they are. Pick another tile, or X to stop.",
            tile_name(tile, view.height())
        )),
        (None, None) => SwapClick::First(tile),
        (None, Some(first)) if first == tile => {
            SwapClick::Refused("That tile is already picked: pick a second one.".to_owned())
        }
        (None, Some(first)) => {
            let (a, b) = if (first.1, first.0) <= (tile.1, tile.0) { (first, tile) } else { (tile, first) };
            SwapClick::Request(RobotMove::Exchange { a, b })
        }
    }
}

/// Why robot `id` cannot end its move on `tile`: the engine's reason for
/// the walk that would go there, or how the robot walks.
pub fn why_not(view: &Robots, id: char, tile: Pos) -> String {
    let Some(robot) = view.robot(id) else { return String::new() };
    let (dx, dy) = (tile.0 as i32 - robot.at.0 as i32, tile.1 as i32 - robot.at.1 as i32);
    let at = tile_name(tile, view.height());
    let walk = match robot.rule {
        RuleSet::A => {
            Dir::ALL.into_iter().find(|d| d.delta() == (dx, dy)).map(|dir| RobotMove::Step { robot: id, dir })
        }
        RuleSet::B => (1..=3u8)
            .find(|&n| {
                robot.facing.delta() == (dx / n as i32, dy / n as i32) && dx.abs().max(dy.abs()) == n as i32
            })
            .map(|steps| RobotMove::Forward { robot: id, steps }),
    };
    let Some(walk) = walk else {
        return match robot.rule {
            RuleSet::A => format!("{id} cannot reach {at} in one move: it steps one tile (rule A)"),
            RuleSet::B => format!(
                "{id} cannot reach {at} in one move: it walks 1 to 3 tiles straight ahead, facing {:?}, or turns (rule B)",
                robot.facing
            ),
        };
    };
    let mut trial = view.clone();
    match tabula_engine::Game::apply(&mut trial, robot.player, walk) {
        Err(e) => format!("{id} cannot go to {at}: {}", <Robots as WindowGame>::refusal(view, &e)),
        Ok(_) => format!("{id} does not stop on {at}: a belt carries it on from there"),
    }
}

pub(super) fn request_with_keys(
    keys: Res<ButtonInput<KeyCode>>,
    session: Res<Session<Robots>>,
    mut choice: ResMut<RobotChoice>,
    mut requests: MessageWriter<RequestMove<Robots>>,
    mut status: ResMut<StatusLine>,
) {
    let Some(by) = session.requester() else { return };
    let view = session.view();
    let own = own_robots(&view, by);
    if keys.just_pressed(KeyCode::KeyN) && !own.is_empty() {
        let next = choice
            .selected
            .and_then(|id| own.iter().position(|&o| o == id))
            .map_or(0, |i| (i + 1) % own.len());
        choice.selected = Some(own[next]);
    }
    if keys.just_pressed(KeyCode::KeyX) {
        choice.swapping = !choice.swapping;
        choice.swap_first = None;
    }
    if keys.just_pressed(KeyCode::Enter) || keys.just_pressed(KeyCode::NumpadEnter) {
        requests.write(RequestMove { by, mv: RobotMove::Pass });
    }
    // Shift and an arrow pan the view (`zoom`).
    if keys.any_pressed([KeyCode::ShiftLeft, KeyCode::ShiftRight]) {
        return;
    }
    let pressed = BoardKeys {
        arrow: ARROWS.into_iter().find(|&(k, _)| keys.just_pressed(k)).map(|(_, dir)| dir),
        walk: digits_pressed(&keys).find(|d| (1..=3).contains(d)),
    };
    let Some(robot) = choice.selected.or(own.first().copied()).and_then(|id| view.robot(id)) else { return };
    match key_request(robot, choice.selected.is_some(), pressed) {
        Ok(Some(mv)) => {
            choice.selected = Some(robot.id);
            requests.write(RequestMove { by, mv });
        }
        Ok(None) => {}
        Err(why) => status.error(why),
    }
}

/// The arrow keys, as the directions a rule A robot steps.
const ARROWS: [(KeyCode, Dir); 4] = [
    (KeyCode::ArrowUp, Dir::North),
    (KeyCode::ArrowRight, Dir::East),
    (KeyCode::ArrowDown, Dir::South),
    (KeyCode::ArrowLeft, Dir::West),
];

/// The board's move keys pressed this frame: an arrow, and a digit 1 to 3.
#[derive(Debug, Clone, Copy, Default)]
pub struct BoardKeys {
    pub arrow: Option<Dir>,
    pub walk: Option<u8>,
}

/// What the keys ask of `robot` (the chosen one, or, with none `chosen`,
/// the player's first): a request, nothing, or why the keys do nothing, for
/// the status line. Rule A steps by the arrows; rule B walks by Up or 1-3
/// and turns by Left (a quarter counter-clockwise), Down and Right.
pub fn key_request(
    robot: &tabula_engine::robots::Robot,
    chosen: bool,
    keys: BoardKeys,
) -> Result<Option<RobotMove>, String> {
    let id = robot.id;
    let request = match robot.rule {
        RuleSet::A => keys.arrow.map(|dir| RobotMove::Step { robot: id, dir }),
        RuleSet::B => match (keys.walk, keys.arrow) {
            (Some(steps), _) => Some(RobotMove::Forward { robot: id, steps }),
            (None, Some(Dir::North)) => Some(RobotMove::Forward { robot: id, steps: 1 }),
            (None, Some(dir)) => {
                let quarters = if dir == Dir::West {
                    1
                } else if dir == Dir::South {
                    2
                } else {
                    3
                };
                Some(RobotMove::Rotate { robot: id, quarters })
            }
            (None, None) => None,
        },
    };
    match request {
        Some(mv) => Ok(Some(mv)),
        // Only a digit can ask nothing of a robot: a rule A one.
        None if keys.walk.is_none() => Ok(None),
        None if !chosen => Err("Choose a robot first: click it or press N (1-3 walk a rule B robot).".into()),
        None => Err(format!("Robot {id} follows rule A: it steps with the arrows; 1-3 walk a rule B robot.")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn swap_puzzle() -> Robots {
        let file =
            tabula_engine::level::load(std::path::Path::new("levels/robots/09-swap-puzzle.ron")).unwrap();
        <Robots as tabula_engine::Game>::new(file.get::<Robots>().unwrap(), 0).unwrap()
    }

    #[test]
    fn exchange_mode_refuses_homes_and_hints_at_the_click_and_goes_on() {
        let board = swap_puzzle();
        // (1,0) is a hint tile, (2,4) A's home: refused, nothing picked.
        assert!(matches!(swap_click(&board, None, (1, 0)), SwapClick::Refused(why) if why.contains("hint")));
        assert!(matches!(swap_click(&board, None, (2, 4)), SwapClick::Refused(why) if why.contains("home")));
        assert_eq!(swap_click(&board, None, (2, 3)), SwapClick::First((2, 3)));
        assert!(matches!(swap_click(&board, Some((2, 3)), (2, 4)), SwapClick::Refused(_)));
        assert!(matches!(swap_click(&board, Some((2, 3)), (2, 3)), SwapClick::Refused(_)));
        assert_eq!(
            swap_click(&board, Some((2, 3)), (0, 0)),
            SwapClick::Request(RobotMove::Exchange { a: (0, 0), b: (2, 3) })
        );
    }

    #[test]
    fn keys_ask_the_robot_for_what_its_rule_allows_and_say_why_not() {
        let board = swap_puzzle();
        let (a, b) = (board.robot('A').unwrap(), board.robot('B').unwrap());
        let arrow = |dir| BoardKeys { arrow: Some(dir), walk: None };
        let digit = |d| BoardKeys { arrow: None, walk: Some(d) };
        assert_eq!(
            key_request(a, true, arrow(Dir::East)),
            Ok(Some(RobotMove::Step { robot: 'A', dir: Dir::East }))
        );
        assert_eq!(key_request(a, true, BoardKeys::default()), Ok(None));
        // 1-3 with no robot chosen, the first being rule A: said, not silent.
        let none_chosen = key_request(a, false, digit(2)).unwrap_err();
        assert!(none_chosen.starts_with("Choose a robot first: click it or press N"), "{none_chosen}");
        assert!(key_request(a, true, digit(2)).unwrap_err().contains("follows rule A"));
        assert_eq!(key_request(b, false, digit(2)), Ok(Some(RobotMove::Forward { robot: 'B', steps: 2 })));
        assert_eq!(
            key_request(b, true, arrow(Dir::North)),
            Ok(Some(RobotMove::Forward { robot: 'B', steps: 1 }))
        );
        // Left is a quarter counter-clockwise, Right three of them.
        let turn = |dir| key_request(b, true, arrow(dir)).unwrap().unwrap();
        assert_eq!(turn(Dir::West), RobotMove::Rotate { robot: 'B', quarters: 1 });
        assert_eq!(turn(Dir::South), RobotMove::Rotate { robot: 'B', quarters: 2 });
        assert_eq!(turn(Dir::East), RobotMove::Rotate { robot: 'B', quarters: 3 });
    }

    #[test]
    fn a_tile_a_robot_cannot_reach_says_why() {
        let board = swap_puzzle();
        // A (rule A) at (0,0); B (rule B) at (9,0) facing West, with a
        // broken tile four tiles ahead at (5,0).
        assert!(why_not(&board, 'A', (4, 4)).contains("steps one tile (rule A)"));
        assert!(why_not(&board, 'B', (9, 2)).contains("straight ahead, facing West"));
        assert!(why_not(&board, 'B', (5, 0)).contains("1 to 3 tiles"));
    }
}
