//! No agent plays in circles: a thousand games of every pairing of the
//! game's agents, each game replayed and searched for repetitions.

use std::collections::{HashMap, HashSet};

use super::rules::{BankMove, RussianBank, Source, Target};
use crate::core::runner::default_jobs;
use crate::core::runner::{MatchConfig, run_match};
use crate::core::{AgentSpec, Game, Outcome, Player};

/// Moves of a card between tableau piles undone within this many moves
/// count as shuffling.
const UNDO_WINDOW: usize = 6;
/// A run of this many moves (cards named) that comes again in a game is a circle.
const RUN: usize = 8;
const GAMES: u64 = 100;

#[derive(Default, Debug)]
struct Circles {
    games: u64,
    plies: u64,
    capped: u64,
    /// Games at the cap in a dead position.
    dead: u64,
    most_repeats: usize,
    tableau_moves: u64,
    undone: u64,
    repeated_runs: u64,
}

/// A move with the card it moves, as the move log names it: two turns of
/// the hand differ by the cards they turn.
fn named(game: &RussianBank, seat: Player, mv: BankMove) -> (BankMove, Option<super::Card>) {
    match mv {
        BankMove::Play { from, .. } => (mv, game.source_card(seat, from).ok()),
        _ => (mv, None),
    }
}

fn replay(level: &super::RussianBankLevel, seed: u64, moves: &[BankMove], circles: &mut Circles) {
    let mut game = RussianBank::new(level, seed).unwrap();
    let mut keys = vec![];
    let mut log = Vec::with_capacity(moves.len());
    let mut legal = Vec::new();
    let mut last_founded = 0;
    keys.push(game.position_key());
    for &mv in moves {
        // A Stop or an Accept is the other player's.
        let mut seat = game.current_player();
        legal.clear();
        game.legal_moves(seat, &mut legal);
        if !legal.contains(&mv) {
            seat = super::opponent(seat);
            legal.clear();
            game.legal_moves(seat, &mut legal);
        }
        if matches!(mv, BankMove::Play { to: Target::Foundation(_), .. }) {
            last_founded = log.len() + 1;
        }
        log.push(named(&game, seat, mv));
        let forced = legal.iter().filter(|&&m| game.breaks_priority(seat, m).is_none()).count() == 1;
        game.apply(seat, mv).expect("a recorded move replays");
        // A Stop takes a move back by the rules, and a forced move is the
        // rules' too: the position either makes is not one a player chose
        // to make again.
        keys.push(if mv == BankMove::Stop || forced { 0 } else { game.position_key() });
    }
    circles.games += 1;
    circles.plies += moves.len() as u64;
    // A game may run to the cap only in a dead position, where no card can
    // ever go up to a foundation again whatever either player does; the
    // repetitions after the last card went up are then the deal's own.
    if game.outcome() == Some(Outcome::Draw) {
        circles.capped += 1;
        circles.dead += dead(&game) as u64;
        log.truncate(last_founded);
        keys.truncate(last_founded + 1);
    }
    let mut seen: HashMap<u64, usize> = HashMap::new();
    for key in keys.into_iter().filter(|&k| k != 0) {
        *seen.entry(key).or_default() += 1;
    }
    circles.most_repeats = circles.most_repeats.max(seen.values().copied().max().unwrap_or(0));
    let stopped = |i: usize| log.get(i + 1).is_some_and(|&(m, _)| m == BankMove::Stop);
    for (i, &(mv, card)) in log.iter().enumerate() {
        let BankMove::Play { from: Source::Tableau(a), to: Target::Tableau(b) } = mv else { continue };
        if stopped(i) {
            continue;
        }
        circles.tableau_moves += 1;
        let back = BankMove::Play { from: Source::Tableau(b), to: Target::Tableau(a) };
        circles.undone += log[i + 1..].iter().take(UNDO_WINDOW).any(|&m| m == (back, card)) as u64;
    }
    // Going through the same hand twice turns the same cards in the same
    // order: a circle moves cards between tableau piles too. A slip and
    // its Stop leave things as they were, by the rules.
    let mut runs = HashSet::new();
    for window in log.windows(RUN) {
        let shuffles = window.iter().any(|&(mv, _)| {
            matches!(mv, BankMove::Play { from: Source::Tableau(_), to: Target::Tableau(_) })
        });
        let stop = window.iter().any(|&(mv, _)| mv == BankMove::Stop);
        circles.repeated_runs += (!runs.insert(window) && shuffles && !stop) as u64;
    }
}

/// Whether no sequence of moves from `game`'s position, by either player,
/// puts a card on a foundation: a search of every position reachable
/// (without the move cap), which must end within `LIMIT` positions.
fn dead(game: &RussianBank) -> bool {
    const LIMIT: usize = 200_000;
    let founded =
        |g: &RussianBank| (0..8).filter_map(|n| g.foundation(n)).map(|c| c.rank() as u32).sum::<u32>();
    let start = founded(game);
    let mut open = game.clone();
    open.move_cap = u32::MAX;
    open.outcome = None;
    let mut seen = HashSet::from([open.position_key()]);
    let mut queue = vec![open];
    let mut legal = Vec::new();
    while let Some(g) = queue.pop() {
        for seat in [Player::ONE, Player::TWO] {
            legal.clear();
            g.legal_moves(seat, &mut legal);
            for &mv in &legal {
                let mut next = g.clone();
                if next.apply(seat, mv).is_err() {
                    continue;
                }
                if founded(&next) > start || next.outcome().is_some() {
                    eprintln!(
                        "not dead: {seat:?} {mv:?} after {} seen, outcome {:?}",
                        seen.len(),
                        next.outcome()
                    );
                    return false;
                }
                if seen.insert(next.position_key()) {
                    if seen.len() > LIMIT {
                        eprintln!("dead search over limit");
                        for q in queue.iter().take(3) {
                            eprintln!(
                                "{:?}\n{:?}\n{:?} breach {:?}",
                                q.side(Player::ONE),
                                q.side(Player::TWO),
                                q.tableau,
                                q.breach()
                            );
                        }
                        return false;
                    }
                    queue.push(next);
                }
            }
        }
    }
    true
}

/// Plays `games` games of `a` against `b` (seats swapped every game) on
/// the shuffled deal and replays each.
fn pairing(a: &str, b: &str, games: u64) -> Circles {
    let level = super::tests::level_file("01-shuffled-deal.ron");
    let specs: Vec<AgentSpec> = [a, b].iter().map(|s| s.parse().unwrap()).collect();
    let config =
        MatchConfig { games, seed: 39, jobs: default_jobs(), record_moves: true, ..Default::default() };
    let mut circles = Circles::default();
    run_match::<RussianBank>(
        &level,
        &specs,
        &config,
        &mut |record| replay(&level, record.seed, &record.moves, &mut circles),
        &|_| {},
    )
    .unwrap();
    circles
}

/// The agents that never go round: the newcomer and the difficulties that
/// look ahead.
const STEADY: [&str; 3] = ["newcomer", "strong", "best"];
/// The difficulties that play greedy and slip often.
const SLIPPING: [&str; 2] = ["beginner", "casual"];

/// Games a pairing: `CIRCLE_GAMES` in the environment for more (the
/// figures in docs/agents-and-arenas.md are of 1,000).
fn games() -> u64 {
    std::env::var("CIRCLE_GAMES").ok().and_then(|g| g.parse().ok()).unwrap_or(GAMES)
}

/// Plays every pairing of `agents` with those after it (`with` too), and
/// returns what `judge` finds wrong with each.
fn pairings(agents: &[&str], with: &[&str], judge: impl Fn(&Circles) -> Vec<String>) -> Vec<String> {
    let mut failures = Vec::new();
    for (i, a) in agents.iter().enumerate() {
        for b in agents[i..].iter().chain(with) {
            let c = pairing(a, b, games());
            let mean = c.plies as f64 / c.games as f64;
            eprintln!(
                "{a} vs {b}: {} games, mean length {mean:.1} moves; {} of {} tableau moves undone ({:.1}%); \
                 a position at most {} times; {} repeated runs of {RUN}; {} at the move cap ({} dead)",
                c.games,
                c.undone,
                c.tableau_moves,
                100.0 * c.undone_share(),
                c.most_repeats,
                c.repeated_runs,
                c.capped,
                c.dead
            );
            failures.extend(judge(&c).into_iter().map(|f| format!("{a} vs {b}: {f}")));
            if c.games != games() {
                failures.push(format!("{a} vs {b}: {} games played", c.games));
            }
        }
    }
    failures
}

impl Circles {
    fn undone_share(&self) -> f64 {
        self.undone as f64 / self.tableau_moves.max(1) as f64
    }
}

/// What is wrong with a pairing's games: a game at the move cap with a
/// card still able to go up, a position made a third time, shuffling, a
/// circle of moves played again.
fn circling(c: &Circles) -> Vec<String> {
    let mut f = Vec::new();
    if c.capped > c.dead {
        f.push(format!("{} games ran to the move cap, {} in a dead position", c.capped, c.dead));
    }
    if c.most_repeats > 2 {
        f.push(format!("a position came {} times", c.most_repeats));
    }
    if c.undone_share() > 0.05 {
        f.push(format!("{} of {} tableau moves undone", c.undone, c.tableau_moves));
    }
    if c.repeated_runs > 0 {
        f.push(format!("{} runs of {RUN} moves came again", c.repeated_runs));
    }
    f
}

#[test]
fn no_steady_agent_plays_in_circles() {
    let failures = pairings(&STEADY, &[], circling);
    assert!(failures.is_empty(), "{failures:#?}");
}

/// The slipping difficulties, against each other and every other agent:
/// their slips, Stopped, bring a position back by the rules, but they make
/// none a third time themselves (before the memory, a position came back
/// 375 times and games ran to the cap).
#[test]
fn no_slipping_agent_plays_in_circles() {
    let failures = pairings(&SLIPPING, &STEADY, circling);
    assert!(failures.is_empty(), "{failures:#?}");
}
