//! Going online as the menu and the command line ask it (`GoOnline`): a
//! table hosted at the window's own server, joined and watched by its code
//! from other windows, come back to by token; a port already taken said,
//! and nothing changed.

use tabula::app::levels::library::levels_root;
use tabula::app::online::host::Hosting;
use tabula::app::online::seats_file::{self, SeatsFile};
use tabula::app::online::start::{GoOnline, HostFolder, create_request};
use tabula::app::online::{OnlineTable, Seek};
use tabula::app::session::SessionKind;
use tabula_server::protocol::CreateTable;

use super::online::run_until;
use super::*;

/// A window's world, its seats kept and its server's files in a folder of
/// its own.
fn window(dir: &Path, name: &str) -> App {
    let own = dir.join(name);
    std::fs::create_dir_all(&own).unwrap();
    headless_with(&own, |app| {
        app.insert_resource(SeatsFile(own.join("online-seats.ron")))
            .insert_resource(HostFolder(own.join("server")));
    })
}

fn at_table(app: &App) -> bool {
    app.world()
        .get_resource::<Session<Nim>>()
        .is_some_and(|s| matches!(s.kind, SessionKind::AtServer | SessionKind::Watching))
}

fn go(app: &mut App, asked: GoOnline) {
    app.world_mut().write_message(asked);
    app.update();
}

/// `app` hosts Nim 3-4-5 for two people at its own server and sits at
/// the table; the server's address.
fn host_traditional(app: &mut App) -> String {
    let level = levels_root().join("nim").join("traditional-3-4-5.ron");
    let seats = ["person".to_owned(), "person".to_owned()];
    let create = create_request(&level, &levels_root(), &seats, true, None).unwrap();
    // Port 0: any free port, as a test must; the window's default is 7878.
    go(app, GoOnline::Host { port: 0, create, level: Some(level.clone()) });
    let url = app.world().resource::<Hosting>().local_url();
    run_until(&mut [app], "the host at its table", |a| at_table(a[0]));
    let last = app.world().resource::<tabula::app::settings::Settings>().last_level.clone();
    assert_eq!(last, Some(level), "the menu opens on the level hosted next time");
    url
}

#[test]
fn the_menu_hosts_a_table_that_a_friend_joins_and_a_stranger_watches_by_its_code() {
    let dir = temp_dir("online-menu");
    let (mut ann, mut bob, mut eve) = (window(&dir, "ann"), window(&dir, "bob"), window(&dir, "eve"));
    let url = host_traditional(&mut ann);
    let table = ann.world().resource::<OnlineTable>().table.clone().unwrap();

    go(&mut bob, GoOnline::At { url: url.clone(), seek: Seek::Join { table: table.clone(), seat: None } });
    run_until(&mut [&mut ann, &mut bob], "the friend seated", |a| {
        at_table(a[1]) && a.iter().all(|app| app.world().resource::<OnlineTable>().all_seated())
    });
    assert_eq!(bob.world().resource::<OnlineTable>().seat, Some(Player::TWO));
    go(&mut eve, GoOnline::At { url: url.clone(), seek: Seek::Watch { table: table.clone() } });
    run_until(&mut [&mut ann, &mut bob, &mut eve], "the spectator watching", |a| at_table(a[2]));
    assert_eq!(eve.world().resource::<OnlineTable>().seat, None, "a spectator holds no seat");

    // Bob's window closes and opens again: his kept seat brings him back.
    let file = bob.world().resource::<SeatsFile>().0.clone();
    let kept = seats_file::read(&file);
    assert_eq!(kept.len(), 1);
    assert_eq!(
        (kept[0].table.as_str(), kept[0].seat, kept[0].url.as_str()),
        (table.as_str(), 2, url.as_str())
    );
    drop(bob);
    let mut bob = window(&dir, "bob");
    go(&mut bob, GoOnline::At { url, seek: Seek::Resume { token: kept[0].token.clone() } });
    run_until(&mut [&mut ann, &mut bob], "the friend back", |a| at_table(a[1]));
    assert_eq!(bob.world().resource::<OnlineTable>().seat, Some(Player::TWO));
}

/// A join refused (a code with no table) stops seeking: the menu says why,
/// not "waiting for the table…", and nothing is left connecting.
#[test]
fn a_join_refused_says_why_and_seeks_no_more() {
    let dir = temp_dir("online-menu-refused");
    let (mut ann, mut bob) = (window(&dir, "ann"), window(&dir, "bob"));
    let url = host_traditional(&mut ann);
    go(&mut bob, GoOnline::At { url, seek: Seek::Join { table: "no-such-table".into(), seat: None } });
    run_until(&mut [&mut ann, &mut bob], "the join refused", |a| {
        a[1].world().get_resource::<OnlineTable>().is_none()
    });
    let said = bob.world().resource::<StatusLine>().clone();
    assert!(said.error && said.text.contains("No table no-such-table"), "{}", said.text);
    assert_eq!(*bob.world().resource::<State<Screen>>().get(), Screen::Menu);
}

#[test]
fn the_menu_hosting_on_a_port_taken_says_so_and_changes_nothing() {
    let dir = temp_dir("online-menu-port");
    let taken = std::net::TcpListener::bind(("0.0.0.0", 0)).unwrap();
    let port = taken.local_addr().unwrap().port();
    let mut ann = window(&dir, "ann");
    let create = CreateTable { level: Some("nim/traditional-3-4-5".into()), ..CreateTable::default() };
    go(&mut ann, GoOnline::Host { port, create, level: None });
    frames(&mut ann, 2);
    let said = ann.world().resource::<StatusLine>().clone();
    assert!(said.error && said.text.contains(&format!("Port {port} is taken")), "{}", said.text);
    assert!(ann.world().get_resource::<Hosting>().is_none());
    assert!(ann.world().get_resource::<OnlineTable>().is_none());
    assert_eq!(*ann.world().resource::<State<Screen>>().get(), Screen::Menu);
}

#[test]
fn a_host_window_closed_and_opened_again_brings_its_server_and_table_back() {
    let dir = temp_dir("online-menu-host-back");
    let (mut ann, mut bob) = (window(&dir, "ann"), window(&dir, "bob"));
    let create = super::online::create_of("nim/traditional-3-4-5", &["person", "person"]);
    go(&mut ann, GoOnline::Host { port: 0, create, level: None });
    let url = ann.world().resource::<Hosting>().local_url();
    run_until(&mut [&mut ann], "the host at its table", |a| at_table(a[0]));
    let table = ann.world().resource::<OnlineTable>().table.clone().unwrap();
    go(&mut bob, GoOnline::At { url: url.clone(), seek: Seek::Join { table, seat: None } });
    run_until(&mut [&mut ann, &mut bob], "the friend seated", |a| {
        a.iter().all(|app| at_table(app) && app.world().resource::<OnlineTable>().all_seated())
    });
    // The host's window closes, and its server with it.
    let kept = seats_file::read(&ann.world().resource::<SeatsFile>().0);
    drop(ann);
    run_until(&mut [&mut bob], "the friend told the connection is lost", |a| {
        !a[0].world().resource::<OnlineTable>().up
    });
    let mut ann = window(&dir, "ann");
    go(
        &mut ann,
        GoOnline::At { url: kept[0].url.clone(), seek: Seek::Resume { token: kept[0].token.clone() } },
    );
    assert!(ann.world().get_resource::<Hosting>().is_some(), "the window's server started again");
    run_until(&mut [&mut ann, &mut bob], "both back at the table", |a| {
        a.iter().all(|app| at_table(app) && app.world().resource::<OnlineTable>().up)
    });
    assert_eq!(ann.world().resource::<OnlineTable>().seat, Some(Player::ONE));
}
