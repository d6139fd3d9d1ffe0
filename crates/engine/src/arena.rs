//! An arena: named agents against each other on several levels, maybe of
//! several games, every pairing a fixed number of games; the ratings come
//! from the whole table of results (`core::ratings`).
//!
//! An arena file (RON, docs/formats.md "Arenas") names its agents, each with
//! the agent it plays in every game or one per game, and its levels, paths
//! relative to the file. What is played is fixed by the file alone: the
//! games of a pairing are numbered, and game i of pairing p on level l has
//! its seed and seats from (seed, l, p, i). So a run can stop anywhere and
//! go on, and `--shard i/n` parts can be played on different machines.

use std::collections::BTreeMap;
use std::ops::Range;
use std::path::Path;

use serde::Deserialize;

use crate::core::runner::round;
use crate::core::{AgentSpec, derive_seed};
use crate::level::{self, LevelError, LevelFile};

/// An arena as its file writes it, before it is checked.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields, rename = "Arena")]
pub struct ArenaFile {
    pub name: String,
    #[serde(default)]
    pub description: String,
    #[serde(default)]
    pub seed: u64,
    /// Games each pairing plays on each level, rounded up to whole rounds
    /// (`runner::round`: 2 for two seats, n! for n).
    pub games: u64,
    pub agents: Vec<ArenaAgent>,
    /// Level files, relative to the arena file.
    pub levels: Vec<String>,
}

/// An agent of the arena: its name in the tables, and what it plays.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ArenaAgent {
    pub name: String,
    /// The agent it plays in any game not in `by_game` (`random`,
    /// `minimax:6`, as `--p1` takes it).
    #[serde(default)]
    pub agent: Option<String>,
    /// The agent it plays in a game, by the game's name in level files
    /// (as `games::all` lists them).
    #[serde(default)]
    pub by_game: BTreeMap<String, String>,
}

/// A level of a checked arena: the agents' specs for its game, and which
/// agents meet at each of its tables.
#[derive(Clone, Debug)]
pub struct ArenaLevel {
    /// As the arena file writes it.
    pub path: String,
    pub level: LevelFile,
    pub seats: usize,
    /// Each agent's spec in this level's game, in the arena's order.
    pub specs: Vec<AgentSpec>,
    /// The agents at each table, in seat order for its game 0: every
    /// choice of `seats` agents of the arena.
    pub pairings: Vec<Vec<usize>>,
    /// Games each pairing plays.
    pub games: u64,
}

/// A checked arena, ready to play.
#[derive(Clone, Debug)]
pub struct Arena {
    pub name: String,
    pub description: String,
    pub seed: u64,
    pub agents: Vec<String>,
    pub levels: Vec<ArenaLevel>,
}

/// A part of an arena to play: games `games` of pairing `pairing` on level
/// `level`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Part {
    pub level: usize,
    pub pairing: usize,
    pub games: Range<u64>,
}

/// What is wrong with an arena: its file as a level file's would be (read,
/// syntax at line and column), a level it names, or a rule of arenas.
#[derive(Debug, thiserror::Error)]
pub enum ArenaError {
    #[error("{file}: {message}")]
    Invalid { file: String, message: String },
    #[error(transparent)]
    File(#[from] LevelError),
    /// A level the arena names cannot be read: said with the arena file,
    /// which is where the fix goes.
    #[error("{arena}: its level {error}")]
    Level { arena: String, error: LevelError },
}

/// RON as level files are read, and `agent: "random"` without `Some(...)`.
fn ron_options() -> ron::Options {
    level::ron_options().with_default_extension(ron::extensions::Extensions::IMPLICIT_SOME)
}

/// The most games an arena plays over all its levels and tables: more than
/// a machine plays in years, and far inside the numbers games are counted
/// and stored with.
pub const MAX_GAMES: u64 = 1_000_000_000_000_000;

/// The most tables a level of an arena seats (each is listed in memory).
pub const MAX_TABLES: u64 = 100_000;

/// How many choices of `k` of `n` there are, `u64::MAX` for more.
fn binomial(n: usize, k: usize) -> u64 {
    let mut count = 1u128;
    for i in 0..k.min(n) as u128 {
        count = count.saturating_mul(n as u128 - i) / (i + 1);
        if count > u128::from(u64::MAX) {
            return u64::MAX;
        }
    }
    if k > n { 0 } else { count as u64 }
}

/// Every choice of `k` of `n` agents, in lexicographic order.
pub fn choices(n: usize, k: usize) -> Vec<Vec<usize>> {
    fn go(start: usize, n: usize, k: usize, now: &mut Vec<usize>, out: &mut Vec<Vec<usize>>) {
        if now.len() == k {
            out.push(now.clone());
            return;
        }
        for i in start..n {
            now.push(i);
            go(i + 1, n, k, now, out);
            now.pop();
        }
    }
    let mut out = Vec::new();
    go(0, n, k, &mut Vec::with_capacity(k), &mut out);
    out
}

impl Arena {
    /// Reads and checks an arena file and every level it names.
    pub fn load(path: &Path) -> Result<Arena, ArenaError> {
        let file = path.display().to_string();
        let text = std::fs::read_to_string(path)
            .map_err(|e| LevelError::Io { file: file.clone(), message: e.to_string() })?;
        let base = path.parent().unwrap_or(Path::new("."));
        Arena::parse(&text, &file, |name| level::load(&base.join(name)))
    }

    /// Reads and checks an arena's text; `file` names it in errors and
    /// `load` reads a level it names.
    pub fn parse(
        text: &str,
        file: &str,
        load: impl Fn(&str) -> Result<LevelFile, LevelError>,
    ) -> Result<Arena, ArenaError> {
        let raw: ArenaFile = ron_options().from_str(text).map_err(|e| level::syntax_error(file, &e))?;
        Arena::check(raw, file, load)
    }

    /// Checks an arena: two agents or more with different names, each with
    /// an agent for every level's game that the game knows; levels that
    /// load; no more seats at a level than agents.
    pub fn check(
        raw: ArenaFile,
        file: &str,
        load: impl Fn(&str) -> Result<LevelFile, LevelError>,
    ) -> Result<Arena, ArenaError> {
        let invalid = |message: String| ArenaError::Invalid { file: file.to_owned(), message };
        check_agents(&raw).map_err(invalid)?;
        let mut levels = Vec::new();
        // Games of the whole arena, which must stay countable.
        let mut total = 0u128;
        for path in &raw.levels {
            let level = load(path).map_err(|error| ArenaError::Level { arena: file.to_owned(), error })?;
            levels.push(arena_level(&raw, path, level, &mut total).map_err(invalid)?);
        }
        Ok(Arena {
            name: raw.name,
            description: raw.description,
            seed: raw.seed,
            agents: raw.agents.into_iter().map(|a| a.name).collect(),
            levels,
        })
    }

    /// The seed game i of a pairing plays from is `derive_seed(this, i / n)`
    /// for n seats (`MatchConfig::paired`): a round's games share one.
    pub fn pairing_seed(&self, level: usize, pairing: usize) -> u64 {
        derive_seed(derive_seed(self.seed, level as u64), pairing as u64)
    }

    /// Every game of the arena, a part a pairing.
    pub fn parts(&self) -> Vec<Part> {
        self.shard(0, 1)
    }

    /// Shard `i` of `n` (from 0): of every pairing, the `i`-th of `n`
    /// slices, cut at whole rounds, so the shards together play each game
    /// once and each shard plays some of every pairing.
    pub fn shard(&self, i: u64, n: u64) -> Vec<Part> {
        let mut parts = Vec::new();
        for (l, level) in self.levels.iter().enumerate() {
            let round = round(level.seats);
            let rounds = level.games / round;
            // Wide: `n` comes from the command line and may be any number.
            let cut = |k: u64| (u128::from(rounds) * u128::from(k) / u128::from(n)) as u64 * round;
            for pairing in 0..level.pairings.len() {
                let games = cut(i)..cut(i + 1);
                if !games.is_empty() {
                    parts.push(Part { level: l, pairing, games });
                }
            }
        }
        parts
    }

    /// Games in the whole arena.
    pub fn total_games(&self) -> u64 {
        self.levels.iter().map(|l| l.games * l.pairings.len() as u64).sum()
    }
}

/// Two agents or more, named apart, each naming only games that exist; a
/// level; a game a pairing at least.
fn check_agents(raw: &ArenaFile) -> Result<(), String> {
    if raw.agents.len() < 2 {
        return Err(format!("an arena needs two agents or more, it has {}", raw.agents.len()));
    }
    for (i, agent) in raw.agents.iter().enumerate() {
        if raw.agents[..i].iter().any(|a| a.name == agent.name) {
            return Err(format!("two agents are called {:?}", agent.name));
        }
    }
    if raw.levels.is_empty() {
        return Err("an arena needs a level".into());
    }
    if raw.games == 0 {
        return Err("games must be at least 1".into());
    }
    for agent in &raw.agents {
        if let Some(game) = agent.by_game.keys().find(|g| crate::games::find(g).is_none()) {
            let names: Vec<&str> = crate::games::all().iter().map(|g| g.name()).collect();
            return Err(format!("agent {:?}: no game is called {game:?} ({})", agent.name, names.join(", ")));
        }
    }
    Ok(())
}

/// The level at `path` in the arena: no more seats than agents, an agent
/// of its game for each, and its games added to `total`, which must stay
/// within what an arena plays.
fn arena_level(
    raw: &ArenaFile,
    path: &str,
    level: LevelFile,
    total: &mut u128,
) -> Result<ArenaLevel, String> {
    let game = level.game();
    let seats = game.num_players(&level);
    if seats > raw.agents.len() {
        return Err(format!("{path} seats {seats} players, but the arena has {} agents", raw.agents.len()));
    }
    let specs = level_agents(raw, game, path)?;
    let tables = binomial(raw.agents.len(), seats);
    if tables > MAX_TABLES {
        return Err(format!(
            "{} agents meet at {tables} different tables of {seats} on {path}; at most {MAX_TABLES} \
             are played: name fewer agents",
            raw.agents.len()
        ));
    }
    // Counted wide: `games` is what the file says, up to u64::MAX.
    let round = u128::from(round(seats));
    let games = u128::from(raw.games).div_ceil(round) * round;
    *total += games * u128::from(tables);
    if *total > u128::from(MAX_GAMES) {
        return Err(format!(
            "games: {} a pairing makes more games than an arena plays (at most {MAX_GAMES} over all \
             its levels and tables; {path} has {tables} tables)",
            raw.games
        ));
    }
    Ok(ArenaLevel {
        path: path.to_owned(),
        level,
        seats,
        specs,
        pairings: choices(raw.agents.len(), seats),
        // At most the total, so it fits.
        games: games as u64,
    })
}

/// Each arena agent's agent for `game`, parsed and known to the game.
fn level_agents(
    raw: &ArenaFile,
    game: &dyn crate::games::GameEntry,
    path: &str,
) -> Result<Vec<AgentSpec>, String> {
    let mut specs = Vec::new();
    for agent in &raw.agents {
        let text = agent.by_game.get(game.name()).or(agent.agent.as_ref()).ok_or_else(|| {
            format!(
                "agent {:?} has no agent for {} ({path}): give `agent` or `by_game: {{\"{}\": ...}}`",
                agent.name,
                game.title(),
                game.name()
            )
        })?;
        let spec: AgentSpec = text.parse().map_err(|e| format!("agent {:?}: {e}", agent.name))?;
        game.check_agent(&spec)
            .map_err(|e| format!("agent {:?} in {} ({path}): {e}", agent.name, game.title()))?;
        specs.push(spec);
    }
    Ok(specs)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn raw(text: &str) -> ArenaFile {
        ron_options().from_str(text).unwrap()
    }

    fn nim(name: &str) -> Result<LevelFile, LevelError> {
        let path = crate::manifest_dir().join("../../levels").join(name);
        level::load(&path)
    }

    const FOUR: &str = r#"Arena(
        name: "four",
        seed: 3,
        games: 9,
        agents: [
            (name: "best", agent: "optimal"),
            (name: "good", agent: "optimal:0.8"),
            (name: "fair", agent: "optimal:0.5"),
            (name: "random", agent: "random"),
        ],
        levels: ["nim/mcmorran-5-6-7.ron"],
    )"#;

    #[test]
    fn every_pair_of_agents_meets_in_whole_rounds_and_shards_split_the_games_once() {
        let arena = Arena::check(raw(FOUR), "four.ron", nim).unwrap();
        let level = &arena.levels[0];
        assert_eq!(level.pairings, choices(4, 2));
        assert_eq!(level.pairings.len(), 6);
        assert_eq!(level.games, 10, "9 games rounded up to pairs, each seed with the seats swapped");
        assert_eq!(arena.total_games(), 60);
        let whole = arena.parts();
        assert_eq!(whole.len(), 6);
        assert!(whole.iter().all(|p| p.games == (0..10)));
        for n in 1..=7 {
            let mut played = vec![vec![0u32; 10]; 6];
            for i in 0..n {
                for part in arena.shard(i, n) {
                    assert_eq!(part.games.start % 2, 0, "a shard starts at a whole round");
                    for g in part.games {
                        played[part.pairing][g as usize] += 1;
                    }
                }
            }
            assert!(played.iter().flatten().all(|&k| k == 1), "{n} shards play each game once");
        }
        assert_eq!(choices(4, 3), vec![vec![0, 1, 2], vec![0, 1, 3], vec![0, 2, 3], vec![1, 2, 3]]);
        assert_eq!(round(4), 24);
    }

    #[test]
    fn more_games_than_an_arena_plays_are_refused_not_overflowed() {
        let games =
            |n: &str| Arena::check(raw(&FOUR.replace("games: 9", &format!("games: {n}"))), "a.ron", nim);
        let err = games("18446744073709551615").unwrap_err().to_string();
        assert!(err.starts_with("a.ron: games: 18446744073709551615 a pairing makes more games"), "{err}");
        // Six tables: the most that fits, rounded up to whole rounds, and
        // one round more.
        let most = MAX_GAMES / 6 / 2 * 2;
        let arena = games(&most.to_string()).unwrap();
        assert_eq!(arena.total_games(), most * 6);
        assert!(arena.shard(u64::MAX - 1, u64::MAX).len() <= 6);
        assert_eq!(arena.shard(0, 1), arena.parts());
        assert!(games(&(most + 1).to_string()).is_err());
    }

    #[test]
    fn more_tables_than_an_arena_seats_are_refused() {
        let agents: String = (0..41).map(|i| format!("(name: \"a{i}\", agent: \"random\"),")).collect();
        let text = format!(
            "Arena(name: \"many\", games: 1, agents: [{agents}], levels: [\"robots/10-four-player-race.ron\"])"
        );
        let err = Arena::check(raw(&text), "a.ron", nim).unwrap_err().to_string();
        assert!(err.contains("41 agents meet at 101270 different tables of 4"), "{err}");
        assert_eq!(binomial(41, 4), 101_270);
        assert_eq!(binomial(4, 2), choices(4, 2).len() as u64);
        assert_eq!(binomial(2, 3), 0);
        assert_eq!(binomial(200, 100), u64::MAX);
    }

    #[test]
    fn a_bad_arena_says_what_is_wrong() {
        let err = |text: &str| Arena::check(raw(text), "a.ron", nim).unwrap_err().to_string();
        assert!(err(&FOUR.replace("\"fair\"", "\"good\"")).contains("two agents are called \"good\""));
        assert!(err(&FOUR.replace("optimal:0.8", "optimal:3")).contains("agent \"good\""));
        let no_nim = FOUR.replace(
            "(name: \"fair\", agent: \"optimal:0.5\")",
            "(name: \"fair\", by_game: {\"Mancala\": \"greedy\"})",
        );
        assert!(err(&no_nim).contains("agent \"fair\" has no agent for Nim"), "{}", err(&no_nim));
        let typo = FOUR.replace("agent: \"random\")", "agent: \"random\", by_game: {\"Chess\": \"x\"})");
        assert!(err(&typo).contains("no game is called \"Chess\""));
        assert!(err(&FOUR.replace("mcmorran-5-6-7", "missing")).contains("missing.ron"));
        let robots = FOUR.replace("nim/mcmorran-5-6-7.ron", "robots/10-four-player-race.ron");
        let three = robots.replace("            (name: \"random\", agent: \"random\"),\n", "");
        assert!(err(&three).contains("seats 4 players, but the arena has 3 agents"), "{}", err(&three));
        let text = std::env::temp_dir().join(format!("tabula-arena-{}.ron", std::process::id()));
        std::fs::write(&text, "Arena(name: \"x\", games: 2,\n  agents: [], levels: [], colour: 1)").unwrap();
        let e = Arena::load(&text).unwrap_err().to_string();
        std::fs::remove_file(&text).unwrap();
        assert!(e.contains(":2:") && e.contains("colour"), "file, line and column: {e}");
    }
}
