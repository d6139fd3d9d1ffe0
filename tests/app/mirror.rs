//! The mirror test: random games played through the window's own request
//! path (agents in the seats, a person's seat driven by keys in Nim), and
//! after every move, once the pieces have landed, the board's entities
//! show exactly what the screen's seat sees.

use super::*;
use tabula::app::session::BoardBusy;
use tabula::app::settings::Settings;
use tabula_engine::core::rng_from_seed;
use tabula_engine::mancala::{Capture, Mancala, MancalaLevel};

const GAMES: u64 = 200;

pub(super) fn quick(app: &mut App) {
    let mut settings = app.world_mut().resource_mut::<Settings>();
    settings.ai_moves_per_second = 30.0;
    settings.animation_speed = 4.0;
}

pub(super) fn settled(app: &App) -> bool {
    app.world().resource::<BoardBusy>().0 == 0
}

/// Runs `game` to its end, calling `check` on every settled frame and
/// `human` when a person is to move; returns how many moves were checked
/// (each once, right after it was played).
fn play<G: tabula::app::game::WindowGame>(
    app: &mut App,
    human: impl FnMut(&mut App),
    check: impl FnMut(&mut App, &str),
) -> usize {
    play_moves::<G>(app, human, check, 1)
}

/// The same, where up to `together` moves may come in one frame (a
/// Stop comes in the frame of the breach it stops).
fn play_moves<G: tabula::app::game::WindowGame>(
    app: &mut App,
    mut human: impl FnMut(&mut App),
    mut check: impl FnMut(&mut App, &str),
    together: usize,
) -> usize {
    let mut checked = 0;
    for _ in 0..20_000 {
        let (moves, over, to_move) = {
            let session = app.world().resource::<Session<G>>();
            (session.moves.len(), session.game.outcome().is_some(), session.human_to_move())
        };
        if settled(app) {
            if moves > checked {
                assert!(moves <= checked + together, "{} moves between settled frames", moves - checked);
                check(app, &format!("after move {moves}"));
                checked = moves;
            }
            if over {
                return checked;
            }
            if to_move.is_some() {
                human(app);
                continue;
            }
        }
        frames(app, 1);
    }
    panic!("the game did not end");
}

pub(super) fn nim_stones(app: &mut App) -> Vec<u32> {
    let piles = session(app).view().piles().len();
    let mut counts = vec![0; piles];
    for stone in app.world_mut().query::<&Stone>().iter(app.world()) {
        counts[stone.pile] += 1;
    }
    counts
}

#[test]
fn nim_stone_entities_show_every_pile_after_every_move() {
    use tabula::app::nim::{DRAWN_STONES, NimChoice};
    let dir = temp_dir("mirror-nim");
    let mut app = headless(&dir);
    app.add_plugins(bevy::input::InputPlugin);
    quick(&mut app);
    let mut rng = rng_from_seed(5);
    let mut moves = 0;
    for game in 0..GAMES {
        use rand::Rng;
        let piles: Vec<u32> = (0..rng.random_range(1..=4)).map(|_| rng.random_range(1..=9)).collect();
        let ending = if game % 2 == 0 { Ending::Normal } else { Ending::Misere };
        start(
            &mut app,
            nim_level(&piles, ending),
            None,
            vec![seat("John", None), seat("Mary", Some("random"))],
        );
        let mut keys_rng = rng_from_seed(game);
        moves += play::<Nim>(
            &mut app,
            |app| {
                // John plays a random legal take by keys: rows, digits, Enter.
                let mut legal = Vec::new();
                session(app).game.legal_moves(Player::ONE, &mut legal);
                let take = legal[keys_rng.random_range(0..legal.len())];
                let n = session(app).game.piles().len();
                let at = app.world().resource::<NimChoice>().pile;
                // Down passes over emptied piles.
                let piles = session(app).game.piles();
                let ahead = (take.pile as usize + n - at) % n;
                let downs = (1..=ahead).filter(|k| piles[(at + k) % n] > 0).count();
                let mut keys = vec![KeyCode::ArrowDown; downs];
                keys.extend(take.count.to_string().bytes().map(|d| match d - b'0' {
                    0 => KeyCode::Digit0,
                    1 => KeyCode::Digit1,
                    2 => KeyCode::Digit2,
                    3 => KeyCode::Digit3,
                    4 => KeyCode::Digit4,
                    5 => KeyCode::Digit5,
                    6 => KeyCode::Digit6,
                    7 => KeyCode::Digit7,
                    8 => KeyCode::Digit8,
                    _ => KeyCode::Digit9,
                }));
                keys.push(KeyCode::Enter);
                let before = session(app).moves.len();
                press(app, &keys);
                let status = status(app);
                assert_eq!(
                    session(app).moves.len(),
                    before + 1,
                    "game {game}: John's keys {keys:?} played {take}: {status}"
                );
            },
            |app, when| {
                let shown: Vec<u32> =
                    session(app).view().piles().iter().map(|&n| n.min(DRAWN_STONES)).collect();
                assert_eq!(nim_stones(app), shown, "game {game} {when}");
            },
        );
    }
    assert!(moves > GAMES as usize * 3, "{moves} moves checked");
}

pub(super) fn mancala_stones(app: &mut App) -> Vec<u16> {
    use tabula::app::mancala::Stone as MancalaStone;
    let cells = app.world().resource::<Session<Mancala>>().view().cells().len();
    let mut counts = vec![0; cells];
    for stone in app.world_mut().query::<&MancalaStone>().iter(app.world()) {
        counts[stone.cell] += 1;
    }
    counts
}

#[test]
fn mancala_stone_entities_show_every_pit_and_store_after_every_move() {
    use tabula::app::mancala::Cell;
    let dir = temp_dir("mirror-mancala");
    let mut app = headless(&dir);
    quick(&mut app);
    let mut moves = 0;
    for game in 0..GAMES {
        let (pits, stones) = [(3, 2), (4, 3), (6, 4)][game as usize % 3];
        let capture = [Capture::Standard, Capture::Empty, Capture::None][game as usize / 3 % 3];
        let level = LevelFile::new::<Mancala>(MancalaLevel {
            name: "mirror".into(),
            description: String::new(),
            group: Default::default(),
            pits,
            stones,
            capture,
            sweep: game % 5 != 4,
            move_cap: 2000,
        });
        start(&mut app, level, None, vec![seat("Ann", Some("random")), seat("Bob", Some("random"))]);
        moves += play::<Mancala>(
            &mut app,
            |_| unreachable!("agents in both seats"),
            |app, when| {
                let cells = app.world().resource::<Session<Mancala>>().view().cells().to_vec();
                assert_eq!(mancala_stones(app), cells, "game {game} {when}");
                let drawn = app.world_mut().query::<&Cell>().iter(app.world()).count();
                assert_eq!(drawn, cells.len(), "one entity a pit or store");
            },
        );
    }
    assert!(moves > GAMES as usize * 5, "{moves} moves checked");
}

/// Every robot's tile, facing and hints, and every tile's kind and
/// place, as the board's entities hold them.
pub(super) fn robot_board_matches_the_view(app: &mut App, when: &str) {
    use tabula::app::robots::{BoardTile, Facing, HeldHints, RobotPiece, TileKind, TilePos};
    use tabula_engine::robots::Robots;
    let view = app.world().resource::<Session<Robots>>().view().into_owned();
    let layout = *app.world().resource::<tabula::app::robots::RobotLayout>();
    let robots: Vec<(char, TilePos, Facing, HeldHints)> = app
        .world_mut()
        .query::<(&RobotPiece, &TilePos, &Facing, &HeldHints, &Transform)>()
        .iter(app.world())
        .map(|(piece, at, facing, hints, transform)| {
            // Settled, each robot stands on its tile, its glide over.
            let on = layout.position(at.0);
            assert!(
                transform.translation.truncate().distance(on) < 0.01,
                "{when}: robot {} at {transform:?}",
                piece.0
            );
            (piece.0, *at, *facing, hints.clone())
        })
        .collect();
    assert_eq!(robots.len(), view.robots().len(), "{when}: one entity a robot");
    for (id, at, facing, hints) in robots {
        let robot = view.robot(id).unwrap();
        assert_eq!((at.0, facing.0, &hints.0), (robot.at, robot.facing, &robot.hints), "{when}: robot {id}");
    }
    let mut tiles: Vec<(TilePos, TileKind)> = app
        .world_mut()
        .query_filtered::<(&TilePos, &TileKind), With<BoardTile>>()
        .iter(app.world())
        .map(|(at, kind)| (*at, *kind))
        .collect();
    assert_eq!(tiles.len(), view.width() as usize * view.height() as usize, "{when}: one entity a tile");
    tiles.sort_by_key(|(at, _)| (at.0.1, at.0.0));
    for (i, (at, kind)) in tiles.iter().enumerate() {
        let p = ((i % view.width() as usize) as u16, (i / view.width() as usize) as u16);
        assert_eq!((at.0, kind.0), (p, view.tile(p)), "{when}: the tile at {p:?}");
    }
}

#[test]
fn robot_board_entities_show_every_robot_and_tile_after_every_move() {
    use tabula_engine::robots::Robots;
    let dir = temp_dir("mirror-robots");
    let mut app = headless(&dir);
    quick(&mut app);
    let root = crate::manifest_dir().join("levels/robots");
    let mut levels: Vec<PathBuf> = (1..=10)
        .map(|n| {
            let prefix = format!("{n:02}-");
            std::fs::read_dir(&root)
                .unwrap()
                .map(|e| e.unwrap().path())
                .find(|p| p.file_name().unwrap().to_string_lossy().starts_with(&prefix))
                .unwrap()
        })
        .collect();
    levels.sort();
    let (mut moves, mut exchanges) = (0, 0);
    for game in 0..GAMES {
        let file = level::load(&levels[game as usize % levels.len()]).unwrap();
        let mut robots = file.get::<Robots>().unwrap().clone();
        // Short games, with exchanges to spare on every board.
        robots.move_cap = 40;
        robots.swaps = robots.swaps.max(1) * 3;
        let file = LevelFile::new::<Robots>(robots);
        let seats =
            (0..file.game().num_players(&file)).map(|i| seat(&format!("R{i}"), Some("random"))).collect();
        start(&mut app, file, None, seats);
        robot_board_matches_the_view(&mut app, &format!("game {game} at the start"));
        moves += play::<Robots>(
            &mut app,
            |_| unreachable!("agents in every seat"),
            |app, when| {
                let session = app.world().resource::<Session<Robots>>();
                let last = session.moves.last().copied();
                exchanges += matches!(last, Some(tabula_engine::robots::RobotMove::Exchange { .. })) as usize;
                robot_board_matches_the_view(app, &format!("game {game} {when}"));
            },
        );
    }
    assert!(moves > GAMES as usize * 10 && exchanges > 100, "{moves} moves, {exchanges} exchanges checked");
}

#[test]
fn an_exchange_moves_tile_and_robot_entities_and_spawns_none() {
    use tabula::app::robots::{BoardTile, RobotPiece, TilePos};
    use tabula_engine::robots::{RobotMove, Robots};
    let dir = temp_dir("exchange-entities");
    let mut app = headless(&dir);
    quick(&mut app);
    let path = crate::manifest_dir().join("levels/robots/09-swap-puzzle.ron");
    start(&mut app, level::load(&path).unwrap(), None, vec![seat("Ann", None), seat("Bob", None)]);
    let pieces = |app: &mut App| {
        let mut all: Vec<(Entity, (u16, u16))> = app
            .world_mut()
            .query_filtered::<(Entity, &TilePos), Or<(With<BoardTile>, With<RobotPiece>)>>()
            .iter(app.world())
            .map(|(e, at)| (e, at.0))
            .collect();
        all.sort();
        all
    };
    let before = pieces(&mut app);
    // A's tile (0, 0), a plain one, with the conveyor at (0, 2).
    let mv = RobotMove::Exchange { a: (0, 0), b: (0, 2) };
    app.world_mut().write_message(RequestMove::<Robots> { by: Player::ONE, mv });
    for _ in 0..100 {
        frames(&mut app, 1);
        if settled(&app) {
            break;
        }
    }
    assert_eq!(app.world().resource::<Session<Robots>>().moves, [mv]);
    let after = pieces(&mut app);
    let entities = |v: &[(Entity, (u16, u16))]| v.iter().map(|(e, _)| *e).collect::<Vec<_>>();
    assert_eq!(entities(&before), entities(&after), "the same entities, none spawned or despawned");
    let moved: Vec<_> = before.iter().zip(&after).filter(|(b, a)| b.1 != a.1).collect();
    assert!(moved.len() >= 2, "the two tiles (and the robot on one) changed places: {moved:?}");
    robot_board_matches_the_view(&mut app, "after the exchange");
}

/// Every card entity on the table shows what the screen's seat sees of
/// that card: its face, or its back where the seat has not seen it.
pub(super) fn table_matches_the_view(app: &mut App, when: &str) {
    use tabula::app::russian_bank::{CardFace, TableCard};
    use tabula_engine::russian_bank::{Card, Place, RussianBank};
    let view = app.world().resource::<Session<RussianBank>>().view().into_owned();
    let table = &view.0;
    let seen = |place: Place| -> Vec<Option<Card>> {
        match place {
            Place::Reserve(p) => {
                let side = table.side(p);
                let hidden = side.reserve_hidden as usize;
                side.reserve.as_slice().iter().enumerate().map(|(i, &c)| (i >= hidden).then_some(c)).collect()
            }
            Place::Hand(p) => vec![None; table.side(p).hand.len()],
            Place::Shown(p) => table.side(p).shown.into_iter().map(Some).collect(),
            Place::Waste(p) => table.side(p).waste.as_slice().iter().map(|&c| Some(c)).collect(),
            Place::Tableau(n) => table.tableau(n as usize - 1).iter().map(|&c| Some(c)).collect(),
            Place::Foundation(n) => table.foundation_pile(n as usize - 1).into_iter().map(Some).collect(),
        }
    };
    let mut drawn: std::collections::HashMap<Place, Vec<(usize, CardFace)>> = Default::default();
    for (card, face, transform) in
        app.world_mut().query::<(&TableCard, &CardFace, &Transform)>().iter(app.world())
    {
        drawn.entry(card.place).or_default().push((card.index, *face));
        // Settled, each card lies where its pile has it, flights over.
        let at = tabula::app::russian_bank::card_position(card.place, card.index);
        assert!(
            transform.translation.truncate().distance(at) < 0.01,
            "{when}: {card:?} lies at {transform:?}"
        );
    }
    let mut places = Vec::new();
    for p in [Player::ONE, Player::TWO] {
        places.extend([Place::Reserve(p), Place::Hand(p), Place::Shown(p), Place::Waste(p)]);
    }
    places.extend((1..=8).flat_map(|n| [Place::Tableau(n), Place::Foundation(n)]));
    for place in places {
        let cards = seen(place);
        let mut shown = drawn.remove(&place).unwrap_or_default();
        shown.sort_by_key(|(i, _)| *i);
        // Every card of every pile is an entity, in its place.
        let indices: Vec<usize> = shown.iter().map(|(i, _)| *i).collect();
        assert_eq!(indices, (0..cards.len()).collect::<Vec<_>>(), "{when}: {place:?}");
        for (i, face) in shown {
            assert_eq!(face, CardFace(cards[i]), "{when}: card {i} of {place:?}");
        }
    }
    assert!(drawn.is_empty(), "{when}: cards on no pile: {drawn:?}");
}

#[test]
fn russian_bank_card_entities_show_every_pile_and_no_hidden_face_after_every_move() {
    use tabula_engine::russian_bank::RussianBank;
    let dir = temp_dir("mirror-bank");
    let mut app = headless(&dir);
    quick(&mut app);
    let path = crate::manifest_dir().join("levels/russian_bank/01-shuffled-deal.ron");
    let file = level::load(&path).unwrap();
    let mut bank = file.get::<RussianBank>().unwrap().clone();
    // Short games: the opening has the reveals, loads, breaches and Stops.
    bank.move_cap = 40;
    let file = LevelFile::new::<RussianBank>(bank);
    let mut moves = 0;
    // The card entities of the first deal are every deal's: no move, Stop
    // or new deal spawns or despawns one.
    let mut first_cards: Option<Vec<Entity>> = None;
    let mut same_cards = move |app: &mut App, when: &str| {
        use tabula::app::russian_bank::TableCard;
        let mut now: Vec<Entity> =
            app.world_mut().query_filtered::<Entity, With<TableCard>>().iter(app.world()).collect();
        now.sort();
        let first = first_cards.get_or_insert_with(|| now.clone());
        assert_eq!(first.len(), 104, "a card entity for each card of two decks");
        assert!(*first == now, "{when}: card entities were spawned or despawned");
        let redealt = app.world().resource::<tabula::app::russian_bank::Redealt>().0;
        assert_eq!(redealt, 0, "{when}: the steps did not account for the table");
    };
    for game in 0..GAMES {
        // Random breaks priority often; greedy stops every breach.
        let (a, b) = if game % 2 == 0 { ("random", "greedy") } else { ("greedy", "random") };
        let plan = SessionPlan {
            level_path: None,
            level: file.clone(),
            seats: vec![seat("Ann", Some(a)), seat("Bob", Some(b))],
            seed: game,
            replay: None,
            deal: false,
        };
        app.world_mut().write_message(SessionRequest::Start(Box::new(plan)));
        frames(&mut app, 3);
        table_matches_the_view(&mut app, &format!("game {game} at the start"));
        same_cards(&mut app, &format!("game {game} at the start"));
        moves += play_moves::<RussianBank>(
            &mut app,
            |_| unreachable!("agents in both seats"),
            |app, when| {
                table_matches_the_view(app, &format!("game {game} {when}"));
                same_cards(app, &format!("game {game} {when}"));
            },
            2,
        );
    }
    assert!(moves > GAMES as usize * 20, "{moves} moves checked");
}

#[test]
fn an_undo_and_a_move_in_one_frame_leave_the_robot_board_as_the_engine_has_it() {
    use tabula_engine::robots::{RobotMove, Robots};
    let dir = temp_dir("undo-and-move");
    let mut app = headless(&dir);
    quick(&mut app);
    let path = crate::manifest_dir().join("levels/robots/09-swap-puzzle.ron");
    start(&mut app, level::load(&path).unwrap(), None, vec![seat("Ann", None), seat("Bob", None)]);
    // An exchange: followed twice, it would swap the tiles back.
    let step = RobotMove::Exchange { a: (0, 0), b: (0, 2) };
    app.world_mut().write_message(RequestMove::<Robots> { by: Player::ONE, mv: step });
    frames(&mut app, 20);
    // Undo takes Ann's exchange back; the same frame, she makes it again.
    app.world_mut().write_message(SessionRequest::Undo);
    app.world_mut().write_message(RequestMove::<Robots> { by: Player::ONE, mv: step });
    frames(&mut app, 20);
    assert_eq!(app.world().resource::<Session<Robots>>().moves, [step]);
    robot_board_matches_the_view(&mut app, "after an undo and a move in one frame");
}
