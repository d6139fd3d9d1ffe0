//! What an arena's table of results says: Elo ratings with 95% intervals
//! from every two-seat game (maximum likelihood over the whole table), a
//! crosstable of scores between agents, Weng-Lin ratings from the games of
//! more than two seats (the winner first, the others tied behind), and each
//! level's wins by agent.

use skillratings::MultiTeamOutcome;
use skillratings::weng_lin::{WengLinConfig, WengLinRating, weng_lin_multi_team};

use tabula_engine::arena::Arena;
use tabula_engine::core::ratings::{self, PairResults, Rating, Z95};

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
    /// Weng-Lin rating (mean, and the half-width of its 95% interval) by
    /// agent from games of more than two seats; `None` without such games.
    pub multi: Option<Vec<(f64, f64)>>,
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
    let mut weng_lin = vec![WengLinRating::new(); n];
    let mut multi_games = 0;
    for row in rows {
        let Some(level) = levels.get_mut(row.level) else { continue };
        // Games past the arena's count (`games` lowered since) are left out.
        if row.game >= arena.levels[row.level].games {
            continue;
        }
        if row.seats.len() > 2 {
            // Games in the table's order (level, pairing, game), whoever
            // played them first: the same table gives the same ratings.
            multi_games += 1;
            let teams: Vec<[WengLinRating; 1]> = row.seats.iter().map(|&a| [weng_lin[a]]).collect();
            let ranked: Vec<(&[WengLinRating], MultiTeamOutcome)> = teams
                .iter()
                .enumerate()
                .map(|(seat, team)| {
                    let first = row.winner_seat.is_none_or(|w| w as usize == seat + 1);
                    (&team[..], MultiTeamOutcome::new(if first { 1 } else { 2 }))
                })
                .collect();
            for (&a, new) in row.seats.iter().zip(weng_lin_multi_team(&ranked, &WengLinConfig::new())) {
                weng_lin[a] = new[0];
            }
        }
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
    let multi = (multi_games > 0).then(|| weng_lin.iter().map(|r| (r.rating, Z95 * r.uncertainty)).collect());
    Standings { agents: arena.agents.clone(), ratings: ratings::elo(n, &pairs), points, games, levels, multi }
}

impl Standings {
    /// The games these standings count.
    pub fn rated(&self) -> u64 {
        self.levels.iter().map(|l| l.played).sum()
    }

    /// Two-seat games have been played: there are Elo ratings and a
    /// crosstable to show.
    pub fn has_two_seat_games(&self) -> bool {
        self.games.iter().flatten().any(|&g| g > 0)
    }

    /// Agent `a`'s two-seat games, and the share of their points it took
    /// in percent (`None` before it has played one).
    pub fn score(&self, a: usize) -> (u64, Option<f64>) {
        let games: u64 = self.games[a].iter().sum();
        let points: f64 = self.points[a].iter().sum();
        (games, (games > 0).then(|| 100.0 * points / games as f64))
    }

    /// What `a` scored against `b` in percent, and their games; `None`
    /// when they have not met.
    pub fn against(&self, a: usize, b: usize) -> Option<(f64, u64)> {
        let g = self.games[a][b];
        (g > 0).then(|| (100.0 * self.points[a][b] / g as f64, g))
    }

    /// Agents, strongest first by Elo.
    pub fn order(&self) -> Vec<usize> {
        strongest_first(&self.ratings.iter().map(|r| r.elo).collect::<Vec<_>>())
    }

    /// The ratings, the crosstable and the levels, as the terminal shows them.
    pub fn text(&self, arena: &Arena) -> String {
        let width = self.agents.iter().map(String::len).max().unwrap_or(5).max(5);
        let mut out =
            format!("{}: {} agents, {} levels\n", arena.name, self.agents.len(), arena.levels.len());
        if self.has_two_seat_games() {
            out += "\nElo (two-seat games of every level; 95% interval; mean 0):\n";
            for (place, &a) in self.order().iter().enumerate() {
                let (played, score) = self.score(a);
                let score = score.unwrap_or(0.0);
                let r = self.ratings[a];
                let rating = match r.interval.is_finite() {
                    true => format!("{:+7.1} ± {:5.1}", r.elo, r.interval),
                    false => format!("{NOT_RATED:>15}"),
                };
                out += &format!(
                    "  {:>2}. {:width$}  {rating}   scored {score:5.1}% of {played} games\n",
                    place + 1,
                    self.agents[a],
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
                    let cell = match (a == b, self.against(a, b)) {
                        (true, _) => "-".to_owned(),
                        (false, None) => "".to_owned(),
                        (false, Some((score, g))) => format!("{score:.1}% /{g}"),
                    };
                    out += &format!("  {cell:>12}");
                }
                out += "\n";
            }
        }
        if let Some(multi) = &self.multi {
            out += "\nWeng-Lin (games of more than two seats, the winner first and the rest tied; 95% interval; 25 to start):\n";
            for (place, &a) in
                strongest_first(&multi.iter().map(|m| m.0).collect::<Vec<_>>()).iter().enumerate()
            {
                out += &format!(
                    "  {:>2}. {:width$}  {:7.2} ± {:5.2}\n",
                    place + 1,
                    self.agents[a],
                    multi[a].0,
                    multi[a].1
                );
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

/// What an agent that has met nobody yet shows instead of a rating.
pub const NOT_RATED: &str = "met nobody yet";

/// An Elo rating as "+61.2 ± 20.3" (`digits` after the point), or
/// `NOT_RATED` for an agent that has met nobody (its interval is endless).
pub fn elo_shown(r: Rating, digits: usize) -> String {
    if r.interval.is_finite() {
        format!("{:+.digits$} ± {:.digits$}", r.elo, r.interval)
    } else {
        NOT_RATED.to_owned()
    }
}

/// Agents by `rating`, highest first.
pub fn strongest_first(rating: &[f64]) -> Vec<usize> {
    let mut order: Vec<usize> = (0..rating.len()).collect();
    order.sort_by(|&x, &y| rating[y].total_cmp(&rating[x]));
    order
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use super::*;

    fn arena() -> Arena {
        let text = r#"Arena(name: "t", games: 2,
            agents: [(name: "a", agent: "random"), (name: "b", agent: "random"), (name: "c", agent: "random"), (name: "d", agent: "random")],
            levels: ["levels/nim/mcmorran-5-6-7.ron", "levels/robots/10-four-player-race.ron"])"#;
        let file = std::env::temp_dir().join(format!("tabula-report-{}.ron", std::process::id()));
        let root = std::env::var("CARGO_MANIFEST_DIR").unwrap();
        std::fs::write(&file, text.replace("levels/", &format!("{root}/levels/"))).unwrap();
        let arena = Arena::load(Path::new(&file)).unwrap();
        std::fs::remove_file(file).unwrap();
        arena
    }

    #[test]
    fn the_table_rates_two_seat_games_by_elo_and_more_seats_by_weng_lin() {
        let arena = arena();
        let two = |a, b, winner_seat| Outcome { level: 0, game: 0, seats: vec![a, b], winner_seat };
        let four = |seats: [usize; 4], winner: usize| Outcome {
            level: 1,
            game: 0,
            seats: seats.to_vec(),
            winner_seat: Some(seats.iter().position(|&s| s == winner).unwrap() as u8 + 1),
        };
        // a beats b 3 games of 4 from either seat, one drawn; c wins every four-seat game.
        let mut rows = vec![two(0, 1, Some(1)), two(1, 0, Some(2)), two(0, 1, Some(1)), two(1, 0, None)];
        rows.extend([[0, 1, 2, 3], [3, 2, 1, 0], [1, 3, 0, 2]].map(|seats| four(seats, 2)));
        let s = standings(&arena, &rows);
        assert_eq!((s.points[0][1], s.games[0][1]), (3.5, 4), "a draw is half a point");
        assert_eq!((s.points[1][0], s.games[1][0]), (0.5, 4));
        assert!(s.ratings[0].elo > s.ratings[1].elo && s.ratings[0].elo > 0.0);
        assert_eq!(s.levels[0].played, 4);
        assert_eq!((s.levels[0].wins[0], s.levels[0].draws), (3, 1));
        let multi = s.multi.clone().expect("four-seat games are rated");
        assert!(
            multi[2].0 > 25.0 && (0..4).filter(|&a| a != 2).all(|a| multi[a].0 < multi[2].0),
            "{multi:?}"
        );
        assert_eq!(s.levels[1].wins[2], 3);
        let text = s.text(&arena);
        // c and d played no two-seat game: no Elo, said so, in the text and the page.
        assert!(text.contains(NOT_RATED) && !text.contains("inf"), "{text}");
        let page = super::super::html::page(&arena, &s);
        assert!(page.contains(NOT_RATED) && !page.contains("NaN") && !page.contains("inf"), "{page}");
        assert!(
            text.contains("Weng-Lin") && text.contains("Crosstable") && text.contains("87.5% /4"),
            "{text}"
        );
        let page = crate::arena_run::html::page(&arena, &s);
        assert_eq!(page.matches("<circle").count(), 8, "a point an agent in each of the two plots");
        assert!(page.contains("<td>87.5% of 4</td>") && page.contains("<svg"));
    }
}
