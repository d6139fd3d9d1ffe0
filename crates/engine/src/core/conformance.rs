//! The test every game passes, in the spirit of OpenSpiel's random
//! simulation test. Over many random games:
//! - clones are equal, states survive a serialisation round trip, replays
//!   reproduce the state, every game ends within its bound;
//! - for every seat, each of its legal moves applies and every other probed
//!   move is refused and changes nothing; a seat that may not move is
//!   refused as out of turn;
//! - every seat's observation (and a spectator's) shows that seat's legal
//!   moves, is what a state sampled from it shows again (so two states that
//!   differ only in what the seat cannot see look alike to it), and
//!   following a move's steps on the observation before it gives the one
//!   after;
//! - a fast random play-out is the same game as drawing and applying one
//!   move at a time.

use serde::{Serialize, de::DeserializeOwned};

use super::{
    Game, GameRng, Observation, Player, RuleError, apply_with_steps, derive_seed, rng::choose, rng_from_seed,
};

/// Plays `games` random games of `level` and panics, with the seed and move
/// number, at the first broken property.
pub fn check_random_games<G>(level: &G::Level, games: u64, seed: u64)
where
    G: Game + PartialEq + Serialize + DeserializeOwned,
{
    for index in 0..games {
        let game_seed = derive_seed(seed, index);
        check_one::<G>(level, game_seed, u64::MAX);
        check_play_out::<G>(level, game_seed);
    }
}

/// The same, each game checked move by move for its first `plies` moves
/// only (every check of a move copies and serialises the whole state, which
/// on the largest boards takes most of a second); the play-out still goes
/// to the end.
pub fn check_random_openings<G>(level: &G::Level, games: u64, seed: u64, plies: u64)
where
    G: Game + PartialEq + Serialize + DeserializeOwned,
{
    for index in 0..games {
        let game_seed = derive_seed(seed, index);
        check_one::<G>(level, game_seed, plies);
        check_play_out::<G>(level, game_seed);
    }
}

fn check_play_out<G: Game + PartialEq>(level: &G::Level, seed: u64) {
    let mut fast = G::new(level, seed).unwrap();
    let plies = fast.play_out(&mut rng_from_seed(seed)).unwrap_or_else(|(mv, e)| {
        panic!("seed {seed}: play_out had {mv} refused: {e}");
    });
    let mut slow = G::new(level, seed).unwrap();
    let mut rng = rng_from_seed(seed);
    let mut moves = 0;
    while let Some(mv) = slow.random_move(&mut rng) {
        slow.apply(slow.current_player(), mv).unwrap();
        moves += 1;
    }
    assert_eq!((plies, &fast), (moves, &slow), "seed {seed}: play_out and move-by-move play differ");
    assert!(fast.outcome().is_some(), "seed {seed}: play_out stopped before the end");
}

/// Who may look: each seat, then a spectator.
fn viewers(players: usize) -> impl Iterator<Item = Option<Player>> {
    Player::all(players).map(Some).chain(std::iter::once(None))
}

/// Where a broken property was met: "seed 7, move 12: …".
type At<'a> = &'a dyn Fn(&str) -> String;

fn check_one<G>(level: &G::Level, seed: u64, plies: u64)
where
    G: Game + PartialEq + Serialize + DeserializeOwned,
{
    let mut game = G::new(level, seed).expect("level is valid");
    assert_eq!(G::new(level, seed).unwrap(), game, "seed {seed}: the start is not deterministic");
    let players = game.num_players();
    assert!((G::SEATS.0..=G::SEATS.1).contains(&players), "seed {seed}: {players} seats");
    let mut rng = rng_from_seed(seed);
    let bound = game.move_bound();
    let mut history = Vec::new();
    loop {
        let ply = history.len() + 1;
        let at = |what: &str| format!("seed {seed}, move {ply}: {what}");
        assert_eq!(game.clone(), game, "{}", at("a clone differs"));
        let text = ron::to_string(&game).expect("state serialises");
        let back: G = ron::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", at("round trip")));
        assert_eq!(back, game, "{}", at("state changed in a serialisation round trip"));
        let anyone_may_move = check_seats(&game, &at);
        let seen = check_views(&game, &mut rng, &at);
        if game.outcome().is_some() {
            assert!(!anyone_may_move, "{}", at("legal moves after the end"));
            break;
        }
        if history.len() as u64 >= plies {
            break;
        }
        history.push(play_any(&mut game, &mut rng, seen, &at));
        assert!(history.len() as u64 <= bound, "{}", at("game outlived its move bound"));
    }
    let mut again = G::new(level, seed).unwrap();
    for &(player, mv) in &history {
        again.apply(player, mv).expect("replayed move applies");
    }
    assert_eq!(again, game, "seed {seed}: replaying the moves gives another state");
}

/// For every seat: each legal move applies, every other probed move is
/// refused and changes nothing (out of turn when the seat may not move),
/// and its observation shows the same moves. Whether anyone may move.
fn check_seats<G: Game + PartialEq>(game: &G, at: At) -> bool {
    let (mut legal, mut probes) = (Vec::new(), Vec::new());
    game.probe_moves(&mut probes);
    let to_move = game.current_player();
    let most_legal = game.legal_bound();
    let mut anyone_may_move = false;
    for player in Player::all(game.num_players()) {
        legal.clear();
        game.legal_moves(player, &mut legal);
        anyone_may_move |= !legal.is_empty();
        assert!(
            legal.len() as u64 <= most_legal,
            "{}",
            at(&format!("{player} has {} legal moves, over the bound {most_legal}", legal.len()))
        );
        for mv in legal.iter() {
            assert!(probes.contains(mv), "{}", at(&format!("probe_moves misses {player}'s legal {mv}")));
            let mut next = game.clone();
            if let Err(e) = next.apply(player, *mv) {
                panic!("{}", at(&format!("{player}'s legal move {mv} refused: {e}")));
            }
        }
        for mv in probes.iter().filter(|mv| !legal.contains(mv)) {
            let mut next = game.clone();
            let Err(e) = next.apply(player, *mv) else {
                panic!("{}", at(&format!("{mv} is not legal for {player} but applied")));
            };
            assert_eq!(next, *game, "{}", at(&format!("refused {mv} by {player} changed the state")));
            // Out of turn, unless the game lets this seat make such a move
            // at other times (a Stop), when it may say why not.
            if game.outcome().is_none() && legal.is_empty() && player != to_move && game.actor(mv) != player {
                let turn = e.not_your_turn();
                assert_eq!(turn.map(|t| t.player), Some(player), "{}", at(&format!("{mv} by {player}: {e}")));
            }
        }
        // What the seat sees.
        let seen_by = game.observe(Some(player)).into_owned();
        let mut from_observation = Vec::new();
        seen_by.legal_moves(player, &mut from_observation);
        assert_eq!(from_observation, legal, "{}", at(&format!("{player}'s observation shows other moves")));
    }
    anyone_may_move
}

/// Each seat's and a spectator's observation: it serialises, and a state
/// sampled from it looks the same to its viewer. The observations, in
/// `viewers` order.
fn check_views<G: Game>(game: &G, rng: &mut GameRng, at: At) -> Vec<G::Observation> {
    let mut seen = Vec::new();
    for viewer in viewers(game.num_players()) {
        let observation = game.observe(viewer).into_owned();
        serde_json::to_value(&observation).expect("observations serialise");
        let sampled = G::sample_state(&observation, viewer, rng);
        assert_eq!(
            *sampled.observe(viewer),
            observation,
            "{}",
            at(&format!("a state sampled for {viewer:?} looks different to it"))
        );
        seen.push(observation);
    }
    seen
}

/// Plays any seat's legal move at random (the player to move's, or
/// another's where the game allows one: a Stop): it changes the state and
/// shrinks the move bound, its steps take each observation in `seen` to
/// the one after, and a replay gives it to the same seat.
fn play_any<G: Game + PartialEq>(
    game: &mut G,
    rng: &mut GameRng,
    seen: Vec<G::Observation>,
    at: At,
) -> (Player, G::Move) {
    let mut legal = Vec::new();
    game.legal_moves(game.current_player(), &mut legal);
    assert!(!legal.is_empty(), "{}", at("no legal move for the player to move"));
    let mut anyones: Vec<(Player, G::Move)> = Vec::new();
    for player in Player::all(game.num_players()) {
        legal.clear();
        game.legal_moves(player, &mut legal);
        anyones.extend(legal.iter().map(|&mv| (player, mv)));
    }
    let (before, bound_before) = (game.clone(), game.move_bound());
    let (to_move, mv) = *choose(&anyones, rng).unwrap();
    let (_, steps) = apply_with_steps(game, to_move, mv).unwrap();
    assert_ne!(*game, before, "{}", at(&format!("{mv} changed nothing")));
    assert!(game.move_bound() < bound_before, "{}", at("move bound did not shrink"));
    for (viewer, mut observation) in viewers(game.num_players()).zip(seen) {
        steps.iter().for_each(|step| observation.follow(step));
        assert_eq!(
            observation,
            *game.observe(viewer),
            "{}",
            at(&format!("{viewer:?} followed the steps of {mv} to another observation: {steps:?}"))
        );
    }
    assert_eq!(before.actor(&mv), to_move, "{}", at(&format!("a replay would give {mv} to another seat")));
    (to_move, mv)
}
