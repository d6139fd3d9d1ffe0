//! The test every game passes, in the spirit of OpenSpiel's random
//! simulation test: over many random games, clones are equal, states survive
//! a serialisation round trip, replays reproduce the state, every legal move
//! applies, every refused move leaves the state unchanged, every game ends
//! within its bound, and a fast random play-out is the same game as drawing
//! and applying one move at a time.

use serde::{Serialize, de::DeserializeOwned};

use super::{Game, derive_seed, rng::choose, rng_from_seed};

/// Plays `games` random games of `level` and panics, with the seed and move
/// number, at the first broken property.
pub fn check_random_games<G>(level: &G::Level, games: u64, seed: u64)
where
    G: Game + PartialEq + Serialize + DeserializeOwned,
{
    for index in 0..games {
        let game_seed = derive_seed(seed, index);
        check_one::<G>(level, game_seed);
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
        slow.apply(mv).unwrap();
        moves += 1;
    }
    assert_eq!((plies, &fast), (moves, &slow), "seed {seed}: play_out and move-by-move play differ");
    assert!(fast.outcome().is_some(), "seed {seed}: play_out stopped before the end");
}

fn check_one<G>(level: &G::Level, seed: u64)
where
    G: Game + PartialEq + Serialize + DeserializeOwned,
{
    let mut game = G::new(level, seed).expect("level is valid");
    assert_eq!(G::new(level, seed).unwrap(), game, "seed {seed}: the start is not deterministic");
    let mut rng = rng_from_seed(seed);
    let bound = game.move_bound();
    let mut history = Vec::new();
    let (mut legal, mut probes) = (Vec::new(), Vec::new());
    loop {
        let ply = history.len() + 1;
        let at = |what: &str| format!("seed {seed}, move {ply}: {what}");
        assert_eq!(game.clone(), game, "{}", at("a clone differs"));
        let text = ron::to_string(&game).expect("state serialises");
        let back: G = ron::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", at("round trip")));
        assert_eq!(back, game, "{}", at("state changed in a serialisation round trip"));

        legal.clear();
        game.legal_moves(&mut legal);
        probes.clear();
        game.probe_moves(&mut probes);
        for mv in legal.iter() {
            assert!(probes.contains(mv), "{}", at(&format!("probe_moves misses legal {mv}")));
            let mut next = game.clone();
            if let Err(e) = next.apply(*mv) {
                panic!("{}", at(&format!("legal move {mv} refused: {e}")));
            }
        }
        for mv in probes.iter().filter(|mv| !legal.contains(mv)) {
            let mut next = game.clone();
            assert!(next.apply(*mv).is_err(), "{}", at(&format!("{mv} is not legal but applied")));
            assert_eq!(next, game, "{}", at(&format!("refused {mv} changed the state")));
        }
        if game.outcome().is_some() {
            assert!(legal.is_empty(), "{}", at("legal moves after the end"));
            break;
        }
        assert!(!legal.is_empty(), "{}", at("no legal move in a running game"));
        let (before, bound_before) = (game.clone(), game.move_bound());
        let mv = *choose(&legal, &mut rng).unwrap();
        game.apply(mv).unwrap();
        assert_ne!(game, before, "{}", at(&format!("{mv} changed nothing")));
        assert!(game.move_bound() < bound_before, "{}", at("move bound did not shrink"));
        history.push(mv);
        assert!(history.len() as u64 <= bound, "{}", at("game outlived its move bound"));
    }
    let mut again = G::new(level, seed).unwrap();
    for mv in &history {
        again.apply(*mv).expect("replayed move applies");
    }
    assert_eq!(again, game, "seed {seed}: replaying the moves gives another state");
}
