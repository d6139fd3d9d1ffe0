//! The command line (docs/formats.md, "Command line").

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

use anyhow::{Context, bail};
use clap::{CommandFactory, FromArgMatches, Parser, Subcommand};
use tabula_engine::core::AgentSpec;
use tabula_engine::core::runner::MatchConfig;
use tabula_engine::games::{self, MatchRecord};
use tabula_engine::{level, replay};

use crate::app::session::Controller;

#[derive(Parser, Debug)]
#[command(
    name = "tabula",
    version,
    about = "A collection of board and card games: play, watch, edit and test"
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Option<Command>,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Open the window on a level, or on a replay to step through. Seats
    /// of a level: --p1 human (the default) or an agent; --p2 to --p8 the
    /// game's default agent unless given. Online: `--host` the level at a
    /// server this window runs, `--join`/`--watch ADDRESS --code TABLE`,
    /// `--resume`.
    Play {
        /// A level or a replay; none with --join, --watch or --resume.
        #[arg(required_unless_present_any = ["join", "watch", "resume"])]
        file: Option<PathBuf>,
        #[command(flatten)]
        seats: Seats,
        #[command(flatten)]
        online: Online,
    },
    /// Play many games between agents headless and summarise: one agent a
    /// seat of the level, --p1 to --pN, rotated round the seats every game.
    Match {
        level: PathBuf,
        #[command(flatten)]
        seats: Seats,
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
        /// Print the count under each first move at the full depth instead.
        #[arg(long)]
        divide: bool,
    },
    /// Make a level from a seed with a game's generator, validated before
    /// it is written: `tabula generate <game> [--name value]... [--seed S]
    /// [--out FILE]`; `tabula generate <game> --help` lists the game's
    /// options.
    Generate {
        /// The game, by its level folder.
        game: String,
        /// The game's options as `--name value`, then `--seed S` (default
        /// 0) and `--out FILE` (default: standard output), in any order.
        #[arg(trailing_var_arg = true, allow_hyphen_values = true)]
        options: Vec<String>,
    },
    /// Rate agents against each other over several levels, maybe of
    /// several games: `tabula arena arenas/small.ron`. Every game is a row
    /// in SQLite; a stopped run resumes; `--shard I/N` plays a part and
    /// `tabula arena merge` joins the parts.
    Arena(crate::arena_run::ArenaArgs),
    /// Open the level editor on a level of any game (a new level of the
    /// game whose folder it is in, when the file does not exist yet).
    Edit { level: PathBuf },
    /// Serve tables of every game over WebSocket (docs/protocol.md), to
    /// people and bots in any language; every move kept in a database, so
    /// that a restarted server plays on.
    Serve(crate::network::ServeArgs),
    /// Play a seat at a server's table with an agent, coming back with the
    /// seat's token if the connection drops.
    Bot(crate::network::BotArgs),
    /// Validate level files; exits non-zero if one is invalid.
    Check {
        #[arg(required = true)]
        levels: Vec<PathBuf>,
    },
    /// Rewrite level files in tabula's layout, the one the editor saves
    /// (comment lines at the top of a file are kept; a file with comments
    /// elsewhere is left as it is, and they are named).
    Fmt {
        /// Level files, or folders whose `.ron` files are taken.
        #[arg(required = true)]
        paths: Vec<PathBuf>,
        /// Change nothing; exit non-zero naming each file not in the layout.
        #[arg(long)]
        check: bool,
    },
}

/// Who sits where: `--p1` to `--p8`, each `human` (in the window) or an
/// agent such as `random`, `optimal:0.8`, `minimax:6`.
#[derive(clap::Args, Debug, Default)]
pub struct Seats {
    /// Seat 1 (in a match: of the first game; seats rotate every game)
    #[arg(long)]
    p1: Option<String>,
    /// Seat 2
    #[arg(long)]
    p2: Option<String>,
    /// Seat 3, for games of three or more
    #[arg(long)]
    p3: Option<String>,
    /// Seat 4
    #[arg(long)]
    p4: Option<String>,
    /// Seat 5
    #[arg(long)]
    p5: Option<String>,
    /// Seat 6
    #[arg(long)]
    p6: Option<String>,
    /// Seat 7
    #[arg(long)]
    p7: Option<String>,
    /// Seat 8
    #[arg(long)]
    p8: Option<String>,
}

/// Playing at a game server's table (docs/cli.md, "Online").
#[derive(clap::Args, Debug, Default)]
pub struct Online {
    /// Host the level at a table of a server this window runs, for friends
    /// to join: seats given `human` (and those not given) are open to
    /// people, you the first; agents are the server's (agents alone: you watch).
    #[arg(long, requires = "file", conflicts_with_all = ["join", "watch", "resume"])]
    host: bool,
    /// The port the hosted server listens on, on every network interface.
    #[arg(long, requires = "host", default_value_t = crate::app::online::start::DEFAULT_PORT)]
    port: u16,
    /// Hosting: no spectators may watch the table.
    #[arg(long, requires = "host")]
    no_spectators: bool,
    /// Hosting: a clock, minutes each and seconds added a move (`5+2`);
    /// two seats only.
    #[arg(long, requires = "host", value_name = "MINUTES+SECONDS")]
    clock: Option<crate::app::online::start::Clock>,
    /// Take a seat at the table `--code` of the server at this address
    /// (`host:port`, `ws://host:port`; the port is 7878 unless given).
    #[arg(long, value_name = "ADDRESS", requires = "code", conflicts_with_all = ["file", "watch", "resume"])]
    join: Option<String>,
    /// Watch the table `--code` of the server at this address.
    #[arg(long, value_name = "ADDRESS", requires = "code", conflicts_with_all = ["file", "resume"])]
    watch: Option<String>,
    /// The table's id: the invite code the host sends.
    #[arg(long, value_name = "TABLE")]
    code: Option<String>,
    /// Joining: this seat (numbered from 1) rather than the first open one.
    #[arg(long, requires = "join")]
    seat: Option<u8>,
    /// Come back to the newest seat this machine keeps at a table not
    /// finished (the menu lists them all under "Games in progress").
    #[arg(long, conflicts_with = "file")]
    resume: bool,
}

impl Seats {
    /// Seat by seat, up to the last one given.
    fn list(&self) -> Vec<Option<String>> {
        let mut seats: Vec<Option<String>> =
            [&self.p1, &self.p2, &self.p3, &self.p4, &self.p5, &self.p6, &self.p7, &self.p8]
                .into_iter()
                .cloned()
                .collect();
        while seats.last().is_some_and(Option::is_none) {
            seats.pop();
        }
        seats
    }
}

/// A level the command line names: a file, or a level by its game's folder
/// and name among the player's and the shipped ones (`<game folder>/<level>`),
/// so an installed game plays its levels without their path.
fn named(given: PathBuf) -> anyhow::Result<PathBuf> {
    tabula_engine::shipped::level_file(&given).map_err(anyhow::Error::msg)
}

impl Command {
    /// The command with each level it names found (a level to edit that is
    /// nowhere yet is a new one, at the path given).
    fn with_levels_found(self) -> anyhow::Result<Command> {
        Ok(match self {
            Command::Play { file: Some(file), seats, online } => {
                Command::Play { file: Some(named(file)?), seats, online }
            }
            Command::Match { level, seats, games, seed, jobs, out } => {
                Command::Match { level: named(level)?, seats, games, seed, jobs, out }
            }
            Command::Perft { level, depth, divide } => Command::Perft { level: named(level)?, depth, divide },
            Command::Edit { level } => Command::Edit { level: named(level.clone()).unwrap_or(level) },
            Command::Check { levels } => {
                Command::Check { levels: levels.into_iter().map(named).collect::<anyhow::Result<_>>()? }
            }
            other => other,
        })
    }
}

/// The command line as given: a command of the tabula's own, or one a game
/// adds through the catalog (`tabula solve`), which the command line
/// offers without naming its game.
pub fn run_args() -> anyhow::Result<ExitCode> {
    let commands = games::commands();
    let matches = commands.iter().fold(Cli::command(), |cli, c| cli.subcommand((c.command)())).get_matches();
    if let Some((name, args)) = matches.subcommand()
        && let Some(command) = commands.iter().find(|c| c.name() == name)
    {
        return games::run_command(command, args);
    }
    run(Cli::from_arg_matches(&matches)?)
}

pub fn run(cli: Cli) -> anyhow::Result<ExitCode> {
    match cli.command.map(Command::with_levels_found).transpose()? {
        None => crate::app::run(None, None, None, None),
        Some(Command::Play { file: None, online, .. }) => play_online(None, &Seats::default(), online),
        Some(Command::Play { file: Some(path), online, seats }) if online.host => {
            play_online(Some(&path), &seats, online)
        }
        Some(Command::Play { file: Some(path), seats, .. }) => play_file(path, &seats),
        Some(Command::Match { level, seats, games, seed, jobs, out }) => {
            run_match(&level, &seats.list(), games, seed, jobs, out)
        }
        Some(Command::Replay { replay, states }) => run_replay(&replay, states),
        Some(Command::Serve(args)) => crate::network::serve(args),
        Some(Command::Bot(args)) => crate::network::bot(args),
        Some(Command::Perft { level, depth, divide }) => perft(&level, depth, divide),
        Some(Command::Generate { game, options }) => generate(&game, &options),
        Some(Command::Fmt { paths, check }) => fmt_levels(&paths, check),
        Some(Command::Arena(args)) if args.window => arena_window(args),
        Some(Command::Arena(args)) => crate::arena_run::run_command(args),
        Some(Command::Edit { level }) => {
            crate::app::run(None, Some(crate::app::editor::StartEdit(level)), None, None)
        }
        Some(Command::Check { levels }) => check_levels(&levels),
    }
}

/// `tabula play FILE`: a replay to step through, or a level with the
/// seats given (each checked before the window opens).
fn play_file(path: PathBuf, seats: &Seats) -> anyhow::Result<ExitCode> {
    let name = path.display().to_string();
    let text = std::fs::read_to_string(&path).map_err(|e| anyhow::anyhow!("{name}: {e}"))?;
    if replay::is_replay(&text) {
        if !seats.list().is_empty() {
            bail!("{name} is a replay: its seats are its own, --p1 to --p8 are for levels");
        }
        // Checked before the window opens, as a level's seats are.
        games::replay_file(&path, &mut |_| {})?;
        let start = crate::app::session::StartLevel { path, seats: Vec::new(), replay: true };
        return crate::app::run(Some(start), None, None, None);
    }
    let file = level::parse(&text, &name)?;
    let players = file.game().num_players(&file);
    if seats.list().len() > players {
        bail!("{} has {players} seats; --p{} is one too many", file.game().title(), players + 1);
    }
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
    let seats = seats.list().into_iter().map(seat).collect::<anyhow::Result<_>>()?;
    crate::app::run(Some(crate::app::session::StartLevel { path, seats, replay: false }), None, None, None)
}

/// `tabula perft`: the leaves at each depth up to `depth`, or with
/// `divide` at `depth` under each first move.
fn perft(level: &Path, depth: u32, divide: bool) -> anyhow::Result<ExitCode> {
    let level = level::load(level)?;
    if divide {
        let start = Instant::now();
        let counts = level.game().divide(&level, depth);
        let total: u64 = counts.iter().map(|(_, _, n)| n).sum();
        for (text, json, n) in &counts {
            println!("{json}: {n}  ({text})");
        }
        let secs = start.elapsed().as_secs_f64();
        println!("moves: {}", counts.len());
        println!("total at depth {depth}: {total} ({:.1} M nodes/s)", total as f64 / secs.max(1e-9) / 1e6);
        return Ok(ExitCode::SUCCESS);
    }
    for d in 1..=depth {
        let start = Instant::now();
        let nodes = games::perft_level(&level, d);
        let secs = start.elapsed().as_secs_f64();
        println!("depth {d}: {nodes} ({:.1} M nodes/s)", nodes as f64 / secs.max(1e-9) / 1e6);
    }
    Ok(ExitCode::SUCCESS)
}

/// `tabula check`: each level loaded, or why not.
fn check_levels(levels: &[PathBuf]) -> anyhow::Result<ExitCode> {
    let mut bad = 0;
    for path in levels {
        match level::load(path) {
            Ok(l) => println!("ok: {} ({}, {})", path.display(), l.name(), l.game().title()),
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

/// `tabula fmt`: each level file in tabula's layout, or with `check` only
/// told apart.
fn fmt_levels(paths: &[PathBuf], check: bool) -> anyhow::Result<ExitCode> {
    let mut files = Vec::new();
    for path in paths {
        if path.is_dir() {
            ron_files_under(path, &mut files)?;
        } else {
            files.push(path.clone());
        }
    }
    let mut bad = 0;
    for file in &files {
        let name = file.display().to_string();
        let text = std::fs::read_to_string(file).with_context(|| format!("cannot read {name}"))?;
        let formatted = match tabula_engine::format::format(&text, &name) {
            Ok(f) => f,
            Err(e) => {
                eprintln!("{e}");
                bad += 1;
                continue;
            }
        };
        if formatted.text == text {
            continue;
        }
        bad += usize::from(check || !formatted.lost_comments.is_empty());
        if check {
            let line = text.lines().zip(formatted.text.lines()).take_while(|(a, b)| a == b).count() + 1;
            eprintln!("{name}: not in tabula's layout (from line {line}); `tabula fmt {name}` rewrites it");
        } else if !formatted.lost_comments.is_empty() {
            eprintln!(
                "{name}: left as it is: rewriting it would lose these comments (move them to the top of the file):"
            );
            for (line, comment) in &formatted.lost_comments {
                eprintln!("  line {line}: {comment}");
            }
        } else {
            level::write_atomically(file, &formatted.text).with_context(|| format!("cannot write {name}"))?;
            println!("formatted {name}");
        }
    }
    if bad > 0 {
        let what = if check { "not in tabula's layout" } else { "not rewritten" };
        eprintln!("{bad} of {} level file(s) {what}", files.len());
        return Ok(ExitCode::FAILURE);
    }
    Ok(ExitCode::SUCCESS)
}

/// The `.ron` files under `dir`, in name order, folders included.
fn ron_files_under(dir: &Path, out: &mut Vec<PathBuf>) -> anyhow::Result<()> {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
        .with_context(|| format!("cannot read {}", dir.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            ron_files_under(&path, out)?;
        } else if path.extension().is_some_and(|e| e == "ron") {
            out.push(path);
        }
    }
    Ok(())
}

/// How the summary names each agent: its spec, and its seat in the first
/// game when another seat has the same spec ("random (seat 1)").
pub fn agent_labels(specs: &[AgentSpec]) -> Vec<String> {
    specs
        .iter()
        .enumerate()
        .map(|(i, spec)| {
            let twin = specs.iter().enumerate().any(|(j, other)| j != i && other == spec);
            if twin { format!("{spec} (seat {})", i + 1) } else { spec.to_string() }
        })
        .collect()
}

fn run_match(
    path: &std::path::Path,
    seats: &[Option<String>],
    games: u64,
    seed: u64,
    jobs: Option<usize>,
    out: Option<PathBuf>,
) -> anyhow::Result<ExitCode> {
    let level = level::load(path)?;
    let specs = match_agents(&level, seats)?;
    if games == 0 {
        bail!("--games must be at least 1");
    }
    let jobs = jobs.unwrap_or_else(tabula_engine::core::runner::default_jobs);
    let mut writer = match &out {
        Some(p) => Some(std::io::BufWriter::new(
            std::fs::File::create(p).with_context(|| format!("cannot create {}", p.display()))?,
        )),
        None => None,
    };
    let config = MatchConfig { games, seed, jobs, record_moves: writer.is_some(), ..Default::default() };
    // The arena's bar, drawn where a person watches (indicatif hides it
    // otherwise).
    let bar = crate::arena_run::progress_bar(games, true);
    let mut write_error = None;
    let names: Vec<String> = specs.iter().map(ToString::to_string).collect();
    let mut sink = |r: MatchRecord| {
        if let Some(w) = writer.as_mut()
            && write_error.is_none()
            && let Err(e) = serde_json::to_writer(&mut *w, &r.line(&names))
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
    report(&level, &specs, &summary, (seed, jobs), secs);
    if let Some(p) = out {
        println!("  games written to {}", p.display());
    }
    Ok(ExitCode::SUCCESS)
}

/// The agents of a match, one a seat, each parsed.
fn match_agents(level: &level::LevelFile, seats: &[Option<String>]) -> anyhow::Result<Vec<AgentSpec>> {
    let players = level.game().num_players(level);
    if seats.len() != players || seats.iter().any(Option::is_none) {
        let given: Vec<String> = seats
            .iter()
            .enumerate()
            .filter(|(_, s)| s.is_some())
            .map(|(i, _)| format!("--p{}", i + 1))
            .collect();
        bail!(
            "{} ({}) has {players} seats: give one agent each with --p1 to --p{players} (given: {})",
            level.name(),
            level.game().title(),
            if given.is_empty() { "none".to_owned() } else { given.join(" ") }
        );
    }
    Ok(seats.iter().flatten().map(|a| a.parse()).collect::<Result<_, _>>()?)
}

/// What a match came to, as `tabula match` prints it.
fn report(
    level: &level::LevelFile,
    specs: &[AgentSpec],
    summary: &tabula_engine::core::runner::MatchSummary,
    (seed, jobs): (u64, usize),
    secs: f64,
) {
    let pct = |n: u64| 100.0 * n as f64 / summary.games as f64;
    let labels = agent_labels(specs);
    let seating = match specs.len() {
        2 => "sides swapped every game".to_string(),
        n => {
            let orders = tabula_engine::core::runner::round(n);
            let balanced =
                if summary.games.is_multiple_of(orders) { "" } else { " (not a whole number of times)" };
            format!("seats balanced over every order of play, {orders} games a round{balanced}")
        }
    };
    println!(
        "{} ({}): {} games, {}, seed {seed}, {jobs} job(s), {seating}",
        level.name(),
        level.game().title(),
        summary.games,
        labels.join(" vs "),
    );
    let width = labels.iter().map(String::len).max().unwrap_or(0).max(9);
    println!("  by agent:");
    for (label, &wins) in labels.iter().zip(&summary.wins) {
        println!("    {label:width$}  won {wins:>9} ({:6.2}%)", pct(wins));
    }
    println!("    {:width$}  {:>13} ({:6.2}%)", "draws", summary.draws, pct(summary.draws));
    println!("  by seat:");
    for (seat, &wins) in summary.seat_wins.iter().enumerate() {
        println!("    {:width$}  won {wins:>9} ({:6.2}%)", format!("player {}", seat + 1), pct(wins));
    }
    println!(
        "  mean length {:.2} moves; median {}, 90% of games within {}, longest {}",
        summary.mean_plies(),
        summary.length_quantile(0.5),
        summary.length_quantile(0.9),
        summary.lengths.len().saturating_sub(1)
    );
    println!("  {:.0} games/s ({secs:.3} s)", summary.games as f64 / secs.max(1e-9));
}

/// `tabula play --host`, `--join`, `--watch`, `--resume`: checked here
/// (a level, its agents, an address), then the window goes to the table
/// at once, and back to the menu when the player leaves it.
fn play_online(level: Option<&Path>, seats: &Seats, online: Online) -> anyhow::Result<ExitCode> {
    use crate::app::online::Seek;
    use crate::app::online::seats_file::{self, SeatsFile};
    use crate::app::online::start::{GoOnline, StartOnline, create_request, server_url};
    let go = if let Some(path) = level {
        let file = level::load(path)?;
        let players = file.game().num_players(&file);
        let given = seats.list();
        if given.len() > players {
            bail!("{} has {players} seats; --p{} is one too many", file.game().title(), players + 1);
        }
        let mut offered = Vec::new();
        for i in 0..players {
            offered.push(match given.get(i).cloned().flatten().as_deref() {
                None | Some("human") => "person".to_owned(),
                Some(text) => {
                    let spec: AgentSpec = text.parse()?;
                    games::check_agent(&file, &spec)?;
                    spec.to_string()
                }
            });
        }
        let levels = crate::app::levels::library::levels_root();
        let create = create_request(path, &levels, &offered, !online.no_spectators, online.clock)
            .map_err(anyhow::Error::msg)?;
        GoOnline::Host { port: online.port, create, level: Some(path.to_owned()) }
    } else if online.resume {
        let kept = seats_file::read(&SeatsFile::default().0);
        let newest = kept.last().context("no game in progress is kept here: host or join one first")?;
        GoOnline::At { url: newest.url.clone(), seek: Seek::Resume { token: newest.token.clone() } }
    } else {
        let (address, watch) = match (&online.join, &online.watch) {
            (Some(address), _) => (address, false),
            (None, Some(address)) => (address, true),
            (None, None) => bail!("give a level, or --join, --watch or --resume"),
        };
        let url = server_url(address).map_err(anyhow::Error::msg)?;
        let table = online.code.clone().unwrap_or_default();
        let seek = if watch { Seek::Watch { table } } else { Seek::Join { table, seat: online.seat } };
        GoOnline::At { url, seek }
    };
    crate::app::run(None, None, None, Some(StartOnline(go)))
}

/// `tabula arena <file> --window`: the window's Arena screen on the file,
/// which is read first so that a broken one is said here, not in a window.
fn arena_window(args: crate::arena_run::ArenaArgs) -> anyhow::Result<ExitCode> {
    let path = args.arena_file()?.to_owned();
    tabula_engine::arena::Arena::load(&path)?;
    let start =
        crate::app::arena_screen::StartArena { path, db: args.db, jobs: args.jobs, play: !args.report };
    crate::app::run(None, None, Some(start), None)
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

/// `tabula generate <game> ...`: a level from the game's generator.
fn generate(game: &str, options: &[String]) -> anyhow::Result<ExitCode> {
    let generators = games::generators();
    let named = games::all().into_iter().find(|g| g.folder() == game || g.name() == game);
    let Some(generator) = named.and_then(|g| generators.iter().find(|m| m.game == g.name())) else {
        let folders: Vec<&str> =
            generators.iter().filter_map(|m| games::find(m.game)).map(|g| g.folder()).collect();
        bail!("there is no generator for '{game}'; these games have one: {}", folders.join(", "));
    };
    if options.iter().any(|o| o == "--help" || o == "-h") {
        println!("Options of `tabula generate {game}`:\n{}", generator.options);
        println!("  --like FILE   a new board like that level, as the window deals one each game");
        println!("  --seed S      the seed (default 0)\n  --out FILE    write the level here");
        return Ok(ExitCode::SUCCESS);
    }
    let mut pairs = Vec::new();
    let mut rest = options.iter();
    while let Some(name) = rest.next() {
        let Some(name) = name.strip_prefix("--") else { bail!("expected an option --name, found '{name}'") };
        let Some(value) = rest.next() else { bail!("--{name} needs a value") };
        pairs.push((name.to_owned(), value.clone()));
    }
    let take = |pairs: &mut Vec<(String, String)>, name: &str| {
        pairs.iter().position(|(n, _)| n == name).map(|i| pairs.remove(i).1)
    };
    let seed = match take(&mut pairs, "seed") {
        Some(seed) => seed.parse::<u64>().with_context(|| format!("--seed takes a number, not '{seed}'"))?,
        None => 0,
    };
    let out = take(&mut pairs, "out").map(PathBuf::from);
    // `--like FILE`: a new board like that level, as the window deals one.
    let made = match take(&mut pairs, "like") {
        Some(file) if pairs.is_empty() => {
            let like = level::load(Path::new(&file))?;
            generator.deal_like(&like, seed).map_err(|e| anyhow::anyhow!("{file}: {e}"))?
        }
        Some(_) => bail!("--like takes no other option but --seed and --out"),
        None => generator.generate(&pairs, seed).map_err(anyhow::Error::msg)?,
    };
    let text = made.layout();
    // Read back as any level file is: what is written is valid.
    level::parse(&text, "generated level")?;
    match out {
        Some(path) => {
            level::write_atomically(&path, &text)
                .with_context(|| format!("cannot write {}", path.display()))?;
            eprintln!("wrote {}", path.display());
        }
        None => print!("{text}"),
    }
    Ok(ExitCode::SUCCESS)
}
