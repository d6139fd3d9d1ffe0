//! Replay files a user might write, opened in the window as the menu opens
//! them: the recorded playthroughs cut short, with two moves swapped, a move
//! replaced by an illegal one, and broken as any file can be (see
//! tests/common/mutate.rs). One that opens is stepped through every move,
//! forward and back, by steps and by the move log; one that does not says
//! why, naming the file (and the move, for a move that breaks a rule), and
//! leaves the window as it was. Nothing panics. Seeded, so a failure comes
//! back the same.

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use tabula::app::game::WindowGame;
use tabula::app::session::{SessionKind, Watch};
use tabula_engine::mancala::Mancala;
use tabula_engine::robots::Robots;
use tabula_engine::russian_bank::RussianBank;

use super::*;

#[path = "../common/mutate.rs"]
mod mutate;

/// Broken versions of each playthrough, besides the moves' own variants.
const VARIANTS: usize = 12;
/// And versions with one of its numbers made extreme.
const EXTREMES: usize = 6;

/// Where a replay in the window stands: moves played, moves ahead, and
/// whether it is a replay.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Standing {
    played: usize,
    ahead: usize,
    replay: bool,
}

/// The session of whichever game is open.
fn standing(app: &App) -> Option<Standing> {
    fn of<G: WindowGame>(app: &App) -> Option<Standing> {
        let s = app.world().get_resource::<Session<G>>()?;
        Some(Standing { played: s.moves.len(), ahead: s.redo.len(), replay: s.kind == SessionKind::Replay })
    }
    of::<Nim>(app)
        .or_else(|| of::<Mancala>(app))
        .or_else(|| of::<Robots>(app))
        .or_else(|| of::<RussianBank>(app))
}

/// A replay's text split around its list of moves, each move as written.
struct Moves<'a> {
    before: &'a str,
    moves: Vec<&'a str>,
    after: &'a str,
}

impl<'a> Moves<'a> {
    fn of(text: &'a str) -> Moves<'a> {
        let open = text.find("moves: [").expect("a replay lists its moves") + "moves: [".len();
        let (mut depth, mut start, mut moves) = (0, open, Vec::new());
        for (i, c) in text[open..].char_indices().map(|(i, c)| (open + i, c)) {
            match c {
                '(' | '[' | '{' => depth += 1,
                ')' | '}' => depth -= 1,
                ']' if depth > 0 => depth -= 1,
                ',' | ']' if depth == 0 => {
                    let mv = text[start..i].trim();
                    if !mv.is_empty() {
                        moves.push(mv);
                    }
                    start = i + 1;
                    if c == ']' {
                        return Moves { before: &text[..open], moves, after: &text[i..] };
                    }
                }
                _ => {}
            }
        }
        panic!("the moves' list is not closed");
    }

    fn with(&self, moves: &[&str]) -> String {
        format!("{}{}{}", self.before, moves.join(", "), self.after)
    }
}

/// A move no position of the game allows, in the game's notation.
fn illegal_move(file: &str) -> &'static str {
    match file {
        f if f.starts_with("nim") => "(pile: 0, count: 99)",
        f if f.starts_with("kalah") => "(side: 0, pit: 99)",
        f if f.starts_with("robots") => "Step(dir: North, robot: 'Z')",
        _ => "Play(from: Tableau(9), to: Tableau(1))",
    }
}

/// Moves whose numbers are as large as their types hold.
fn extreme_move(file: &str) -> &'static str {
    match file {
        f if f.starts_with("nim") => "(pile: 4294967295, count: 4294967295)",
        f if f.starts_with("kalah") => "(side: 255, pit: 255)",
        f if f.starts_with("robots") => "Exchange(a: (65535, 65535), b: (0, 65535))",
        _ => "Play(from: Tableau(255), to: Foundation(255))",
    }
}

/// A broken replay and what the window must make of it.
struct Case {
    what: String,
    text: String,
    expect: Expect,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Expect {
    /// Opened or refused, as the file happens to be.
    Either,
    /// Refused, whether as written or for a move.
    Refused,
    /// Refused for this move, by its number.
    RefusedAt(usize),
}

/// The variants of one playthrough: its moves cut, swapped, replaced by an
/// illegal one or by one as large as can be written, and the file broken.
fn cases(name: &str, text: &str, rng: &mut StdRng) -> Vec<Case> {
    let moves = Moves::of(text);
    let n = moves.moves.len();
    let mut out = vec![Case { what: "as recorded".into(), text: text.to_owned(), expect: Expect::Either }];
    for keep in [0, 1, rng.random_range(0..n), n - 1] {
        out.push(Case {
            what: format!("cut after move {keep}"),
            text: moves.with(&moves.moves[..keep]),
            expect: Expect::Either,
        });
    }
    for _ in 0..3 {
        let at = rng.random_range(0..n - 1);
        let mut swapped = moves.moves.clone();
        swapped.swap(at, at + 1);
        out.push(Case {
            what: format!("moves {} and {} swapped", at + 1, at + 2),
            text: moves.with(&swapped),
            expect: Expect::Either,
        });
    }
    for _ in 0..2 {
        let at = rng.random_range(0..n);
        let mut replaced = moves.moves.clone();
        replaced[at] = illegal_move(name);
        out.push(Case {
            what: format!("move {} illegal", at + 1),
            text: moves.with(&replaced),
            expect: Expect::RefusedAt(at + 1),
        });
        replaced[at] = extreme_move(name);
        out.push(Case {
            what: format!("move {} extreme", at + 1),
            text: moves.with(&replaced),
            expect: Expect::Refused,
        });
    }
    // The seat to move in Mancala is the move's side: the other side's move
    // is a move for the wrong seat.
    if name.starts_with("kalah") {
        let at = rng.random_range(0..n);
        let wrong = moves.moves[at]
            .replace("side: 0", "side: 2")
            .replace("side: 1", "side: 0")
            .replace("side: 2", "side: 1");
        let mut replaced = moves.moves.clone();
        replaced[at] = &wrong;
        out.push(Case {
            what: format!("move {} for the wrong seat", at + 1),
            text: moves.with(&replaced),
            expect: Expect::RefusedAt(at + 1),
        });
    }
    // Numbers as large (or as odd) as can be written: seeds, counts, moves.
    let extremes = mutate::extreme_numbers(text, usize::MAX);
    for _ in 0..EXTREMES {
        let variant = &extremes[rng.random_range(0..extremes.len())];
        out.push(Case { what: variant.what.clone(), text: variant.text.clone(), expect: Expect::Either });
    }
    for variant in mutate::variants(text, rng, VARIANTS) {
        out.push(Case { what: variant.what, text: variant.text, expect: Expect::Either });
    }
    out
}

/// Opens `path` as the menu's Open replay does, from the menu.
fn open(app: &mut App, path: &Path) {
    app.world_mut().write_message(SessionRequest::BackToMenu);
    for _ in 0..10 {
        if standing(app).is_none() {
            break;
        }
        frames(app, 1);
    }
    assert!(standing(app).is_none(), "the menu ends the session");
    app.world_mut().resource_mut::<StatusLine>().info("");
    app.world_mut().write_message(SessionRequest::OpenReplay(path.to_owned()));
    frames(app, 3);
}

/// Goes to just after move `n` as a click on the move log does.
fn go_to(app: &mut App, n: usize) -> Standing {
    app.world_mut().write_message(SessionRequest::GoTo(n));
    frames(app, 1);
    standing(app).expect("the replay stays open")
}

/// Every move of the open replay, forward and back: steps as the Step key
/// plays them, then each move of the log clicked in turn, both ways.
fn step_through(app: &mut App, what: &str) {
    let Standing { ahead: total, .. } = standing(app).unwrap();
    for _ in 0..total.min(3) {
        let before = standing(app).unwrap().played;
        app.world_mut().write_message(SessionRequest::Step);
        wait_for(app, "a step plays the next move", |app| standing(app).unwrap().played == before + 1);
    }
    app.world_mut().write_message(SessionRequest::Undo);
    frames(app, 1);
    for n in (0..=total).chain((0..total).rev()) {
        let at = go_to(app, n);
        assert_eq!((at.played, at.ahead), (n, total - n), "{what}: at move {n} of the log");
    }
    assert!(app.world().resource::<Watch>().paused, "{what}: looking back holds the replay");
}

#[test]
fn broken_replays_never_crash_the_window_and_say_why() {
    let dir = temp_dir("fuzzed-replays");
    let mut app = headless(&dir);
    let levels = manifest_dir().join("levels");
    let mut rng = StdRng::seed_from_u64(26);
    let (mut opened, mut refused) = (0, 0);
    let mut files: Vec<PathBuf> = std::fs::read_dir(manifest_dir().join("tests/playthroughs"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "ron"))
        .collect();
    files.sort();
    for recorded in files {
        let name = recorded.file_name().unwrap().to_string_lossy().into_owned();
        // The level's path made absolute, so the replay reads from anywhere.
        let text = std::fs::read_to_string(&recorded)
            .unwrap()
            .replace("Path(\"../../levels/", &format!("Path(\"{}/", levels.display()));
        for (i, case) in cases(&name, &text, &mut rng).into_iter().enumerate() {
            let path = dir.join(format!("{i:02} {name}"));
            std::fs::write(&path, &case.text).unwrap();
            let what = format!("{name}, {}", case.what);
            open(&mut app, &path);
            let status = app.world().resource::<StatusLine>().clone();
            match standing(&app) {
                Some(at) => {
                    assert!(!status.error, "{what}: opened, yet {}", status.text);
                    assert!(at.replay && at.played == 0, "{what}: a replay opens at its start");
                    assert_eq!(case.expect, Expect::Either, "{what}: opened with a move that breaks a rule");
                    step_through(&mut app, &what);
                    opened += 1;
                }
                None => {
                    assert!(status.error, "{what}: neither opened nor refused: {:?}", status.text);
                    assert!(status.text.contains(&path.display().to_string()), "{what}: {}", status.text);
                    if let Expect::RefusedAt(n) = case.expect {
                        assert!(status.text.contains(&format!(": move {n} (")), "{what}: {}", status.text);
                    }
                    assert_eq!(*app.world().resource::<State<Screen>>().get(), Screen::Menu, "{what}");
                    refused += 1;
                }
            }
        }
    }
    assert!(opened >= 25 && refused >= 25, "opened {opened}, refused {refused}");
}
