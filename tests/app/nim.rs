//! Nim in the window: stones, turns, undo and redo, agents, replays, the
//! move log, watching, hot reload and the keyboard.

use super::*;
use std::collections::HashMap;

use tabula::app::levels::reload::LevelReloaded;
use tabula::app::nim::{NimChoice, NimLesson, STONE_WINNING};
use tabula::app::session::SessionKind;
use tabula::app::teach::Teaching;

#[test]
fn stones_are_entities_and_taken_ones_leave() {
    let dir = temp_dir("stones");
    let mut app = headless(&dir);
    start(
        &mut app,
        nim_level(&[5, 6, 7], Ending::Misere),
        None,
        vec![seat("John", None), seat("Mary", None)],
    );
    assert_eq!(stones(&mut app), 18);
    request(&mut app, 0, 1, 4);
    assert_eq!(session(&app).game.piles(), &[5, 2, 7]);
    assert_eq!(session(&app).game.current_player(), Player::TWO);
    frames(&mut app, 30);
    assert_eq!(stones(&mut app), 14, "the four taken stones are gone once their animation ends");
}

#[test]
fn the_turn_is_announced_once_when_it_passes_and_at_the_end() {
    use tabula::app::session::{Turn, TurnChanged};
    let dir = temp_dir("turns");
    let mut app = headless(&dir);
    start(&mut app, nim_level(&[2, 1], Ending::Normal), None, vec![seat("John", None), seat("Mary", None)]);
    let turn = |app: &App| app.world().resource::<Turn>().to_move;
    assert_eq!(turn(&app), Some(Player::ONE), "announced at the start");
    let announced = |app: &mut App| {
        let messages = app.world().resource::<Messages<TurnChanged>>();
        messages.iter_current_update_messages().copied().collect::<Vec<_>>()
    };
    request(&mut app, 0, 0, 1);
    assert_eq!(announced(&mut app), [TurnChanged { to: Some(Player::TWO), person: true }]);
    assert_eq!(turn(&app), Some(Player::TWO));
    frames(&mut app, 1);
    assert_eq!(announced(&mut app), [], "once");
    request(&mut app, 0, 0, 1);
    assert_eq!(announced(&mut app), [], "a refused move passes no turn");
    request(&mut app, 1, 0, 1);
    request(&mut app, 0, 1, 1);
    assert_eq!(announced(&mut app), [TurnChanged { to: None, person: false }], "the game is over");
    assert_eq!(turn(&app), None);
    app.world_mut().write_message(SessionRequest::Undo);
    frames(&mut app, 1);
    assert_eq!(turn(&app), Some(Player::ONE), "an undo gives the turn back");
}

#[test]
fn nims_stones_keep_their_size_and_place_after_an_undo() {
    let dir = temp_dir("nim-undo-size");
    let mut app = headless(&dir);
    start(
        &mut app,
        nim_level(&[2, 7, 3], Ending::Normal),
        None,
        vec![seat("John", None), seat("Mary", None)],
    );
    let stones = |app: &mut App| {
        let mut all: Vec<(u32, Vec2, Vec2)> = app
            .world_mut()
            .query::<(&tabula::app::nim::Stone, &Sprite, &Transform)>()
            .iter(app.world())
            .filter(|(stone, ..)| stone.pile == 0)
            .map(|(stone, sprite, t)| (stone.slot, sprite.custom_size.unwrap(), t.translation.truncate()))
            .collect();
        all.sort_by_key(|s| s.0);
        all
    };
    let at_start = stones(&mut app);
    // The longest pile goes down to 1, then the move is taken back.
    request(&mut app, 0, 1, 6);
    frames(&mut app, 60);
    app.world_mut().write_message(SessionRequest::Undo);
    frames(&mut app, 3);
    assert_eq!(stones(&mut app), at_start);
    // And after a move that leaves the longest pile shorter, undone.
    request(&mut app, 0, 1, 5);
    request(&mut app, 1, 0, 1);
    frames(&mut app, 60);
    app.world_mut().write_message(SessionRequest::Undo);
    frames(&mut app, 3);
    assert_eq!(stones(&mut app), at_start);
}

#[test]
fn refused_moves_change_nothing_and_say_why() {
    let dir = temp_dir("refused");
    let mut app = headless(&dir);
    start(
        &mut app,
        nim_level(&[5, 6, 7], Ending::Misere),
        None,
        vec![seat("John", None), seat("Mary", None)],
    );
    let before = session(&app).game.clone();
    request(&mut app, 0, 0, 9);
    assert_eq!(session(&app).game, before);
    let status = app.world().resource::<StatusLine>().clone();
    assert!(status.error && status.text.contains("only 5"), "{status:?}");
    request(&mut app, 1, 0, 1);
    assert_eq!(session(&app).game, before);
    assert!(app.world().resource::<StatusLine>().text.contains("John's turn"));
    request(&mut app, 0, 3, 1);
    assert!(app.world().resource::<StatusLine>().text.contains("no pile 4"));
    assert_eq!(session(&app).game, before);
    assert_eq!(stones(&mut app), 18);
}

#[test]
fn the_optimal_agent_answers_and_wins_a_lost_position_for_the_human() {
    let dir = temp_dir("agent");
    let mut app = headless(&dir);
    // 1-2-3 with the last stone winning: the player to move loses.
    start(
        &mut app,
        nim_level(&[1, 2, 3], Ending::Normal),
        None,
        vec![seat("John", None), seat("Mary", Some("optimal"))],
    );
    play_out(&mut app, Player::ONE);
    assert_eq!(session(&app).game.outcome(), Some(Outcome::Win(Player::TWO)));
    let status = &app.world().resource::<StatusLine>().text;
    assert!(status.contains("Mary wins"), "{status}");
}

#[test]
fn undo_goes_back_to_the_humans_turn_and_redo_replays() {
    let dir = temp_dir("undo");
    let mut app = headless(&dir);
    start(
        &mut app,
        nim_level(&[5, 6, 7], Ending::Misere),
        None,
        vec![seat("John", None), seat("Mary", Some("optimal"))],
    );
    request(&mut app, 0, 1, 4);
    for _ in 0..200 {
        if session(&app).moves.len() == 2 {
            break;
        }
        frames(&mut app, 1);
    }
    assert_eq!(session(&app).moves.len(), 2, "the agent replied");
    app.world_mut().write_message(SessionRequest::Undo);
    frames(&mut app, 2);
    assert!(session(&app).moves.is_empty(), "undo takes back the agent's reply and the human's move");
    assert_eq!(session(&app).game.piles(), &[5, 6, 7]);
    assert_eq!(session(&app).redo.len(), 2);
    frames(&mut app, 2);
    assert_eq!(stones(&mut app), 18, "the board is rebuilt");
    app.world_mut().write_message(SessionRequest::Redo);
    frames(&mut app, 2);
    assert_eq!(session(&app).game.piles(), &[5, 2, 7]);
}

#[test]
fn replays_save_open_and_step_both_ways() {
    let dir = temp_dir("replay");
    let mut app = headless(&dir);
    start(&mut app, nim_level(&[2, 3], Ending::Normal), None, vec![seat("Ann", None), seat("Bob", None)]);
    request(&mut app, 0, 1, 1);
    request(&mut app, 1, 0, 2);
    request(&mut app, 0, 1, 2);
    let finished = session(&app).game.clone();
    assert!(finished.outcome().is_some());
    let path = dir.join("game.ron");
    // Bob's seat as an agent's: the replay shows it, and does not run it.
    let mut replay = session(&app).to_replay();
    replay.players[1].agent = "random".into();
    replay.save(&path).unwrap();

    app.world_mut().write_message(SessionRequest::OpenReplay(path));
    frames(&mut app, 3);
    assert_eq!(session(&app).kind, SessionKind::Replay);
    assert_eq!(session(&app).seats[1].name, "Bob");
    assert_eq!(session(&app).seats[0].controller.label(), "human");
    assert_eq!(session(&app).seats[1].controller.label(), "random", "the seat's agent as saved");
    assert_eq!(session(&app).redo.len(), 3);
    assert!(session(&app).moves.is_empty(), "a replay opens paused at the start");
    frames(&mut app, 10);
    assert!(session(&app).moves.is_empty());
    app.world_mut().write_message(SessionRequest::Step);
    frames(&mut app, 2);
    assert_eq!(session(&app).moves.len(), 1);
    app.world_mut().write_message(SessionRequest::Undo);
    frames(&mut app, 2);
    assert_eq!(session(&app).moves.len(), 0, "a step back");
    app.world_mut().write_message(SessionRequest::TogglePause);
    frames(&mut app, 200);
    assert_eq!(session(&app).game, finished, "played on to the same end");
}

#[test]
fn the_move_log_says_who_moved_and_a_click_goes_back_and_forth() {
    let dir = temp_dir("move-log");
    let mut app = headless(&dir);
    start(&mut app, nim_level(&[2, 3], Ending::Normal), None, vec![seat("Ann", None), seat("Bob", None)]);
    request(&mut app, 0, 1, 1);
    let after_one = session(&app).game.clone();
    request(&mut app, 1, 0, 2);
    request(&mut app, 0, 1, 2);
    let finished = session(&app).game.clone();
    assert_eq!(session(&app).movers, [Player::ONE, Player::TWO, Player::ONE]);
    let line = tabula::app::move_log::log_line(
        2,
        session(&app).name_of(Player::TWO),
        &session(&app).moves[1].to_string(),
    );
    assert_eq!(line, "2. Bob: take 2 stones from pile 1");
    // A click on move 1: the position just after it, the rest still ahead.
    app.world_mut().write_message(SessionRequest::GoTo(1));
    frames(&mut app, 2);
    assert_eq!(session(&app).game, after_one);
    assert_eq!((session(&app).moves.len(), session(&app).redo.len()), (1, 2));
    assert_eq!(session(&app).movers, [Player::ONE]);
    assert!(app.world().resource::<tabula::app::session::Watch>().paused, "looking back holds the game");
    // And forward again to the end.
    app.world_mut().write_message(SessionRequest::GoTo(3));
    frames(&mut app, 2);
    assert_eq!(session(&app).game, finished);
    assert_eq!(session(&app).movers, [Player::ONE, Player::TWO, Player::ONE]);
}

#[test]
fn watching_pauses_and_steps_one_move() {
    let dir = temp_dir("watch");
    let mut app = headless(&dir);
    start(
        &mut app,
        nim_level(&[12, 45, 7, 60], Ending::Normal),
        None,
        vec![seat("A", Some("random")), seat("B", Some("optimal:0.5"))],
    );
    app.world_mut().write_message(SessionRequest::TogglePause);
    frames(&mut app, 40);
    assert!(session(&app).moves.len() <= 1, "paused right away");
    let before = session(&app).moves.len();
    app.world_mut().write_message(SessionRequest::Step);
    frames(&mut app, 40);
    assert_eq!(session(&app).moves.len(), before + 1, "a step plays exactly one move");
}

#[test]
fn editing_the_level_file_reloads_it_and_a_broken_edit_keeps_the_last_good_level() {
    let dir = temp_dir("reload");
    let mut app = headless(&dir);
    let path = dir.join("level.ron");
    std::fs::write(&path, "Nim(name: \"edit me\", piles: [3, 4, 5], ending: Normal)\n").unwrap();
    let level = level::load(&path).unwrap();
    #[derive(Resource, Default)]
    struct Reloaded(Vec<PathBuf>);
    app.init_resource::<Reloaded>().add_systems(
        Last,
        |mut reloaded: MessageReader<LevelReloaded>, mut seen: ResMut<Reloaded>| {
            seen.0.extend(reloaded.read().map(|r| r.path.clone()));
        },
    );
    start(&mut app, level, Some(path.clone()), vec![seat("John", None), seat("Mary", None)]);
    request(&mut app, 0, 0, 1);
    settle_watcher(&mut app);

    std::fs::write(&path, "Nim(\n    name: \"edit me\",\n    piles: [3, 4 5],\n    ending: Normal,\n)\n")
        .unwrap();
    wait_for(&mut app, "the error is shown", |app| app.world().resource::<LevelWatch>().problem.is_some());
    let problem = app.world().resource::<LevelWatch>().problem.clone().unwrap();
    assert!(problem.starts_with(&format!("{}:3:", path.display())), "{problem}");
    assert_eq!(session(&app).game.piles(), &[2, 4, 5], "the game goes on with the last good level");
    assert!(app.world().resource::<Reloaded>().0.is_empty(), "nothing was reloaded");

    std::fs::write(&path, "Nim(name: \"edit me\", piles: [2, 2], ending: Misere)\n").unwrap();
    wait_for(&mut app, "the new level is in play", |app| session(app).game.piles() == [2, 2]);
    assert_eq!(app.world().resource::<LevelWatch>().problem, None);
    assert_eq!(session(&app).game.piles(), &[2, 2], "the new level is in play");
    assert_eq!(session(&app).seats[0].name, "John", "seats are kept");
    frames(&mut app, 2);
    assert_eq!(app.world().resource::<Reloaded>().0, [path], "the reload is told once");
    assert_eq!(stones(&mut app), 4);
}

#[test]
fn the_board_is_playable_by_keyboard_alone() {
    let dir = temp_dir("keys");
    let mut app = headless(&dir);
    app.add_plugins(bevy::input::InputPlugin)
        .init_resource::<bevy_egui::input::EguiWantsInput>()
        .add_plugins(tabula::app::controls::plugin);
    start(
        &mut app,
        nim_level(&[5, 6, 7], Ending::Misere),
        None,
        vec![seat("John", None), seat("Mary", None)],
    );
    // Seed 000's opening: pile 2, four stones.
    press(&mut app, &[KeyCode::ArrowDown, KeyCode::Digit4, KeyCode::Enter]);
    assert_eq!(session(&app).game.piles(), &[5, 2, 7]);
    // Enter alone takes nothing: Mary has chosen nothing yet.
    press(&mut app, &[KeyCode::Enter]);
    assert_eq!(session(&app).game.piles(), &[5, 2, 7]);
    assert!(app.world().resource::<StatusLine>().text.starts_with("Choose stones first"));
    // Mary tries three from pile 2 and is refused; then takes two.
    press(&mut app, &[KeyCode::Digit3, KeyCode::Enter]);
    assert_eq!(session(&app).game.piles(), &[5, 2, 7]);
    assert!(app.world().resource::<StatusLine>().text.contains("only 2"));
    press(&mut app, &[KeyCode::ArrowLeft, KeyCode::Enter]);
    assert_eq!(session(&app).game.piles(), &[5, 0, 7], "left lowers the count to what the pile holds");
    // Undo by key.
    press(&mut app, &[KeyCode::KeyU]);
    assert_eq!(session(&app).game.piles(), &[5, 2, 7]);
    press(&mut app, &[KeyCode::Enter]);
    assert_eq!(session(&app).game.piles(), &[5, 2, 7], "nor after an undo");

    // Up and Down pass over an emptied pile: from pile 1, up twice comes
    // round by pile 3 to pile 1, never to the empty pile 2.
    start(
        &mut app,
        nim_level(&[5, 0, 7], Ending::Normal),
        None,
        vec![seat("John", None), seat("Mary", None)],
    );
    press(&mut app, &[KeyCode::ArrowUp, KeyCode::ArrowUp, KeyCode::Digit1, KeyCode::Enter]);
    assert_eq!(session(&app).game.piles(), &[4, 0, 7], "said: {}", status(&app));
}

/// Whether the player to move wins, by trying every take (no rule of
/// thumb): the overlay's answer is checked against it.
fn wins_by_search(piles: &mut Vec<u32>, ending: Ending, memo: &mut HashMap<Vec<u32>, bool>) -> bool {
    if piles.iter().all(|&n| n == 0) {
        // The last stone was taken by the other player.
        return ending == Ending::Misere;
    }
    if let Some(&known) = memo.get(piles) {
        return known;
    }
    let mut wins = false;
    for pile in 0..piles.len() {
        let n = piles[pile];
        for left in 0..n {
            piles[pile] = left;
            wins |= !wins_by_search(piles, ending, memo);
            piles[pile] = n;
        }
    }
    memo.insert(piles.clone(), wins);
    wins
}

fn winning_by_search(piles: &[u32], ending: Ending) -> Vec<Take> {
    let mut memo = HashMap::new();
    let mut after = piles.to_vec();
    let mut winning = Vec::new();
    for (pile, &n) in piles.iter().enumerate() {
        for count in 1..=n {
            after[pile] = n - count;
            if !wins_by_search(&mut after, ending, &mut memo) {
                winning.push(Take { pile: pile as u32, count });
            }
            after[pile] = n;
        }
    }
    winning
}

/// The stones lit as winning, as (pile, slot).
fn lit(app: &mut App) -> Vec<(usize, u32)> {
    let mut lit: Vec<(usize, u32)> = app
        .world_mut()
        .query::<(&Stone, &Sprite)>()
        .iter(app.world())
        .filter(|(_, sprite)| sprite.color == STONE_WINNING)
        .map(|(stone, _)| (stone.pile, stone.slot))
        .collect();
    lit.sort();
    lit
}

#[test]
fn teaching_lights_exactly_the_winning_takes_in_both_endings() {
    let cases: [(&[u32], Ending); 5] = [
        (&[3, 4, 5], Ending::Normal),
        (&[1, 2, 3], Ending::Normal),
        (&[1, 1, 3], Ending::Misere),
        (&[2, 5, 6, 7], Ending::Misere),
        (&[1, 1, 1], Ending::Misere),
    ];
    for (piles, ending) in cases {
        let dir = temp_dir("nim-teach");
        let mut app = headless(&dir);
        start(&mut app, nim_level(piles, ending), None, vec![seat("Ann", None), seat("Bob", None)]);
        frames(&mut app, 1);
        assert_eq!(lit(&mut app), [], "off by default");
        app.world_mut().resource_mut::<Teaching>().on = true;
        frames(&mut app, 1);
        let want = winning_by_search(piles, ending);
        let lesson = app.world().resource::<NimLesson>().clone();
        assert_eq!(lesson.winning, want, "{piles:?} {ending:?}");
        assert_eq!(lesson.nim_sum, piles.iter().fold(0, |x, &n| x ^ n));
        let mut stones: Vec<(usize, u32)> = want
            .iter()
            .flat_map(|t| {
                (piles[t.pile as usize] - t.count..piles[t.pile as usize]).map(move |s| (t.pile as usize, s))
            })
            .collect();
        stones.sort();
        stones.dedup();
        assert_eq!(lit(&mut app), stones, "{piles:?} {ending:?}: the stones the winning takes remove");
        let notes: Vec<String> =
            app.world().resource::<Teaching>().notes.iter().map(|n| n.text.clone()).collect();
        let every_move_loses = notes.iter().any(|n| n == "Every move loses against best play.");
        assert_eq!(every_move_loses, want.is_empty(), "{notes:?}");
        assert!(notes.iter().any(|n| n.starts_with("nim-sum")), "{notes:?}");
        // Choosing a take says whether it wins.
        let mut all = Vec::new();
        session(&app).game.legal_moves(Player::ONE, &mut all);
        for take in [want.first(), all.iter().find(|t| !want.contains(t))].into_iter().flatten() {
            let mut choice = app.world_mut().resource_mut::<NimChoice>();
            (choice.pile, choice.count, choice.armed) = (take.pile as usize, take.count, true);
            frames(&mut app, 1);
            let wins = if want.contains(take) { "wins" } else { "loses" };
            let said = &app.world().resource::<Teaching>().verdict;
            assert_eq!(*said, format!("{take}: it {wins} against best play"));
        }
    }
}
