use super::*;
use tabula::app::board::BoardCamera;
use tabula::app::robots::{RobotLayout, RobotPiece};
use tabula_engine::robots::{RobotMove, Robots};

pub(super) fn board(app: &App) -> &Session<Robots> {
    app.world().resource::<Session<Robots>>()
}

fn request(app: &mut App, by: u8, mv: RobotMove) {
    app.world_mut().write_message(RequestMove::<Robots> { by: Player(by), mv });
    frames(app, 1);
}

/// Every robot piece where the engine says its robot is.
fn pieces_match_the_engine(app: &mut App) {
    let layout = *app.world().resource::<RobotLayout>();
    let view = board(app).game.clone();
    let pieces: Vec<(char, Vec2)> = app
        .world_mut()
        .query::<(&RobotPiece, &Transform)>()
        .iter(app.world())
        .map(|(p, t)| (p.0, t.translation.truncate()))
        .collect();
    assert_eq!(pieces.len(), view.robots().len());
    for (id, at) in pieces {
        let robot = view.robot(id).unwrap();
        assert!(at.distance(layout.position(robot.at)) < 0.5, "{id} drawn at {at}, is at {:?}", robot.at);
    }
}

/// The tiles of the entities with marker `M`, in reading order.
fn marked<M: Component>(app: &mut App) -> Vec<(u16, u16)> {
    let layout = *app.world().resource::<RobotLayout>();
    let mut tiles: Vec<(u16, u16)> = app
        .world_mut()
        .query_filtered::<&Transform, With<M>>()
        .iter(app.world())
        .filter_map(|t| layout.tile_at(t.translation.truncate()))
        .collect();
    tiles.sort_by_key(|&(x, y)| (y, x));
    tiles
}

#[test]
fn two_sleuths_candidates_are_shaded_as_they_reason_and_every_home_shows_at_the_end() {
    use tabula::app::robots::{CandidateMark, RevealedHome};
    use tabula_engine::robots::Sighting;
    let dir = temp_dir("robots-hidden");
    let mut app = headless(&dir);
    app.world_mut().resource_mut::<tabula::app::settings::Settings>().ai_moves_per_second = 30.0;
    let path = crate::manifest_dir().join("levels/robots/14-scattered-hints.ron");
    let file = level::load(&path).unwrap();
    start(&mut app, file, Some(path), vec![seat("Ann", Some("sleuth")), seat("Bob", Some("sleuth"))]);
    let mut shaded_some = false;
    for _ in 0..5_000 {
        frames(&mut app, 1);
        let session = board(&app);
        if session.game.outcome().is_some() {
            break;
        }
        // What a person sees: the candidates of every robot that has
        // had a hint, nothing of the others, no home.
        let view = session.view().into_owned();
        let mut expected: Vec<(u16, u16)> = (0..view.robots().len())
            .filter(|&r| {
                let id = view.robots()[r].id;
                view.sightings().iter().any(|s| matches!(s, Sighting::Hinted { robot, .. } if *robot == id))
            })
            .flat_map(|r| view.home_candidates(r))
            .collect();
        expected.sort_by_key(|&(x, y)| (y, x));
        assert_eq!(marked::<CandidateMark>(&mut app), expected);
        assert!(marked::<RevealedHome>(&mut app).is_empty(), "no home shows while the game is on");
        shaded_some |= !expected.is_empty();
    }
    assert!(board(&app).game.outcome().is_some(), "the game ended");
    assert!(shaded_some, "the sleuths reasoned in sight");
    frames(&mut app, 1);
    let mut homes: Vec<(u16, u16)> = board(&app).game.robots().iter().map(|r| r.home.unwrap()).collect();
    homes.sort_by_key(|&(x, y)| (y, x));
    assert_eq!(marked::<RevealedHome>(&mut app), homes);
    assert!(marked::<CandidateMark>(&mut app).is_empty());
}

#[test]
fn a_person_playing_a_hidden_home_level_sees_no_shading() {
    use tabula::app::robots::CandidateMark;
    let dir = temp_dir("robots-hidden-person");
    let mut app = headless(&dir);
    app.world_mut().resource_mut::<tabula::app::settings::Settings>().ai_moves_per_second = 30.0;
    let path = crate::manifest_dir().join("levels/robots/12-hidden-homes.ron");
    let file = level::load(&path).unwrap();
    start(&mut app, file, Some(path), vec![seat("Ann", None), seat("Bob", Some("sleuth"))]);
    // Ann plays as a sleuth would, from what her screen shows.
    let mut sleuth = Robots::agent_from_str("sleuth").unwrap();
    let mut rng = tabula_engine::core::rng_from_seed(3);
    for _ in 0..2_000 {
        let session = board(&app);
        if session.game.outcome().is_some() {
            break;
        }
        if session.human_to_move() == Some(Player::ONE) {
            let mv = sleuth.choose(Player::ONE, &session.view(), &mut rng).unwrap();
            app.world_mut().write_message(RequestMove::<Robots> { by: Player::ONE, mv });
        }
        frames(&mut app, 1);
        assert!(marked::<CandidateMark>(&mut app).is_empty(), "no shading while a person plays");
    }
    assert!(
        board(&app)
            .game
            .sightings()
            .iter()
            .any(|s| matches!(s, tabula_engine::robots::Sighting::Hinted { .. }))
    );
}

/// The window's logic with the keyboard.
fn with_keys(dir: &Path) -> App {
    let mut app = headless(dir);
    app.add_plugins(bevy::input::InputPlugin);
    app
}

/// Where robot `id`'s hint arrow points on screen, if it shows.
fn arrow_of(app: &mut App, id: char) -> Option<Vec2> {
    use tabula::app::robots::HintMark;
    let children: Vec<Entity> = app
        .world_mut()
        .query::<(&RobotPiece, &Children)>()
        .iter(app.world())
        .find(|(p, _)| p.0 == id)
        .map(|(_, c)| c.iter().collect())
        .unwrap();
    let mut marks = app.world_mut().query_filtered::<(&Transform, &Visibility), With<HintMark>>();
    let (transform, visibility) = children.iter().find_map(|&c| marks.get(app.world(), c).ok())?;
    (*visibility != Visibility::Hidden).then(|| (transform.rotation * Vec3::Y).truncate())
}

/// The screen direction of compass eighth `bearing` (North up).
fn screen_way(bearing: u8) -> Vec2 {
    let (dx, dy) = [(0, 1), (1, 1), (1, 0), (1, -1), (0, -1), (-1, -1), (-1, 0), (-1, 1)][bearing as usize];
    Vec2::new(dx as f32, dy as f32).normalize()
}

/// The person's report: B walks to J9 and reads "home ahead, seen on J9
/// facing south", then turns with Left. The arrow must still point where
/// home lies on the board, after every turn, and the clue say it.
#[test]
fn a_hint_arrow_points_where_home_lies_on_the_board_after_every_turn() {
    use tabula::app::robots::HintBearing;
    use tabula_engine::robots::Dir;
    use tabula_engine::robots::rules::compass_eighth;
    let dir = temp_dir("robots-arrow");
    let mut app = with_keys(&dir);
    let path = manifest_dir().join("levels/robots/12-hidden-homes.ron");
    start(&mut app, level::load(&path).unwrap(), Some(path), vec![seat("Ann", None), seat("Bob", None)]);
    let mut bob = [Dir::North, Dir::South].into_iter().cycle();
    let mut turn = |app: &mut App, mv: RobotMove| {
        request(app, 0, mv);
        request(app, 1, RobotMove::Step { robot: 'C', dir: bob.next().unwrap() });
    };
    turn(&mut app, RobotMove::Forward { robot: 'B', steps: 1 });
    turn(&mut app, RobotMove::Rotate { robot: 'B', quarters: 1 });
    turn(&mut app, RobotMove::Forward { robot: 'B', steps: 1 });
    frames(&mut app, 20);
    let b = board(&app).game.robot('B').unwrap().clone();
    assert_eq!((b.at, b.facing, b.hints.len()), ((9, 1), Dir::South, 1), "B read the hint on J9");
    // Where B's true home lies from J9, as the board shows it.
    let home = b.home.unwrap();
    let truth = compass_eighth(home.0 as i32 - 9, home.1 as i32 - 1).unwrap();
    let bearing = app
        .world_mut()
        .query::<(&RobotPiece, &HintBearing)>()
        .iter(app.world())
        .find(|(p, _)| p.0 == 'B')
        .unwrap()
        .1
        .0;
    assert_eq!(bearing, Some(truth));
    // Ann chooses B (N, N) and turns it with Left, Right and Down.
    for (key, facing) in
        [(KeyCode::ArrowLeft, Dir::East), (KeyCode::ArrowRight, Dir::South), (KeyCode::ArrowDown, Dir::North)]
    {
        let points = arrow_of(&mut app, 'B').expect("B's arrow shows");
        assert!(points.distance(screen_way(truth)) < 1e-4, "before {key:?}: the arrow points {points}");
        press(&mut app, &[KeyCode::KeyN, KeyCode::KeyN, key]);
        frames(&mut app, 20);
        assert_eq!(board(&app).game.robot('B').unwrap().facing, facing, "{key:?} turned B");
        let points = arrow_of(&mut app, 'B').expect("B's arrow shows");
        assert!(points.distance(screen_way(truth)) < 1e-4, "after {key:?}: the arrow points {points}");
        request(&mut app, 1, RobotMove::Step { robot: 'C', dir: bob.next().unwrap() });
    }
    // The clue says it on the board too.
    let clues = <Robots as tabula::app::game::WindowGame>::clues(&board(&app).view());
    let due = if truth.is_multiple_of(2) { "due " } else { "" };
    let said = format!("B: home {due}{} of J9 (", tabula_engine::robots::compass_name(truth));
    assert!(clues.iter().any(|(_, line)| line.starts_with(&said)), "{said} in {clues:?}");
}

/// H (or the button) shades the tiles the person's own robots' homes can
/// still be on, from what their screen shows, and nobody else's; H again
/// takes the shading away.
#[test]
fn a_person_shades_where_their_own_homes_can_be_on_demand() {
    use tabula::app::robots::CandidateMark;
    let dir = temp_dir("robots-shade");
    let mut app = with_keys(&dir);
    app.world_mut().resource_mut::<tabula::app::settings::Settings>().ai_moves_per_second = 30.0;
    let path = manifest_dir().join("levels/robots/12-hidden-homes.ron");
    start(
        &mut app,
        level::load(&path).unwrap(),
        Some(path),
        vec![seat("Ann", None), seat("Bob", Some("sleuth"))],
    );
    assert!(marked::<CandidateMark>(&mut app).is_empty(), "no shading until asked");
    press(&mut app, &[KeyCode::KeyH]);
    assert!(status(&app).starts_with("None of your robots has had a hint yet"), "{}", status(&app));
    let mut sleuth = Robots::agent_from_str("sleuth").unwrap();
    let mut rng = tabula_engine::core::rng_from_seed(5);
    let mut checked = 0;
    for _ in 0..2000 {
        if board(&app).game.outcome().is_some() || checked > 12 {
            break;
        }
        // Ann's robots A and B, from her observation (no homes in it).
        let (view, ann_to_move) =
            (board(&app).view().into_owned(), board(&app).human_to_move() == Some(Player::ONE));
        assert!(view.robots().iter().all(|r| r.home.is_none()));
        let mut expected: Vec<(u16, u16)> =
            [0, 1].into_iter().filter(|&r| hinted(&view, r)).flat_map(|r| view.home_candidates(r)).collect();
        expected.sort_by_key(|&(x, y)| (y, x));
        assert_eq!(marked::<CandidateMark>(&mut app), expected, "Ann's homes' tiles, nobody else's");
        checked += usize::from(!expected.is_empty());
        if ann_to_move {
            let mv = sleuth.choose(Player::ONE, &view, &mut rng).unwrap();
            app.world_mut().write_message(RequestMove::<Robots> { by: Player::ONE, mv });
        }
        frames(&mut app, 1);
    }
    assert!(checked > 3);
    press(&mut app, &[KeyCode::KeyH]);
    assert!(marked::<CandidateMark>(&mut app).is_empty(), "H again hides the shading");
}

/// Robot `r` has had a hint, held or cleared since.
fn hinted(view: &Robots, r: usize) -> bool {
    let id = view.robots()[r].id;
    view.sightings()
        .iter()
        .any(|s| matches!(s, tabula_engine::robots::Sighting::Hinted { robot, .. } if *robot == id))
}

/// 1-3 with no robot chosen, the player's first following rule A, say
/// what to do; the exchange prompt names tiles as the board's edges do.
#[test]
fn keys_that_ask_nothing_say_why_and_the_exchange_prompt_names_tiles() {
    use tabula::app::session::MovePreview;
    let dir = temp_dir("robots-keys");
    let mut app = with_keys(&dir);
    let path = manifest_dir().join("levels/robots/09-swap-puzzle.ron");
    start(&mut app, level::load(&path).unwrap(), Some(path), vec![seat("Ann", None), seat("Bob", None)]);
    let before = board(&app).game.clone();
    press(&mut app, &[KeyCode::Digit2]);
    assert_eq!(board(&app).game, before, "nothing moved");
    assert!(status(&app).starts_with("Choose a robot first: click it or press N"), "{}", status(&app));
    press(&mut app, &[KeyCode::KeyX]);
    app.world_mut().resource_mut::<tabula::app::robots::RobotChoice>().swap_first = Some((0, 0));
    frames(&mut app, 1);
    let prompt = app.world().resource::<MovePreview>().0.clone();
    assert!(prompt.starts_with("Exchange A10 with"), "{prompt}");
}

#[test]
fn a_ride_round_the_corners_ends_where_the_engine_says() {
    let dir = temp_dir("robots");
    let mut app = headless(&dir);
    let path = crate::manifest_dir().join("levels/robots/04-corners.ron");
    let level = level::load(&path).unwrap();
    start(&mut app, level, None, vec![seat("Ann", None), seat("Bob", None)]);
    pieces_match_the_engine(&mut app);
    let d_turn = RobotMove::Rotate { robot: 'D', quarters: 1 };
    request(&mut app, 0, RobotMove::Forward { robot: 'B', steps: 1 });
    request(&mut app, 1, d_turn);
    request(&mut app, 0, RobotMove::Rotate { robot: 'B', quarters: 3 });
    request(&mut app, 1, d_turn);
    // Refused: D is Bob's, and it is Ann's turn.
    let before = board(&app).game.clone();
    request(&mut app, 0, RobotMove::Forward { robot: 'D', steps: 1 });
    assert_eq!(board(&app).game, before);
    assert!(app.world().resource::<StatusLine>().text.contains("player 2's"));
    // B rides the belt east, down, east and down to (8, 5).
    request(&mut app, 0, RobotMove::Forward { robot: 'B', steps: 1 });
    assert_eq!(board(&app).game.robot('B').unwrap().at, (8, 5));
    assert!(app.world().resource::<StatusLine>().text.contains("rode the belt"));
    frames(&mut app, 80);
    pieces_match_the_engine(&mut app);
}

#[test]
fn a_win_sets_off_fireworks_and_the_other_robots_blow_apart_leaving_their_wrecks() {
    let dir = temp_dir("robots-win");
    let mut app = headless(&dir);
    let text = "Robots(name: \"w\", board: [\"a.b\", \"...\"], robots: [(id: 'A', at: (1, 0), facing: North, rule: A, player: 1), (id: 'B', at: (1, 1), facing: North, rule: B, player: 2)])";
    let level = level::parse(text, "w.ron").unwrap();
    start(&mut app, level, None, vec![seat("Ann", None), seat("Bob", None)]);
    request(&mut app, 0, RobotMove::Step { robot: 'A', dir: tabula_engine::robots::Dir::West });
    assert_eq!(board(&app).game.outcome(), Some(Outcome::Win(Player::ONE)));
    frames(&mut app, 2);
    let sparks = app.world_mut().query::<&Sprite>().iter(app.world()).count();
    assert!(sparks > 40, "fireworks: {sparks} sprites");
    frames(&mut app, 60);
    // The other robot blew apart, but its wreck stays, faded, where it
    // stood: the final position can be read. The winner stays whole.
    let mut robots: Vec<(char, bool, f32)> = app
        .world_mut()
        .query::<(&RobotPiece, &Visibility, &Sprite)>()
        .iter(app.world())
        .map(|(p, v, s)| (p.0, *v != Visibility::Hidden, s.color.alpha()))
        .collect();
    robots.sort_by_key(|r| r.0);
    assert!(robots.iter().all(|r| r.1), "no robot vanishes: {robots:?}");
    assert_eq!(robots[0].2, 1.0, "the winner stays whole: {robots:?}");
    assert!(robots[1].2 < 0.5, "the other robot is a faded wreck: {robots:?}");
}

#[test]
fn editing_a_row_of_the_board_redraws_it_and_a_broken_edit_names_the_rule() {
    let dir = temp_dir("robots-reload");
    let mut app = headless(&dir);
    let path = dir.join("level.ron");
    let text = |row: &str| {
        format!(
            "Robots(name: \"edit\", board: [\"a...b\", \"{row}\", \".....\"], robots: [(id: 'A', at: (0, 2), facing: North, rule: A, player: 1), (id: 'B', at: (4, 2), facing: North, rule: B, player: 2)])\n"
        )
    };
    std::fs::write(&path, text(".....")).unwrap();
    let level = level::load(&path).unwrap();
    start(&mut app, level, Some(path.clone()), vec![seat("Ann", None), seat("Bob", None)]);
    settle_watcher(&mut app);
    std::fs::write(&path, text(".>>>.")).unwrap();
    wait_for(&mut app, "the edited row is in play", |app| board(app).game.rows()[1] == ".>>>.");
    frames(&mut app, 2);
    pieces_match_the_engine(&mut app);
    std::fs::write(&path, text("#####")).unwrap();
    wait_for(&mut app, "the broken rule is shown", |app| {
        app.world().resource::<LevelWatch>().problem.is_some()
    });
    let problem = app.world().resource::<LevelWatch>().problem.clone().unwrap();
    assert!(problem.ends_with("robot A cannot reach its home at A3 (0, 0)"), "{problem}");
    assert_eq!(board(&app).game.rows()[1], ".>>>.", "the last good board stays");
}

#[test]
fn a_person_plays_every_shipped_level_to_the_end_against_planner_scout_and_sleuth() {
    let dir = crate::manifest_dir().join("levels/robots");
    let mut levels: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.file_name().unwrap().to_string_lossy().starts_with(|c: char| c.is_ascii_digit()))
        .collect();
    levels.sort();
    assert_eq!(levels.len(), 15);
    for path in &levels {
        for opponent in ["planner", "scout", "sleuth"] {
            let temp = temp_dir("robots-every-level");
            let mut app = headless(&temp);
            {
                let mut settings = app.world_mut().resource_mut::<tabula::app::settings::Settings>();
                settings.ai_moves_per_second = 30.0;
                settings.animation_speed = 4.0;
            }
            let file = level::load(path).unwrap();
            let players = file.game().num_players(&file);
            let mut seats = vec![seat("John", None)];
            seats.extend((1..players).map(|i| seat(&format!("Agent {i}"), Some(opponent))));
            start(&mut app, file, Some(path.clone()), seats);
            // John plays as the planner would, from what his screen shows.
            let mut planner = Robots::agent_from_str("planner").unwrap();
            let mut rng = tabula_engine::core::rng_from_seed(1);
            for _ in 0..100_000 {
                let session = board(&app);
                if session.game.outcome().is_some() {
                    break;
                }
                if session.human_to_move() == Some(Player::ONE) {
                    let mv = planner.choose(Player::ONE, &session.view(), &mut rng).unwrap();
                    app.world_mut().write_message(RequestMove::<Robots> { by: Player::ONE, mv });
                }
                frames(&mut app, 1);
            }
            let name = path.file_name().unwrap().to_string_lossy();
            let outcome = board(&app).game.outcome();
            assert!(outcome.is_some(), "{name} against {opponent}: no end");
            assert!(!status(&app).starts_with("Refused"), "{name}: {}", status(&app));
            frames(&mut app, 60);
            pieces_match_the_engine(&mut app);
        }
    }
}

/// A headless app with what the mouse needs: a 1280 x 800 primary
/// window (no real one), the board camera, and Bevy's own systems that
/// place the camera and turn the pointer into board points.
pub(super) fn with_mouse(dir: &Path) -> App {
    use bevy::window::{ExitCondition, WindowPlugin, WindowResolution};
    let mut app = headless(dir);
    app.add_plugins((
        bevy::input::InputPlugin,
        bevy::transform::TransformPlugin,
        WindowPlugin {
            primary_window: Some(Window { resolution: WindowResolution::new(1280, 800), ..default() }),
            exit_condition: ExitCondition::DontExit,
            close_when_requested: false,
            ..default()
        },
    ))
    .init_resource::<bevy::render::texture::ManualTextureViews>()
    .add_systems(
        PostUpdate,
        bevy::render::camera::camera_system.after(bevy::transform::TransformSystems::Propagate),
    );
    app.world_mut().spawn((Camera2d, BoardCamera, tabula::app::board::board_projection()));
    app
}

/// Where a board point shows in the window, as the board camera draws it.
pub(super) fn on_screen(app: &mut App, point: Vec2) -> Vec2 {
    let (camera, transform) = app
        .world_mut()
        .query_filtered::<(&Camera, &GlobalTransform), With<BoardCamera>>()
        .single(app.world())
        .unwrap();
    camera.world_to_viewport(transform, point.extend(0.0)).unwrap()
}

/// Window pixels a tile spans now.
fn tile_pixels(app: &mut App) -> f32 {
    on_screen(app, Vec2::new(tabula::app::robots::TILE, 0.0)).x - on_screen(app, Vec2::ZERO).x
}

pub(super) fn point_at(app: &mut App, at: Vec2) {
    let mut windows = app.world_mut().query::<&mut Window>();
    windows.single_mut(app.world_mut()).unwrap().set_cursor_position(Some(at));
}

pub(super) fn mouse_button(app: &mut App, button: MouseButton, state: bevy::input::ButtonState) {
    use bevy::input::mouse::MouseButtonInput;
    app.world_mut().write_message(MouseButtonInput { button, state, window: Entity::PLACEHOLDER });
    frames(app, 1);
}

pub(super) fn click(app: &mut App, at: Vec2) {
    point_at(app, at);
    mouse_button(app, MouseButton::Left, bevy::input::ButtonState::Pressed);
    mouse_button(app, MouseButton::Left, bevy::input::ButtonState::Released);
}

/// One notch of the wheel (up zooms in), a frame for each.
fn wheel(app: &mut App, notches: i32) {
    use bevy::input::mouse::{MouseScrollUnit, MouseWheel};
    for _ in 0..notches.abs() {
        app.world_mut().write_message(MouseWheel {
            unit: MouseScrollUnit::Line,
            x: 0.0,
            y: notches.signum() as f32,
            window: Entity::PLACEHOLDER,
            phase: bevy::input::touch::TouchPhase::Moved,
        });
        frames(app, 1);
    }
}

/// The visibility of every hint tile's "?".
fn hint_labels(app: &mut App) -> Vec<Visibility> {
    let mut labels = app.world_mut().query_filtered::<&Visibility, With<tabula::app::robots::HintLabel>>();
    labels.iter(app.world()).copied().collect()
}

fn piece_of(app: &mut App, id: char) -> Vec2 {
    let mut pieces = app.world_mut().query::<(&RobotPiece, &Transform)>();
    pieces.iter(app.world()).find(|(p, _)| p.0 == id).map(|(_, t)| t.translation.truncate()).unwrap()
}

/// The 128 x 128 board in a 1280 x 800 window, four people playing it
/// with the mouse alone: each zooms out with the wheel to see the whole
/// board, in toward their robot until tiles are large enough to hit,
/// clicks the robot, sees its lit tiles at a size to click, and clicks
/// one; the engine plays that move. A drag with the right button pans,
/// keeping the grabbed point under the pointer.
#[test]
fn the_128_by_128_board_is_played_by_mouse_alone() {
    use tabula::app::robots::{BoardView, Destination, RobotChoice, TILE};
    let dir = temp_dir("robots-mouse");
    let mut app = with_mouse(&dir);
    let path = manifest_dir().join("levels/robots/large-128x128-four-robots.ron");
    let seats = ["Ann", "Bob", "Cy", "Di"].iter().map(|n| seat(n, None)).collect();
    start(&mut app, level::load(&path).unwrap(), Some(path), seats);
    frames(&mut app, 2);
    let whole = tile_pixels(&mut app);
    assert!(whole < 7.0, "the whole board shows, a tile {whole} pixels wide: too small to click");
    // Every hint tile has its "?", hidden while too small to read.
    let view = board(&app).view().into_owned();
    let hints = (0..view.height())
        .flat_map(|y| (0..view.width()).map(move |x| (x, y)))
        .filter(|&p| view.tile(p) == tabula_engine::robots::Tile::Hint)
        .count();
    let labels = hint_labels(&mut app);
    assert!(hints > 100 && labels.len() == hints, "{} labels for {hints} hint tiles", labels.len());
    assert!(labels.iter().all(|v| *v == Visibility::Hidden), "no speckle of ? over the whole board");
    for turn in 0..8 {
        let seat = board(&app).game.current_player();
        let id = board(&app).game.robots().iter().find(|r| r.player == seat).unwrap().id;
        // Out to the whole board, then in toward the robot.
        wheel(&mut app, -20);
        assert_eq!(app.world().resource::<BoardView>().zoom, 1.0, "turn {turn}: the wheel fits the board");
        let piece = piece_of(&mut app, id);
        let mut at = on_screen(&mut app, piece);
        point_at(&mut app, at);
        while tile_pixels(&mut app) < 40.0 {
            wheel(&mut app, 1);
            // The point under the pointer stays put once the board fills
            // the window's width; before, the board stays centred and
            // the player follows the robot with the pointer.
            let piece = piece_of(&mut app, id);
            let now = on_screen(&mut app, piece);
            if app.world().resource::<BoardView>().zoom > 2.0 {
                assert!(now.distance(at) < 1.0, "{id} stays under the pointer: {at} then {now}");
            }
            at = now;
            point_at(&mut app, at);
            assert!(
                (0.0..1280.0).contains(&at.x) && (0.0..800.0).contains(&at.y),
                "{id} in the window: {at}"
            );
        }
        if turn == 0 {
            // Zoomed in enough to read, the hint tiles show their "?".
            frames(&mut app, 2);
            assert!(hint_labels(&mut app).iter().all(|v| *v != Visibility::Hidden), "the ? read close up");
        }
        click(&mut app, at);
        assert_eq!(
            app.world().resource::<RobotChoice>().selected,
            Some(id),
            "turn {turn}: a click chose {id}"
        );
        frames(&mut app, 2);
        let lit: Vec<(RobotMove, Vec2)> = app
            .world_mut()
            .query::<(&Destination, &Transform)>()
            .iter(app.world())
            .map(|(d, t)| (d.0, t.translation.truncate()))
            .collect();
        assert!(!lit.is_empty(), "turn {turn}: {id}'s destinations are lit");
        assert!((TILE - 10.0) / TILE * tile_pixels(&mut app) >= 30.0, "a lit tile is large enough to click");
        let (mv, target) = lit[turn % lit.len()];
        let mv = mv.to_string();
        let on = on_screen(&mut app, target);
        assert!((0.0..1280.0).contains(&on.x) && (0.0..800.0).contains(&on.y), "the lit tile is in sight");
        let before = board(&app).moves.len();
        click(&mut app, on);
        assert_eq!(board(&app).moves.len(), before + 1, "turn {turn}: a click on a lit tile moved {id}");
        // Walks that end on the same tile (one stopped by a belt) are one
        // lit tile: the click plays one of them.
        let played = board(&app).moves.last().copied().unwrap();
        assert!(lit.iter().any(|&(m, t)| m == played && t == target), "{played} for a click on {mv}'s tile");
        frames(&mut app, 40);
        pieces_match_the_engine(&mut app);
    }
    // A right-button drag pans: the board point grabbed stays under the pointer.
    let grab = Vec2::new(640.0, 400.0);
    point_at(&mut app, grab);
    frames(&mut app, 1);
    let centre = app.world().resource::<BoardView>().centre;
    mouse_button(&mut app, MouseButton::Right, bevy::input::ButtonState::Pressed);
    let grabbed = {
        let (camera, transform) = app
            .world_mut()
            .query_filtered::<(&Camera, &GlobalTransform), With<BoardCamera>>()
            .single(app.world())
            .unwrap();
        camera.viewport_to_world_2d(transform, grab).unwrap()
    };
    point_at(&mut app, grab + Vec2::new(-120.0, 80.0));
    frames(&mut app, 2);
    mouse_button(&mut app, MouseButton::Right, bevy::input::ButtonState::Released);
    assert_ne!(app.world().resource::<BoardView>().centre, centre, "the drag panned");
    let under = on_screen(&mut app, grabbed);
    assert!(
        under.distance(grab + Vec2::new(-120.0, 80.0)) < 2.0,
        "the grabbed point follows the pointer: {under}"
    );
}

/// A move key pressed in the other's turn is refused, and the refusal is
/// still there after the other's move: said over at once, it was never
/// read.
#[test]
fn a_refusal_in_the_others_turn_outlives_their_move() {
    let dir = temp_dir("robots-not-your-turn");
    let mut app = with_keys(&dir);
    let path = manifest_dir().join("levels/robots/12-hidden-homes.ron");
    let seats = vec![seat("Ann", None), seat("Bob", Some("planner"))];
    start(&mut app, level::load(&path).unwrap(), Some(path), seats);
    app.world_mut().write_message(SessionRequest::TogglePause);
    frames(&mut app, 1);
    request(&mut app, 0, RobotMove::Forward { robot: 'B', steps: 1 });
    frames(&mut app, 2);
    assert_eq!(board(&app).moves.len(), 1, "Ann moved; Bob's turn is held");
    press(&mut app, &[KeyCode::ArrowUp]);
    assert_eq!(status(&app), "Refused: it is Bob's turn");
    app.world_mut().write_message(SessionRequest::Step);
    for _ in 0..200 {
        frames(&mut app, 1);
        if board(&app).moves.len() > 1 {
            break;
        }
    }
    assert_eq!(board(&app).moves.len(), 2, "Bob moved");
    assert_eq!(status(&app), "Refused: it is Bob's turn");
}
