//! Whose turn it is. The session announces a change of turn once, as a
//! `TurnChanged` fact; the panels and the seat highlight show the `Turn`
//! it leaves, and nothing else asks the game whose turn it is to show it.

use bevy::prelude::*;
use tabula_engine::Player;

use super::{Session, TurnChanged};
use crate::app::game::WindowGame;

/// The seat to move as last announced (none before a game and after its
/// end).
#[derive(Resource, Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct Turn {
    pub to_move: Option<Player>,
}

/// After the moves of a frame (and a start, undo or restart): tells who is
/// to move now, if that changed.
pub(super) fn announce_turn<G: WindowGame>(
    session: Res<Session<G>>,
    turn: Res<Turn>,
    mut changed: MessageWriter<TurnChanged>,
) {
    let to = session.game.outcome().is_none().then(|| session.game.current_player());
    if turn.to_move != to {
        changed.write(TurnChanged { to });
    }
}

/// Takes the announced turn in.
pub(super) fn change_turn(mut changes: MessageReader<TurnChanged>, mut turn: ResMut<Turn>) {
    if let Some(last) = changes.read().last() {
        turn.to_move = last.to;
    }
}
