use super::*;
use tabula::app::mancala::{BestRing, Cell, MarginLabel, PitChoice, PitMargins, STORE_WINNER, Stone};
use tabula::app::session::{MovePreview, SessionKind};
use tabula::app::settings::Settings;
use tabula::app::teach::{MoveMarks, Teaching};
use tabula_engine::core::rng_from_seed;
use tabula_engine::mancala::solver::{MoveMargin, Teacher};
use tabula_engine::mancala::{Capture, Mancala, MancalaLevel, Sow};

fn kalah(pits: u8, stones: u16, capture: Capture, sweep: bool) -> LevelFile {
    LevelFile::new::<Mancala>(MancalaLevel {
        name: "test".into(),
        description: String::new(),
        group: Default::default(),
        pits,
        stones,
        capture,
        sweep,
        move_cap: 2000,
    })
}

/// Two people at Kalah (6,4), the animations quick; and the test's folder.
fn kalah_for_two(name: &str) -> (App, PathBuf) {
    let dir = temp_dir(name);
    let mut app = headless(&dir);
    app.world_mut().resource_mut::<Settings>().animation_speed = 4.0;
    let seats = vec![seat("Ann", None), seat("Bob", None)];
    start(&mut app, kalah(6, 4, Capture::Standard, true), None, seats);
    (app, dir)
}

fn board(app: &App) -> &Session<Mancala> {
    app.world().resource::<Session<Mancala>>()
}

/// Stones per cell, as the board shows them.
fn stones_per_cell(app: &mut App) -> Vec<u16> {
    let cells = board(app).game.cells().len();
    let mut counts = vec![0; cells];
    for stone in app.world_mut().query::<&Stone>().iter(app.world()) {
        counts[stone.cell] += 1;
    }
    counts
}

fn settle(app: &mut App) {
    for _ in 0..400 {
        frames(app, 1);
        if app.world().resource::<tabula::app::session::BoardBusy>().0 == 0 {
            frames(app, 1);
            return;
        }
    }
    panic!("the animation never ended");
}

fn sow(app: &mut App, side: u8, pit: u8) {
    let by = board(app).game.current_player();
    app.world_mut().write_message(RequestMove::<Mancala> { by, mv: Sow { side, pit } });
    frames(app, 1);
    settle(app);
}

#[test]
fn every_sowing_capture_and_sweep_ends_with_the_engines_board() {
    let (mut app, _) = kalah_for_two("mancala");
    assert_eq!(stones_per_cell(&mut app), board(&app).game.cells());
    // Random games to the end: sowings, laps, extra turns, captures, sweep.
    let mut rng = rng_from_seed(3);
    let mut captures = 0;
    for game in 0..3 {
        if game > 0 {
            app.world_mut().write_message(SessionRequest::Restart);
            frames(&mut app, 3);
        }
        while board(&app).game.outcome().is_none() {
            let mv = board(&app).game.random_sow(&mut rng).unwrap();
            captures += board(&app).game.preview(mv).unwrap().captured.min(1) as u32;
            sow(&mut app, mv.side, mv.pit);
            assert_eq!(stones_per_cell(&mut app), board(&app).game.cells(), "after {mv}");
        }
    }
    assert!(captures > 0, "the games had captures");
    let total: u16 = stones_per_cell(&mut app).iter().sum();
    assert_eq!(total, 48);
}

#[test]
fn pointing_at_a_pit_previews_an_extra_turn_and_a_refusal_changes_nothing() {
    let (mut app, _) = kalah_for_two("preview");
    *app.world_mut().resource_mut::<PitChoice>() = PitChoice { pit: 2, hover: None, keyed: true };
    frames(&mut app, 1);
    let hint = app.world().resource::<MovePreview>().0.clone();
    assert!(hint.contains("lands in your store") && hint.contains("extra turn"), "{hint}");
    let before = board(&app).game;
    app.world_mut().write_message(RequestMove::<Mancala> { by: Player::ONE, mv: Sow { side: 1, pit: 0 } });
    frames(&mut app, 1);
    assert_eq!(board(&app).game, before);
    let status = status(&app);
    assert!(status.contains("is not yours"), "{status}");
}

#[test]
fn editing_the_stones_in_the_level_file_rebuilds_the_board() {
    let dir = temp_dir("mancala-reload");
    let mut app = headless(&dir);
    let path = dir.join("kalah.ron");
    let text = |stones: u32| {
        format!("Mancala(name: \"k\", pits: 6, stones: {stones}, capture: Standard, sweep: true)\n")
    };
    std::fs::write(&path, text(4)).unwrap();
    let level = level::load(&path).unwrap();
    start(&mut app, level, Some(path.clone()), vec![seat("Ann", None), seat("Bob", Some("minimax:2"))]);
    assert_eq!(stones_per_cell(&mut app).iter().sum::<u16>(), 48);
    settle_watcher(&mut app);
    std::fs::write(&path, text(6)).unwrap();
    wait_for(&mut app, "the new level is in play", |app| board(app).game.cells()[0] == 6);
    frames(&mut app, 2);
    assert_eq!(
        stones_per_cell(&mut app).iter().sum::<u16>(),
        72,
        "one stone entity per stone of the new level"
    );
}

#[test]
fn a_mancala_replay_steps_both_ways_and_the_stones_follow() {
    let (mut app, dir) = kalah_for_two("mancala-replay");
    // A3 ends in the store (extra turn), then A6, then B2.
    for (side, pit) in [(0, 2), (0, 5), (1, 1)] {
        sow(&mut app, side, pit);
    }
    let played = board(&app).game;
    let path = dir.join("kalah.ron");
    board(&app).to_replay().save(&path).unwrap();

    app.world_mut().write_message(SessionRequest::OpenReplay(path));
    frames(&mut app, 3);
    assert_eq!(board(&app).kind, SessionKind::Replay);
    assert_eq!((board(&app).moves.len(), board(&app).redo.len()), (0, 3));
    assert_eq!(stones_per_cell(&mut app), board(&app).game.cells());
    for step in 1..=3 {
        app.world_mut().write_message(SessionRequest::Step);
        frames(&mut app, 1);
        settle(&mut app);
        assert_eq!(board(&app).moves.len(), step);
        assert_eq!(stones_per_cell(&mut app), board(&app).game.cells(), "after step {step}");
    }
    assert_eq!(board(&app).game, played);
    app.world_mut().write_message(SessionRequest::Undo);
    frames(&mut app, 2);
    settle(&mut app);
    assert_eq!(board(&app).moves.len(), 2, "a step back");
    assert_eq!(stones_per_cell(&mut app), board(&app).game.cells(), "the stones went back too");
}

#[test]
fn an_agent_plays_mancala_in_the_window() {
    let dir = temp_dir("mancala-agent");
    let mut app = headless(&dir);
    app.world_mut().resource_mut::<Settings>().animation_speed = 4.0;
    app.world_mut().resource_mut::<Settings>().ai_moves_per_second = 30.0;
    start(
        &mut app,
        kalah(3, 2, Capture::None, false),
        None,
        vec![seat("Ann", Some("perfect")), seat("Bob", Some("greedy"))],
    );
    // Each store says whose it is.
    let tags: std::collections::HashMap<usize, String> = app
        .world_mut()
        .query::<(&tabula::app::mancala::CellTag, &Text2d)>()
        .iter(app.world())
        .map(|(tag, text)| (tag.0, text.0.clone()))
        .collect();
    let game = board(&app).game;
    assert_eq!(tags[&game.store_cell(Player::ONE)], "Ann's store");
    assert_eq!(tags[&game.store_cell(Player::TWO)], "Bob's store");
    assert_eq!(tags[&0], "A1");
    for _ in 0..3000 {
        if board(&app).game.outcome().is_some() {
            break;
        }
        frames(&mut app, 1);
    }
    assert!(board(&app).game.outcome().is_some(), "the agents finished the game");
    settle(&mut app);
    assert_eq!(stones_per_cell(&mut app), board(&app).game.cells());
    // Once the stones have settled, the winner's store (and only it) glows.
    frames(&mut app, 1);
    let game = board(&app).game;
    let winning_store = game.outcome().unwrap().winner().map(|p| game.store_cell(p));
    let glowing: Vec<usize> = app
        .world_mut()
        .query::<(&Cell, &Sprite)>()
        .iter(app.world())
        .filter(|(_, sprite)| sprite.color == STORE_WINNER)
        .map(|(well, _)| well.0)
        .collect();
    assert_eq!(glowing, winning_store.into_iter().collect::<Vec<_>>());
}

#[test]
fn enter_sows_only_a_pit_chosen_since_the_last_move() {
    let dir = temp_dir("mancala-keys");
    let mut app = headless(&dir);
    app.add_plugins(bevy::input::InputPlugin)
        .init_resource::<bevy_egui::input::EguiWantsInput>()
        .add_plugins(tabula::app::controls::plugin);
    app.world_mut().resource_mut::<Settings>().animation_speed = 4.0;
    start(&mut app, kalah(6, 4, Capture::Standard, true), None, vec![seat("Ann", None), seat("Bob", None)]);
    // Ann sows A1 by key; Bob replies by mouse (a request) from B6, refilling A1.
    press(&mut app, &[KeyCode::Digit1, KeyCode::Enter]);
    settle(&mut app);
    assert_eq!(board(&app).moves.len(), 1, "Ann sowed A1");
    sow(&mut app, 1, 5);
    assert_eq!(board(&app).game.current_player(), Player::ONE);
    let before = board(&app).game.cells().to_vec();
    assert_eq!(before[board(&app).game.pit_cell(0, 0)], 1, "B6's sowing put a stone in A1");
    // Enter alone acts on nothing: A1 was chosen for Ann's last move.
    press(&mut app, &[KeyCode::Enter]);
    settle(&mut app);
    assert_eq!(board(&app).game.cells(), before, "nothing was sown");
    assert!(status(&app).starts_with("Choose a pit first"), "{}", status(&app));
    // A fresh choice sows.
    press(&mut app, &[KeyCode::Digit2, KeyCode::Enter]);
    settle(&mut app);
    assert_eq!(board(&app).moves.len(), 3, "Ann sowed A2");
}

/// Two people at the small solved board (4 pits of 3), teaching on.
fn small_board_taught(name: &str) -> (App, MancalaLevel) {
    let dir = temp_dir(name);
    let mut app = headless(&dir);
    app.world_mut().resource_mut::<Settings>().animation_speed = 4.0;
    let path = manifest_dir().join("levels/mancala/small-solved-4x3.ron");
    let level = level::load(&path).unwrap();
    let rules = level.get::<Mancala>().unwrap().clone();
    start(&mut app, level, Some(path), vec![seat("Ann", None), seat("Bob", None)]);
    app.world_mut().resource_mut::<Teaching>().on = true;
    (app, rules)
}

/// Frames until the overlay has proven the board's moves.
fn proven(app: &mut App) -> Vec<MoveMargin> {
    wait_for(app, "the teacher proves the board's moves", |app| {
        matches!(app.world().resource::<PitMargins>(), PitMargins::Proven(_))
    });
    frames(app, 1);
    let PitMargins::Proven(moves) = app.world().resource::<PitMargins>().clone() else { unreachable!() };
    moves
}

fn ringed(app: &mut App) -> Vec<usize> {
    let mut cells: Vec<usize> = app
        .world_mut()
        .query::<(&BestRing, &Visibility)>()
        .iter(app.world())
        .filter(|(_, v)| **v != Visibility::Hidden)
        .map(|(ring, _)| ring.0)
        .collect();
    cells.sort();
    cells
}

/// The margins drawn on the board, by cell.
fn labels(app: &mut App) -> Vec<(usize, String)> {
    let mut shown: Vec<(usize, String)> = app
        .world_mut()
        .query::<(&MarginLabel, &Text2d, &Visibility)>()
        .iter(app.world())
        .filter(|(_, _, v)| **v != Visibility::Hidden)
        .map(|(label, text, _)| (label.0, text.0.clone()))
        .collect();
    shown.sort();
    shown
}

#[test]
fn teaching_gives_each_pit_its_proven_margin_and_rings_the_best() {
    let (mut app, rules) = small_board_taught("mancala-teach");
    // Ann sows A1, Bob B2: a position where the pits are worth different margins.
    sow(&mut app, 0, 0);
    sow(&mut app, 1, 1);
    let game = board(&app).game;
    let expected = Teacher::new(&rules).move_margins(&game).expect("the small board is proven");
    assert_eq!(proven(&mut app), expected, "the overlay shows the engine's margins");
    let top = expected.iter().map(|m| m.margin).max().unwrap();
    let best: Vec<usize> =
        expected.iter().filter(|m| m.margin == top).map(|m| game.pit_cell(m.sow.side, m.sow.pit)).collect();
    let worse = expected.iter().find(|m| m.margin < top).expect("a move worse than the best here");
    assert_eq!(ringed(&mut app), best, "exactly the best pits are ringed");
    // Each pit's margin is drawn on the board, not only said on hover.
    let mut drawn: Vec<(usize, String)> = expected
        .iter()
        .map(|m| {
            let figure = match m.margin {
                x if x > 0 => format!("+{x}"),
                0 => "0".to_owned(),
                x => format!("\u{2212}{}", -x),
            };
            (game.pit_cell(m.sow.side, m.sow.pit), figure)
        })
        .collect();
    drawn.sort();
    assert_eq!(labels(&mut app), drawn, "every legal pit carries its margin");
    // Choosing a pit says its margin in the player's words.
    let mover = game.current_player();
    for m in [expected.iter().find(|m| m.margin == top).unwrap(), worse] {
        assert_eq!(m.sow.side, mover.0);
        *app.world_mut().resource_mut::<PitChoice>() = PitChoice { pit: m.sow.pit, hover: None, keyed: true };
        frames(&mut app, 1);
        let said = app.world().resource::<Teaching>().verdict.clone();
        let result = match m.margin {
            x if x > 0 => format!("you win by {x} with perfect play after this"),
            0 => "a draw with perfect play after this".to_owned(),
            x => format!("you lose by {} with perfect play after this", -x),
        };
        let verdict = if m.margin == top {
            " (a best move)".to_owned()
        } else {
            format!(" — gives away {} against the best", top - m.margin)
        };
        let pit = game.cell_name(game.pit_cell(m.sow.side, m.sow.pit));
        assert_eq!(said, format!("{pit}: {result}{verdict}"));
        // The preview of the last stone is still said beside it.
        assert!(app.world().resource::<MovePreview>().0.contains(" lands in "));
    }
    // At a server's table the overlay is not offered, even when on.
    app.world_mut().resource_mut::<Session<Mancala>>().kind = SessionKind::AtServer;
    frames(&mut app, 2);
    assert_eq!(app.world().resource::<Teaching>().offered, None);
    assert_eq!(*app.world().resource::<PitMargins>(), PitMargins::Off);
    assert_eq!(ringed(&mut app), Vec::<usize>::new());
    app.world_mut().resource_mut::<Session<Mancala>>().kind = SessionKind::Local;
    frames(&mut app, 2);
    assert_eq!(ringed(&mut app), best, "back at a table of its own");
    // Turned off, nothing is ringed and the preview says no margin.
    app.world_mut().resource_mut::<Teaching>().on = false;
    frames(&mut app, 2);
    assert_eq!(ringed(&mut app), Vec::<usize>::new());
    assert_eq!(labels(&mut app), Vec::new(), "no margin is drawn with teaching off");
    assert_eq!(app.world().resource::<Teaching>().verdict, "");
}

#[test]
fn the_review_marks_the_move_that_gave_away_stones_and_no_best_move() {
    let (mut app, rules) = small_board_taught("mancala-review");
    let teacher = Teacher::new(&rules);
    // Best moves throughout, but the third move is the worst there is.
    let mut blunder = None;
    while board(&app).game.outcome().is_none() {
        let game = board(&app).game;
        let moves = teacher.move_margins(&game).unwrap();
        let top = moves.iter().map(|m| m.margin).max().unwrap();
        let worst = moves.iter().min_by_key(|m| m.margin).unwrap();
        let played = board(&app).moves.len();
        let m = if played >= 2 && blunder.is_none() && worst.margin < top {
            blunder = Some((played, top - worst.margin));
            worst
        } else {
            moves.iter().find(|m| m.margin == top).unwrap()
        };
        sow(&mut app, m.sow.side, m.sow.pit);
    }
    let (at, lost) = blunder.expect("some position had a worse move");
    wait_for(&mut app, "the review is done", |app| {
        app.world().resource::<MoveMarks>().summary.as_deref() == Some("1 move gave away stones")
    });
    let marks = app.world().resource::<MoveMarks>().clone();
    let played = board(&app).moves.len();
    assert_eq!(marks.moves, played);
    for n in 1..=played {
        let want = (n == at + 1).then(|| format!("−{lost}"));
        assert_eq!(marks.of(n, played), want.as_deref(), "move {n}");
    }
    // The side panel says who gave the stones away, and in which move.
    let by = board(&app).name_of(board(&app).movers[at]).to_owned();
    let notes: Vec<String> =
        app.world().resource::<Teaching>().notes.iter().map(|n| n.text.clone()).collect();
    let stones = if lost == 1 { "stone" } else { "stones" };
    let said = format!("{by} gave away {lost} {stones} in move {}.", at + 1);
    assert!(notes.contains(&said), "{notes:?}");
    // A step back: the marks are not for that line.
    app.world_mut().write_message(SessionRequest::Undo);
    frames(&mut app, 2);
    assert_eq!(app.world().resource::<MoveMarks>().of(at + 1, board(&app).moves.len()), None);
}

/// T is turned on for a game: the next game of another kind starts without
/// it, and the same game keeps it.
#[test]
fn teaching_turned_on_for_kalah_is_off_when_nim_starts() {
    let (mut app, _dir) = kalah_for_two("teach-carries");
    app.world_mut().resource_mut::<Teaching>().on = true;
    frames(&mut app, 2);
    assert_eq!(app.world().resource::<Teaching>().offered, Some("Mancala"));
    let seats = || vec![seat("Ann", None), seat("Bob", None)];
    start(&mut app, kalah(6, 3, Capture::Standard, true), None, seats());
    assert!(app.world().resource::<Teaching>().on, "another Kalah keeps it");
    start(&mut app, nim_level(&[3, 4, 5], tabula_engine::nim::Ending::Normal), None, seats());
    assert!(!app.world().resource::<Teaching>().on, "Nim starts without it");
}
