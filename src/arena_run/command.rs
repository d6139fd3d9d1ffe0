//! `tabula arena`'s command line: play an arena (or a shard of it) and
//! report, or merge shards' databases.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{Context, bail};
use tabula_engine::arena::Arena;

use super::report::standings;
use super::sprt::{self, SprtArgs};
use super::store::Store;
use tabula_engine::core::ratings::Sprt;

#[derive(clap::Args, Debug)]
#[command(args_conflicts_with_subcommands = true)]
pub struct ArenaArgs {
    #[command(subcommand)]
    pub action: Option<ArenaAction>,
    /// The arena file (docs/formats.md, "Arenas").
    pub arena: Option<PathBuf>,
    /// The results database (default: beside the arena file, `<name>.db`;
    /// a shard's `<name>.shard-I-of-N.db`). A run stopped in any way goes on
    /// where it stopped when started again with the same database.
    #[arg(long)]
    pub db: Option<PathBuf>,
    /// Worker threads (default: all cores). Results do not depend on it.
    #[arg(long)]
    pub jobs: Option<usize>,
    /// Play only part I of N (from 1), e.g. `--shard 2/4`: the parts of N
    /// runs are disjoint and together the whole arena.
    #[arg(long, value_parser = parse_shard)]
    pub shard: Option<(u64, u64)>,
    /// A sequential test instead of the whole arena: `A:B:E` plays only
    /// agent A against agent B (on the two-seat levels, in paired games)
    /// until "A is at least E Elo stronger than B" or "A is not stronger"
    /// is decided at --alpha and --beta; `A:B:E0:E1` refutes E0 instead of 0.
    #[arg(long, value_parser = super::sprt::parse, conflicts_with = "shard", value_name = "A:B:E")]
    pub sprt: Option<(String, String, f64, f64)>,
    /// The chance the test finds A stronger when it is not.
    #[arg(long, default_value_t = 0.05, value_parser = parse_chance, requires = "sprt")]
    pub alpha: f64,
    /// The chance the test finds A not stronger when it is.
    #[arg(long, default_value_t = 0.05, value_parser = parse_chance, requires = "sprt")]
    pub beta: f64,
    /// Play nothing: report what the database holds.
    #[arg(long)]
    pub report: bool,
    /// Write the report as an HTML page too: the ratings plotted with their
    /// intervals (SVG), the crosstable and the levels.
    #[arg(long)]
    pub html: Option<PathBuf>,
    /// Run it in the window's Arena screen instead, the ratings shown live
    /// (with --report: show what the database holds).
    #[arg(long, conflicts_with_all = ["shard", "html", "sprt"])]
    pub window: bool,
}

#[derive(clap::Subcommand, Debug)]
pub enum ArenaAction {
    /// Join shards' databases into one and report: `tabula arena merge
    /// <arena.ron> --into all.db a.db b.db ...`.
    Merge {
        arena: PathBuf,
        #[arg(long)]
        into: PathBuf,
        #[arg(required = true)]
        shards: Vec<PathBuf>,
    },
}

/// `I/N` with 1 <= I <= N, as part I - 1 of N.
fn parse_shard(text: &str) -> Result<(u64, u64), String> {
    let bad = || format!("a shard is I/N with 1 <= I <= N, such as 2/4, not {text:?}");
    let (i, n) = text.split_once('/').ok_or_else(bad)?;
    let (i, n): (u64, u64) = (i.trim().parse().map_err(|_| bad())?, n.trim().parse().map_err(|_| bad())?);
    if i == 0 || i > n {
        return Err(bad());
    }
    Ok((i - 1, n))
}

/// An error rate strictly between 0 and 0.5.
fn parse_chance(text: &str) -> Result<f64, String> {
    match text.trim().parse::<f64>() {
        Ok(p) if p > 0.0 && p < 0.5 => Ok(p),
        _ => Err(format!("an error rate is a number between 0 and 0.5 (such as 0.05), not {text:?}")),
    }
}

impl ArenaArgs {
    /// The arena file, which everything but `merge` needs.
    pub fn arena_file(&self) -> anyhow::Result<&Path> {
        match &self.arena {
            Some(path) => Ok(path),
            None => bail!("give an arena file: tabula arena <arena.ron>"),
        }
    }
}

/// Plays, reports or merges in the terminal. `--window` is opened by the
/// command line (`cli.rs`): the window uses this module, which so stays
/// below it.
pub fn run(args: ArenaArgs) -> anyhow::Result<ExitCode> {
    if let Some(ArenaAction::Merge { arena, into, shards }) = args.action {
        let arena = Arena::load(&arena)?;
        let mut store = Store::open(&into, &super::identity(&arena), &arena.agents)?;
        for shard in &shards {
            let added = store.merge(shard)?;
            say(&format!("{}: {added} games merged\n", shard.display()))?;
        }
        let standings = standings(&arena, &store.outcomes()?);
        let (held, total) = (standings.rated(), arena.total_games());
        say(&format!("{}: {held} of the arena's {total} games\n", into.display()))?;
        if held < total {
            // A shard stopped early merges what it has; say so, not silently.
            eprintln!(
                "{} games are missing: a shard that stopped early goes on when run again; then merge again",
                total - held
            );
        }
        say(&standings.text(&arena))?;
        return Ok(ExitCode::SUCCESS);
    }
    let path = args.arena_file()?.to_owned();
    let arena = Arena::load(&path)?;
    let db = args.db.unwrap_or_else(|| super::default_db(&path, args.shard));
    // A report reads: a database named wrongly is refused, not made empty.
    let mut store = if args.report {
        if !db.exists() {
            bail!("{}: no such database (nothing has been played into it): check --db", db.display());
        }
        Store::open_read_only(&db, &super::identity(&arena), &arena.agents)?
    } else {
        Store::open(&db, &super::identity(&arena), &arena.agents)?
    };
    let jobs = args.jobs.unwrap_or_else(tabula_engine::core::runner::default_jobs);
    let live = std::io::IsTerminal::is_terminal(&std::io::stderr());
    if let Some((a, b, elo0, elo1)) = args.sprt {
        let test = SprtArgs { a, b, test: Sprt { elo0, elo1, alpha: args.alpha, beta: args.beta } };
        let bar = super::progress_bar(0, live);
        let standing = sprt::run(&arena, &mut store, &test, jobs, &bar, !args.report)
            .with_context(|| format!("arena {}", path.display()))?;
        bar.finish_and_clear();
        say(&sprt::text(&test, &standing))?;
        return Ok(ExitCode::SUCCESS);
    }
    if !args.report {
        let parts = match args.shard {
            Some((i, n)) => arena.shard(i, n),
            None => arena.parts(),
        };
        let bar = super::progress_bar(parts.iter().map(|p| p.games.end - p.games.start).sum(), live);
        let played = super::play(&arena, &parts, &mut store, jobs, &bar, None)
            .with_context(|| format!("arena {}", path.display()))?;
        bar.finish_and_clear();
        let shard = args.shard.map_or(String::new(), |(i, n)| format!(" (shard {}/{n})", i + 1));
        say(&format!(
            "{}{shard}: {} games played in {:.2} s ({:.0} games/s), {} already in {}{}\n",
            arena.name,
            played.played,
            played.seconds,
            played.played as f64 / played.seconds.max(1e-9),
            played.resumed,
            db.display(),
            if played.resumed > 0 {
                format!(" (found in {:.3} s)", played.resume_seconds)
            } else {
                String::new()
            }
        ))?;
    }
    let standings = standings(&arena, &store.outcomes()?);
    say(&standings.text(&arena))?;
    if let Some(html) = args.html {
        tabula_engine::level::write_atomically(&html, &super::html::page(&arena, &standings))
            .with_context(|| format!("cannot write {}", html.display()))?;
        say(&format!("\nThe report: {}\n", html.display()))?;
    }
    Ok(ExitCode::SUCCESS)
}

/// Writes to standard output; a reader that stopped reading (`| head`) is
/// no error.
fn say(text: &str) -> anyhow::Result<()> {
    use std::io::Write;
    match std::io::stdout().write_all(text.as_bytes()) {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => Err(e.into()),
        _ => Ok(()),
    }
}
