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
    play_on(&mut apps, &mut hands, check, |_| false);
    assert!(plies::<G>(apps[0]) > 0);
    if spectator {
        assert!(online(apps[2]).result.is_some(), "the spectator was told the end");
    }
    ended_alike(&dir, &table, &ann, &bob);
    for app in [&ann, &bob] {
        let session = game_session::<G>(app);
        let end = G::outcome_text(&session.view(), &session.names());
        assert_eq!(status(app), end, "the status line tells the end");
    }
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
