//! Whole games of each game between two windows through a hosted server;
//! the games with hidden things (Russian Bank's unseen cards, the Robot
//! board's hidden homes) followed by a spectator's window too.

use super::*;
use tabula_engine::mancala::Mancala;
use tabula_engine::robots::Robots;
use tabula_engine::russian_bank::RussianBank;

/// A whole game of `level` between Ann's window and Bob's, each seat
/// played by `agent`, with a spectator's window if `spectator`; `check`
/// after every move in every window.
fn whole_game<G: WindowGame>(name: &str, level: &str, agent: &str, check: Check, spectator: bool) {
    let dir = temp_dir(name);
    let server = host(&dir);
    let url = server.local_url();
    let (mut ann, mut bob, mut cy) = (window(&dir, "ann"), window(&dir, "bob"), window(&dir, "cy"));
    let table = sit_down::<G>(&url, &mut ann, &mut bob, level);
    let mut apps = vec![&mut ann, &mut bob];
    if spectator {
        watch::<G>(&url, &table, &mut cy);
        apps.push(&mut cy);
    }
    settle(&mut apps);
    for (i, app) in apps.iter_mut().enumerate() {
        check(app, &format!("window {} at the start", i + 1));
    }
    let mut hands = [Hand::<G>::new(agent, 1), Hand::<G>::new(agent, 2)];
    if spectator {
        play_on(&mut apps, &mut hands, check, |a| plies::<G>(a[0]) >= 6);
        assert!(!over::<G>(apps[0]), "the game is still on");
        spectator_cut_off(&mut apps, &mut hands, check);
    }
    play_on(&mut apps, &mut hands, check, |_| false);
    assert!(plies::<G>(apps[0]) > 0);
    if spectator {
        assert!(online(apps[2]).result.is_some(), "the spectator was told the end");
    }
    ended_alike(&dir, &table, &ann, &bob);
    for app in [&ann, &bob] {
        let session = game_session::<G>(app);
        let end = G::outcome_text(&session.view(), &session.names());
        assert!(status(app).starts_with(&end), "the status line tells the end: {}", status(app));
    }
    kept_the_replay::<G>(&dir, &mut ann, &mut bob);
}

/// Each seat's window keeps the finished game with the games played on
/// its machine, as the server gave it: O lists it, and it opens to the
/// moves that were played.
fn kept_the_replay<G: WindowGame>(dir: &Path, ann: &mut App, bob: &mut App) {
    let kept = |name: &str| tabula::app::session::newest_first(&dir.join(name).join("replays"));
    run_until(&mut [&mut *ann, &mut *bob], "each seat's replay kept", |_| {
        ["ann", "bob"].iter().all(|name| !kept(name).is_empty())
    });
    for (name, app) in [("ann", &*ann), ("bob", &*bob)] {
        let files = kept(name);
        assert_eq!(files.len(), 1, "{name}: {files:?}");
        assert!(status(app).contains("saved as the replay"), "{name}: {}", status(app));
        let plan = tabula::app::session::plan_from_replay(&files[0], &Default::default()).unwrap();
        let text = plan.replay.unwrap().text;
        let moves = tabula_engine::replay::parse::<G::Move>(&text, "kept").unwrap().moves;
        assert_eq!(moves, game_session::<G>(app).moves, "{name}'s replay holds the game's moves");
        let names: Vec<String> = plan.seats.iter().map(|s| s.name.clone()).collect();
        assert_eq!(names, ["Ann", "Bob"]);
    }
    // Ctrl+S after the end asks again, and the same game is not copied.
    ann.world_mut().write_message(SessionRequest::SaveReplay);
    run_until(&mut [&mut *ann], "the second save answered", |a| status(a[0]).starts_with("Saved already"));
    assert_eq!(kept("ann").len(), 1);
}

/// After the end both seats ask for a rematch: the spectator's window
/// follows the table into it, and shows the new game from its start.
#[test]
fn a_spectator_follows_the_table_into_its_rematch() {
    let dir = temp_dir("online-rematch-watched");
    let server = host(&dir);
    let url = server.local_url();
    let (mut ann, mut bob, mut cy) = (window(&dir, "ann"), window(&dir, "bob"), window(&dir, "cy"));
    let table = sit_down::<Nim>(&url, &mut ann, &mut bob, "nim/beginner-2-3");
    watch::<Nim>(&url, &table, &mut cy);
    let mut hands = [Hand::<Nim>::new("random", 1), Hand::<Nim>::new("random", 2)];
    play_on(&mut [&mut ann, &mut bob, &mut cy], &mut hands, nim_board, |_| false);
    for app in [&mut ann, &mut bob] {
        app.world_mut().write_message(SessionRequest::PlayAgain);
    }
    run_until(&mut [&mut ann, &mut bob, &mut cy], "every window at the rematch's table", |a| {
        let new = online(a[0]).table.clone();
        new.as_deref() != Some(table.as_str())
            && a.iter().all(|w| online(w).table == new && plies::<Nim>(w) == 0 && !over::<Nim>(w))
    });
    assert_eq!(online(&cy).seat, None, "still a spectator");
    assert_eq!(online(&ann).seat, Some(Player::TWO), "the seats moved round");
    assert!(!game_session::<Nim>(&cy).has_human());
}

#[test]
fn two_windows_play_nim_through_a_hosted_server() {
    whole_game::<Nim>("online-nim", "nim/traditional-3-4-5", "random", nim_board, false);
}

#[test]
fn two_windows_play_kalah_through_a_hosted_server() {
    whole_game::<Mancala>("online-kalah", "mancala/kalah-6-4", "greedy", mancala_board, false);
}

#[test]
fn two_windows_play_russian_bank_watched_by_a_third_that_sees_no_unseen_card() {
    whole_game::<RussianBank>("online-bank", "russian_bank/01-shuffled-deal", "greedy", bank_board, true);
}

#[test]
fn two_windows_play_hidden_homes_watched_by_a_third_that_sees_no_home() {
    whole_game::<Robots>("online-robots", "robots/12-hidden-homes", "sleuth", robot_board, true);
}

/// The spectator's connection cut mid-game: a move is played while it is
/// away, and it comes back by itself to the table as it is now.
fn spectator_cut_off<G: WindowGame>(apps: &mut [&mut App], hands: &mut [Hand<G>], check: Check) {
    let ply = plies::<G>(apps[0]);
    online(apps[2]).cut();
    run_until(&mut apps[2..], "the spectator's window knows it is cut off", |a| !online(a[0]).up);
    assert!(status(apps[2]).contains("Connection lost"), "the spectator's status: {}", status(apps[2]));
    let movers: usize =
        hands.iter_mut().zip(apps.iter_mut()).map(|(hand, app)| hand.play(app) as usize).sum();
    assert_eq!(movers, 1);
    run_until(&mut apps[..2], "a move while the spectator is away", |a| {
        a.iter().all(|app| plies::<G>(app) == ply + 1)
    });
    assert_eq!(plies::<G>(apps[2]), ply, "the spectator, away, did not hear it");
    run_until(apps, "the spectator back, with the move", |a| online(a[2]).up && plies::<G>(a[2]) == ply + 1);
    assert_eq!(online(apps[2]).reconnects, 1);
    assert_eq!(online(apps[2]).seat, None, "still a spectator");
    on_screen::<G>(apps);
    agree::<G>(apps, "the spectator back");
    check(apps[2], "the spectator back");
}

/// A table of agents alone, hosted by a window: the host's window watches
/// it, as does a friend's from elsewhere, each move by move to the end.
#[test]
fn a_table_of_agents_is_watched_by_its_host_and_a_friend() {
    let dir = temp_dir("online-agents");
    let server = host(&dir);
    let url = server.local_url();
    let (mut ann, mut cy) = (window(&dir, "ann"), window(&dir, "cy"));
    seek(&mut ann, &url, "Ann", Seek::Create(create_of("mancala/kalah-6-4", &["greedy", "greedy"])));
    run_until(&mut [&mut ann], "the host's table", |a| has_session::<Mancala>(a[0]));
    assert_eq!(online(&ann).seat, None, "no seat is open to a person: the host watches");
    assert_eq!(online(&ann).token, None);
    let table = online(&ann).table.clone().unwrap();
    watch::<Mancala>(&url, &table, &mut cy);
    run_until(&mut [&mut ann, &mut cy], "the agents' game to its end", |a| {
        a.iter().all(|w| over::<Mancala>(w))
    });
    settle(&mut [&mut ann, &mut cy]);
    agree::<Mancala>(&[&mut ann, &mut cy], "at the end");
    assert!(plies::<Mancala>(&ann) > 10, "a whole game was watched");
}
