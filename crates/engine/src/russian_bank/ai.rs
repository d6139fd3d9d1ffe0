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
//!
//! Neither plays in circles: each remembers how often it made each
//! position of the game and plays a move that makes the least made one
//! (anywhere new if it can), and moves no card back between tableau piles
//! to where it lay within the last few moves while it has another move (a
//! [`Memory`]). Greedy, whose rules of thumb never move a card between
//! tableau piles otherwise, does so when each move it likes goes round a
//! circle. The look-ahead moves a card between tableau piles only when
//! that does clearly better than every other move.

use std::collections::{HashMap, VecDeque};

use rand::Rng;

use super::Card;
use super::pile::{Pile, TABLEAU_DEPTH};
#[cfg(test)]
use super::rules::BankStep;
use super::rules::{BankMove, BankView, RussianBank, Source, Target, opponent};
use crate::core::agent::ParamInfo;
use crate::core::{
    Agent, AgentError, AgentInfo, AgentRegistry, AgentSpec, Erring, Game, GameRng, Mistake, Outcome, Player,
};

const AGENTS: &[AgentInfo] = &[
    AgentInfo {
        name: "beginner",
        plain: "plays by rules of thumb, often overlooks its moves, and forgets priority most of the time: catch it with Stop",
        about: "greedy at strength 0.3: where a move would break priority, it breaks it seven times in ten; on half of its moves it overlooks what it has and turns the hand",
        param: None,
    },
    AgentInfo {
        name: "casual",
        plain: "plays by rules of thumb and forgets priority now and then: catch it with Stop",
        about: "greedy at strength 0.8: where a move would break priority, it breaks it two times in ten; on 15 moves in 100 a newcomer's move instead",
        param: None,
    },
    AgentInfo {
        name: "strong",
        plain: "guesses the cards it cannot see and looks a turn ahead; slips once in a while",
        about: "lookahead (8 tables a move) that breaks priority one time in ten where a move would; on 5 moves in 100 a newcomer's move instead",
        param: None,
    },
    AgentInfo {
        name: "best",
        plain: "guesses the cards it cannot see and looks a turn ahead; never slips",
        about: "lookahead with 8 tables a move, the same as lookahead",
        param: None,
    },
    AgentInfo {
        name: "newcomer",
        plain: "has just learnt the rules: plays cards up and off its reserve when it can, stops every breach, else any move",
        about: "a foundation move if it has one, else a move from its reserve, else any move that keeps priority (no card between tableau piles); stops every breach; never slips",
        param: None,
    },
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
/// The difficulties' strengths: the chance each keeps priority where a
/// move would break it (Beginner and Casual play greedy, Strong looks
/// ahead, Best looks ahead and never slips).
const BEGINNER: f64 = 0.3;
const CASUAL: f64 = 0.8;
const STRONG: f64 = 0.9;
/// And the chance each plays the move it meant to rather than a
/// newcomer's (which may miss a Stop).
const BEGINNER_CARE: f64 = 0.5;
const CASUAL_CARE: f64 = 0.85;
const STRONG_CARE: f64 = 0.95;
/// The lessons' opponent: it slips on seven chances in ten, so a person
/// learning Stop nearly always gets a slip to catch in its first turn.
pub const LESSON_OPPONENT: &str = "greedy:0.3";
/// Moves a look-ahead plays out at most after the move it tries.
const HORIZON: u32 = 150;
/// How far back (in moves) a card moved between tableau piles is not moved
/// back: a person who just moved it there remembers why.
const UNDO_WINDOW: u32 = 24;
/// How much better, in the look-ahead's mean evaluation (about a reserve
/// card's worth), a move between tableau piles must do than the best other
/// move: within that, the difference is the draw of the samples, and
/// shuffling a card to and fro is no progress.
const SHUFFLE_MARGIN: f64 = 1.0;

impl AgentRegistry for RussianBank {
    fn own_agents() -> &'static [AgentInfo] {
        AGENTS
    }

    /// The lessons teach Stop: the opponent there forgets priority on
    /// about half of the moves where it binds (most of its turns).
    fn lesson_opponent() -> Option<&'static str> {
        Some(LESSON_OPPONENT)
    }

    fn build_own_agent(spec: &AgentSpec) -> Result<Box<dyn Agent<RussianBank>>, AgentError> {
        match spec.name.as_str() {
            "greedy" => Ok(Box::new(Greedy::new(spec.number(1.0, (0.0, 1.0))?))),
            "newcomer" | "beginner" | "casual" | "strong" | "best" => {
                spec.no_param()?;
                Ok(match spec.name.as_str() {
                    "newcomer" => Box::new(Newcomer::default()),
                    "beginner" => erring(Box::new(Greedy::new(BEGINNER)), BEGINNER_CARE, overlooked),
                    "casual" => erring(Box::new(Greedy::new(CASUAL)), CASUAL_CARE, newcomer_mistake),
                    "strong" => erring(
                        Box::new(Lookahead { strength: STRONG, ..Lookahead::new(DEFAULT_SAMPLES) }),
                        STRONG_CARE,
                        newcomer_mistake,
                    ),
                    _ => Box::new(Lookahead::new(DEFAULT_SAMPLES)),
                })
            }
            "lookahead" => {
                let samples = spec.number(DEFAULT_SAMPLES as f64, (1.0, 256.0))?;
                if samples.fract() != 0.0 {
                    return Err(AgentError::BadParameter {
                        spec: spec.to_string(),
                        expected: "a whole number of samples".into(),
                    });
                }
                Ok(Box::new(Lookahead::new(samples as usize)))
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
    greedy_move_fresh(table, seat, moves, false, |_| 0).map(|(mv, _)| mv)
}

/// Greedy's move that makes the position made the fewest times before
/// (`repeats`): its best move, unless that goes round in a circle. Then a
/// move between tableau piles, which greedy otherwise never makes, may
/// uncover a way on. In a `stalled` game it loads the opponent from the
/// tableau only when it has nothing else.
fn greedy_move_fresh(
    table: &RussianBank,
    seat: Player,
    moves: &mut Vec<BankMove>,
    stalled: bool,
    repeats: impl Fn(BankMove) -> u32,
) -> Option<(BankMove, u32)> {
    moves.clear();
    table.legal_moves(seat, moves);
    // The best has the least key: (held back by the stall, repeats, -value).
    let mut best: Option<((bool, u32, i32), BankMove)> = None;
    for &mv in moves.iter() {
        let value = match greedy_value(table, seat, mv) {
            Some(value) => value,
            None if between_tableau_piles(mv).is_some() && table.breaks_priority(seat, mv).is_none() => -1,
            None => continue,
        };
        let held = stalled && loads_from_tableau(mv);
        let key = (held, repeats(mv), -value);
        if best.is_none_or(|(b, _)| key < b) {
            best = Some((key, mv));
        }
    }
    // Every position offers a move greedy makes (the waste, the hand or
    // EndTurn), except a decision it would not stop (never: Stop ranks top).
    best.map(|((_, made, _), mv)| (mv, made)).or_else(|| moves.first().map(|&mv| (mv, repeats(mv))))
}

/// A move that loads the opponent with a card from the tableau: it costs
/// the opponent a card and gains the mover none.
fn loads_from_tableau(mv: BankMove) -> bool {
    matches!(
        mv,
        BankMove::Play { from: Source::Tableau(_), to: Target::OpponentReserve | Target::OpponentWaste }
    )
}

/// Stop, when the opponent's last move broke priority: every agent here
/// stops every breach it sees.
fn stop(seat: Player, table: &RussianBank) -> Option<BankMove> {
    table.breach().is_some_and(|b| b.by != seat).then_some(BankMove::Stop)
}

/// A move of a card from one tableau pile to another.
fn between_tableau_piles(mv: BankMove) -> Option<(u8, u8)> {
    match mv {
        BankMove::Play { from: Source::Tableau(a), to: Target::Tableau(b) } => Some((a, b)),
        _ => None,
    }
}

/// What an agent remembers of the game so far, so as not to go round in
/// circles: how often it made each position, and the tableau as it saw it
/// lately.
#[derive(Clone, Debug, Default)]
pub struct Memory {
    /// The move count of the table it last saw: a smaller one is a new game.
    plies: u32,
    made: HashMap<u64, u32>,
    /// The tableau at each of its recent moves, with the move count then.
    tableaus: VecDeque<(u32, [Pile<TABLEAU_DEPTH>; 8])>,
    /// The positions it slipped in: stopped there once, it remembers.
    slipped: std::collections::HashSet<u64>,
    /// The cards on the foundations, and the move count when that last grew.
    founded: u32,
    founded_at: u32,
    /// The cards it loaded onto the opponent from the tableau, with the
    /// move count then.
    loaded: VecDeque<(u32, Card)>,
    /// The positions it has been to move in, and whether it has been in
    /// this one before.
    met: std::collections::HashSet<u64>,
    here_again: bool,
}

/// The position as the table shows it, face-down cards counted but not
/// named: what a player remembers having seen before. (The observation's
/// own key changes as cards become known, so a circle would look new.)
fn seen_key(table: &RussianBank) -> u64 {
    use std::hash::{Hash, Hasher};
    let mut hasher = std::hash::DefaultHasher::new();
    for seat in [Player::ONE, Player::TWO] {
        let side = table.side(seat);
        let reserve_top = (side.reserve_hidden as usize) < side.reserve.len();
        (side.reserve.len(), reserve_top.then(|| side.reserve.top()), side.hand.len(), side.shown)
            .hash(&mut hasher);
        side.waste.hash(&mut hasher);
    }
    (&table.tableau, (0..8).map(|n| table.foundation(n)).collect::<Vec<_>>(), table.turn(), table.breach())
        .hash(&mut hasher);
    hasher.finish()
}

/// Moves without a card going up to a foundation after which a game is
/// stalled. A game of two greedy players rarely goes 60 moves without one.
const STALL: u32 = 150;

/// What moving a card back between tableau piles counts as: worse than
/// any repetition short of a circle played out a thousand times.
const UNDO_REPEATS: u32 = 1000;

/// What loading the opponent again with a card it loaded them with lately
/// counts as: worse than going somewhere new, not worse than making a
/// position a third time.
const RELOAD_REPEATS: u32 = 1;

/// Moves within which loading the opponent again from the tableau with a
/// card it loaded them with is a loading war: they played it back from
/// their reserve, and the same cards would go round between the reserves.
const RELOAD_WINDOW: u32 = 60;

impl Memory {
    /// Takes in the table the agent is about to move on.
    fn see(&mut self, table: &RussianBank) {
        if table.plies() < self.plies {
            *self = Memory::default();
        }
        self.plies = table.plies();
        let here = seen_key(table);
        *self.made.entry(here).or_default() += 1;
        self.here_again = !self.met.insert(here);
        let founded = (0..8).filter_map(|n| table.foundation(n)).map(|c| c.rank() as u32).sum();
        if founded != self.founded {
            (self.founded, self.founded_at) = (founded, table.plies());
        }
        while self.tableaus.front().is_some_and(|(p, _)| p + UNDO_WINDOW < table.plies()) {
            self.tableaus.pop_front();
        }
        self.tableaus.push_back((table.plies(), table.tableau));
        while self.loaded.front().is_some_and(|(p, _)| p + RELOAD_WINDOW < table.plies()) {
            self.loaded.pop_front();
        }
    }

    /// Whether it may slip with `slip` here: not in a stalled game, only
    /// where it has not been before (a slip there, Stopped, would bring
    /// the same position round again), and not to a position it has made;
    /// noted as a slip when it may.
    fn may_slip(&mut self, table: &RussianBank, seat: Player, slip: BankMove) -> bool {
        let here = seen_key(table);
        let may = !self.stalled(table)
            && !self.here_again
            && !self.slipped.contains(&here)
            && self.made_before(table, seat, slip) == 0;
        if may {
            self.slipped.insert(here);
        }
        may
    }

    /// No card has gone up to a foundation for `STALL` moves: the players
    /// are moving the same cards round (one plays a card to the tableau,
    /// the other loads it back onto them from there), and someone must
    /// give way for the game to end.
    fn stalled(&self, table: &RussianBank) -> bool {
        table.plies() > self.founded_at + STALL
    }

    /// How often the position `mv` makes was made before in the game; a
    /// card moved back between tableau piles to where it lay within the
    /// last few moves counts as `UNDO_REPEATS`, a card loaded onto the
    /// opponent again as `RELOAD_REPEATS` more.
    fn repeats(&self, table: &RussianBank, seat: Player, mv: BankMove) -> u32 {
        if matches!(mv, BankMove::Stop | BankMove::Accept) {
            return 0;
        }
        let mut after = table.clone();
        if after.apply(seat, mv).is_err() {
            return 0;
        }
        let made = self.made.get(&seen_key(&after)).copied().unwrap_or(0);
        if self.reloads(table, seat, mv) {
            return made + RELOAD_REPEATS;
        }
        let Some((a, b)) = between_tableau_piles(mv) else { return made };
        let (a, b) = (a as usize - 1, b as usize - 1);
        let undoes = self.tableaus.iter().any(|(_, t)| t[a] == after.tableau[a] && t[b] == after.tableau[b]);
        if undoes { made + UNDO_REPEATS } else { made }
    }

    /// How often the position `mv` makes was made before in the game (a
    /// slip forgets a rule, not the game: only the position counts).
    fn made_before(&self, table: &RussianBank, seat: Player, mv: BankMove) -> u32 {
        let mut after = table.clone();
        match after.apply(seat, mv) {
            Ok(_) => self.made.get(&seen_key(&after)).copied().unwrap_or(0),
            Err(_) => 0,
        }
    }

    /// Whether `mv` loads the opponent from the tableau with a card this
    /// player loaded them with lately.
    fn reloads(&self, table: &RussianBank, seat: Player, mv: BankMove) -> bool {
        let BankMove::Play { from, .. } = mv else { return false };
        loads_from_tableau(mv)
            && table.source_card(seat, from).is_ok_and(|card| self.loaded.iter().any(|&(_, c)| c == card))
    }

    /// Notes the position `mv` makes, and a card it loads from the tableau.
    fn made(&mut self, table: &RussianBank, seat: Player, mv: BankMove) {
        if let BankMove::Play { from, .. } = mv
            && loads_from_tableau(mv)
            && let Ok(card) = table.source_card(seat, from)
        {
            self.loaded.push_back((table.plies(), card));
        }
        let mut after = table.clone();
        if after.apply(seat, mv).is_ok() {
            *self.made.entry(seen_key(&after)).or_default() += 1;
        }
    }
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

/// Someone who has just learnt the rules: a card that can go up to a
/// foundation goes up, then a reserve card that can go anywhere (emptying
/// the reserve is the game), a breach it sees it stops, and otherwise it
/// plays any move that keeps priority, but not a card from one tableau
/// pile to another (it does not yet see what that is for). It never slips.
#[derive(Clone, Debug, Default)]
pub struct Newcomer {
    memory: Memory,
}

impl Agent<RussianBank> for Newcomer {
    fn choose(&mut self, seat: Player, observation: &BankView, rng: &mut GameRng) -> Option<BankMove> {
        let table = &observation.0;
        if let called @ Some(_) = stop(seat, table) {
            return called;
        }
        self.memory.see(table);
        let mut moves = Vec::new();
        table.legal_moves(seat, &mut moves);
        moves.retain(|&mv| table.breaks_priority(seat, mv).is_none() && between_tableau_piles(mv).is_none());
        // Like anyone, it goes where it has not been, and gives way when
        // the game stalls, unless loading the opponent is the only way
        // anywhere new (else two players could turn their hands for ever).
        let repeats: Vec<u32> = moves.iter().map(|&mv| self.memory.repeats(table, seat, mv)).collect();
        let fewest = repeats.iter().copied().min().unwrap_or(0);
        let mut fresh: Vec<BankMove> =
            moves.iter().zip(&repeats).filter(|&(_, &r)| r == fewest).map(|(&m, _)| m).collect();
        if self.memory.stalled(table) && fresh.iter().any(|&mv| !loads_from_tableau(mv)) {
            fresh.retain(|&mv| !loads_from_tableau(mv));
        }
        let up = fresh.iter().find(|mv| matches!(mv, BankMove::Play { to: Target::Foundation(_), .. }));
        let reserve = fresh.iter().find(|mv| matches!(mv, BankMove::Play { from: Source::Reserve, .. }));
        let chosen = match up.or(reserve) {
            Some(&mv) => Some(mv),
            None if fresh.is_empty() => greedy_move(table, seat, &mut moves),
            None => Some(fresh[rng.random_range(0..fresh.len())]),
        };
        if let Some(mv) = chosen {
            self.memory.made(table, seat, mv);
        }
        chosen
    }

    fn interject(&mut self, seat: Player, observation: &BankView, _rng: &mut GameRng) -> Option<BankMove> {
        stop(seat, &observation.0)
    }

    fn searches(&self) -> bool {
        // Not a search, but a memory: a fresh one every game.
        true
    }
}

/// A mistake below top strength: a newcomer's move (any move that keeps
/// priority, a card up when it sees one, else a reserve card onto the
/// tableau) in place of the one it meant to
/// play, a Stop included: it did not notice. On a level without the Stop
/// rule, where a slip is refused, this is how the weaker ones err.
fn newcomer_mistake(
    seat: Player,
    view: &BankView,
    _planned: BankMove,
    rng: &mut GameRng,
) -> Option<BankMove> {
    let table = &view.0;
    let mut moves = Vec::new();
    table.legal_moves(seat, &mut moves);
    moves.retain(|&mv| {
        table.breaks_priority(seat, mv).is_none()
            && between_tableau_piles(mv).is_none()
            && mv != BankMove::Stop
    });
    // As the newcomer plays: a card up first, then a reserve card onto
    // the tableau, any of them (a mistake has no memory of the game: the
    // same one each time would go round with the opponent's answer).
    if let Some(&up) = moves.iter().find(|mv| matches!(mv, BankMove::Play { to: Target::Foundation(_), .. }))
    {
        return Some(up);
    }
    let reserve: Vec<BankMove> = moves
        .iter()
        .copied()
        .filter(|mv| matches!(mv, BankMove::Play { from: Source::Reserve, to: Target::Tableau(_) }))
        .collect();
    let from = if reserve.is_empty() { &moves } else { &reserve };
    (!from.is_empty()).then(|| from[rng.random_range(0..from.len())])
}

/// A beginner's mistake: it overlooks the moves it has and turns the hand
/// (or puts the turned card on its waste), ending its turn early.
fn overlooked(seat: Player, view: &BankView, planned: BankMove, rng: &mut GameRng) -> Option<BankMove> {
    let table = &view.0;
    let mut moves = Vec::new();
    table.legal_moves(seat, &mut moves);
    let ends_turn = |mv: &BankMove| {
        matches!(mv, BankMove::TurnHand | BankMove::Play { from: Source::Hand, to: Target::Waste })
            && table.breaks_priority(seat, *mv).is_none()
    };
    match moves.iter().find(|mv| ends_turn(mv)) {
        Some(&mv) => Some(mv),
        None => newcomer_mistake(seat, view, planned, rng),
    }
}

/// A difficulty: `inner` that on a move in `1 - strength` makes `mistake`.
fn erring(
    inner: Box<dyn Agent<RussianBank>>,
    strength: f64,
    mistake: Mistake<RussianBank>,
) -> Box<dyn Agent<RussianBank>> {
    Box::new(Erring::<RussianBank> { inner, strength, mistake })
}

/// Greedy at a strength: 1 keeps priority always; below it, each time a
/// move would break priority it slips with probability 1 - strength.
#[derive(Clone, Debug)]
pub struct Greedy {
    pub strength: f64,
    /// What it turns to, and what remembers the game, when its rules of
    /// thumb go round in a circle.
    thinker: Lookahead,
}

/// Tables the greedy player draws when it stops to think.
const GREEDY_THINKING: usize = 4;

impl Greedy {
    pub fn new(strength: f64) -> Greedy {
        Greedy { strength, thinker: Lookahead::new(GREEDY_THINKING) }
    }
}

impl Default for Greedy {
    fn default() -> Greedy {
        Greedy::new(1.0)
    }
}

impl Agent<RussianBank> for Greedy {
    fn choose(&mut self, seat: Player, observation: &BankView, rng: &mut GameRng) -> Option<BankMove> {
        let table = &observation.0;
        let mut moves = Vec::with_capacity(32);
        self.thinker.memory.see(table);
        // Full strength draws nothing, so its games stay as they were.
        let chosen = if self.strength < 1.0
            && let Some(slip) = slip_move(table, seat, &mut moves)
            && !rng.random_bool(self.strength)
            && self.thinker.memory.may_slip(table, seat, slip)
        {
            Some(slip)
        } else {
            let memory = &self.thinker.memory;
            let stalled = memory.stalled(table);
            let fresh =
                greedy_move_fresh(table, seat, &mut moves, stalled, |mv| memory.repeats(table, seat, mv));
            // Its rules of thumb lead where it has been, or nowhere: it
            // stops and thinks, as a person does when a game stalls.
            if stalled || fresh.is_some_and(|(_, made)| made > 0) {
                self.thinker.search(table, seat, observation, rng)
            } else {
                fresh.map(|(mv, _)| mv)
            }
        };
        if let Some(mv) = chosen {
            self.thinker.memory.made(table, seat, mv);
        }
        chosen
    }

    fn interject(&mut self, seat: Player, observation: &BankView, _rng: &mut GameRng) -> Option<BankMove> {
        stop(seat, &observation.0)
    }
}

#[derive(Clone, Debug)]
pub struct Lookahead {
    samples: usize,
    /// As greedy's: below 1 it slips now and then, for the opponent to Stop.
    strength: f64,
    moves: Vec<BankMove>,
    memory: Memory,
}

/// How good `table` is for `seat`: a win or loss outright, else the cards
/// the opponent has left against one's own, weighted as the points are.
/// In a stalled game only one's own cards count: a move that gets rid of
/// one's card is progress even when it helps the opponent too.
fn evaluate(table: &RussianBank, seat: Player, stalled: bool) -> f64 {
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
            let theirs = if stalled { 0.0 } else { theirs.penalty() as f64 };
            theirs - mine.penalty() as f64 + 0.25 * spaces
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
    /// A slip, when its strength lets one through: the best move that
    /// breaks priority, never one that leads where it has been.
    fn slip(&mut self, table: &RussianBank, seat: Player, rng: &mut GameRng) -> Option<BankMove> {
        if self.strength >= 1.0 {
            return None;
        }
        let slip = slip_move(table, seat, &mut self.moves)?;
        (!rng.random_bool(self.strength) && self.memory.may_slip(table, seat, slip)).then_some(slip)
    }

    pub fn new(samples: usize) -> Lookahead {
        Lookahead { samples, strength: 1.0, moves: Vec::new(), memory: Memory::default() }
    }

    /// The moves worth comparing: no breaches, and of several empty piles
    /// (all alike) only the first.
    fn candidates(&mut self, table: &RussianBank, seat: Player) -> Vec<BankMove> {
        self.moves.clear();
        table.legal_moves(seat, &mut self.moves);
        self.moves.retain(|&mv| table.breaks_priority(seat, mv).is_none());
        let mut out: Vec<BankMove> = Vec::new();
        // Only the moves that make the least made position: anywhere new
        // if it can, and round a circle as few times as it must.
        let repeats: Vec<u32> = self.moves.iter().map(|&mv| self.memory.repeats(table, seat, mv)).collect();
        let fewest = repeats.iter().copied().min().unwrap_or(0);
        for (&mv, &r) in self.moves.iter().zip(&repeats) {
            if r > fewest {
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
        if self.memory.stalled(table) && out.iter().any(|&mv| !loads_from_tableau(mv)) {
            out.retain(|&mv| !loads_from_tableau(mv));
        }
        out
    }
}

impl Agent<RussianBank> for Lookahead {
    fn choose(&mut self, seat: Player, observation: &BankView, rng: &mut GameRng) -> Option<BankMove> {
        let table = &observation.0;
        if let called @ Some(_) = stop(seat, table) {
            return called;
        }
        self.memory.see(table);
        let chosen = match self.slip(table, seat, rng) {
            Some(slip) => Some(slip),
            None => self.search(table, seat, observation, rng),
        };
        if let Some(mv) = chosen {
            self.memory.made(table, seat, mv);
        }
        chosen
    }

    fn interject(&mut self, seat: Player, observation: &BankView, _rng: &mut GameRng) -> Option<BankMove> {
        stop(seat, &observation.0)
    }

    fn searches(&self) -> bool {
        true
    }
}

impl Lookahead {
    fn search(
        &mut self,
        table: &RussianBank,
        seat: Player,
        observation: &BankView,
        rng: &mut GameRng,
    ) -> Option<BankMove> {
        let candidates = self.candidates(table, seat);
        match candidates.len() {
            0 => return greedy_move(table, seat, &mut self.moves),
            1 => return Some(candidates[0]),
            _ => {}
        }
        let stalled = self.memory.stalled(table);
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
                *total += evaluate(&table, seat, stalled);
            }
        }
        // A move between tableau piles greedy would not make must beat
        // every other move by the margin.
        let margin = SHUFFLE_MARGIN * self.samples as f64;
        let shuffle =
            |mv: BankMove| between_tableau_piles(mv).is_some() && value_by_thumb(table, mv).is_none();
        let best_other = totals
            .iter()
            .zip(&candidates)
            .filter(|&(_, &mv)| !shuffle(mv))
            .map(|(&t, _)| t)
            .fold(f64::NEG_INFINITY, f64::max);
        for (total, &mv) in totals.iter_mut().zip(&candidates) {
            if shuffle(mv) && *total < best_other + margin {
                *total = f64::NEG_INFINITY;
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
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::rng_from_seed;
    use crate::russian_bank::RussianBankLevel;

    fn shuffled() -> RussianBankLevel {
        RussianBankLevel::shuffled("shuffled")
    }

    /// Loading the opponent again from the tableau with a card one loaded
    /// them with lately (they played it back from their reserve) counts
    /// as a repeat: two agents so sent the same cards round between their
    /// reserves, 8 moves again and again.
    #[test]
    fn a_card_loaded_onto_the_opponent_again_counts_as_a_repeat() {
        let table = crate::russian_bank::tests::position(
            1,
            (&["KH"], &["3D"], &[]),
            (&["KD", "6S"], &["2C"], &["8H"]),
            [&["5S"], &["9H"], &["9C"], &["9D"], &["KC"], &["QD"], &["JS"], &["TH"]],
            [&["AH"], &[], &[], &[], &[], &[], &[], &[]],
            true,
        );
        let load = BankMove::Play { from: Source::Tableau(1), to: Target::OpponentReserve };
        let other = BankMove::Play { from: Source::Tableau(2), to: Target::OpponentWaste };
        let mut legal = Vec::new();
        table.legal_moves(Player::ONE, &mut legal);
        assert!(legal.contains(&load) && legal.contains(&other), "{legal:?}");
        let mut memory = Memory::default();
        memory.see(&table);
        assert_eq!(memory.repeats(&table, Player::ONE, load), 0, "somewhere new");
        memory.made(&table, Player::ONE, load);
        // The position made once, and the 5♠ loaded again.
        assert_eq!(memory.repeats(&table, Player::ONE, load), 1 + RELOAD_REPEATS);
        assert_eq!(memory.repeats(&table, Player::ONE, other), 0, "another card loaded is not");
    }

    /// A newcomer's mistake plays as the newcomer does: a card up when one
    /// can go, else a reserve card onto the tableau; never a breach, a Stop
    /// or a card between tableau piles. Checked on every position of a few
    /// games.
    #[test]
    fn a_newcomers_mistake_plays_a_card_up_then_off_the_reserve() {
        let (mut reserve_chosen, mut legal) = (0, Vec::new());
        for seed in 0..4 {
            let mut game = RussianBank::new(&shuffled(), seed).unwrap();
            let mut rng = rng_from_seed(seed);
            let mut strong = RussianBank::agent_from_str("best").unwrap();
            while game.outcome().is_none() && game.plies() < 400 {
                let seat = game.current_player();
                let view = game.observe(Some(seat)).into_owned();
                legal.clear();
                game.legal_moves(seat, &mut legal);
                legal.retain(|&mv| game.breaks_priority(seat, mv).is_none() && mv != BankMove::Stop);
                let kind = |mv: &BankMove, up: bool| match mv {
                    BankMove::Play { to: Target::Foundation(_), .. } => up,
                    BankMove::Play { from: Source::Reserve, to: Target::Tableau(_) } => !up,
                    _ => false,
                };
                let planned = strong.choose(seat, &view, &mut rng).unwrap();
                if let Some(mistake) = newcomer_mistake(seat, &view, planned, &mut rng) {
                    assert!(game.breaks_priority(seat, mistake).is_none() && mistake != BankMove::Stop);
                    assert!(between_tableau_piles(mistake).is_none(), "{mistake:?}");
                    if legal.iter().any(|mv| kind(mv, true)) {
                        assert!(kind(&mistake, true), "a card up first: {mistake:?} of {legal:?}");
                    } else if legal.iter().any(|mv| kind(mv, false)) {
                        assert!(kind(&mistake, false), "then the reserve: {mistake:?} of {legal:?}");
                        reserve_chosen += 1;
                    }
                }
                game.apply(seat, planned).unwrap();
            }
        }
        assert!(reserve_chosen > 10, "the reserve was a choice {reserve_chosen} times");
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

    /// Stop has something to catch against every difficulty but Best.
    #[test]
    fn every_difficulty_below_best_slips_and_best_never() {
        for (difficulty, slips_expected) in
            [("beginner", true), ("casual", true), ("strong", true), ("best", false)]
        {
            let slips: u32 = (0..20).map(|seed| play(difficulty, seed).1).sum();
            assert_eq!(slips > 0, slips_expected, "{difficulty} slipped {slips} times in 20 games");
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
