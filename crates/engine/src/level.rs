//! Level files: RON, one per level, naming their game. Loading validates
//! fully; errors name the file and the line and column, or the broken rule.

use std::path::Path;

use ron::extensions::Extensions;
use serde::{Deserialize, Serialize};

use crate::core::Game;
use crate::core::replay::ReplayError;
use crate::mancala::{Mancala, MancalaLevel};
use crate::nim::{Nim, NimLevel};

/// Any game's level. In a file the variant is written like a struct:
/// `Nim(name: "...", piles: [5, 6, 7], ending: Misere)`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum LevelFile {
    Nim(NimLevel),
    Mancala(MancalaLevel),
}

/// The games tabula knows, for menus and level folders.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GameKind {
    Nim,
    Mancala,
    RussianBank,
    Robots,
}

impl GameKind {
    pub const ALL: [GameKind; 4] =
        [GameKind::Nim, GameKind::Mancala, GameKind::RussianBank, GameKind::Robots];

    pub fn title(self) -> &'static str {
        match self {
            GameKind::Nim => "Nim",
            GameKind::Mancala => "Mancala / Kalah",
            GameKind::RussianBank => "Russian Bank",
            GameKind::Robots => "Robot board",
        }
    }

    /// The folder under `levels/`.
    pub fn folder(self) -> &'static str {
        match self {
            GameKind::Nim => "nim",
            GameKind::Mancala => "mancala",
            GameKind::RussianBank => "russian_bank",
            GameKind::Robots => "robots",
        }
    }

    pub fn is_playable(self) -> bool {
        matches!(self, GameKind::Nim | GameKind::Mancala)
    }
}

impl LevelFile {
    pub fn kind(&self) -> GameKind {
        match self {
            LevelFile::Nim(_) => GameKind::Nim,
            LevelFile::Mancala(_) => GameKind::Mancala,
        }
    }

    pub fn name(&self) -> &str {
        match self {
            LevelFile::Nim(l) => &l.name,
            LevelFile::Mancala(l) => &l.name,
        }
    }

    /// Checks the level against its game's rules.
    pub fn validate(&self) -> Result<(), String> {
        match self {
            LevelFile::Nim(l) => Nim::new(l, 0).map(drop).map_err(|e| e.0),
            LevelFile::Mancala(l) => Mancala::new(l, 0).map(drop).map_err(|e| e.0),
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum LevelError {
    #[error("{file}: {message}")]
    Io { file: String, message: String },
    #[error("{file}:{line}:{column}: {message}")]
    Syntax { file: String, line: usize, column: usize, message: String },
    #[error("{file}: {message}")]
    Rule { file: String, message: String },
}

impl LevelError {
    pub(crate) fn into_replay(self) -> ReplayError {
        match self {
            LevelError::Syntax { file, line, column, message } => {
                ReplayError::Syntax { file, line, column, message }
            }
            other => ReplayError::Level(other),
        }
    }
}

/// RON as tabula writes it: a game's level reads `Nim(piles: ...)` rather
/// than `Nim((piles: ...))`.
pub(crate) fn ron_options() -> ron::Options {
    ron::Options::default().with_default_extension(Extensions::UNWRAP_VARIANT_NEWTYPES)
}

pub(crate) fn syntax_error(file: &str, e: &ron::error::SpannedError) -> LevelError {
    LevelError::Syntax {
        file: file.to_owned(),
        line: e.span.start.line,
        column: e.span.start.col,
        message: e.code.to_string(),
    }
}

/// Parses and validates a level's text; `file` names it in errors.
pub fn parse(text: &str, file: &str) -> Result<LevelFile, LevelError> {
    let level: LevelFile = ron_options().from_str(text).map_err(|e| syntax_error(file, &e))?;
    level.validate().map_err(|message| LevelError::Rule { file: file.to_owned(), message })?;
    Ok(level)
}

/// Reads, parses and validates a level file.
pub fn load(path: &Path) -> Result<LevelFile, LevelError> {
    let file = path.display().to_string();
    let text = std::fs::read_to_string(path)
        .map_err(|e| LevelError::Io { file: file.clone(), message: e.to_string() })?;
    parse(&text, &file)
}

/// The level as RON text, in the form `parse` reads.
pub fn to_ron(level: &LevelFile) -> String {
    ron::ser::to_string_pretty(level, pretty_config()).expect("levels serialise")
}

/// How tabula writes RON, matching [`ron_options`].
pub(crate) fn pretty_config() -> ron::ser::PrettyConfig {
    ron::ser::PrettyConfig::new()
        .struct_names(false)
        .depth_limit(3)
        .extensions(Extensions::UNWRAP_VARIANT_NEWTYPES)
}

/// Writes `text` to a temporary file beside `path` and renames it over
/// `path`, so readers never see half a file.
pub fn write_atomically(path: &Path, text: &str) -> std::io::Result<()> {
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir)?;
    }
    let mut tmp = path.as_os_str().to_owned();
    tmp.push(".tmp");
    std::fs::write(&tmp, text)?;
    std::fs::rename(&tmp, path)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn syntax_errors_name_file_line_and_column() {
        let text = "Nim(\n    name: \"x\",\n    piles: [5, 6,, 7],\n    ending: Misere,\n)\n";
        match parse(text, "levels/nim/x.ron") {
            Err(LevelError::Syntax { file, line, column, .. }) => {
                assert_eq!(file, "levels/nim/x.ron");
                assert_eq!(line, 3);
                assert!(column > 10, "column {column}");
            }
            other => panic!("expected a syntax error, got {other:?}"),
        }
    }

    #[test]
    fn unknown_fields_are_errors() {
        let text = "Nim(name: \"x\", piles: [1], ending: Normal, colour: 3)";
        let err = parse(text, "f.ron").unwrap_err();
        assert!(matches!(err, LevelError::Syntax { .. }), "{err}");
        assert!(err.to_string().contains("colour"), "{err}");
    }

    #[test]
    fn rule_errors_name_the_rule() {
        let err = parse("Nim(name: \"x\", piles: [0, 0], ending: Normal)", "f.ron").unwrap_err();
        assert!(matches!(err, LevelError::Rule { .. }), "{err}");
        assert!(err.to_string().contains("at least one stone"), "{err}");
    }

    #[test]
    fn levels_round_trip_through_text() {
        let level = parse("Nim(name: \"x\", piles: [3, 4, 5], ending: Normal)", "f.ron").unwrap();
        assert_eq!(parse(&to_ron(&level), "again.ron").unwrap(), level);
    }

    #[test]
    fn shipped_levels_are_valid() {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../levels");
        let mut count = 0;
        for game in GameKind::ALL {
            let Ok(entries) = std::fs::read_dir(dir.join(game.folder())) else { continue };
            for entry in entries {
                let path = entry.unwrap().path();
                if path.extension().is_some_and(|e| e == "ron") {
                    let level = load(&path).unwrap_or_else(|e| panic!("{e}"));
                    assert_eq!(level.kind(), game, "{} is in the wrong folder", path.display());
                    count += 1;
                }
            }
        }
        assert!(count >= 10, "found only {count} levels");
    }
}
