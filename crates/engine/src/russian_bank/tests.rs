//! Russian Bank: seed 004's seven tests, a hand-worked case for every rule,
//! hidden information, level errors and the shared conformance test.

use super::level::{Card, Deal, FixedDeal, FixedPosition, RussianBankLevel, SideSpec};
use super::rules::{BankError, BankMove, BankStep, Place, Priority, RussianBank, Source, Target};
use crate::core::conformance::check_random_games;
use crate::core::{Game, Observation, Outcome, Player, apply_with_steps, rng_from_seed};

use BankMove::{Accept, EndTurn, Play, Stop, TurnHand};
use Source::{Hand, Reserve};
use Target::{OpponentReserve, OpponentWaste, Waste};

pub(super) fn level_file(name: &str) -> RussianBankLevel {
    let path = crate::manifest_dir().join("../../levels/russian_bank").join(name);
    let file = crate::level::load(&path).unwrap_or_else(|e| panic!("{e}"));
    file.get::<RussianBank>().expect("a Russian Bank level").clone()
}

fn start(name: &str) -> RussianBank {
    RussianBank::new(&level_file(name), 0).unwrap()
}

fn cards(list: &[&str]) -> Vec<Card> {
    list.iter().map(|c| c.parse().unwrap()).collect()
}

fn card(text: &str) -> Card {
    text.parse().unwrap()
}

/// A fixed position: player 1's and 2's (reserve, hand, waste), T1..T8.
pub(super) fn position(
    to_move: u8,
    one: (&[&str], &[&str], &[&str]),
    two: (&[&str], &[&str], &[&str]),
    tableau: [&[&str]; 8],
    foundations: [&[&str]; 8],
    stop_rule: bool,
) -> RussianBank {
    let side = |(r, h, w): (&[&str], &[&str], &[&str])| SideSpec {
        reserve: cards(r),
        hand: cards(h),
        waste: cards(w),
    };
    let level = RussianBankLevel {
        name: "test".into(),
        description: String::new(),
        group: Default::default(),
        deal: Deal::Fixed(FixedPosition(FixedDeal {
            to_move,
            players: vec![side(one), side(two)],
            tableau: tableau.iter().map(|p| cards(p)).collect(),
            foundations: foundations.iter().map(|p| cards(p)).collect(),
        })),
        stop_rule,
        match_points: 300,
        move_cap: 5000,
    };
    RussianBank::new(&level, 0).unwrap()
}

const NONE8: [&[&str]; 8] = [&[], &[], &[], &[], &[], &[], &[], &[]];

/// The seed's `assertEqual(bd.move…(), result)`: the move by the player
/// whose turn it is applies, or is refused and changes nothing.
fn seed_move(game: &mut RussianBank, mv: BankMove) -> bool {
    let before = game.clone();
    match game.apply(game.turn(), mv) {
        Ok(_) => true,
        Err(_) => {
            assert_eq!(*game, before, "a refused {mv} changed the state");
            false
        }
    }
}

fn play(from: Source, to: Target) -> BankMove {
    Play { from, to }
}

fn t(n: u8) -> Source {
    Source::Tableau(n)
}

fn f(n: u8) -> Target {
    Target::Foundation(n)
}

fn to_t(n: u8) -> Target {
    Target::Tableau(n)
}

// ---- Seed 004's seven tests ----

#[test]
fn seed_available_cards_start() {
    for seed in 0..20 {
        let game = RussianBank::new(&level_file("01-shuffled-deal.ron"), seed).unwrap();
        for p in [Player::ONE, Player::TWO] {
            let side = game.side(p);
            assert_eq!(side.reserve.len(), 13);
            assert_eq!(side.reserve_hidden, 12, "the reserve's top card is face up, the rest face down");
            assert_eq!(side.hand.len(), 35);
            assert!(side.waste.is_empty() && side.shown.is_none());
        }
        for n in 0..8 {
            assert_eq!(game.tableau(n).len(), 1);
            assert_eq!(game.foundation(n), None);
        }
        // Two full decks: every face twice.
        let mut count = [0; 52];
        all_cards(&game).iter().for_each(|c| count[c.index()] += 1);
        assert!(count.iter().all(|&n| n == 2), "seed {seed}: {count:?}");
    }
}

fn reserve_sequence(game: &mut RussianBank) -> Vec<bool> {
    [
        play(Reserve, f(1)),
        play(Reserve, f(1)),
        play(Reserve, to_t(1)),
        play(Reserve, to_t(1)),
        play(Reserve, OpponentReserve),
        play(Reserve, OpponentWaste),
        play(Reserve, OpponentWaste),
        play(Reserve, OpponentReserve),
    ]
    .into_iter()
    .map(|mv| seed_move(game, mv))
    .collect()
}

const RESERVE_RESULTS: [bool; 8] = [true, false, true, false, false, true, false, true];

#[test]
fn seed_move_card_from_reserve() {
    let mut game = start("seed-004-move-card-from-reserve.ron");
    assert_eq!(game.turn(), Player::ONE);
    assert_eq!(reserve_sequence(&mut game), RESERVE_RESULTS);
    // The last move broke priority (the 2S could go on the AS) and emptied
    // player 1: player 2 decides before the game ends.
    assert_eq!(game.breach().map(|b| b.rule), Some(Priority::ReserveToFoundation));
    assert!(game.deciding());
    assert_eq!(game.current_player(), Player::TWO);
    assert_eq!(game.outcome(), None);
}

#[test]
fn seed_move_card_from_reserve_2() {
    let mut game = start("seed-004-move-card-from-reserve-2.ron");
    assert_eq!(game.turn(), Player::TWO);
    assert_eq!(reserve_sequence(&mut game), RESERVE_RESULTS);
    assert!(game.deciding());
    assert_eq!(game.current_player(), Player::ONE);
}

fn tableau_sequence(game: &mut RussianBank) -> Vec<bool> {
    [
        play(t(2), OpponentWaste),
        play(t(2), to_t(3)),
        play(t(2), f(1)),
        play(t(1), f(1)),
        play(t(1), to_t(3)),
        play(t(3), OpponentReserve),
        play(t(1), OpponentReserve),
        play(t(3), OpponentWaste),
    ]
    .into_iter()
    .map(|mv| seed_move(game, mv))
    .collect()
}

const TABLEAU_RESULTS: [bool; 8] = [false, false, true, false, true, false, true, true];

#[test]
fn seed_move_card_from_tableau() {
    let mut game = start("seed-004-move-card-from-tableau.ron");
    assert_eq!(tableau_sequence(&mut game), TABLEAU_RESULTS);
    // Tableau moves take nothing from player 1's own piles: no win.
    assert_eq!(game.outcome(), None);
}

#[test]
fn seed_move_card_from_tableau_2() {
    let mut game = start("seed-004-move-card-from-tableau-2.ron");
    assert_eq!(tableau_sequence(&mut game), TABLEAU_RESULTS);
    assert_eq!(game.outcome(), None);
}

#[test]
fn seed_calculate_ending_points() {
    let mut game = start("seed-004-move-card-from-tableau.ron");
    tableau_sequence(&mut game);
    // 30 + 2 x 2 reserve cards (8C 7C) + 1 x 2 waste cards (5H 6H).
    assert_eq!(game.ending_points(Player::ONE), 36);
}

#[test]
fn seed_calculate_ending_points_2() {
    let mut game = start("seed-004-move-card-from-tableau-2.ron");
    tableau_sequence(&mut game);
    assert_eq!(game.ending_points(Player::TWO), 36);
}

// ---- Building ----

#[test]
fn each_building_rule_refuses_with_its_own_error() {
    let game = position(
        1,
        (&["KD", "5H"], &["2C"], &[]),
        (&["4S"], &["9C"], &["7H"]),
        [&["6C"], &["9D"], &[], &[], &[], &[], &[], &[]],
        [&["AD"], &[], &[], &[], &[], &[], &[], &[]],
        true,
    );
    let refused = |mv: BankMove| {
        let mut g = game.clone();
        let err = g.apply(Player::ONE, mv).unwrap_err();
        assert_eq!(g, game, "{mv} refused but changed the state");
        err
    };
    assert_eq!(
        refused(play(Reserve, f(1))),
        BankError::Foundation { card: card("5H"), onto: Some(card("AD")) }
    );
    assert_eq!(refused(play(Reserve, f(2))), BankError::Foundation { card: card("5H"), onto: None });
    assert_eq!(refused(play(Reserve, to_t(2))), BankError::Tableau { card: card("5H"), onto: card("9D") });
    assert_eq!(
        refused(play(Reserve, OpponentReserve)),
        BankError::Loading { card: card("5H"), onto: card("4S") }
    );
    assert_eq!(refused(play(Reserve, Waste)), BankError::WasteOnlyFromHand);
    assert_eq!(refused(play(Hand, Waste)), BankError::EmptySource { from: Hand });
    assert_eq!(refused(play(t(3), f(2))), BankError::EmptySource { from: t(3) });
    assert_eq!(refused(play(t(1), to_t(1))), BankError::SamePile);
    assert_eq!(refused(play(t(9), to_t(1))), BankError::NoSuchPile { kind: 'T', n: 9 });
    assert_eq!(refused(play(Reserve, f(0))), BankError::NoSuchPile { kind: 'F', n: 0 });
    assert_eq!(refused(EndTurn), BankError::CannotEndTurn);
    assert_eq!(refused(Accept), BankError::NothingToAccept);
    assert_eq!(refused(Stop), BankError::NoBreach);
    // Loading takes one higher or lower in suit; the 5H on 6C (black) is a tableau build.
    let mut g = game.clone();
    g.apply(Player::ONE, play(Reserve, to_t(1))).unwrap();
    assert_eq!(g.tableau(0), cards(&["6C", "5H"]).as_slice());
    // Anything goes on an empty tableau pile: the KD next.
    g.apply(Player::ONE, play(Reserve, to_t(3))).unwrap();
    assert_eq!(g.tableau(2), cards(&["KD"]).as_slice());
    // Out of turn.
    let mut g = game.clone();
    let err = g.apply(Player::TWO, play(Reserve, to_t(3))).unwrap_err();
    assert!(matches!(err, BankError::NotYourTurn(_)), "{err}");
}

#[test]
fn an_empty_pile_of_the_opponent_cannot_be_loaded_and_ones_own_never() {
    let game = position(
        1,
        (&["5H"], &[], &["4H"]),
        (&[], &["9C"], &[]),
        [&["6D"], &[], &[], &[], &[], &[], &[], &[]],
        NONE8,
        true,
    );
    let mut moves = Vec::new();
    game.legal_moves(Player::ONE, &mut moves);
    assert!(!moves.iter().any(|m| matches!(m, Play { to: OpponentReserve | OpponentWaste, .. })));
    let mut g = game.clone();
    assert_eq!(
        g.apply(Player::ONE, play(Reserve, OpponentWaste)),
        Err(BankError::LoadEmpty { pile: "waste" })
    );
    // There is no move onto one's own reserve or waste but the hand card to the waste.
    assert_eq!(g.apply(Player::ONE, play(Reserve, Waste)), Err(BankError::WasteOnlyFromHand));
}

// ---- Priority and Stop ----

/// Player 1 can play the AC from T3 up; the reserve's 6H can load player
/// 2's 7H; the hand holds 8D.
fn tempting(stop_rule: bool) -> RussianBank {
    start_with("06-a-stop.ron", stop_rule)
}

fn start_with(name: &str, stop_rule: bool) -> RussianBank {
    let mut level = level_file(name);
    level.stop_rule = stop_rule;
    RussianBank::new(&level, 0).unwrap()
}

#[test]
fn with_the_stop_rule_off_every_breach_is_refused_naming_the_rule() {
    let game = tempting(false);
    let mut g = game.clone();
    let load = play(Reserve, OpponentReserve);
    assert_eq!(g.apply(Player::ONE, load), Err(BankError::Priority(Priority::ToFoundation)));
    assert_eq!(g.apply(Player::ONE, TurnHand), Err(BankError::Priority(Priority::ToFoundation)));
    assert_eq!(g, game);
    let mut moves = Vec::new();
    g.legal_moves(Player::ONE, &mut moves);
    assert!(moves.iter().all(|m| matches!(m, Play { to: Target::Foundation(_), .. })), "{moves:?}");
    // A building error is named before priority.
    assert_eq!(
        g.apply(Player::ONE, play(Reserve, to_t(1))),
        Err(BankError::Tableau { card: card("6H"), onto: card("QS") })
    );
    // The reserve's card to a foundation comes before any other foundation move.
    let game = position(
        1,
        (&["9S", "2C"], &["5D"], &[]),
        (&["KH"], &["9C"], &[]),
        [&["AH"], &[], &[], &[], &[], &[], &[], &[]],
        [&["AC"], &[], &[], &[], &[], &[], &[], &[]],
        false,
    );
    let mut g = game.clone();
    assert_eq!(
        g.apply(Player::ONE, play(t(1), f(2))),
        Err(BankError::Priority(Priority::ReserveToFoundation))
    );
    g.apply(Player::ONE, play(Reserve, f(1))).unwrap();
    g.apply(Player::ONE, play(t(1), f(2))).unwrap();
    // The reserve before the hand: the 9S can go to an empty tableau pile.
    assert_eq!(g.apply(Player::ONE, TurnHand), Err(BankError::Priority(Priority::ReserveBeforeHand)));
    g.apply(Player::ONE, play(Reserve, to_t(1))).unwrap();
    g.apply(Player::ONE, TurnHand).unwrap();
    assert_eq!(g.side(Player::ONE).shown, Some(card("5D")));
}

/// The teacher's aid names the first rule that binds and only the moves
/// that keep it, with the Stop rule on or off.
#[test]
fn priority_now_names_the_binding_rule_and_the_moves_that_keep_it() {
    for stop_rule in [false, true] {
        let mut g = position(
            1,
            (&["9S", "2C"], &["5D"], &[]),
            (&["KH"], &["9C"], &[]),
            [&["AH"], &[], &[], &[], &[], &[], &[], &[]],
            [&["AC"], &[], &[], &[], &[], &[], &[], &[]],
            stop_rule,
        );
        let up = play(Reserve, f(1));
        assert_eq!(g.priority_now(Player::ONE), Some((Priority::ReserveToFoundation, vec![up])));
        g.apply(Player::ONE, up).unwrap();
        let (rule, keep) = g.priority_now(Player::ONE).unwrap();
        assert_eq!(rule, Priority::ToFoundation);
        assert!(!keep.is_empty() && keep.iter().all(|m| matches!(m, Play { to: Target::Foundation(_), .. })));
        assert!(keep.contains(&play(t(1), f(2))), "{keep:?}");
        g.apply(Player::ONE, play(t(1), f(2))).unwrap();
        let (rule, keep) = g.priority_now(Player::ONE).unwrap();
        assert_eq!(rule, Priority::ReserveBeforeHand);
        assert!(!keep.contains(&TurnHand) && keep.contains(&play(Reserve, to_t(1))), "{keep:?}");
        g.apply(Player::ONE, play(Reserve, to_t(1))).unwrap();
        assert_eq!(g.priority_now(Player::ONE), None, "the reserve is empty: nothing binds");
    }
}

#[test]
fn a_stopped_load_is_taken_back_and_the_turn_passes() {
    let mut game = tempting(true);
    let before = game.clone();
    let steps = apply_with_steps(&mut game, Player::ONE, play(Reserve, OpponentReserve)).unwrap().1;
    assert!(steps.iter().any(|s| matches!(s, BankStep::Breached { .. })), "{steps:?}");
    assert_eq!(game.side(Player::TWO).reserve.top(), Some(card("6H")));
    // Player 2 may stop it; player 1 may not stop their own move.
    let mut moves = Vec::new();
    game.legal_moves(Player::TWO, &mut moves);
    assert_eq!(moves, vec![Stop]);
    assert_eq!(game.clone().apply(Player::ONE, Stop), Err(BankError::NoBreach));
    game.apply(Player::TWO, Stop).unwrap();
    let (one, was) = (game.side(Player::ONE), before.side(Player::ONE));
    assert_eq!(one.reserve, was.reserve, "the 6H went back on top of the reserve");
    assert_eq!((one.hand, one.waste, one.shown), (was.hand, was.waste, was.shown));
    // The 4S turned up under it was seen by both: it stays known.
    assert_eq!((was.reserve_hidden, one.reserve_hidden), (2, 1));
    assert_eq!(game.side(Player::TWO), before.side(Player::TWO));
    assert_eq!(game.tableau, before.tableau);
    assert_eq!(game.turn(), Player::TWO);
    assert_eq!(game.breach(), None);
}

#[test]
fn a_breach_let_pass_stands() {
    let mut game = tempting(true);
    game.apply(Player::ONE, play(Reserve, OpponentReserve)).unwrap();
    // Player 1 moves on: the breach stands and can no longer be stopped.
    game.apply(Player::ONE, play(t(3), f(1))).unwrap();
    assert_eq!(game.breach(), None);
    assert_eq!(game.clone().apply(Player::TWO, Stop), Err(BankError::NoBreach));
    assert_eq!(game.side(Player::TWO).reserve.top(), Some(card("6H")));
}

#[test]
fn a_stop_with_no_breach_says_so_and_changes_nothing() {
    let mut game = tempting(true);
    game.apply(Player::ONE, play(t(3), f(1))).unwrap();
    let before = game.clone();
    assert_eq!(game.apply(Player::TWO, Stop), Err(BankError::NoBreach));
    assert_eq!(game, before);
    assert_eq!(BankError::NoBreach.to_string(), "no rule was broken");
    // Refusals name cards as the cards show them, not in replay notation.
    let (three, nine) = (card("3H"), card("9S"));
    assert_eq!(
        BankError::Tableau { card: three, onto: nine }.to_string(),
        "the 3♥ cannot go on the 9♠: a tableau pile builds down in alternating colours"
    );
    let ten = card("TD");
    assert!(BankError::Foundation { card: ten, onto: None }.to_string().ends_with("not the 10♦"));
    assert!(
        BankError::Foundation { card: ten, onto: Some(nine) }
            .to_string()
            .starts_with("the 10♦ cannot go on the 9♠")
    );
    assert!(
        BankError::Loading { card: card("KD"), onto: nine }
            .to_string()
            .starts_with("the K♦ cannot load the 9♠")
    );
}

#[test]
fn a_stopped_hand_turn_goes_back_face_down_and_known() {
    // The reserve's 9S has a move (an empty tableau pile), so turning the hand breaks priority.
    let mut game = position(
        1,
        (&["9S"], &["4C", "5D"], &[]),
        (&["KH"], &["9C"], &[]),
        [&["QH"], &[], &[], &[], &[], &[], &[], &[]],
        NONE8,
        true,
    );
    let before = game.clone();
    assert_eq!(before.side(Player::ONE).hand_hidden, 2);
    game.apply(Player::ONE, TurnHand).unwrap();
    assert_eq!(game.breach().map(|b| b.rule), Some(Priority::ReserveBeforeHand));
    game.apply(Player::TWO, Stop).unwrap();
    let side = game.side(Player::ONE);
    assert_eq!(side.hand.as_slice(), before.side(Player::ONE).hand.as_slice());
    assert_eq!(side.shown, None);
    assert_eq!(side.hand_hidden, 1, "the 5D was seen: its identity stays known");
    assert_eq!(game.turn(), Player::TWO);
    // The observation shows it on top of the hand.
    let seen = game.observe(Some(Player::TWO));
    assert_eq!(seen.0.side(Player::ONE).hand.top(), Some(card("5D")));
}

#[test]
fn a_stopped_recycle_turns_the_hand_back_into_the_waste() {
    // Hand empty, waste 3C then 8H (8H on top); the reserve's 9S has a move.
    let mut game = position(
        1,
        (&["9S"], &[], &["3C", "8H"]),
        (&["KH"], &["9C"], &[]),
        [&["QH"], &[], &[], &[], &[], &[], &[], &[]],
        NONE8,
        true,
    );
    let before = game.clone();
    game.apply(Player::ONE, TurnHand).unwrap();
    // The first card to go to the waste is the new hand's top.
    assert_eq!(game.side(Player::ONE).shown, Some(card("3C")));
    assert_eq!(game.side(Player::ONE).hand.as_slice(), cards(&["8H"]).as_slice());
    game.apply(Player::TWO, Stop).unwrap();
    assert_eq!(game.side(Player::ONE), before.side(Player::ONE));
}

#[test]
fn a_turn_ending_breach_can_be_stopped_before_the_opponent_moves() {
    // The reserve's KS has nowhere to go, so turning the hand is fair; the
    // turned 2C could go up on the AC, so wasting it breaks priority.
    let mut game = position(
        1,
        (&["KS"], &["4C", "2C"], &[]),
        (&["KH"], &["9C"], &[]),
        [&["QH"], &["QC"], &["QD"], &["QS"], &["JH"], &["JC"], &["JD"], &["JS"]],
        [&["AC"], &[], &[], &[], &[], &[], &[], &[]],
        true,
    );
    game.apply(Player::ONE, TurnHand).unwrap();
    assert_eq!(game.breach(), None);
    let before = game.clone();
    game.apply(Player::ONE, play(Hand, Waste)).unwrap();
    assert_eq!(game.breach().map(|b| b.rule), Some(Priority::ToFoundation));
    assert_eq!(game.turn(), Player::TWO);
    let mut moves = Vec::new();
    game.legal_moves(Player::TWO, &mut moves);
    assert!(moves.contains(&Stop), "{moves:?}");
    let mut stopped = game.clone();
    stopped.apply(Player::TWO, Stop).unwrap();
    // Only the wasting is taken back: the 2C, turned before it, shows again
    // and stays for player 1's next turn; player 2 keeps the turn.
    assert_eq!(stopped.side(Player::ONE), before.side(Player::ONE));
    assert_eq!(stopped.side(Player::ONE).shown, Some(card("2C")));
    assert_eq!(stopped.turn(), Player::TWO);
    let mut moves = Vec::new();
    stopped.legal_moves(Player::ONE, &mut moves);
    assert!(moves.is_empty(), "not player 1's turn: {moves:?}");
    // Had player 2 moved instead, it would stand.
    game.apply(Player::TWO, TurnHand).unwrap();
    assert_eq!(game.breach(), None);
    assert_eq!(game.side(Player::ONE).waste.as_slice(), cards(&["2C"]).as_slice());
}

#[test]
fn an_emptying_breach_waits_for_stop_or_accept() {
    let mut game = start("seed-004-move-card-from-reserve.ron");
    reserve_sequence(&mut game);
    let deciding = game.clone();
    let mut moves = Vec::new();
    game.legal_moves(Player::TWO, &mut moves);
    assert_eq!(moves, vec![Stop, Accept]);
    moves.clear();
    game.legal_moves(Player::ONE, &mut moves);
    assert!(moves.is_empty());
    assert!(matches!(game.clone().apply(Player::ONE, play(t(1), f(2))), Err(BankError::NotYourTurn(_))));
    // Accepted: player 1 wins, 30 + 2 x 2 reserve cards (3S 2S) + 1 x 2 waste cards (4D 5D).
    game.apply(Player::TWO, Accept).unwrap();
    assert_eq!(game.outcome(), Some(Outcome::Win(Player::ONE)));
    assert_eq!(game.winner_points(), Some((Player::ONE, 36)));
    assert_eq!(game.scores(), vec![36, 0]);
    // Stopped: the 2S is back on player 1's reserve and player 2 moves.
    let mut game = deciding;
    game.apply(Player::TWO, Stop).unwrap();
    assert_eq!(game.outcome(), None);
    assert_eq!(game.side(Player::ONE).reserve.as_slice(), cards(&["2S"]).as_slice());
    assert_eq!(game.current_player(), Player::TWO);
}

#[test]
fn the_move_cap_ends_the_game_even_while_a_stop_or_accept_is_pending() {
    let mut level = level_file("seed-004-move-card-from-reserve.ron");
    let mut game = RussianBank::new(&level, 0).unwrap();
    reserve_sequence(&mut game);
    assert!(game.deciding());
    let plies = game.plies();
    // The cap reached by the breach that emptied player 1: no Stop, no
    // Accept, a draw.
    level.move_cap = plies;
    let mut game = RussianBank::new(&level, 0).unwrap();
    reserve_sequence(&mut game);
    assert_eq!(game.outcome(), Some(Outcome::Draw));
    let mut moves = Vec::new();
    game.legal_moves(Player::TWO, &mut moves);
    assert!(moves.is_empty(), "{moves:?}");
    // One move more: the Stop counts toward the cap, and ends the game.
    level.move_cap = plies + 1;
    let mut game = RussianBank::new(&level, 0).unwrap();
    reserve_sequence(&mut game);
    assert_eq!(game.outcome(), None);
    game.apply(Player::TWO, Stop).unwrap();
    assert_eq!(game.outcome(), Some(Outcome::Draw));
}

#[test]
fn a_win_without_a_breach_ends_the_game_at_once() {
    let mut game = start("04-quick-win.ron");
    for mv in [play(Reserve, f(1)), play(Reserve, to_t(1)), play(Reserve, to_t(8)), TurnHand] {
        game.apply(Player::ONE, mv).unwrap();
        assert_eq!(game.breach(), None, "{mv} broke no rule");
    }
    game.apply(Player::ONE, play(Hand, f(1))).unwrap();
    assert_eq!(game.outcome(), Some(Outcome::Win(Player::ONE)));
    // 30 + 2 x 5 reserve + 10 hand + 1 waste.
    assert_eq!(game.winner_points(), Some((Player::ONE, 51)));
}

#[test]
fn a_fixed_position_starting_empty_is_not_over() {
    let game = start("seed-004-move-card-from-tableau.ron");
    assert!(game.side(Player::ONE).is_empty());
    assert_eq!(game.outcome(), None);
}

// ---- The hand, the waste, the turn ----

#[test]
fn the_hand_card_must_be_played_or_wasted_before_the_next() {
    let mut game = position(
        1,
        (&[], &["2D", "7S", "QH"], &[]),
        (&["KH"], &["9C"], &[]),
        [&["QH"], &["5S"], &["8H"], &["JC"], &["TH"], &["9D"], &["4S"], &["3D"]],
        NONE8,
        true,
    );
    game.apply(Player::ONE, TurnHand).unwrap();
    assert_eq!(game.side(Player::ONE).shown, Some(card("QH")));
    assert_eq!(game.clone().apply(Player::ONE, TurnHand), Err(BankError::HandShowing));
    assert_eq!(game.clone().apply(Player::ONE, EndTurn), Err(BankError::HandShowing));
    // Played (here loading the opponent's KH), the turn goes on.
    let mut g = game.clone();
    g.apply(Player::ONE, play(Hand, OpponentReserve)).unwrap();
    assert_eq!(g.turn(), Player::ONE);
    // To the waste, it ends.
    game.apply(Player::ONE, play(Hand, Waste)).unwrap();
    assert_eq!(game.turn(), Player::TWO);
    assert_eq!(game.side(Player::ONE).waste.as_slice(), cards(&["QH"]).as_slice());
}

#[test]
fn end_turn_only_with_hand_and_waste_empty() {
    let mut game = position(
        1,
        (&["2S"], &[], &[]),
        (&["9C"], &["9D"], &[]),
        [&["KS"], &["KC"], &["KD"], &["KH"], &["KS"], &["KC"], &["KD"], &["KH"]],
        NONE8,
        true,
    );
    let mut moves = Vec::new();
    game.legal_moves(Player::ONE, &mut moves);
    assert_eq!(moves, vec![EndTurn]);
    assert_eq!(game.clone().apply(Player::ONE, TurnHand), Err(BankError::NothingToTurn));
    game.apply(Player::ONE, EndTurn).unwrap();
    assert_eq!(game.turn(), Player::TWO);
}

#[test]
fn who_starts_follows_the_reserve_then_the_tableau() {
    let lower_reserve = position(2, (&["3C"], &[], &[]), (&["9C"], &[], &[]), NONE8, NONE8, true);
    let sides = lower_reserve.sides;
    assert_eq!(super::rules::first_player(&sides, &lower_reserve.tableau), Player::ONE);
    let tie = position(
        1,
        (&["9D"], &[], &[]),
        (&["9C"], &[], &[]),
        [&["5C"], &["8C"], &[], &[], &["5D"], &["2C"], &[], &[]],
        NONE8,
        true,
    );
    // Reserves tie, T1 ties with T5, T6 (2C) is lower than T2 (8C).
    assert_eq!(super::rules::first_player(&tie.sides, &tie.tableau), Player::TWO);
    let all_equal = position(1, (&["9D"], &[], &[]), (&["9C"], &[], &[]), NONE8, NONE8, true);
    assert_eq!(super::rules::first_player(&all_equal.sides, &all_equal.tableau), Player::ONE);
}

// ---- Teaching levels ----

#[test]
fn the_teaching_levels_play_their_lesson() {
    let mut game = start("05-loading-the-opponent.ron");
    for mv in [
        play(Reserve, OpponentReserve),
        play(Reserve, to_t(1)),
        play(Reserve, to_t(5)),
        TurnHand,
        play(Hand, OpponentReserve),
    ] {
        game.apply(Player::ONE, mv).unwrap_or_else(|e| panic!("{mv}: {e}"));
        assert_eq!(game.breach(), None, "{mv}");
    }
    assert_eq!(game.outcome(), Some(Outcome::Win(Player::ONE)));

    let mut game = start("06-a-stop.ron");
    for mv in [
        play(t(3), f(1)),
        play(Reserve, OpponentReserve),
        play(Reserve, to_t(4)),
        play(Reserve, to_t(5)),
        TurnHand,
        play(Hand, to_t(5)),
    ] {
        game.apply(Player::ONE, mv).unwrap_or_else(|e| panic!("{mv}: {e}"));
        assert_eq!(game.breach(), None, "{mv}");
    }
    assert_eq!(game.outcome(), Some(Outcome::Win(Player::ONE)));
}

// ---- Hidden information ----

#[test]
fn states_differing_in_unseen_cards_look_alike_and_seen_cards_stay_seen() {
    let level = level_file("01-shuffled-deal.ron");
    let game = RussianBank::new(&level, 3).unwrap();
    let mut other = game.clone();
    // Swap two unseen cards of player 1: one in the reserve, one in the hand.
    let a = other.sides[0].reserve.as_slice()[0];
    let b = other.sides[0].hand.as_slice()[0];
    other.sides[0].reserve.as_mut_slice()[0] = b;
    other.sides[0].hand.as_mut_slice()[0] = a;
    assert_ne!(game, other);
    for viewer in [Some(Player::ONE), Some(Player::TWO), None] {
        assert_eq!(game.observe(viewer), other.observe(viewer));
    }
    // The observation holds no unseen card where it lies.
    let seen = game.observe(None).into_owned();
    let top = game.side(Player::ONE).reserve.top();
    assert_eq!(seen.0.side(Player::ONE).reserve.top(), top, "the reserve's top is face up");
}

#[test]
fn random_games_keep_every_card_and_observations_follow_the_steps() {
    for (name, stop_rule) in [("01-shuffled-deal.ron", true), ("02-shuffled-no-stop.ron", false)] {
        let level = level_file(name);
        assert_eq!(level.stop_rule, stop_rule);
        for seed in 0..6 {
            let mut game = RussianBank::new(&level, seed).unwrap();
            let start = sorted_cards(&game);
            let mut rng = rng_from_seed(seed);
            let mut view = game.observe(None).into_owned();
            while game.outcome().is_none() {
                // Either seat with a move: the mover, or the opponent stopping.
                let mut moves = Vec::new();
                let mut by = Vec::new();
                for p in [Player::ONE, Player::TWO] {
                    let n = moves.len();
                    game.legal_moves(p, &mut moves);
                    by.extend(std::iter::repeat_n(p, moves.len() - n));
                }
                let i = rand::Rng::random_range(&mut rng, 0..moves.len());
                let (_, steps) = apply_with_steps(&mut game, by[i], moves[i]).unwrap();
                steps.iter().for_each(|s| view.follow(s));
                assert_eq!(view, *game.observe(None), "{name} seed {seed}");
                assert_eq!(sorted_cards(&game), start, "{name} seed {seed}: cards changed");
            }
        }
    }
}

fn all_cards(game: &RussianBank) -> Vec<Card> {
    let mut all = Vec::new();
    for side in &game.sides {
        all.extend_from_slice(side.reserve.as_slice());
        all.extend_from_slice(side.hand.as_slice());
        all.extend(side.shown);
        all.extend_from_slice(side.waste.as_slice());
    }
    (0..8).for_each(|n| all.extend(game.tableau(n)));
    (0..8).for_each(|n| all.extend(game.foundation_pile(n)));
    all
}

fn sorted_cards(game: &RussianBank) -> Vec<Card> {
    let mut all = all_cards(game);
    all.sort();
    all
}

// ---- Levels ----

#[test]
fn broken_levels_name_the_rule_they_break() {
    let text = |deal: &str| format!("RussianBank(name: \"x\", deal: {deal})");
    let err = |deal: &str| crate::level::parse(&text(deal), "bad.ron").map(|_| ()).unwrap_err().to_string();
    let piles = "tableau: [[], [], [], [], [], [], [], []], foundations: [[], [], [], [], [], [], [], []]";
    let e = err(&format!("Fixed((to_move: 1, players: [(reserve: [\"1S\"]), (reserve: [])], {piles}))"));
    assert!(e.starts_with("bad.ron:1:") && e.contains("'1S' is not a card"), "{e}");
    let e = err(&format!(
        "Fixed((to_move: 1, players: [(reserve: [\"AS\", \"AS\"]), (reserve: [\"AS\"])], {piles}))"
    ));
    assert!(e.contains("the AS appears 3 times"), "{e}");
    let e = err(&format!("Fixed((to_move: 3, players: [(reserve: []), (reserve: [])], {piles}))"));
    assert!(e.contains("to_move is 1 or 2"), "{e}");
    let e = err(
        "Fixed((to_move: 1, players: [(reserve: []), (reserve: [])], tableau: [[\"7C\", \"6C\"], [], [], [], [], [], [], []], foundations: [[], [], [], [], [], [], [], []]))",
    );
    assert!(e.contains("T1 has the 6C on the 7C"), "{e}");
    let e = err(
        "Fixed((to_move: 1, players: [(reserve: []), (reserve: [])], tableau: [[], [], [], [], [], [], [], []], foundations: [[\"AC\", \"3C\"], [], [], [], [], [], [], []]))",
    );
    assert!(e.contains("F1 holds the 3C at height 2"), "{e}");
    let e = err("Fixed((to_move: 1, players: [(reserve: [])], tableau: [], foundations: []))");
    assert!(e.contains("2 players"), "{e}");
    let e = err("Shuffled, colour: Red");
    assert!(e.contains("colour"), "{e}");
}

#[test]
fn every_shipped_level_loads() {
    let dir = crate::manifest_dir().join("../../levels/russian_bank");
    let mut count = 0;
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        let level = crate::level::load(&path).unwrap_or_else(|e| panic!("{e}"));
        level.validate().unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        count += 1;
    }
    assert!(count >= 10, "{count} levels");
}

// ---- Conformance ----

#[test]
fn conformance_on_shuffled_deals_with_and_without_stop() {
    let mut level = level_file("01-shuffled-deal.ron");
    level.move_cap = 400;
    check_random_games::<RussianBank>(&level, 6, 11);
    level.stop_rule = false;
    check_random_games::<RussianBank>(&level, 6, 12);
}

#[test]
fn conformance_on_the_fixed_positions() {
    for name in ["seed-004-move-card-from-reserve.ron", "05-loading-the-opponent.ron", "06-a-stop.ron"] {
        let mut level = level_file(name);
        level.move_cap = 300;
        check_random_games::<RussianBank>(&level, 10, 3);
    }
}

#[test]
fn the_steps_name_every_card_that_moves() {
    let mut game = tempting(true);
    let (_, steps) = apply_with_steps(&mut game, Player::ONE, play(t(3), f(1))).unwrap();
    assert_eq!(
        steps,
        vec![
            BankStep::Began { by: Player::ONE },
            BankStep::Moved { card: card("AC"), from: Place::Tableau(3), to: Place::Foundation(1) },
        ]
    );
    let (_, steps) = apply_with_steps(&mut game, Player::ONE, play(Reserve, OpponentReserve)).unwrap();
    assert_eq!(
        steps,
        vec![
            BankStep::Began { by: Player::ONE },
            BankStep::Moved {
                card: card("6H"),
                from: Place::Reserve(Player::ONE),
                to: Place::Reserve(Player::TWO)
            },
            BankStep::Revealed { player: Player::ONE, card: card("4S") },
        ]
    );
}

#[test]
fn the_full_fixed_deal_is_the_deal_of_its_seed_written_out() {
    let written = super::rules::written_out(2026);
    if std::env::var_os("TABULA_PRINT_DEAL").is_some() {
        println!("{}", ron::ser::to_string_pretty(&written, crate::level::pretty_config()).unwrap());
    }
    let level = level_file("07-full-deal-no-stop.ron");
    assert!(!level.stop_rule);
    let Deal::Fixed(FixedPosition(fixed)) = &level.deal else { panic!("a fixed deal") };
    assert_eq!(*fixed, written);
    // The same table as dealing from the seed, hidden cards and all.
    let mut shuffled = level.clone();
    shuffled.deal = Deal::Shuffled;
    assert_eq!(RussianBank::new(&level, 0).unwrap(), RussianBank::new(&shuffled, 2026).unwrap());
}

#[test]
fn cards_are_named_as_they_show_and_written_in_the_notation() {
    assert_eq!(card("TD").name(), "10♦");
    assert_eq!(card("AS").name(), "A♠");
    assert_eq!(card("2H").name(), "2♥");
    assert_eq!(card("KC").name(), "K♣");
    assert_eq!(card("TD").to_string(), "TD", "replays keep the notation");
}

/// What a server hands every seat of a table: a fixed deal names every
/// face-down card, so the public level deals by chance instead, with the
/// same rule options; a shuffled level is public as it is.
#[test]
fn the_public_level_of_a_fixed_deal_names_no_card() {
    use crate::core::Level;
    let level = level_file("07-full-deal-no-stop.ron");
    let public = level.public();
    assert_eq!(public.deal, Deal::Shuffled);
    assert_eq!(
        RussianBankLevel { deal: level.deal.clone(), ..public.clone() },
        level,
        "only the deal is left out"
    );
    let text = crate::level::LevelFile::new::<RussianBank>(public).layout();
    let Deal::Fixed(FixedPosition(fixed)) = &level.deal else { panic!("a fixed deal") };
    for card in fixed.players.iter().flat_map(|s| s.reserve.iter().chain(&s.hand)) {
        assert!(!text.contains(&card.to_string()), "{card} in the public level:\n{text}");
    }
    let shuffled = level_file("01-shuffled-deal.ron");
    assert_eq!(shuffled.public(), shuffled);
}
