//! Reviewing a finished Mancala game, while teaching: every position of
//! it proven on another thread, each move's loss is the best margin there
//! less its own. The move log marks each move that gave away stones
//! ("−4"), and the side panel says what each seat gave away. What the
//! overlay says of a pit or the position, on the top bar and the side
//! panel, is here too.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};

use bevy::prelude::*;
use tabula_engine::mancala::solver::{MoveMargin, Teacher};
use tabula_engine::mancala::{Mancala, Sow};
use tabula_engine::{Game, Player};

use super::PitChoice;
use super::input::chosen_pit;
use super::teach::{Lessons, PitMargins, Proven, margin_words, position_notes};
use crate::app::frames::NextFrame;
use crate::app::session::Session;
use crate::app::teach::{Background, MoveMarks, TeachNote, Teaching};

/// The review of the game on the board: its positions, the work proving
/// them, and what it found so far.
#[derive(Resource, Default)]
pub(super) struct GameReview {
    /// The positions, the work, and the findings it adds to.
    job: Option<(Vec<Mancala>, Background, Proven)>,
    found: Review,
}

/// Leaving the board stops a review under way: it may have minutes to go.
pub(super) fn stop_reviewing(mut review: ResMut<GameReview>) {
    review.job = None;
}

/// Once the game is over, reviews it on another thread: every position
/// of it proven, each move's loss is the best margin less its own. The
/// marks come as the positions are proven.
pub(super) fn review_game(
    session: Res<Session<Mancala>>,
    teaching: Res<Teaching>,
    mut lessons: ResMut<Lessons>,
    mut review: ResMut<GameReview>,
    mut marks: ResMut<MoveMarks>,
    mut next: ResMut<NextFrame>,
) {
    let over = session.outcome().is_some() && session.called.is_none();
    if !teaching.shown_for(Mancala::NAME) || !over {
        review.job = None;
        review.found = Review::default();
        if *marks != MoveMarks::default() {
            *marks = MoveMarks::default();
        }
        return;
    }
    // A board still being prepared: the review would crawl beside the
    // preparation and prove with a teacher about to be replaced (whose
    // findings the new one does not see), so it waits for it.
    if lessons.preparation(&session.level).is_some() {
        review.job = None;
        review.found = Review::default();
        let waiting = MoveMarks {
            moves: session.moves.len(),
            marks: vec![None; session.moves.len()],
            summary: Some("The review begins once perfect play is prepared (below)".to_owned()),
        };
        if *marks != waiting {
            *marks = waiting;
        }
        return;
    }
    let teacher = lessons.teacher(&session.level);
    let positions = positions(&session);
    // Asked again of a new teacher's findings (after a preparation) too.
    let stale = |(p, _, proven): &(Vec<Mancala>, Background, Proven)| {
        *p != positions || !std::sync::Arc::ptr_eq(proven, &lessons.proven)
    };
    if review.job.as_ref().is_none_or(stale) {
        let (todo, proven) = (positions.clone(), lessons.proven.clone());
        let work = Background::start(move |stop| prove_all(&teacher, &todo, &proven, stop));
        review.job = Some((positions.clone(), work, lessons.proven.clone()));
    }
    if review.job.as_ref().is_some_and(|(_, work, _)| !work.finished()) {
        next.ask();
    }
    let Ok(found) = lessons.proven.lock().map(|proven| Review::of(&positions, &session.moves, &proven))
    else {
        return;
    };
    let now = found.marks();
    if *marks != now {
        *marks = now;
    }
    review.found = found;
}

/// The positions before each move of the game.
fn positions(session: &Session<Mancala>) -> Vec<Mancala> {
    let mut board = *session.start();
    let mut out = Vec::with_capacity(session.moves.len());
    for &sow in &session.moves {
        out.push(board);
        if board.play(sow).is_err() {
            break;
        }
    }
    out
}

/// Last position first: those near the end are proven at once, the
/// opening's (the most stones) take longest, so the count moves from the
/// start and the late game's marks come first.
fn prove_all(teacher: &Teacher, positions: &[Mancala], proven: &Proven, stop: &AtomicBool) {
    for board in positions.iter().rev() {
        if stop.load(Ordering::Relaxed) {
            return;
        }
        if proven.lock().is_ok_and(|p| p.contains_key(board)) {
            continue;
        }
        let moves = teacher.move_margins(board);
        if let Ok(mut proven) = proven.lock() {
            proven.insert(*board, moves);
        }
    }
}

/// What the review found so far: each move's loss (the best margin less
/// its own), `None` while its position is unproven.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub(super) struct Review {
    losses: Vec<Option<i32>>,
    /// Positions worked out, and of them those beyond the teacher.
    done: usize,
    beyond: usize,
}

impl Review {
    fn of(
        positions: &[Mancala],
        moves: &[Sow],
        proven: &HashMap<Mancala, Option<Vec<MoveMargin>>>,
    ) -> Review {
        let mut review = Review::default();
        for (board, sow) in positions.iter().zip(moves) {
            let known = proven.get(board);
            review.done += usize::from(known.is_some());
            review.beyond += usize::from(matches!(known, Some(None)));
            review.losses.push(known.and_then(|k| {
                let k = k.as_ref()?;
                let best = k.iter().map(|m| m.margin).max()?;
                Some(best - k.iter().find(|m| m.sow == *sow)?.margin)
            }));
        }
        review
    }

    /// The marks for the move log: "−4" on each move that gave away stones.
    fn marks(&self) -> MoveMarks {
        let marks = self.losses.iter().map(|l| l.filter(|&l| l > 0).map(|l| format!("−{l}"))).collect();
        let lost = self.losses.iter().filter(|l| l.is_some_and(|l| l > 0)).count();
        let summary = if self.done < self.losses.len() {
            format!("Reviewing the game… {} of {} positions", self.done, self.losses.len())
        } else {
            let mut s = match lost {
                0 => "No move gave away stones".to_owned(),
                1 => "1 move gave away stones".to_owned(),
                n => format!("{n} moves gave away stones"),
            };
            if self.beyond > 0 {
                s.push_str(&format!(" ({} not proven: too many stones for the solver)", self.beyond));
            }
            s
        };
        MoveMarks { moves: self.losses.len(), marks, summary: Some(summary) }
    }

    /// What each seat gave away, and in which moves, once all is proven.
    pub(super) fn seats(&self, session: &Session<Mancala>) -> Vec<TeachNote> {
        // Nothing before the review is under way, nor while it is.
        if self.losses.is_empty() || self.done < self.losses.len() {
            return Vec::new();
        }
        Player::all(2)
            .map(|seat| {
                let given: Vec<(usize, i32)> = (self.losses.iter().zip(&session.movers).enumerate())
                    .filter_map(|(i, (l, by))| l.filter(|&l| l > 0 && *by == seat).map(|l| (i + 1, l)))
                    .collect();
                let name = session.name_of(seat);
                let total: i32 = given.iter().map(|(_, l)| l).sum();
                let which: Vec<String> = given.iter().map(|(n, _)| n.to_string()).collect();
                let stones = if total == 1 { "stone" } else { "stones" };
                TeachNote::line(match given.len() {
                    0 => format!("{name} gave nothing away."),
                    1 => format!("{name} gave away {total} {stones} in move {}.", which[0]),
                    _ => format!("{name} gave away {total} {stones} in moves {}.", which.join(", ")),
                })
            })
            .collect()
    }
}

/// The top bar's teaching line: what the chosen pit is worth; with no pit
/// chosen, the position's best moves; after the game, the review.
pub(super) fn say_verdict(
    session: Res<Session<Mancala>>,
    choice: Res<PitChoice>,
    margins: Res<PitMargins>,
    marks: Res<MoveMarks>,
    mut teaching: ResMut<Teaching>,
) {
    let view = session.view();
    let chosen = session.human_to_move().zip(chosen_pit(&choice)).map(|(p, pit)| Sow { side: p.0, pit });
    let verdict = match chosen.filter(|s| view.check(*s).is_ok()) {
        Some(sow) => {
            let name = view.cell_name(view.pit_cell(sow.side, sow.pit));
            margin_words(&margins, sow).map(|w| format!("{name}: {w}")).unwrap_or_default()
        }
        None if view.outcome().is_some() => {
            marks.summary_for(session.moves.len()).unwrap_or_default().to_owned()
        }
        None => {
            let mover = view.current_player();
            let mut notes = position_notes(&margins, session.name_of(mover), mover);
            if notes.is_empty() { String::new() } else { notes.swap_remove(0).text }
        }
    };
    Teaching::say(&mut teaching, verdict);
}

/// The overlay's lines in the side panel: the best moves, or why there
/// are none to show, and the review's summary.
pub(super) fn teach_notes(
    session: Res<Session<Mancala>>,
    margins: Res<PitMargins>,
    marks: Res<MoveMarks>,
    review: Res<GameReview>,
    mut teaching: ResMut<Teaching>,
) {
    let offered = teaching.offered;
    let mut notes = Vec::new();
    if teaching.shown_for(Mancala::NAME) {
        let mover = session.view().current_player();
        notes.extend(position_notes(&margins, session.name_of(mover), mover));
        if let Some(summary) = marks.summary_for(session.moves.len()) {
            notes.push(TeachNote::line(summary));
            notes.extend(review.found.seats(&session));
            notes.push(TeachNote::line("A red mark in the move log: the stones that move gave away."));
        }
    }
    Teaching::set(&mut teaching, offered, notes);
}
