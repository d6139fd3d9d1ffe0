//! How long a move takes from one window to another through a game server
//! on this machine (issue 29): two windows' worlds (headless Bevy apps, as
//! the tests build them) at a table hosted as the window hosts one, on
//! 127.0.0.1. Each move is written as the board writes a click's move
//! (`RequestMove`); the time runs until the other window has taken it in
//! and its board starts to move (`MoveApplied`). Both worlds run frames
//! back to back, so a real window adds at most one frame to take in the
//! click (16.7 ms at 60 Hz) and none on the other side (the connection
//! wakes it at once).
//!
//! `cargo run --example online_latency --features dev -- [--moves 400]`
//!
//! Loopback only; it stops after `--moves` moves or 60 s, whichever comes first.

use std::path::Path;
use std::time::{Duration, Instant};

use bevy::prelude::*;
use bevy::state::app::StatesPlugin;
use tabula::app;
use tabula::app::levels::LevelSources;
use tabula::app::levels::library::levels_root;
use tabula::app::online::host::Hosting;
use tabula::app::online::seats_file::SeatsFile;
use tabula::app::online::{OnlineTable, Seek};
use tabula::app::session::{RequestMove, Session};
use tabula_engine::core::Observation;
use tabula_engine::nim::Nim;
use tabula_server::protocol::CreateTable;

fn window(dir: &Path) -> App {
    std::fs::create_dir_all(dir).unwrap();
    let mut app = App::new();
    LevelSources::new(&levels_root(), None).register(&mut app);
    app.add_plugins((MinimalPlugins, StatesPlugin, app::asset_plugin()))
        .init_asset::<Image>()
        .insert_resource(app::settings::SettingsFile(dir.join("settings.ron")))
        .insert_resource(app::session::ReplaysFolder(dir.join("replays")))
        .insert_resource(SeatsFile(dir.join("seats.ron")))
        .add_plugins(app::plugin);
    app.update();
    app
}

fn moves(app: &App) -> Option<usize> {
    app.world().get_resource::<Session<Nim>>().map(|s| s.moves.len())
}

/// Frames of both windows until `done`, or 10 s.
fn run(apps: &mut [&mut App; 2], done: impl Fn(&[&mut App; 2]) -> bool) -> bool {
    let start = Instant::now();
    while !done(apps) {
        if start.elapsed() > Duration::from_secs(10) {
            return false;
        }
        apps.iter_mut().for_each(|a| a.update());
    }
    true
}

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    sorted[((sorted.len() - 1) as f64 * p).round() as usize]
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let wanted =
        args.iter().position(|a| a == "--moves").and_then(|i| args.get(i + 1)?.parse().ok()).unwrap_or(400);
    let dir = std::env::temp_dir().join(format!("tabula-online-latency-{}", std::process::id()));
    let hosting =
        Hosting::start("127.0.0.1:0".parse().unwrap(), &dir.join("server"), &levels_root()).unwrap();
    let url = hosting.local_url();
    let (mut ann, mut bob) = (window(&dir.join("ann")), window(&dir.join("bob")));
    let mut times = Vec::new();
    let deadline = Instant::now() + Duration::from_secs(60);
    while times.len() < wanted && Instant::now() < deadline {
        // A game of many stones; a new table once it is over.
        let create = CreateTable {
            level: Some("nim/large-20-piles".into()),
            seats: Some(vec!["person".into(), "person".into()]),
            ..CreateTable::default()
        };
        ann.world_mut().insert_resource(OnlineTable::open(&url, "Ann", Seek::Create(create)).unwrap());
        bob.world_mut().remove_resource::<Session<Nim>>();
        let mut apps = [&mut ann, &mut bob];
        assert!(run(&mut apps, |a| a[0].world().resource::<OnlineTable>().table.is_some()
            && moves(a[0]) == Some(0)));
        let table = apps[0].world().resource::<OnlineTable>().table.clone().unwrap();
        let seek = Seek::Join { table, seat: None };
        apps[1].world_mut().insert_resource(OnlineTable::open(&url, "Bob", seek).unwrap());
        assert!(run(&mut apps, |a| a
            .iter()
            .all(|w| moves(w) == Some(0) && w.world().resource::<OnlineTable>().all_seated())));
        play_one_game(&mut apps, &mut times, wanted);
    }
    times.sort();
    println!(
        "{} moves, window to window through the server on 127.0.0.1: median {:.2} ms, p99 {:.2} ms, max {:.2} ms",
        times.len(),
        percentile(&times, 0.5).as_secs_f64() * 1e3,
        percentile(&times, 0.99).as_secs_f64() * 1e3,
        times.last().unwrap().as_secs_f64() * 1e3,
    );
    drop(hosting);
    let _ = std::fs::remove_dir_all(dir);
}

/// Moves until the game ends: each move's time from the mover's request to
/// the other window's taking it in.
fn play_one_game(apps: &mut [&mut App; 2], times: &mut Vec<Duration>, wanted: usize) {
    while times.len() < wanted {
        let Some((mover, by, mv)) = (0..2).find_map(|i| {
            let session = apps[i].world().resource::<Session<Nim>>();
            let me = session.human_to_move()?;
            let mut legal = Vec::new();
            session.view().legal_moves(me, &mut legal);
            legal.first().map(|&mv| (i, me, mv))
        }) else {
            return;
        };
        let before = moves(apps[0]).unwrap();
        let start = Instant::now();
        apps[mover].world_mut().write_message(RequestMove::<Nim> { by, mv });
        assert!(run(apps, |a| moves(a[1 - mover]) == Some(before + 1)), "the move never came");
        times.push(start.elapsed());
        // The mover hears its own move too before the next one.
        assert!(run(apps, |a| moves(a[mover]) == Some(before + 1)));
    }
}
