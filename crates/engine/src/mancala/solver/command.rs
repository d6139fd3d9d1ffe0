//! `tabula solve`: a Mancala level's value with perfect play, proven by the
//! endgame databases and the search of the solver beside it. The game adds
//! it to the command line through the catalog (`core::GameCommand`).

use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use anyhow::{Context, bail};
use clap::{Args, FromArgMatches};
use indicatif::{ProgressBar, ProgressStyle};

use crate::core::{GameCommand, GivenLevel};
use crate::mancala::MancalaLevel;
use crate::mancala::solver::{self, Config, Progress, Rules, Shared, SolveError};

/// `tabula solve`, as the catalog lists it.
pub const SOLVE: GameCommand = GameCommand { command, level: "level", run: run_matched };

/// The subcommand: its help is the command line's.
fn command() -> clap::Command {
    SolveArgs::augment_args(clap::Command::new("solve").about(
        "Prove a level's value: the first player's margin with perfect play and the best first moves, \
         with endgame databases and checkpoints kept in the data folder (docs/solver.md; sowing games only)",
    ))
}

fn run_matched(matches: &clap::ArgMatches, given: GivenLevel) -> anyhow::Result<ExitCode> {
    let mut args = SolveArgs::from_arg_matches(matches)?;
    args.level = given.path.to_owned();
    let Some(lvl) = given.level.downcast_ref::<MancalaLevel>() else {
        bail!(
            "{}: `tabula solve` proves Mancala levels; this is a {} level",
            args.level.display(),
            given.game
        );
    };
    run(args, lvl.clone())
}

#[derive(clap::Args, Debug)]
struct SolveArgs {
    /// A Mancala level.
    level: PathBuf,
    /// Threads for the databases and the search (default: every core).
    #[arg(long)]
    threads: Option<usize>,
    /// Build endgame databases up to this many stones left in the pits
    /// (default: as many as fit the memory budget).
    #[arg(long)]
    tiers: Option<u32>,
    /// Memory for the databases and the search's table, in MiB (default:
    /// half the machine's memory).
    #[arg(long)]
    memory: Option<u64>,
    /// Where databases, checkpoints and results are kept (default: the data
    /// folder's `kalah/`).
    #[arg(long)]
    dir: Option<PathBuf>,
    /// Prove the exact margin of every first move (by default only the
    /// best's, and that the others are worse).
    #[arg(long)]
    every_move: bool,
    /// Seconds between checkpoints of the search.
    #[arg(long, default_value_t = 60.0)]
    checkpoint_every: f64,
    /// A guess at the first player's margin: every first move is first
    /// tested against it. It orders the work only; the value printed is
    /// proven whatever the guess.
    #[arg(long, allow_hyphen_values = true)]
    guess: Option<i32>,
}

fn run(args: SolveArgs, lvl: MancalaLevel) -> anyhow::Result<ExitCode> {
    solver::check_level(&lvl).map_err(|e| anyhow::anyhow!("{}: {e}", args.level.display()))?;
    let (config, plan) = configure(&args, &lvl)?;
    let dir = config.dir.clone().expect("a folder");
    // Before any output (it starts the command again), and only for a
    // solve that will build or search: a refusal or a finished solve
    // answers at once without it.
    if solver::finished(&dir, &lvl).is_none() {
        on_huge_pages();
    }
    println!("{}: {}", args.level.display(), lvl.name);
    println!(
        "  {} pits a side, {} stones each, {}, {}",
        lvl.pits,
        lvl.stones,
        lvl.capture.describe(),
        if lvl.sweep { "final sweep" } else { "no final sweep" }
    );
    println!("  {}", plan.words());
    match solver::kept_result(&dir, &lvl) {
        Ok(Some(done)) => {
            println!("  solved before ({}):", dir.display());
            print_solution(&done);
            return Ok(ExitCode::SUCCESS);
        }
        Ok(None) => {}
        // Proven again, and kept in this tabula's format.
        Err(refused) => eprintln!("  left aside: {refused}"),
    }
    let started = Instant::now();
    let bar = ProgressBar::new(0);
    bar.set_style(ProgressStyle::with_template("  {msg}").context("progress style")?);
    bar.enable_steady_tick(Duration::from_millis(200));
    let last = Mutex::new(Instant::now());
    let report = |p: Progress| report(&bar, &last, p);
    let endgame = solver::databases(Rules::of(&lvl), &config, &report)?;
    let built = started.elapsed();
    say(
        &bar,
        format!(
            "  endgame databases: {} positions up to {} stones, {} MiB, ready after {:.1} s",
            endgame.positions(),
            endgame.top(),
            endgame.positions() >> 20,
            built.as_secs_f64()
        ),
    );
    let shared = Shared::default();
    let result = solver::solve(&lvl, &endgame, &config, &shared, &report);
    bar.finish_and_clear();
    match result {
        Ok(solution) => {
            print_solution(&solution);
            println!(
                "  time: {:.1} s in all (databases {:.1} s)",
                started.elapsed().as_secs_f64(),
                built.as_secs_f64()
            );
            Ok(ExitCode::SUCCESS)
        }
        Err(SolveError::Stopped) => bail!("stopped; the checkpoint in {} carries on", dir.display()),
        Err(e) => Err(e.into()),
    }
}

/// The threads, memory, databases and folder of a solve, from the options.
fn configure(args: &SolveArgs, lvl: &MancalaLevel) -> anyhow::Result<(Config, solver::Plan)> {
    let threads =
        args.threads.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get())).max(1);
    let memory =
        args.memory.unwrap_or_else(|| solver::machine_memory() / 2 / (1 << 20)).saturating_mul(1 << 20);
    let plan = solver::plan(lvl, memory, args.tiers);
    if plan.database_bytes > memory {
        bail!(
            "databases up to {} stones take {} MiB, more than the {} MiB of --memory",
            plan.tiers,
            plan.database_bytes >> 20,
            memory >> 20
        );
    }
    let dir = args.dir.clone().unwrap_or_else(solver::teach::default_dir);
    let config = Config {
        threads,
        table_bits: plan.table_bits,
        tiers: plan.tiers,
        dir: Some(dir),
        checkpoint_every: Duration::from_secs_f64(args.checkpoint_every.clamp(0.1, 1e6)),
        every_move: args.every_move,
        guess: args.guess,
    };
    Ok((config, plan))
}

/// A line above the progress bar, or on its own when there is no terminal
/// to draw the bar on (a log, a test).
fn say(bar: &ProgressBar, line: String) {
    if bar.is_hidden() {
        eprintln!("{line}");
    } else {
        bar.println(line);
    }
}

fn margin(v: i32) -> String {
    format!("{v:+}")
}

fn print_solution(s: &solver::Solution) {
    let words = match s.value {
        v if v > 0 => format!("the first player wins by {v}"),
        v if v < 0 => format!("the first player loses by {}", -v),
        _ => "a draw".to_owned(),
    };
    println!("value: {} ({words} with perfect play)", margin(s.value));
    let best: Vec<String> = s.best_moves().iter().map(|p| format!("A{}", p + 1)).collect();
    println!("best first moves: {}", best.join(", "));
    let each: Vec<String> = s
        .moves
        .iter()
        .map(|m| match m.exact() {
            Some(v) => format!("A{} {}", m.pit + 1, margin(v)),
            None => format!("A{} below {}", m.pit + 1, margin(s.value)),
        })
        .collect();
    println!("every first move: {}", each.join(", "));
    println!(
        "search: {} nodes in {:.1} s ({:.2} M nodes/s)",
        s.nodes,
        s.search_seconds,
        s.nodes as f64 / s.search_seconds.max(1e-9) / 1e6
    );
}

fn report(bar: &ProgressBar, last: &Mutex<Instant>, p: Progress) {
    match p {
        Progress::Checkpointed { path } if bar.is_hidden() => {
            eprintln!("  checkpoint written: {}", path.display());
        }
        Progress::TierLoaded { stones, positions } => {
            bar.set_message(format!("databases: tier {stones} loaded ({positions} positions)"));
        }
        Progress::TierBuilding { stones, done, positions } => {
            let mut last = last.lock().expect("clock");
            if last.elapsed() >= Duration::from_millis(200) {
                *last = Instant::now();
                bar.set_message(format!(
                    "databases: building tier {stones}: {:.0}% of {positions} positions",
                    100.0 * done as f64 / positions.max(1) as f64
                ));
            }
        }
        Progress::TierBuilt { stones, positions, seconds } => {
            say(
                bar,
                format!(
                    "  tier {stones:>2} built: {positions} positions in {seconds:.1} s ({:.1} M positions/s)",
                    positions as f64 / seconds.max(1e-9) / 1e6
                ),
            );
        }
        Progress::Resumed { checkpoint, moves_proven } => {
            say(
                bar,
                format!(
                    "  resumed from the checkpoint {} ({moves_proven} first moves already proven)",
                    checkpoint.display()
                ),
            );
        }
        Progress::Searching { nodes, moves } => {
            let each: Vec<String> = moves
                .iter()
                .map(|m| match m.exact() {
                    Some(v) => format!("A{} {}", m.pit + 1, margin(v)),
                    None => format!("A{} [{},{}]", m.pit + 1, margin(m.lower), margin(m.upper)),
                })
                .collect();
            bar.set_message(format!(
                "search: {:.1} M nodes · first moves: {}",
                nodes as f64 / 1e6,
                each.join("  ")
            ));
        }
        Progress::Checkpointed { path } => {
            bar.set_message(format!("checkpoint written: {}", path.display()));
        }
        Progress::LeftAside { why } => say(bar, format!("  left aside: {why}")),
    }
}

/// The databases and the table are gigabytes read at random: on the
/// kernel's 4 KiB pages nearly every read also misses the TLB, and on huge
/// pages the search runs twice as fast (docs/benchmarks.md). glibc asks for
/// them only when told so at start, so the command starts itself once more
/// with its tunable set (`exec`: the same process, the same arguments).
fn on_huge_pages() {
    #[cfg(target_os = "linux")]
    {
        use std::os::unix::process::CommandExt;
        const TUNABLE: &str = "glibc.malloc.hugetlb";
        let now = std::env::var("GLIBC_TUNABLES").unwrap_or_default();
        if now.contains(TUNABLE) {
            return;
        }
        let Ok(exe) = std::env::current_exe() else { return };
        let value = if now.is_empty() { format!("{TUNABLE}=1") } else { format!("{now}:{TUNABLE}=1") };
        // Returns only if the start failed; the solve then goes on as it is.
        let _ = std::process::Command::new(exe)
            .args(std::env::args_os().skip(1))
            .env("GLIBC_TUNABLES", value)
            .exec();
    }
}
