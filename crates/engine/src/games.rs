//! Runs the generic tools (matches, perft, replays) on a level of any game,
//! so that the command line and the app need no per-game code for them.
//! Each call is monomorphised here, in the optimised engine crate.

use std::path::Path;

use serde::Serialize;

use crate::core::replay::{self, Replay, ReplayError};
use crate::core::runner::{GameRecord, MatchConfig, MatchError, MatchSummary, run_match};
use crate::core::{AgentError, AgentRegistry, AgentSpec, Game, Outcome, perft::perft};
use crate::level::LevelFile;
use crate::mancala::Mancala;
use crate::nim::Nim;

/// One game of a match, with the moves as JSON so callers need not know the
/// game.
#[derive(Clone, Debug, Serialize)]
pub struct MatchRecord {
    pub game: u64,
    pub seed: u64,
    /// Agent spec per seat, seat 1 first.
    pub seats: Vec<String>,
    /// The winning agent's spec and seat (1-based), or null for a draw.
    pub winner: Option<String>,
    pub winner_seat: Option<u8>,
    pub score: Vec<i64>,
    pub plies: u64,
    pub moves: serde_json::Value,
}

fn to_record<M: Serialize>(agents: &[AgentSpec], r: &GameRecord<M>) -> MatchRecord {
    MatchRecord {
        game: r.index,
        seed: r.seed,
        seats: r.seats.iter().map(|&a| agents[a].to_string()).collect(),
        winner: r.winning_agent().map(|a| agents[a].to_string()),
        winner_seat: r.outcome.winner().map(|p| p.0 + 1),
        score: r.scores.clone(),
        plies: r.plies,
        moves: serde_json::to_value(&r.moves).expect("moves serialise"),
    }
}

/// Builds `spec` for the level's game, to refuse a bad agent name before a
/// window opens or a match starts.
pub fn check_agent(level: &LevelFile, spec: &AgentSpec) -> Result<(), AgentError> {
    match level {
        LevelFile::Nim(_) => Nim::build_agent(spec).map(|_| ()),
        LevelFile::Mancala(_) => Mancala::build_agent(spec).map(|_| ()),
    }
}

pub fn play_match(
    level: &LevelFile,
    agents: &[AgentSpec],
    config: &MatchConfig,
    sink: &mut dyn FnMut(&MatchRecord),
    progress: &(dyn Fn(u64) + Sync),
) -> Result<MatchSummary, MatchError> {
    fn go<G: AgentRegistry>(
        level: &G::Level,
        agents: &[AgentSpec],
        config: &MatchConfig,
        sink: &mut dyn FnMut(&MatchRecord),
        progress: &(dyn Fn(u64) + Sync),
    ) -> Result<MatchSummary, MatchError> {
        run_match::<G>(level, agents, config, &mut |r| sink(&to_record(agents, r)), progress)
    }
    match level {
        LevelFile::Nim(l) => go::<Nim>(l, agents, config, sink, progress),
        LevelFile::Mancala(l) => go::<Mancala>(l, agents, config, sink, progress),
    }
}

pub fn perft_level(level: &LevelFile, depth: u32) -> u64 {
    match level {
        LevelFile::Nim(l) => perft(&Nim::new(l, 0).expect("validated level"), depth),
        LevelFile::Mancala(l) => perft(&Mancala::new(l, 0).expect("validated level"), depth),
    }
}

/// One line of `replay --states`: a move, its result and the state after.
#[derive(Clone, Debug, Serialize)]
pub struct StateLine {
    pub ply: usize,
    #[serde(rename = "move")]
    pub mv: serde_json::Value,
    pub result: String,
    pub state: serde_json::Value,
    pub to_move: u8,
    pub outcome: Option<Outcome>,
}

/// Replays a replay file, checking every move; calls `each` after each.
pub fn replay_file(
    path: &Path,
    each: &mut dyn FnMut(&StateLine),
) -> Result<(usize, Option<Outcome>), ReplayError> {
    let file = path.display().to_string();
    let text = std::fs::read_to_string(path)
        .map_err(|e| ReplayError::Io { file: file.clone(), message: e.to_string() })?;
    let header = replay::parse_header(&text, &file)?;
    let level = header.level.resolve(path.parent())?;
    match level {
        LevelFile::Nim(l) => {
            let replay: Replay<<Nim as Game>::Move> = replay::parse(&text, &file)?;
            step_through::<Nim>(&l, &replay, each, |nim| serde_json::json!({ "piles": nim.piles() }))
        }
        LevelFile::Mancala(l) => {
            let replay: Replay<<Mancala as Game>::Move> = replay::parse(&text, &file)?;
            step_through::<Mancala>(&l, &replay, each, |m| {
                let n = m.pits();
                let cells = m.cells();
                serde_json::json!({
                    "pits": [&cells[..n], &cells[n + 1..2 * n + 1]],
                    "stores": [cells[n], cells[2 * n + 1]],
                })
            })
        }
    }
}

fn step_through<G: Game>(
    level: &G::Level,
    replay: &Replay<G::Move>,
    each: &mut dyn FnMut(&StateLine),
    public_state: impl Fn(&G) -> serde_json::Value,
) -> Result<(usize, Option<Outcome>), ReplayError> {
    let game = replay.play_with::<G>(level, &mut |ply, mv, fx, game| {
        each(&StateLine {
            ply,
            mv: serde_json::to_value(mv).expect("moves serialise"),
            result: format!("{fx:?}"),
            state: public_state(game),
            to_move: game.current_player().0 + 1,
            outcome: game.outcome(),
        })
    })?;
    Ok((replay.moves.len(), game.outcome()))
}
