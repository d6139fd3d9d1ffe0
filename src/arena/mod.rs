//! `tabula arena`: plays an arena's games (all of them, or a shard),
//! writing each finished game to SQLite, resuming where a stopped run left
//! off; then rates the agents from the whole table (`report`).

mod command;
pub mod html;
pub mod report;
pub mod store;

pub use command::{ArenaArgs, run as run_command};

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use anyhow::Context;
use indicatif::{ProgressBar, ProgressStyle};
use tabula_engine::arena::{Arena, Part};
use tabula_engine::core::runner::MatchConfig;
use tabula_engine::games::{self, MatchRecord};
use tabula_engine::level;

use store::{Row, Store};

/// Rows written together: one transaction each, or sooner when this long
/// has passed since the last (a kill loses at most that much play).
const BATCH_ROWS: usize = 20_000;
const BATCH_TIME: Duration = Duration::from_millis(500);

/// What a run did.
pub struct Played {
    /// Games the database held for the run's parts before it started.
    pub resumed: u64,
    pub played: u64,
    pub seconds: f64,
}

/// The arena as a database remembers it: everything that decides what is
/// played. A database of another arena (or of this one changed) is refused.
pub fn identity(arena: &Arena) -> String {
    let mut text = format!("arena {:?} seed {}\n", arena.name, arena.seed);
    for level in &arena.levels {
        text += &format!("level {} games {}\n{}\n", level.path, level.games, level::to_ron(&level.level));
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

/// Plays `parts` of `arena` not yet in `store`, in order, each game a row.
pub fn play(
    arena: &Arena,
    parts: &[Part],
    store: &mut Store,
    jobs: usize,
    live: bool,
) -> anyhow::Result<Played> {
    let total: u64 = parts.iter().map(|p| p.games.end - p.games.start).sum();
    let mut done = Vec::with_capacity(parts.len());
    for part in parts {
        done.push(store.done_from(part.level, part.pairing, part.games.start, part.games.end)?);
    }
    let resumed: u64 = done.iter().sum();
    let bar = if live { ProgressBar::new(total) } else { ProgressBar::hidden() };
    bar.set_style(
        ProgressStyle::with_template("{bar:30} {pos}/{len} games  {per_sec}  eta {eta}  {msg}")
            .expect("valid template"),
    );
    bar.set_position(resumed);
    let start = Instant::now();
    let mut played = 0;
    for (part, &done) in parts.iter().zip(&done) {
        let first = part.games.start + done;
        if first >= part.games.end {
            continue;
        }
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
        };
        let mut rows = Vec::new();
        let mut last_write = Instant::now();
        let mut failed = None;
        let mut sink = |r: &MatchRecord| {
            rows.push(Row {
                level: part.level,
                pairing: part.pairing,
                game: r.game,
                level_path: level.path.clone(),
                seed: r.seed,
                seats: r.seat_agents.iter().map(|&k| pairing[k]).collect(),
                agents: r.seats.clone(),
                winner_seat: r.winner_seat,
                scores: r.score.clone(),
                plies: r.plies,
                moves: r.moves.to_string(),
                micros: r.micros,
            });
            if failed.is_none() && (rows.len() >= BATCH_ROWS || last_write.elapsed() >= BATCH_TIME) {
                failed = store.write(&rows).err();
                rows.clear();
                last_write = Instant::now();
            }
        };
        games::play_match(&level.level, &specs, &config, &mut sink, &|n| bar.inc(n))
            .with_context(|| format!("{} on {}", names.join(" vs "), level.path))?;
        if let Some(e) = failed {
            return Err(e);
        }
        store.write(&rows)?;
        played += part.games.end - first;
    }
    bar.finish_and_clear();
    Ok(Played { resumed, played, seconds: start.elapsed().as_secs_f64() })
}
