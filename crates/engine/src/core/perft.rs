//! Perft: the number of move sequences of a given length, a finished game
//! counting as one leaf. Rule bugs show up as wrong counts.

use super::Game;

pub fn perft<G: Game>(game: &G, depth: u32) -> u64 {
    if depth == 0 || game.outcome().is_some() {
        return 1;
    }
    let mut moves = Vec::new();
    game.legal_moves(&mut moves);
    if depth == 1 {
        return moves.len() as u64;
    }
    moves
        .iter()
        .map(|&mv| {
            let mut next = game.clone();
            next.apply(mv).expect("a legal move applies");
            perft(&next, depth - 1)
        })
        .sum()
}
