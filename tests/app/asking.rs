//! Leaving a game under way asks first, as quitting does; F1 lists the
//! keys, and while the list or a question is open no key reaches the board.

use super::*;
use tabula::app::ask::{Asking, Question};
use tabula::app::help::ScreenKeys;
use tabula::app::session::GameInProgress;

fn with_keys(name: &str) -> App {
    seated_with_keys(name, vec![seat("Ann", None), seat("Bob", None)])
}

/// A game of Nim on 3-4-5 with the game screen's keys, F1's list and the
/// questions, `seats` at the table.
fn seated_with_keys(name: &str, seats: Vec<SeatSetup>) -> App {
    let dir = temp_dir(name);
    let mut app = headless(&dir);
    app.add_plugins(bevy::input::InputPlugin)
        .init_resource::<bevy_egui::input::EguiWantsInput>()
        .add_plugins((tabula::app::controls::plugin, tabula::app::help::plugin, tabula::app::ask::plugin));
    start(&mut app, nim_level(&[3, 4, 5], Ending::Misere), None, seats);
    app
}

fn screen(app: &App) -> Screen {
    *app.world().resource::<State<Screen>>().get()
}

#[test]
fn esc_before_a_move_leaves_at_once() {
    let mut app = with_keys("ask-no-moves");
    assert!(!app.world().resource::<GameInProgress>().0);
    press(&mut app, &[KeyCode::Escape]);
    frames(&mut app, 2);
    assert_eq!(screen(&app), Screen::Menu);
}

#[test]
fn esc_in_a_game_under_way_asks_and_only_enter_leaves() {
    let mut app = with_keys("ask-leave");
    request(&mut app, 0, 0, 1);
    frames(&mut app, 1);
    assert!(app.world().resource::<GameInProgress>().0);
    press(&mut app, &[KeyCode::Escape]);
    assert_eq!(app.world().resource::<Asking>().0, Some(Question::LeaveGame));
    // Keys meant for the board do nothing while asked: U would undo.
    press(&mut app, &[KeyCode::KeyU]);
    assert_eq!(session(&app).moves.len(), 1, "the question took the key");
    // Esc answers no: the game goes on.
    press(&mut app, &[KeyCode::Escape]);
    frames(&mut app, 2);
    assert_eq!(app.world().resource::<Asking>().0, None);
    assert_eq!(screen(&app), Screen::Game);
    press(&mut app, &[KeyCode::Escape, KeyCode::Enter]);
    frames(&mut app, 2);
    assert_eq!(screen(&app), Screen::Menu);
    assert!(!app.world().resource::<GameInProgress>().0);
}

#[test]
fn f1_opens_the_keys_and_esc_closes_them_without_leaving() {
    let mut app = with_keys("help-keys");
    request(&mut app, 0, 0, 1);
    press(&mut app, &[KeyCode::F1]);
    assert!(app.world().resource::<ScreenKeys>().open);
    // Enter would take stones; with the list open it reaches nothing.
    press(&mut app, &[KeyCode::ArrowDown, KeyCode::Enter]);
    assert_eq!(session(&app).moves.len(), 1);
    press(&mut app, &[KeyCode::Escape]);
    assert!(!app.world().resource::<ScreenKeys>().open);
    assert_eq!(app.world().resource::<Asking>().0, None, "Esc closed the list, nothing else");
    assert_eq!(screen(&app), Screen::Game);
    // ? opens it too, by the character typed, wherever the layout puts it.
    use bevy::input::keyboard::{Key, KeyboardInput};
    app.world_mut().write_message(KeyboardInput {
        key_code: KeyCode::Minus,
        logical_key: Key::Character("?".into()),
        state: bevy::input::ButtonState::Pressed,
        text: Some("?".into()),
        repeat: false,
        window: Entity::PLACEHOLDER,
    });
    frames(&mut app, 1);
    assert!(app.world().resource::<ScreenKeys>().open, "? opens the list");
}

#[test]
fn the_list_names_more_keys_than_the_line_has_room_for() {
    use tabula::app::help::Controls;
    use tabula::app::help::key;
    let controls = Controls::new("", &[key("Enter", "take")]).also(&[key("O", "open a replay")]);
    assert!(!controls.line().contains("open a replay"), "{}", controls.line());
    assert_eq!(controls.more, [key("O", "open a replay")]);
}

#[test]
fn a_refusal_in_a_game_is_not_carried_into_the_menu() {
    let mut app = with_keys("menu-status");
    press(&mut app, &[KeyCode::Enter]);
    assert!(app.world().resource::<StatusLine>().error, "Enter with nothing chosen is refused");
    press(&mut app, &[KeyCode::Escape]);
    frames(&mut app, 2);
    assert_eq!(screen(&app), Screen::Menu);
    assert!(status(&app).is_empty(), "{}", status(&app));
}

/// O opens the replays at once before a move, but over a game under way
/// asks first (choosing a replay ends the game): Esc stays, Enter opens.
#[test]
fn o_over_a_game_under_way_asks_before_the_replays_open() {
    use tabula::app::controls::ReplayBrowser;
    let mut app = with_keys("ask-replay");
    let browsing = |app: &App| app.world().resource::<ReplayBrowser>().open;
    press(&mut app, &[KeyCode::KeyO]);
    frames(&mut app, 1);
    assert!(browsing(&app), "no game under way: the replays open at once");
    press(&mut app, &[KeyCode::Escape]);
    assert!(!browsing(&app) && screen(&app) == Screen::Game, "Esc closes them, the game stays");
    request(&mut app, 0, 0, 1);
    frames(&mut app, 1);
    press(&mut app, &[KeyCode::KeyO]);
    frames(&mut app, 1);
    assert_eq!(app.world().resource::<Asking>().0, Some(Question::OpenReplay));
    assert!(!browsing(&app), "asked first");
    press(&mut app, &[KeyCode::Escape]);
    frames(&mut app, 1);
    assert!(!browsing(&app) && app.world().resource::<Asking>().0.is_none(), "Esc: no replays");
    assert_eq!(session(&app).moves.len(), 1, "the game goes on");
    press(&mut app, &[KeyCode::KeyO]);
    press(&mut app, &[KeyCode::Enter]);
    frames(&mut app, 1);
    assert!(browsing(&app), "Enter: the replays to choose from");
}

/// How many resignations the window asked of its table.
#[derive(Resource, Default)]
struct Resigned(usize);

fn count_resignations(
    mut asked: MessageReader<tabula::app::session::SessionRequest>,
    mut resigned: ResMut<Resigned>,
) {
    resigned.0 += asked.read().filter(|r| matches!(r, tabula::app::session::SessionRequest::Resign)).count();
}

/// Resign (at a server's table) asks first: Esc takes it back, Enter resigns.
#[test]
fn resigning_asks_first() {
    let mut app = with_keys("ask-resign");
    app.init_resource::<Resigned>().add_systems(Update, count_resignations);
    // What the Resign button does.
    app.world_mut().resource_mut::<Asking>().0 = Some(Question::Resign);
    press(&mut app, &[KeyCode::Escape]);
    frames(&mut app, 1);
    assert_eq!(app.world().resource::<Resigned>().0, 0, "Esc: not resigned");
    assert_eq!(app.world().resource::<Asking>().0, None);
    app.world_mut().resource_mut::<Asking>().0 = Some(Question::Resign);
    press(&mut app, &[KeyCode::Enter]);
    frames(&mut app, 1);
    assert_eq!(app.world().resource::<Resigned>().0, 1, "Enter: resigned, once");
}

/// T turns the teaching overlay on where the board teaches (Nim), and where
/// it does not (the Robot board) says why instead of doing nothing.
#[test]
fn t_teaches_where_the_board_can_and_says_why_not_elsewhere() {
    use tabula::app::teach::Teaching;
    let mut app = with_keys("teach-key");
    frames(&mut app, 2);
    press(&mut app, &[KeyCode::KeyT]);
    assert!(app.world().resource::<Teaching>().on, "Nim's board teaches");
    press(&mut app, &[KeyCode::KeyT]);
    assert!(!app.world().resource::<Teaching>().on);
    let path = crate::manifest_dir().join("levels/robots/01-first-steps.ron");
    let robots = level::load(&path).unwrap();
    start(&mut app, robots, Some(path), vec![seat("Ann", None), seat("Bob", Some("planner"))]);
    frames(&mut app, 2);
    press(&mut app, &[KeyCode::KeyT]);
    assert!(!app.world().resource::<Teaching>().on, "nothing to turn on");
    assert!(status(&app).contains("does not teach"), "said why: {}", status(&app));
}

/// While the list of keys covers the board, the other's agent waits: its
/// move (a slip to Stop, say) would be made unseen behind it.
#[test]
fn the_agents_wait_while_the_keys_are_listed() {
    let mut app = seated_with_keys("help-agents-wait", vec![seat("Ann", None), seat("Bob", Some("random"))]);
    request(&mut app, 0, 0, 1);
    press(&mut app, &[KeyCode::F1]);
    assert!(app.world().resource::<ScreenKeys>().open);
    // Far longer than the agent's pause (FRAME is the frame's time).
    frames(&mut app, 600);
    assert_eq!(session(&app).moves.len(), 1, "Bob moved behind the list of keys");
    press(&mut app, &[KeyCode::F1]);
    wait_for(&mut app, "Bob's move once the list is closed", |app| session(app).moves.len() == 2);
}
