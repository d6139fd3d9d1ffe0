//! Play again deals a new game where the level deals by chance; Restart
//! plays the same deal again.

use super::*;
use tabula_engine::mancala::Mancala;
use tabula_engine::robots::Robots;
use tabula_engine::russian_bank::RussianBank;

fn open(app: &mut App, file: &str, seats: Vec<SeatSetup>) {
    let path = crate::manifest_dir().join(file);
    let level = level::load(&path).unwrap();
    start(app, level, Some(path), seats);
}

fn request(app: &mut App, request: SessionRequest) {
    app.world_mut().write_message(request);
    frames(app, 3);
}

fn homes(app: &App) -> Vec<Option<(u16, u16)>> {
    app.world().resource::<Session<Robots>>().game.robots().iter().map(|r| r.home).collect()
}

#[test]
fn play_again_hides_the_homes_anew_and_restart_keeps_them() {
    let dir = temp_dir("play-again-homes");
    let mut app = headless(&dir);
    open(&mut app, "levels/robots/12-hidden-homes.ron", vec![seat("Ann", None), seat("Bob", None)]);
    assert!(app.world().resource::<Session<Robots>>().deals, "hidden homes are dealt");
    let first = homes(&app);
    request(&mut app, SessionRequest::Restart);
    assert_eq!(homes(&app), first, "restarting the deal keeps its homes");
    let mut last = first;
    for _ in 0..8 {
        request(&mut app, SessionRequest::PlayAgain);
        let now = homes(&app);
        assert_ne!(now, last, "play again dealt the homes of the game before");
        last = now;
    }
    let session = app.world().resource::<Session<Robots>>();
    assert!(session.moves.is_empty());
    assert_eq!(session.seats[1].name, "Bob", "the seats are kept");
}

#[test]
fn play_again_shuffles_a_new_russian_bank_deal() {
    let dir = temp_dir("play-again-deal");
    let mut app = headless(&dir);
    open(&mut app, "levels/russian_bank/02-shuffled-no-stop.ron", vec![seat("Ann", None), seat("Bob", None)]);
    let deal = |app: &App| format!("{:?}", app.world().resource::<Session<RussianBank>>().game);
    let (first, seed) = (deal(&app), app.world().resource::<Session<RussianBank>>().seed);
    request(&mut app, SessionRequest::PlayAgain);
    assert_ne!(deal(&app), first, "a new shuffle");
    assert_ne!(app.world().resource::<Session<RussianBank>>().seed, seed, "saved replays keep the new seed");
    let second = deal(&app);
    request(&mut app, SessionRequest::Restart);
    assert_eq!(deal(&app), second, "the same deal again");
}

#[test]
fn a_level_that_deals_nothing_offers_no_restart_of_the_deal() {
    let dir = temp_dir("play-again-kalah");
    let mut app = headless(&dir);
    open(&mut app, "levels/mancala/kalah-6-4.ron", vec![seat("Ann", None), seat("Bob", None)]);
    assert!(!app.world().resource::<Session<Mancala>>().deals);
}

/// Save (Ctrl+S) after Play again saves the new deal, even with as few
/// moves as the game saved before; the same game again is not saved twice.
#[test]
fn save_after_play_again_saves_the_new_deal() {
    let dir = temp_dir("play-again-save");
    let mut app = headless(&dir);
    open(&mut app, "levels/russian_bank/02-shuffled-no-stop.ron", vec![seat("Ann", None), seat("Bob", None)]);
    let replays = || tabula::app::session::newest_first(&dir.join("replays"));
    let seed_of = |path: &Path| {
        let text = std::fs::read_to_string(path).unwrap();
        tabula_engine::replay::parse_header(&text, "replay").unwrap().seed
    };
    request(&mut app, SessionRequest::SaveReplay);
    assert_eq!(replays().len(), 1);
    request(&mut app, SessionRequest::SaveReplay);
    assert_eq!(replays().len(), 1, "the same game is saved once");
    request(&mut app, SessionRequest::PlayAgain);
    let seed = app.world().resource::<Session<RussianBank>>().seed;
    request(&mut app, SessionRequest::SaveReplay);
    let saved = replays();
    assert_eq!(saved.len(), 2, "the new deal, no more moves in it than the first, is saved too");
    assert!(saved.iter().any(|p| seed_of(p) == seed), "one of them holds the new deal");
}

/// Against an agent, Play again turns Nim's seats round: the person who
/// started (and, knowing the nim-sum, won) moves second next, and first
/// again after that. Each name keeps its controller, so the agent moves
/// first from its own seat. Kalah keeps its seats: its board is drawn
/// from the first seat's side.
#[test]
fn play_again_turns_the_seats_round_against_an_agent() {
    let dir = temp_dir("play-again-turns");
    let mut app = headless(&dir);
    start(
        &mut app,
        nim_level(&[3, 4, 5], Ending::Normal),
        None,
        vec![seat("Ann", None), seat("Bob", Some("best"))],
    );
    play_out(&mut app, Player::ONE);
    request_again(&mut app);
    let names = |app: &App| session(app).seats.iter().map(|s| s.name.clone()).collect::<Vec<_>>();
    assert_eq!(names(&app), ["Bob", "Ann"], "the seats turned round");
    assert!(status(&app).ends_with(": Bob starts, Ann plays second, in orange"), "said: {}", status(&app));
    assert!(session(&app).is_human(Player::TWO) && !session(&app).is_human(Player::ONE));
    wait_for(&mut app, "Bob's first move", |app| !session(app).moves.is_empty());
    assert_eq!(session(&app).movers[0], Player::ONE, "Bob's agent moved from the first seat");
    assert!(!session(&app).is_human(session(&app).movers[0]));
    request_again(&mut app);
    assert_eq!(names(&app), ["Ann", "Bob"], "and round again");
    // The person who starts is named once.
    assert!(status(&app).ends_with(": Ann plays first, in sky blue"), "said: {}", status(&app));

    let level = level::load(&crate::manifest_dir().join("levels/mancala/kalah-6-4.ron")).unwrap();
    start(&mut app, level, None, vec![seat("Ann", None), seat("Bob", Some("beginner"))]);
    request_again(&mut app);
    assert_eq!(app.world().resource::<Session<Mancala>>().seats[0].name, "Ann", "Kalah keeps its seats");

    start(&mut app, nim_level(&[3, 4, 5], Ending::Normal), None, vec![seat("Ann", None), seat("Bob", None)]);
    request_again(&mut app);
    assert_eq!(names(&app), ["Ann", "Bob"], "two people keep their seats");
}

/// The games played at one table are counted by name as Play again turns
/// the seats round; Restart after the end counts the game too, a game not
/// over is not counted, and a table set anew starts from nothing.
#[test]
fn the_games_at_a_table_are_counted_by_name_until_it_is_set_anew() {
    let dir = temp_dir("play-again-sitting");
    let mut app = headless(&dir);
    let ann_and_bob = || vec![seat("Ann", None), seat("Bob", Some("best"))];
    start(&mut app, nim_level(&[3, 4, 5], Ending::Normal), None, ann_and_bob());
    let line = |app: &App| app.world().resource::<tabula::app::session::Sitting>().line(session(app));
    let winner = |app: &App| match session(app).outcome() {
        Some(Outcome::Win(p)) => session(app).name_of(p).to_owned(),
        other => panic!("Nim has a winner: {other:?}"),
    };
    play_out(&mut app, Player::ONE);
    let mut won = vec![winner(&app)];
    assert_eq!(line(&app), None, "one game is its own result");
    request_again(&mut app);
    assert_eq!(line(&app), None, "the next game is not over");
    play_out(&mut app, Player::TWO);
    won.push(winner(&app));
    // Restart after the end counts the game; again before a move, nothing.
    request(&mut app, SessionRequest::Restart);
    request(&mut app, SessionRequest::Restart);
    play_out(&mut app, Player::TWO);
    won.push(winner(&app));
    let count = |name: &str| won.iter().filter(|w| *w == name).count();
    let (ann, bob) = (count("Ann"), count("Bob"));
    let said = if ann > bob { format!("Ann {ann}, Bob {bob}") } else { format!("Bob {bob}, Ann {ann}") };
    assert_eq!(line(&app), Some(format!("Games at this table: {said}")), "won: {won:?}");
    // Three won by the one person, none lost: the band asks whether a
    // stronger opponent would suit (Bob, at Best, is never offered it).
    let said = line(&app).unwrap();
    assert_eq!(said.ends_with("A stronger opponent? Esc, then choose one for Player 2"), ann == 3, "{said}");
    start(&mut app, nim_level(&[3, 4, 5], Ending::Normal), None, ann_and_bob());
    play_out(&mut app, Player::ONE);
    assert_eq!(line(&app), None, "a table set anew counts from nothing");
}

fn request_again(app: &mut App) {
    app.world_mut().write_message(SessionRequest::PlayAgain);
    frames(app, 3);
}

fn start_dealt(app: &mut App, file: &str, seats: Vec<SeatSetup>) -> LevelFile {
    let path = crate::manifest_dir().join(file);
    let level = level::load(&path).unwrap();
    let plan = SessionPlan {
        level_path: Some(path),
        level: level.clone(),
        seats,
        seed: 7,
        replay: None,
        deal: true,
    };
    app.world_mut().write_message(SessionRequest::Start(Box::new(plan)));
    frames(app, 3);
    level
}

/// A session dealt anew plays each game on a new board like its level:
/// Nim's piles as many as the level's, with its ending; Play again deals
/// another, the board drawn anew, and a replay saved holds the board
/// played; Restart keeps it.
#[test]
fn a_board_dealt_anew_is_like_its_level_and_play_again_deals_another() {
    let dir = temp_dir("play-again-dealt");
    let mut app = headless(&dir);
    let file =
        start_dealt(&mut app, "levels/nim/mcmorran-5-6-7.ron", vec![seat("Ann", None), seat("Bob", None)]);
    let original = file.get::<Nim>().unwrap().clone();
    let piles = |app: &App| session(app).level.piles.clone();
    let mut seen = std::collections::HashSet::new();
    for game in 0..6 {
        let s = session(&app);
        assert_eq!(s.dealt_from.as_ref(), Some(&original));
        assert_eq!((s.level.piles.len(), s.level.ending), (3, original.ending), "game {game}");
        assert_eq!(s.level_name, s.level.name);
        assert!(s.level_name.starts_with("Dealt "), "{}", s.level_name);
        assert!(s.deals, "Restart means the same deal");
        let drawn: u32 = app.world_mut().query::<&Stone>().iter(app.world()).count() as u32;
        assert_eq!(drawn, piles(&app).iter().sum::<u32>(), "the board drawn is the board dealt");
        seen.insert(piles(&app));
        request(&mut app, SessionRequest::PlayAgain);
    }
    assert!(seen.len() >= 5, "six games dealt {seen:?}");
    let dealt = piles(&app);
    request(&mut app, SessionRequest::Restart);
    assert_eq!(piles(&app), dealt, "restart keeps the board");
    app.world_mut().write_message(RequestMove::<Nim> { by: Player::ONE, mv: Take { pile: 0, count: 1 } });
    frames(&mut app, 2);
    request(&mut app, SessionRequest::SaveReplay);
    let saved = tabula::app::session::newest_first(&dir.join("replays"));
    let text = std::fs::read_to_string(&saved[0]).unwrap();
    let header = tabula_engine::replay::parse_header(&text, "replay").unwrap();
    let replay = header.level.resolve(&saved[0]).unwrap();
    assert_eq!(
        replay.get::<Nim>().map(|l| l.piles.clone()),
        Some(dealt),
        "the replay holds the board played"
    );

    let hidden = start_dealt(
        &mut app,
        "levels/robots/12-hidden-homes.ron",
        vec![seat("Ann", None), seat("Bob", None)],
    );
    let board = |app: &App| app.world().resource::<Session<Robots>>().level.board.clone();
    let first = board(&app);
    assert_ne!(first, hidden.get::<Robots>().unwrap().board, "a board of its own");
    assert_eq!(first.len(), hidden.get::<Robots>().unwrap().board.len());
    request(&mut app, SessionRequest::PlayAgain);
    assert_ne!(board(&app), first, "and another");
}
