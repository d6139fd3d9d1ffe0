//! Bouton's strategy (1901) for both endings, and the `optimal` agent that
//! plays it, built by name.

use rand::Rng;

use super::level::Ending;
use super::rules::{Nim, Take, random_take};
use crate::core::agent::{Agent, AgentError, AgentInfo, AgentRegistry, AgentSpec, ParamInfo};
use crate::core::{Game, GameRng, Player};

/// Whether the player to move wins with best play
/// (docs/rules/nim.md, "Best play").
pub fn mover_wins(piles: &[u32], ending: Ending) -> bool {
    let xor = piles.iter().fold(0, |x, &n| x ^ n);
    match ending {
        Ending::Normal => xor != 0,
        // Misère differs only when no pile holds more than one stone.
        Ending::Misere => {
            if piles.iter().any(|&n| n > 1) {
                xor != 0
            } else {
                xor == 0
            }
        }
    }
}

/// A winning take, or `None` when every take loses against best play.
pub fn optimal_move(piles: &[u32], ending: Ending) -> Option<Take> {
    let mut xor = 0;
    let mut big = 0usize;
    let mut last_big = 0usize;
    let mut ones = 0usize;
    let mut any_one = 0usize;
    for (i, &n) in piles.iter().enumerate() {
        xor ^= n;
        if n > 1 {
            big += 1;
            last_big = i;
        } else if n == 1 {
            ones += 1;
            any_one = i;
        }
    }
    let take = |pile: usize, to: u32| Take { pile: pile as u32, count: piles[pile] - to };
    if ending == Ending::Misere && big <= 1 {
        return match big {
            // Only single stones: leave an odd number of them.
            0 => (ones.is_multiple_of(2) && ones > 0).then(|| take(any_one, 0)),
            // One big pile: shrink it to 0 or 1 so an odd number of ones remain.
            _ => Some(take(last_big, if ones.is_multiple_of(2) { 1 } else { 0 })),
        };
    }
    if xor == 0 {
        return None;
    }
    // The pile whose top set bit matches the XOR's can be reduced to p ^ xor.
    piles.iter().position(|&n| n ^ xor < n).map(|i| take(i, piles[i] ^ xor))
}

/// Plays Bouton's move with probability `strength`, otherwise a random one.
/// From a lost position it takes one stone from the largest pile, to last
/// as long as possible and give the opponent room to slip.
#[derive(Clone, Copy, Debug)]
pub struct OptimalAgent {
    pub strength: f64,
}

impl Agent<Nim> for OptimalAgent {
    fn choose(&mut self, seat: Player, nim: &Nim, rng: &mut GameRng) -> Option<Take> {
        if nim.outcome().is_some() || seat != nim.current_player() {
            return None;
        }
        if self.strength < 1.0 && !rng.random_bool(self.strength) {
            return random_take(nim, rng);
        }
        optimal_move(nim.piles(), nim.ending()).or_else(|| {
            let (pile, _) = nim.piles().iter().enumerate().max_by_key(|(i, n)| (**n, usize::MAX - i))?;
            Some(Take { pile: pile as u32, count: 1 })
        })
    }
}

const AGENTS: &[AgentInfo] = &[AgentInfo {
    name: "optimal",
    plain: "plays perfectly; turn its strength down and it slips",
    about: "Bouton's winning strategy, for both endings",
    param: Some(ParamInfo {
        name: "strength",
        about: "strength: the chance of playing the best move rather than a random one",
        min: 0.0,
        max: 1.0,
        default: 1.0,
    }),
}];

impl AgentRegistry for Nim {
    fn own_agents() -> &'static [AgentInfo] {
        AGENTS
    }

    fn default_opponent() -> &'static str {
        "optimal"
    }

    fn build_own_agent(spec: &AgentSpec) -> Result<Box<dyn Agent<Nim>>, AgentError> {
        match spec.name.as_str() {
            "optimal" => Ok(Box::new(OptimalAgent { strength: spec.number(1.0, (0.0, 1.0))? })),
            _ => Err(Self::unknown_agent(spec)),
        }
    }
}

#[cfg(test)]
mod tests {
    use std::collections::HashMap;

    use super::*;
    use crate::core::{AgentRegistry, rng_from_seed};
    use crate::nim::NimLevel;

    /// Brute force: does the mover win? Memoised on the sorted piles.
    fn solve(piles: &mut Vec<u32>, ending: Ending, memo: &mut HashMap<(Vec<u32>, Ending), bool>) -> bool {
        let mut key = piles.clone();
        key.sort_unstable();
        if let Some(&w) = memo.get(&(key.clone(), ending)) {
            return w;
        }
        let wins = if piles.iter().all(|&n| n == 0) {
            // The previous mover took the last stone.
            ending == Ending::Misere
        } else {
            let mut any = false;
            'outer: for i in 0..piles.len() {
                for c in 1..=piles[i] {
                    piles[i] -= c;
                    let opponent_wins = solve(piles, ending, memo);
                    piles[i] += c;
                    if !opponent_wins {
                        any = true;
                        break 'outer;
                    }
                }
            }
            any
        };
        memo.insert((key, ending), wins);
        wins
    }

    /// Every layout of up to 4 piles of up to 7 stones.
    fn layouts() -> Vec<Vec<u32>> {
        let mut all = Vec::new();
        for piles in 1..=4u32 {
            for code in 0..8u32.pow(piles) {
                let layout: Vec<u32> = (0..piles).map(|i| (code / 8u32.pow(i)) % 8).collect();
                if layout.iter().any(|&n| n > 0) {
                    all.push(layout);
                }
            }
        }
        all
    }

    #[test]
    fn bouton_matches_brute_force_and_keeps_every_win() {
        let mut memo = HashMap::new();
        let mut checked = 0;
        for ending in [Ending::Misere, Ending::Normal] {
            for layout in layouts() {
                let mut piles = layout.clone();
                let wins = solve(&mut piles, ending, &mut memo);
                assert_eq!(mover_wins(&layout, ending), wins, "{layout:?} {ending:?}");
                match optimal_move(&layout, ending) {
                    Some(take) => {
                        assert!(wins, "{layout:?} {ending:?}: a winning move from a lost position");
                        let mut after = layout.clone();
                        assert!(take.count >= 1 && take.count <= after[take.pile as usize]);
                        after[take.pile as usize] -= take.count;
                        assert!(
                            !solve(&mut after, ending, &mut memo),
                            "{layout:?} {ending:?}: {take} lets the opponent win"
                        );
                    }
                    None => assert!(!wins, "{layout:?} {ending:?}: no move from a won position"),
                }
                checked += 1;
            }
        }
        assert_eq!(checked, 2 * (8 + 64 + 512 + 4096 - 4));
    }

    /// The agent itself, against every reply, from every won position.
    #[test]
    fn optimal_never_loses_from_a_won_position() {
        fn never_loses(nim: &Nim, me: Player, agent: &mut OptimalAgent, rng: &mut GameRng) -> bool {
            if let Some(outcome) = nim.outcome() {
                return outcome.winner() == Some(me);
            }
            if nim.current_player() == me {
                let take = agent.choose(me, nim, rng).unwrap();
                let mut next = nim.clone();
                next.play(take).unwrap();
                never_loses(&next, me, agent, rng)
            } else {
                let mut replies = Vec::new();
                nim.moves(&mut replies);
                replies.into_iter().all(|take| {
                    let mut next = nim.clone();
                    next.play(take).unwrap();
                    never_loses(&next, me, agent, rng)
                })
            }
        }
        let mut agent = OptimalAgent { strength: 1.0 };
        let mut rng = rng_from_seed(0);
        let mut won = 0;
        for ending in [Ending::Misere, Ending::Normal] {
            // Three piles keep the full game tree small enough to walk.
            for layout in layouts().into_iter().filter(|l| l.len() <= 3 && l.iter().sum::<u32>() <= 12) {
                if !mover_wins(&layout, ending) {
                    continue;
                }
                let level = NimLevel {
                    name: String::new(),
                    description: String::new(),
                    group: Default::default(),
                    piles: layout.clone(),
                    ending,
                };
                let nim = Nim::new(&level, 0).unwrap();
                assert!(never_loses(&nim, Player::ONE, &mut agent, &mut rng), "{layout:?} {ending:?}");
                won += 1;
            }
        }
        assert!(won > 200);
    }

    #[test]
    fn strength_zero_plays_like_random_and_registry_parses_it() {
        let level = NimLevel {
            name: String::new(),
            description: String::new(),
            group: Default::default(),
            piles: vec![5, 6, 7],
            ending: Ending::Misere,
        };
        let nim = Nim::new(&level, 0).unwrap();
        let mut weak = Nim::agent_from_str("optimal:0").unwrap();
        let mut rng = rng_from_seed(3);
        let picks: std::collections::HashSet<_> =
            (0..200).map(|_| weak.choose(Player::ONE, &nim, &mut rng).unwrap()).collect();
        assert!(picks.len() > 5, "a strength-0 agent plays many different moves");
        let mut strong = Nim::agent_from_str("optimal").unwrap();
        let best = optimal_move(&[5, 6, 7], Ending::Misere).unwrap();
        assert!((0..50).all(|_| strong.choose(Player::ONE, &nim, &mut rng) == Some(best)));
        assert_eq!(strong.choose(Player::TWO, &nim, &mut rng), None, "not its turn");
        assert!(Nim::agent_from_str("optimal:2").is_err());
        assert!(Nim::agent_from_str("random:1").is_err());
        assert!(Nim::agent_from_str("minimax").is_err());
    }

    #[test]
    fn optimal_zeroes_the_xor_of_a_huge_layout() {
        // 64 piles near a million stones; its speed is the benchmark's.
        let piles: Vec<u32> = (0..64).map(|i| 1_000_000 - i * 7919).collect();
        let take = optimal_move(&piles, Ending::Normal).expect("xor is not zero here");
        let mut after = piles.clone();
        after[take.pile as usize] -= take.count;
        assert_eq!(after.iter().fold(0, |x, &n| x ^ n), 0);
    }
}
