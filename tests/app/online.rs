//! Windows at a game server's table: two windows' worlds (and a
//! spectator's) play through a real server on a loopback port, hosted as
//! the window hosts one.

use std::time::Duration;

use serde_json::{Value, json};
use tabula::app::game::WindowGame;
use tabula::app::online::host::Hosting;
use tabula::app::online::seats_file::SeatsFile;
use tabula::app::online::{OnlineTable, Seek};

use super::*;

/// A server as a window hosts one, on a loopback port of its own.
fn host(dir: &Path) -> Hosting {
    let listen = "127.0.0.1:0".parse().unwrap();
    Hosting::start(listen, &dir.join("server"), &tabula::app::levels::library::levels_root()).unwrap()
}

/// A window's world, its seats kept in a file of its own.
fn window(dir: &Path, name: &str) -> App {
    let own = dir.join(name);
    std::fs::create_dir_all(&own).unwrap();
    headless_with(&own, |app| {
        app.insert_resource(SeatsFile(own.join("online-seats.ron")));
    })
}

fn seek(app: &mut App, url: &str, name: &str, seek: Seek) {
    let table = OnlineTable::open(url, name, seek).unwrap();
    app.world_mut().insert_resource(table);
}

fn online(app: &App) -> &OnlineTable {
    app.world().resource::<OnlineTable>()
}

/// Frames of every window, a few milliseconds apart, until `done`; fails
/// after ten seconds of real time.
fn run_until(apps: &mut [&mut App], what: &str, done: impl Fn(&[&mut App]) -> bool) {
    let start = std::time::Instant::now();
    while !done(apps) {
        assert!(start.elapsed() < Duration::from_secs(10), "waited ten seconds for this: {what}");
        for app in apps.iter_mut() {
            app.update();
        }
        std::thread::sleep(Duration::from_millis(2));
    }
}

fn has_session<G: WindowGame>(app: &App) -> bool {
    app.world().get_resource::<Session<G>>().is_some()
}

/// A table of `level` hosted by `ann`'s window, seat 2 joined by `bob`'s.
fn sit_down<G: WindowGame>(url: &str, ann: &mut App, bob: &mut App, level: &str) {
    let create = json!({"type": "create", "level": level, "seats": ["person", "person"]});
    seek(ann, url, "Ann", Seek::Create(create));
    run_until(&mut [&mut *ann], "the host's table", |a| has_session::<G>(a[0]));
    let table = online(ann).table.clone().unwrap();
    seek(bob, url, "Bob", Seek::Join { table, seat: None });
    run_until(&mut [&mut *ann, &mut *bob], "both seated", |a| {
        has_session::<G>(a[1]) && a.iter().all(|app| online(app).all_seated())
    });
}

/// The seat to move's first legal move, as its window sees it.
fn first_move<G: WindowGame>(app: &App) -> Option<(Player, G::Move)> {
    let session = app.world().resource::<Session<G>>();
    let me = session.human_to_move()?;
    let mut moves = Vec::new();
    tabula_engine::core::Observation::legal_moves(&*session.view(), me, &mut moves);
    moves.first().map(|&mv| (me, mv))
}

fn plies<G: WindowGame>(app: &App) -> usize {
    app.world().resource::<Session<G>>().moves.len()
}

#[test]
fn two_windows_play_nim_through_a_hosted_server() {
    let dir = temp_dir("online-nim");
    let server = host(&dir);
    let (mut ann, mut bob) = (window(&dir, "ann"), window(&dir, "bob"));
    sit_down::<Nim>(&server.local_url(), &mut ann, &mut bob, "nim/traditional-3-4-5");
    for _ in 0..100 {
        let over = |app: &App| app.world().resource::<Session<Nim>>().outcome().is_some();
        if over(&ann) && over(&bob) {
            break;
        }
        let ply = plies::<Nim>(&ann);
        for app in [&mut ann, &mut bob] {
            if let Some((by, mv)) = first_move::<Nim>(app) {
                app.world_mut().write_message(RequestMove::<Nim> { by, mv });
            }
        }
        run_until(&mut [&mut ann, &mut bob], "the move heard by both", |a| {
            a.iter().all(|app| plies::<Nim>(app) == ply + 1)
        });
        let (a, b) = (session(&ann), session(&bob));
        assert_eq!(a.game, b.game, "both windows see the same piles after move {}", ply + 1);
    }
    let result: Value = serde_json::to_value(online(&ann).result.clone()).unwrap();
    assert_eq!(result["reason"], "rules");
    assert!(online(&bob).result.is_some());
    assert!(status(&ann).contains("won") || status(&ann).contains("wins"), "{}", status(&ann));
}
