//! The standings as the screen writes them, row by row, strongest first:
//! the Elo table, the crosstable, the Weng-Lin table and the levels; and a
//! run's progress and end in words. Pure, so tests read what is shown.

use std::path::Path;
use std::time::Duration;

use tabula_engine::arena::Arena;

use super::run::{Ending, Progress};
use crate::arena_run::report::{Standings, elo_shown, strongest_first};

/// A row of the Elo table.
#[derive(Clone, Debug, PartialEq)]
pub struct EloRow {
    pub place: usize,
    pub agent: usize,
    /// "+123.4 ± 45.6", or that the agent has met nobody yet.
    pub rating: String,
    /// "62.5%" of the points of its two-seat games.
    pub score: String,
    pub games: u64,
}

/// The Elo table, strongest first.
pub fn elo_rows(s: &Standings) -> Vec<EloRow> {
    s.order()
        .into_iter()
        .enumerate()
        .map(|(place, a)| {
            let (games, score) = s.score(a);
            EloRow {
                place: place + 1,
                agent: a,
                rating: elo_shown(s.ratings[a], 1),
                score: score.map_or_else(|| "-".into(), |score| format!("{score:.1}%")),
                games,
            }
        })
        .collect()
}

/// The crosstable's cells, rows and columns strongest first: the row's
/// score against the column and the games ("62.5% of 40"), empty where they
/// have not met, `None` on the diagonal.
pub fn crosstable(s: &Standings) -> Vec<Vec<Option<String>>> {
    let order = s.order();
    order
        .iter()
        .map(|&a| {
            order
                .iter()
                .map(|&b| match (a == b, s.against(a, b)) {
                    (true, _) => None,
                    (false, None) => Some(String::new()),
                    (false, Some((score, g))) => Some(format!("{score:.1}% of {g}")),
                })
                .collect()
        })
        .collect()
}

/// The Weng-Lin table, strongest first: agent and "25.31 ± 1.20"; `None`
/// without games of more than two seats.
pub fn weng_lin_rows(s: &Standings) -> Option<Vec<(usize, String)>> {
    let multi = s.multi.as_ref()?;
    let order = strongest_first(&multi.iter().map(|m| m.0).collect::<Vec<_>>());
    Some(order.into_iter().map(|a| (a, format!("{:.2} ± {:.2}", multi[a].0, multi[a].1))).collect())
}

/// "4 agents · 3 levels · 360 games".
pub fn arena_summary(arena: &Arena) -> String {
    let plural = |n: usize, one: &str, many: &str| format!("{n} {}", if n == 1 { one } else { many });
    format!(
        "{} · {} · {} games",
        plural(arena.agents.len(), "agent", "agents"),
        plural(arena.levels.len(), "level", "levels"),
        arena.total_games()
    )
}

/// A time left, as people say it: "42 s", "3 min 05 s", "2 h 10 min".
pub fn duration_text(d: Duration) -> String {
    let s = d.as_secs();
    match s {
        0..60 => format!("{s} s"),
        60..3600 => format!("{} min {:02} s", s / 60, s % 60),
        _ => format!("{} h {:02} min", s / 3600, s % 3600 / 60),
    }
}

/// The progress line under the bar: the rate, the time left, the pairing.
pub fn progress_text(p: &Progress) -> String {
    let left = match p.left {
        Some(left) if p.done < p.total && left < Duration::from_secs(1) => "under a second left".to_owned(),
        Some(left) if p.done < p.total => format!("about {} left", duration_text(left)),
        _ if p.done >= p.total => "every game played".to_owned(),
        _ => "time left: after the first games".to_owned(),
    };
    let now = if p.pairing.is_empty() { String::new() } else { format!(" · now {}", p.pairing) };
    format!("{:.0} games/s · {left}{now}", p.per_second)
}

/// How a run ended, with its totals.
pub fn ending_text(ending: &Ending, resumed: u64, total: u64, db: &Path) -> String {
    match ending {
        Ending::Played { played, seconds, stopped } => {
            let held = resumed + played;
            let rate = *played as f64 / seconds.max(1e-9);
            let games = match played {
                0 => "no game played".to_owned(),
                _ => format!("{played} games played in {seconds:.1} s ({rate:.0} games/s)"),
            };
            if *stopped {
                format!("Stopped: {games}; {held} of {total} are in {}: Resume plays the rest", db.display())
            } else {
                format!(
                    "Finished: {games}, {resumed} were in {} before; all {total} games are in",
                    db.display()
                )
            }
        }
        Ending::Read => format!("Read from {}", db.display()),
        Ending::Failed(why) => format!("The run failed: {why}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::arena_run::report::NOT_RATED;
    use tabula_engine::core::ratings::Rating;

    fn standings() -> Standings {
        // b beat a 3 games of 4; c met nobody.
        Standings {
            agents: vec!["a".into(), "b".into(), "c".into()],
            ratings: vec![
                Rating { elo: -80.0, interval: 300.0 },
                Rating { elo: 80.0, interval: 300.0 },
                Rating { elo: 0.0, interval: f64::INFINITY },
            ],
            points: vec![vec![0.0, 1.0, 0.0], vec![3.0, 0.0, 0.0], vec![0.0; 3]],
            games: vec![vec![0, 4, 0], vec![4, 0, 0], vec![0; 3]],
            levels: Vec::new(),
            multi: None,
        }
    }

    #[test]
    fn the_tables_go_strongest_first_and_an_agent_alone_is_not_rated() {
        let s = standings();
        let rows = elo_rows(&s);
        assert_eq!(rows.iter().map(|r| r.agent).collect::<Vec<_>>(), [1, 2, 0]);
        assert_eq!(rows[0].rating, "+80.0 ± 300.0");
        assert_eq!((rows[0].score.as_str(), rows[0].games), ("75.0%", 4));
        assert_eq!((rows[1].rating.as_str(), rows[1].score.as_str()), (NOT_RATED, "-"));
        let cells = crosstable(&s);
        assert_eq!(cells[0], [None, Some(String::new()), Some("75.0% of 4".into())]);
        assert_eq!(cells[2][0], Some("25.0% of 4".into()));
        assert!(s.has_two_seat_games() && weng_lin_rows(&s).is_none());
    }

    #[test]
    fn the_end_of_a_run_says_what_is_in_the_database() {
        let db = Path::new("a.db");
        let stopped = Ending::Played { played: 40, seconds: 2.0, stopped: true };
        assert_eq!(
            ending_text(&stopped, 100, 360, db),
            "Stopped: 40 games played in 2.0 s (20 games/s); 140 of 360 are in a.db: Resume plays the rest"
        );
        let finished = Ending::Played { played: 260, seconds: 2.0, stopped: false };
        assert!(ending_text(&finished, 100, 360, db).starts_with("Finished: 260 games played"));
        let at_once = Ending::Played { played: 0, seconds: 0.0, stopped: true };
        assert_eq!(
            ending_text(&at_once, 100, 360, db),
            "Stopped: no game played; 100 of 360 are in a.db: Resume plays the rest"
        );
        assert_eq!(duration_text(Duration::from_secs(185)), "3 min 05 s");
        assert_eq!(duration_text(Duration::from_secs(7800)), "2 h 10 min");
    }
}
