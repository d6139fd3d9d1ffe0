//! Russian Bank's agents. Both see only the shared observation, in which
//! the cards no one has seen lie in a canonical order, so neither can peek.
//!
//! - `greedy`: a sound priority (foundations, loading the opponent,
//!   emptying the reserve, keeping tableau spaces); it never breaks
//!   priority and stops every breach it sees.
//! - `lookahead[:N]`: draws N tables consistent with what it has seen
//!   (determinization), tries each of its moves on each, plays both sides
//!   on greedily to the end of the opponent's next turn, and keeps the move
//!   that did best on average.

use super::rules::{BankMove, BankView, RussianBank, Source, Target, opponent};
use crate::core::agent::ParamInfo;
use crate::core::{Agent, AgentError, AgentInfo, AgentRegistry, AgentSpec, Game, GameRng, Outcome, Player};

const AGENTS: &[AgentInfo] = &[
    AgentInfo {
        name: "greedy",
        plain: "plays by rules of thumb: foundations first, then loading you",
        about: "foundations first, then loading the opponent, then emptying its reserve; stops every breach",
        param: None,
    },
    AgentInfo {
        name: "lookahead",
        plain: "guesses the cards it cannot see and looks a turn ahead",
        about: "samples the unseen cards and plays each move out to the end of the opponent's next turn",
        param: Some(ParamInfo {
            name: "samples",
            about: "tables drawn per move",
            min: 1.0,
            max: 256.0,
            default: DEFAULT_SAMPLES as f64,
        }),
    },
];

const DEFAULT_SAMPLES: usize = 8;
/// Moves a look-ahead plays out at most after the move it tries.
const HORIZON: u32 = 150;

impl AgentRegistry for RussianBank {
    fn own_agents() -> &'static [AgentInfo] {
        AGENTS
    }

    fn default_opponent() -> &'static str {
        "lookahead"
    }

    fn build_own_agent(spec: &AgentSpec) -> Result<Box<dyn Agent<RussianBank>>, AgentError> {
        match spec.name.as_str() {
            "greedy" => {
                spec.no_param()?;
                Ok(Box::new(Greedy))
            }
            "lookahead" => {
                let samples = spec.number(DEFAULT_SAMPLES as f64, (1.0, 256.0))?;
                if samples.fract() != 0.0 {
                    return Err(AgentError::BadParameter {
                        spec: spec.to_string(),
                        expected: "a whole number of samples".into(),
                    });
                }
                Ok(Box::new(Lookahead { samples: samples as usize, moves: Vec::new() }))
            }
            _ => Err(Self::unknown_agent(spec)),
        }
    }
}

/// How much greedy wants `mv`; `None` for moves it never makes (breaches
/// and moves that only shuffle the tableau).
fn greedy_value(table: &RussianBank, seat: Player, mv: BankMove) -> Option<i32> {
    if table.breaks_priority(seat, mv).is_some() {
        return None;
    }
    let from_weight = |from: Source| match from {
        Source::Reserve => 30,
        Source::Hand => 20,
        Source::Tableau(n) => {
            // Emptying a tableau pile makes a space.
            if table.tableau(n as usize - 1).len() == 1 { 15 } else { 10 }
        }
    };
    Some(match mv {
        BankMove::Stop => 2000,
        BankMove::Accept => 0,
        BankMove::Play { from, to } => match to {
            Target::Foundation(_) => 1000 + from_weight(from),
            Target::OpponentReserve => 805 + from_weight(from),
            Target::OpponentWaste => 800 + from_weight(from),
            Target::Tableau(n) => {
                let onto_card = !table.tableau(n as usize - 1).is_empty();
                match from {
                    Source::Reserve => 600 + 20 * onto_card as i32,
                    Source::Hand => 400 + 20 * onto_card as i32,
                    // Only a move that empties a pile onto a card: a
                    // space, and no way back.
                    Source::Tableau(m) => {
                        if onto_card && table.tableau(m as usize - 1).len() == 1 {
                            300
                        } else {
                            return None;
                        }
                    }
                }
            }
            Target::Waste => 50,
        },
        BankMove::TurnHand => 100,
        BankMove::EndTurn => 10,
    })
}

/// Greedy's move for `seat` on a full table or an observation's table.
pub fn greedy_move(table: &RussianBank, seat: Player, moves: &mut Vec<BankMove>) -> Option<BankMove> {
    moves.clear();
    table.legal_moves(seat, moves);
    let mut best: Option<(i32, BankMove)> = None;
    for &mv in moves.iter() {
        if let Some(value) = greedy_value(table, seat, mv)
            && best.is_none_or(|(b, _)| value > b)
        {
            best = Some((value, mv));
        }
    }
    // Every position offers a move greedy makes (the waste, the hand or
    // EndTurn), except a decision it would not stop (never: Stop ranks top).
    best.map(|(_, mv)| mv).or_else(|| moves.first().copied())
}

#[derive(Clone, Copy, Debug, Default)]
pub struct Greedy;

impl Agent<RussianBank> for Greedy {
    fn choose(&mut self, seat: Player, observation: &BankView, _rng: &mut GameRng) -> Option<BankMove> {
        greedy_move(&observation.0, seat, &mut Vec::with_capacity(32))
    }

    fn interject(&mut self, seat: Player, observation: &BankView, _rng: &mut GameRng) -> Option<BankMove> {
        observation.0.breach().is_some_and(|b| b.by != seat).then_some(BankMove::Stop)
    }
}

#[derive(Clone, Debug)]
pub struct Lookahead {
    samples: usize,
    moves: Vec<BankMove>,
}

/// How good `table` is for `seat`: a win or loss outright, else the cards
/// the opponent has left against one's own, weighted as the points are.
fn evaluate(table: &RussianBank, seat: Player) -> f64 {
    match table.outcome() {
        Some(Outcome::Win(p)) => {
            let points = table.winner_points().map_or(0, |(_, pts)| pts) as f64;
            if p == seat { 1000.0 + points } else { -1000.0 - points }
        }
        Some(Outcome::Draw) => 0.0,
        None => {
            let mine = table.side(seat);
            let theirs = table.side(opponent(seat));
            let spaces = (0..8).filter(|&n| table.tableau(n).is_empty()).count() as f64;
            theirs.penalty() as f64 - mine.penalty() as f64 + 0.25 * spaces
        }
    }
}

/// Plays both sides greedily until `seat`'s turn comes round again (after
/// the opponent's turn), the game ends, or the horizon.
fn play_on(table: &mut RussianBank, seat: Player, moves: &mut Vec<BankMove>) {
    let mut opponent_moved = false;
    for _ in 0..HORIZON {
        if table.outcome().is_some() {
            return;
        }
        let to_move = table.current_player();
        if to_move == seat && opponent_moved {
            return;
        }
        opponent_moved |= to_move != seat;
        let Some(mv) = greedy_move(table, to_move, moves) else { return };
        if table.apply(to_move, mv).is_err() {
            return;
        }
    }
}

impl Lookahead {
    /// The moves worth comparing: no breaches, and of several empty piles
    /// (all alike) only the first.
    fn candidates(&mut self, table: &RussianBank, seat: Player) -> Vec<BankMove> {
        self.moves.clear();
        table.legal_moves(seat, &mut self.moves);
        let mut out: Vec<BankMove> = Vec::new();
        for &mv in &self.moves {
            if table.breaks_priority(seat, mv).is_some() {
                continue;
            }
            if let BankMove::Play { from, to } = mv {
                let empty = match to {
                    Target::Foundation(n) => table.foundation(n as usize - 1).is_none(),
                    Target::Tableau(n) => table.tableau(n as usize - 1).is_empty(),
                    _ => false,
                };
                let alike = |other: &BankMove| match (*other, to) {
                    (BankMove::Play { from: f, to: Target::Foundation(m) }, Target::Foundation(_)) => {
                        f == from && table.foundation(m as usize - 1).is_none()
                    }
                    (BankMove::Play { from: f, to: Target::Tableau(m) }, Target::Tableau(_)) => {
                        f == from && table.tableau(m as usize - 1).is_empty()
                    }
                    _ => false,
                };
                if empty && out.iter().any(alike) {
                    continue;
                }
            }
            out.push(mv);
        }
        out
    }
}

impl Agent<RussianBank> for Lookahead {
    fn choose(&mut self, seat: Player, observation: &BankView, rng: &mut GameRng) -> Option<BankMove> {
        let table = &observation.0;
        if table.breach().is_some_and(|b| b.by != seat) {
            return Some(BankMove::Stop);
        }
        let candidates = self.candidates(table, seat);
        match candidates.len() {
            0 => return greedy_move(table, seat, &mut self.moves),
            1 => return Some(candidates[0]),
            _ => {}
        }
        let mut totals = vec![0.0; candidates.len()];
        for _ in 0..self.samples {
            let sampled = RussianBank::sample_state(observation, Some(seat), rng);
            for (total, &mv) in totals.iter_mut().zip(&candidates) {
                let mut table = sampled.clone();
                if table.apply(seat, mv).is_err() {
                    *total = f64::NEG_INFINITY;
                    continue;
                }
                play_on(&mut table, seat, &mut self.moves);
                *total += evaluate(&table, seat);
            }
        }
        // Ties go to greedy's order: the first best in greedy's ranking.
        let mut best: Option<(f64, i32, BankMove)> = None;
        for (&total, &mv) in totals.iter().zip(&candidates) {
            let rank = greedy_value(table, seat, mv).unwrap_or(0);
            if best.is_none_or(|(t, r, _)| total > t + 1e-9 || (total > t - 1e-9 && rank > r)) {
                best = Some((total, rank, mv));
            }
        }
        best.map(|(_, _, mv)| mv)
    }

    fn interject(&mut self, seat: Player, observation: &BankView, _rng: &mut GameRng) -> Option<BankMove> {
        observation.0.breach().is_some_and(|b| b.by != seat).then_some(BankMove::Stop)
    }

    fn searches(&self) -> bool {
        true
    }
}
