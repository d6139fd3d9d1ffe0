//! The fast solver against the plain minimax of the engine's rules, on
//! every position reachable on small boards.

use std::collections::{HashMap, HashSet};

use super::*;
use crate::core::{Game, Player};
use crate::mancala::Capture;
use crate::mancala::Mancala;
use crate::mancala::rules::tests::level;

/// Plain negamax over the engine's own boards, remembering positions met
/// before: the final store difference for the player to move.
fn brute(board: &Mancala, seen: &mut HashMap<(Vec<u16>, Player), i32>) -> i32 {
    let me = board.current_player();
    if board.outcome().is_some() {
        return board::final_difference(board, me);
    }
    let made = board::final_difference(board, me);
    let at = (board.cells().to_vec(), me);
    if let Some(&rest) = seen.get(&at) {
        return made + rest;
    }
    let mut moves = Vec::new();
    board.moves(&mut moves);
    let best = moves
        .into_iter()
        .map(|mv| {
            let mut child = *board;
            child.play(mv).unwrap();
            let v = brute(&child, seen);
            if child.outcome().is_some() || child.current_player() == me { v } else { -v }
        })
        .max()
        .unwrap();
    // Kept without the stores, so that positions differing only there share it.
    seen.insert(at, best - made);
    best
}

fn reachable(start: Mancala) -> Vec<Mancala> {
    let mut seen = HashSet::new();
    let mut todo = vec![start];
    let mut out = Vec::new();
    while let Some(b) = todo.pop() {
        if b.outcome().is_some() || !seen.insert((b.cells().to_vec(), b.current_player())) {
            continue;
        }
        out.push(b);
        let mut moves = Vec::new();
        b.moves(&mut moves);
        for mv in moves {
            let mut c = b;
            c.play(mv).unwrap();
            todo.push(c);
        }
    }
    out
}

fn config(tiers: u32) -> Config {
    Config {
        threads: 2,
        table_bits: 16,
        tiers,
        dir: None,
        checkpoint_every: Duration::from_secs(3600),
        every_move: true,
        guess: None,
    }
}

/// Every reachable position of boards up to 4 pits, every rule set: the
/// databases' value and the search's (with smaller databases) are the
/// plain minimax's.
#[test]
fn every_reachable_position_has_the_plain_minimax_value() {
    let quiet = |_: Progress| {};
    for capture in [Capture::None, Capture::Standard, Capture::Empty] {
        for sweep in [false, true] {
            for (pits, stones) in [(2, 3), (3, 2), (3, 3), (4, 2)] {
                let lvl = level(pits, stones, capture, sweep);
                let rules = Rules::of(&lvl);
                let total = 2 * pits as u32 * stones as u32;
                let full = databases(rules, &config(total), &quiet).unwrap();
                let part = databases(rules, &config(total / 3), &quiet).unwrap();
                let table = Table::new(16);
                let shared = Shared::default();
                let mut searcher = Searcher::new(&part, &table, &shared);
                let mut seen = HashMap::new();
                for board in reachable(Mancala::new(&lvl, 0).unwrap()) {
                    let exact = brute(&board, &mut seen);
                    let (pits, made) = Pits::of(&board);
                    let stones = pits.stones(rules.pits as usize);
                    let what = format!("{:?} {capture:?} sweep {sweep}", board.cells());
                    assert_eq!(made + full.value(&pits, stones).unwrap(), exact, "databases, {what}");
                    let found = searcher.value(&pits, stones, 0, &mut |_, _| {}).unwrap();
                    assert_eq!(made + found, exact, "search, {what}");
                }
            }
        }
    }
}

/// The first player's margins of Kalah (6,1) to (6,3): with empty capture
/// as Irving et al. published them (+2, +10, +2); with standard capture as
/// this solver finds them (+2, +6, +2), the two smaller ones also by the
/// engine's older exact search (`ai::solve_value`, on its own boards).
#[test]
fn small_kalah_boards_have_their_published_values() {
    let quiet = |_: Progress| {};
    for (stones, empty, standard) in [(1, 2, 2), (2, 10, 6), (3, 2, 2)] {
        for (capture, expected) in [(Capture::Empty, empty), (Capture::Standard, standard)] {
            let lvl = level(6, stones, capture, true);
            let config = Config { table_bits: 20, ..config(12) };
            let endgame = databases(Rules::of(&lvl), &config, &quiet).unwrap();
            let solution = solve(&lvl, &endgame, &config, &Shared::default(), &quiet).unwrap();
            assert_eq!(solution.value, expected, "Kalah(6,{stones}) {capture:?}");
            assert!(solution.best_moves().iter().all(|&p| solution.moves[p as usize].lower == expected));
            // Without every move's exact margin: the same value and best
            // moves, whatever the guess (right, too high, too low).
            for guess in [None, Some(expected), Some(expected + 8), Some(expected - 8)] {
                let quick = Config { every_move: false, guess, ..config.clone() };
                let quicker = solve(&lvl, &endgame, &quick, &Shared::default(), &quiet).unwrap();
                let what = format!("Kalah(6,{stones}) {capture:?}, guess {guess:?}");
                assert_eq!(
                    (quicker.value, quicker.best_moves()),
                    (expected, solution.best_moves()),
                    "{what}"
                );
            }
            if stones <= 2 {
                let start = Mancala::new(&lvl, 0).unwrap();
                let old = crate::mancala::ai::solve_value(&start).map(crate::mancala::ai::margin_of);
                assert_eq!(old, Some(expected), "the older search, Kalah(6,{stones}) {capture:?}");
            }
        }
    }
}

/// The `perfect` agent, playing both sides of the small board, keeps the
/// proven margin of the start to the end, plays a best move every time,
/// and says so.
#[test]
fn the_perfect_agent_never_gives_away_a_proven_margin() {
    use crate::core::{AgentRegistry, rng_from_seed};
    let lvl = level(4, 3, Capture::Standard, true);
    let dir = std::env::temp_dir().join(format!("tabula-perfect-{}", std::process::id()));
    let teacher = Teacher::with_dir(&lvl, &dir);
    let mut board = Mancala::new(&lvl, 0).unwrap();
    let start = teacher.move_margins(&board).unwrap().iter().map(|m| m.margin).max().unwrap();
    let mut seen = HashMap::new();
    assert_eq!(start, brute(&board, &mut seen));
    let mut agent = Mancala::build_agent(&"perfect".parse().unwrap()).unwrap();
    let mut rng = rng_from_seed(3);
    while board.outcome().is_none() {
        let me = board.current_player();
        let margins = teacher.move_margins(&board).unwrap();
        let best = margins.iter().map(|m| m.margin).max().unwrap();
        let mv = agent.choose(me, &board, &mut rng).unwrap();
        assert_eq!(margins.iter().find(|m| m.sow == mv).unwrap().margin, best, "{mv} at {:?}", board.cells());
        let note = agent.note().unwrap();
        assert!(note.starts_with("plays perfectly: ") && note.ends_with(" from here"), "{note}");
        board.play(mv).unwrap();
    }
    assert_eq!(board::final_difference(&board, Player::ONE), start);
}

/// Beyond the solver's reach the agent still plays, and says the move is
/// not proven.
#[test]
fn the_perfect_agent_says_when_it_is_not_proven() {
    use crate::core::{AgentRegistry, rng_from_seed};
    let lvl = level(6, 6, Capture::Standard, true);
    let board = Mancala::new(&lvl, 0).unwrap();
    let mut agent = Mancala::build_agent(&"perfect".parse().unwrap()).unwrap();
    let mv = agent.choose(Player::ONE, &board, &mut rng_from_seed(1)).unwrap();
    assert!(board.check(mv).is_ok());
    let note = agent.note().unwrap();
    assert!(note.starts_with("not proven here (too many stones left for the solver): "), "{note}");
}

/// The plan the docs give: databases to 20 stones for Kalah (6,4) and 27
/// for (6,5) within 12 GiB, and a small board's table no bigger than it
/// needs.
#[test]
fn the_default_plan_is_the_measured_one() {
    let memory = 12 << 30;
    let of = |stones, capture| super::plan(&level(6, stones, capture, true), memory, None);
    assert_eq!(of(4, Capture::Empty).tiers, 20);
    assert_eq!(of(5, Capture::Standard).tiers, 27);
    assert_eq!(of(5, Capture::Standard).table_bytes, 4 << 30);
    assert_eq!(of(1, Capture::Empty).table_bytes, 16 << 20);
    // Asked for, the tiers are as asked, within the board's stones.
    let lvl = level(6, 1, Capture::Empty, true);
    assert_eq!(super::plan(&lvl, memory, Some(7)).tiers, 7);
    assert_eq!(super::plan(&lvl, memory, Some(40)).tiers, 12);
}

/// A board solved with no databases at all still keeps its result, in a
/// folder that did not exist.
#[test]
fn a_solve_without_databases_keeps_its_result() {
    let lvl = level(6, 1, Capture::Empty, true);
    let dir = std::env::temp_dir().join(format!("tabula-no-tiers-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let config = Config { dir: Some(dir.clone()), every_move: false, ..config(0) };
    let endgame = databases(Rules::of(&lvl), &config, &|_| {}).unwrap();
    let solution = solve(&lvl, &endgame, &config, &Shared::default(), &|_| {}).unwrap();
    assert_eq!(solution.value, 2);
    assert_eq!(super::finished(&dir, &lvl).map(|s| s.value), Some(2));
    let _ = std::fs::remove_dir_all(&dir);
}

/// A teacher prepared for a big board keeps in its folder what it built:
/// the databases, a proof of every first move and the table that proof
/// left; a teacher made later, in a folder holding only those files,
/// answers the start without a search.
#[test]
fn a_prepared_teacher_keeps_what_it_built_for_the_next_start() {
    let lvl = level(6, 3, Capture::Standard, true);
    let dir = std::env::temp_dir().join(format!("tabula-prepared-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    // More tiers than a teacher builds in memory, as for Kalah (6,4).
    let tiers = teach::in_memory_tiers(6) + 1;
    let plan =
        Plan { tiers, table_bits: 18, database_bytes: database_bytes(6, tiers), table_bytes: 16 << 18 };
    assert!(prepare::proves_start(&lvl, &plan));
    let prep = prepare::Preparation::new(&plan);
    assert!(!prep.teaches());
    prepare::build(&lvl, &dir, &plan, &prep).unwrap();
    // The databases were handed to the teachers before the start was
    // proven: a person's position waits for them, not for that proof.
    assert!(prep.teaches() && !prep.ended(), "teaching before the preparation has ended");
    prep.wait_to_teach();
    let rules = Rules::of(&lvl);
    assert!(super::files::tier(&dir, rules, tiers).exists(), "the top tier is kept");
    let solved = finished(&dir, &lvl).expect("the proof of the start is kept");
    assert_eq!(solved.value, 2, "Kalah (6,3) with standard capture: +2 (docs/solver.md)");
    assert!(solved.moves.iter().all(|m| m.exact().is_some()), "every first move is proven exactly");
    assert_eq!(Table::read(&super::files::teacher_table(&dir, rules)).unwrap().bytes(), 16 << 18);
    // Another folder with the same files: what a later start of tabula finds.
    let later = dir.with_extension("later");
    let _ = std::fs::remove_dir_all(&later);
    std::fs::create_dir_all(later.join(rules.tag())).unwrap();
    for entry in std::fs::read_dir(dir.join(rules.tag())).unwrap() {
        let path = entry.unwrap().path();
        std::fs::copy(&path, later.join(rules.tag()).join(path.file_name().unwrap())).unwrap();
    }
    let mut teacher = Teacher::with_dir(&lvl, &later);
    teacher.budget = 1;
    assert_eq!(teacher.tiers(), tiers, "the kept databases are loaded");
    let start = Mancala::new(&lvl, 0).unwrap();
    let margins = teacher.move_margins(&start).expect("the start is answered without a search");
    let by_pit: Vec<(u8, i32)> = margins.iter().map(|m| (m.sow.pit, m.margin)).collect();
    let kept: Vec<(u8, i32)> = solved.moves.iter().map(|m| (m.pit, m.lower)).collect();
    assert_eq!(by_pit, kept);
    // Elsewhere its budget of one node proves nothing.
    let mut after = start;
    after.play(margins[0].sow).unwrap();
    assert_eq!(teacher.move_margins(&after), None);
    let _ = std::fs::remove_dir_all(&dir);
    let _ = std::fs::remove_dir_all(&later);
}

/// A position proven once is kept in the data folder: a teacher of a later
/// run (another folder holding the file) answers it without a search, with
/// the stores' difference of the board it is asked of.
#[test]
fn a_position_proven_once_is_answered_at_once_in_a_later_run() {
    // Beyond what a teacher builds in memory, so that a search is needed.
    let lvl = level(6, 3, Capture::Standard, true);
    let dir = std::env::temp_dir().join(format!("tabula-book-run-{}", std::process::id()));
    let later = dir.with_extension("later");
    for d in [&dir, &later] {
        let _ = std::fs::remove_dir_all(d);
    }
    let teacher = Teacher::with_dir(&lvl, &dir);
    let mut board = Mancala::new(&lvl, 0).unwrap();
    for pit in [1, 4] {
        let side = board.current_player().0;
        board.play(crate::mancala::Sow { side, pit }).unwrap();
    }
    let proven = teacher.move_margins(&board).unwrap();
    let rules = Rules::of(&lvl);
    let file = super::files::book(&dir, rules);
    assert!(file.exists(), "kept in {}", file.display());
    std::fs::create_dir_all(later.join(rules.tag())).unwrap();
    std::fs::copy(&file, super::files::book(&later, rules)).unwrap();
    let mut again = Teacher::with_dir(&lvl, &later);
    again.budget = 1;
    assert_eq!(again.move_margins(&board), Some(proven.clone()), "answered from the file");
    // The same best move as a search finds (a teacher of a folder with
    // no book), ties broken alike.
    let searcher = Teacher::with_dir(&lvl, &dir.with_extension("bare"));
    assert_eq!(again.best_move(&board), searcher.best_move(&board));
    // Without the file the same budget proves nothing: the answer came
    // from it.
    let mut bare = Teacher::with_dir(&lvl, &dir.with_extension("bare"));
    bare.budget = 1;
    assert_eq!(bare.move_margins(&board), None);
    for d in [&dir, &later, &dir.with_extension("bare")] {
        let _ = std::fs::remove_dir_all(d);
    }
}

/// Which shipped boards a teacher prepares for, and how far.
#[test]
fn big_boards_are_prepared_small_ones_are_not() {
    let dir = std::env::temp_dir().join(format!("tabula-unprepared-{}", std::process::id()));
    let kalah = |stones| level(6, stones, Capture::Standard, true);
    let small = level(4, 3, Capture::Standard, true);
    assert!(!needs_preparing(&small, &dir), "the small solved board is built in memory");
    assert!(needs_preparing(&kalah(4), &dir));
    let plan = prepare::teaching_plan(&kalah(4));
    assert_eq!(plan.tiers, 20, "the databases `tabula solve` builds for Kalah (6,4)");
    assert!(prepare::proves_start(&kalah(4), &plan));
    // Kalah (6,6): the databases only; its start would take days.
    assert!(!prepare::proves_start(&kalah(6), &prepare::teaching_plan(&kalah(6))));
}

/// The `perfect` agent's cheaper question, a best move by tests against
/// the best so far, agrees with every move's margin at every position of
/// small boards of each rule.
#[test]
fn a_best_move_is_one_of_the_moves_with_the_top_margin() {
    for capture in [Capture::None, Capture::Standard, Capture::Empty] {
        for sweep in [false, true] {
            {
                let lvl = level(3, 3, capture, sweep);
                let teacher = Teacher::new(&lvl);
                for board in reachable(Mancala::new(&lvl, 0).unwrap()) {
                    let margins = teacher.move_margins(&board).unwrap();
                    let top = margins.iter().map(|m| m.margin).max().unwrap();
                    let best = teacher.best_move(&board).unwrap();
                    let what = format!("{:?} {capture:?} sweep {sweep}", board.cells());
                    assert_eq!(best.margin, top, "{what}");
                    assert!(margins.contains(&best), "{what}: {best:?} is not a move with its margin");
                }
            }
        }
    }
}

/// The book the game ships for Kalah (6,4) holds every position of the
/// first two plies, and its start is the solve's (docs/solver.md: +8,
/// every first move's exact margin).
#[test]
fn the_shipped_book_answers_the_first_plies_of_kalah_6_4() {
    let path = crate::manifest_dir().join("../../levels/mancala/kalah-6-4.ron");
    let file = crate::level::load(&path).unwrap();
    let lvl = file.get::<Mancala>().unwrap().clone();
    let start = Mancala::new(&lvl, 0).unwrap();
    let margins: Vec<i32> = shipped_margins(&lvl, &start).unwrap().iter().map(|m| m.margin).collect();
    assert_eq!(margins, [-14, -10, 8, -2, -8, 4]);
    let mut layer = vec![start];
    for ply in 0..=2 {
        let mut next = Vec::new();
        for board in layer {
            if board.outcome().is_some() {
                continue;
            }
            let known = shipped_margins(&lvl, &board).unwrap_or_else(|| panic!("ply {ply}: {board:?}"));
            let mut moves = Vec::new();
            board.legal_moves(board.current_player(), &mut moves);
            assert_eq!(known.iter().map(|m| m.sow).collect::<Vec<_>>(), moves, "ply {ply}");
            for mv in moves {
                let mut after = board;
                after.play(mv).unwrap();
                next.push(after);
            }
        }
        layer = next;
    }
    // Another capture rule has no book shipped.
    let empty = MancalaLevel { capture: Capture::Empty, ..lvl };
    assert_eq!(shipped_margins(&empty, &Mancala::new(&empty, 0).unwrap()), None);
}
