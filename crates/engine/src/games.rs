//! The games tabula knows, and the generic tools (matches, perft, replays,
//! level files) run on any of them without knowing its type.
//!
//! Adding a game to the engine is one line in `catalog`'s list; a test or
//! the window may [`register`] a game of its own.

use std::any::Any;
use std::marker::PhantomData;
use std::path::Path;
use std::sync::{LazyLock, RwLock};

use serde::Serialize;

use crate::catalog::{self, Catalog};
use crate::core::agent::AgentInfo;
use crate::core::perft::{divide, perft};
use crate::core::runner::{GameRecord, MatchConfig, MatchError, MatchSummary, run_match};
use crate::core::{AgentError, AgentSpec, Outcome};
use crate::level::{self, LevelFile};
use crate::replay::{self, Replay, ReplayError};

// What `register` asks of a game; it lives in `core`, so that `level` can
// ask it too.
pub use crate::core::Registered;

/// One game of a match, with the moves as JSON so callers need not know the
/// game.
#[derive(Clone, Debug)]
pub struct MatchRecord {
    pub game: u64,
    pub seed: u64,
    /// Which of the match's agents sat in each seat, seat 1 first.
    pub seat_agents: Vec<usize>,
    /// The winning seat (1-based), or `None` for a draw.
    pub winner_seat: Option<u8>,
    pub score: Vec<i64>,
    pub plies: u64,
    /// The moves in replay notation, as JSON text: made once, written as
    /// it is (a JSON line of `--out`, an arena's row).
    pub moves: Box<serde_json::value::RawValue>,
    /// How long the game took, in microseconds.
    pub micros: u64,
}

impl MatchRecord {
    /// The game as a line of `match --out`, the agents named as `names`
    /// says (their specs, made once for the match: an arena writes
    /// millions of records and names its seatings once).
    pub fn line<'a>(&'a self, names: &'a [String]) -> MatchLine<'a> {
        MatchLine {
            game: self.game,
            seed: self.seed,
            seats: self.seat_agents.iter().map(|&a| names[a].as_str()).collect(),
            winner: self.winner_seat.map(|seat| names[self.seat_agents[usize::from(seat) - 1]].as_str()),
            winner_seat: self.winner_seat,
            score: &self.score,
            plies: self.plies,
            moves: &self.moves,
        }
    }
}

/// A line of `match --out`.
#[derive(Debug, Serialize)]
pub struct MatchLine<'a> {
    pub game: u64,
    pub seed: u64,
    /// Agent spec per seat, seat 1 first.
    pub seats: Vec<&'a str>,
    /// The winning agent's spec, or null for a draw.
    pub winner: Option<&'a str>,
    pub winner_seat: Option<u8>,
    pub score: &'a [i64],
    pub plies: u64,
    pub moves: &'a serde_json::value::RawValue,
}

/// One line of `replay --states`: a move, who made it, its steps as
/// structured data, and the public state after it.
#[derive(Clone, Debug, Serialize)]
pub struct StateLine {
    pub ply: usize,
    /// The seat that moved, 1-based.
    pub by: u8,
    #[serde(rename = "move")]
    pub mv: serde_json::Value,
    pub result: serde_json::Value,
    pub state: serde_json::Value,
    pub to_move: u8,
    pub outcome: Option<Outcome>,
}

/// Takes each game's record, in game order.
pub type Sink<'a> = &'a mut dyn FnMut(MatchRecord);
pub type Progress<'a> = &'a (dyn Fn(u64) + Sync);

/// A game as the generic tools see it, without its type.
pub trait GameEntry: Send + Sync + 'static {
    /// Its name in level files.
    fn name(&self) -> &'static str;
    /// Its name on screen.
    fn title(&self) -> &'static str;
    /// Its folder under `levels/`.
    fn folder(&self) -> &'static str;
    /// The fewest and most seats a level may have.
    fn seats(&self) -> (usize, usize);
    fn perfect_information(&self) -> bool;
    /// The seats of a level of this game.
    fn num_players(&self, level: &LevelFile) -> usize;
    fn agents(&self) -> Vec<AgentInfo>;
    fn default_opponent(&self) -> &'static str;
    /// The agent a lesson seats against a person, if not the default.
    fn lesson_opponent(&self) -> Option<&'static str>;
    /// Builds `spec`, to refuse a bad agent before a window opens or a
    /// match starts.
    fn check_agent(&self, spec: &AgentSpec) -> Result<(), AgentError>;
    /// Validates a level read from a file.
    fn validate(&self, level: &LevelFile) -> Result<(), crate::core::RuleViolation>;
    fn deserialize_level<'de>(
        &self,
        deserializer: &mut dyn erased_serde::Deserializer<'de>,
    ) -> Result<LevelFile, erased_serde::Error>;
    fn play_match(
        &self,
        level: &LevelFile,
        agents: &[AgentSpec],
        config: &MatchConfig,
        sink: Sink<'_>,
        progress: Progress<'_>,
    ) -> Result<MatchSummary, MatchError>;
    fn perft(&self, level: &LevelFile, depth: u32) -> u64;
    /// The count under each first move, the move in words and as JSON.
    fn divide(&self, level: &LevelFile, depth: u32) -> Vec<(String, serde_json::Value, u64)>;
    /// Plays a replay's moves (its text, already known to be for this game).
    fn replay(
        &self,
        level: &LevelFile,
        text: &str,
        file: &str,
        each: &mut dyn FnMut(&StateLine),
    ) -> Result<(usize, Option<Outcome>), ReplayError>;
    /// Plays `games` random games of `level` through the conformance test
    /// every game passes (`core::conformance`), each checked move by move
    /// for its first `plies` moves; panics at the first broken property.
    fn conformance(&self, level: &LevelFile, games: u64, seed: u64, plies: u64);
    /// One of the game's agents, held without its type.
    fn live_agent(&self, spec: &AgentSpec) -> Result<Box<dyn crate::live::LiveAgent>, AgentError>;
    /// A game of `level` in progress, from `seed` (the game server's tables).
    fn start(
        &self,
        level: &LevelFile,
        seed: u64,
    ) -> Result<Box<dyn crate::live::LiveGame>, crate::core::RuleViolation>;
    fn as_any(&self) -> &dyn Any;
}

struct Entry<G>(PhantomData<fn() -> G>);

impl<G: Registered> Entry<G> {
    fn level<'a>(&self, level: &'a LevelFile) -> &'a G::Level {
        level.get::<G>().expect("a level handed to its own game")
    }

    fn start(&self, level: &LevelFile) -> G {
        G::new(self.level(level), 0).expect("levels are validated when read")
    }
}

impl<G: Registered> GameEntry for Entry<G> {
    fn name(&self) -> &'static str {
        G::NAME
    }

    fn title(&self) -> &'static str {
        G::TITLE
    }

    fn folder(&self) -> &'static str {
        G::FOLDER
    }

    fn seats(&self) -> (usize, usize) {
        G::SEATS
    }

    fn perfect_information(&self) -> bool {
        G::PERFECT_INFORMATION
    }

    fn num_players(&self, level: &LevelFile) -> usize {
        self.start(level).num_players()
    }

    fn agents(&self) -> Vec<AgentInfo> {
        G::agents()
    }

    fn default_opponent(&self) -> &'static str {
        G::default_opponent()
    }

    fn lesson_opponent(&self) -> Option<&'static str> {
        G::lesson_opponent()
    }

    fn check_agent(&self, spec: &AgentSpec) -> Result<(), AgentError> {
        G::build_agent(spec).map(drop)
    }

    fn validate(&self, level: &LevelFile) -> Result<(), crate::core::RuleViolation> {
        G::new(self.level(level), 0).map(drop)
    }

    fn deserialize_level<'de>(
        &self,
        deserializer: &mut dyn erased_serde::Deserializer<'de>,
    ) -> Result<LevelFile, erased_serde::Error> {
        erased_serde::deserialize::<G::Level>(deserializer).map(LevelFile::of::<G>)
    }

    fn play_match(
        &self,
        level: &LevelFile,
        agents: &[AgentSpec],
        config: &MatchConfig,
        sink: Sink<'_>,
        progress: Progress<'_>,
    ) -> Result<MatchSummary, MatchError> {
        run_match::<G>(self.level(level), agents, config, &mut |r| sink(to_record(r)), progress)
    }

    fn perft(&self, level: &LevelFile, depth: u32) -> u64 {
        perft(&self.start(level), depth)
    }

    fn divide(&self, level: &LevelFile, depth: u32) -> Vec<(String, serde_json::Value, u64)> {
        divide(&self.start(level), depth)
            .into_iter()
            .map(|(mv, n)| (mv.to_string(), serde_json::to_value(mv).expect("moves serialise"), n))
            .collect()
    }

    fn replay(
        &self,
        level: &LevelFile,
        text: &str,
        file: &str,
        each: &mut dyn FnMut(&StateLine),
    ) -> Result<(usize, Option<Outcome>), ReplayError> {
        let replay: Replay<G::Move> = replay::parse(text, file)?;
        let game = replay.play_with::<G>(self.level(level), file, &mut |played| {
            each(&StateLine {
                ply: played.ply,
                by: played.by.0 + 1,
                mv: serde_json::to_value(played.mv).expect("moves serialise"),
                result: serde_json::to_value(played.steps).expect("steps serialise"),
                state: played.game.public_state(),
                to_move: played.game.current_player().0 + 1,
                outcome: played.game.outcome(),
            })
        })?;
        Ok((replay.moves.len(), game.outcome()))
    }

    fn conformance(&self, level: &LevelFile, games: u64, seed: u64, plies: u64) {
        crate::core::conformance::check_random_openings::<G>(self.level(level), games, seed, plies)
    }

    fn live_agent(&self, spec: &AgentSpec) -> Result<Box<dyn crate::live::LiveAgent>, AgentError> {
        crate::live::live_agent::<G>(spec)
    }

    fn start(
        &self,
        level: &LevelFile,
        seed: u64,
    ) -> Result<Box<dyn crate::live::LiveGame>, crate::core::RuleViolation> {
        Ok(Box::new(crate::live::Live::<G>::new(level, seed)?))
    }

    fn as_any(&self) -> &dyn Any {
        self
    }
}

fn to_record<M: Serialize>(r: &GameRecord<M>) -> MatchRecord {
    MatchRecord {
        game: r.index,
        seed: r.seed,
        seat_agents: r.seats.clone(),
        winner_seat: r.outcome.winner().map(|p| p.0 + 1),
        score: r.scores.clone(),
        plies: r.plies,
        moves: serde_json::value::to_raw_value(&r.moves).expect("moves serialise"),
        micros: r.micros,
    }
}

/// The registered games, in the order registered. Level files keep a
/// table of their own (`level::register`); both hold the same games.
#[derive(Default)]
struct Registry {
    games: Vec<&'static dyn GameEntry>,
    generators: Vec<Generator>,
}

impl Registry {
    fn insert<G: Registered>(&mut self) -> &'static dyn GameEntry {
        if let Some(&known) = self.games.iter().find(|g| g.name() == G::NAME) {
            return known;
        }
        let entry: &'static dyn GameEntry = &Entry::<G>(PhantomData);
        self.games.push(entry);
        entry
    }
}

impl Catalog for Registry {
    fn add<G: Registered>(&mut self) {
        self.insert::<G>();
    }

    fn add_generator<L: crate::core::LevelGenerator>(&mut self) {
        self.generators.push(Generator::of::<L>());
    }
}

static REGISTRY: LazyLock<RwLock<Registry>> = LazyLock::new(|| {
    let mut registry = Registry::default();
    catalog::builtin(&mut registry);
    RwLock::new(registry)
});

fn read<T>(f: impl FnOnce(&Registry) -> T) -> T {
    f(&REGISTRY.read().unwrap_or_else(|e| e.into_inner()))
}

/// Adds a game (the built-in ones are there from the start), its level
/// files too; adding it again changes nothing.
pub fn register<G: Registered>() -> &'static dyn GameEntry {
    // Its levels first, so that a game found here always has readable files.
    level::register::<G>();
    REGISTRY.write().unwrap_or_else(|e| e.into_inner()).insert::<G>()
}

/// Every registered game, in the order registered.
pub fn all() -> Vec<&'static dyn GameEntry> {
    read(|r| r.games.clone())
}

/// The game a level file names.
pub fn find(name: &str) -> Option<&'static dyn GameEntry> {
    read(|r| r.games.iter().copied().find(|g| g.name() == name))
}

/// The entry of game `G`, registering it if needed.
pub fn entry<G: Registered>() -> &'static dyn GameEntry {
    find(G::NAME).unwrap_or_else(register::<G>)
}

// Here rather than in `level`, which knows nothing of this registry.
impl LevelFile {
    /// A level of game `G` (registered if it was not).
    pub fn new<G: Registered>(level: G::Level) -> LevelFile {
        entry::<G>();
        LevelFile::of::<G>(level)
    }

    /// The game the level is for.
    pub fn game(&self) -> &'static dyn GameEntry {
        // Every way to make a level registers its game (built in, or by
        // `new` or `register`, which fill both tables).
        find(self.game_name()).expect("a level's game is registered")
    }
}

/// Refuses a bad agent for the level's game before a window opens or a
/// match starts.
pub fn check_agent(level: &LevelFile, spec: &AgentSpec) -> Result<(), AgentError> {
    level.game().check_agent(spec)
}

pub fn play_match(
    level: &LevelFile,
    agents: &[AgentSpec],
    config: &MatchConfig,
    sink: Sink<'_>,
    progress: Progress<'_>,
) -> Result<MatchSummary, MatchError> {
    level.game().play_match(level, agents, config, sink, progress)
}

pub fn perft_level(level: &LevelFile, depth: u32) -> u64 {
    level.game().perft(level, depth)
}

/// Replays a replay file, checking every move; calls `each` after each.
pub fn replay_file(
    path: &Path,
    each: &mut dyn FnMut(&StateLine),
) -> Result<(usize, Option<Outcome>), ReplayError> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| ReplayError::Io { file: path.display().to_string(), message: e.to_string() })?;
    replay_text(&text, path, each)
}

/// Replays the text of the replay file `path`, checking every move.
pub fn replay_text(
    text: &str,
    path: &Path,
    each: &mut dyn FnMut(&StateLine),
) -> Result<(usize, Option<Outcome>), ReplayError> {
    let file = path.display().to_string();
    let header = replay::parse_header(text, &file)?;
    let level = header.level.resolve(path)?;
    level.game().replay(&level, text, &file, each)
}

/// A game's level generator, without its types.
#[derive(Clone, Copy)]
pub struct Generator {
    /// The game's name in level files.
    pub game: &'static str,
    /// Its options, a line each.
    pub options: &'static str,
    make: fn(&[(String, String)], u64) -> Result<LevelFile, String>,
    like: fn(&LevelFile, u64) -> Result<LevelFile, String>,
}

impl Generator {
    pub fn of<L: crate::core::LevelGenerator>() -> Generator {
        Generator {
            game: <L::Game as crate::core::Game>::NAME,
            options: L::OPTIONS,
            make: |options, seed| L::generate(options, seed).map(LevelFile::new::<L::Game>),
            like: |level, seed| {
                let level = level.get::<L::Game>().ok_or("the level is for another game")?;
                L::deal_like(level, seed).map(LevelFile::new::<L::Game>)
            },
        }
    }

    /// A new level like `level`, dealt from `seed`, or why not.
    pub fn deal_like(&self, level: &LevelFile, seed: u64) -> Result<LevelFile, String> {
        (self.like)(level, seed)
    }

    /// A level from `options` (`--name value` pairs) and `seed`, or why not.
    pub fn generate(&self, options: &[(String, String)], seed: u64) -> Result<LevelFile, String> {
        (self.make)(options, seed)
    }
}

/// The level generators of the registered games.
pub fn generators() -> Vec<Generator> {
    read(|r| r.generators.clone())
}

/// Starts a game of `level` from `seed`, its type taken from the level.
pub fn start(
    level: &LevelFile,
    seed: u64,
) -> Result<Box<dyn crate::live::LiveGame>, crate::core::RuleViolation> {
    level.game().start(level, seed)
}

/// An agent of the game named `game` (its name in level files), for a bot
/// that sees only what a server sends.
pub fn live_agent(game: &str, spec: &AgentSpec) -> Result<Box<dyn crate::live::LiveAgent>, AgentError> {
    let entry = find(game).ok_or_else(|| AgentError::Unknown {
        name: spec.name.clone(),
        game: "an unknown game",
        known: String::new(),
    })?;
    entry.live_agent(spec)
}

/// Every command the games add to the command line, in the catalog's order.
#[cfg(feature = "commands")]
pub fn commands() -> Vec<crate::core::GameCommand> {
    struct Commands(Vec<crate::core::GameCommand>);
    impl Catalog for Commands {
        fn add<G: Registered>(&mut self) {}
        fn add_command(&mut self, command: crate::core::GameCommand) {
            self.0.push(command);
        }
    }
    let mut found = Commands(Vec::new());
    catalog::builtin(&mut found);
    found.0
}

/// Runs a game's command: its level found (a path, or a level's name) and
/// loaded, then the command on it.
#[cfg(feature = "commands")]
pub fn run_command(
    command: &crate::core::GameCommand,
    matches: &clap::ArgMatches,
) -> anyhow::Result<std::process::ExitCode> {
    let given = matches
        .get_one::<std::path::PathBuf>(command.level)
        .ok_or_else(|| anyhow::anyhow!("`tabula {}` needs a level", command.name()))?;
    let path = crate::shipped::level_file(given).map_err(anyhow::Error::msg)?;
    let file = crate::level::load(&path)?;
    let level = crate::core::GivenLevel { path: &path, game: file.game().name(), level: file.as_any() };
    (command.run)(matches, level)
}

#[cfg(all(test, feature = "commands"))]
mod tests {
    #[test]
    fn every_command_has_a_name_of_its_own_and_help() {
        let commands = super::commands();
        let mut names: Vec<String> = commands.iter().map(|c| c.name()).collect();
        assert!(names.contains(&"solve".to_owned()), "{names:?}");
        for command in &commands {
            assert!((command.command)().get_about().is_some(), "{} has no help", command.name());
        }
        names.sort();
        names.dedup();
        assert_eq!(names.len(), commands.len(), "two commands share a name");
    }
}
