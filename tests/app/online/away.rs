//! A window away from its table mid-game: its connection cut (it comes back
//! by itself), or the window closed and opened again on its kept seat.

use super::*;
use tabula_engine::mancala::Mancala;
use tabula_engine::robots::Robots;

#[test]
fn a_window_cut_off_mid_game_says_so_comes_back_by_itself_and_plays_on() {
    let dir = temp_dir("online-cut");
    let server = host(&dir);
    let (mut ann, mut bob) = (window(&dir, "ann"), window(&dir, "bob"));
    sit_down::<Mancala>(&server.local_url(), &mut ann, &mut bob, "mancala/kalah-6-4");
    let mut hands = [Hand::<Mancala>::new("greedy", 1), Hand::<Mancala>::new("greedy", 2)];
    // A few moves in, with Ann to move.
    play_on(&mut [&mut ann, &mut bob], &mut hands, mancala_board, |a| {
        plies::<Mancala>(a[0]) >= 4 && game_session::<Mancala>(a[0]).human_to_move().is_some()
    });
    assert!(!over::<Mancala>(&ann), "the game is still on");
    let before = plies::<Mancala>(&bob);

    online(&bob).cut();
    run_until(&mut [&mut bob], "Bob's window knows its connection is down", |a| !online(a[0]).up);
    assert!(status(&bob).contains("Connection lost"), "Bob's status: {}", status(&bob));
    assert_eq!(online(&bob).seat_state(1), "you, reconnecting");
    // Ann sees Bob's seat go, and moves meanwhile: Bob's window, its frames
    // not run, has not taken its seat back yet.
    run_until(&mut [&mut ann], "Ann sees Bob's seat empty", |a| online(a[0]).seat_state(1) == "reconnecting");
    assert!(hands[0].play(&mut ann));
    run_until(&mut [&mut ann], "Ann's move played", |a| plies::<Mancala>(a[0]) == before + 1);
    assert_eq!(plies::<Mancala>(&bob), before, "Bob, away, did not hear it");

    run_until(&mut [&mut ann, &mut bob], "Bob back at the table with Ann's move", |a| {
        online(a[1]).up && plies::<Mancala>(a[1]) == before + 1 && online(a[0]).seat_state(1) == "connected"
    });
    assert_eq!(online(&bob).reconnects, 1);
    assert_eq!(online(&bob).seat, Some(Player::TWO));
    assert_eq!(online(&bob).seat_state(1), "you");
    settle(&mut [&mut ann, &mut bob]);
    agree::<Mancala>(&[&mut ann, &mut bob], "Bob back");
    mancala_board(&mut bob, "Bob back");

    play_on(&mut [&mut ann, &mut bob], &mut hands, mancala_board, |_| false);
    assert_eq!(online(&bob).reconnects, 1, "one cut, one reconnect");
    let table = online(&ann).table.clone().unwrap();
    ended_alike(&dir, &table, &ann, &bob);
}

#[test]
fn a_window_closed_mid_game_and_opened_again_sits_back_in_its_seat_and_finishes() {
    let dir = temp_dir("online-reopen");
    let server = host(&dir);
    let url = server.local_url();
    let (mut ann, mut bob) = (window(&dir, "ann"), window(&dir, "bob"));
    let table = sit_down::<Robots>(&url, &mut ann, &mut bob, "robots/12-hidden-homes");
    let mut hands = [Hand::<Robots>::new("sleuth", 3), Hand::<Robots>::new("sleuth", 4)];
    play_on(&mut [&mut ann, &mut bob], &mut hands, robot_board, |a| plies::<Robots>(a[0]) >= 6);
    assert!(!over::<Robots>(&ann), "the game is still on");
    let (game, moves) = {
        let session = game_session::<Robots>(&bob);
        (session.game.clone(), session.moves.clone())
    };

    // The window closes; what it kept on disk is its seat's token.
    drop(bob);
    run_until(&mut [&mut ann], "Ann sees Bob's seat empty", |a| online(a[0]).seat_state(1) == "reconnecting");
    let kept = seats_file::read(&seats_file_of(&dir, "bob"));
    let seat = kept.iter().find(|s| s.table == table).expect("Bob's seat kept on disk");
    assert_eq!((seat.seat, seat.url.as_str()), (2, url.as_str()));

    let mut bob = window(&dir, "bob");
    assert!(!has_session::<Robots>(&bob), "a new window, at no table yet");
    seek(&mut bob, &url, "Bob", Seek::Resume { token: seat.token.clone() });
    run_until(&mut [&mut ann, &mut bob], "Bob back in his seat", |a| {
        has_session::<Robots>(a[1]) && online(a[0]).seat_state(1) == "connected"
    });
    assert_eq!(online(&bob).seat, Some(Player::TWO));
    assert_eq!(online(&bob).table.as_deref(), Some(table.as_str()));
    {
        let session = game_session::<Robots>(&bob);
        assert_eq!(session.moves, moves, "the same moves");
        assert!(session.game == game, "the same position");
        assert!(session.is_human(Player::TWO) && !session.is_human(Player::ONE), "Bob's seat is his");
    }
    on_screen::<Robots>(&mut [&mut bob]);
    robot_board(&mut bob, "Bob's window opened again");

    play_on(&mut [&mut ann, &mut bob], &mut hands, robot_board, |_| false);
    ended_alike(&dir, &table, &ann, &bob);
}
