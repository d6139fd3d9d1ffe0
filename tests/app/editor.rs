use super::robot_board::{board, click, mouse_button, on_screen, point_at, with_mouse};
use super::*;
use tabula_engine::robots::Robots;

/// The level editor driven through its input alone: a drag with the
/// broken-robot tool paints three tiles as one edit; walling robot A in
/// lights it and its home and shades where it can go; Ctrl+Z takes it
/// back; Ctrl+S writes the file, byte for byte the shipped one when the
/// level is as it was; F5 test-plays and leaving the game comes back to
/// the editor with its history.
#[test]
fn the_editor_paints_checks_undoes_saves_and_test_plays_by_mouse_and_keys() {
    use tabula::app::editor::RequestEdit;
    use tabula::app::robots::editor::Editing;
    use tabula::app::robots::editor::board::{EditorTile, FindingMark};
    let dir = temp_dir("editor");
    let mut app = with_mouse(&dir);
    app.init_resource::<bevy_egui::input::EguiWantsInput>().add_plugins(tabula::app::editor::plugin);
    let shipped = manifest_dir().join("levels/robots/01-first-steps.ron");
    let path = dir.join("first-steps.ron");
    std::fs::copy(&shipped, &path).unwrap();
    app.world_mut().write_message(RequestEdit(path.clone()));
    frames(&mut app, 4);
    assert_eq!(*app.world().resource::<State<Screen>>().get(), Screen::Editor);
    let layout = app.world().resource::<tabula::app::robots::editor::board::Drawn>().layout;
    let screen_of = |app: &mut App, p: (u16, u16)| on_screen(app, layout.position(p));
    let tiles = |app: &mut App| {
        let mut q = app.world_mut().query::<(&EditorTile, &Sprite)>();
        q.iter(app.world()).map(|(t, s)| (t.0, s.color)).collect::<std::collections::HashMap<_, _>>()
    };
    fn editing(app: &App) -> &Editing {
        app.world().resource::<Editing>()
    }
    // The broken-robot tool (key 3), dragged across row 2 from C to E (y = 4).
    press(&mut app, &[KeyCode::Digit3]);
    let from = screen_of(&mut app, (2, 4));
    point_at(&mut app, from);
    mouse_button(&mut app, MouseButton::Left, bevy::input::ButtonState::Pressed);
    for x in 3..=4 {
        let at = screen_of(&mut app, (x, 4));
        point_at(&mut app, at);
        frames(&mut app, 1);
    }
    mouse_button(&mut app, MouseButton::Left, bevy::input::ButtonState::Released);
    frames(&mut app, 2);
    let row = &editing(&app).level().board[4];
    assert_eq!(&row[2..5], "###", "{row}");
    assert_eq!(editing(&app).history.depth(), (1, 0), "one drag, one edit");
    let drawn = tiles(&mut app);
    assert_ne!(drawn[&(3, 4)], drawn[&(7, 4)], "the painted tile is drawn broken, not as ground");
    assert_eq!(drawn[&(3, 4)], drawn[&(2, 4)]);
    // Robot A at A4 (0, 2) walled in: the engine's finding is drawn.
    for p in [(0, 1), (1, 2), (0, 3)] {
        let at = screen_of(&mut app, p);
        click(&mut app, at);
    }
    frames(&mut app, 3);
    let finding = editing(&app).finding.clone().expect("A cannot reach its home");
    assert_eq!(finding.rule, "unreachable-home");
    let mut marks = app.world_mut().query::<&FindingMark>();
    let lit = marks.iter(app.world()).filter(|m| m.lit).count();
    let shaded = marks.iter(app.world()).filter(|m| !m.lit).count();
    assert_eq!((lit, shaded), (2, 1), "A and its home lit, A's own tile shaded");
    // Ctrl+Z three times: A is free again and nothing is drawn wrong.
    for _ in 0..3 {
        chord(&mut app, &[KeyCode::ControlLeft, KeyCode::KeyZ]);
    }
    frames(&mut app, 3);
    assert!(editing(&app).finding.is_none());
    assert_eq!(app.world_mut().query::<&FindingMark>().iter(app.world()).count(), 0);
    // Undo the drag too and save: the shipped file, byte for byte.
    chord(&mut app, &[KeyCode::ControlLeft, KeyCode::KeyZ]);
    chord(&mut app, &[KeyCode::ControlLeft, KeyCode::KeyS]);
    assert_eq!(std::fs::read(&path).unwrap(), std::fs::read(&shipped).unwrap());
    // Redo the drag, save, and the file is a valid level with it.
    chord(&mut app, &[KeyCode::ControlLeft, KeyCode::KeyY]);
    chord(&mut app, &[KeyCode::ControlLeft, KeyCode::KeyS]);
    let saved = level::load(&path).unwrap();
    assert_eq!(&saved.get::<Robots>().unwrap().board[4][2..5], "###");
    // F5: a game of the level as it stands; leaving it, the editor again.
    press(&mut app, &[KeyCode::F5]);
    frames(&mut app, 3);
    assert_eq!(*app.world().resource::<State<Screen>>().get(), Screen::Game);
    assert_eq!(&board(&app).level.board[4][2..5], "###");
    app.world_mut().write_message(SessionRequest::BackToMenu);
    frames(&mut app, 3);
    assert_eq!(*app.world().resource::<State<Screen>>().get(), Screen::Editor, "back to the editor");
    assert_eq!(editing(&app).history.depth(), (1, 3), "with its history, the walls still to redo");
    // A text editor saves the file: the edit shows in the editor as one
    // more edit, which Ctrl+Z takes back; a broken save changes nothing.
    settle_watcher(&mut app);
    let text = std::fs::read_to_string(&path).unwrap().replace("\"..?.....\"", "\"..?..??.\"");
    std::fs::write(&path, text).unwrap();
    wait_for(&mut app, "the editor follows the file", |app| editing(app).level().board[1] == "..?..??.");
    assert_eq!(editing(&app).history.depth(), (2, 0));
    assert!(!editing(&app).unsaved(), "what the editor shows is what the file holds");
    chord(&mut app, &[KeyCode::ControlLeft, KeyCode::KeyZ]);
    assert_eq!(editing(&app).level().board[1], "..?.....");
    settle_watcher(&mut app);
    std::fs::write(&path, "Robots(name: \"oops\", board: [").unwrap();
    wait_for(&mut app, "a broken save is named", |app| {
        app.world().resource::<StatusLine>().text.contains("cannot be read")
    });
    assert_eq!(editing(&app).level().board[1], "..?.....", "and changes nothing");
    // A save on disk during a test-play, when the editor does not watch:
    // back in the editor it shows as one edit, so Save cannot write over it.
    press(&mut app, &[KeyCode::F5]);
    frames(&mut app, 3);
    assert_eq!(*app.world().resource::<State<Screen>>().get(), Screen::Game);
    settle_watcher(&mut app);
    let changed = std::fs::read_to_string(&shipped).unwrap().replacen("\"..?.....\"", "\"?.?.....\"", 1);
    std::fs::write(&path, changed).unwrap();
    wait_for(&mut app, "the test-play follows the file", |app| board(app).level.board[1] == "?.?.....");
    app.world_mut().write_message(SessionRequest::BackToMenu);
    frames(&mut app, 3);
    assert_eq!(*app.world().resource::<State<Screen>>().get(), Screen::Editor);
    assert_eq!(editing(&app).level().board[1], "?.?.....", "the editor took the file's change");
    assert!(status(&app).contains("changed on disk"), "{}", status(&app));
    app.world_mut().write_message(SessionRequest::BackToMenu);
}

/// Esc in the editor with edits not saved asks first: Save and leave
/// (Enter), Leave without saving (D), or Stay (Esc). With nothing unsaved
/// it leaves at once.
#[test]
fn leaving_the_editor_asks_to_save_discard_or_stay() {
    use tabula::app::ask::{Asking, Question};
    use tabula::app::editor::RequestEdit;
    use tabula::app::robots::editor::Editing;
    use tabula_engine::robots::edit::RobotEdit;
    let dir = temp_dir("editor-leave");
    let mut app = with_mouse(&dir);
    app.init_resource::<bevy_egui::input::EguiWantsInput>()
        .add_plugins((tabula::app::editor::plugin, tabula::app::ask::plugin));
    let shipped = manifest_dir().join("levels/robots/01-first-steps.ron");
    let path = dir.join("first-steps.ron");
    std::fs::copy(&shipped, &path).unwrap();
    let screen = |app: &App| *app.world().resource::<State<Screen>>().get();
    let asked = |app: &App| app.world().resource::<Asking>().0;
    let open_and_edit = |app: &mut App| {
        app.world_mut().write_message(RequestEdit(path.clone()));
        frames(app, 4);
        assert_eq!(screen(app), Screen::Editor);
        app.world_mut().resource_mut::<Editing>().edit(RobotEdit::Tiles(vec![((2, 4), '#')]));
        frames(app, 1);
        assert!(app.world().resource::<Editing>().unsaved());
    };
    open_and_edit(&mut app);
    press(&mut app, &[KeyCode::Escape]);
    assert_eq!(asked(&app), Some(Question::LeaveEditor), "Esc asks");
    assert_eq!(screen(&app), Screen::Editor);
    // Stay: the question closes, the edit is still there, nothing written.
    press(&mut app, &[KeyCode::Escape]);
    assert_eq!((asked(&app), screen(&app)), (None, Screen::Editor));
    assert!(app.world().resource::<Editing>().unsaved());
    assert_eq!(std::fs::read(&path).unwrap(), std::fs::read(&shipped).unwrap());
    // Leave without saving: the menu, the file as it was.
    press(&mut app, &[KeyCode::Escape, KeyCode::KeyD]);
    frames(&mut app, 2);
    assert_eq!((asked(&app), screen(&app)), (None, Screen::Menu));
    assert_eq!(std::fs::read(&path).unwrap(), std::fs::read(&shipped).unwrap(), "discarded");
    // Save and leave: the menu, the edit in the file.
    open_and_edit(&mut app);
    press(&mut app, &[KeyCode::Escape, KeyCode::Enter]);
    frames(&mut app, 2);
    assert_eq!((asked(&app), screen(&app)), (None, Screen::Menu));
    let saved = level::load(&path).unwrap();
    assert_eq!(&saved.get::<Robots>().unwrap().board[4][2..3], "#", "saved");
    // Nothing unsaved: Esc leaves at once.
    app.world_mut().write_message(RequestEdit(path.clone()));
    frames(&mut app, 4);
    press(&mut app, &[KeyCode::Escape]);
    frames(&mut app, 2);
    assert_eq!((asked(&app), screen(&app)), (None, Screen::Menu));
}
