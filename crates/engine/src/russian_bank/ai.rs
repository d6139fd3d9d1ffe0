//! Russian Bank's agents. Both see only the shared observation, in which
//! the cards no one has seen lie in a canonical order, so neither can peek.
//!
//! - `greedy[:s]`: a sound priority (foundations, loading the opponent,
//!   emptying the reserve, keeping tableau spaces); it stops every breach
//!   it sees. At full strength (`s` = 1, the default) it never breaks
//!   priority; below it, it forgets the rule as people do: whenever a
//!   move would break priority, it plays the best such move with
//!   probability 1 - `s` (a slip, for the opponent to Stop).
//! - `lookahead[:N]`: draws N tables consistent with what it has seen
//!   (determinization), tries each of its moves on each, plays both sides
//!   on greedily to the end of the opponent's next turn, and keeps the move
//!   that did best on average.

use rand::Rng;

#[cfg(test)]
use super::rules::BankStep;
use super::rules::{BankMove, BankView, RussianBank, Source, Target, opponent};
use crate::core::agent::ParamInfo;
use crate::core::{Agent, AgentError, AgentInfo, AgentRegistry, AgentSpec, Game, GameRng, Outcome, Player};

const AGENTS: &[AgentInfo] = &[
    AgentInfo {
        name: "greedy",
        plain: "plays by rules of thumb; below full strength it forgets a rule now and then: catch it with Stop",
        about: "foundations first, then loading the opponent, then emptying its reserve; stops every breach. \
                Below strength 1 it breaks priority now and then",
        param: Some(ParamInfo {
            name: "strength",
            about: "strength: when a move would break priority, the chance it keeps the rule (1 never slips)",
            min: 0.0,
            max: 1.0,
            default: 1.0,
        }),
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
/// The lessons' opponent: it slips on seven chances in ten, so a person
/// learning Stop nearly always gets a slip to catch in its first turn.
pub const LESSON_OPPONENT: &str = "greedy:0.3";
/// Moves a look-ahead plays out at most after the move it tries.
const HORIZON: u32 = 150;

impl AgentRegistry for RussianBank {
    fn own_agents() -> &'static [AgentInfo] {
        AGENTS
    }

    fn default_opponent() -> &'static str {
        "lookahead"
    }

    /// The lessons teach Stop: the opponent there forgets priority on
    /// about half of the moves where it binds (most of its turns).
    fn lesson_opponent() -> Option<&'static str> {
        Some(LESSON_OPPONENT)
    }

    fn build_own_agent(spec: &AgentSpec) -> Result<Box<dyn Agent<RussianBank>>, AgentError> {
        match spec.name.as_str() {
            "greedy" => Ok(Box::new(Greedy { strength: spec.number(1.0, (0.0, 1.0))? })),
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
    value_by_thumb(table, mv)
}

/// Greedy's rules of thumb for `mv`, priority aside.
fn value_by_thumb(table: &RussianBank, mv: BankMove) -> Option<i32> {
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

/// The move a player who forgot priority would make: the one greedy's rules
/// of thumb like best among the legal moves that break priority, if any.
pub fn slip_move(table: &RussianBank, seat: Player, moves: &mut Vec<BankMove>) -> Option<BankMove> {
    moves.clear();
    table.legal_moves(seat, moves);
    let mut best: Option<(i32, BankMove)> = None;
    for &mv in moves.iter() {
        if table.breaks_priority(seat, mv).is_none() {
            continue;
        }
        if let Some(value) = value_by_thumb(table, mv)
            && best.is_none_or(|(b, _)| value > b)
        {
            best = Some((value, mv));
        }
    }
    best.map(|(_, mv)| mv)
}

/// Greedy at a strength: 1 keeps priority always; below it, each time a
/// move would break priority it slips with probability 1 - strength.
#[derive(Clone, Copy, Debug)]
pub struct Greedy {
    pub strength: f64,
}

impl Default for Greedy {
    fn default() -> Greedy {
        Greedy { strength: 1.0 }
    }
}

impl Agent<RussianBank> for Greedy {
    fn choose(&mut self, seat: Player, observation: &BankView, rng: &mut GameRng) -> Option<BankMove> {
        let mut moves = Vec::with_capacity(32);
        // Full strength draws nothing, so its games stay as they were.
        if self.strength < 1.0
            && let Some(slip) = slip_move(&observation.0, seat, &mut moves)
            && !rng.random_bool(self.strength)
        {
            return Some(slip);
        }
        greedy_move(&observation.0, seat, &mut moves)
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::rng_from_seed;
    use crate::russian_bank::RussianBankLevel;

    fn shuffled() -> RussianBankLevel {
        RussianBankLevel::shuffled("shuffled")
    }

    /// Plays a shuffled deal, `first` in seat 1 against full-strength greedy,
    /// with Stops asked for after every move as the match runner asks.
    /// Returns seat 1's chances to slip, its slips and the Stops of them.
    fn play(first: &str, seed: u64) -> (u32, u32, u32) {
        let mut game = RussianBank::new(&shuffled(), seed).unwrap();
        let mut agents =
            [RussianBank::agent_from_str(first).unwrap(), RussianBank::agent_from_str("greedy").unwrap()];
        let mut rng = rng_from_seed(seed);
        let (mut chances, mut slips, mut stopped) = (0, 0, 0);
        let mut moves = Vec::new();
        while game.outcome().is_none() {
            let seat = game.current_player();
            let view = game.observe(Some(seat)).into_owned();
            let could_slip = seat == Player::ONE && slip_move(&view.0, seat, &mut moves).is_some();
            let mv = agents[seat.index()].choose(seat, &view, &mut rng).unwrap();
            chances += could_slip as u32;
            slips += (could_slip && game.breaks_priority(seat, mv).is_some()) as u32;
            let mut steps = game.apply(seat, mv).unwrap();
            let other = opponent(game.current_player());
            if game.outcome().is_none()
                && let Some(stop) =
                    agents[other.index()].interject(other, &game.observe(Some(other)), &mut rng)
            {
                steps.extend(game.apply(other, stop).unwrap());
            }
            let stop_by_two = |s: &BankStep| matches!(s, BankStep::Stopped { by: Player::TWO, .. });
            stopped += steps.iter().filter(|s| stop_by_two(s)).count() as u32;
            // A slip on the move that reaches the move cap ends the game
            // before anyone may stop it.
            let capped = game.outcome() == Some(Outcome::Draw);
            stopped += (capped && game.breach().is_some_and(|b| b.by == Player::ONE)) as u32;
        }
        (chances, slips, stopped)
    }

    #[test]
    fn full_strength_greedy_never_breaks_priority() {
        let (mut chances, mut slips) = (0, 0);
        for seed in 0..200 {
            let (c, s, _) = play(if seed % 2 == 0 { "greedy" } else { "greedy:1" }, seed);
            chances += c;
            slips += s;
        }
        assert!(chances > 1000, "priority bound greedy often: {chances}");
        assert_eq!(slips, 0);
    }

    #[test]
    fn weaker_greedy_slips_at_the_rate_its_strength_sets_and_is_stopped() {
        for strength in [0.3, 0.8] {
            let (mut chances, mut slips, mut stopped) = (0, 0, 0);
            for seed in 0..100 {
                let (c, s, st) = play(&format!("greedy:{strength}"), seed);
                chances += c;
                slips += s;
                stopped += st;
            }
            let rate = slips as f64 / chances as f64;
            assert!(
                (rate - (1.0 - strength)).abs() < 0.05,
                "strength {strength}: slipped {slips} of {chances}"
            );
            assert_eq!(stopped, slips, "full-strength greedy stops every slip it has time to");
        }
    }

    #[test]
    fn a_slip_is_the_best_move_that_breaks_priority() {
        let level = crate::russian_bank::tests::level_file("06-a-stop.ron");
        let table = RussianBank::new(&level, 0).unwrap();
        let mut moves = Vec::new();
        // The ace of clubs on T3 must go up first; loading the 7H with the
        // 6H is the slip the lesson warns of.
        let slip = slip_move(&table, Player::ONE, &mut moves).unwrap();
        assert_eq!(table.breaks_priority(Player::ONE, slip), Some(super::super::Priority::ToFoundation));
        let kept = greedy_move(&table, Player::ONE, &mut moves).unwrap();
        assert_eq!(kept, BankMove::Play { from: Source::Tableau(3), to: Target::Foundation(1) });
    }

    /// The Stop lesson: the lesson's opponent, moving first, slips in its
    /// first turn in nearly every game (four chances at seven in ten), so the
    /// person has a slip to catch.
    #[test]
    fn the_lessons_opponent_slips_in_its_first_turn_of_the_stop_lesson() {
        let level = crate::russian_bank::tests::level_file("00-priority-and-stop.ron");
        let mut slipped = 0;
        for seed in 0..200 {
            let mut game = RussianBank::new(&level, 0).unwrap();
            let mut agent = RussianBank::agent_from_str(LESSON_OPPONENT).unwrap();
            let mut rng = rng_from_seed(seed);
            while game.current_player() == Player::TWO && game.outcome().is_none() {
                let mv = agent.choose(Player::TWO, &game.observe(Some(Player::TWO)), &mut rng).unwrap();
                if game.breaks_priority(Player::TWO, mv).is_some() {
                    slipped += 1;
                    break;
                }
                game.apply(Player::TWO, mv).unwrap();
            }
        }
        assert!(slipped >= 190, "slipped in {slipped} of 200 first turns");
    }

    #[test]
    fn the_strength_is_a_number_from_0_to_1() {
        assert!(RussianBank::agent_from_str("greedy:0.7").is_ok());
        assert!(RussianBank::agent_from_str("greedy:0").is_ok());
        for (bad, said) in [("greedy:2", "a number from 0 to 1"), ("greedy:x", "a number from 0 to 1")] {
            let error = RussianBank::agent_from_str(bad).err().expect("refused").to_string();
            assert!(error.contains(bad) && error.contains(said), "{bad}: {error}");
        }
        let info = RussianBank::own_agents().iter().find(|a| a.name == "greedy").unwrap();
        assert!(info.plain.contains("catch it with Stop"), "{}", info.plain);
        assert_eq!(info.param.map(|p| p.default), Some(1.0));
        assert!(RussianBank::agent_from_str(LESSON_OPPONENT).is_ok());
    }
}
