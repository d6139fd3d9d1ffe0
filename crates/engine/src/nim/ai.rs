//! Bouton's strategy (1901) for both endings, and the `optimal` agent that
//! plays it, built by name.

use rand::Rng;

use super::level::Ending;
use super::rules::{Nim, Take, random_take};
use crate::core::agent::{Agent, AgentError, AgentInfo, AgentRegistry, AgentSpec, Erring, ParamInfo};
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

/// Plays a winning take with probability `strength`, otherwise a random
/// one: any of the winning takes, drawn, so that a person who plays the
/// same moves again does not meet the same answers (a stranger's games
/// repeated move for move). From a lost position it takes one stone from
/// a largest pile, to last as long as possible and give the opponent room
/// to slip.
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
        let wins = winning_takes(nim.piles(), nim.ending());
        if !wins.is_empty() {
            return Some(wins[rng.random_range(0..wins.len())]);
        }
        let most = *nim.piles().iter().max()?;
        let largest: Vec<usize> = (0..nim.piles().len()).filter(|&i| nim.piles()[i] == most).collect();
        (most > 0).then(|| Take { pile: largest[rng.random_range(0..largest.len())] as u32, count: 1 })
    }
}

/// Every winning take: each take is tried, and it wins when the opponent,
/// then to move, loses against best play. The agent draws among them, and
/// the window's teacher lights them.
pub fn winning_takes(piles: &[u32], ending: Ending) -> Vec<Take> {
    let mut after = piles.to_vec();
    let mut winning = Vec::new();
    for (pile, &n) in piles.iter().enumerate() {
        for count in 1..=n {
            after[pile] = n - count;
            if !mover_wins(&after, ending) {
                winning.push(Take { pile: pile as u32, count });
            }
        }
        after[pile] = n;
    }
    winning
}

/// A newcomer's take: one that wins at once if it sees one (the last
/// stone; in misère, leaving the opponent only the last stone), else any
/// take that does not hand the opponent such a win, else any take. It sees
/// each of those with probability `sight`.
pub fn newcomer_take(nim: &Nim, seat: Player, sight: f64, rng: &mut GameRng) -> Option<Take> {
    let mut takes = Vec::new();
    nim.legal_moves(seat, &mut takes);
    let after = |take: Take| {
        let mut next = nim.clone();
        next.apply(seat, take).ok().map(|_| next)
    };
    // Whether the player to move in `board` can win at once.
    let wins_at_once = |board: &Nim| {
        let mover = board.current_player();
        let mut replies = Vec::new();
        board.legal_moves(mover, &mut replies);
        replies.iter().any(|&r| {
            let mut next = board.clone();
            next.apply(mover, r).is_ok() && next.outcome() == Some(crate::core::Outcome::Win(mover))
        })
    };
    let won = |take: Take| after(take).is_some_and(|n| n.outcome() == Some(crate::core::Outcome::Win(seat)));
    if rng.random_bool(sight)
        && let Some(&win) = takes.iter().find(|&&t| won(t))
    {
        return Some(win);
    }
    if rng.random_bool(sight) {
        let safe: Vec<Take> = takes
            .iter()
            .copied()
            .filter(|&t| after(t).is_some_and(|n| n.outcome().is_none() && !wins_at_once(&n)))
            .collect();
        if !safe.is_empty() {
            return Some(safe[rng.random_range(0..safe.len())]);
        }
    }
    (!takes.is_empty()).then(|| takes[rng.random_range(0..takes.len())])
}

/// Someone who has just learnt the rules (`sight` 1), or who misses what
/// is in front of them now and then (below).
#[derive(Clone, Copy, Debug)]
pub struct Newcomer {
    pub sight: f64,
}

impl Agent<Nim> for Newcomer {
    fn choose(&mut self, seat: Player, nim: &Nim, rng: &mut GameRng) -> Option<Take> {
        if nim.outcome().is_some() || seat != nim.current_player() {
            return None;
        }
        newcomer_take(nim, seat, self.sight, rng)
    }
}

/// The mistake of a player below full strength: a newcomer's take.
fn newcomer_mistake(seat: Player, nim: &Nim, _planned: Take, rng: &mut GameRng) -> Option<Take> {
    newcomer_take(nim, seat, 1.0, rng)
}

/// Beginner misses a win in one, or a loss in one, half of the time.
const BEGINNER_SIGHT: f64 = 0.5;
/// The chance of Bouton's move for Casual and Strong (a newcomer's take
/// otherwise).
const CASUAL: f64 = 0.5;
const STRONG: f64 = 0.8;

fn erring(strength: f64) -> Box<dyn Agent<Nim>> {
    Box::new(Erring::<Nim> {
        inner: Box::new(OptimalAgent { strength: 1.0 }),
        strength,
        mistake: newcomer_mistake,
    })
}

const AGENTS: &[AgentInfo] = &[
    AgentInfo {
        name: "beginner",
        plain: "the easiest: sees a win in one move only half of the time, and guesses",
        about: "a newcomer who sees a win (or a loss) in one move only half of the time",
        param: None,
    },
    AgentInfo {
        name: "casual",
        plain: "knows the winning strategy and uses it on half of its moves",
        about: "Bouton's move half of the time, a newcomer's take otherwise",
        param: None,
    },
    AgentInfo {
        name: "strong",
        plain: "uses the winning strategy on four moves in five",
        about: "Bouton's move with probability 0.8, a newcomer's take otherwise",
        param: None,
    },
    AgentInfo {
        name: "best",
        plain: "plays perfectly",
        about: "Bouton's winning strategy, always (the same as optimal)",
        param: None,
    },
    AgentInfo {
        name: "newcomer",
        plain: "has just learnt the rules: takes a win in one, avoids a loss in one",
        about: "takes the last stone when it can (in misère, leaves the last one), else any take that does not hand over such a win",
        param: None,
    },
    AgentInfo {
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
    },
];

impl AgentRegistry for Nim {
    fn own_agents() -> &'static [AgentInfo] {
        AGENTS
    }

    fn build_own_agent(spec: &AgentSpec) -> Result<Box<dyn Agent<Nim>>, AgentError> {
        match spec.name.as_str() {
            "optimal" => Ok(Box::new(OptimalAgent { strength: spec.number(1.0, (0.0, 1.0))? })),
            "newcomer" | "beginner" | "casual" | "strong" | "best" => {
                spec.no_param()?;
                Ok(match spec.name.as_str() {
                    "newcomer" => Box::new(Newcomer { sight: 1.0 }),
                    "beginner" => Box::new(Newcomer { sight: BEGINNER_SIGHT }),
                    "casual" => erring(CASUAL),
                    "strong" => erring(STRONG),
                    _ => Box::new(OptimalAgent { strength: 1.0 }),
                })
            }
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
                // The agent's takes: every one that wins, and no other.
                let mut brute = Vec::new();
                for pile in 0..layout.len() {
                    for count in 1..=layout[pile] {
                        let mut after = layout.clone();
                        after[pile] -= count;
                        if !solve(&mut after, ending, &mut memo) {
                            brute.push(Take { pile: pile as u32, count });
                        }
                    }
                }
                assert_eq!(winning_takes(&layout, ending), brute, "{layout:?} {ending:?}");
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
        // Seed 000's three winning takes (5 to 1, 6 to 2, 7 to 3), each
        // played in turn: the same position does not get the same answer.
        let wins = winning_takes(&[5, 6, 7], Ending::Misere);
        assert_eq!(wins.len(), 3);
        let played: std::collections::HashSet<_> =
            (0..50).map(|_| strong.choose(Player::ONE, &nim, &mut rng).unwrap()).collect();
        assert!(played.iter().all(|t| wins.contains(t)), "only winning takes: {played:?}");
        assert_eq!(played.len(), 3, "each of them");
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
