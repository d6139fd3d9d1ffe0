//! The match runner: many games between agents, over threads, with seats
//! rotated between games. Results depend only on the seed: each game draws
//! from its own seeded stream and work is split into fixed chunks, so the
//! thread count changes the speed and nothing else.

use rayon::prelude::*;

use super::{AgentRegistry, AgentSpec, Outcome, derive_seed, rng_from_seed};

/// Games per unit of work; fixed by the agents, never by `jobs`, so that
/// results do not depend on it.
const CHUNK: u64 = 1024;
/// The same when a seat searches: a game then takes milliseconds, and a
/// thousand games must still spread over every thread.
const SEARCH_CHUNK: u64 = 4;
/// Chunks run between two deliveries of records at most, bounding memory.
const BATCH: u64 = 64;
/// A batch is made about this long, from one chunk a thread up to `BATCH`:
/// records then come about this often (an arena writes them as they come,
/// and its window shows them), whether a game takes a microsecond or a
/// second.
const BATCH_TIME: std::time::Duration = std::time::Duration::from_millis(250);

/// The threads a match plays on when none are asked for: one a core.
pub fn default_jobs() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

#[derive(Clone, Debug, Default)]
pub struct MatchConfig {
    /// Games `first..games` are played (all of them when `first` is 0).
    pub games: u64,
    pub seed: u64,
    pub jobs: usize,
    /// Keep each game's moves for the records.
    pub record_moves: bool,
    /// The first game's index: a part of a match (an arena's shard, or
    /// what is left of it after a stop) plays the games it would have.
    pub first: u64,
    /// Paired games: the n games of a round (n agents, each seat once)
    /// share one seed, so each deal is played from every seat.
    pub paired: bool,
    /// Once set, no more chunks start: the match ends with the records of
    /// the chunks before the first that did not play, a prefix of its
    /// games (what an arena's window run stops with).
    pub stop: Option<std::sync::Arc<std::sync::atomic::AtomicBool>>,
}

impl MatchConfig {
    /// The seed game `index` plays from.
    pub fn game_seed(&self, index: u64, agents: usize) -> u64 {
        derive_seed(self.seed, if self.paired { index / agents.max(1) as u64 } else { index })
    }
}

/// One finished game of a match.
#[derive(Clone, Debug)]
pub struct GameRecord<M> {
    pub index: u64,
    pub seed: u64,
    /// `seats[s]` is the index (into the match's agents) of who sat in seat s.
    pub seats: Vec<usize>,
    pub outcome: Outcome,
    pub scores: Vec<i64>,
    pub plies: u64,
    pub moves: Vec<M>,
    /// How long the game took to play, in microseconds.
    pub micros: u64,
}

/// The same game: the same seed, seats, moves and result, however long
/// either took to play.
impl<M: PartialEq> PartialEq for GameRecord<M> {
    fn eq(&self, other: &Self) -> bool {
        let key = |r: &Self| (r.index, r.seed, r.seats.clone(), r.outcome, r.scores.clone(), r.plies);
        key(self) == key(other) && self.moves == other.moves
    }
}

impl<M> GameRecord<M> {
    /// The index of the winning agent, if any.
    pub fn winning_agent(&self) -> Option<usize> {
        self.outcome.winner().map(|seat| self.seats[seat.index()])
    }
}

/// Totals of a match, per agent (in the order given) and per seat.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MatchSummary {
    pub games: u64,
    pub wins: Vec<u64>,
    pub seat_wins: Vec<u64>,
    pub draws: u64,
    pub plies: u64,
    /// `lengths[k]`: games that lasted k moves.
    pub lengths: Vec<u64>,
}

impl MatchSummary {
    fn new(agents: usize) -> MatchSummary {
        MatchSummary { wins: vec![0; agents], seat_wins: vec![0; agents], ..Default::default() }
    }

    /// Counts one game; `winner` is the winning seat's agent (unused on a draw).
    fn add(&mut self, outcome: Outcome, winner: usize, plies: u64) {
        self.games += 1;
        self.plies += plies;
        let k = plies as usize;
        if self.lengths.len() <= k {
            self.lengths.resize(k + 1, 0);
        }
        self.lengths[k] += 1;
        match outcome {
            Outcome::Win(seat) => {
                self.wins[winner] += 1;
                self.seat_wins[seat.index()] += 1;
            }
            Outcome::Draw => self.draws += 1,
        }
    }

    fn merge(&mut self, other: &MatchSummary) {
        self.games += other.games;
        self.plies += other.plies;
        self.draws += other.draws;
        for (a, b) in self.wins.iter_mut().zip(&other.wins) {
            *a += b;
        }
        for (a, b) in self.seat_wins.iter_mut().zip(&other.seat_wins) {
            *a += b;
        }
        if self.lengths.len() < other.lengths.len() {
            self.lengths.resize(other.lengths.len(), 0);
        }
        for (a, b) in self.lengths.iter_mut().zip(&other.lengths) {
            *a += b;
        }
    }

    /// The game length (in moves) that a fraction `q` of the games do not
    /// exceed: 0.5 is the median.
    pub fn length_quantile(&self, q: f64) -> u64 {
        let wanted = (q * self.games as f64).ceil().max(1.0) as u64;
        let mut seen = 0;
        for (k, &n) in self.lengths.iter().enumerate() {
            seen += n;
            if seen >= wanted {
                return k as u64;
            }
        }
        0
    }

    pub fn mean_plies(&self) -> f64 {
        if self.games == 0 { 0.0 } else { self.plies as f64 / self.games as f64 }
    }
}

#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum MatchError {
    #[error("{0}")]
    Setup(String),
    #[error("game {index} (seed {seed}): agent {agent} {problem}")]
    Agent { index: u64, seed: u64, agent: String, problem: String },
}

/// Who sits in each seat of game `index` of a match between `n` agents: the
/// agent in seat s is `seating(n, index)[s]`. Game `index` takes the
/// `index / n`-th order of play round the table (agent 0 first, the others
/// in each of their (n - 1)! orders in turn) and turns it `index % n` seats:
/// every n games each agent sits once in each seat, and every n! games every
/// order of play is met once, so each agent moves right before each other
/// equally often. Turning one order round the table alone (as `match` once
/// did) always seated the same agent right before another: of two equal
/// planners on a four-player board, the one after the weakest player won
/// four games in five. With two agents this swaps the seats every game.
pub fn seating(n: usize, index: u64) -> Vec<usize> {
    let orders: u64 = (1..n as u64).product();
    // The order's number, written in the factorial number system, picks
    // each next agent from those left (a Lehmer code).
    let mut code = (index / n as u64) % orders.max(1);
    let mut left: Vec<usize> = (1..n).collect();
    let mut order = vec![0];
    for k in (1..n).rev() {
        let block: u64 = (1..k as u64).product();
        order.push(left.remove((code / block) as usize));
        code %= block;
    }
    let turn = (index % n as u64) as usize;
    (0..n).map(|s| order[(s + turn) % n]).collect()
}

/// Games in one round of `seating` for `n` agents: each sits in each seat
/// and, with more than two, every order of play is met once (n!).
pub fn round(n: usize) -> u64 {
    (1..=n as u64).product::<u64>().max(1)
}

/// Plays `config.games` games of `level` between `agents` (one per seat;
/// game i seats them as `seating(n, i)` says). Records reach `sink` in game
/// order; `progress` is told how many games each finished chunk held.
pub fn run_match<G: AgentRegistry>(
    level: &G::Level,
    agents: &[AgentSpec],
    config: &MatchConfig,
    sink: &mut dyn FnMut(&GameRecord<G::Move>),
    progress: &(dyn Fn(u64) + Sync),
) -> Result<MatchSummary, MatchError> {
    let start = G::new(level, config.seed).map_err(|e| MatchError::Setup(e.message))?;
    if agents.len() != start.num_players() {
        return Err(MatchError::Setup(format!(
            "{} needs {} agents, got {}",
            G::NAME,
            start.num_players(),
            agents.len()
        )));
    }
    let mut searches = false;
    for spec in agents {
        searches |= G::build_agent(spec).map_err(|e| MatchError::Setup(e.to_string()))?.searches();
    }
    let chunk_games = if searches { SEARCH_CHUNK } else { CHUNK };
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(config.jobs.max(1))
        .build()
        .map_err(|e| MatchError::Setup(e.to_string()))?;
    let chunks = config.games.saturating_sub(config.first).div_ceil(chunk_games);
    let mut summary = MatchSummary::new(agents.len());
    let mut batch_start = 0;
    let threads = (config.jobs.max(1) as u64).min(BATCH);
    let mut batch = threads;
    while batch_start < chunks {
        let batch_end = (batch_start + batch).min(chunks);
        let started = std::time::Instant::now();
        let stopped = || config.stop.as_ref().is_some_and(|s| s.load(std::sync::atomic::Ordering::Relaxed));
        let results: Vec<_> = pool.install(|| {
            (batch_start..batch_end)
                .into_par_iter()
                .map(|chunk| {
                    if stopped() {
                        return None;
                    }
                    let first = config.first + chunk * chunk_games;
                    let last = (first + chunk_games).min(config.games);
                    let done = play_chunk::<G>(level, agents, config, first..last);
                    progress(last - first);
                    Some(done)
                })
                .collect()
        });
        for result in results {
            // A chunk not played: those after it are left out too, so the
            // records stay a prefix of the match.
            let Some(result) = result else { return Ok(summary) };
            let (part, records) = result?;
            summary.merge(&part);
            records.iter().for_each(&mut *sink);
        }
        batch_start = batch_end;
        let took = started.elapsed();
        if took < BATCH_TIME / 2 {
            batch = (batch * 2).min(BATCH);
        } else if took > BATCH_TIME * 2 {
            batch = (batch / 2).max(threads);
        }
    }
    Ok(summary)
}

type ChunkResult<M> = Result<(MatchSummary, Vec<GameRecord<M>>), MatchError>;

fn play_chunk<G: AgentRegistry>(
    level: &G::Level,
    specs: &[AgentSpec],
    config: &MatchConfig,
    games: std::ops::Range<u64>,
) -> ChunkResult<G::Move> {
    let build =
        || -> Vec<_> { specs.iter().map(|s| G::build_agent(s).expect("checked before the match")).collect() };
    let mut agents = build();
    let n = specs.len();
    let random: Vec<bool> = agents.iter().map(|a| a.plays_random_moves()).collect();
    let all_random = random.iter().all(|&r| r);
    let searches = agents.iter().any(|a| a.searches());
    let mut summary = MatchSummary::new(n);
    let mut records = Vec::new();
    let mut moves = Vec::new();
    // The order of play round the table changes every n games at most (with
    // two agents never), so it is worked out again only then: the quickest
    // games take a fraction of a microsecond.
    let orders: u64 = (1..n as u64).product();
    let mut order: Option<(u64, Vec<usize>)> = None;
    for index in games.clone() {
        // Searching agents start every game afresh (their tables emptied), so
        // a game depends only on its seed and seats; a new table costs little
        // beside a searched game.
        if searches && index != games.start {
            agents = build();
        }
        let seed = config.game_seed(index, n);
        // Timed only when recorded: the quickest games take less than a clock read.
        let started = config.record_moves.then(std::time::Instant::now);
        // Who sits where, as `seating(n, index)` says.
        let number = (index / n as u64) % orders;
        if order.as_ref().is_none_or(|(k, _)| *k != number) {
            order = Some((number, seating(n, number * n as u64)));
        }
        let (turn, seats) = ((index % n as u64) as usize, &order.as_ref().expect("just set").1);
        let seat_agent = |s: usize| seats[(s + turn) % n];
        moves.clear();
        let fault = |agent: usize, problem: String| MatchError::Agent {
            index,
            seed,
            agent: specs[agent].to_string(),
            problem,
        };
        let seats = Seats { agents: &mut agents, random: &random, all_random, of: &seat_agent };
        let recorded = config.record_moves.then_some(&mut moves);
        let (game, plies) = play_game(level, seed, seats, recorded, &fault)?;
        let outcome = game.outcome().expect("loop ends on an outcome");
        summary.add(outcome, seat_agent(outcome.winner().map_or(0, |p| p.index())), plies);
        // Records (with their allocations) only when they are wanted.
        if config.record_moves {
            records.push(GameRecord {
                index,
                seed,
                seats: (0..n).map(seat_agent).collect(),
                outcome,
                scores: game.scores(),
                plies,
                moves: moves.clone(),
                micros: started.map_or(0, |t| t.elapsed().as_micros() as u64),
            });
        }
    }
    Ok((summary, records))
}

/// The agents at a game's table: each one's agent, which play random
/// moves, and the agent of each seat.
struct Seats<'a, G: AgentRegistry> {
    agents: &'a mut [Box<dyn super::Agent<G>>],
    random: &'a [bool],
    all_random: bool,
    of: &'a dyn Fn(usize) -> usize,
}

/// Plays the game of `seed` to its end (its moves kept in `moves` when
/// given): the game and its plies, or the agent at fault.
fn play_game<G: AgentRegistry>(
    level: &G::Level,
    seed: u64,
    seats: Seats<'_, G>,
    moves: Option<&mut Vec<G::Move>>,
    fault: &dyn Fn(usize, String) -> MatchError,
) -> Result<(G, u64), MatchError> {
    let mut game = G::new(level, seed).map_err(|e| MatchError::Setup(e.message))?;
    let mut rng = rng_from_seed(derive_seed(seed, u64::MAX));
    let bound = game.move_bound();
    // Random play-outs never interject; a game with interjections is played
    // move by move so that random seats may.
    let played = if seats.all_random && moves.is_none() && !G::INTERJECTIONS {
        // The same draws as below, in the game's own tight loop; every seat
        // plays random, so any of them names the culprit of a game too long.
        let out = game.play_out(&mut rng);
        let refused = |(mv, e): (G::Move, G::Error)| format!("played {mv}, refused: {e}");
        out.map_err(|m| ((seats.of)(game.current_player().index()), Some(refused(m))))
            .and_then(|plies| if plies > bound { Err((0, None)) } else { Ok(plies) })
    } else {
        Ok(0)
    };
    let plies = played
        .and_then(|plies| {
            play_moves(&mut game, seats.agents, seats.random, seats.of, &mut rng, (plies, bound), moves)
        })
        .map_err(|(agent, problem)| {
            fault(
                agent,
                problem.unwrap_or_else(|| format!("game did not end within its bound of {bound} moves")),
            )
        })?;
    Ok((game, plies))
}

/// What went wrong in a game: the agent at fault, and what it did (`None`:
/// the game outran its bound).
type Fault = (usize, Option<String>);

/// Plays `game` to its end, `plies.0` moves in and `plies.1` at most: each
/// seat's agent chooses (a random seat by the game's own draw), and after
/// each move every other seat with a move open to it (a Stop) may make it;
/// the moves are kept in `moves` when given. The plies played.
fn play_moves<G: AgentRegistry>(
    game: &mut G,
    agents: &mut [Box<dyn super::Agent<G>>],
    random: &[bool],
    seat_agent: &dyn Fn(usize) -> usize,
    rng: &mut super::GameRng,
    (mut plies, bound): (u64, u64),
    mut moves: Option<&mut Vec<G::Move>>,
) -> Result<u64, Fault> {
    let n = agents.len();
    let mut open = Vec::new();
    while game.outcome().is_none() {
        let seat = game.current_player();
        let agent = seat_agent(seat.index());
        // `random` needs no virtual call: the game's own fast draw.
        let mv = if random[agent] {
            game.random_move(rng)
        } else {
            agents[agent].choose(seat, &game.observe(Some(seat)), rng)
        }
        .ok_or_else(|| (agent, Some("found no move in a running game".into())))?;
        play(game, (seat, agent), mv, (&mut plies, bound), moves.as_deref_mut())?;
        if !G::INTERJECTIONS {
            continue;
        }
        let mover = game.current_player();
        for other in (0..n).map(|s| super::Player(s as u8)).filter(|&s| s != mover) {
            open.clear();
            game.legal_moves(other, &mut open);
            if open.is_empty() || game.outcome().is_some() {
                continue;
            }
            let agent = seat_agent(other.index());
            let Some(mv) = agents[agent].interject(other, &game.observe(Some(other)), rng) else { continue };
            play(game, (other, agent), mv, (&mut plies, bound), moves.as_deref_mut())?;
        }
    }
    Ok(plies)
}

/// `mv` by `seat`, chosen by `agent`: applied, counted against the bound,
/// and kept in `moves` when given.
#[inline]
fn play<G: AgentRegistry>(
    game: &mut G,
    (seat, agent): (super::Player, usize),
    mv: G::Move,
    (plies, bound): (&mut u64, u64),
    moves: Option<&mut Vec<G::Move>>,
) -> Result<(), Fault> {
    game.apply(seat, mv).map_err(|e| (agent, Some(format!("played {mv}, refused: {e}"))))?;
    *plies += 1;
    if *plies > bound {
        return Err((agent, None));
    }
    if let Some(moves) = moves {
        moves.push(mv);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::nim::{Ending, Nim, NimLevel};

    fn mcmorran() -> NimLevel {
        NimLevel {
            name: String::new(),
            description: String::new(),
            group: Default::default(),
            piles: vec![5, 6, 7],
            ending: Ending::Misere,
        }
    }

    fn play(
        jobs: usize,
        games: u64,
        seed: u64,
        agents: &[&str],
    ) -> (MatchSummary, Vec<GameRecord<crate::nim::Take>>) {
        let agents: Vec<AgentSpec> = agents.iter().map(|a| a.parse().unwrap()).collect();
        let config = MatchConfig { games, seed, jobs, record_moves: true, ..Default::default() };
        let mut records = Vec::new();
        let summary =
            run_match::<Nim>(&mcmorran(), &agents, &config, &mut |r| records.push(r.clone()), &|_| {})
                .unwrap();
        (summary, records)
    }

    #[test]
    fn results_do_not_depend_on_the_thread_count() {
        let one = play(1, 5000, 42, &["optimal:0.7", "random"]);
        let three = play(3, 5000, 42, &["optimal:0.7", "random"]);
        assert_eq!(one, three);
        assert_eq!(one.0.games, 5000);
        assert!(one.1.iter().enumerate().all(|(i, r)| r.index == i as u64), "records in game order");
        assert_ne!(play(1, 5000, 43, &["optimal:0.7", "random"]).0, one.0, "the seed matters");
    }

    #[test]
    fn a_part_of_a_match_plays_its_games_as_the_whole_would_and_paired_games_share_seeds() {
        let agents: Vec<AgentSpec> = ["optimal:0.6", "random"].iter().map(|a| a.parse().unwrap()).collect();
        let run = |config: MatchConfig| {
            let mut records = Vec::new();
            run_match::<Nim>(&mcmorran(), &agents, &config, &mut |r| records.push(r.clone()), &|_| {})
                .unwrap();
            records
        };
        let whole = MatchConfig {
            games: 3000,
            seed: 8,
            jobs: 2,
            record_moves: true,
            paired: true,
            ..Default::default()
        };
        let all = run(whole.clone());
        let tail = run(MatchConfig { first: 1234, ..whole.clone() });
        assert_eq!(tail.len(), 3000 - 1234);
        assert_eq!(tail, all[1234..], "game i is the same game whichever part plays it");
        for pair in all.chunks(2) {
            assert_eq!(pair[0].seed, pair[1].seed, "a seed played from both sides");
            assert_eq!((pair[0].seats.clone(), pair[1].seats.clone()), (vec![0, 1], vec![1, 0]));
        }
        assert!(all.iter().all(|r| r.micros < 1_000_000), "each game timed");
        let unpaired = run(MatchConfig { paired: false, ..whole });
        assert_ne!(unpaired[0].seed, unpaired[1].seed);
    }

    #[test]
    fn a_stopped_match_ends_with_a_prefix_of_whole_batches_of_its_games() {
        use std::sync::Arc;
        use std::sync::atomic::{AtomicBool, Ordering};
        let agents: Vec<AgentSpec> = ["random", "random"].iter().map(|a| a.parse().unwrap()).collect();
        let stop = Arc::new(AtomicBool::new(false));
        let config = MatchConfig {
            games: 3 * BATCH * CHUNK,
            first: 10,
            seed: 3,
            jobs: 2,
            record_moves: true,
            stop: Some(stop.clone()),
            ..Default::default()
        };
        // Stopped while the first batch's records are handed over: that
        // batch is delivered whole (a chunk a thread), and no chunk after it
        // is played.
        let mut games = Vec::new();
        let summary = run_match::<Nim>(
            &mcmorran(),
            &agents,
            &config,
            &mut |r| {
                stop.store(true, Ordering::Relaxed);
                games.push(r.index);
            },
            &|_| {},
        )
        .unwrap();
        assert_eq!(games, (10..10 + 2 * CHUNK).collect::<Vec<_>>());
        assert_eq!(summary.games, 2 * CHUNK);
        // Stopped before it starts: nothing.
        let mut none = 0;
        run_match::<Nim>(&mcmorran(), &agents, &config, &mut |_| none += 1, &|_| {}).unwrap();
        assert_eq!(none, 0);
    }

    #[test]
    fn sides_swap_and_optimal_beats_random() {
        let (summary, records) = play(2, 2000, 7, &["optimal", "random"]);
        assert_eq!(records[0].seats, vec![0, 1]);
        assert_eq!(records[1].seats, vec![1, 0]);
        // 5-6-7 misère is a first-player win: optimal wins every game it starts
        // and nearly all the others against random.
        let starts_and_wins =
            records.iter().filter(|r| r.seats[0] == 0).all(|r| r.winning_agent() == Some(0));
        assert!(starts_and_wins);
        assert!(summary.wins[0] > 1900, "{summary:?}");
        assert_eq!(summary.wins.iter().sum::<u64>() + summary.draws, 2000);
        assert_eq!(summary.lengths.iter().sum::<u64>(), 2000);
        let median = summary.length_quantile(0.5);
        assert!(summary.length_quantile(0.1) <= median && median <= summary.length_quantile(0.9));
    }

    #[test]
    fn records_replay_to_their_outcome() {
        let (_, records) = play(2, 200, 9, &["random", "optimal:0.5"]);
        for r in records {
            let mut nim = <Nim as crate::core::Game>::new(&mcmorran(), r.seed).unwrap();
            for &mv in &r.moves {
                nim.play(mv).unwrap();
            }
            assert_eq!(crate::core::Game::outcome(&nim), Some(r.outcome));
            assert_eq!(r.moves.len() as u64, r.plies);
        }
    }

    #[test]
    fn random_play_outs_give_the_games_played_move_by_move() {
        // Records turn the runner's fast path off; the summaries must agree.
        let agents: Vec<AgentSpec> = ["random", "random"].iter().map(|a| a.parse().unwrap()).collect();
        let fast = MatchConfig { games: 3000, seed: 5, jobs: 2, record_moves: false, ..Default::default() };
        let slow = MatchConfig { record_moves: true, ..fast.clone() };
        let summary = |config| run_match::<Nim>(&mcmorran(), &agents, config, &mut |_| {}, &|_| {}).unwrap();
        assert_eq!(summary(&fast), summary(&slow));
    }

    #[test]
    fn seats_are_balanced_over_orders_of_play_not_only_over_seats() {
        for n in 1..=5usize {
            let all: u64 = (1..=n as u64).product();
            let mut orders = std::collections::HashSet::new();
            let mut in_seat = vec![vec![0u64; n]; n];
            let mut right_before = vec![vec![0u64; n]; n];
            for index in 0..all {
                let seats = seating(n, index);
                assert!(orders.insert(seats.clone()), "{n} agents: game {index} repeats {seats:?}");
                for s in 0..n {
                    in_seat[seats[s]][s] += 1;
                    if n > 1 {
                        right_before[seats[s]][seats[(s + 1) % n]] += 1;
                    }
                }
            }
            assert_eq!(orders.len() as u64, all, "every order of play once in {all} games");
            assert!(in_seat.iter().flatten().all(|&c| c == all / n as u64), "{n}: {in_seat:?}");
            for a in 0..n {
                for b in (0..n).filter(|&b| b != a) {
                    assert_eq!(right_before[a][b], all / (n as u64 - 1), "{n} agents: {right_before:?}");
                }
            }
            // Every n games each agent has sat once in each seat.
            for block in 0..all / n as u64 {
                let mut seen: Vec<Vec<usize>> = vec![Vec::new(); n];
                for index in block * n as u64..(block + 1) * n as u64 {
                    for (s, &agent) in seating(n, index).iter().enumerate() {
                        seen[agent].push(s);
                    }
                }
                assert!(seen.iter_mut().all(|s| {
                    s.sort();
                    *s == (0..n).collect::<Vec<_>>()
                }));
            }
        }
        assert_eq!((seating(2, 0), seating(2, 1), seating(2, 2)), (vec![0, 1], vec![1, 0], vec![0, 1]));
    }

    #[test]
    fn bad_agents_are_refused_before_play() {
        let config = MatchConfig { games: 10, seed: 0, jobs: 1, record_moves: false, ..Default::default() };
        let agents = vec!["optimal".parse().unwrap(), "minimax:3".parse().unwrap()];
        let err = run_match::<Nim>(&mcmorran(), &agents, &config, &mut |_| {}, &|_| {}).unwrap_err();
        assert!(err.to_string().contains("no agent 'minimax'"), "{err}");
    }
}
