//! AI players: one [`Agent`] trait, built by name from a registry.

use std::fmt;
use std::str::FromStr;

use super::{Game, GameRng, Observation, Player};

/// An AI player of game `G`. It sees only `G::Observation`, what a player
/// at the table would see.
pub trait Agent<G: Game>: Send {
    /// The move `seat` plays, or `None` when it has no legal move.
    fn choose(&mut self, seat: Player, observation: &G::Observation, rng: &mut GameRng) -> Option<G::Move>;

    /// Asked after another seat's move in a game with interjections
    /// (`Game::INTERJECTIONS`) when `seat` has legal moves though it is not
    /// to move: the move it makes now (a Stop), or `None` to let play go on.
    fn interject(
        &mut self,
        _seat: Player,
        _observation: &G::Observation,
        _rng: &mut GameRng,
    ) -> Option<G::Move> {
        None
    }

    /// What the agent found out about its last choice (a searched depth, a
    /// proven value), for the window and logs.
    fn note(&self) -> Option<String> {
        None
    }

    /// The agent plays `Game::random_move`, so the match runner may call
    /// that directly, without a virtual call per move.
    fn plays_random_moves(&self) -> bool {
        false
    }

    /// The agent searches: a move takes far longer than the rules do. The
    /// match runner then hands out games a few at a time, so that every
    /// thread gets a share of a match of a thousand games.
    fn searches(&self) -> bool {
        false
    }
}

/// An agent named as on the command line: `random`, `optimal`, `optimal:0.3`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AgentSpec {
    pub name: String,
    pub param: Option<String>,
}

impl AgentSpec {
    pub fn new(name: &str, param: Option<&str>) -> AgentSpec {
        AgentSpec { name: name.to_owned(), param: param.map(str::to_owned) }
    }

    /// The parameter as a number in `range`, or `default` when absent.
    pub fn number(&self, default: f64, range: (f64, f64)) -> Result<f64, AgentError> {
        let Some(text) = &self.param else { return Ok(default) };
        let bad = || AgentError::BadParameter {
            spec: self.to_string(),
            expected: format!("a number from {} to {}", range.0, range.1),
        };
        let value: f64 = text.parse().map_err(|_| bad())?;
        if !(range.0..=range.1).contains(&value) {
            return Err(bad());
        }
        Ok(value)
    }

    /// The parameter must be absent.
    pub fn no_param(&self) -> Result<(), AgentError> {
        match &self.param {
            None => Ok(()),
            Some(_) => {
                Err(AgentError::BadParameter { spec: self.to_string(), expected: "no parameter".into() })
            }
        }
    }
}

impl FromStr for AgentSpec {
    type Err = AgentError;

    fn from_str(s: &str) -> Result<AgentSpec, AgentError> {
        let s = s.trim();
        let (name, param) = match s.split_once(':') {
            Some((n, p)) => (n, Some(p)),
            None => (s, None),
        };
        if name.is_empty() || param.is_some_and(str::is_empty) {
            return Err(AgentError::Malformed(s.to_owned()));
        }
        Ok(AgentSpec::new(name, param))
    }
}

impl fmt::Display for AgentSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.param {
            Some(p) => write!(f, "{}:{}", self.name, p),
            None => f.write_str(&self.name),
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum AgentError {
    #[error("'{0}' is not an agent name (expected name or name:parameter)")]
    Malformed(String),
    #[error("no agent '{name}' for {game}; known: {known}")]
    Unknown { name: String, game: &'static str, known: String },
    #[error("bad parameter in '{spec}': expected {expected}")]
    BadParameter { spec: String, expected: String },
}

/// The four strengths every game offers, easiest first: agents named in a
/// player's words, each measured to beat the one before it
/// (docs/agents-and-arenas.md, "Difficulties").
pub const DIFFICULTIES: [&str; 4] = ["beginner", "casual", "strong", "best"];
/// Every game's scripted newcomer: someone who has just learnt the rules
/// and plays any sensible move. The easiest difficulty loses to it.
pub const NEWCOMER: &str = "newcomer";
/// The difficulty a player meets unless they choose another.
pub const DEFAULT_DIFFICULTY: &str = "casual";

/// An agent's name as a menu shows it: the difficulties and the newcomer
/// capitalised ("Beginner"), the agents named for how they play as they are.
pub fn display_name(name: &str) -> String {
    if DIFFICULTIES.contains(&name) || name == NEWCOMER {
        let mut chars = name.chars();
        chars.next().map(|c| c.to_uppercase().chain(chars).collect()).unwrap_or_default()
    } else {
        name.to_owned()
    }
}

/// One entry of a game's agent registry, for menus and `--help`.
#[derive(Clone, Copy, Debug)]
pub struct AgentInfo {
    pub name: &'static str,
    /// What a player meets, in a player's words ("looks a few moves ahead").
    pub plain: &'static str,
    /// How it plays, for those who want to know (the menu's tooltip, `--help`).
    pub about: &'static str,
    /// The parameter's meaning, range and default, if it takes one.
    pub param: Option<ParamInfo>,
}

#[derive(Clone, Copy, Debug)]
pub struct ParamInfo {
    /// A word for it: "strength", "depth", "playouts".
    pub name: &'static str,
    pub about: &'static str,
    pub min: f64,
    pub max: f64,
    pub default: f64,
}

/// The agents a game offers. `random` is every game's, defined here once;
/// a game lists and builds its own.
pub trait AgentRegistry: Game {
    /// The game's own agents, `random` not among them.
    fn own_agents() -> &'static [AgentInfo];
    /// Builds one of `own_agents`, or says the name is unknown.
    fn build_own_agent(spec: &AgentSpec) -> Result<Box<dyn Agent<Self>>, AgentError>;
    /// The agent a player meets by default.
    fn default_opponent() -> &'static str {
        DEFAULT_DIFFICULTY
    }
    /// The agent (a spec, `greedy:0.3`) a lesson seats against a person,
    /// when the game's lessons want another than the default: Russian
    /// Bank's slips, for the person to catch with Stop.
    fn lesson_opponent() -> Option<&'static str> {
        None
    }

    /// Every agent: `random`, then the game's own.
    fn agents() -> Vec<AgentInfo> {
        std::iter::once(RANDOM_INFO).chain(Self::own_agents().iter().copied()).collect()
    }

    fn build_agent(spec: &AgentSpec) -> Result<Box<dyn Agent<Self>>, AgentError> {
        if spec.name == RANDOM_INFO.name {
            spec.no_param()?;
            return Ok(Box::new(RandomAgent));
        }
        Self::build_own_agent(spec)
    }

    /// Builds an agent from text such as `optimal:0.3`.
    fn agent_from_str(text: &str) -> Result<Box<dyn Agent<Self>>, AgentError> {
        Self::build_agent(&text.parse()?)
    }

    /// The error for a name the registry does not know.
    fn unknown_agent(spec: &AgentSpec) -> AgentError {
        AgentError::Unknown {
            name: spec.name.clone(),
            game: Self::NAME,
            known: Self::agents().iter().map(|a| a.name).collect::<Vec<_>>().join(", "),
        }
    }
}

/// A game's human mistake: the move a person makes instead of `planned`
/// when they err (a move a newcomer would make, a wrong turn), or `None`
/// when there is none to make here.
pub type Mistake<G> =
    fn(Player, &<G as Game>::Observation, <G as Game>::Move, &mut GameRng) -> Option<<G as Game>::Move>;

/// An agent below its top strength: on each move, with probability
/// 1 - `strength`, it makes the game's human mistake instead of its move.
/// The difficulties are built so, not by moving at random.
pub struct Erring<G: Game> {
    pub inner: Box<dyn Agent<G>>,
    pub strength: f64,
    pub mistake: Mistake<G>,
}

impl<G: Game> Agent<G> for Erring<G> {
    fn choose(&mut self, seat: Player, observation: &G::Observation, rng: &mut GameRng) -> Option<G::Move> {
        // The inner agent chooses every time, so what it remembers of the
        // game stays whole.
        let planned = self.inner.choose(seat, observation, rng)?;
        if self.strength < 1.0
            && !rand::Rng::random_bool(rng, self.strength)
            && let Some(mistake) = (self.mistake)(seat, observation, planned, rng)
        {
            return Some(mistake);
        }
        Some(planned)
    }

    fn interject(
        &mut self,
        seat: Player,
        observation: &G::Observation,
        rng: &mut GameRng,
    ) -> Option<G::Move> {
        self.inner.interject(seat, observation, rng)
    }

    fn note(&self) -> Option<String> {
        self.inner.note()
    }

    fn searches(&self) -> bool {
        self.inner.searches()
    }
}

/// Plays a uniformly random legal move. Every game offers it as `random`.
#[derive(Clone, Copy, Debug, Default)]
pub struct RandomAgent;

impl<G: Game> Agent<G> for RandomAgent {
    fn choose(&mut self, seat: Player, observation: &G::Observation, rng: &mut GameRng) -> Option<G::Move> {
        observation.random_move(seat, rng)
    }

    /// Each of the seat's moves, or letting play go on, equally likely.
    fn interject(
        &mut self,
        seat: Player,
        observation: &G::Observation,
        rng: &mut GameRng,
    ) -> Option<G::Move> {
        let mut moves = Vec::new();
        observation.legal_moves(seat, &mut moves);
        let pick = rand::Rng::random_range(rng, 0..=moves.len());
        moves.get(pick).copied()
    }

    fn plays_random_moves(&self) -> bool {
        true
    }
}

pub const RANDOM_INFO: AgentInfo = AgentInfo {
    name: "random",
    plain: "plays any legal move, at random",
    about: "plays a uniformly random legal move",
    param: None,
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn specs_parse_name_and_parameter() {
        assert_eq!("optimal:0.3".parse::<AgentSpec>().unwrap(), AgentSpec::new("optimal", Some("0.3")));
        assert_eq!("random".parse::<AgentSpec>().unwrap(), AgentSpec::new("random", None));
        assert!("".parse::<AgentSpec>().is_err());
        assert!("optimal:".parse::<AgentSpec>().is_err());
        let spec: AgentSpec = "optimal:1.5".parse().unwrap();
        assert!(spec.number(1.0, (0.0, 1.0)).is_err());
        let spec: AgentSpec = "optimal:x".parse().unwrap();
        assert!(spec.number(1.0, (0.0, 1.0)).is_err());
        assert_eq!("optimal".parse::<AgentSpec>().unwrap().number(1.0, (0.0, 1.0)), Ok(1.0));
    }

    #[test]
    fn difficulties_are_shown_capitalised_and_other_agents_as_named() {
        assert_eq!(display_name("beginner"), "Beginner");
        assert_eq!(display_name("best"), "Best");
        assert_eq!(display_name("newcomer"), "Newcomer");
        assert_eq!(display_name("lookahead"), "lookahead");
    }
}
