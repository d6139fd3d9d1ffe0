//! Whose turn it is. The session announces a change of turn once, as a
//! `TurnChanged` fact; the panels, the seat highlight, the sounds and the
//! agents go by the `Turn` it leaves, and nothing else asks the game whose
//! turn it is.

use bevy::prelude::*;
use tabula_engine::Player;

use super::{BoardReset, MovePlayed, Session, SessionSet, TurnChanged};
use crate::app::game::WindowGame;

/// The seat to move as last announced (none before a game and after its
/// end), and whether a person plays it.
#[derive(Resource, Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct Turn {
    pub to_move: Option<Player>,
    pub person: bool,
}

/// After the moves of a frame (and a start, undo or restart): tells who is
/// to move now, if that changed.
pub(super) fn announce_turn<G: WindowGame>(
    session: Res<Session<G>>,
    turn: Res<Turn>,
    mut changed: MessageWriter<TurnChanged>,
) {
    let to = session.outcome().is_none().then(|| session.game.current_player());
    let person = to.is_some_and(|p| session.is_human(p)) && !session.kind.steps_through();
    if (turn.to_move, turn.person) != (to, person) {
        changed.write(TurnChanged { to, person });
    }
}

/// Takes the announced turn in.
pub(super) fn change_turn(mut changes: MessageReader<TurnChanged>, mut turn: ResMut<Turn>) {
    if let Some(last) = changes.read().last() {
        *turn = Turn { to_move: last.to, person: last.person };
    }
}

/// A person's choice towards a move (stones chosen, a pit keyed, a robot or
/// a card picked). It is for one move: once a move is played or the turn
/// passes (or the board is set back), Enter must not act on what was
/// chosen before.
pub trait MoveChoice: Resource + Component<Mutability = bevy::ecs::component::Mutable> {
    /// Forgets what was chosen; a cursor may stay where it is.
    fn expire(&mut self);
}

/// Lets a game's choice expire with each move and each change of turn.
pub fn choice_expires<C: MoveChoice>(app: &mut App) {
    app.add_systems(Update, expire_choice::<C>.after(change_turn).before(SessionSet::View));
}

fn expire_choice<C: MoveChoice>(
    mut turns: MessageReader<TurnChanged>,
    mut moves: MessageReader<MovePlayed>,
    mut resets: MessageReader<BoardReset>,
    mut choice: ResMut<C>,
) {
    // Every reader is drained, so one frame expires the choice once.
    if turns.read().count() + moves.read().count() + resets.read().count() > 0 {
        choice.expire();
    }
}
