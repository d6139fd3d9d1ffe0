//! What an arena's table of results says: Elo ratings with 95% intervals
//! from every two-seat game (maximum likelihood over the whole table), a
//! crosstable of scores between agents, and each level's wins by agent.

use tabula_engine::arena::Arena;
use tabula_engine::core::ratings::{self, PairResults, Rating};

use super::store::Outcome;

/// The results of an arena's games, as the report shows them.
pub struct Standings {
    pub agents: Vec<String>,
    /// Rating by agent, from the two-seat games.
    pub ratings: Vec<Rating>,
    /// `points[a][b]`, `games[a][b]`: what agent a scored against agent b
    /// in two-seat games (a draw half a point), and in how many.
    pub points: Vec<Vec<f64>>,
    pub games: Vec<Vec<u64>>,
    /// By level: games played of those planned, and wins by agent.
    pub levels: Vec<LevelResults>,
}

pub struct LevelResults {
    pub path: String,
    pub seats: usize,
    pub played: u64,
    pub planned: u64,
    pub wins: Vec<u64>,
    pub draws: u64,
}

pub fn standings(arena: &Arena, rows: &[Outcome]) -> Standings {
    let n = arena.agents.len();
    // Wins, draws and losses of agent a against agent b.
    let mut results = vec![vec![(0u64, 0u64, 0u64); n]; n];
    let mut levels: Vec<LevelResults> = arena
        .levels
        .iter()
        .map(|l| LevelResults {
            path: l.path.clone(),
            seats: l.seats,
            played: 0,
            planned: l.games * l.pairings.len() as u64,
            wins: vec![0; n],
            draws: 0,
        })
        .collect();
    for row in rows {
        let Some(level) = levels.get_mut(row.level) else { continue };
        level.played += 1;
        let winner = row.winner_seat.map(|s| row.seats[s as usize - 1]);
        match winner {
            Some(w) => level.wins[w] += 1,
            None => level.draws += 1,
        }
        if let [a, b] = row.seats[..] {
            match winner {
                Some(w) => {
                    let l = if w == a { b } else { a };
                    results[w][l].0 += 1;
                    results[l][w].2 += 1;
                }
                None => {
                    results[a][b].1 += 1;
                    results[b][a].1 += 1;
                }
            }
        }
    }
    let games: Vec<Vec<u64>> =
        results.iter().map(|r| r.iter().map(|(w, d, l)| w + d + l).collect()).collect();
    let points: Vec<Vec<f64>> =
        results.iter().map(|r| r.iter().map(|&(w, d, _)| w as f64 + d as f64 / 2.0).collect()).collect();
    let pairs: Vec<PairResults> = (0..n)
        .flat_map(|a| (a + 1..n).map(move |b| (a, b)))
        .filter(|&(a, b)| games[a][b] > 0)
        .map(|(a, b)| {
            let (wins, draws, losses) = results[a][b];
            PairResults { a, b, wins, draws, losses }
        })
        .collect();
    Standings { agents: arena.agents.clone(), ratings: ratings::elo(n, &pairs), points, games, levels }
}

impl Standings {
    /// Agents, strongest first.
    pub fn order(&self) -> Vec<usize> {
        let mut order: Vec<usize> = (0..self.agents.len()).collect();
        order.sort_by(|&x, &y| self.ratings[y].elo.total_cmp(&self.ratings[x].elo));
        order
    }

    /// The ratings, the crosstable and the levels, as the terminal shows them.
    pub fn text(&self, arena: &Arena) -> String {
        let width = self.agents.iter().map(String::len).max().unwrap_or(5).max(5);
        let mut out =
            format!("{}: {} agents, {} levels\n", arena.name, self.agents.len(), arena.levels.len());
        let rated = self.games.iter().flatten().any(|&g| g > 0);
        if rated {
            out += "\nElo (two-seat games of every level; 95% interval; mean 0):\n";
            for (place, &a) in self.order().iter().enumerate() {
                let played: u64 = self.games[a].iter().sum();
                let scored: f64 = self.points[a].iter().sum();
                let score = if played > 0 { 100.0 * scored / played as f64 } else { 0.0 };
                let r = self.ratings[a];
                out += &format!(
                    "  {:>2}. {:width$}  {:+7.1} ± {:5.1}   scored {score:5.1}% of {played} games\n",
                    place + 1,
                    self.agents[a],
                    r.elo,
                    r.interval
                );
            }
            out += "\nCrosstable (the row's score against the column, and games):\n";
            out += &format!("  {:width$}", "");
            for &b in &self.order() {
                out += &format!("  {:>12}", self.agents[b]);
            }
            out += "\n";
            for &a in &self.order() {
                out += &format!("  {:width$}", self.agents[a]);
                for &b in &self.order() {
                    let g = self.games[a][b];
                    let cell = match (a == b, g) {
                        (true, _) => "-".to_owned(),
                        (false, 0) => "".to_owned(),
                        (false, g) => format!("{:.1}% /{g}", 100.0 * self.points[a][b] / g as f64),
                    };
                    out += &format!("  {cell:>12}");
                }
                out += "\n";
            }
        }
        out += "\nLevels (wins by agent):\n";
        for level in &self.levels {
            let wins: Vec<String> = self
                .order()
                .iter()
                .filter(|&&a| level.wins[a] > 0)
                .map(|&a| format!("{} {}", self.agents[a], level.wins[a]))
                .collect();
            let draws = if level.draws > 0 { format!(", draws {}", level.draws) } else { String::new() };
            out += &format!(
                "  {} ({} seats): {}/{} games; {}{draws}\n",
                level.path,
                level.seats,
                level.played,
                level.planned,
                if wins.is_empty() { "no wins".to_owned() } else { wins.join(", ") }
            );
        }
        out
    }
}
