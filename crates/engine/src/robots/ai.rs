//! The Robot board's agents: `planner`, who knows the whole board and
//! takes the shortest way home; `scout`, who knows the board but not
//! where its home is, and goes by the hints its robot collects; and
//! `sleuth`, who keeps the tiles each home can still be on and walks where
//! that set shrinks most.

use std::collections::{HashSet, VecDeque};
use std::ops::ControlFlow;

use super::level::Dir;
use super::rules::{Hint, Pos, RobotMove, Robots, Tile, compass_eighth};
use crate::core::agent::{Agent, AgentError, AgentInfo, AgentRegistry, AgentSpec, Erring};
use crate::core::{Game, GameRng, Observation, Outcome, Player};

pub const AGENTS: &[AgentInfo] = &[
    AgentInfo {
        name: "beginner",
        plain: "heads home, but more often sets off the wrong way",
        about: "the planner (the sleuth where homes are hidden) that, on six moves in ten, walks or steps one of its robots (any of them) somewhere its plan does not go instead (a turn only where no walk is open)",
        param: None,
    },
    AgentInfo {
        name: "casual",
        plain: "knows the way but turns the wrong way now and then",
        about: "the planner (the sleuth where homes are hidden) that turns its robot the wrong way on one move in four",
        param: None,
    },
    AgentInfo {
        name: "strong",
        plain: "takes the shortest way home and slips once in a while",
        about: "the planner (the sleuth where homes are hidden) that turns its robot the wrong way on one move in ten",
        param: None,
    },
    AgentInfo {
        name: "best",
        plain: "takes the shortest way home, blocks your wins and never slips",
        about: "the planner (the sleuth where homes are hidden), the same as planner",
        param: None,
    },
    AgentInfo {
        name: "newcomer",
        plain: "has just learnt the rules: heads home half of the time and tries things otherwise",
        about: "on each move, the planner's move (the sleuth's where homes are hidden) or, as often, any step, walk or turn of its robots",
        param: None,
    },
    AgentInfo {
        name: "planner",
        plain: "races you home by the shortest way and blocks your wins",
        about: "knows the whole board: the shortest way home over walks, turns and belt rides, planned again every move; takes a win in one and blocks the next player's",
        param: None,
    },
    AgentInfo {
        name: "sleuth",
        plain: "finds its home from the hints, as you must",
        about: "reasons from hints: keeps the tiles each of its robots' homes can still be on, walks where that set shrinks most for the moves it costs, and heads home once one tile is left",
        param: None,
    },
    AgentInfo {
        name: "scout",
        plain: "wanders from hint to hint",
        about: "knows the board but not where its home is: explores hint tiles and follows what they say",
        param: None,
    },
];

impl AgentRegistry for Robots {
    fn own_agents() -> &'static [AgentInfo] {
        AGENTS
    }

    fn build_own_agent(spec: &AgentSpec) -> Result<Box<dyn Agent<Robots>>, AgentError> {
        match spec.name.as_str() {
            "planner" => {
                spec.no_param()?;
                Ok(Box::new(Planner::default()))
            }
            "newcomer" | "beginner" | "casual" | "strong" | "best" => {
                spec.no_param()?;
                let erring = |strength, mistake| -> Box<dyn Agent<Robots>> {
                    Box::new(Erring::<Robots> { inner: Box::new(Planner::default()), strength, mistake })
                };
                Ok(match spec.name.as_str() {
                    "newcomer" => erring(NEWCOMER_PLAN, try_something),
                    "beginner" => erring(BEGINNER, wrong_way),
                    "casual" => Box::new(WrongTurns::new(CASUAL)),
                    "strong" => Box::new(WrongTurns::new(STRONG)),
                    _ => Box::new(Planner::default()),
                })
            }
            "scout" => {
                spec.no_param()?;
                Ok(Box::new(Scout::default()))
            }
            "sleuth" => {
                spec.no_param()?;
                Ok(Box::new(Sleuth::default()))
            }
            _ => Err(Self::unknown_agent(spec)),
        }
    }
}

/// The difficulties' strengths: the chance of the planner's move rather
/// than a slip (a wrong way for Beginner, a wrong turn above).
const BEGINNER: f64 = 0.4;
const CASUAL: f64 = 0.75;
const STRONG: f64 = 0.9;
/// How often the newcomer heads home; otherwise it tries something.
const NEWCOMER_PLAN: f64 = 0.5;

/// A slip of the robot the plan would move (or the player's first): one of
/// its legal moves other than the plan that `kind` accepts, at random.
fn slip(
    seat: Player,
    board: &Robots,
    planned: RobotMove,
    rng: &mut GameRng,
    kind: impl Fn(RobotMove, char) -> bool,
) -> Option<RobotMove> {
    let robot = match planned {
        RobotMove::Step { robot, .. }
        | RobotMove::Forward { robot, .. }
        | RobotMove::Rotate { robot, .. } => robot,
        _ => board.robots().iter().find(|r| r.player == seat)?.id,
    };
    let mut moves = Vec::new();
    Game::legal_moves(board, seat, &mut moves);
    moves.retain(|&m| m != planned && kind(m, robot));
    (!moves.is_empty()).then(|| moves[rand::Rng::random_range(rng, 0..moves.len())])
}

/// A person's slip on the Robot board: the robot turns a quarter the wrong
/// way, and the move is lost.
fn wrong_turn(seat: Player, board: &Robots, planned: RobotMove, rng: &mut GameRng) -> Option<RobotMove> {
    slip(
        seat,
        board,
        planned,
        rng,
        |m, robot| matches!(m, RobotMove::Rotate { robot: r, quarters: 1 | 3 } if r == robot),
    )
}

/// Casual and Strong: the planner turning its robot the wrong way on a move
/// in 1 - strength, as a person does, then putting it right: after a slip
/// it plays its plan until one of its robots has moved on. (Slipping while
/// it put one right sent a robot round in circles: a stranger watched four
/// wrong turns in a row, and 200 games had runs of eleven.)
struct WrongTurns {
    planner: Planner,
    strength: f64,
    righting: bool,
}

impl WrongTurns {
    fn new(strength: f64) -> WrongTurns {
        WrongTurns { planner: Planner::default(), strength, righting: false }
    }
}

impl Agent<Robots> for WrongTurns {
    fn choose(&mut self, seat: Player, board: &Robots, rng: &mut GameRng) -> Option<RobotMove> {
        let planned = self.planner.choose(seat, board, rng)?;
        if self.righting {
            self.righting = matches!(planned, RobotMove::Rotate { .. });
            return Some(planned);
        }
        if !rand::Rng::random_bool(rng, self.strength)
            && let Some(turn) = wrong_turn(seat, board, planned, rng)
        {
            self.righting = true;
            return Some(turn);
        }
        Some(planned)
    }

    fn note(&self) -> Option<String> {
        self.planner.note()
    }

    fn searches(&self) -> bool {
        true
    }
}

/// A beginner's slip: one of its robots, not only the one its plan moves,
/// sets off somewhere the plan does not go (a walk or step, so it is seen
/// to move and try: a beginner uses every robot it has), turning the
/// wrong way only where no walk is open.
fn wrong_way(seat: Player, board: &Robots, planned: RobotMove, rng: &mut GameRng) -> Option<RobotMove> {
    let walks = |m, _| matches!(m, RobotMove::Step { .. } | RobotMove::Forward { .. });
    slip(seat, board, planned, rng, walks).or_else(|| wrong_turn(seat, board, planned, rng))
}

/// A newcomer trying things: any step, walk or turn of its robots.
fn try_something(seat: Player, board: &Robots, _planned: RobotMove, rng: &mut GameRng) -> Option<RobotMove> {
    let mut moves = Vec::new();
    Game::legal_moves(board, seat, &mut moves);
    moves.retain(|m| {
        matches!(m, RobotMove::Step { .. } | RobotMove::Forward { .. } | RobotMove::Rotate { .. })
    });
    (!moves.is_empty()).then(|| moves[rand::Rng::random_range(rng, 0..moves.len())])
}

/// A request robot `r` could make, as [`explore`] finds it.
struct Reach {
    /// Requests from where the robot stands, this one included.
    cost: u32,
    /// The first of them.
    first: RobotMove,
    /// This one.
    mv: RobotMove,
    /// Where it leaves the robot (after its ride), and facing where.
    at: Pos,
    facing: Dir,
    /// No request before reached that place and facing.
    fresh: bool,
}

/// A breadth-first search over positions and facings of robot `r`: every
/// request it can make now and after further requests, nearest first, until
/// `visit` breaks with an answer. Other robots are obstacles where they
/// stand now.
fn explore<T>(board: &Robots, r: usize, mut visit: impl FnMut(&Reach) -> ControlFlow<T>) -> Option<T> {
    let (w, h) = (board.width() as usize, board.height() as usize);
    let state = |p: Pos, f: Dir| (p.1 as usize * w + p.0 as usize) * 4 + f.quarters() as usize;
    let robot = &board.robots()[r];
    let mut seen = vec![false; w * h * 4];
    seen[state(robot.at, robot.facing)] = true;
    let mut queue = VecDeque::from([(robot.at, robot.facing, 0u32, None)]);
    // One buffer for the requests of every place reached.
    let mut requests = Vec::with_capacity(6);
    while let Some((from, from_facing, n, first)) = queue.pop_front() {
        requests.clear();
        board.each_request_from(r, from, from_facing, |mv, at, facing| requests.push((mv, at, facing)));
        for &(mv, at, facing) in &requests {
            let s = state(at, facing);
            let fresh = !seen[s];
            let reach = Reach { cost: n + 1, first: first.unwrap_or(mv), mv, at, facing, fresh };
            if let ControlFlow::Break(answer) = visit(&reach) {
                return Some(answer);
            }
            if fresh {
                seen[s] = true;
                queue.push_back((at, facing, n + 1, Some(reach.first)));
            }
        }
    }
    None
}

/// The number of requests robot `r` needs to the nearest tile `goal`
/// accepts, and the first of them.
fn search(board: &Robots, r: usize, goal: impl Fn(Pos) -> bool) -> Option<(u32, RobotMove)> {
    explore(board, r, |reach| match reach.fresh && goal(reach.at) {
        true => ControlFlow::Break((reach.cost, reach.first)),
        false => ControlFlow::Continue(()),
    })
}

/// Robot `r`'s shortest way home and its first request. None while another
/// robot stands on the home: no walk or ride ends on an occupied tile, so
/// the search would look everywhere and find nothing.
fn way_home(board: &Robots, r: usize) -> Option<(u32, RobotMove)> {
    let robot = &board.robots()[r];
    let home = robot.home?;
    if board.robot_at(home).is_some_and(|on| on.id != robot.id) {
        return None;
    }
    search(board, r, |p| p == home)
}

/// A move for `seat` when no plan helps: any legal request.
fn fallback(seat: Player, board: &Robots, rng: &mut GameRng) -> Option<RobotMove> {
    Observation::random_move(board, seat, rng)
}

/// Plans every own robot's shortest way home and takes a step on the
/// shortest; with exchanges left, it plays one when that gains more than
/// the step would (its own way shorter, or the nearest opponent's longer).
/// It sees threats: it takes a win in one whenever it has one, never makes
/// a move that lets an opponent win at once, and when an opponent could
/// win with their next move it plays a move that takes that away, if one
/// does. Where homes are hidden it reasons as the sleuth, one sleuth all
/// game long: a sleuth made anew each move forgot the lead it followed,
/// and a stranger saw Casual's robot turn left and right on a hint tile
/// for seven moves.
#[derive(Default)]
pub struct Planner {
    sleuth: Sleuth,
}

/// Boards up to this many tiles have their exchanges weighed, one by one.
const WEIGH_EXCHANGES_UP_TO: usize = 40 * 40;

/// The fewest requests any robot of `seat` (or, with `others`, of any other
/// seat) needs to get home, and the first request of that way.
pub(crate) fn nearest_home(board: &Robots, seat: Player, others: bool) -> Option<(u32, RobotMove)> {
    (0..board.robots().len())
        .filter(|&r| (board.robots()[r].player == seat) != others)
        .filter_map(|r| way_home(board, r))
        .min_by_key(|&(n, _)| n)
}

/// The exchange that gains most over walking, if one gains at all.
fn best_exchange(board: &Robots, seat: Player, walk: Option<u32>) -> Option<RobotMove> {
    if board.swaps_left(seat) == 0 || board.width() as usize * board.height() as usize > WEIGH_EXCHANGES_UP_TO
    {
        return None;
    }
    const FAR: u32 = 10_000;
    // The opponents' robots, nearest home first: an exchange rarely sets the
    // nearest back, and one within reach rules the exchange out at once.
    let mut rivals: Vec<(u32, usize)> = (0..board.robots().len())
        .filter(|&r| board.robots()[r].player != seat)
        .map(|r| (way_home(board, r).map_or(FAR, |(n, _)| n), r))
        .collect();
    rivals.sort_unstable();
    let theirs = rivals.first().map_or(FAR, |&(n, _)| n);
    // Walking brings us one request nearer; the opponents stay as they are.
    let walking = theirs as i64 - walk.map_or(FAR as i64, |n| n as i64 - 1);
    let mut moves = Vec::new();
    board.exchanges(seat, &mut moves, false);
    let mut best: Option<(i64, RobotMove)> = None;
    for mv in moves {
        let RobotMove::Exchange { a, b } = mv else { continue };
        let mut after = board.clone();
        after.play_legal_exchange(seat, a, b);
        if after.outcome() == Some(crate::core::Outcome::Win(seat)) {
            return Some(mv);
        }
        if after.outcome().is_some() {
            continue;
        }
        let ours = nearest_home(&after, seat, false).map_or(FAR, |(n, _)| n) as i64;
        // The gain (the nearest rival's way less ours) must beat both
        // walking and the best exchange so far.
        let bar = best.map_or(walking + 1, |(g, _)| g.max(walking + 1));
        let mut theirs = FAR as i64;
        for &(_, r) in &rivals {
            if let Some((n, _)) = way_home(&after, r) {
                theirs = theirs.min(n as i64);
                if theirs - ours <= bar {
                    break;
                }
            }
        }
        let gain = theirs - ours;
        if gain > bar {
            best = Some((gain, mv));
        }
    }
    best.map(|(_, mv)| mv)
}

/// Whether `player`'s exchanges are weighed on this board.
fn weighs_exchanges(board: &Robots, player: Player) -> bool {
    board.swaps_left(player) > 0 && board.width() as usize * board.height() as usize <= WEIGH_EXCHANGES_UP_TO
}

/// A move with which `player` would win at once on `board`, were it their
/// turn: a walk or turn (with its ride and the settling it sets off), or an
/// exchange. An exchange wins only by a belt carrying one of the player's
/// robots home as the board settles, and at rest a robot stands on a
/// conveyor only while it waits there; so exchanges are tried only for a
/// player with a robot waiting on a belt, and that exactly.
pub(crate) fn winning_move(board: &Robots, player: Player) -> Option<RobotMove> {
    let turn = board.with_turn(player);
    let mut moves = Vec::new();
    turn.robot_moves(player, &mut moves);
    let waiting = turn.robots().iter().any(|r| r.player == player && turn.conveyor(r.at).is_some());
    if waiting && turn.swaps_left(player) > 0 {
        turn.exchanges(player, &mut moves, false);
    }
    moves.into_iter().find(|&mv| {
        let mut after = turn.clone();
        after.apply(player, mv).is_ok() && after.outcome() == Some(Outcome::Win(player))
    })
}

/// The opponent to move next could win with that move. (With more seats,
/// a threat of a later seat is left to the seats before it: blocking every
/// seat's every threat would have each player spend their turns blocking,
/// and nobody would ever win.)
fn threatened(board: &Robots, seat: Player) -> bool {
    let next = board.current_player();
    board.outcome().is_none() && next != seat && winning_move(board, next).is_some()
}

/// The board after `seat` plays `mv`, if the move is legal and neither
/// hands an opponent the game nor leaves one a win in one.
fn safe_after(board: &Robots, seat: Player, mv: RobotMove) -> Option<Robots> {
    let mut after = board.clone();
    after.apply(seat, mv).ok()?;
    match after.outcome() {
        Some(Outcome::Win(p)) if p != seat => None,
        _ if threatened(&after, seat) => None,
        _ => Some(after),
    }
}

/// Among all of `seat`'s moves, the one that leaves no opponent a win in
/// one and gains most: the nearest opponent's way home less the own.
fn safest_move(board: &Robots, seat: Player) -> Option<RobotMove> {
    const FAR: i64 = 10_000;
    let mut moves = Vec::new();
    board.robot_moves(seat, &mut moves);
    if weighs_exchanges(board, seat) {
        board.exchanges(seat, &mut moves, false);
    }
    let mut best: Option<(i64, RobotMove)> = None;
    for mv in moves {
        let Some(after) = safe_after(board, seat, mv) else { continue };
        let ours = nearest_home(&after, seat, false).map_or(FAR, |(n, _)| n as i64);
        let theirs = nearest_home(&after, seat, true).map_or(FAR, |(n, _)| n as i64);
        if best.is_none_or(|(g, _)| theirs - ours > g) {
            best = Some((theirs - ours, mv));
        }
    }
    best.map(|(_, mv)| mv)
}

impl Agent<Robots> for Planner {
    fn searches(&self) -> bool {
        true
    }

    /// Where homes are hidden, the sleuth's: what it makes of the hints.
    fn note(&self) -> Option<String> {
        self.sleuth.note()
    }

    fn choose(&mut self, seat: Player, board: &Robots, rng: &mut GameRng) -> Option<RobotMove> {
        if board.outcome().is_some() || board.current_player() != seat {
            return None;
        }
        if board.homes_hidden() {
            // It cannot plan a way to a home nobody sees: it reasons from
            // the hints as the sleuth does.
            return self.sleuth.choose(seat, board, rng);
        }
        if let Some(win) = winning_move(board, seat) {
            return Some(win);
        }
        let walk = nearest_home(board, seat, false);
        let usual = best_exchange(board, seat, walk.map(|(n, _)| n)).or(walk.map(|(_, mv)| mv));
        match usual {
            // The usual move when it is safe: nothing threatens, or it takes
            // the threat away.
            Some(mv) if safe_after(board, seat, mv).is_some() => Some(mv),
            // Else the best move that is.
            Some(mv) => safest_move(board, seat).or(Some(mv)),
            // No way home for now (a home stood on, a belt taken): any safe
            // move, at random, so the robots do not lock each other out.
            None => {
                let mut moves = Vec::new();
                board.robot_moves(seat, &mut moves);
                if weighs_exchanges(board, seat) {
                    board.exchanges(seat, &mut moves, false);
                }
                moves.retain(|&mv| safe_after(board, seat, mv).is_some());
                match moves.len() {
                    0 => fallback(seat, board, rng),
                    n => Some(moves[rand::Rng::random_range(rng, 0..n)]),
                }
            }
        }
    }
}

/// What a scout has learnt of one robot's home: the tiles it may still be.
#[derive(Clone, Debug, Default)]
struct Clues {
    /// The hints seen so far (to notice a new one).
    seen: usize,
    /// Compass eighths (0 north, clockwise) from where each hint was given.
    bearings: Vec<(Pos, u8)>,
    /// Tiles it stood on that were not its home.
    visited: HashSet<Pos>,
    /// Hint tiles it has stood on.
    hinted: HashSet<Pos>,
}

/// The compass eighth of the offset from `from` to `to`, as hints see it.
fn bearing(from: Pos, to: Pos) -> u8 {
    compass_eighth(to.0 as i32 - from.0 as i32, to.1 as i32 - from.1 as i32).unwrap_or(8)
}

impl Clues {
    /// The tile could be the robot's home, by every hint so far.
    fn allows(&self, board: &Robots, p: Pos) -> bool {
        // Homes look like any other tile to a scout.
        matches!(board.tile(p), Tile::Normal | Tile::Home(_))
            && !self.visited.contains(&p)
            && self.bearings.iter().all(|&(from, b)| bearing(from, p) == b)
    }
}

/// Explores: to the nearest hint tile not yet read while it knows nothing,
/// then toward the nearest tile the hints allow, reading more hints on the
/// way when they are as near.
#[derive(Default)]
pub struct Scout {
    clues: Vec<Clues>,
}

impl Scout {
    fn learn(&mut self, board: &Robots) {
        self.clues.resize(board.robots().len(), Clues::default());
        for (robot, clues) in board.robots().iter().zip(&mut self.clues) {
            clues.visited.insert(robot.at);
            if board.tile(robot.at) == Tile::Hint {
                clues.hinted.insert(robot.at);
            }
            if robot.hints.len() > clues.seen {
                // A hint is given at the end of the robot's own walk, and
                // belts clear them: it was given here, facing this way.
                let hint = *robot.hints.last().expect("more hints than seen");
                let eighth = (Hint::index(hint) + 2 * robot.facing.quarters() as usize) % 8;
                clues.bearings.push((robot.at, eighth as u8));
            }
            clues.seen = robot.hints.len();
        }
    }
}

impl Agent<Robots> for Scout {
    /// It searches, and it remembers: the runner gives it a fresh memory
    /// every game.
    fn searches(&self) -> bool {
        true
    }

    fn choose(&mut self, seat: Player, board: &Robots, rng: &mut GameRng) -> Option<RobotMove> {
        if board.outcome().is_some() || board.current_player() != seat {
            return None;
        }
        self.learn(board);
        let own: Vec<usize> =
            (0..board.robots().len()).filter(|&r| board.robots()[r].player == seat).collect();
        let plans: Vec<(usize, (u32, RobotMove))> = own
            .iter()
            .filter_map(|&r| {
                let clues = &self.clues[r];
                let unread_hint = |p: Pos| board.tile(p) == Tile::Hint && !clues.hinted.contains(&p);
                if clues.bearings.is_empty() {
                    // Nothing known: read a hint, or wander toward open ground.
                    search(board, r, unread_hint).or_else(|| search(board, r, |p| clues.allows(board, p)))
                } else {
                    let toward = search(board, r, |p| clues.allows(board, p));
                    let hint = search(board, r, |p| unread_hint(p) && clues.allows_near(board, p));
                    match (toward, hint) {
                        (Some(t), Some(h)) if h.0 <= t.0 => Some(h),
                        (t, h) => t.or(h),
                    }
                }
                .map(|plan| (r, plan))
            })
            .collect();
        // A robot with a bearing follows it; otherwise the nearest goal.
        let guided =
            plans.iter().filter(|(r, _)| !self.clues[*r].bearings.is_empty()).min_by_key(|(_, p)| p.0);
        let chosen = guided.or_else(|| plans.iter().min_by_key(|(_, p)| p.0));
        chosen.map(|(_, (_, mv))| *mv).or_else(|| fallback(seat, board, rng))
    }
}

impl Clues {
    /// A hint tile worth reading: in the direction the hints point.
    fn allows_near(&self, _board: &Robots, p: Pos) -> bool {
        self.bearings.iter().all(|&(from, b)| bearing(from, p) == b || from == p)
    }
}

/// How many of `candidates` would be left, on average, once a robot that
/// stands on `p` facing `facing` after a walk has learnt what the tile
/// tells: a hint tile splits them by the hint each would give; a candidate
/// tile is either home (none left) or not (one fewer). Each candidate is
/// taken as equally likely.
fn expected_left(board: &Robots, candidates: &[Pos], p: Pos, facing: Dir) -> f64 {
    let n = candidates.len() as f64;
    if board.tile(p) == Tile::Hint {
        let mut groups = [0u32; 8];
        for &c in candidates {
            let hint = Hint::toward(c.0 as i32 - p.0 as i32, c.1 as i32 - p.1 as i32, facing);
            groups[hint.index()] += 1;
        }
        groups.iter().map(|&g| (g as f64) * (g as f64)).sum::<f64>() / n
    } else if candidates.contains(&p) {
        (n - 1.0) * (n - 1.0) / n
    } else {
        n
    }
}

/// Reasons from hints. For each of its robots it keeps the tiles the home
/// can still be on, given every hint received and every tile seen not to be
/// it ([`Robots::home_candidates`]). It walks the robot and the way that
/// shrink a set most for the requests they cost, and heads home once a set
/// is one tile. Ties are broken at random.
///
/// "Most for the cost": it takes the walk that leaves the fewest requests
/// expected until home, counting the requests to where the walk ends and
/// half a request for each candidate expected to be left then. So a far hint tile that cuts the set to an eighth
/// beats a near one that cuts off a corner, and a candidate next door is
/// worth a step only when few are left.
#[derive(Default)]
pub struct Sleuth {
    note: Option<String>,
    /// The robot and tile it headed for last: among equal leads it keeps
    /// to that one, so that it does not turn one way and back.
    aim: Option<(usize, Pos)>,
}

/// Requests the sleuth counts for each candidate it expects to be left:
/// about half a request each (a candidate is often stood on on the way to
/// another, and the home is found, on average, halfway through them).
/// Measured best against `scout` over 0.3, 0.6, 1, 1.5 and 3.
const LEFT_WEIGHT: f64 = 0.5;

/// Requests a new lead must save over the one followed since the last move
/// before the sleuth turns to it: its estimates are rough, and a rule B
/// robot that turns toward one tile and back toward another wastes both
/// turns.
const KEEP_AIM: f64 = 1.0;

/// The sleuth's choice for one robot.
struct Lead {
    /// Requests expected until home.
    expected: f64,
    /// Requests to the target.
    cost: u32,
    first: RobotMove,
    target: Pos,
    /// The tiles the home can still be on (the target is home when one).
    left: usize,
}

impl Sleuth {
    fn lead(board: &Robots, r: usize, aim: Option<Pos>, rng: &mut GameRng) -> Option<Lead> {
        let candidates = board.home_candidates(r);
        let left = candidates.len();
        if let [home] = candidates[..] {
            let (cost, first) = search(board, r, |p| p == home)?;
            return Some(Lead { expected: cost as f64, cost, first, target: home, left });
        }
        let n = left as f64;
        let mut best: Option<Lead> = None;
        let mut ties = 0u32;
        explore(board, r, |reach| {
            // A turn gives no hint and stands on no new tile.
            if matches!(reach.mv, RobotMove::Rotate { .. }) {
                return ControlFlow::<()>::Continue(());
            }
            let after = expected_left(board, &candidates, reach.at, reach.facing);
            if after >= n - 1e-9 {
                return ControlFlow::Continue(());
            }
            let keep = if aim == Some(reach.at) { KEEP_AIM } else { 0.0 };
            let expected = reach.cost as f64 + LEFT_WEIGHT * after - keep;
            let lead = || Lead { expected, cost: reach.cost, first: reach.first, target: reach.at, left };
            match &best {
                Some(b) if expected > b.expected + 1e-9 => {}
                Some(b) if expected >= b.expected - 1e-9 => {
                    // Equal: each of the tied leads equally likely.
                    ties += 1;
                    if rand::Rng::random_range(rng, 0..ties) == 0 {
                        best = Some(lead());
                    }
                }
                _ => {
                    ties = 1;
                    best = Some(lead());
                }
            }
            ControlFlow::Continue(())
        });
        best
    }
}

impl Agent<Robots> for Sleuth {
    fn searches(&self) -> bool {
        true
    }

    fn choose(&mut self, seat: Player, board: &Robots, rng: &mut GameRng) -> Option<RobotMove> {
        if board.outcome().is_some() || board.current_player() != seat {
            return None;
        }
        let mut best: Option<(usize, Lead)> = None;
        for r in (0..board.robots().len()).filter(|&r| board.robots()[r].player == seat) {
            let aim = self.aim.filter(|&(aimed, _)| aimed == r).map(|(_, p)| p);
            let Some(lead) = Self::lead(board, r, aim, rng) else { continue };
            // The robot expected home soonest (the lead followed before
            // counted KEEP_AIM sooner).
            let better = best.as_ref().is_none_or(|(_, b)| lead.expected < b.expected);
            if better {
                best = Some((r, lead));
            }
        }
        self.note = best.as_ref().map(|(r, lead)| {
            let id = board.robots()[*r].id;
            let target = super::rules::tile_name(lead.target, board.height());
            match lead.left {
                1 => format!("{id}: home is on {target}, {} moves away", lead.cost),
                left => format!("{id}: {left} tiles could be home; heading for {target}"),
            }
        });
        self.aim = best.as_ref().map(|(r, lead)| (*r, lead.target));
        best.map(|(_, lead)| lead.first).or_else(|| fallback(seat, board, rng))
    }

    fn note(&self) -> Option<String> {
        self.note.clone()
    }
}
