//! A toy game that ships nowhere: three seats and hidden information, to
//! show that a game joins the engine, the window (its menu and its editor
//! too; `tests/app/toy_window.rs`) and the game server through the same
//! one-line registration as Nim and Mancala.
//!
//! Each seat is dealt a secret from 0 to 3. In turn, a seat adds 1 or 2 to
//! a shared tally, or once shows its secret. When the tally reaches the
//! target, the highest secret wins (the lower seat on a tie).

use std::borrow::Cow;
use std::fmt;

use rand::Rng;
use serde::{Deserialize, Serialize};
use tabula_engine::core::agent::{Agent, AgentError, AgentInfo, AgentRegistry, AgentSpec};
use tabula_engine::core::{
    GameRng, Heading, Level, LevelGroup, NotYourTurn, Observation, RuleError, RuleViolation, rng_from_seed,
};
use tabula_engine::{Game, Outcome, Player};

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TallyLevel {
    pub name: String,
    pub seats: u8,
    pub target: u32,
    /// Each seat's secret, seat 1 first; absent, drawn from the seed. A
    /// seat may not see the others': a server hands out the level without.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub secrets: Option<Vec<u8>>,
}

impl Level for TallyLevel {
    fn heading(&self) -> Heading<'_> {
        Heading { name: &self.name, description: "", group: LevelGroup::Game }
    }
    fn summary(&self) -> Vec<String> {
        vec![format!("{} seats, to {}", self.seats, self.target)]
    }
    fn public(&self) -> TallyLevel {
        TallyLevel { secrets: None, ..self.clone() }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum TallyMove {
    Add(u8),
    Show,
}

impl fmt::Display for TallyMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TallyMove::Add(n) => write!(f, "add {n}"),
            TallyMove::Show => f.write_str("show the secret"),
        }
    }
}

#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum TallyError {
    #[error("add 1 or 2")]
    BadAdd,
    #[error("the secret is shown already")]
    Shown,
    #[error("the game is over")]
    GameOver,
    #[error(transparent)]
    NotYourTurn(#[from] NotYourTurn),
}

impl RuleError for TallyError {
    fn not_your_turn(&self) -> Option<NotYourTurn> {
        match self {
            TallyError::NotYourTurn(t) => Some(*t),
            _ => None,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub enum TallyStep {
    Added { by: Player, tally: u32 },
    Showed { by: Player, secret: u8 },
    TurnChanged { to: Player },
    Ended(Outcome),
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Tally {
    secrets: Vec<u8>,
    shown: Vec<bool>,
    tally: u32,
    target: u32,
    to_move: Player,
    outcome: Option<Outcome>,
}

/// What one seat sees: its own secret and the shown ones.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TallyView {
    pub secrets: Vec<Option<u8>>,
    pub shown: Vec<bool>,
    pub tally: u32,
    pub target: u32,
    pub to_move: Player,
    pub outcome: Option<Outcome>,
}

impl TallyView {
    fn moves(&self, player: Player, out: &mut Vec<TallyMove>) {
        if self.outcome.is_some() || player != self.to_move {
            return;
        }
        out.extend([TallyMove::Add(1), TallyMove::Add(2)]);
        if !self.shown[player.index()] {
            out.push(TallyMove::Show);
        }
    }
}

impl Observation<Tally> for TallyView {
    fn legal_moves(&self, player: Player, out: &mut Vec<TallyMove>) {
        self.moves(player, out)
    }

    fn follow(&mut self, step: &TallyStep) {
        match *step {
            TallyStep::Added { tally, .. } => self.tally = tally,
            TallyStep::Showed { by, secret } => {
                self.secrets[by.index()] = Some(secret);
                self.shown[by.index()] = true;
            }
            TallyStep::TurnChanged { to } => self.to_move = to,
            TallyStep::Ended(outcome) => {
                self.outcome = Some(outcome);
            }
        }
    }
}

impl Tally {
    fn winner(&self) -> Outcome {
        let best = (0..self.secrets.len()).max_by_key(|&i| (self.secrets[i], usize::MAX - i)).unwrap();
        Outcome::Win(Player(best as u8))
    }
}

impl Game for Tally {
    type Move = TallyMove;
    type Error = TallyError;
    type Effects = Vec<TallyStep>;
    type Step = TallyStep;
    type Level = TallyLevel;
    type Observation = TallyView;

    const NAME: &'static str = "Tally";
    const TITLE: &'static str = "Tally (test game)";
    const FOLDER: &'static str = "tally";
    const SEATS: (usize, usize) = (2, 8);
    const PERFECT_INFORMATION: bool = false;

    fn new(level: &TallyLevel, seed: u64) -> Result<Tally, RuleViolation> {
        if !(2..=8).contains(&level.seats) {
            return Err(RuleViolation::new("seats", "2 to 8 seats"));
        }
        let mut rng = rng_from_seed(seed);
        let n = level.seats as usize;
        let secrets = match &level.secrets {
            Some(fixed) if fixed.len() != n || fixed.iter().any(|&s| s > 3) => {
                return Err(RuleViolation::new("secrets", "a secret from 0 to 3 for each seat"));
            }
            Some(fixed) => fixed.clone(),
            None => (0..n).map(|_| rng.random_range(0..=3)).collect(),
        };
        Ok(Tally {
            secrets,
            shown: vec![false; n],
            tally: 0,
            target: level.target.max(1),
            to_move: Player::ONE,
            outcome: None,
        })
    }

    fn num_players(&self) -> usize {
        self.secrets.len()
    }

    fn current_player(&self) -> Player {
        self.to_move
    }

    fn legal_moves(&self, player: Player, out: &mut Vec<TallyMove>) {
        self.observe(Some(player)).moves(player, out)
    }

    fn apply(&mut self, player: Player, mv: TallyMove) -> Result<Vec<TallyStep>, TallyError> {
        if self.outcome.is_some() {
            return Err(TallyError::GameOver);
        }
        if player != self.to_move {
            return Err(NotYourTurn { player, to_move: self.to_move }.into());
        }
        let mut steps = Vec::new();
        match mv {
            TallyMove::Add(n @ 1..=2) => {
                self.tally += n as u32;
                steps.push(TallyStep::Added { by: player, tally: self.tally });
            }
            TallyMove::Add(_) => return Err(TallyError::BadAdd),
            TallyMove::Show if self.shown[player.index()] => return Err(TallyError::Shown),
            TallyMove::Show => {
                self.shown[player.index()] = true;
                steps.push(TallyStep::Showed { by: player, secret: self.secrets[player.index()] });
            }
        }
        if self.tally >= self.target {
            let outcome = self.winner();
            self.outcome = Some(outcome);
            steps.push(TallyStep::Ended(outcome));
        } else {
            self.to_move = player.next(self.secrets.len());
            steps.push(TallyStep::TurnChanged { to: self.to_move });
        }
        Ok(steps)
    }

    fn outcome(&self) -> Option<Outcome> {
        self.outcome
    }

    fn observe(&self, viewer: Option<Player>) -> Cow<'_, TallyView> {
        let secrets = (0..self.secrets.len())
            .map(|i| (self.shown[i] || viewer == Some(Player(i as u8))).then_some(self.secrets[i]))
            .collect();
        Cow::Owned(TallyView {
            secrets,
            shown: self.shown.clone(),
            tally: self.tally,
            target: self.target,
            to_move: self.to_move,
            outcome: self.outcome,
        })
    }

    fn sample_state(view: &TallyView, _viewer: Option<Player>, rng: &mut GameRng) -> Tally {
        Tally {
            secrets: view.secrets.iter().map(|s| s.unwrap_or_else(|| rng.random_range(0..=3))).collect(),
            shown: view.shown.clone(),
            tally: view.tally,
            target: view.target,
            to_move: view.to_move,
            outcome: view.outcome,
        }
    }

    fn steps(_before: &Tally, effects: &Vec<TallyStep>) -> Vec<TallyStep> {
        effects.clone()
    }

    fn irreversible(step: &TallyStep) -> Option<&'static str> {
        matches!(step, TallyStep::Showed { .. }).then_some(tabula_engine::core::SHOWED_HIDDEN)
    }

    fn public_state(&self) -> serde_json::Value {
        serde_json::to_value(&*self.observe(None)).unwrap()
    }

    fn legal_bound(&self) -> u64 {
        3
    }

    fn move_bound(&self) -> u64 {
        if self.outcome.is_some() {
            return 0;
        }
        (self.target - self.tally) as u64 + self.shown.iter().filter(|s| !**s).count() as u64
    }

    fn probe_moves(&self, out: &mut Vec<TallyMove>) {
        out.extend([
            TallyMove::Add(0),
            TallyMove::Add(1),
            TallyMove::Add(2),
            TallyMove::Add(3),
            TallyMove::Show,
        ]);
    }
}

impl AgentRegistry for Tally {
    fn own_agents() -> &'static [AgentInfo] {
        &[]
    }

    fn build_own_agent(spec: &AgentSpec) -> Result<Box<dyn Agent<Tally>>, AgentError> {
        Err(Self::unknown_agent(spec))
    }
}
