//! Replays in the window: read into a plan that steps through them, saved
//! from a session, played forward on their own when not paused.

use std::path::{Path, PathBuf};

use bevy::prelude::*;
use tabula_engine::core::replay;

use super::agents::Agents;
use super::{BoardBusy, Controller, ReplayMoves, RequestMove, SeatSetup, Session, SessionPlan, Watch};
use crate::app::frames::NextFrame;
use crate::app::game::WindowGame;
use crate::app::settings::{Settings, data_dir};

/// Reads a replay file into a plan that steps through it.
pub fn plan_from_replay(path: &Path, settings: &Settings) -> Result<SessionPlan, String> {
    let file = path.display().to_string();
    let text = std::fs::read_to_string(path).map_err(|e| format!("{file}: {e}"))?;
    let header = replay::parse_header(&text, &file).map_err(|e| e.to_string())?;
    let level = header.level.resolve(path.parent()).map_err(|e| e.to_string())?;
    let players = level.game().num_players(&level);
    let seats = (0..players)
        .map(|i| {
            let seat = header.players.get(i);
            SeatSetup {
                name: seat.map_or_else(|| settings.name(i), |s| s.name.clone()),
                controller: Controller::Human,
            }
        })
        .collect();
    Ok(SessionPlan {
        level_path: None,
        level,
        seats,
        seed: header.seed,
        replay: Some(ReplayMoves { text, file }),
    })
}

pub(super) fn save_replay<G: WindowGame>(session: &Session<G>) -> std::io::Result<PathBuf> {
    let stamp = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_secs());
    let stem = session
        .level_path
        .as_ref()
        .and_then(|p| p.file_stem())
        .map_or_else(|| G::NAME.to_lowercase(), |s| s.to_string_lossy().into_owned());
    let path = replays_dir().join(format!("{stem}-{stamp}.ron"));
    session.to_replay().save(&path)?;
    Ok(path)
}

/// Where the window saves replays.
pub fn replays_dir() -> PathBuf {
    data_dir().join("replays")
}

/// Plays a replay forward on its own when not paused.
pub(super) fn step_replay<G: WindowGame>(
    session: Res<Session<G>>,
    mut agents: ResMut<Agents<G>>,
    mut watch: ResMut<Watch>,
    busy: Res<BoardBusy>,
    settings: Res<Settings>,
    mut requests: MessageWriter<RequestMove<G>>,
    mut next: ResMut<NextFrame>,
) {
    if !session.replay || busy.0 > 0 {
        return;
    }
    let Some(&mv) = session.redo.last() else { return };
    if watch.step {
        watch.step = false;
    } else if watch.paused {
        return;
    } else if agents.cooldown > 0.0 {
        next.ask();
        return;
    }
    agents.cooldown = 1.0 / settings.ai_moves_per_second;
    requests.write(RequestMove { by: session.game.actor(&mv), mv });
}
