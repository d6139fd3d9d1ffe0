//! `tabula arena <arena.ron> --sprt A:B:E`: plays only A against B, on
//! every two-seat level of the arena, a slice of paired games at a time,
//! until a sequential probability ratio test on the pairs decides "A is at
//! least E Elo stronger than B" or "A is not stronger", or the arena's
//! games for the pairing run out. The games are the arena's own (the same
//! seeds and seats), written to its database like any run's: a test stopped
//! goes on where it stopped, and a later whole run keeps them.

use std::fmt::Write as _;
use std::ops::Range;

use indicatif::ProgressBar;
use tabula_engine::arena::{Arena, Part};
use tabula_engine::core::ratings::{Pentanomial, Sprt, Verdict};

use super::store::Store;

/// Games of each level played between two looks at the test: 32 pairs.
/// The test may overshoot its bound by at most that much play.
const SLICE: u64 = 64;

/// A test as the command line asks for it.
#[derive(Clone, Debug, PartialEq)]
pub struct SprtArgs {
    pub a: String,
    pub b: String,
    /// A's advantage over B: `elo1` against `elo0`.
    pub test: Sprt,
}

/// `A:B:E` (A at least E Elo stronger than B, against not stronger) or
/// `A:B:E0:E1` (at least E1, against at most E0).
pub fn parse(text: &str) -> Result<(String, String, f64, f64), String> {
    let bad = || {
        format!(
            "--sprt is A:B:E (is agent A at least E Elo stronger than agent B?) or A:B:E0:E1, \
             such as best:searcher:50, not {text:?}"
        )
    };
    let fields: Vec<&str> = text.split(':').map(str::trim).collect();
    let elo = |t: &str| t.parse::<f64>().ok().filter(|e| e.is_finite()).ok_or_else(bad);
    let (a, b, elo0, elo1) = match fields[..] {
        [a, b, e] => (a, b, 0.0, elo(e)?),
        [a, b, e0, e1] => (a, b, elo(e0)?, elo(e1)?),
        _ => return Err(bad()),
    };
    if a.is_empty() || b.is_empty() {
        return Err(bad());
    }
    if a == b {
        return Err(format!("--sprt needs two different agents, not {a:?} twice"));
    }
    if elo1 <= elo0 {
        return Err(format!(
            "--sprt {text:?}: the Elo to show ({elo1}) must be above the one to refute ({elo0})"
        ));
    }
    Ok((a.to_owned(), b.to_owned(), elo0, elo1))
}

/// Where a test stands.
pub struct Standing {
    pub pairs: Pentanomial,
    pub llr: f64,
    pub verdict: Verdict,
    /// Games of the pairing left to play when it stopped.
    pub left: u64,
}

/// The test's parts: A against B on every two-seat level (all their games).
fn parts(arena: &Arena, a: usize, b: usize) -> Vec<Part> {
    let pair = [a.min(b), a.max(b)];
    let mut parts = Vec::new();
    for (l, level) in arena.levels.iter().enumerate() {
        if level.seats != 2 {
            continue;
        }
        if let Some(pairing) = level.pairings.iter().position(|p| p[..] == pair) {
            parts.push(Part { level: l, pairing, games: 0..level.games });
        }
    }
    parts
}

/// Adds to `pairs` the pairs among games `games` of `part` (games 2k and
/// 2k + 1 of a pairing share a seed, the seats swapped), counted by the
/// half points A took from them; a pair with a game missing is not counted.
fn count(
    store: &Store,
    part: &Part,
    games: Range<u64>,
    a: usize,
    pairs: &mut Pentanomial,
) -> anyhow::Result<()> {
    let games = store.games_of(part.level, part.pairing, games)?;
    let halves = |o: &super::store::Outcome| match o.winner_seat {
        None => 1,
        Some(w) if o.seats.get(w as usize - 1) == Some(&a) => 2,
        Some(_) => 0,
    };
    for two in games.windows(2) {
        let (first, second) = (&two[0], &two[1]);
        if first.game.is_multiple_of(2) && second.game == first.game + 1 && second.game < part.games.end {
            pairs.add(halves(first) + halves(second));
        }
    }
    Ok(())
}

/// Plays the test to its verdict (or to the end of the arena's games for
/// the pairing); with `play_on` false, only reads where the database stands.
pub fn run(
    arena: &Arena,
    store: &mut Store,
    args: &SprtArgs,
    jobs: usize,
    bar: &ProgressBar,
    play_on: bool,
) -> anyhow::Result<Standing> {
    let agent = |name: &str| {
        arena.agents.iter().position(|n| n == name).ok_or_else(|| {
            anyhow::anyhow!("--sprt: the arena has no agent {name:?} (it has {})", arena.agents.join(", "))
        })
    };
    let (a, b) = (agent(&args.a)?, agent(&args.b)?);
    let parts = parts(arena, a, b);
    if parts.is_empty() {
        anyhow::bail!(
            "--sprt: no level of the arena seats two players, so {} never meets {} alone",
            args.a,
            args.b
        );
    }
    let sprt = args.test;
    bar.set_length(parts.iter().map(|p| p.games.end).sum());
    // The pairs of each part's games up to its first missing one, counted
    // once; each turn adds those its games complete, not all read again.
    let mut done = store.done(&parts)?;
    let mut pairs = Pentanomial::default();
    for (part, &done) in parts.iter().zip(&done) {
        count(store, part, 0..done, a, &mut pairs)?;
    }
    // The levels take turns, a slice each, the test looked at after each.
    let mut turn = 0;
    loop {
        let verdict = sprt.verdict(&pairs);
        let left = parts.iter().map(|p| p.games.end).sum::<u64>() - done.iter().sum::<u64>();
        if verdict != Verdict::Undecided || left == 0 || !play_on {
            return Ok(Standing { pairs, llr: sprt.llr(&pairs), verdict, left });
        }
        let k = (turn..turn + parts.len())
            .map(|k| k % parts.len())
            .find(|&k| done[k] < parts[k].games.end)
            .expect("games are left");
        turn = k + 1;
        let part = &parts[k];
        let next = Part { games: done[k]..(done[k] + SLICE).min(part.games.end), ..part.clone() };
        bar.set_position(done.iter().sum());
        super::play(arena, std::slice::from_ref(&next), store, jobs, bar, None)?;
        // Every game of the slice is written; the games held after it (a
        // merged shard's) join the part's first ones too.
        let after = Part { games: next.games.end..part.games.end, ..part.clone() };
        let reached = next.games.end + store.done(&[after])?[0];
        // From the pair the old end cut, if it did.
        count(store, part, done[k] / 2 * 2..reached, a, &mut pairs)?;
        done[k] = reached;
    }
}

/// The test's report: hypotheses, pairs, the log-likelihood ratio against
/// its bounds, A's advantage in Elo, and the verdict.
pub fn text(args: &SprtArgs, s: &Standing) -> String {
    let sprt = args.test;
    let (lower, upper) = sprt.bounds();
    let (a, b) = (&args.a, &args.b);
    let mut out = format!(
        "SPRT {a} against {b}: is {a} at least {:+} Elo stronger (H1) or at most {:+} (H0)? \
         alpha {}, beta {}\n",
        sprt.elo1, sprt.elo0, sprt.alpha, sprt.beta
    );
    let p = s.pairs.0;
    let _ = writeln!(
        out,
        "  {} pairs ({} games); {a}'s points a pair: 0: {}, 0.5: {}, 1: {}, 1.5: {}, 2: {}",
        s.pairs.pairs(),
        s.pairs.pairs() * 2,
        p[0],
        p[1],
        p[2],
        p[3],
        p[4]
    );
    let _ = writeln!(out, "  LLR {:.2} (stops below {lower:.2} or above {upper:.2})", s.llr);
    let n = s.pairs.pairs();
    match s.pairs.elo() {
        // + 0.0: an even score prints as +0.0, not -0.0.
        Some((elo, interval)) => {
            let _ = writeln!(out, "  {a} - {b}: {:+.1} ± {interval:.1} Elo (95%)", elo + 0.0);
        }
        None if n > 1 && (p[4] == n || p[0] == n) => {
            let (winner, loser) = if p[4] == n { (a, b) } else { (b, a) };
            let _ = writeln!(
                out,
                "  {winner} won every game against {loser}: no finite Elo difference explains it"
            );
        }
        None => {}
    }
    if n > 1 && p[2] == n {
        let _ = writeln!(
            out,
            "  Every pair split its points: each deal went to the same seat both times, as between identical \
             agents (or agents without chance on a level without it); with no spread to weigh, the test \
             decides at once."
        );
    }
    let errors = format!("wrong at most {:.0}% / {:.0}% of the time", sprt.alpha * 100.0, sprt.beta * 100.0);
    let _ = match s.verdict {
        Verdict::Stronger => writeln!(
            out,
            "H1 accepted: the pairs favour {a} being {:+} Elo stronger than {b} over {:+} ({errors}).",
            sprt.elo1, sprt.elo0
        ),
        Verdict::NotStronger => writeln!(
            out,
            "H0 accepted: the pairs favour {a} being at most {:+} Elo stronger than {b} over {:+} ({errors}).",
            sprt.elo0, sprt.elo1
        ),
        Verdict::Undecided if s.left == 0 => writeln!(
            out,
            "Undecided: the arena's games for {a} against {b} ran out first (raise `games` in the arena \
             file: the games played are kept)."
        ),
        Verdict::Undecided => writeln!(out, "Undecided so far: {} games left to play.", s.left),
    };
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_test_is_two_agents_and_the_elo_to_show() {
        assert_eq!(parse("best:searcher:50"), Ok(("best".into(), "searcher".into(), 0.0, 50.0)));
        assert_eq!(parse("a : b : -5 : 5"), Ok(("a".into(), "b".into(), -5.0, 5.0)));
        for bad in ["best:searcher", "best:searcher:x", "best::5", "a:b:5:0", "a:a:5", "a:b:1:2:3", "a:b:inf"]
        {
            assert!(parse(bad).is_err(), "{bad}");
        }
    }
}
