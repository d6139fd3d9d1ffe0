//! Level files: RON, one per level, naming their game. Loading validates
//! fully; errors name the file and the line and column, or the broken rule.
//!
//! A file names its game, so this module keeps its own table of the games
//! whose levels it reads (their names, how to read and check a level),
//! filled from the list of built-in games in `catalog`. It knows nothing
//! else of them, so that the games' registry, matches and replays can sit
//! above it.

use std::any::Any;
use std::fmt;
use std::marker::PhantomData;
use std::path::Path;
use std::sync::{Arc, LazyLock, RwLock};

use ron::extensions::Extensions;
use serde::de::{self, DeserializeSeed, EnumAccess, VariantAccess, Visitor};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::catalog::{self, Catalog};
use crate::core::{Game, Level, LevelGroup, Registered, RuleViolation};

/// Any registered game's level. In a file it is written like a struct named
/// after its game: `Name(name: "...", ...)`, `Name` the game's name in level files.
///
/// `LevelFile::new` and `LevelFile::game` are in `games`: making a level
/// registers its game there, and the game is found there.
#[derive(Clone)]
pub struct LevelFile {
    kind: &'static dyn LevelKind,
    level: Arc<dyn AnyLevel>,
}

/// What a level file needs of its game: its name in files, and its levels
/// read and checked.
trait LevelKind: Send + Sync + 'static {
    fn name(&self) -> &'static str;
    /// Checks a level of this game against the game's rules.
    fn validate(&self, level: &LevelFile) -> Result<(), RuleViolation>;
    /// Reads a level of this game, the game's name already read.
    fn deserialize_level<'de>(
        &self,
        deserializer: &mut dyn erased_serde::Deserializer<'de>,
    ) -> Result<LevelFile, erased_serde::Error>;
}

/// The levels of game `G`.
struct Kind<G>(PhantomData<fn() -> G>);

impl<G: Game> LevelKind for Kind<G> {
    fn name(&self) -> &'static str {
        G::NAME
    }

    fn validate(&self, level: &LevelFile) -> Result<(), RuleViolation> {
        let level = level.get::<G>().expect("a level checked by its own game");
        G::new(level, 0).map(drop)
    }

    fn deserialize_level<'de>(
        &self,
        deserializer: &mut dyn erased_serde::Deserializer<'de>,
    ) -> Result<LevelFile, erased_serde::Error> {
        erased_serde::deserialize::<G::Level>(deserializer).map(LevelFile::of::<G>)
    }
}

/// The games whose levels can be read, in the order added.
#[derive(Default)]
struct Kinds {
    kinds: Vec<&'static dyn LevelKind>,
    /// Their names, for serde's enum of levels.
    names: &'static [&'static str],
}

impl Catalog for Kinds {
    fn add<G: Registered>(&mut self) {
        if self.kinds.iter().any(|k| k.name() == G::NAME) {
            return;
        }
        self.kinds.push(&Kind::<G>(PhantomData));
        // Leaked once a game for the life of the process.
        self.names = Box::leak(self.kinds.iter().map(|k| k.name()).collect::<Vec<_>>().into_boxed_slice());
    }
}

static KINDS: LazyLock<RwLock<Kinds>> = LazyLock::new(|| {
    let mut kinds = Kinds::default();
    catalog::builtin(&mut kinds);
    RwLock::new(kinds)
});

fn read<T>(f: impl FnOnce(&Kinds) -> T) -> T {
    f(&KINDS.read().unwrap_or_else(|e| e.into_inner()))
}

/// Lets files hold levels of game `G` (the built-in games' are readable
/// from the start). `games::register` calls it, so that the two tables
/// hold the same games.
pub(crate) fn register<G: Registered>() {
    KINDS.write().unwrap_or_else(|e| e.into_inner()).add::<G>();
}

fn find(name: &str) -> Option<&'static dyn LevelKind> {
    read(|k| k.kinds.iter().copied().find(|k| k.name() == name))
}

fn names() -> &'static [&'static str] {
    read(|k| k.names)
}

/// A level of some game, its type erased.
trait AnyLevel: erased_serde::Serialize + Any + fmt::Debug + Send + Sync {
    fn name(&self) -> &str;
    fn description(&self) -> &str;
    fn group(&self) -> LevelGroup;
    fn summary(&self) -> Vec<String>;
    fn layout(&self, game: &str) -> String;
    fn as_any(&self) -> &dyn Any;
    fn same_as(&self, other: &dyn AnyLevel) -> bool;
}

impl<L: Level> AnyLevel for L {
    fn name(&self) -> &str {
        Level::name(self)
    }

    fn description(&self) -> &str {
        Level::description(self)
    }

    fn group(&self) -> LevelGroup {
        Level::group(self)
    }

    fn summary(&self) -> Vec<String> {
        Level::summary(self)
    }

    fn layout(&self, game: &str) -> String {
        Level::layout(self, game).unwrap_or_else(|| {
            let body = ron::ser::to_string_pretty(self, pretty_config()).expect("levels serialise");
            format!("{game}{body}\n")
        })
    }

    fn as_any(&self) -> &dyn Any {
        self
    }

    fn same_as(&self, other: &dyn AnyLevel) -> bool {
        other.as_any().downcast_ref::<L>() == Some(self)
    }
}

erased_serde::serialize_trait_object!(AnyLevel);

impl LevelFile {
    /// A level of game `G`, without registering it: for a game read from a
    /// file, or just registered by `LevelFile::new`.
    pub(crate) fn of<G: Game>(level: G::Level) -> LevelFile {
        LevelFile { kind: &Kind::<G>(PhantomData), level: Arc::new(level) }
    }

    /// The name of the level's game, as its file writes it.
    pub(crate) fn game_name(&self) -> &'static str {
        self.kind.name()
    }

    /// The level as its game's type, to be downcast by one that knows it.
    pub fn as_any(&self) -> &dyn Any {
        (*self.level).as_any()
    }

    /// The level itself, if it is one of game `G`'s.
    pub fn get<G: Game>(&self) -> Option<&G::Level> {
        (*self.level).as_any().downcast_ref::<G::Level>()
    }

    pub fn name(&self) -> &str {
        self.level.name()
    }

    pub fn description(&self) -> &str {
        self.level.description()
    }

    /// Where the menu lists it.
    pub fn group(&self) -> LevelGroup {
        self.level.group()
    }

    /// A few lines on the set-up and rule options, for menus.
    pub fn summary(&self) -> Vec<String> {
        self.level.summary()
    }

    /// The level's text in tabula's layout (see `crate::layout`).
    pub fn layout(&self) -> String {
        self.level.layout(self.kind.name())
    }

    /// Checks the level against its game's rules.
    pub fn validate(&self) -> Result<(), RuleViolation> {
        self.kind.validate(self)
    }
}

impl fmt::Debug for LevelFile {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple(self.kind.name()).field(&self.level).finish()
    }
}

impl PartialEq for LevelFile {
    fn eq(&self, other: &LevelFile) -> bool {
        self.kind.name() == other.kind.name() && self.level.same_as(&*other.level)
    }
}

impl Serialize for LevelFile {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let index = names().iter().position(|&n| n == self.kind.name()).unwrap_or(0) as u32;
        serializer.serialize_newtype_variant("LevelFile", index, self.kind.name(), &*self.level)
    }
}

impl<'de> Deserialize<'de> for LevelFile {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<LevelFile, D::Error> {
        struct Levels;
        impl<'de> Visitor<'de> for Levels {
            type Value = LevelFile;

            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                write!(f, "a level of one of the games {}", names().join(", "))
            }

            fn visit_enum<A: EnumAccess<'de>>(self, data: A) -> Result<LevelFile, A::Error> {
                let (GameName(name), variant) = data.variant()?;
                let kind = find(&name).ok_or_else(|| de::Error::unknown_variant(&name, names()))?;
                variant.newtype_variant_seed(LevelOf(kind))
            }
        }
        deserializer.deserialize_enum("LevelFile", names(), Levels)
    }
}

/// The identifier that opens a level: its game's name.
struct GameName(String);

impl<'de> Deserialize<'de> for GameName {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<GameName, D::Error> {
        struct Name;
        impl Visitor<'_> for Name {
            type Value = GameName;

            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("the name of a game")
            }

            fn visit_str<E: de::Error>(self, name: &str) -> Result<GameName, E> {
                Ok(GameName(name.to_owned()))
            }
        }
        deserializer.deserialize_identifier(Name)
    }
}

/// Reads the level of one known game.
struct LevelOf(&'static dyn LevelKind);

impl<'de> DeserializeSeed<'de> for LevelOf {
    type Value = LevelFile;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<LevelFile, D::Error> {
        let mut erased = <dyn erased_serde::Deserializer>::erase(deserializer);
        self.0.deserialize_level(&mut erased).map_err(de::Error::custom)
    }
}

#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum LevelError {
    #[error("{file}: {message}")]
    Io { file: String, message: String },
    #[error("{file}:{line}:{column}: {message}")]
    Syntax { file: String, line: usize, column: usize, message: String },
    /// The level breaks its game's rule `rule` (a short stable name).
    #[error("{file}: {message}")]
    Rule { file: String, rule: &'static str, message: String },
}

impl LevelError {
    /// `file` breaks the rule `violation` names.
    pub fn rule(file: &str, violation: RuleViolation) -> LevelError {
        LevelError::Rule { file: file.to_owned(), rule: violation.rule, message: violation.message }
    }
}

/// RON as tabula writes it: a game's level reads `Name(field: ...)` rather
/// than `Name((field: ...))`.
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
    let level = read_unchecked(text, file)?;
    level.validate().map_err(|e| LevelError::rule(file, e))?;
    Ok(level)
}

/// Parses a level's text without checking its rules: a level being made
/// may break them for a while.
pub fn read_unchecked(text: &str, file: &str) -> Result<LevelFile, LevelError> {
    ron_options().from_str(text).map_err(|e| syntax_error(file, &e))
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
    // Names and descriptions as people write them: "Mary's", not "Mary\'s".
    ron::ser::PrettyConfig::new()
        .escape_strings(false)
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
    use crate::games;

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
        assert!(matches!(err, LevelError::Rule { rule: "no-stones", .. }), "{err:?}");
        assert_eq!(err.to_string(), "f.ron: the piles must hold at least one stone");
        let err = parse("Mancala(name: \"x\", pits: 16, stones: 1, capture: None, sweep: true)", "m.ron");
        assert!(matches!(err, Err(LevelError::Rule { rule: "pits", .. })), "{err:?}");
    }

    #[test]
    fn unknown_games_are_named_with_line_and_column() {
        let err = parse("\n  Chess(name: \"x\")", "c.ron").unwrap_err();
        let LevelError::Syntax { line, message, .. } = &err else { panic!("{err:?}") };
        assert_eq!(*line, 2);
        assert!(message.contains("Chess") && message.contains("Nim") && message.contains("Mancala"), "{err}");
    }

    #[test]
    fn files_read_the_games_the_registry_holds() {
        let registered: Vec<&str> = games::all().iter().map(|g| g.name()).collect();
        assert_eq!(names(), registered, "the two tables are filled from one list, in its order");
    }

    #[test]
    fn levels_round_trip_through_text() {
        let level = parse("Nim(name: \"x\", piles: [3, 4, 5], ending: Normal)", "f.ron").unwrap();
        assert_eq!(parse(&to_ron(&level), "again.ron").unwrap(), level);
    }

    #[test]
    fn shipped_levels_are_valid() {
        let dir = crate::manifest_dir().join("../../levels");
        let mut count = 0;
        for game in games::all() {
            let Ok(entries) = std::fs::read_dir(dir.join(game.folder())) else { continue };
            for entry in entries {
                let path = entry.unwrap().path();
                if path.extension().is_some_and(|e| e == "ron") {
                    let level = load(&path).unwrap_or_else(|e| panic!("{e}"));
                    assert_eq!(level.game().name(), game.name(), "{} is in the wrong folder", path.display());
                    count += 1;
                }
            }
        }
        assert!(count >= 10, "found only {count} levels");
    }
}
