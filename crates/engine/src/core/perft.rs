//! Perft: the number of move sequences of a given length, a finished game
//! counting as one leaf. Rule bugs show up as wrong counts; `divide` says
//! under which first move two implementations part.

use super::Game;

pub fn perft<G: Game>(game: &G, depth: u32) -> u64 {
    // One move list per level, reused across the whole walk.
    let mut lists: Vec<Vec<G::Move>> = (0..depth).map(|_| Vec::with_capacity(32)).collect();
    walk(game, depth, &mut lists)
}

/// The count under each first move, in the order of `legal_moves`.
pub fn divide<G: Game>(game: &G, depth: u32) -> Vec<(G::Move, u64)> {
    let mut moves = Vec::new();
    if depth == 0 || game.outcome().is_some() {
        return Vec::new();
    }
    game.legal_moves(game.current_player(), &mut moves);
    moves
        .into_iter()
        .map(|mv| {
            let mut next = game.clone();
            next.apply(game.current_player(), mv).expect("a legal move applies");
            (mv, perft(&next, depth - 1))
        })
        .collect()
}

fn walk<G: Game>(game: &G, depth: u32, lists: &mut [Vec<G::Move>]) -> u64 {
    if depth == 0 || game.outcome().is_some() {
        return 1;
    }
    let (moves, deeper) = lists.split_first_mut().expect("one list per level");
    moves.clear();
    let player = game.current_player();
    game.legal_moves(player, moves);
    if depth == 1 {
        return moves.len() as u64;
    }
    let mut total = 0;
    for &mv in moves.iter() {
        let mut next = game.clone();
        next.apply(player, mv).expect("a legal move applies");
        total += walk(&next, depth - 1, deeper);
    }
    total
}
