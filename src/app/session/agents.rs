//! The seats an agent plays: it thinks on another thread from what its
//! seat sees, and its move comes back as a request like a person's.

use std::sync::{Arc, Mutex};

use bevy::prelude::*;
use bevy::tasks::{AsyncComputeTaskPool, Task, block_on, poll_once};
use tabula_engine::core::{Agent, GameRng, derive_seed, rng_from_seed};
use tabula_engine::{Game, Player};

use super::{BoardBusy, BoardReset, MovePlayed, RequestMove, Session, StatusLine, Turn, TurnChanged, Watch};
use crate::app::frames::NextFrame;
use crate::app::game::WindowGame;
use crate::app::help::ScreenKeys;
use crate::app::settings::Settings;

/// A pause after a human move before the AI answers, so it can be followed.
const MIN_AI_DELAY: f32 = 0.15;
/// The agents' speed (moves a second, the settings' first) at which a
/// game's pause between moves lasts `WindowGame::AGENT_PAUSE`.
const PAUSE_SPEED: f32 = 2.0;

/// The agents of the seats that have one, shared with the thinking task.
#[derive(Resource)]
pub struct Agents<G: Game> {
    pub(super) seats: Vec<Option<Arc<Mutex<Box<dyn Agent<G>>>>>>,
    pub(super) rng: Arc<Mutex<GameRng>>,
    pub(super) thinking: Option<(Player, Task<Option<G::Move>>)>,
    /// The agent seat woken to move: by the turn coming to it, or by its own
    /// move when its turn goes on (a card game's turn may have many moves).
    pub(super) due: Option<Player>,
    /// Seconds until the next agent may move.
    pub(super) cooldown: f32,
    /// Seconds the board has been still (no card or stone in flight).
    pub(super) still: f32,
    /// Seconds more the next agent waits, set by a game's teacher (a
    /// slip held for a person's Stop, in a card game).
    pub hold: f32,
}

impl<G: Game> Agents<G> {
    /// The agents of `seats` (none for a person's), none of them woken yet.
    pub(super) fn new(seats: Vec<Option<Arc<Mutex<Box<dyn Agent<G>>>>>>, rng: GameRng) -> Agents<G> {
        Agents {
            seats,
            rng: Arc::new(Mutex::new(rng)),
            thinking: None,
            due: None,
            cooldown: 0.5,
            still: 0.0,
            hold: 0.0,
        }
    }

    /// No seat played by an agent here (a server's table: its agents
    /// play on the server).
    pub fn nobody(seats: usize) -> Agents<G> {
        Agents::new(vec![None; seats], tabula_engine::core::rng_from_seed(0))
    }

    /// The position changed under the agents (a move, an undo, a step
    /// through the log, a restart): a choice still being made was for the
    /// position before, and none moves until the turn is announced again.
    pub(super) fn cancel(&mut self) {
        self.thinking = None;
        self.due = None;
    }

    /// Each seat's agent's note on its last choice (none for humans, or while
    /// the agent is thinking).
    pub fn notes(&self) -> Vec<Option<String>> {
        self.seats
            .iter()
            .map(|seat| seat.as_ref().and_then(|a| a.try_lock().ok()).and_then(|a| a.note()))
            .collect()
    }
}

/// Wakes the agent of the seat to move, as the turn was announced: when the
/// turn comes to it, when a move leaves the turn with it, and when the game
/// starts again (a new game, an undo, a restart).
pub(super) fn wake_agents<G: WindowGame>(
    mut changes: MessageReader<TurnChanged>,
    mut played: MessageReader<MovePlayed>,
    mut resets: MessageReader<BoardReset>,
    turn: Res<Turn>,
    mut agents: ResMut<Agents<G>>,
    mut watch: ResMut<Watch>,
) {
    let (passed, reset) = (changes.read().count(), resets.read().count());
    if passed + reset > 0 {
        // A fast-forward finishes one turn.
        watch.hurry = false;
    }
    if reset > 0 {
        // A new deal shows for a moment, as a move does, before an agent moves.
        agents.still = 0.0;
    }
    if passed + played.read().count() + reset == 0 {
        return;
    }
    let agent_seat = |p: &Player| agents.seats.get(p.index()).is_some_and(Option::is_some);
    agents.due = turn.to_move.filter(agent_seat);
}

/// The agent woken to move thinks on another thread from what its seat
/// sees; its move comes back as a request like a human's.
pub(super) fn run_agents<G: WindowGame>(
    time: Res<Time>,
    session: Res<Session<G>>,
    mut agents: ResMut<Agents<G>>,
    mut watch: ResMut<Watch>,
    (busy, keys): (Res<BoardBusy>, Option<Res<ScreenKeys>>),
    settings: Res<Settings>,
    mut requests: MessageWriter<RequestMove<G>>,
    mut status: ResMut<StatusLine>,
    mut next: ResMut<NextFrame>,
) {
    let agents = &mut *agents;
    agents.cooldown -= time.delta_secs();
    // While the person reads the list of keys (F1) over the board, the
    // game waits for them as it does for an animation: a move made behind
    // it, a slip to Stop among them, would go unseen.
    let reading = keys.is_some_and(|k| k.open);
    let busy = busy.0 > 0 || reading;
    agents.still = if busy { 0.0 } else { agents.still + time.delta_secs() };
    if let Some((seat, task)) = agents.thinking.as_mut() {
        // Frames go on while it thinks, so its answer is taken at once.
        next.ask();
        if let Some(answer) = block_on(poll_once(task)) {
            let by = *seat;
            agents.thinking = None;
            match answer {
                Some(mv) => {
                    requests.write(RequestMove { by, mv });
                }
                None => status.error("The agent found no move"),
            }
        }
        return;
    }
    let Some(to_move) = agents.due else { return };
    let Some(Some(agent)) = agents.seats.get(to_move.index()) else { return };
    // Paused, one move (.) or the rest of the turn (F) may still be asked for.
    if session.kind.steps_through() || (watch.paused && !watch.step && !watch.hurry) {
        return;
    }
    // An agent is to move: frames go on through its pause and the board's.
    next.ask();
    // The game's pause, at the default speed, lasts as the speed shortens it.
    let after = session.moves.last().map_or(G::AGENT_PAUSE, G::agent_pause_after);
    let pause = after * PAUSE_SPEED / settings.ai_moves_per_second.max(0.1);
    let waiting = agents.cooldown > 0.0 || agents.still < pause + agents.hold;
    // A hold is kept through a fast-forward (F) too: it is there for a
    // person to act (a slip to Stop), which hurrying would sweep by unseen.
    let held = agents.still < agents.hold;
    if busy || held || (waiting && !watch.hurry) {
        return;
    }
    watch.step = false;
    agents.due = None;
    agents.cooldown = (1.0 / settings.ai_moves_per_second).max(MIN_AI_DELAY);
    // The agent sees what its seat sees, nothing more.
    let observation = session.game.observe(Some(to_move)).into_owned();
    let (agent, rng) = (agent.clone(), agents.rng.clone());
    let task = AsyncComputeTaskPool::get().spawn(async move {
        let mut agent = agent.lock().expect("agent lock");
        let mut rng = rng.lock().expect("rng lock");
        agent.choose(to_move, &observation, &mut rng)
    });
    agents.thinking = Some((to_move, task));
}

/// The move an agent seat not to move makes right after a move (a Stop),
/// if any wants to.
pub(super) fn interjection<G: WindowGame>(
    session: &Session<G>,
    agents: &Agents<G>,
) -> Option<(Player, G::Move)> {
    let mover = session.game.current_player();
    let mut open = Vec::new();
    for seat in Player::all(session.seats.len()).filter(|&s| s != mover) {
        open.clear();
        session.game.legal_moves(seat, &mut open);
        let Some(Some(agent)) = agents.seats.get(seat.index()) else { continue };
        if open.is_empty() {
            continue;
        }
        let Ok(mut agent) = agent.try_lock() else { continue };
        // Its own stream, so that a game depends only on its seed and moves.
        let mut rng = rng_from_seed(derive_seed(session.seed, u64::MAX - session.moves.len() as u64));
        if let Some(mv) = agent.interject(seat, &session.game.observe(Some(seat)), &mut rng) {
            return Some((seat, mv));
        }
    }
    None
}
