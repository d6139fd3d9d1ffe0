//! The teaching overlay at the Russian Bank table: what priority asks of
//! the player to move, in cards ("5♣ T3 to F2 comes first"), and when the
//! other breaks it, the slip named with the move that should have come
//! first, while the other's agent waits for the Stop that catches it.

use bevy::prelude::*;
use tabula_engine::Game;
use tabula_engine::russian_bank::{BankMove, Priority, RussianBank, Source, Target, opponent};

use crate::app::session::{Agents, Session};
use crate::app::teach::{TeachNote, Teaching};

/// Seconds the other's agent waits after its slip while teaching: until
/// the person stops it (S) or turns teaching off (T). A stranger reading
/// the line and finding S took longer than the eight seconds it once
/// waited, and was refused a Stop the teacher had asked for.
pub const SLIP_HELD: f32 = f32::INFINITY;
/// Moves named in a line before "…".
const NAMED: usize = 3;

/// The table the overlay was worked out for, and the one before the last
/// move (to name what a slip should have played).
#[derive(Resource, Debug, Default)]
pub struct BankLesson {
    plies: Option<usize>,
    shown: bool,
    now: Option<RussianBank>,
    before: Option<RussianBank>,
}

/// Works the overlay out again after each move, or as it is turned on; says
/// it in the top bar, and holds the other's agent after a slip.
pub(super) fn teach_priority(
    session: Res<Session<RussianBank>>,
    mut teaching: ResMut<Teaching>,
    mut lesson: ResMut<BankLesson>,
    agents: Option<ResMut<Agents<RussianBank>>>,
) {
    let offered = session.kind.may_teach().then_some(RussianBank::NAME);
    let shown =
        teaching.shown_for(RussianBank::NAME) && session.outcome().is_none() && !session.kind.steps_through();
    let plies = session.moves.len();
    let mut moved = false;
    if session.is_changed() {
        // Only a single move on keeps the table before it: an undo, a jump
        // through the log or a new deal has none to compare with.
        let next = lesson.plies.map(|n| n + 1) == Some(plies);
        let now = Some(session.view().0.clone());
        if lesson.now != now {
            lesson.before = if next { lesson.now.take() } else { None };
            lesson.now = now;
            moved = true;
        }
        lesson.plies = Some(plies);
    }
    // Worked out only when the table or the overlay changes, not each frame.
    if !moved && lesson.shown == shown {
        return;
    }
    lesson.shown = shown;
    let (verdict, held) = match (&lesson.now, shown) {
        (Some(table), true) => say(&session, table, lesson.before.as_ref()),
        _ => (String::new(), false),
    };
    let notes = if shown { notes() } else { Vec::new() };
    Teaching::set(&mut teaching, offered, notes);
    Teaching::say(&mut teaching, verdict);
    let waits = held.then_some(RussianBank::NAME);
    if teaching.waits != waits {
        teaching.waits = waits;
    }
    if let Some(mut agents) = agents {
        agents.hold = if held { SLIP_HELD } else { 0.0 };
    }
}

/// The top bar's line for `table`, and whether the other's agent waits
/// for a person's Stop.
fn say(session: &Session<RussianBank>, table: &RussianBank, before: Option<&RussianBank>) -> (String, bool) {
    if let Some(breach) = table.breach() {
        let by = breach.by;
        let catcher = opponent(by);
        let played = before.map_or_else(|| breach.mv.to_string(), |b| b.words_for(&breach.mv));
        let first = before
            .and_then(|b| {
                b.priority_now(by)
                    .map(|(rule, keep)| format!(", but {} came first", named(b, &asked(rule, keep))))
            })
            .unwrap_or_default();
        // At a move stepped back to in the log, the slip is told, not
        // offered to catch: the moves after it were played.
        let looking_back = !session.redo.is_empty();
        return match (session.is_human(by), session.is_human(catcher)) {
            (false, true) if looking_back => {
                (format!("{} broke priority here ({played}){first}", session.name_of(by)), false)
            }
            // A slip that ended the slipper's turn may still be stopped,
            // before the catcher's first move.
            (false, true) if table.current_player() == catcher => (
                format!(
                    "{} broke priority with the last move of the turn ({played}){first}. Press S before you move to stop it!",
                    session.name_of(by)
                ),
                false,
            ),
            (false, true) => (
                format!(
                    "{} broke priority ({played}){first}. Press S to stop {}! {} waits for it while T is on{}",
                    session.name_of(by),
                    session.name_of(by),
                    session.name_of(by),
                    without_teacher(session, by)
                ),
                true,
            ),
            (true, _) => (
                format!("you broke priority ({played}){first}: {} may stop it", session.name_of(catcher)),
                false,
            ),
            (false, false) => (format!("{} broke priority ({played}){first}", session.name_of(by)), false),
        };
    }
    let to_move = table.current_player();
    let who = session.name_of(to_move);
    let yours = session.is_human(to_move);
    let Some((rule, keep)) = table.priority_now(to_move) else {
        return match yours {
            true => ("no priority binds you: any move keeps the rules".to_owned(), false),
            false => (format!("{who} to move: no priority binds now. A slip shows here"), false),
        };
    };
    let reserve = table.side(to_move).reserve.top().map(|c| c.name()).unwrap_or_default();
    let what = match rule {
        Priority::ReserveToFoundation => {
            format!("the reserve's {reserve} goes up first ({})", named(table, &keep))
        }
        Priority::ToFoundation => format!("a card goes up before any other move: {}", named(table, &keep)),
        Priority::ReserveBeforeHand => {
            format!("the reserve's {reserve} has a move: it comes before turning the hand")
        }
    };
    match yours {
        true => (format!("priority: {what}"), false),
        false => (format!("{who} to move: {what}. A slip shows here"), false),
    }
}

/// Of the moves that keep priority, those the rule asks for: a reserve
/// card's before the hand is turned (any other move keeps that rule too,
/// but is not what should have come first).
fn asked(rule: Priority, keep: Vec<BankMove>) -> Vec<BankMove> {
    match rule {
        Priority::ReserveBeforeHand => {
            keep.into_iter().filter(|mv| matches!(mv, BankMove::Play { from: Source::Reserve, .. })).collect()
        }
        Priority::ReserveToFoundation | Priority::ToFoundation => keep,
    }
}

/// Up to `NAMED` moves in words, "or" between them; a card that may go up
/// to several foundations is named once ("A♠ reserve to a foundation").
fn named(table: &RussianBank, moves: &[BankMove]) -> String {
    let mut words: Vec<String> = Vec::new();
    for (i, mv) in moves.iter().enumerate() {
        let BankMove::Play { from, to: Target::Foundation(_) } = *mv else {
            words.push(table.words_for(mv));
            continue;
        };
        let up =
            |m: &BankMove| matches!(*m, BankMove::Play { from: f, to: Target::Foundation(_) } if f == from);
        if moves[..i].iter().any(up) {
            continue;
        }
        let said = table.words_for(mv);
        words.push(match moves.iter().filter(|m| up(m)).count() {
            1 => said,
            _ => said.rsplit_once(" to ").map_or(said.clone(), |(card, _)| format!("{card} to a foundation")),
        });
    }
    if words.len() > NAMED {
        words.truncate(NAMED);
        words.push("…".to_owned());
    }
    words.join(" or ")
}

/// Slips a person stopped before the teacher asks them to try without
/// it: held for every Stop, a stranger found Stop too easy.
const STOPS_BEFORE_ALONE: usize = 3;

/// After a few Stops, the way on: without the teacher, `slipper` does not
/// wait.
fn without_teacher(session: &Session<RussianBank>, slipper: tabula_engine::Player) -> String {
    let stops = session.moves.iter().zip(&session.movers);
    let caught = stops.filter(|&(mv, by)| *mv == BankMove::Stop && session.is_human(*by)).count();
    match caught >= STOPS_BEFORE_ALONE {
        true => format!(". {caught} caught: now try T off, where {} plays on", session.name_of(slipper)),
        false => String::new(),
    }
}

/// The priority rules, as the side panel says them under the box.
fn notes() -> Vec<TeachNote> {
    [
        "Priority, in order:",
        "1. A reserve card that can go up to a foundation goes first.",
        "2. Any card that can go up goes before any other move.",
        "3. A reserve card with a move comes before turning the hand.",
        "A move that breaks priority stands unless the other calls Stop! (S) before the next move.",
        "While teaching, the top line names every slip, and the other's agent waits for your Stop. Without it, the other plays on: Stop before their next move.",
    ]
    .into_iter()
    .map(TeachNote::line)
    .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_hand_turned_too_soon_names_the_reserve_s_moves_only() {
        let reserve = BankMove::Play { from: Source::Reserve, to: Target::Tableau(3) };
        let tableau = BankMove::Play { from: Source::Tableau(1), to: Target::Tableau(5) };
        let keep = vec![reserve, tableau];
        assert_eq!(asked(Priority::ReserveBeforeHand, keep.clone()), [reserve]);
        assert_eq!(asked(Priority::ToFoundation, keep.clone()), keep);
    }

    /// Held for every Stop while teaching, after three the line says how
    /// to play on without the teacher.
    #[test]
    fn after_a_few_stops_the_teacher_says_to_try_without_it() {
        use tabula_engine::Player;
        use tabula_engine::level::LevelFile;

        use crate::app::session::{Controller, SeatSetup, SessionPlan};
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/levels/russian_bank/00-priority-and-stop.ron");
        let file = tabula_engine::level::load(std::path::Path::new(path)).unwrap();
        let level = file.get::<RussianBank>().unwrap().clone();
        let seat = |name: &str, controller| SeatSetup { name: name.into(), controller };
        let mary = Controller::Agent("greedy".parse().unwrap());
        let seats = vec![seat("John", Controller::Human), seat("Mary", mary)];
        let plan = SessionPlan {
            level_path: None,
            level: LevelFile::new::<RussianBank>(level.clone()),
            seats,
            seed: 1,
            replay: None,
            deal: false,
        };
        let mut session = Session::<RussianBank>::new(&plan, level).unwrap();
        // Mary, first to move, slips.
        let mut table = session.game.clone();
        let mut moves = Vec::new();
        table.legal_moves(Player::TWO, &mut moves);
        let slip = *moves.iter().find(|&&mv| table.breaks_priority(Player::TWO, mv).is_some()).unwrap();
        table.apply(Player::TWO, slip).unwrap();
        for stops in 0..=STOPS_BEFORE_ALONE {
            let (line, held) = say(&session, &table, None);
            assert!(held, "{line}");
            let nudged = line.ends_with(". 3 caught: now try T off, where Mary plays on");
            assert_eq!(nudged, stops == STOPS_BEFORE_ALONE, "after {stops} Stops: {line}");
            // Mary's own Stops are not John's.
            session.moves.extend([BankMove::Stop, BankMove::Stop]);
            session.movers.extend([Player::ONE, Player::TWO]);
        }
    }
}
