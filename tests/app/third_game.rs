//! A third game, with three seats and hidden information, joins through the
//! same one-line registration as Nim and Mancala, passes the conformance
//! test, and plays in the window: each screen shows only its seat's secret,
//! and undo stops at a shown secret.

use super::toy::{Tally, TallyLevel, TallyMove};
use super::*;
use tabula::app::game::ActiveGame;
use tabula::app::registry as window_game;

fn tally() -> TallyLevel {
    TallyLevel { name: "three".into(), seats: 3, target: 12, secrets: None }
}

#[test]
fn passes_the_conformance_test_with_three_and_eight_seats() {
    tabula_engine::core::conformance::check_random_games::<Tally>(&tally(), 200, 1);
    let eight = TallyLevel { seats: 8, ..tally() };
    tabula_engine::core::conformance::check_random_games::<Tally>(&eight, 50, 2);
}

#[test]
fn an_edit_that_changes_the_number_of_players_is_refused_and_the_game_goes_on() {
    let dir = temp_dir("tally-reload");
    let mut app = headless(&dir);
    app.add_plugins(window_game::register::<Tally>);
    let path = dir.join("tally.ron");
    std::fs::write(&path, "Tally(name: \"three\", seats: 3, target: 12)\n").unwrap();
    let level = level::load(&path).unwrap();
    let seats = vec![seat("Ann", None), seat("Bob", None), seat("Cleo", None)];
    start(&mut app, level, Some(path.clone()), seats);
    app.world_mut().write_message(RequestMove::<Tally> { by: Player::ONE, mv: TallyMove::Add(2) });
    frames(&mut app, 1);
    settle_watcher(&mut app);
    std::fs::write(&path, "Tally(name: \"four\", seats: 4, target: 12)\n").unwrap();
    wait_for(&mut app, "the refusal is shown", |app| app.world().resource::<LevelWatch>().problem.is_some());
    let problem = app.world().resource::<LevelWatch>().problem.clone().unwrap();
    assert!(problem.starts_with(&path.display().to_string()), "{problem}");
    assert!(problem.contains("4 players but 3 seats") && problem.contains("menu"), "{problem}");
    let session = app.world().resource::<Session<Tally>>();
    assert_eq!((session.game.num_players(), session.moves.len()), (3, 1), "the game goes on");
}

#[test]
fn plays_in_the_window_without_showing_other_seats_secrets() {
    let dir = temp_dir("tally");
    let mut app = headless(&dir);
    app.add_plugins(window_game::register::<Tally>);
    let text = "Tally(name: \"three\", seats: 3, target: 12)";
    let level = level::parse(text, "tally.ron").expect("a registered game's level reads like any other");
    let seats = vec![seat("Ann", None), seat("Bob", Some("random")), seat("Cleo", Some("random"))];
    start(&mut app, level, None, seats);
    assert_eq!(*app.world().resource::<State<ActiveGame>>().get(), ActiveGame::of::<Tally>());
    fn session(app: &App) -> &Session<Tally> {
        app.world().resource::<Session<Tally>>()
    }
    let view = session(&app).view().into_owned();
    assert!(view.secrets[0].is_some(), "Ann sees her own secret");
    assert_eq!(&view.secrets[1..], &[None, None], "and not the others'");

    app.world_mut().write_message(RequestMove::<Tally> { by: Player::ONE, mv: TallyMove::Show });
    frames(&mut app, 1);
    for _ in 0..200 {
        if session(&app).game.current_player() == Player::ONE || session(&app).game.outcome().is_some() {
            break;
        }
        frames(&mut app, 1);
    }
    assert_eq!(session(&app).moves.len(), 3, "both agents moved");
    app.world_mut().write_message(SessionRequest::Undo);
    frames(&mut app, 2);
    assert_eq!(session(&app).moves.len(), 3, "undo cannot take back a shown secret");
    assert_eq!(
        app.world().resource::<StatusLine>().text,
        "Cannot undo past that move: it showed what was hidden"
    );

    // Back in the menu the game's session ends, with no list to keep.
    app.world_mut().write_message(SessionRequest::BackToMenu);
    frames(&mut app, 3);
    assert!(app.world().get_resource::<Session<Tally>>().is_none());
    assert_eq!(*app.world().resource::<State<ActiveGame>>().get(), ActiveGame(None));
}

/// A game joins the menu and the editor by registering, with no change to
/// their code: the menu lists it with its line and levels, the editor opens
/// its levels (in the form, as text, for a game without a form of its own)
/// and makes a new one in its folder.
#[test]
fn joins_the_menu_and_the_editor_by_registration_alone() {
    use tabula::app::editor::RequestEdit;
    use tabula::app::editor::form::FormEditing;
    use tabula::app::game::WindowCatalog;
    use tabula::app::menu::Menu;
    let dir = temp_dir("tally-menu");
    let mut app = headless_with(&dir, |app| {
        app.init_resource::<bevy_egui::input::EguiWantsInput>()
            .add_plugins(window_game::register::<Tally>)
            .add_plugins(tabula::app::editor::plugin);
    });
    frames(&mut app, 2);
    // The menu as the window makes it on first showing, from the catalog.
    let menu = Menu::new(&app.world().resource::<WindowCatalog>().0);
    let tally = menu.games.iter().find(|g| g.title == "Tally (test game)").expect("the menu lists the game");
    assert!(tally.is_playable() && tally.status.is_none(), "the window plays it");
    assert_eq!(tally.about, "Add to the tally in turn; the highest secret wins.");

    let path = dir.join("tally.ron");
    std::fs::write(&path, "Tally(name: \"three\", seats: 3, target: 12)\n").unwrap();
    app.world_mut().write_message(RequestEdit(path.clone()));
    frames(&mut app, 3);
    assert_eq!(*app.world().resource::<State<Screen>>().get(), Screen::Editor);
    let editing = app.world().resource::<FormEditing>();
    assert_eq!(editing.level().get::<Tally>().unwrap().name, "three", "its level opens in the form");

    let new = dir.join("tally").join("new.ron");
    app.world_mut().write_message(RequestEdit(new));
    frames(&mut app, 3);
    let editing = app.world().resource::<FormEditing>();
    assert_eq!(editing.level().get::<Tally>().unwrap().name, "New tally", "a new level of the game's folder");
}
