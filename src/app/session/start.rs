//! How a session begins (from the menu, a replay, a reload) and the
//! requests of the panels and keys: undo, redo, pause, restart, replays.

use std::sync::{Arc, Mutex};

use bevy::prelude::*;
use tabula_engine::core::{derive_seed, rng_from_seed};

use super::agents::Agents;
use super::replays::{ReplaysFolder, plan_from_replay, save_replay};
use super::{
    BoardReset, Controller, Headline, RequestMove, Session, SessionPlan, SessionRequest, SessionStarted,
    Sitting, StatusLine, Watch,
};
use crate::app::game::{ActiveGame, WindowGame};
use crate::app::screen::{BackTo, Screen};
use crate::app::settings::Settings;

/// Starts a session on `plan`, replacing any running one.
pub fn begin(world: &mut World, plan: SessionPlan) -> Result<(), String> {
    let game = plan.level.game();
    let begin = world.resource::<WindowGames>().find(game.name()).map(|e| e.begin);
    match begin {
        Some(begin) => begin(world, plan),
        None => Err(format!("{} cannot be played in the window yet", game.title())),
    }
}

pub(crate) fn begin_game<G: WindowGame>(world: &mut World, plan: SessionPlan) -> Result<(), String> {
    let level = plan.level.get::<G>().ok_or("the level is for another game")?.clone();
    let session = Session::<G>::new(&plan, level)?;
    let (players, seated) = (session.game.num_players(), session.seats.len());
    if players != seated {
        return Err(format!(
            "the level has {players} players but {seated} seats were chosen; choose the seats again in the menu"
        ));
    }
    let mut seats = Vec::new();
    for seat in &session.seats {
        seats.push(match &seat.controller {
            // A replay's agents are named, not run: it takes no new moves.
            _ if session.kind.steps_through() => None,
            Controller::Human | Controller::Online => None,
            Controller::Agent(spec) => {
                Some(Arc::new(Mutex::new(G::build_agent(spec).map_err(|e| e.to_string())?)))
            }
        });
    }
    let replay = session.kind.steps_through();
    // A lesson whose agent moves first waits for the person to read it:
    // its first moves would be over before the text was.
    let first = session.game.current_player();
    let read_first = !replay
        && plan.level.group() == tabula_engine::core::LevelGroup::Lesson
        && session.has_human()
        && !session.is_human(first);
    let status = if replay {
        "Replay loaded: step with . and , or press Space to play".to_owned()
    } else if read_first {
        format!("Read the lesson on the right, then press Space: {} moves first", session.name_of(first))
    } else {
        "New game".to_owned()
    };
    let agents = Agents::<G>::new(seats, rng_from_seed(derive_seed(plan.seed, 1)));
    super::install(world, session, agents, Watch { paused: replay || read_first, ..default() });
    world.resource_mut::<StatusLine>().info(status);
    // The menu opens on this level next time (written with the settings).
    if !replay
        && plan.level_path.is_some()
        && let Some(mut settings) = world.get_resource_mut::<Settings>()
        && settings.last_level != plan.level_path
    {
        settings.last_level = plan.level_path.clone();
    }
    world.write_message(SessionStarted(Box::new(plan)));
    world.write_message(BoardReset);
    world.resource_mut::<NextState<Screen>>().into_inner().set_if_neq(Screen::Game);
    world.resource_mut::<NextState<ActiveGame>>().into_inner().set_if_neq(ActiveGame::of::<G>());
    Ok(())
}

/// Requests that do not need to know the game.
pub(super) fn handle_requests(
    mut commands: Commands,
    mut requests: MessageReader<SessionRequest>,
    mut watch: ResMut<Watch>,
    mut next: ResMut<NextState<Screen>>,
    mut back: ResMut<BackTo>,
) {
    for request in requests.read() {
        match request {
            SessionRequest::TogglePause => watch.paused = !watch.paused,
            SessionRequest::Step => {
                watch.paused = true;
                watch.step = true;
            }
            SessionRequest::Start(plan) => {
                let plan = (**plan).clone();
                commands.queue(move |world: &mut World| {
                    if let Err(e) = begin(world, plan) {
                        world.resource_mut::<StatusLine>().error(format!("Cannot start: {e}"));
                    }
                });
            }
            SessionRequest::OpenReplay(path) => {
                let path = path.clone();
                commands.queue(move |world: &mut World| {
                    let settings = world.resource::<Settings>().clone();
                    let result = plan_from_replay(&path, &settings).and_then(|plan| begin(world, plan));
                    if let Err(e) = result {
                        world.resource_mut::<StatusLine>().error(format!("Cannot open the replay: {e}"));
                    }
                });
            }
            // From a test-play, back to the editor; else to the menu.
            SessionRequest::BackToMenu => next.set(std::mem::take(&mut back.0)),
            _ => {}
        }
    }
}

pub(super) fn handle_session_requests<G: WindowGame>(
    mut requests: MessageReader<SessionRequest>,
    mut session: ResMut<Session<G>>,
    mut agents: ResMut<Agents<G>>,
    mut watch: ResMut<Watch>,
    mut status: ResMut<StatusLine>,
    mut resets: MessageWriter<BoardReset>,
    mut moves: MessageWriter<RequestMove<G>>,
    folder: Res<ReplaysFolder>,
    mut sitting: ResMut<Sitting>,
) {
    for request in requests.read() {
        match request {
            SessionRequest::Undo => {
                if session.undo() {
                    // The agents are woken again by the reset, from the
                    // position taken back to.
                    agents.cancel();
                    if !session.has_human() {
                        watch.paused = true;
                    }
                    status.info("Move taken back");
                    resets.write(BoardReset);
                } else if session.moves.is_empty() {
                    status.error("Nothing to undo");
                } else {
                    status.error(format!("Cannot undo past that move: {}", session.barrier_reason));
                }
            }
            SessionRequest::Redo => match session.redo.last().copied() {
                Some(mv) => {
                    agents.cancel();
                    moves.write(RequestMove { by: session.game.actor(&mv), mv });
                }
                None => status.error("Nothing to redo"),
            },
            SessionRequest::GoTo(n) => {
                if session.go_to(*n) {
                    // The player looks back: nobody moves until they go on.
                    agents.cancel();
                    watch.paused = true;
                    status
                        .info(format!("At move {} of the log: Space goes on from here", session.moves.len()));
                    resets.write(BoardReset);
                } else if *n < session.moves.len() {
                    status.error(format!("Cannot go back past that move: {}", session.barrier_reason));
                }
            }
            SessionRequest::Restart => {
                sitting.count(&session);
                agents.cancel();
                session.restart();
                watch.paused = false;
                status.info(if session.deals { "The same deal again" } else { "New game" });
                resets.write(BoardReset);
            }
            SessionRequest::PlayAgain if play_again(&mut session, &mut agents, &mut status, &mut sitting) => {
                watch.paused = false;
                resets.write(BoardReset);
            }
            SessionRequest::SaveReplay => save_asked(&mut session, &mut status, &folder.0),
            _ => {}
        }
    }
}

/// F2: a new game on the level (a new deal, a new board where the session
/// deals them), the seats turned round where they take turns to start.
/// Returns whether it began.
fn play_again<G: WindowGame>(
    session: &mut Session<G>,
    agents: &mut Agents<G>,
    status: &mut StatusLine,
    sitting: &mut Sitting,
) -> bool {
    let turn = session.turns_seats_round();
    let person = session.person_again();
    // The game just over counts once the next one is dealt.
    let mut counted = sitting.clone();
    counted.count(session);
    if let Err(e) = session.play_again(super::seed_now()) {
        status.error(format!("Cannot deal a new game: {e}"));
        return false;
    }
    *sitting = counted;
    agents.cancel();
    if turn {
        // Each seat's agent (or person) goes with its name.
        session.seats.swap(0, 1);
        agents.seats.swap(0, 1);
    }
    let new = if session.deals { "New game, dealt anew" } else { "New game" };
    // A person is named only where the seats turned round.
    match person {
        Some(person) => status.info(format!("{new}: {person}")),
        None => status.info(new),
    }
    true
}

/// Ctrl+S: the game saved as a replay, unless it is saved as it stands.
fn save_asked<G: WindowGame>(session: &mut Session<G>, status: &mut StatusLine, folder: &std::path::Path) {
    match &session.saved {
        Some((game, path)) if *game == session.as_saved() => {
            status.info(format!("Saved already, to {}", path.display()));
        }
        _ => match save_replay(session, folder) {
            Ok(path) => {
                status.info(format!("Replay saved to {}", path.display()));
                session.saved = Some((session.as_saved(), path));
            }
            Err(e) => status.error(format!("Cannot save the replay: {e}")),
        },
    }
}

/// A session begins: the one place where it and what every screen reads
/// of it (its kind, its agents, the pace, a clear headline) are put in
/// place, whatever its kind.
pub(crate) fn install<G: WindowGame>(
    world: &mut World,
    session: Session<G>,
    agents: Agents<G>,
    watch: Watch,
) {
    world.insert_resource(session.kind);
    world.insert_resource(agents);
    world.insert_resource(session);
    world.insert_resource(watch);
    world.insert_resource(Headline(None));
    world.insert_resource(super::Sitting::default());
}

/// The games the window shows, by name, with how to start a session of one.
#[derive(Resource, Default)]
pub struct WindowGames(pub Vec<WindowEntry>);

pub struct WindowEntry {
    pub name: &'static str,
    pub begin: fn(&mut World, SessionPlan) -> Result<(), String>,
    /// Starts a session on a game server's table from its `state` message.
    pub begin_online: fn(&mut World, &tabula_server::protocol::TableState) -> Result<(), String>,
}

impl WindowGames {
    pub fn find(&self, name: &str) -> Option<&WindowEntry> {
        self.0.iter().find(|e| e.name == name)
    }
}
