use super::robot_board::{click, mouse_button, on_screen, point_at, with_mouse};
use super::*;
use bevy::input::ButtonState;
use tabula::app::russian_bank::{Choice, TableCard};
use tabula::app::session::{BoardBusy, Watch};
use tabula_engine::russian_bank::{BankMove, Place, RussianBank, Source, Target};

fn level(name: &str) -> (LevelFile, PathBuf) {
    let path = crate::manifest_dir().join("levels/russian_bank").join(name);
    (level::load(&path).unwrap(), path)
}

fn game(app: &App) -> &RussianBank {
    &app.world().resource::<Session<RussianBank>>().game
}

/// Cards drawn on the table, face up or down, not counting ones in flight.
fn drawn(app: &mut App) -> usize {
    app.world_mut().query::<&TableCard>().iter(app.world()).count()
}

/// Where the top card of `place` shows in the window, once the cards have
/// landed (a card is taken only from a still table).
fn top_card(app: &mut App, place: Place) -> Vec2 {
    wait_for(app, "the cards land", |app| app.world().resource::<BoardBusy>().0 == 0);
    let at = app
        .world_mut()
        .query::<(&TableCard, &Transform)>()
        .iter(app.world())
        .filter(|(card, _)| card.place == place)
        .max_by_key(|(card, _)| card.index)
        .map(|(_, transform)| transform.translation.truncate())
        .unwrap();
    on_screen(app, at)
}

fn moves(app: &App) -> Vec<BankMove> {
    app.world().resource::<Session<RussianBank>>().moves.clone()
}

#[test]
fn a_card_is_dragged_or_clicked_to_a_pile_and_put_back_elsewhere() {
    let dir = temp_dir("rb-pointer");
    let mut app = with_mouse(&dir);
    let (file, path) = level("06-a-stop.ron");
    start(&mut app, file, Some(path), vec![seat("John", None), seat("Mary", None)]);
    let load = BankMove::Play { from: Source::Reserve, to: Target::OpponentReserve };
    let (reserve, theirs) = (Place::Reserve(Player::ONE), Place::Reserve(Player::TWO));
    // Dragged: John's 6H taken, carried over Mary's 7H and let go there.
    let (six, seven) = (top_card(&mut app, reserve), top_card(&mut app, theirs));
    point_at(&mut app, six);
    mouse_button(&mut app, MouseButton::Left, ButtonState::Pressed);
    point_at(&mut app, six.lerp(seven, 0.5));
    frames(&mut app, 1);
    point_at(&mut app, seven);
    frames(&mut app, 1);
    mouse_button(&mut app, MouseButton::Left, ButtonState::Released);
    frames(&mut app, 2);
    assert_eq!(moves(&app), vec![load], "a drag to the 7H loads it");
    // (Undo cannot hide the 4S the load turned up: the deal starts again.)
    app.world_mut().write_message(SessionRequest::Restart);
    frames(&mut app, 2);
    assert_eq!(moves(&app), vec![]);
    // Clicked: a click chooses the 6H, a click on the 7H plays it.
    let six = top_card(&mut app, reserve);
    click(&mut app, six);
    assert!(app.world().resource::<Choice>().chosen.is_some(), "a click chooses the card");
    assert_eq!(moves(&app), vec![]);
    click(&mut app, seven);
    frames(&mut app, 2);
    assert_eq!(moves(&app), vec![load], "a click on the 7H loads it");
    app.world_mut().write_message(SessionRequest::Restart);
    frames(&mut app, 2);
    // A right click puts a chosen card back; so does a drop on no pile.
    let six = top_card(&mut app, reserve);
    click(&mut app, six);
    mouse_button(&mut app, MouseButton::Right, ButtonState::Pressed);
    mouse_button(&mut app, MouseButton::Right, ButtonState::Released);
    assert!(app.world().resource::<Choice>().chosen.is_none(), "a right click puts it back");
    point_at(&mut app, six);
    mouse_button(&mut app, MouseButton::Left, ButtonState::Pressed);
    point_at(&mut app, Vec2::new(20.0, 400.0));
    frames(&mut app, 1);
    mouse_button(&mut app, MouseButton::Left, ButtonState::Released);
    frames(&mut app, 2);
    assert!(app.world().resource::<Choice>().chosen.is_none(), "a drop on no pile puts it back");
    let back = top_card(&mut app, reserve);
    assert!(back.distance(six) < 0.5, "the 6H is back in John's reserve: {back}, not {six}");
    assert_eq!(moves(&app), vec![]);
}

#[test]
fn an_agent_stops_a_humans_breach_and_says_why() {
    let dir = temp_dir("rb-stop");
    let mut app = headless(&dir);
    let (file, path) = level("06-a-stop.ron");
    start(&mut app, file, Some(path), vec![seat("John", None), seat("Mary", Some("greedy"))]);
    let before = game(&app).clone();
    // Every card of this small position: 8 tableau, 4 of John's, 12 of Mary's.
    assert_eq!(drawn(&mut app), 24);
    // The 6H loads Mary's 7H, but the AC on T3 could go to a foundation first.
    let load = BankMove::Play { from: Source::Reserve, to: Target::OpponentReserve };
    app.world_mut().write_message(RequestMove::<RussianBank> { by: Player::ONE, mv: load });
    frames(&mut app, 2);
    let session = app.world().resource::<Session<RussianBank>>();
    assert_eq!(session.moves, vec![load, BankMove::Stop], "Mary stopped at once");
    let after = game(&app);
    assert_eq!(after.turn(), Player::TWO);
    assert_eq!(after.side(Player::ONE).reserve, before.side(Player::ONE).reserve);
    assert_eq!(after.side(Player::TWO).reserve, before.side(Player::TWO).reserve);
    let text = status(&app);
    assert!(text.starts_with("Mary: Stop!") && text.contains("foundation"), "{text}");
    // The table's panel names the card that should have gone up.
    assert_eq!(
        last_stop(&app).as_deref(),
        Some("Mary stopped John: the A♣ could go up to a foundation, and that comes before any other move.")
    );
    // The 4S under the 6H was seen: undo cannot hide it again.
    app.world_mut().write_message(SessionRequest::Undo);
    frames(&mut app, 1);
    let text = status(&app);
    assert_eq!(text, "Cannot undo past that move: it was a Stop, and the breach it stopped would stand");
    frames(&mut app, 40);
    assert!(game(&app).outcome().is_some() || game(&app).plies() > 2, "Mary plays on");
}

/// H (or any move) in the other's turn is refused as out of turn, and the
/// Stop box says nothing of it: a stranger pressing H in Mary's turn read
/// "No Stop: it is Mary's turn", as if they had called Stop.
#[test]
fn a_move_out_of_turn_is_not_said_as_a_stop() {
    let app = mary_asks_in_johns_turn("rb-out-of-turn", BankMove::TurnHand);
    assert_eq!(status(&app), "Refused: it is John's turn");
    assert_eq!(last_stop(&app), None, "no Stop was called");
}

/// Two people at the quick win, John to move; Mary asks for `mv`.
fn mary_asks_in_johns_turn(name: &str, mv: BankMove) -> App {
    let dir = temp_dir(name);
    let mut app = headless(&dir);
    let (file, path) = level("04-quick-win.ron");
    start(&mut app, file, Some(path), vec![seat("John", None), seat("Mary", None)]);
    app.world_mut().write_message(RequestMove::<RussianBank> { by: Player::TWO, mv });
    frames(&mut app, 1);
    app
}

#[test]
fn a_stop_with_nothing_broken_is_refused_and_the_table_follows_the_moves() {
    // Mary calls Stop during John's turn: nothing was broken.
    let mut app = mary_asks_in_johns_turn("rb-no-breach", BankMove::Stop);
    assert_eq!(status(&app), "Refused: no rule was broken");
    assert_eq!(game(&app).plies(), 0);
    // The table's panel keeps the answer while John plays on (the status
    // line's goes with his next move), and drops it when the turn passes.
    let refused =
        "No Stop: John's last move broke no rule of priority (a Stop must come before the next move).";
    assert_eq!(last_stop(&app).as_deref(), Some(refused));
    let moves = [
        BankMove::Play { from: Source::Reserve, to: Target::Foundation(1) },
        BankMove::Play { from: Source::Reserve, to: Target::Tableau(1) },
        BankMove::Play { from: Source::Reserve, to: Target::Tableau(8) },
        BankMove::TurnHand,
        BankMove::Play { from: Source::Hand, to: Target::Foundation(1) },
    ];
    for mv in moves {
        app.world_mut().write_message(RequestMove::<RussianBank> { by: Player::ONE, mv });
        frames(&mut app, 20);
        if game(&app).outcome().is_none() {
            assert_eq!(last_stop(&app).as_deref(), Some(refused), "John's turn goes on");
        }
    }
    assert_eq!(game(&app).outcome(), Some(Outcome::Win(Player::ONE)));
    assert!(status(&app).contains("John emptied their piles and scores 51"), "{}", status(&app));
    // John's piles are empty: his four foundation cards and T1's two show.
    let cards: Vec<TableCard> = app.world_mut().query::<&TableCard>().iter(app.world()).copied().collect();
    assert!(
        !cards.iter().any(|c| matches!(c.place, tabula_engine::russian_bank::Place::Reserve(Player::ONE)))
    );
    let bank = app.world().resource::<tabula::app::russian_bank::BankMatch>();
    assert_eq!(bank.points(), [51, 0]);
}

#[test]
fn with_the_stop_rule_off_no_stop_is_offered() {
    use tabula::app::game::WindowGame;
    use tabula::app::session::MovePreview;
    for (name, stop_rule) in [("01-shuffled-deal.ron", true), ("02-shuffled-no-stop.ron", false)] {
        let dir = temp_dir("rb-stop-offered");
        let mut app = headless(&dir);
        app.add_plugins(bevy::input::InputPlugin);
        let (file, path) = level(name);
        start(&mut app, file, Some(path), vec![seat("Rand", Some("random")), seat("John", None)]);
        // The agent is to move and is held; John watches its turn.
        app.world_mut().write_message(SessionRequest::TogglePause);
        frames(&mut app, 2);
        let preview = app.world().resource::<MovePreview>().0.clone();
        assert_eq!(preview.contains("Stop"), stop_rule, "{name}: {preview}");
        let controls = RussianBank::controls(&app.world().resource::<Session<RussianBank>>().level).line();
        assert_eq!(controls.contains("Stop"), stop_rule, "{name}: {controls}");
        press(&mut app, &[KeyCode::KeyS]);
        let said = status(&app);
        // With the rule, S calls Stop (and nothing was broken); without
        // it, S does nothing at all.
        assert_eq!(said == "Refused: no rule was broken", stop_rule, "{name}: {said}");
        assert_eq!(game(&app).plies(), 0);
    }
}

#[test]
fn a_human_stops_the_random_agents_breach() {
    let dir = temp_dir("rb-human-stop");
    let mut app = headless(&dir);
    let (file, path) = level("06-a-stop.ron");
    start(&mut app, file, Some(path), vec![seat("Rand", Some("random")), seat("John", None)]);
    // A lesson whose agent moves first waits to be read.
    app.world_mut().write_message(SessionRequest::TogglePause);
    // Random breaks priority sooner or later; John watches for it.
    let mut stopped = false;
    for _ in 0..4000 {
        frames(&mut app, 1);
        let now = game(&app);
        if now.outcome().is_some() {
            break;
        }
        if now.breach().is_some_and(|b| b.by == Player::ONE) {
            let before = now.clone();
            app.world_mut().write_message(RequestMove::<RussianBank> { by: Player::TWO, mv: BankMove::Stop });
            frames(&mut app, 1);
            let after = game(&app);
            assert_eq!(after.turn(), Player::TWO, "the turn passes to John");
            assert_eq!(after.plies(), before.plies() + 1);
            assert!(status(&app).starts_with("John: Stop!"), "{}", status(&app));
            stopped = true;
            break;
        }
    }
    assert!(stopped, "random never broke priority in this game");
}

#[test]
fn agents_on_both_seats_deal_again_until_the_match_is_decided() {
    let dir = temp_dir("rb-match");
    let mut app = headless(&dir);
    let (file, path) = level("04-quick-win.ron");
    start(&mut app, file, Some(path), vec![seat("Ann", Some("greedy")), seat("Bob", Some("greedy"))]);
    let deals = |app: &App| app.world().resource::<tabula::app::russian_bank::BankMatch>().deals.len();
    for _ in 0..2000 {
        frames(&mut app, 1);
        if deals(&app) >= 2 {
            break;
        }
    }
    assert!(deals(&app) >= 2, "a second deal was played");
    let points = app.world().resource::<tabula::app::russian_bank::BankMatch>().points();
    assert_eq!(points, [102, 0], "greedy wins the quick win each time, 51 points a deal");
}

#[test]
fn a_decided_match_is_the_headline() {
    use tabula::app::session::Headline;
    let dir = temp_dir("rb-match-headline");
    let mut app = headless(&dir);
    let (file, path) = level("04-quick-win.ron");
    let mut bank = file.get::<RussianBank>().unwrap().clone();
    bank.match_points = 100;
    let file = LevelFile::new::<RussianBank>(bank);
    start(&mut app, file, Some(path), vec![seat("Ann", Some("greedy")), seat("Bob", Some("greedy"))]);
    let headline = |app: &App| app.world().resource::<Headline>().0.clone();
    for _ in 0..3000 {
        frames(&mut app, 1);
        if headline(&app).is_some() {
            break;
        }
    }
    assert_eq!(headline(&app).as_deref(), Some("Ann wins the match 102 to 0"));
    // A new match starts with no headline.
    app.world_mut().write_message(SessionRequest::Restart);
    let (file, path) = level("04-quick-win.ron");
    start(&mut app, file, Some(path), vec![seat("Ann", None), seat("Bob", None)]);
    assert_eq!(headline(&app), None);
}

#[test]
fn a_person_plays_whole_shuffled_games_against_each_agent() {
    for agent in ["random", "greedy", "lookahead"] {
        let dir = temp_dir(&format!("rb-full-{agent}"));
        let mut app = headless(&dir);
        {
            let mut settings = app.world_mut().resource_mut::<tabula::app::settings::Settings>();
            settings.ai_moves_per_second = 30.0;
            settings.animation_speed = 4.0;
        }
        let (file, path) = level("01-shuffled-deal.ron");
        start(&mut app, file, Some(path), vec![seat("John", None), seat("Mary", Some(agent))]);
        let mut moves = Vec::new();
        for _ in 0..60_000 {
            let session = app.world().resource::<Session<RussianBank>>();
            if session.game.outcome().is_some() {
                break;
            }
            // John plays from what his screen shows, as greedy would.
            if session.human_to_move() == Some(Player::ONE) {
                let view = session.view();
                let mv =
                    tabula_engine::russian_bank::ai::greedy_move(&view.0, Player::ONE, &mut moves).unwrap();
                app.world_mut().write_message(RequestMove::<RussianBank> { by: Player::ONE, mv });
            }
            frames(&mut app, 1);
        }
        let session = app.world().resource::<Session<RussianBank>>();
        let outcome = session.game.outcome();
        assert!(outcome.is_some(), "against {agent}: the game did not end ({} moves)", session.moves.len());
        assert!(!status(&app).starts_with("Refused"), "against {agent}: {}", status(&app));
        if let Some(Outcome::Win(p)) = outcome {
            let points = app.world().resource::<tabula::app::russian_bank::BankMatch>().points();
            assert!(points[p.index()] >= 30, "against {agent}: the match counted the deal: {points:?}");
        }
    }
}

#[test]
fn the_log_and_the_refusals_name_the_cards_as_they_show() {
    let dir = temp_dir("rb-card-names");
    let mut app = headless(&dir);
    let (file, path) = level("06-a-stop.ron");
    start(&mut app, file, Some(path), vec![seat("John", None), seat("Mary", None)]);
    let ace_up = BankMove::Play { from: Source::Tableau(3), to: Target::Foundation(1) };
    app.world_mut().write_message(RequestMove::<RussianBank> { by: Player::ONE, mv: ace_up });
    frames(&mut app, 2);
    assert_eq!(status(&app), "John: A♣ T3 to F1");
    // The 6H does not go on the QS of T1.
    let six_on_queen = BankMove::Play { from: Source::Reserve, to: Target::Tableau(1) };
    app.world_mut().write_message(RequestMove::<RussianBank> { by: Player::ONE, mv: six_on_queen });
    frames(&mut app, 2);
    let refused = status(&app);
    assert!(refused.starts_with("Refused: the 6♥ cannot go on the Q♠"), "{refused}");
    // Loaded, the 6H is named in the log; taken back and played again, it
    // still is, and a move off that line is said anew.
    let load = BankMove::Play { from: Source::Reserve, to: Target::OpponentReserve };
    app.world_mut().write_message(RequestMove::<RussianBank> { by: Player::ONE, mv: load });
    frames(&mut app, 2);
    let words = |app: &App, n: usize| app.world().resource::<Session<RussianBank>>().words(n).into_owned();
    assert_eq!(words(&app, 1), "A♣ T3 to F1");
    assert_eq!(words(&app, 2), "6♥ reserve to the opponent's reserve");
    app.world_mut().write_message(SessionRequest::GoTo(0));
    frames(&mut app, 2);
    assert_eq!(
        words(&app, 2),
        "6♥ reserve to the opponent's reserve",
        "the moves taken back keep their words"
    );
    app.world_mut().write_message(SessionRequest::GoTo(2));
    frames(&mut app, 2);
    assert_eq!(moves(&app), vec![ace_up, load]);
    assert_eq!(words(&app, 1), "A♣ T3 to F1");
}

/// Frames between each of Mary's moves and her move before, in her turns,
/// John playing as greedy would, until `wanted` gaps; with `hurry`, F is
/// pressed once Mary has moved in a turn that goes on, and the gaps are
/// taken until the turn passes. Each gap says whether F had been pressed.
fn mary_gaps(app: &mut App, wanted: usize, hurry: bool) -> Vec<(usize, bool)> {
    let mut gaps = Vec::new();
    let (mut seen, mut since, mut in_turn, mut hurried) = (0, 0, 0, false);
    let mut moves = Vec::new();
    for _ in 0..20_000 {
        let session = app.world().resource::<Session<RussianBank>>();
        assert!(session.game.outcome().is_none(), "the game ended before {wanted} gaps were seen");
        if session.moves.len() > seen {
            let mary = session.movers[session.moves.len() - 1] == Player::TWO;
            let again = mary && seen > 0 && session.movers[seen - 1] == Player::TWO;
            if again {
                gaps.push((since, hurried));
            }
            if mary {
                in_turn += 1;
            } else {
                in_turn = 0;
                if hurried {
                    assert!(!app.world().resource::<Watch>().hurry, "the fast-forward ends with the turn");
                    return gaps;
                }
            }
            seen = session.moves.len();
            since = 0;
            if !hurry && gaps.len() >= wanted {
                return gaps;
            }
        }
        let session = app.world().resource::<Session<RussianBank>>();
        if session.human_to_move() == Some(Player::ONE) {
            let view = session.view();
            let mv = tabula_engine::russian_bank::ai::greedy_move(&view.0, Player::ONE, &mut moves).unwrap();
            app.world_mut().write_message(RequestMove::<RussianBank> { by: Player::ONE, mv });
        } else if hurry && in_turn > 0 && !hurried && session.game.current_player() == Player::TWO {
            press(app, &[KeyCode::KeyF]);
            hurried = true;
        }
        frames(app, 1);
        // Time for Mary's thoughts on their thread; frames keep their own time.
        std::thread::sleep(Duration::from_millis(2));
        since += 1;
    }
    panic!("Mary made too few moves");
}

#[test]
fn an_agents_turn_pauses_between_cards_and_f_fast_forwards_it() {
    let dir = temp_dir("rb-pacing");
    let mut app = headless(&dir);
    app.add_plugins(bevy::input::InputPlugin);
    let (file, path) = level("01-shuffled-deal.ron");
    start(&mut app, file, Some(path), vec![seat("John", None), seat("Mary", Some("greedy"))]);
    // At the default speed each card lands and stays a second (20 frames of
    // 50 ms) before the next.
    let gaps = mary_gaps(&mut app, 4, false);
    assert!(gaps.iter().all(|&(frames, _)| frames >= 20), "{gaps:?}");
    // F: the rest of a turn goes by without the pauses, until the turn passes.
    let gaps = mary_gaps(&mut app, 0, true);
    let hurried: Vec<usize> = gaps.iter().filter(|g| g.1).map(|g| g.0).collect();
    assert!(!hurried.is_empty() && hurried.iter().all(|&frames| frames < 15), "{gaps:?}");
}

#[test]
fn the_lesson_waits_to_be_read_before_its_opponent_moves_first_and_a_new_deal_shows_a_moment() {
    let dir = temp_dir("rb-lesson-start");
    let mut app = headless(&dir);
    let (file, path) = level("00-priority-and-stop.ron");
    let lesson = tabula_engine::russian_bank::ai::LESSON_OPPONENT;
    start(&mut app, file, Some(path), vec![seat("John", None), seat("Mary", Some(lesson))]);
    let first_move_after = |app: &mut App, before: usize| {
        let mut waited = before;
        while moves(app).is_empty() {
            assert!(waited < 2000, "Mary never moved");
            frames(app, 1);
            std::thread::sleep(Duration::from_millis(1));
            waited += 1;
        }
        assert_eq!(app.world().resource::<Session<RussianBank>>().movers, vec![Player::TWO]);
        waited
    };
    // She waits, paused, while John reads the lesson, and the status says so.
    frames(&mut app, 60);
    assert!(moves(&app).is_empty(), "Mary waits for the lesson to be read");
    assert!(app.world().resource::<Watch>().paused);
    let text = status(&app);
    assert_eq!(text, "Read the lesson on the right, then press Space: Mary moves first");
    // Space, and she moves: the deal has been in view all along.
    app.world_mut().write_message(SessionRequest::TogglePause);
    frames(&mut app, 1);
    first_move_after(&mut app, 1);
    // Held while the board stands still for two seconds, then dealt again:
    // the new deal shows a moment (a second at the default speed, 20
    // frames of 50 ms) before she moves.
    app.world_mut().write_message(SessionRequest::TogglePause);
    frames(&mut app, 40);
    app.world_mut().write_message(SessionRequest::Restart);
    app.world_mut().write_message(SessionRequest::TogglePause);
    frames(&mut app, 1);
    assert!(moves(&app).is_empty(), "dealt again");
    let waited = first_move_after(&mut app, 1);
    assert!(waited >= 20, "after Play again, Mary moved after {waited} frames");
}

/// What the table panel says of the last Stop now.
fn last_stop(app: &App) -> Option<String> {
    let plies = app.world().resource::<Session<RussianBank>>().moves.len();
    app.world().resource::<tabula::app::russian_bank::LastStop>().shown(plies).map(str::to_owned)
}

/// What the teaching overlay's top line says now.
fn teach_line(app: &App) -> String {
    app.world().resource::<tabula::app::teach::Teaching>().verdict.clone()
}

/// The Stop lesson with T on: John a person, Mary its slipping opponent.
fn teaching_stop_lesson(name: &str) -> App {
    let dir = temp_dir(name);
    let mut app = headless(&dir);
    let (file, path) = level("00-priority-and-stop.ron");
    let lesson = tabula_engine::russian_bank::ai::LESSON_OPPONENT;
    start(&mut app, file, Some(path), vec![seat("John", None), seat("Mary", Some(lesson))]);
    app.world_mut().resource_mut::<tabula::app::teach::Teaching>().on = true;
    frames(&mut app, 2);
    app
}

/// Frames until Mary slips, in her first turn; then one for the teacher
/// to say so.
fn until_mary_slips(app: &mut App) {
    let mut waited = 0;
    while game(app).breach().is_none() {
        assert!(waited < 3000 && game(app).turn() == Player::TWO, "Mary slips in her first turn");
        frames(app, 1);
        std::thread::sleep(Duration::from_millis(1));
        waited += 1;
    }
    frames(app, 1);
}

/// Her pause is a second (20 frames); held for the Stop, she waits as
/// long as it takes: a minute here, far past the eight seconds she once
/// waited.
fn assert_mary_waits(app: &mut App) {
    let plies = moves(app).len();
    for _ in 0..1200 {
        frames(app, 1);
        std::thread::sleep(Duration::from_millis(1));
    }
    assert_eq!(moves(app).len(), plies, "Mary waits for the Stop");
}

/// With T on, the lesson opponent's slip is named with the card that
/// should have gone up, and Mary waits for John's Stop far longer than her
/// pause; after the Stop, John's line says what priority asks of him.
#[test]
fn teaching_names_the_others_slip_and_holds_her_for_the_stop() {
    let mut app = teaching_stop_lesson("rb-teach");
    let line = teach_line(&app);
    assert!(
        line.starts_with("Mary to move: the reserve's A♠ goes up first (A♠ reserve to a foundation)"),
        "{line}"
    );
    app.world_mut().write_message(SessionRequest::TogglePause);
    until_mary_slips(&mut app);
    let line = teach_line(&app);
    assert!(line.starts_with("Mary broke priority ("), "{line}");
    assert!(
        line.ends_with(", but A♠ reserve to a foundation came first. Press S to stop Mary! Mary waits for it while T is on"),
        "{line}"
    );
    assert_mary_waits(&mut app);
    let waits = |app: &App| app.world().resource::<tabula::app::teach::Teaching>().waits;
    assert_eq!(waits(&app), Some(RussianBank::NAME), "the line that asks for the Stop stands out");
    app.world_mut().write_message(RequestMove::<RussianBank> { by: Player::ONE, mv: BankMove::Stop });
    frames(&mut app, 2);
    assert_eq!(waits(&app), None);
    assert!(game(&app).breach().is_none() && game(&app).turn() == Player::ONE, "stopped");
    let line = teach_line(&app);
    assert!(
        line.starts_with("priority: ") || line == "no priority binds you: any move keeps the rules",
        "{line}"
    );
    // Off, nothing is said, and nobody is held.
    app.world_mut().resource_mut::<tabula::app::teach::Teaching>().on = false;
    frames(&mut app, 1);
    assert_eq!(teach_line(&app), "");
}

/// A fast-forward (F) keeps the hold at a slip while teaching: hurried,
/// Mary's next move would come at once and the slip go by unseen (a
/// stranger missed two that way).
#[test]
fn teaching_holds_a_fast_forward_at_the_others_slip() {
    let mut app = teaching_stop_lesson("rb-teach-hurry");
    app.world_mut().resource_mut::<Watch>().hurry = true;
    until_mary_slips(&mut app);
    assert!(app.world().resource::<Watch>().hurry, "still fast-forwarding");
    assert_mary_waits(&mut app);
    assert!(teach_line(&app).contains("Press S to stop Mary!"), "{}", teach_line(&app));
}

/// F while paused plays the rest of the other's turn, quickly, and the
/// game is still paused when the turn comes to the person.
#[test]
fn f_while_paused_plays_the_others_turn_out() {
    let dir = temp_dir("rb-paused-f");
    let mut app = headless(&dir);
    app.add_plugins(bevy::input::InputPlugin);
    let (file, path) = level("00-priority-and-stop.ron");
    start(&mut app, file, Some(path), vec![seat("John", None), seat("Mary", Some("greedy"))]);
    // The lesson's opponent moves first: the game waits, paused.
    frames(&mut app, 30);
    assert!(app.world().resource::<Watch>().paused && moves(&app).is_empty());
    press(&mut app, &[KeyCode::KeyF]);
    let mut waited = 0;
    while game(&app).turn() == Player::TWO {
        assert!(waited < 600, "Mary's turn was not played out: {:?}", moves(&app));
        frames(&mut app, 1);
        std::thread::sleep(Duration::from_millis(1));
        waited += 1;
    }
    assert!(!moves(&app).is_empty());
    assert!(app.world().resource::<Watch>().paused, "still paused for John");
    assert!(!app.world().resource::<Watch>().hurry, "the fast-forward ends with the turn");
}
