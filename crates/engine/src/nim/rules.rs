//! Nim's state, moves and their application.

use std::borrow::Cow;
use std::fmt;

use rand::Rng;
use serde::{Deserialize, Serialize};

use super::level::{Ending, NimLevel};

use crate::core::{Game, GameRng, NotYourTurn, Observation, Outcome, Player, RuleError, RuleViolation};

/// Take `count` stones from pile `pile` (0-based; shown 1-based).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Take {
    pub pile: u32,
    pub count: u32,
}

impl fmt::Display for Take {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let s = if self.count == 1 { "" } else { "s" };
        // Wide: a replay may name any pile, the last u32 too.
        write!(f, "take {} stone{s} from pile {}", self.count, u64::from(self.pile) + 1)
    }
}

/// Why a take was refused (named after seed 000's trace). Piles are 1-based
/// in messages.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum NimError {
    #[error("there is no pile {pile}: the piles are numbered 1 to {piles}")]
    PileError { pile: u64, piles: usize },
    #[error("pile {pile} has only {has} stone(s), you cannot take {count}")]
    NotEnoughStones { pile: u32, has: u32, count: u32 },
    #[error("a move must take at least one stone")]
    ZeroTake,
    #[error("the game is over")]
    GameOver,
    #[error(transparent)]
    NotYourTurn(#[from] NotYourTurn),
}

impl RuleError for NimError {
    fn not_your_turn(&self) -> Option<NotYourTurn> {
        match self {
            NimError::NotYourTurn(t) => Some(*t),
            _ => None,
        }
    }
}

/// What a take did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Taken {
    pub by: Player,
    pub take: Take,
    /// Stones left in that pile.
    pub left: u32,
    /// The game ended with this take.
    pub last_stone: bool,
}

/// One step of a take, in order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum NimStep {
    /// `count` stones left pile `pile` (0-based); `left` remain.
    Took {
        by: Player,
        pile: u32,
        count: u32,
        left: u32,
    },
    TurnChanged {
        to: Player,
    },
    Ended(Outcome),
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Nim {
    piles: Vec<u32>,
    ending: Ending,
    to_move: Player,
    /// Stones left in all piles, kept to spot the end in O(1).
    stones: u64,
    outcome: Option<Outcome>,
}

impl Nim {
    pub fn piles(&self) -> &[u32] {
        &self.piles
    }

    pub fn ending(&self) -> Ending {
        self.ending
    }

    /// Checks a take by the player to move without performing it.
    pub fn check(&self, take: Take) -> Result<(), NimError> {
        if self.outcome.is_some() {
            return Err(NimError::GameOver);
        }
        let Some(&has) = self.piles.get(take.pile as usize) else {
            return Err(NimError::PileError { pile: take.pile as u64 + 1, piles: self.piles.len() });
        };
        if take.count == 0 {
            return Err(NimError::ZeroTake);
        }
        if take.count > has {
            return Err(NimError::NotEnoughStones { pile: take.pile + 1, has, count: take.count });
        }
        Ok(())
    }

    /// The takes of the player to move.
    pub fn moves(&self, out: &mut Vec<Take>) {
        if self.outcome.is_some() {
            return;
        }
        for (pile, &n) in self.piles.iter().enumerate() {
            out.extend((1..=n).map(|count| Take { pile: pile as u32, count }));
        }
    }

    /// Performs a take by the player to move (agents' searches use this).
    pub fn play(&mut self, take: Take) -> Result<Taken, NimError> {
        self.check(take)?;
        let pile = &mut self.piles[take.pile as usize];
        *pile -= take.count;
        let left = *pile;
        self.stones -= take.count as u64;
        let by = self.to_move;
        let last_stone = self.stones == 0;
        if last_stone {
            self.outcome = Some(self.winner_after_last_stone(by));
        }
        self.to_move = by.next(2);
        Ok(Taken { by, take, left, last_stone })
    }

    fn winner_after_last_stone(&self, by: Player) -> Outcome {
        match self.ending {
            Ending::Misere => Outcome::Win(by.next(2)),
            Ending::Normal => Outcome::Win(by),
        }
    }
}

impl Game for Nim {
    type Move = Take;
    type Error = NimError;
    type Effects = Taken;
    type Step = NimStep;
    type Level = NimLevel;
    type Observation = Nim;

    const NAME: &'static str = "Nim";
    const TITLE: &'static str = "Nim";
    const FOLDER: &'static str = "nim";
    const SEATS: (usize, usize) = (2, 2);
    const PERFECT_INFORMATION: bool = true;

    fn new(level: &NimLevel, _seed: u64) -> Result<Nim, RuleViolation> {
        level.check()?;
        Ok(Nim {
            piles: level.piles.clone(),
            ending: level.ending,
            to_move: Player::ONE,
            stones: level.piles.iter().map(|&n| n as u64).sum(),
            outcome: None,
        })
    }

    fn num_players(&self) -> usize {
        2
    }

    fn current_player(&self) -> Player {
        self.to_move
    }

    fn legal_moves(&self, player: Player, out: &mut Vec<Take>) {
        if player == self.to_move {
            self.moves(out);
        }
    }

    fn apply(&mut self, player: Player, take: Take) -> Result<Taken, NimError> {
        if self.outcome.is_none() && player != self.to_move {
            return Err(NotYourTurn { player, to_move: self.to_move }.into());
        }
        self.play(take)
    }

    fn outcome(&self) -> Option<Outcome> {
        self.outcome
    }

    fn observe(&self, _viewer: Option<Player>) -> Cow<'_, Nim> {
        Cow::Borrowed(self)
    }

    fn sample_state(observation: &Nim, _viewer: Option<Player>, _rng: &mut GameRng) -> Nim {
        observation.clone()
    }

    fn steps(before: &Nim, fx: &Taken) -> Vec<NimStep> {
        let mut steps = vec![
            NimStep::Took { by: fx.by, pile: fx.take.pile, count: fx.take.count, left: fx.left },
            NimStep::TurnChanged { to: fx.by.next(2) },
        ];
        if fx.last_stone {
            steps.push(NimStep::Ended(before.winner_after_last_stone(fx.by)));
        }
        steps
    }

    fn public_state(&self) -> serde_json::Value {
        serde_json::json!({ "piles": self.piles })
    }

    fn move_bound(&self) -> u64 {
        self.stones
    }

    /// A pile of n stones gives n takes.
    fn legal_bound(&self) -> u64 {
        self.stones
    }

    fn random_move(&self, rng: &mut GameRng) -> Option<Take> {
        random_take(self, rng)
    }

    fn probe_moves(&self, out: &mut Vec<Take>) {
        let piles = self.piles.len() as u32;
        for pile in 0..=piles {
            let has = self.piles.get(pile as usize).copied().unwrap_or(1);
            out.extend((0..=has + 1).map(|count| Take { pile, count }));
        }
    }
}

impl Observation<Nim> for Nim {
    fn legal_moves(&self, player: Player, out: &mut Vec<Take>) {
        Game::legal_moves(self, player, out)
    }

    fn follow(&mut self, step: &NimStep) {
        match *step {
            NimStep::Took { pile, count, .. } => {
                self.piles[pile as usize] -= count;
                self.stones -= count as u64;
            }
            NimStep::TurnChanged { to } => self.to_move = to,
            NimStep::Ended(outcome) => self.outcome = Some(outcome),
        }
    }

    fn random_move(&self, player: Player, rng: &mut GameRng) -> Option<Take> {
        (player == self.to_move).then(|| random_take(self, rng)).flatten()
    }
}

/// Uniform over all (pile, count) pairs without listing them: the k-th stone
/// overall names both the pile and how many to take.
pub(crate) fn random_take(nim: &Nim, rng: &mut GameRng) -> Option<Take> {
    if nim.outcome.is_some() {
        return None;
    }
    let mut k = rng.random_range(0..nim.stones);
    for (pile, &n) in nim.piles.iter().enumerate() {
        if k < n as u64 {
            return Some(Take { pile: pile as u32, count: k as u32 + 1 });
        }
        k -= n as u64;
    }
    unreachable!("k < total stones")
}

// Keeps the generic view's random move consistent with Nim's fast one.
#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::{conformance, perft::perft, rng_from_seed};

    fn level(piles: &[u32], ending: Ending) -> NimLevel {
        NimLevel::new("test", piles, ending)
    }

    #[test]
    fn seed_000_session_gives_its_exact_results() {
        // John is Player 1, Mary Player 2; piles 1-based in the seed.
        let mut nim = Nim::new(&level(&[5, 6, 7], Ending::Misere), 0).unwrap();
        let t = |pile: u32, count: u32| Take { pile: pile - 1, count };
        let john = Player::ONE;
        let mary = Player::TWO;
        let steps: [(Player, Take, Result<(), NimError>); 7] = [
            (john, t(2, 4), Ok(())),
            (mary, t(2, 3), Err(NimError::NotEnoughStones { pile: 2, has: 2, count: 3 })),
            (mary, t(2, 2), Ok(())),
            (john, t(3, 7), Ok(())),
            (mary, t(4, 1), Err(NimError::PileError { pile: 4, piles: 3 })),
            (mary, t(1, 4), Ok(())),
            (john, t(1, 1), Ok(())),
        ];
        for (who, take, expected) in steps {
            assert_eq!(nim.current_player(), who, "before {take}");
            let before = nim.clone();
            // The seat not to move is refused first, and that changes nothing.
            let other = who.next(2);
            assert_eq!(
                nim.apply(other, take),
                Err(NimError::NotYourTurn(NotYourTurn { player: other, to_move: who }))
            );
            assert_eq!(nim, before);
            let result = nim.apply(who, take).map(drop);
            assert_eq!(result, expected, "{take}");
            if result.is_err() {
                assert_eq!(nim, before, "a refused move changed the state");
            }
        }
        assert_eq!(nim.piles(), &[0, 0, 0]);
        assert_eq!(nim.outcome(), Some(Outcome::Win(mary)), "misère: John took the last stone");
        assert_eq!(nim.apply(mary, t(1, 1)), Err(NimError::GameOver));
        assert_eq!(nim.apply(john, t(1, 1)), Err(NimError::GameOver));
    }

    #[test]
    fn normal_ending_rewards_the_last_stone() {
        let mut nim = Nim::new(&level(&[1, 1], Ending::Normal), 0).unwrap();
        nim.apply(Player::ONE, Take { pile: 0, count: 1 }).unwrap();
        let fx = nim.apply(Player::TWO, Take { pile: 1, count: 1 }).unwrap();
        assert!(fx.last_stone);
        assert_eq!(nim.outcome(), Some(Outcome::Win(Player::TWO)));
    }

    #[test]
    fn zero_takes_are_refused() {
        let mut nim = Nim::new(&level(&[3], Ending::Normal), 0).unwrap();
        assert_eq!(nim.apply(Player::ONE, Take { pile: 0, count: 0 }), Err(NimError::ZeroTake));
        assert_eq!(nim.current_player(), Player::ONE);
    }

    #[test]
    fn passes_the_conformance_test() {
        conformance::check_random_games::<Nim>(&level(&[5, 6, 7], Ending::Misere), 300, 1);
        conformance::check_random_games::<Nim>(&level(&[3, 4, 5], Ending::Normal), 300, 2);
        conformance::check_random_games::<Nim>(&level(&[0, 1, 0, 9, 2], Ending::Normal), 100, 3);
    }

    #[test]
    fn perft_counts_sequences() {
        let nim = Nim::new(&level(&[1, 2], Ending::Normal), 0).unwrap();
        // Moves: (0,1) (1,1) (1,2). Depth 2: after (0,1): 2; after (1,1): 2; after (1,2): 1.
        assert_eq!(perft(&nim, 1), 3);
        assert_eq!(perft(&nim, 2), 5);
        // A finished game is one leaf: (1,2),(0,1) ends at depth 2.
        assert_eq!(perft(&nim, 3), 2 + 2 + 1);
    }

    #[test]
    fn fast_random_move_is_uniform_over_legal_moves() {
        let nim = Nim::new(&level(&[1, 3, 2], Ending::Normal), 0).unwrap();
        let mut rng = rng_from_seed(7);
        let mut counts = std::collections::HashMap::new();
        for _ in 0..60_000 {
            *counts.entry(random_take(&nim, &mut rng).unwrap()).or_insert(0) += 1;
        }
        let mut legal = Vec::new();
        nim.moves(&mut legal);
        assert_eq!(counts.len(), legal.len());
        for mv in legal {
            let n = counts[&mv];
            assert!((9_000..11_000).contains(&n), "{mv}: {n}");
        }
        let drawn = Observation::random_move(&nim, Player::ONE, &mut rng);
        assert_eq!(drawn.map(|m| nim.check(m)), Some(Ok(())));
        assert_eq!(Observation::random_move(&nim, Player::TWO, &mut rng), None, "not Player 2's turn");
    }
}
