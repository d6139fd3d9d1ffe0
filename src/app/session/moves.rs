//! The engine's answer to a requested move: applied, with its steps, or
//! refused, with the reason.

use bevy::prelude::*;
use tabula_engine::Player;
use tabula_engine::core::{RuleError, apply_with_steps};

use super::agents::{Agents, interjection};
use super::replays::{ReplaysFolder, save_finished};
use super::{GameEnded, MoveApplied, MovePlayed, MoveRefused, RequestMove, Session, StatusLine};
use crate::app::game::{WindowGame, name_of};
use crate::app::settings::Settings;

/// Hands every requested move to the engine, which decides whether that
/// seat may make it, and reports what happened.
pub(super) fn apply_moves<G: WindowGame>(
    mut requests: MessageReader<RequestMove<G>>,
    mut session: ResMut<Session<G>>,
    mut agents: ResMut<Agents<G>>,
    mut applied: MessageWriter<MoveApplied<G>>,
    mut played: MessageWriter<MovePlayed>,
    mut refused: MessageWriter<MoveRefused>,
    mut ended: MessageWriter<GameEnded>,
    mut status: ResMut<StatusLine>,
    (settings, folder): (Res<Settings>, Res<ReplaysFolder>),
) {
    let mut queue: std::collections::VecDeque<(Player, G::Move)> =
        requests.read().map(|r| (r.by, r.mv)).collect();
    while let Some((by, mv)) = queue.pop_front() {
        // Said from the position before: the move may name the card it takes.
        let words = G::move_words(&session.game, &session.level, &mv);
        match apply_with_steps(&mut session.game, by, mv) {
            Ok((_, steps)) => {
                // A choice an agent is still making was for the state before.
                agents.cancel();
                // A move that matches the next undone one keeps the rest of
                // the redo list; any other move starts a new line of play.
                let kept_line = session.redo.last() == Some(&mv);
                if kept_line {
                    session.redo.pop();
                } else {
                    session.redo.clear();
                }
                session.moves.push(mv);
                session.movers.push(by);
                session.said_now(words.clone(), kept_line);
                if let Some(reason) = steps.iter().find_map(G::irreversible) {
                    session.barrier = session.moves.len();
                    session.barrier_reason = reason;
                }
                let note = G::step_note(&steps).map(|n| format!(" ({n})")).unwrap_or_default();
                let said = format!("{}: {words}{note}", session.name_of(by));
                if session.is_human(by) {
                    status.info(said);
                } else {
                    status.agent_said(said);
                }
                applied.write(MoveApplied { by, mv, steps });
                played.write(MovePlayed { by });
                if let Some(outcome) = session.outcome() {
                    let text = G::outcome_text(&session.view(), &session.names());
                    status.info(text.clone());
                    ended.write(GameEnded { outcome, text });
                    save_finished(&mut session, &settings, &folder, &mut status);
                } else if G::INTERJECTIONS
                    && !session.kind.steps_through()
                    && let Some(interjection) = interjection(&session, &agents)
                {
                    // Before anything else: the chance is right after the move.
                    queue.push_front(interjection);
                }
            }
            Err(e) => {
                let reason = match e.not_your_turn() {
                    Some(turn) => format!("it is {}'s turn", name_of(&session.names(), turn.to_move)),
                    None => G::refusal(&session.view(), &e),
                };
                status.error(format!("Refused: {reason}"));
                refused.write(MoveRefused { by, reason, out_of_turn: e.not_your_turn().is_some() });
            }
        }
    }
}
