//! The command line (DESIGN.md, "Command line").

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use anyhow::{Context, bail};
use clap::{Parser, Subcommand};
use indicatif::{ProgressBar, ProgressStyle};
use tabula_engine::core::AgentSpec;
use tabula_engine::core::runner::MatchConfig;
use tabula_engine::games::{self, MatchRecord};
use tabula_engine::level;

use crate::app::session::Controller;

#[derive(Parser, Debug)]
#[command(
    name = "tabula",
    version,
    about = "Nim, Mancala, Russian Bank and the Robot board: play, watch and test"
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Option<Command>,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Open the window on a level.
    Play {
        level: PathBuf,
        /// Who plays seat 1: human (the default) or an agent, e.g. minimax:6
        #[arg(long)]
        p1: Option<String>,
        /// Who plays seat 2: human or an agent (default: the game's default agent)
        #[arg(long)]
        p2: Option<String>,
    },
    /// Play many games between two agents headless and summarise.
    Match {
        level: PathBuf,
        /// Agent in seat 1 of the first game (seats swap every game), e.g. optimal:0.8
        #[arg(long)]
        p1: String,
        /// Agent in seat 2 of the first game.
        #[arg(long)]
        p2: String,
        #[arg(long, default_value_t = 1000)]
        games: u64,
        #[arg(long, default_value_t = 0)]
        seed: u64,
        /// Worker threads (default: all cores). Results do not depend on it.
        #[arg(long)]
        jobs: Option<usize>,
        /// Write one JSON object a line per game to this file.
        #[arg(long)]
        out: Option<PathBuf>,
    },
    /// Replay a saved game headless, checking every move.
    Replay {
        replay: PathBuf,
        /// Print one JSON object a line after each move.
        #[arg(long)]
        states: bool,
    },
    /// Count the move sequences of each length up to the depth from the start.
    Perft {
        level: PathBuf,
        #[arg(long)]
        depth: u32,
    },
    /// Validate level files; exits non-zero if one is invalid.
    Check {
        #[arg(required = true)]
        levels: Vec<PathBuf>,
    },
}

pub fn run(cli: Cli) -> anyhow::Result<ExitCode> {
    match cli.command {
        None => crate::app::run(None),
        Some(Command::Play { level, p1, p2 }) => {
            let file = level::load(&level)?;
            let seat = |choice: Option<String>| -> anyhow::Result<Option<Controller>> {
                Ok(match choice.as_deref() {
                    None => None,
                    Some("human") => Some(Controller::Human),
                    Some(text) => {
                        let spec: AgentSpec = text.parse()?;
                        games::check_agent(&file, &spec)?;
                        Some(Controller::Agent(spec))
                    }
                })
            };
            let seats = [seat(p1)?, seat(p2)?];
            crate::app::run(Some(crate::app::StartLevel { path: level, seats }))
        }
        Some(Command::Match { level, p1, p2, games, seed, jobs, out }) => {
            run_match(&level, &[p1, p2], games, seed, jobs, out)
        }
        Some(Command::Replay { replay, states }) => run_replay(&replay, states),
        Some(Command::Perft { level, depth }) => {
            let level = level::load(&level)?;
            for d in 1..=depth {
                let start = Instant::now();
                let nodes = games::perft_level(&level, d);
                let secs = start.elapsed().as_secs_f64();
                println!("depth {d}: {nodes} ({:.1} M nodes/s)", nodes as f64 / secs.max(1e-9) / 1e6);
            }
            Ok(ExitCode::SUCCESS)
        }
        Some(Command::Check { levels }) => {
            let mut bad = 0;
            for path in &levels {
                match level::load(path) {
                    Ok(l) => println!("ok: {} ({}, {})", path.display(), l.name(), l.kind().title()),
                    Err(e) => {
                        eprintln!("invalid: {e}");
                        bad += 1;
                    }
                }
            }
            if bad > 0 {
                eprintln!("{bad} of {} level(s) invalid", levels.len());
                return Ok(ExitCode::FAILURE);
            }
            Ok(ExitCode::SUCCESS)
        }
    }
}

fn run_match(
    path: &std::path::Path,
    agents: &[String],
    games: u64,
    seed: u64,
    jobs: Option<usize>,
    out: Option<PathBuf>,
) -> anyhow::Result<ExitCode> {
    let level = level::load(path)?;
    let specs: Vec<AgentSpec> = agents.iter().map(|a| a.parse()).collect::<Result<_, _>>()?;
    if games == 0 {
        bail!("--games must be at least 1");
    }
    let jobs = jobs.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    let mut writer = match &out {
        Some(p) => Some(std::io::BufWriter::new(
            std::fs::File::create(p).with_context(|| format!("cannot create {}", p.display()))?,
        )),
        None => None,
    };
    let config = MatchConfig { games, seed, jobs, record_moves: writer.is_some() };
    let bar = ProgressBar::new(games).with_style(
        ProgressStyle::with_template("{bar:40} {pos}/{len} games  {per_sec}  eta {eta}")
            .expect("valid template"),
    );
    let mut write_error = None;
    let mut sink = |r: &MatchRecord| {
        if let Some(w) = writer.as_mut()
            && write_error.is_none()
            && let Err(e) = serde_json::to_writer(&mut *w, r)
                .map_err(std::io::Error::from)
                .and_then(|_| w.write_all(b"\n"))
        {
            write_error = Some(e);
        }
    };
    let start = Instant::now();
    let summary = games::play_match(&level, &specs, &config, &mut sink, &|n| bar.inc(n))?;
    let secs = start.elapsed().as_secs_f64();
    bar.finish_and_clear();
    if let Some(e) = write_error {
        bail!("cannot write {}: {e}", out.unwrap().display());
    }
    if let Some(mut w) = writer {
        w.flush()?;
    }
    let pct = |n: u64| 100.0 * n as f64 / summary.games as f64;
    println!(
        "{} ({}): {} games, {} vs {}, seed {seed}, {jobs} job(s), seats swapped every game",
        level.name(),
        level.kind().title(),
        summary.games,
        specs[0],
        specs[1]
    );
    let width = specs.iter().map(|s| s.to_string().len()).max().unwrap_or(0);
    for (spec, &wins) in specs.iter().zip(&summary.wins) {
        println!("  {:width$}  won {wins:>9} ({:6.2}%)", spec.to_string(), pct(wins));
    }
    println!("  {:width$}  {:>13} ({:6.2}%)", "draws", summary.draws, pct(summary.draws));
    for (seat, &wins) in summary.seat_wins.iter().enumerate() {
        println!("  player {} won {:.2}% of games", seat + 1, pct(wins));
    }
    println!(
        "  mean length {:.2} moves; median {}, 90% of games within {}, longest {}",
        summary.mean_plies(),
        summary.length_quantile(0.5),
        summary.length_quantile(0.9),
        summary.lengths.len().saturating_sub(1)
    );
    println!("  {:.0} games/s ({secs:.3} s)", summary.games as f64 / secs.max(1e-9));
    if let Some(p) = out {
        println!("  games written to {}", p.display());
    }
    Ok(ExitCode::SUCCESS)
}

fn run_replay(path: &std::path::Path, states: bool) -> anyhow::Result<ExitCode> {
    let stdout = std::io::stdout();
    let mut lock = stdout.lock();
    let mut write_error = None;
    let (moves, outcome) = games::replay_file(path, &mut |line| {
        if states
            && write_error.is_none()
            && let Err(e) = serde_json::to_writer(&mut lock, line)
                .map_err(std::io::Error::from)
                .and_then(|_| writeln!(lock))
        {
            write_error = Some(e);
        }
    })?;
    drop(lock);
    if let Some(e) = write_error {
        bail!("cannot write the states: {e}");
    }
    let end = match outcome {
        Some(tabula_engine::Outcome::Win(p)) => format!("{p} won"),
        Some(tabula_engine::Outcome::Draw) => "a draw".into(),
        None => "the game is not over".into(),
    };
    eprintln!("{}: {moves} moves, all legal; {end}", path.display());
    Ok(ExitCode::SUCCESS)
}
