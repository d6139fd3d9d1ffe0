//! Taking a move back at a server's table: asked by the seat that made it,
//! answered by the other; declined, nothing changes; accepted, both
//! windows go back to the position before it.

use super::*;
use tabula::app::session::SessionRequest;
use tabula_engine::mancala::Mancala;

fn take_back(app: &App) -> Option<(Player, usize)> {
    online(app).take_back
}

#[test]
fn a_take_back_declined_changes_nothing_and_accepted_takes_both_windows_back() {
    let dir = temp_dir("online-take-back");
    let server = host(&dir);
    let (mut ann, mut bob) = (window(&dir, "ann"), window(&dir, "bob"));
    sit_down::<Mancala>(&server.local_url(), &mut ann, &mut bob, "mancala/kalah-6-4");
    let mut hands = [Hand::<Mancala>::new("greedy", 5), Hand::<Mancala>::new("greedy", 6)];
    // Every position so far, move by move, until Ann has just moved and
    // Bob is to move.
    let mut positions = vec![game_session::<Mancala>(&ann).game];
    loop {
        let next = positions.len();
        play_on(&mut [&mut ann, &mut bob], &mut hands, mancala_board, |a| plies::<Mancala>(a[0]) == next);
        assert!(!over::<Mancala>(&ann), "the game is still on");
        positions.push(game_session::<Mancala>(&ann).game);
        let session = game_session::<Mancala>(&bob);
        if next >= 3 && session.movers.last() == Some(&Player::ONE) && session.human_to_move().is_some() {
            break;
        }
    }
    let ply = positions.len() - 1;
    // Back to the position before Ann's last move.
    let to_ply = ply - 1;

    // Asked and declined.
    ann.world_mut().write_message(SessionRequest::Undo);
    run_until(&mut [&mut ann, &mut bob], "Bob asked to take a move back", |a| take_back(a[1]).is_some());
    assert_eq!(take_back(&bob), Some((Player::ONE, to_ply)));
    bob.world_mut().write_message(SessionRequest::AnswerTakeBack(false));
    run_until(&mut [&mut ann, &mut bob], "the take-back declined", |a| {
        a.iter().all(|app| take_back(app).is_none())
    });
    assert_eq!(status(&ann), "Bob declined the take-back", "by name, not by seat number");
    settle(&mut [&mut ann, &mut bob]);
    for app in [&mut ann, &mut bob] {
        assert_eq!(plies::<Mancala>(app), ply, "nothing taken back");
        assert!(game_session::<Mancala>(app).game == positions[ply]);
        mancala_board(app, "after the take-back was declined");
    }

    // Asked again and accepted.
    ann.world_mut().write_message(SessionRequest::Undo);
    run_until(&mut [&mut ann, &mut bob], "Bob asked again", |a| take_back(a[1]).is_some());
    bob.world_mut().write_message(SessionRequest::AnswerTakeBack(true));
    run_until(&mut [&mut ann, &mut bob], "both windows taken back", |a| {
        a.iter().all(|app| plies::<Mancala>(app) == to_ply && take_back(app).is_none())
    });
    settle(&mut [&mut ann, &mut bob]);
    for app in [&mut ann, &mut bob] {
        assert!(
            game_session::<Mancala>(app).game == positions[to_ply],
            "back to the position before Ann's move"
        );
        mancala_board(app, "after the take-back");
    }
    assert!(game_session::<Mancala>(&ann).human_to_move().is_some(), "Ann to move again");

    // The game plays on from there to its end.
    play_on(&mut [&mut ann, &mut bob], &mut hands, mancala_board, |_| false);
    let table = online(&ann).table.clone().unwrap();
    ended_alike(&dir, &table, &ann, &bob);
}
