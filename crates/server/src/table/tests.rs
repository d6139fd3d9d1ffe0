//! A table's rules without a socket: a request in, the rows to keep and
//! the messages to each follower out.

use std::time::Instant;

use serde_json::{Value, json};
use tabula_engine::Player;
use tabula_engine::level::{self, LevelFile};

use super::{ConnId, Rematch, Table};
use crate::config::Limits;
use crate::protocol::{Clock, CreateTable, ErrorCode, Id};
use crate::store::{Inbox, Job, Op, Outbox, SavedSeat, SavedTable};

const NIM: &str = "Nim(name: \"Two piles\", piles: [2, 3], ending: Normal)";

fn level(text: &str) -> LevelFile {
    level::parse(text, "test").unwrap()
}

fn table(text: &str, spec: CreateTable) -> Table {
    Table::build("t1".into(), &level(text), 5, spec, &Limits::default(), None).unwrap()
}

/// A connection's end: its id, where its messages go, and what reads them.
struct Conn {
    id: ConnId,
    outbox: Outbox,
    inbox: Inbox,
}

fn conn(id: ConnId) -> Conn {
    let (outbox, inbox) = Outbox::new(64);
    Conn { id, outbox, inbox }
}

fn heard(c: &mut Conn) -> Vec<Value> {
    c.inbox.drain().iter().map(|t| serde_json::from_str(t).unwrap()).collect()
}

fn types(messages: &[Value]) -> Vec<&str> {
    messages.iter().map(|m| m["type"].as_str().unwrap()).collect()
}

/// Ann in seat 1, Bob in seat 2, a watcher; the rows kept so far.
fn seated(t: &mut Table, ann: &mut Conn, bob: &mut Conn, watcher: &mut Conn) -> Vec<Op> {
    let mut rows = Vec::new();
    let (seat, job) = t.join(ann.id, &ann.outbox, Some(1), "Ann".into(), "aaaa".into(), None).unwrap();
    assert_eq!(seat, Player::ONE);
    rows.extend(job.deliver());
    rows.extend(t.watch(watcher.id, &watcher.outbox, None).unwrap().deliver());
    let (_, job) = t.join(bob.id, &bob.outbox, None, "Bob".into(), "bbbb".into(), None).unwrap();
    rows.extend(job.deliver());
    rows
}

#[test]
fn a_move_is_kept_then_told_to_every_follower_as_it_sees_it() {
    let mut t = table(NIM, CreateTable::default());
    let (mut ann, mut bob, mut watcher) = (conn(1), conn(2), conn(3));
    let rows = seated(&mut t, &mut ann, &mut bob, &mut watcher);
    assert!(matches!(rows.as_slice(), [Op::Seat { seat: 1, .. }, Op::Seat { seat: 2, .. }]), "{rows:?}");
    // The game began with Bob: Ann is told her moves.
    let began = heard(&mut ann);
    assert_eq!(began.last().unwrap()["legal"].as_array().unwrap().len(), 5, "{began:?}");
    heard(&mut bob);
    heard(&mut watcher);
    let id = Id::number(7);
    let job = t.play(Player::ONE, &json!({"pile": 1, "count": 1}), Some(0), Some(&id), Some(ann.id)).unwrap();
    let rows = job.deliver();
    assert!(
        matches!(rows.as_slice(), [Op::Move { ply: 1, seat: 1, mv, clock: None, .. }] if mv == r#"{"pile":1,"count":1}"#),
        "{rows:?}"
    );
    let (a, b, w) = (heard(&mut ann), heard(&mut bob), heard(&mut watcher));
    assert_eq!((types(&a), types(&b), types(&w)), (vec!["moved"], vec!["moved"], vec!["moved"]));
    assert_eq!(a[0]["re"], 7, "the mover's copy answers its request");
    assert!(b[0].get("re").is_none() && w[0].get("re").is_none());
    assert_eq!(a[0]["legal"], json!([]));
    assert_eq!(b[0]["legal"].as_array().unwrap().len(), 4);
    assert_eq!(w[0]["legal"], json!([]));
    assert_eq!(a[0]["view"], w[0]["view"]);
}

#[test]
fn a_refused_move_keeps_nothing_and_changes_nothing() {
    let mut t = table(NIM, CreateTable::default());
    let (mut ann, mut bob, mut watcher) = (conn(1), conn(2), conn(3));
    seated(&mut t, &mut ann, &mut bob, &mut watcher);
    let before = t.state_text(None, None);
    for (seat, mv, code) in [
        (Player::TWO, json!({"pile": 0, "count": 1}), ErrorCode::NotYourTurn),
        (Player::ONE, json!({"pile": 0, "count": 3}), ErrorCode::Illegal),
        (Player::ONE, json!({"pile": 0, "count": 1, "x": 1}), ErrorCode::BadRequest),
        (Player::ONE, json!([0, 1]), ErrorCode::BadRequest),
    ] {
        let refused = t.play(seat, &mv, None, None, Some(ann.id)).err().unwrap();
        assert_eq!(refused.code, code, "{mv}");
    }
    let stale = t.play(Player::ONE, &json!({"pile": 0, "count": 1}), Some(3), None, None).err().unwrap();
    assert_eq!(stale.code, ErrorCode::Stale);
    assert_eq!(t.state_text(None, None), before);
}

#[test]
fn a_connection_holding_both_seats_hears_the_game_begin_as_each() {
    let mut t = table(NIM, CreateTable::default());
    let mut both = conn(1);
    t.join(both.id, &both.outbox, Some(1), "Both".into(), "aaaa".into(), None).unwrap().1.deliver();
    t.join(both.id, &both.outbox, Some(2), "Both".into(), "bbbb".into(), None).unwrap().1.deliver();
    let states: Vec<Value> = heard(&mut both).into_iter().filter(|m| m["type"] == "state").collect();
    let begun = states.iter().find(|m| m["seat"] == 1 && !m["legal"].as_array().unwrap().is_empty());
    assert!(begun.is_some(), "seat 1 was never told its moves: {states:?}");
}

#[test]
fn a_take_back_is_kept_with_the_clocks_it_leaves() {
    let spec =
        CreateTable { clock: Some(Clock { minutes: 10.0, increment: 30.0 }), ..CreateTable::default() };
    let mut t = table(NIM, spec);
    let (mut ann, mut bob, mut watcher) = (conn(1), conn(2), conn(3));
    seated(&mut t, &mut ann, &mut bob, &mut watcher);
    t.play(Player::ONE, &json!({"pile": 1, "count": 1}), None, None, None).unwrap().deliver();
    t.ask_take_back(Player::ONE, ann.id, None).unwrap().deliver();
    heard(&mut bob);
    let rows = t.answer(Player::TWO, true, bob.id, None).unwrap().deliver();
    let [Op::TakeBack { ply: 0, clock: Some(clock), .. }] = rows.as_slice() else { panic!("{rows:?}") };
    let kept: Vec<i64> = serde_json::from_str(clock).unwrap();
    assert!(kept[0] > 625_000, "the increment earned stays: {kept:?}");
    let told = heard(&mut bob);
    assert_eq!(types(&told), vec!["taken_back", "state"]);
    assert_eq!(told[1]["clock"]["remaining_ms"][0].as_i64().unwrap() / 1000, kept[0] / 1000);
}

#[test]
fn resuming_moves_the_seat_to_the_new_connection() {
    let mut t = table(NIM, CreateTable::default());
    let (mut ann, mut bob, mut watcher) = (conn(1), conn(2), conn(3));
    seated(&mut t, &mut ann, &mut bob, &mut watcher);
    heard(&mut ann);
    let mut again = conn(4);
    assert_eq!(
        t.resume(again.id, &again.outbox, Player::ONE, "wrong", None).err().unwrap().code,
        ErrorCode::BadToken
    );
    t.resume(again.id, &again.outbox, Player::ONE, "aaaa", None).unwrap().deliver();
    assert_eq!(types(&heard(&mut ann)), vec!["displaced"]);
    assert_eq!(types(&heard(&mut again))[..2], ["joined", "state"]);
    assert_eq!(t.seat_of(ann.id, None).err().unwrap().code, ErrorCode::NotSeated);
    assert_eq!(t.seat_of(again.id, None).unwrap(), Player::ONE);
}

/// The database's rows for one table, as the store keeps them.
fn saved(rows: &[Op]) -> SavedTable {
    let mut saved = SavedTable {
        id: String::new(),
        level: String::new(),
        seed: 0,
        config: String::new(),
        seats: vec![],
        moves: vec![],
        taken_back: None,
    };
    for row in rows {
        match row {
            Op::Table { id, level, seed, config, .. } => {
                (saved.id, saved.level, saved.seed, saved.config) =
                    (id.clone(), level.clone(), *seed, config.clone());
            }
            Op::Seat { seat, token, name, .. } => saved.seats.push(SavedSeat {
                seat: *seat,
                token: token.clone(),
                name: name.clone(),
                stand_in: None,
            }),
            Op::Move { seat, mv, clock, .. } => saved.moves.push((*seat, mv.clone(), clock.clone())),
            Op::TakeBack { ply, clock, .. } => {
                saved.moves.truncate(*ply);
                saved.taken_back = Some((*ply, clock.clone()));
            }
            Op::StandIn { seat, agent, .. } => {
                saved.seats.iter_mut().filter(|s| s.seat == *seat).for_each(|s| s.stand_in = agent.clone());
            }
            Op::Finish { .. } => {}
        }
    }
    saved
}

#[test]
fn a_table_restored_from_its_rows_is_the_table_that_was() {
    let kalah = "Mancala(name: \"Kalah\", pits: 4, stones: 3, capture: Standard, sweep: true)";
    let spec = CreateTable { clock: Some(Clock { minutes: 5.0, increment: 2.0 }), ..CreateTable::default() };
    let mut t = table(kalah, spec);
    let mut rows = vec![t.kept()];
    let (mut ann, mut bob, mut watcher) = (conn(1), conn(2), conn(3));
    rows.extend(seated(&mut t, &mut ann, &mut bob, &mut watcher));
    for ply in 0..9 {
        let seat = Player(t.live.to_move().0);
        let (first, _) = t.live.legal(seat).swap_remove(0);
        let mv: Value = serde_json::from_str(first.get()).unwrap();
        rows.extend(t.play(seat, &mv, Some(ply), None, None).unwrap().deliver());
        if ply == 5 {
            let asker = t.moves_by[ply];
            let other = Player(1 - asker.0);
            rows.extend(t.ask_take_back(asker, 1, None).unwrap().deliver());
            rows.extend(t.answer(other, true, 2, None).unwrap().deliver());
            break;
        }
    }
    let (back, _) = Table::restore(saved(&rows), &Limits::default(), None, Instant::now()).unwrap();
    let plain = |t: &Table, viewer| {
        let mut state: Value = serde_json::from_str(&t.state_text(viewer, None)).unwrap();
        // Nobody follows the restored table yet, and its clock runs anew.
        state["seats"] = Value::Null;
        let ms = state["clock"]["remaining_ms"].take();
        (state, ms)
    };
    for viewer in [None, Some(Player::ONE), Some(Player::TWO)] {
        let ((was, was_ms), (now, now_ms)) = (plain(&t, viewer), plain(&back, viewer));
        assert_eq!(was, now, "{viewer:?}");
        for (a, b) in was_ms.as_array().unwrap().iter().zip(now_ms.as_array().unwrap()) {
            assert!((a.as_i64().unwrap() - b.as_i64().unwrap()).abs() < 1000, "{was_ms} became {now_ms}");
        }
    }
    assert_eq!(back.tokens().len(), 2);
}

#[test]
fn a_rematch_moves_every_person_one_seat_round() {
    let mut t = table(NIM, CreateTable::default());
    let (mut ann, mut bob, mut watcher) = (conn(1), conn(2), conn(3));
    seated(&mut t, &mut ann, &mut bob, &mut watcher);
    t.resign(Player::ONE, ann.id, None).unwrap().deliver();
    let Rematch::Asked(job) = t.ask_rematch(Player::ONE, ann.id, None).ok().unwrap() else { panic!("ready") };
    job.deliver();
    let Rematch::Ready { spec, level } = t.ask_rematch(Player::TWO, bob.id, None).ok().unwrap() else {
        panic!("asked")
    };
    let mut new = Table::build("t2".into(), &level, 9, spec, &Limits::default(), None).unwrap();
    let mut job = Job::default();
    let mut n = 0;
    let moved = t.move_to(
        &mut new,
        &mut || {
            n += 1;
            format!("new{n}")
        },
        bob.id,
        None,
        &mut job,
    );
    job.deliver();
    assert_eq!(
        moved,
        vec![("aaaa".into(), "new1".into(), Player::TWO), ("bbbb".into(), "new2".into(), Player::ONE)]
    );
    let told = heard(&mut ann);
    let rematch = told.iter().find(|m| m["type"] == "rematch").unwrap();
    assert_eq!((rematch["seat"].as_u64(), rematch["new_table"].as_str()), (Some(2), Some("t2")));
    assert!(
        heard(&mut watcher).iter().any(|m| m["type"] == "state" && m["table"] == "t2"),
        "the spectator follows"
    );
    assert_eq!(new.seat_of(bob.id, None).unwrap(), Player::ONE);
}
