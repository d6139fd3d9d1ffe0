//! Windows at a game server's table: two windows' worlds (and a
//! spectator's) play through a real server on a loopback port, hosted as
//! the window hosts one. Each seat's window plays with an engine agent
//! choosing from what its seat sees; after every move, once the pieces
//! have landed, every window agrees on the game, holds the view the
//! server sent it, and its board's entities show that view.

mod away;
mod browser;
mod games;
mod take_back;

use std::time::Duration;

use serde_json::Value;
use tabula::app::game::WindowGame;
use tabula::app::online::host::Hosting;
use tabula::app::online::seats_file::{self, SeatsFile};
use tabula::app::online::{OnlineTable, Seek, ServerSaid};
use tabula_engine::core::{Agent, GameRng, rng_from_seed};
use tabula_server::protocol::CreateTable;

use super::mirror::{quick, settled};
use super::*;

/// A server as a window hosts one, on a loopback port of its own.
fn host(dir: &Path) -> Hosting {
    let listen = "127.0.0.1:0".parse().unwrap();
    Hosting::start(listen, &dir.join("server"), &tabula::app::levels::library::levels_root()).unwrap()
}

/// The view the last `moved` message brought this window, and its `ply`
/// (the moves played with it).
#[derive(Resource, Default)]
struct HeardView(Option<(usize, Value)>);

fn hear_views(mut said: MessageReader<ServerSaid>, mut heard: ResMut<HeardView>) {
    for message in said.read() {
        if let ServerSaid::Moved(moved) = message {
            heard.0 = Some((moved.ply, moved.view.clone()));
        }
    }
}

/// The `ply` of the last `moved` this window's test system took in (which
/// may run a frame after the window's own systems do).
fn heard_ply(app: &App) -> Option<usize> {
    app.world().resource::<HeardView>().0.as_ref().map(|(ply, _)| *ply)
}

/// A `create` request for `level` (a name the server offers), these seats.
pub fn create_of(level: &str, seats: &[&str]) -> CreateTable {
    CreateTable {
        level: Some(level.to_owned()),
        seats: Some(seats.iter().map(|s| s.to_string()).collect()),
        ..CreateTable::default()
    }
}

/// A window's world, its seats kept in a file of its own, its pieces
/// landing quickly.
fn window(dir: &Path, name: &str) -> App {
    let own = dir.join(name);
    std::fs::create_dir_all(&own).unwrap();
    let mut app = headless_with(&own, |app| {
        app.insert_resource(SeatsFile(own.join("online-seats.ron")))
            .init_resource::<HeardView>()
            .add_systems(Update, hear_views);
    });
    quick(&mut app);
    app
}

fn seats_file_of(dir: &Path, name: &str) -> PathBuf {
    dir.join(name).join("online-seats.ron")
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
pub(super) fn run_until(apps: &mut [&mut App], what: &str, done: impl Fn(&[&mut App]) -> bool) {
    let start = std::time::Instant::now();
    while !done(apps) {
        if start.elapsed() > Duration::from_secs(10) {
            let said: Vec<String> = apps
                .iter()
                .map(|a| a.world().get_resource::<StatusLine>().map(|s| s.text.clone()).unwrap_or_default())
                .collect();
            panic!("waited ten seconds for this: {what}; the windows say {said:?}");
        }
        for app in apps.iter_mut() {
            app.update();
        }
        std::thread::sleep(Duration::from_millis(2));
    }
}

/// Frames of every window until every board's pieces have landed.
fn settle(apps: &mut [&mut App]) {
    for _ in 0..1000 {
        if apps.iter().all(|app| settled(app)) {
            return;
        }
        for app in apps.iter_mut() {
            app.update();
        }
    }
    panic!("the boards were still moving after a thousand frames");
}

fn has_session<G: WindowGame>(app: &App) -> bool {
    app.world().get_resource::<Session<G>>().is_some()
}

/// Frames until every window shows `G`'s game screen, its board spawned
/// and settled.
fn on_screen<G: WindowGame>(apps: &mut [&mut App]) {
    use tabula::app::game::ActiveGame;
    run_until(apps, "the game's screen", |a| {
        a.iter().all(|app| {
            let world = app.world();
            *world.resource::<State<Screen>>().get() == Screen::Game
                && *world.resource::<State<ActiveGame>>().get() == ActiveGame::of::<G>()
        })
    });
    // The board is spawned in the frames after the screen is entered.
    for app in apps.iter_mut() {
        frames(app, 2);
    }
    settle(apps);
}

fn game_session<G: WindowGame>(app: &App) -> &Session<G> {
    app.world().resource::<Session<G>>()
}

/// A table of `level` hosted by `ann`'s window, seat 2 joined by `bob`'s;
/// the table's id.
fn sit_down<G: WindowGame>(url: &str, ann: &mut App, bob: &mut App, level: &str) -> String {
    seek(ann, url, "Ann", Seek::Create(create_of(level, &["person", "person"])));
    run_until(&mut [&mut *ann], "the host's table", |a| has_session::<G>(a[0]));
    let table = online(ann).table.clone().unwrap();
    seek(bob, url, "Bob", Seek::Join { table: table.clone(), seat: None });
    run_until(&mut [&mut *ann, &mut *bob], "both seated", |a| {
        has_session::<G>(a[1]) && a.iter().all(|app| online(app).all_seated())
    });
    assert_eq!(online(ann).seat, Some(Player::ONE));
    assert_eq!(online(bob).seat, Some(Player::TWO));
    on_screen::<G>(&mut [ann, bob]);
    table
}

/// A third window following `table` as a spectator.
fn watch<G: WindowGame>(url: &str, table: &str, cy: &mut App) {
    seek(cy, url, "Cy", Seek::Watch { table: table.to_owned() });
    run_until(&mut [&mut *cy], "the spectator's table", |a| has_session::<G>(a[0]));
    on_screen::<G>(&mut [&mut *cy]);
    assert_eq!(online(cy).seat, None, "a spectator holds no seat");
    assert!(!game_session::<G>(cy).has_human(), "no seat is the spectator's");
    assert!(status(cy).contains("Watching"), "{}", status(cy));
}

fn plies<G: WindowGame>(app: &App) -> usize {
    game_session::<G>(app).moves.len()
}

fn over<G: WindowGame>(app: &App) -> bool {
    game_session::<G>(app).outcome().is_some()
}

/// A seat's player: an engine agent choosing from what its window shows,
/// its moves sent as the window's board sends a person's.
struct Hand<G: WindowGame> {
    agent: Box<dyn Agent<G>>,
    rng: GameRng,
}

impl<G: WindowGame> Hand<G> {
    fn new(agent: &str, seed: u64) -> Hand<G> {
        let agent = G::agent_from_str(agent).expect("the game has this agent");
        Hand { agent, rng: rng_from_seed(seed) }
    }

    /// Sends this window's move if its seat is to move; whether it did.
    fn play(&mut self, app: &mut App) -> bool {
        let session = game_session::<G>(app);
        let Some(me) = session.human_to_move() else { return false };
        let view = session.view().into_owned();
        let mv = self.agent.choose(me, &view, &mut self.rng).expect("a seat to move has a move");
        app.world_mut().write_message(RequestMove::<G> { by: me, mv });
        true
    }
}

/// What a window's board must show, checked once its pieces have landed.
type Check = fn(&mut App, &str);

/// Every window at the same move of the same game.
fn agree<G: WindowGame>(apps: &[&mut App], when: &str) {
    let first = game_session::<G>(apps[0]);
    for (i, app) in apps.iter().enumerate().skip(1) {
        let session = game_session::<G>(app);
        assert_eq!(session.moves, first.moves, "{when}: windows 1 and {} played the same moves", i + 1);
        assert!(session.game == first.game, "{when}: windows 1 and {} see the same game", i + 1);
        assert_eq!(session.outcome(), first.outcome(), "{when}: windows 1 and {}", i + 1);
    }
}

/// The window's view is the one the server sent with the last move.
fn holds_the_heard_view<G: WindowGame>(app: &App, when: &str) {
    let (_, heard) = app.world().resource::<HeardView>().0.clone().expect("a move was heard");
    let heard: G::Observation = serde_json::from_value(heard).unwrap();
    assert!(*game_session::<G>(app).view() == heard, "{when}: the board's view is not the server's");
}

/// Plays on from where the windows are until `stop` says so or the game
/// ends: the first windows are the seats', played by `hands` in order,
/// any more are spectators'. After every move, once every board has
/// settled, every window agrees, holds the view the server sent it, and
/// passes `check`.
fn play_on<G: WindowGame>(
    apps: &mut [&mut App],
    hands: &mut [Hand<G>],
    check: Check,
    stop: impl Fn(&[&mut App]) -> bool,
) {
    loop {
        let ply = plies::<G>(apps[0]);
        agree::<G>(apps, &format!("at move {ply}"));
        if over::<G>(apps[0]) || stop(apps) {
            return;
        }
        let movers: usize =
            hands.iter_mut().zip(apps.iter_mut()).map(|(hand, app)| hand.play(app) as usize).sum();
        assert_eq!(movers, 1, "one window's seat is to move at move {ply}");
        let next = ply + 1;
        run_until(apps, &format!("move {next} heard by every window"), |a| {
            a.iter().all(|app| plies::<G>(app) == next && heard_ply(app) == Some(next))
        });
        settle(apps);
        for (i, app) in apps.iter_mut().enumerate() {
            let when = format!("window {} after move {next}", i + 1);
            holds_the_heard_view::<G>(app, &when);
            check(app, &when);
        }
    }
}

/// Both seats' windows know the game's end from the server, and the
/// table's seat is forgotten on disk (nothing to come back to).
fn ended_alike(dir: &Path, table: &str, ann: &App, bob: &App) {
    let (a, b) = (online(ann).result.clone(), online(bob).result.clone());
    assert!(a.is_some(), "the server told the end");
    assert_eq!(serde_json::to_value(&a).unwrap(), serde_json::to_value(&b).unwrap());
    let result: Value = serde_json::to_value(a).unwrap();
    assert_eq!(result["reason"], "rules");
    for name in ["ann", "bob"] {
        let kept = seats_file::read(&seats_file_of(dir, name));
        assert!(kept.iter().all(|s| s.table != table), "{name}'s finished seat is still kept: {kept:?}");
    }
}

/// The Nim board's stones, pile by pile, as its seat sees them.
fn nim_board(app: &mut App, when: &str) {
    use tabula::app::nim::DRAWN_STONES;
    let shown: Vec<u32> = session(app).view().piles().iter().map(|&n| n.min(DRAWN_STONES)).collect();
    assert_eq!(super::mirror::nim_stones(app), shown, "{when}");
}

/// The Mancala board's stones, pit by pit and store by store.
fn mancala_board(app: &mut App, when: &str) {
    use tabula::app::mancala::Cell;
    use tabula_engine::mancala::Mancala;
    let cells = game_session::<Mancala>(app).view().cells().to_vec();
    assert_eq!(super::mirror::mancala_stones(app), cells, "{when}");
    let drawn = app.world_mut().query::<&Cell>().iter(app.world()).count();
    assert_eq!(drawn, cells.len(), "{when}: one entity a pit or store");
}

/// Every card as its seat sees it, and no face of a card no one has seen
/// anywhere in the world: the window's game holds the unseen cards only in
/// the order every seat is shown, and a face-down card's rank and pips are
/// hidden.
fn bank_board(app: &mut App, when: &str) {
    use tabula::app::russian_bank::{CardFace, TableCard};
    use tabula_engine::russian_bank::RussianBank;
    super::mirror::table_matches_the_view(app, when);
    let game = &game_session::<RussianBank>(app).game;
    assert_eq!(*game, game.public_view(), "{when}: the window's game holds the unseen cards' order");
    let faces: std::collections::HashMap<Entity, CardFace> = app
        .world_mut()
        .query_filtered::<(Entity, &CardFace), With<TableCard>>()
        .iter(app.world())
        .map(|(e, face)| (e, *face))
        .collect();
    let mut marks = app.world_mut().query::<(&ChildOf, &Visibility, Option<&Text2d>)>();
    let mut seen_marks = 0;
    for (parent, visibility, text) in marks.iter(app.world()) {
        let Some(face) = faces.get(&parent.parent()) else { continue };
        seen_marks += 1;
        match face.0 {
            None => assert_eq!(*visibility, Visibility::Hidden, "{when}: a face-down card's mark shows"),
            Some(card) => {
                assert_ne!(*visibility, Visibility::Hidden, "{when}: {card:?}'s mark is hidden");
                if let Some(text) = text {
                    assert_eq!(text.0, card.rank_name(), "{when}: a mark of {card:?}");
                }
            }
        }
    }
    assert_eq!(seen_marks, faces.len() * 5, "{when}: each card's two ranks and three pips");
}

/// Every robot and tile as its seat sees them, and no home anywhere in the
/// world while homes are hidden: no robot of the window's game knows its
/// home, no tile is one, no ring or letter marks one.
fn robot_board(app: &mut App, when: &str) {
    use tabula::app::robots::{BoardTile, RevealedHome, TileKind, ZoomScaled};
    use tabula_engine::robots::{Robots, Tile};
    super::mirror::robot_board_matches_the_view(app, when);
    let game = &game_session::<Robots>(app).game;
    assert!(game.homes_hidden(), "{when}: a hidden-home board");
    for robot in game.robots() {
        assert_eq!(robot.home, None, "{when}: the window knows robot {}'s home", robot.id);
    }
    let homes = app
        .world_mut()
        .query::<&TileKind>()
        .iter(app.world())
        .filter(|kind| matches!(kind.0, Tile::Home(_)))
        .count();
    assert_eq!(homes, 0, "{when}: a tile entity is a home");
    let revealed = app.world_mut().query_filtered::<(), With<RevealedHome>>().iter(app.world()).count();
    assert_eq!(revealed, 0, "{when}: a home shown");
    let tiles: std::collections::HashSet<Entity> =
        app.world_mut().query_filtered::<Entity, With<BoardTile>>().iter(app.world()).collect();
    let mut marks = app.world_mut().query::<(&ChildOf, Option<&Text2d>, Has<ZoomScaled>)>();
    for (parent, text, ring) in marks.iter(app.world()) {
        if !tiles.contains(&parent.parent()) {
            continue;
        }
        assert!(!ring, "{when}: a home's ring or letter on a tile");
        if let Some(text) = text {
            assert_eq!(text.0, "?", "{when}: a tile says more than a hint tile's \"?\"");
        }
    }
}

/// A window hosting a server whose database fills up (as a full disk
/// does) says so on its status line and keeps its own game.
#[test]
fn a_hosting_window_whose_database_fills_says_why_and_plays_on() {
    let dir = temp_dir("online-halt");
    let levels = tabula::app::levels::library::levels_root();
    let mut config = Hosting::config("127.0.0.1:0".parse().unwrap(), &dir.join("server"), &levels);
    config.database_bytes = Some(160 * 1024);
    let hosting = Hosting::start_with(config).unwrap();
    let url = hosting.local_url();
    let mut ann = window(&dir, "ann");
    ann.world_mut().insert_resource(hosting);
    // Tables of a large level, from a client of the server, until it halts.
    let filler = tabula_server::link::Link::open(&url, "filler", || {}).unwrap();
    let text = std::fs::read_to_string(levels.join("robots/10-four-player-race.ron")).unwrap();
    let level_text = format!("{text}\n// {}", "padding ".repeat(1500));
    let create = CreateTable { level_text: Some(level_text), ..CreateTable::default() };
    let began = std::time::Instant::now();
    let mut sent = 0;
    while !status(&ann).contains("stopped taking moves") {
        assert!(began.elapsed() < Duration::from_secs(20), "the window never said: {}", status(&ann));
        if filler.events().iter().any(|e| matches!(e, tabula_server::link::LinkEvent::Up(_))) || sent > 0 {
            for _ in 0..4 {
                filler.send(tabula_server::protocol::Request::Create(Box::new(create.clone())), None);
                sent += 1;
            }
        }
        ann.update();
        std::thread::sleep(Duration::from_millis(20));
    }
    assert!(status(&ann).contains("database"), "{}", status(&ann));
    // The window goes on: a local game plays.
    let seats = vec![seat("Ann", None), seat("Bot", Some("random"))];
    start(&mut ann, nim_level(&[2, 3], tabula_engine::nim::Ending::Normal), None, seats);
    request(&mut ann, 0, 1, 1);
    assert_eq!(session(&ann).moves.len(), 1, "{}", status(&ann));
}
