//! An arena's run, for `tabula arena` and the window's Arena screen
//! (`app::arena_screen`): plays an arena's games (all of them, or a shard),
//! writing each finished game to SQLite, resuming where a stopped run left
//! off; then rates the agents from the whole table (`report`). What an
//! arena file holds is the engine's (`tabula_engine::arena`).

mod command;
pub mod html;
pub mod report;
pub mod sprt;
pub mod store;

pub use command::{ArenaArgs, run as run_command};

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::SyncSender;
use std::time::{Duration, Instant};

use anyhow::Context;
use indicatif::{ProgressBar, ProgressState, ProgressStyle};
use tabula_engine::arena::{Arena, Part};
use tabula_engine::core::runner::{self, MatchConfig};
use tabula_engine::games::{self, MatchRecord};
use tabula_engine::level;

use store::{Row, Seating, Store};

/// Rows written together: one transaction each, or sooner when this long
/// has passed since the last (a kill loses at most that much play).
const BATCH_ROWS: usize = 20_000;
const BATCH_TIME: Duration = Duration::from_millis(500);

/// What a run did.
pub struct Played {
    /// Games the database held for the run's parts before it started.
    pub resumed: u64,
    /// Seconds spent finding where each part stopped.
    pub resume_seconds: f64,
    pub played: u64,
    pub seconds: f64,
}

/// The arena as a database remembers it: everything that decides how a
/// game is played (the seed, each level, each agent's name and specs). A
/// database of another arena (or of this one changed so) is refused. Not
/// its name, nor `games`: game i of a pairing is the same game whatever
/// the count, so more games go on from those played, and fewer leave the
/// rest out of the report.
pub fn identity(arena: &Arena) -> String {
    let mut text = format!("arena seed {}\n", arena.seed);
    for level in &arena.levels {
        text += &format!("level {}\n{}\n", level.path, level::to_ron(&level.level));
        for (name, spec) in arena.agents.iter().zip(&level.specs) {
            text += &format!("  {name}: {spec}\n");
        }
    }
    text
}

/// The database a run writes when none is given: beside the arena file,
/// one a shard.
pub fn default_db(arena_file: &Path, shard: Option<(u64, u64)>) -> PathBuf {
    let stem = arena_file.file_stem().and_then(|s| s.to_str()).unwrap_or("arena");
    let name = match shard {
        Some((i, n)) => format!("{stem}.shard-{}-of-{n}.db", i + 1),
        None => format!("{stem}.db"),
    };
    arena_file.with_file_name(name)
}

/// The live table of a run: games done of `total`, the rate, the time
/// left, and what is being played (hidden when `live` is false).
pub fn progress_bar(total: u64, live: bool) -> ProgressBar {
    let bar = if live { ProgressBar::new(total) } else { ProgressBar::hidden() };
    bar.set_style(
        ProgressStyle::with_template("{bar:30} {pos}/{len} games  {rate}  eta {eta}  {msg}")
            .expect("valid template")
            .with_key("rate", |state: &ProgressState, w: &mut dyn std::fmt::Write| {
                let _ = write!(w, "{:.0} games/s", state.per_sec());
            }),
    );
    bar
}

/// Plays `parts` of `arena` not yet in `store`, in order, each game a row,
/// counting the games on `bar` (those already stored too). With `stop`, it
/// stops soon after `stop` is set (every game played by then is written).
pub fn play(
    arena: &Arena,
    parts: &[Part],
    store: &mut Store,
    jobs: usize,
    bar: &ProgressBar,
    stop: Option<&Arc<AtomicBool>>,
) -> anyhow::Result<Played> {
    let looking = Instant::now();
    let done = store.done(parts)?;
    let resumed: u64 = done.iter().sum();
    let resume_seconds = looking.elapsed().as_secs_f64();
    bar.inc(resumed);
    let start = Instant::now();
    // SQLite writes on a thread of its own while the games are played and
    // turned into rows; a batch or two wait at most, so memory stays bounded.
    let (batches, written) = std::sync::mpsc::sync_channel::<Vec<Row>>(2);
    let (commits, committed) = std::sync::mpsc::channel();
    let checkpointer = store.checkpointer()?;
    // What is left of each part, from its first game not played, with its
    // seatings written before its games: a row names its seating by id.
    let mut left = Vec::new();
    for (part, done) in parts.iter().zip(&done) {
        let first = part.games.start + done;
        if first < part.games.end {
            left.push(Left { part, first, seatings: store.seatings(&seatings_of(arena, part))? });
        }
    }
    let played = std::thread::scope(|scope| {
        scope.spawn(move || checkpointer.run(committed));
        let writer = scope.spawn(move || {
            for rows in written {
                store.write(&rows)?;
                let _ = commits.send(());
            }
            anyhow::Ok(())
        });
        let played = play_parts(arena, &left, jobs, bar, stop, &batches);
        drop(batches);
        // A failed write is what stopped the play, if anything did.
        writer.join().expect("the writer does not panic")?;
        played
    })?;
    Ok(Played { resumed, resume_seconds, played, seconds: start.elapsed().as_secs_f64() })
}

/// What a run plays of a part: its games from `first` on, seated as the
/// ids of `seatings` say (one a game of a round).
struct Left<'a> {
    part: &'a Part,
    first: u64,
    seatings: Vec<i64>,
}

/// Plays what is `left` of each part, handing the rows to `batches` in
/// order; the number of games played.
fn play_parts(
    arena: &Arena,
    left: &[Left],
    jobs: usize,
    bar: &ProgressBar,
    stop: Option<&Arc<AtomicBool>>,
    batches: &SyncSender<Vec<Row>>,
) -> anyhow::Result<u64> {
    let mut played = 0;
    let mut playing = None;
    for &Left { part, first, ref seatings } in left {
        follow_level(bar, &mut playing, part.level);
        let level = &arena.levels[part.level];
        let pairing = &level.pairings[part.pairing];
        let names: Vec<&str> = pairing.iter().map(|&a| arena.agents[a].as_str()).collect();
        bar.set_message(format!("{} on {}", names.join(" vs "), level.path));
        let specs: Vec<_> = pairing.iter().map(|&a| level.specs[a].clone()).collect();
        let config = MatchConfig {
            games: part.games.end,
            first,
            seed: arena.pairing_seed(part.level, part.pairing),
            jobs,
            record_moves: true,
            paired: true,
            // Stopped, the runner starts no more chunks and hands over a
            // prefix of the games: what a resumed run goes on from.
            stop: stop.cloned(),
        };
        let mut rows = Vec::with_capacity(BATCH_ROWS);
        let mut last_sent = Instant::now();
        // A closed channel: the writer failed, and says why when joined.
        let mut closed = false;
        let mut sink = |r: MatchRecord| {
            // The clock is read after a game of a tenth of a millisecond or
            // more, or every 256 games: the quickest games take less time
            // than reading it.
            let look = r.micros >= 100 || rows.len() % 256 == 255;
            rows.push(Row {
                level: part.level,
                pairing: part.pairing,
                game: r.game,
                seed: r.seed,
                // Game i is seated as `seating(n, i)`, which repeats every round.
                seating: seatings[(r.game % seatings.len() as u64) as usize],
                winner_seat: r.winner_seat,
                scores: r.score,
                plies: r.plies,
                moves: r.moves,
                micros: r.micros,
            });
            played += 1;
            if !closed && (rows.len() >= BATCH_ROWS || (look && last_sent.elapsed() >= BATCH_TIME)) {
                closed = batches.send(std::mem::replace(&mut rows, Vec::with_capacity(BATCH_ROWS))).is_err();
                last_sent = Instant::now();
            }
        };
        games::play_match(&level.level, &specs, &config, &mut sink, &|n| bar.inc(n))
            .with_context(|| format!("{} on {}", names.join(" vs "), level.path))?;
        if closed || batches.send(rows).is_err() || stop.is_some_and(|s| s.load(Ordering::Relaxed)) {
            break;
        }
    }
    Ok(played)
}

/// The bar's rate (and time left) starts again when the games turn to
/// another level: the quickest games take microseconds, a card deal
/// played with lookahead most of a second, and a rate carried over would say "eta 0s".
/// The terminal's bar and the window's Arena screen both read this rate.
fn follow_level(bar: &ProgressBar, playing: &mut Option<usize>, level: usize) {
    if playing.replace(level) != Some(level) {
        bar.reset_eta();
    }
}

/// The seatings of `part`'s games: one a game of a round, in order
/// (`runner::seating`), each with the names and specs as JSON.
fn seatings_of(arena: &Arena, part: &Part) -> Vec<Seating> {
    let level = &arena.levels[part.level];
    let pairing = &level.pairings[part.pairing];
    let n = pairing.len();
    (0..runner::round(n))
        .map(|k| {
            let agents: Vec<usize> = runner::seating(n, k).iter().map(|&seat| pairing[seat]).collect();
            Seating {
                level: part.level,
                level_path: level.path.clone(),
                seats: json(&agents.iter().map(|&a| &arena.agents[a]).collect::<Vec<_>>()),
                agents: json(&agents.iter().map(|&a| level.specs[a].to_string()).collect::<Vec<_>>()),
            }
        })
        .collect()
}

/// Names or specs as a JSON list.
fn json(items: &[impl serde::Serialize]) -> String {
    serde_json::to_string(items).expect("strings serialise")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_rate_starts_again_with_each_level() {
        let bar = ProgressBar::hidden();
        bar.set_length(100_000);
        let mut playing = None;
        follow_level(&bar, &mut playing, 0);
        for _ in 0..40 {
            bar.inc(100);
            std::thread::sleep(Duration::from_millis(2));
        }
        let nim = bar.per_sec();
        assert!(nim > 1000.0, "{nim}");
        follow_level(&bar, &mut playing, 0);
        assert!(bar.per_sec() > nim / 2.0, "the same level keeps its rate");
        follow_level(&bar, &mut playing, 1);
        let bank = bar.per_sec();
        assert!(
            bank.is_finite() && bank < nim / 100.0,
            "the Nim games are no measure of Russian Bank's: {bank}"
        );
    }
}
