//! Replays: the level, the seed, the players and the moves, enough to play a
//! game again bit for bit. A replay holds a level file of any game, so it
//! sits beside `level`, above the games, not in `core` below them.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::core::{Game, Player, apply_with_steps};
use crate::level::{self, LevelError, LevelFile};

/// Where a replay's level comes from.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum LevelSource {
    /// A level file, relative to the replay file's folder when relative.
    Path(PathBuf),
    Inline(LevelFile),
}

/// A seat as recorded: its name and who played it (`human` or an agent spec).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Seat {
    pub name: String,
    pub agent: String,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Replay<M> {
    pub level: LevelSource,
    pub seed: u64,
    pub players: Vec<Seat>,
    pub moves: Vec<M>,
}

/// The part of a replay that does not depend on the game, read first to learn
/// which game's moves follow.
#[derive(Deserialize)]
pub struct ReplayHeader {
    pub level: LevelSource,
    pub seed: u64,
    pub players: Vec<Seat>,
    #[expect(dead_code, reason = "never read: it makes a replay's moves required, skipping their text")]
    moves: serde::de::IgnoredAny,
}

#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum ReplayError {
    #[error(transparent)]
    Level(LevelError),
    /// The level file the replay names cannot be read: said with the replay,
    /// which is where the fix goes.
    #[error("{replay}: its level {error}")]
    LevelFile { replay: String, error: LevelError },
    #[error("{file}: {message}")]
    Io { file: String, message: String },
    #[error("{file}:{line}:{column}: {message}")]
    Syntax { file: String, line: usize, column: usize, message: String },
    #[error("{file}: replay is for {found}, not {expected}")]
    WrongGame { file: String, found: &'static str, expected: &'static str },
    /// Move `index` (from 1) breaks a rule of the game, `error` says which.
    #[error("{file}: move {index} ({mv}) was refused: {error}")]
    Refused { file: String, index: usize, mv: String, error: String },
}

/// A level's error as a replay's: a replay is RON like a level file, so a
/// syntax error in either reads the same.
impl From<LevelError> for ReplayError {
    fn from(e: LevelError) -> ReplayError {
        match e {
            LevelError::Syntax { file, line, column, message } => {
                ReplayError::Syntax { file, line, column, message }
            }
            other => ReplayError::Level(other),
        }
    }
}

impl LevelSource {
    /// The level itself, checked, reading the file if it is a path (relative
    /// paths are taken from the folder of `replay`, the replay file, then
    /// from the working folder). An inline level that breaks its game's rules
    /// is refused in the replay's name, as a level file is in its own.
    pub fn resolve(&self, replay: &Path) -> Result<LevelFile, ReplayError> {
        let file = replay.display().to_string();
        match self {
            LevelSource::Inline(level) => {
                level.validate().map_err(|e| ReplayError::Level(LevelError::rule(&file, e)))?;
                Ok(level.clone())
            }
            LevelSource::Path(path) => {
                let near = replay.parent().map(|b| b.join(path)).filter(|p| p.exists());
                level::load(near.as_deref().unwrap_or(path))
                    .map_err(|error| ReplayError::LevelFile { replay: file, error })
            }
        }
    }
}

/// One move of a replay as it was played.
pub struct Played<'a, G: Game> {
    /// 1-based.
    pub ply: usize,
    pub by: Player,
    pub mv: G::Move,
    pub steps: &'a [G::Step],
    /// The state after the move.
    pub game: &'a G,
}

impl<M: Copy + std::fmt::Display> Replay<M> {
    /// Plays the moves from the start, checking each; returns the final state
    /// and every move's steps. `file` names the replay in errors.
    pub fn play<G: Game<Move = M>>(
        &self,
        level: &G::Level,
        file: &str,
    ) -> Result<(G, Vec<Vec<G::Step>>), ReplayError> {
        let mut steps = Vec::with_capacity(self.moves.len());
        let game = self.play_with::<G>(level, file, &mut |played| steps.push(played.steps.to_vec()))?;
        Ok((game, steps))
    }

    /// Plays the moves from the start, checking each, and calls `each` after
    /// every move. Each move is made by the seat the game names for it.
    pub fn play_with<G: Game<Move = M>>(
        &self,
        level: &G::Level,
        file: &str,
        each: &mut dyn FnMut(Played<'_, G>),
    ) -> Result<G, ReplayError> {
        let mut game = G::new(level, self.seed).map_err(|e| ReplayError::Level(LevelError::rule(file, e)))?;
        for (index, &mv) in self.moves.iter().enumerate() {
            let by = game.actor(&mv);
            let (_, steps) = apply_with_steps(&mut game, by, mv).map_err(|e| ReplayError::Refused {
                file: file.to_owned(),
                index: index + 1,
                mv: mv.to_string(),
                error: e.to_string(),
            })?;
            each(Played { ply: index + 1, by, mv, steps: &steps, game: &game });
        }
        Ok(game)
    }
}

impl<M: Serialize> Replay<M> {
    pub fn to_ron(&self) -> String {
        ron::ser::to_string_pretty(self, level::pretty_config()).expect("replays serialise")
    }

    /// Writes to a temporary file and renames it, so a crash never leaves
    /// half a replay.
    pub fn save(&self, path: &Path) -> std::io::Result<()> {
        level::write_atomically(path, &self.to_ron())
    }
}

/// Reads a replay's text; `file` names it in errors.
pub fn parse_header(text: &str, file: &str) -> Result<ReplayHeader, ReplayError> {
    level::ron_options().from_str(text).map_err(|e| level::syntax_error(file, &e).into())
}

/// Whether a file's text is a replay rather than a level: a level opens
/// with its game's name (`<Game>(`), a replay with `(` or `Replay(`. Comments
/// and RON's `#![enable(...)]` lines before it are passed over.
pub fn is_replay(text: &str) -> bool {
    let mut rest = text;
    loop {
        rest = rest.trim_start();
        let skipped = if let Some(after) = rest.strip_prefix("//") {
            after.split_once('\n').map(|(_, r)| r)
        } else if let Some(after) = rest.strip_prefix("/*") {
            after.split_once("*/").map(|(_, r)| r)
        } else if let Some(after) = rest.strip_prefix("#!") {
            after.split_once(']').map(|(_, r)| r)
        } else {
            break;
        };
        rest = skipped.unwrap_or("");
    }
    let rest = rest.strip_prefix("Replay").unwrap_or(rest);
    rest.trim_start().starts_with('(')
}

pub fn parse<M: serde::de::DeserializeOwned>(text: &str, file: &str) -> Result<Replay<M>, ReplayError> {
    level::ron_options().from_str(text).map_err(|e| level::syntax_error(file, &e).into())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::nim::{Ending, Nim, NimLevel, Take};

    #[test]
    fn replays_round_trip_and_reproduce_the_game() {
        let level = NimLevel::new("t", &[2, 3], Ending::Normal);
        let replay = Replay {
            level: LevelSource::Inline(LevelFile::new::<Nim>(level.clone())),
            seed: 5,
            players: vec![
                Seat { name: "John".into(), agent: "human".into() },
                Seat { name: "Mary O'Neill \"Mo\" ♦".into(), agent: "optimal:0.5".into() },
            ],
            moves: vec![Take { pile: 1, count: 1 }, Take { pile: 0, count: 2 }, Take { pile: 1, count: 2 }],
        };
        let text = replay.to_ron();
        assert!(text.contains("Inline(Nim("), "{text}");
        // Names are written as people write them, quotes kept by a raw string.
        assert!(text.contains(r##"r#"Mary O'Neill "Mo" ♦"#"##), "{text}");
        assert!(text.contains(r#"name: "John""#), "{text}");
        let back: Replay<Take> = parse(&text, "r.ron").unwrap();
        assert_eq!(back, replay);
        let (nim, steps) = back.play::<Nim>(&level, "r.ron").unwrap();
        assert_eq!(steps.len(), 3);
        assert_eq!(
            steps[0][0],
            crate::nim::NimStep::Took { by: crate::core::Player::ONE, pile: 1, count: 1, left: 2 }
        );
        assert_eq!(
            crate::core::Game::outcome(&nim),
            Some(crate::core::Outcome::Win(crate::core::Player::ONE))
        );
        let mut bad = replay.clone();
        bad.moves[1] = Take { pile: 0, count: 3 };
        let err = bad.play::<Nim>(&level, "r.ron").unwrap_err();
        assert!(
            err.to_string().starts_with("r.ron: move 2 (take 3 stones from pile 1) was refused"),
            "{err}"
        );
    }

    #[test]
    fn a_replay_is_told_from_a_level_by_how_it_opens() {
        assert!(is_replay("(\n    level: Path(\"x.ron\"),"));
        assert!(is_replay("// Seed 000's session\n/* kept */ #![enable(implicit_some)]\n  Replay (level: "));
        assert!(!is_replay("Nim(name: \"x\", piles: [1], ending: Normal)"));
        assert!(!is_replay("// a level\nMancala(\n"));
        assert!(!is_replay("ReplayNim("), "a game could be called so");
        assert!(!is_replay(""));
        assert!(!is_replay("// unfinished comment"));
    }

    #[test]
    fn an_inline_level_that_breaks_a_rule_is_refused_in_the_replays_name() {
        let level = NimLevel::new("t", &[0, 0], Ending::Normal);
        let source = LevelSource::Inline(LevelFile::new::<Nim>(level));
        let err = source.resolve(Path::new("dir/r.ron")).unwrap_err();
        assert_eq!(err.to_string(), "dir/r.ron: the piles must hold at least one stone");
        let missing = LevelSource::Path("no-such-level.ron".into());
        let err = missing.resolve(Path::new("dir/r.ron")).unwrap_err().to_string();
        assert!(err.starts_with("dir/r.ron: its level no-such-level.ron: "), "{err}");
    }
}
