//! `TABULA_AUTOPLAY=<agent>` (the `dev` feature, for the measuring and
//! screenshot scripts): this window's seat at a server's table is played
//! by an agent from what the seat sees, each move written as a click on
//! the board writes it, once the board has settled. Two windows play a
//! whole game against each other without a hand on the mouse.

use bevy::prelude::*;
use tabula_engine::core::{Agent, AgentSpec, GameRng, rng_from_seed};

use super::OnlineTable;
use crate::app::frames::NextFrame;
use crate::app::game::WindowGame;
use crate::app::session::{BoardBusy, MoveRefused, RequestMove, Session, SessionSet};

pub(super) fn plugin<G: WindowGame>(app: &mut App) {
    let Some(spec) = std::env::var("TABULA_AUTOPLAY").ok().and_then(|s| s.parse::<AgentSpec>().ok()) else {
        return;
    };
    let Ok(agent) = G::build_agent(&spec) else { return };
    let agent = std::sync::Mutex::new(agent);
    app.insert_resource(Autoplay::<G> {
        agent,
        rng: rng_from_seed(crate::app::session::seed_now()),
        sent: None,
    })
    .add_systems(Update, autoplay::<G>.before(SessionSet::Moves).run_if(resource_exists::<Session<G>>));
}

#[derive(Resource)]
struct Autoplay<G: WindowGame> {
    /// Locked only to be a resource: one system uses it.
    agent: std::sync::Mutex<Box<dyn Agent<G>>>,
    rng: GameRng,
    /// The move count the last move was sent at: one move a position.
    sent: Option<usize>,
}

fn autoplay<G: WindowGame>(
    session: Res<Session<G>>,
    busy: Res<BoardBusy>,
    mut auto: ResMut<Autoplay<G>>,
    mut requests: MessageWriter<RequestMove<G>>,
    mut refused: MessageReader<MoveRefused>,
    mut next: ResMut<NextFrame>,
    online: Option<Res<OnlineTable>>,
) {
    if refused.read().count() > 0 {
        // Chosen again, from the position as it now is.
        auto.sent = None;
    }
    let Some(me) = session.human_to_move().filter(|_| session.kind.at_server()) else { return };
    next.ask();
    // The game begins once every seat is taken.
    if !online.is_some_and(|o| o.up && o.all_seated()) {
        return;
    }
    let ply = session.moves.len();
    if busy.0 > 0 || auto.sent == Some(ply) {
        return;
    }
    let Autoplay { agent, rng, sent } = &mut *auto;
    let Ok(agent) = agent.get_mut() else { return };
    if let Some(mv) = agent.choose(me, &session.view(), rng) {
        requests.write(RequestMove { by: me, mv });
        *sent = Some(ply);
    }
}
