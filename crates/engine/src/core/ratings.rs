//! Elo ratings from a whole table of two-seat results, by maximum
//! likelihood (the Bradley-Terry model on Elo's scale), with 95% intervals
//! from the curvature of the likelihood. Unlike updates game by game, the
//! answer does not depend on the order the games were played in.

/// Elo points per natural unit of strength: a difference of 400 points is
/// odds of 10 to 1.
const ELO: f64 = 400.0 / std::f64::consts::LN_10;

/// The share of the points an agent `elo` above its opponent expects.
pub fn expected_score(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// The Elo difference that expects `score` (0 and 1 kept just inside, an
/// endless difference).
pub fn elo_of_score(score: f64) -> f64 {
    let score = score.clamp(1e-6, 1.0 - 1e-6);
    -400.0 * (1.0 / score - 1.0).log10()
}
/// 95% of a normal distribution lies within this many standard deviations.
pub const Z95: f64 = 1.959_963_984_540_054;
/// Virtual draws added to each pair that met (BayesElo's prior): without
/// them an agent that won every game would have no finite rating.
const PRIOR_DRAWS: f64 = 1.0;

/// The games between two agents, from `a`'s side.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PairResults {
    pub a: usize,
    pub b: usize,
    pub wins: u64,
    pub draws: u64,
    pub losses: u64,
}

/// An agent's rating: Elo points with the mean of all agents at 0, and the
/// half-width of its 95% interval.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rating {
    pub elo: f64,
    pub interval: f64,
}

/// The ratings of `agents` agents that best explain `results` (a draw
/// counts half a win to each). Agents that met nobody are rated 0 with an
/// infinite interval; agents in separate groups that never met are each
/// centred on 0 within their group.
pub fn elo(agents: usize, results: &[PairResults]) -> Vec<Rating> {
    // Games and points between each pair, prior included.
    let mut games = vec![vec![0.0; agents]; agents];
    let mut points = vec![vec![0.0; agents]; agents];
    for r in results.iter().filter(|r| r.a != r.b && r.a < agents && r.b < agents) {
        let n = (r.wins + r.draws + r.losses) as f64;
        let (a, b) = (r.a, r.b);
        games[a][b] += n;
        games[b][a] += n;
        points[a][b] += r.wins as f64 + r.draws as f64 / 2.0;
        points[b][a] += r.losses as f64 + r.draws as f64 / 2.0;
    }
    for a in 0..agents {
        for b in 0..agents {
            if games[a][b] > 0.0 {
                games[a][b] += PRIOR_DRAWS;
                points[a][b] += PRIOR_DRAWS / 2.0;
            }
        }
    }
    let groups = groups(&games);
    let mut strength = vec![0.0f64; agents];
    // Newton's method: the log-likelihood is concave, and with the prior
    // its maximum is finite; a few dozen steps reach it to rounding.
    let mut curvature = vec![vec![0.0; agents]; agents];
    for _ in 0..100 {
        let mut slope = vec![0.0; agents];
        for row in curvature.iter_mut() {
            row.fill(0.0);
        }
        for a in 0..agents {
            for b in (0..agents).filter(|&b| games[a][b] > 0.0) {
                let p = 1.0 / (1.0 + (strength[b] - strength[a]).exp());
                slope[a] += points[a][b] - games[a][b] * p;
                let w = games[a][b] * p * (1.0 - p);
                curvature[a][a] += w;
                curvature[a][b] -= w;
            }
        }
        let step = solve(&pinned(&curvature, &groups), &slope);
        let largest = step.iter().fold(0.0f64, |m, s| m.max(s.abs()));
        for (s, d) in strength.iter_mut().zip(&step) {
            *s += d;
        }
        centre(&mut strength, &groups);
        if largest < 1e-12 {
            break;
        }
    }
    // The covariance of strengths centred in their group is the
    // pseudo-inverse of the curvature: the inverse with each group's
    // all-ones direction pinned, less what the pin adds.
    let inverse = invert(&pinned(&curvature, &groups));
    (0..agents)
        .map(|a| {
            let alone = groups[a].len() == 1;
            let g = groups[a].len() as f64;
            // The pin adds J / g² to the pseudo-inverse (J all ones).
            let variance = inverse[a][a] - 1.0 / (g * g);
            Rating {
                elo: strength[a] * ELO,
                interval: if alone { f64::INFINITY } else { Z95 * variance.max(0.0).sqrt() * ELO },
            }
        })
        .collect()
}

/// Each agent's group: the agents it is joined to through games played.
fn groups(games: &[Vec<f64>]) -> Vec<Vec<usize>> {
    let n = games.len();
    let mut group_of: Vec<Option<usize>> = vec![None; n];
    let mut groups: Vec<Vec<usize>> = Vec::new();
    for start in 0..n {
        if group_of[start].is_some() {
            continue;
        }
        let id = groups.len();
        let mut members = vec![start];
        group_of[start] = Some(id);
        let mut i = 0;
        while i < members.len() {
            let a = members[i];
            for b in 0..n {
                if games[a][b] > 0.0 && group_of[b].is_none() {
                    group_of[b] = Some(id);
                    members.push(b);
                }
            }
            i += 1;
        }
        groups.push(members);
    }
    (0..n).map(|a| groups[group_of[a].expect("every agent grouped")].clone()).collect()
}

/// The curvature with 1 added between every two agents of a group: the
/// likelihood does not change when a whole group moves together, and this
/// pins that direction so the system can be solved.
fn pinned(curvature: &[Vec<f64>], groups: &[Vec<usize>]) -> Vec<Vec<f64>> {
    let mut m = curvature.to_vec();
    for (a, group) in groups.iter().enumerate() {
        for &b in group {
            m[a][b] += 1.0;
        }
    }
    m
}

fn centre(strength: &mut [f64], groups: &[Vec<usize>]) {
    let means: Vec<f64> =
        groups.iter().map(|g| g.iter().map(|&b| strength[b]).sum::<f64>() / g.len() as f64).collect();
    for (s, mean) in strength.iter_mut().zip(means) {
        *s -= mean;
    }
}

/// Solves `m x = v` by Gaussian elimination with partial pivoting.
fn solve(m: &[Vec<f64>], v: &[f64]) -> Vec<f64> {
    let n = v.len();
    let mut a: Vec<Vec<f64>> =
        m.iter().zip(v).map(|(row, &x)| row.iter().copied().chain([x]).collect()).collect();
    for col in 0..n {
        let pivot = (col..n).max_by(|&i, &j| a[i][col].abs().total_cmp(&a[j][col].abs())).expect("rows left");
        a.swap(col, pivot);
        let pivot_row = a[col].clone();
        for row in a.iter_mut().enumerate().filter(|(r, _)| *r != col).map(|(_, row)| row) {
            let f = row[col] / pivot_row[col];
            if f != 0.0 {
                for (x, p) in row.iter_mut().zip(&pivot_row).skip(col) {
                    *x -= f * p;
                }
            }
        }
    }
    (0..n).map(|i| a[i][n] / a[i][i]).collect()
}

fn invert(m: &[Vec<f64>]) -> Vec<Vec<f64>> {
    let n = m.len();
    let columns: Vec<Vec<f64>> = (0..n)
        .map(|c| solve(m, &(0..n).map(|r| if r == c { 1.0 } else { 0.0 }).collect::<Vec<_>>()))
        .collect();
    (0..n).map(|r| (0..n).map(|c| columns[c][r]).collect()).collect()
}

/// Paired games (one seed played with the seats swapped) counted by the
/// points agent A took from the pair: 0, ½, 1, 1½ or 2. Counting pairs, not
/// games, keeps what the seed decided (a deal that favours a seat) out of
/// the spread, so a test stops sooner.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Pentanomial(pub [u64; 5]);

impl Pentanomial {
    /// Counts a pair in which A took `half_points` halves of a point (0 to 4).
    pub fn add(&mut self, half_points: usize) {
        self.0[half_points.min(4)] += 1;
    }

    pub fn pairs(&self) -> u64 {
        self.0.iter().sum()
    }

    /// How much stronger A is than B by the pairs, in Elo, and the half-width
    /// of its 95% interval (the normal approximation of a pair's mean score,
    /// mapped through the Elo curve); `None` before two pairs, and when one
    /// side took every point (no finite difference explains it).
    pub fn elo(&self) -> Option<(f64, f64)> {
        let n = self.pairs();
        if n < 2 || self.0[0] == n || self.0[4] == n {
            return None;
        }
        let (mean, variance) = self.moments();
        let spread = Z95 * (variance / self.pairs() as f64).sqrt();
        Some((elo_of_score(mean), (elo_of_score(mean + spread) - elo_of_score(mean - spread)) / 2.0))
    }

    /// A's mean score a game and the variance of a pair's mean score.
    fn moments(&self) -> (f64, f64) {
        let n = self.pairs() as f64;
        let score = |i: usize| i as f64 / 4.0;
        let mean = (0..5).map(|i| self.0[i] as f64 * score(i)).sum::<f64>() / n;
        let variance = (0..5).map(|i| self.0[i] as f64 * (score(i) - mean).powi(2)).sum::<f64>() / n;
        (mean, variance)
    }
}

/// A sequential probability ratio test of "A is at least `elo1` stronger
/// than B" against "A is at most `elo0` stronger", with error rates
/// `alpha` (accepting the first wrongly) and `beta` (the second).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sprt {
    pub elo0: f64,
    pub elo1: f64,
    pub alpha: f64,
    pub beta: f64,
}

/// What a sequential test says so far.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// A is stronger by at least `elo1`: stop.
    Stronger,
    /// A is not stronger by more than `elo0`: stop.
    NotStronger,
    /// Play on.
    Undecided,
}

impl Sprt {
    /// The log-likelihood ratio at which the test stops: below the first it
    /// accepts `elo0`, above the second `elo1`.
    pub fn bounds(&self) -> (f64, f64) {
        ((self.beta / (1.0 - self.alpha)).ln(), ((1.0 - self.beta) / self.alpha).ln())
    }

    /// The log-likelihood ratio of the pairs played, by the normal
    /// approximation of the generalized SPRT (as chess engine testers use
    /// it): N (s1 - s0) (2 m - s0 - s1) / (2 v), with m the mean score, v
    /// the variance of a pair's mean and s0, s1 the scores the two
    /// hypotheses expect.
    pub fn llr(&self, pairs: &Pentanomial) -> f64 {
        if pairs.pairs() < 2 {
            return 0.0;
        }
        let (mean, variance) = pairs.moments();
        // Every pair alike tells nothing of the spread yet.
        let variance = variance.max(1e-6);
        let (s0, s1) = (expected_score(self.elo0), expected_score(self.elo1));
        pairs.pairs() as f64 * (s1 - s0) * (2.0 * mean - s0 - s1) / (2.0 * variance)
    }

    pub fn verdict(&self, pairs: &Pentanomial) -> Verdict {
        let (lower, upper) = self.bounds();
        match self.llr(pairs) {
            llr if llr >= upper => Verdict::Stronger,
            llr if llr <= lower => Verdict::NotStronger,
            _ => Verdict::Undecided,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_table_made_from_known_ratings_gives_them_back() {
        // Ratings 0, 100 and 300 (mean 133.3), each pair 100,000 games
        // scored exactly as the ratings expect.
        let truth = [0.0, 100.0, 300.0];
        let mean = truth.iter().sum::<f64>() / 3.0;
        let n = 100_000.0;
        let mut results = Vec::new();
        for a in 0..3 {
            for b in a + 1..3 {
                let wins = (n * expected_score(truth[a] - truth[b])).round() as u64;
                results.push(PairResults { a, b, wins, draws: 0, losses: n as u64 - wins });
            }
        }
        let ratings = elo(3, &results);
        for (r, t) in ratings.iter().zip(truth) {
            assert!((r.elo - (t - mean)).abs() < 0.5, "{ratings:?}");
            assert!(r.interval > 0.5 && r.interval < 5.0, "{ratings:?}");
        }
        // Listing a pair from the other side, or in another order, changes nothing.
        let mut turned: Vec<PairResults> = results
            .iter()
            .map(|r| PairResults { a: r.b, b: r.a, wins: r.losses, draws: r.draws, losses: r.wins })
            .collect();
        turned.reverse();
        let again = elo(3, &turned);
        for (x, y) in ratings.iter().zip(&again) {
            assert!((x.elo - y.elo).abs() < 1e-9 && (x.interval - y.interval).abs() < 1e-9);
        }
    }

    #[test]
    fn intervals_follow_the_binomial_spread() {
        // Two equal agents, 1,000 games: the difference has a standard
        // deviation of 1 / sqrt(1000 / 4) natural units, each rating half
        // of it; so the 95% interval is 1.96 * 0.0316 * 173.7 = 10.8 Elo.
        let ratings = elo(2, &[PairResults { a: 0, b: 1, wins: 400, draws: 200, losses: 400 }]);
        assert!(ratings[0].elo.abs() < 1e-9 && ratings[1].elo.abs() < 1e-9);
        assert!((ratings[0].interval - 10.77).abs() < 0.05, "{ratings:?}");
        // Four times the games, half the interval.
        let more = elo(2, &[PairResults { a: 0, b: 1, wins: 1600, draws: 800, losses: 1600 }]);
        assert!((more[0].interval * 2.0 - ratings[0].interval).abs() < 0.01);
    }

    #[test]
    fn a_clean_sweep_is_finite_and_strangers_are_unrated() {
        let ratings = elo(3, &[PairResults { a: 0, b: 1, wins: 1000, draws: 0, losses: 0 }]);
        assert!(ratings[0].elo > 300.0 && ratings[0].elo.is_finite(), "{ratings:?}");
        assert!((ratings[0].elo + ratings[1].elo).abs() < 1e-9);
        assert_eq!(ratings[2].elo, 0.0);
        assert!(ratings[2].interval.is_infinite(), "agent 2 met nobody");
        assert!(ratings[0].interval.is_finite());
    }

    #[test]
    fn pairs_give_the_elo_their_mean_score_means() {
        // Ten pairs, five of 1 point and five of 1.5: a mean score of 0.625,
        // -400 log10(1 / 0.625 - 1) = 88.7 Elo; a pair's mean score varies
        // by 0.015625, so the mean's 95% spread is 1.96 * 0.0395 = 0.0775:
        // scores 0.5475 to 0.7025, 33.1 to 149.2 Elo, a half-width of 58.1.
        let (elo, interval) = Pentanomial([0, 0, 5, 5, 0]).elo().unwrap();
        assert!((elo - 88.74).abs() < 0.01, "{elo}");
        assert!((interval - 58.06).abs() < 0.01, "{interval}");
        // An even score is no difference; B's side is A's turned over.
        let (even, _) = Pentanomial([1, 2, 4, 2, 1]).elo().unwrap();
        assert!(even.abs() < 1e-9);
        let (turned, turned_interval) = Pentanomial([0, 5, 5, 0, 0]).elo().unwrap();
        assert!((turned + elo).abs() < 1e-9 && (turned_interval - interval).abs() < 1e-9);
        assert_eq!(Pentanomial([0, 0, 1, 0, 0]).elo(), None, "one pair tells no spread");
        assert_eq!(Pentanomial([0, 0, 0, 0, 9]).elo(), None, "A took every point");
        assert_eq!(Pentanomial([9, 0, 0, 0, 0]).elo(), None, "B took every point");
        assert!(Pentanomial([0, 0, 0, 1, 8]).elo().is_some());
    }

    #[test]
    fn the_sequential_test_stops_on_the_side_the_pairs_show() {
        let sprt = Sprt { elo0: 0.0, elo1: 10.0, alpha: 0.05, beta: 0.05 };
        let (lower, upper) = sprt.bounds();
        assert!((upper - 2.944).abs() < 1e-3 && (lower + 2.944).abs() < 1e-3);
        // Pairs whose mean score is exactly what each hypothesis expects
        // (A scoring 50% against 51.44% for +10 Elo), the spread alike.
        let even = Pentanomial([100, 2000, 5800, 2000, 100]);
        assert_eq!(even.moments().0, 0.5);
        assert!(sprt.llr(&even) < 0.0);
        let better = Pentanomial([100, 1800, 5700, 2300, 100]);
        assert!(sprt.llr(&better) > sprt.llr(&even));
        // The same pairs twice over: twice the evidence.
        let twice = Pentanomial(even.0.map(|c| c * 2));
        assert!((sprt.llr(&twice) - 2.0 * sprt.llr(&even)).abs() < 1e-9);
        assert_eq!(sprt.verdict(&twice), Verdict::NotStronger);
        let strong = Pentanomial([50, 1500, 5500, 2700, 250]);
        assert_eq!(sprt.verdict(&strong), Verdict::Stronger, "llr {}", sprt.llr(&strong));
        assert_eq!(sprt.verdict(&Pentanomial([0, 1, 2, 1, 0])), Verdict::Undecided);
        // Halfway between the hypotheses the evidence is nil.
        let mid = (expected_score(0.0) + expected_score(10.0)) / 2.0;
        let mut p = Pentanomial::default();
        // Pairs of 1 and 1.5 points in the share that makes the mean `mid`.
        let ones = ((1.5 / 2.0 - mid) / (1.5 / 2.0 - 0.5) * 10_000.0).round() as u64;
        (p.0[2], p.0[3]) = (ones, 10_000 - ones);
        // (within what rounding the counts to whole pairs leaves: 0.53)
        assert!(sprt.llr(&p).abs() < 1.0, "{}", sprt.llr(&p));
    }
}
