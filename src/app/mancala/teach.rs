//! The teaching overlay on the Mancala board: the proven margin of each
//! move of the position on the board, worked out on another thread by the
//! engine's `Teacher` (seconds on a large board), the best pits ringed; and
//! once a game is over, a review that marks in the move log each move that
//! gave away stones, and how many.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use bevy::prelude::*;
use tabula_engine::mancala::solver::{MoveMargin, Teacher};
use tabula_engine::mancala::{Mancala, MancalaLevel, Sow};
use tabula_engine::{Game, Player};

use super::BestRing;
use crate::app::frames::NextFrame;
use crate::app::session::{BoardBusy, Session};
use crate::app::teach::{Background, MoveMarks, TeachNote, Teaching};

/// What the overlay knows of the moves of the position on the board.
#[derive(Resource, Debug, Default, Clone, PartialEq, Eq)]
pub enum PitMargins {
    /// The overlay is off, or the game is over.
    #[default]
    Off,
    /// The teacher is still at it.
    Working,
    /// Beyond what the teacher proves within its budget.
    Beyond,
    /// Each legal move with its proven margin.
    Proven(Vec<MoveMargin>),
}

impl PitMargins {
    /// The moves whose margin is the largest: the best moves.
    pub fn best(&self) -> Vec<Sow> {
        let PitMargins::Proven(moves) = self else { return Vec::new() };
        let top = moves.iter().map(|m| m.margin).max();
        moves.iter().filter(|m| Some(m.margin) == top).map(|m| m.sow).collect()
    }

    pub fn of(&self, sow: Sow) -> Option<i32> {
        let PitMargins::Proven(moves) = self else { return None };
        moves.iter().find(|m| m.sow == sow).map(|m| m.margin)
    }
}

/// Positions proven so far: `None` for one beyond the teacher.
type Proven = Arc<Mutex<HashMap<Mancala, Option<Vec<MoveMargin>>>>>;

/// The teacher of the level in play, what it has proven, and its work.
#[derive(Resource, Default)]
pub(super) struct Lessons {
    teacher: Option<(MancalaLevel, Teacher)>,
    proven: Proven,
    /// The position being worked out for the board.
    asking: Option<(Mancala, Background)>,
    /// The game being reviewed, as its positions before each move.
    review: Option<(Vec<Mancala>, Background)>,
}

impl Lessons {
    /// The teacher for `level`'s rules; what another level's proved is
    /// forgotten.
    fn teacher(&mut self, level: &MancalaLevel) -> Teacher {
        if self.teacher.as_ref().is_none_or(|(l, _)| l != level) {
            *self = Lessons { teacher: Some((level.clone(), Teacher::new(level))), ..default() };
        }
        self.teacher.as_ref().map(|(_, t)| t.clone()).expect("set above")
    }

    fn known(&self, board: &Mancala) -> Option<Option<Vec<MoveMargin>>> {
        self.proven.lock().ok()?.get(board).cloned()
    }
}

/// Works out the margins of the board's moves, on another thread; a
/// result for a position no longer on the board waits in the cache.
pub(super) fn work_out_margins(
    session: Res<Session<Mancala>>,
    mut teaching: ResMut<Teaching>,
    mut lessons: ResMut<Lessons>,
    mut margins: ResMut<PitMargins>,
    mut next: ResMut<NextFrame>,
) {
    // Not at a table on a game server: it would teach one side there.
    let offered = (!session.online).then_some(Mancala::NAME);
    if teaching.offered != offered {
        teaching.offered = offered;
    }
    let board = *session.view();
    let now = if !teaching.shown_for(Mancala::NAME) || board.outcome().is_some() {
        PitMargins::Off
    } else {
        let teacher = lessons.teacher(&session.level);
        match lessons.known(&board) {
            Some(Some(moves)) => PitMargins::Proven(moves),
            Some(None) => PitMargins::Beyond,
            None => {
                ask(&mut lessons, teacher, board);
                next.ask();
                PitMargins::Working
            }
        }
    };
    if *margins != now {
        *margins = now;
    }
}

/// Sets the teacher on `board`, unless it is still at another position
/// (one at a time: it then comes back for this one).
fn ask(lessons: &mut Lessons, teacher: Teacher, board: Mancala) {
    if lessons.asking.as_ref().is_some_and(|(at, work)| *at == board || !work.finished()) {
        return;
    }
    let proven = lessons.proven.clone();
    let work = Background::start(move |_| {
        let moves = teacher.move_margins(&board);
        if let Ok(mut proven) = proven.lock() {
            proven.insert(board, moves);
        }
    });
    lessons.asking = Some((board, work));
}

/// The best pits are ringed once the stones have settled.
pub(super) fn ring_best_pits(
    session: Res<Session<Mancala>>,
    margins: Res<PitMargins>,
    busy: Res<BoardBusy>,
    mut rings: Query<(&BestRing, &mut Visibility)>,
) {
    let board = session.view();
    let best: Vec<usize> = if busy.0 == 0 {
        margins.best().iter().map(|s| board.pit_cell(s.side, s.pit)).collect()
    } else {
        Vec::new()
    };
    for (ring, mut visibility) in &mut rings {
        let now = if best.contains(&ring.0) { Visibility::Inherited } else { Visibility::Hidden };
        visibility.set_if_neq(now);
    }
}

/// Once the game is over, reviews it on another thread: every position
/// of it proven, each move's loss is the best margin less its own.
pub(super) fn review_game(
    session: Res<Session<Mancala>>,
    teaching: Res<Teaching>,
    mut lessons: ResMut<Lessons>,
    mut marks: ResMut<MoveMarks>,
    mut next: ResMut<NextFrame>,
) {
    let over = session.outcome().is_some() && session.called.is_none();
    if !teaching.shown_for(Mancala::NAME) || !over {
        lessons.review = None;
        if *marks != MoveMarks::default() {
            *marks = MoveMarks::default();
        }
        return;
    }
    let teacher = lessons.teacher(&session.level);
    let positions = positions(&session);
    if lessons.review.as_ref().is_none_or(|(p, _)| *p != positions) {
        let (todo, proven) = (positions.clone(), lessons.proven.clone());
        let work = Background::start(move |stop| prove_all(&teacher, &todo, &proven, stop));
        lessons.review = Some((positions.clone(), work));
    }
    if lessons.review.as_ref().is_some_and(|(_, work)| !work.finished()) {
        next.ask();
    }
    let now = lessons.proven.lock().map(|proven| review(&positions, &session.moves, &proven));
    if let Ok(now) = now
        && *marks != now
    {
        *marks = now;
    }
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

fn prove_all(
    teacher: &Teacher,
    positions: &[Mancala],
    proven: &Proven,
    stop: &std::sync::atomic::AtomicBool,
) {
    for board in positions {
        if stop.load(std::sync::atomic::Ordering::Relaxed) {
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

/// The marks of a game whose positions are `positions`, from what is
/// proven so far.
fn review(
    positions: &[Mancala],
    moves: &[Sow],
    proven: &HashMap<Mancala, Option<Vec<MoveMargin>>>,
) -> MoveMarks {
    let (mut marks, mut done, mut beyond, mut lost) = (Vec::new(), 0, 0, 0);
    for (board, sow) in positions.iter().zip(moves) {
        let known = proven.get(board);
        done += usize::from(known.is_some());
        let loss = known.and_then(|k| {
            let k = k.as_ref()?;
            let best = k.iter().map(|m| m.margin).max()?;
            Some(best - k.iter().find(|m| m.sow == *sow)?.margin)
        });
        beyond += usize::from(matches!(known, Some(None)));
        lost += usize::from(loss.is_some_and(|l| l > 0));
        marks.push(loss.filter(|&l| l > 0).map(|l| format!("−{l}")));
    }
    let summary = if done < positions.len() {
        format!("Reviewing the game… {done} of {} positions", positions.len())
    } else {
        let mut s = match lost {
            0 => "No move gave away stones".to_owned(),
            1 => "1 move gave away stones".to_owned(),
            n => format!("{n} moves gave away stones"),
        };
        if beyond > 0 {
            s.push_str(&format!(" ({beyond} not proven: too many stones for the solver)"));
        }
        s
    };
    MoveMarks { moves: moves.len(), marks, summary: Some(summary) }
}

/// A margin in a player's words, for the player to move: "you win by 4".
pub(super) fn result_words(margin: i32) -> String {
    match margin {
        m if m > 0 => format!("you win by {m}"),
        0 => "a draw".to_owned(),
        m => format!("you lose by {}", -m),
    }
}

/// What the overlay says of sowing `sow`, for the top bar beside the
/// preview of its last stone.
pub(super) fn margin_words(margins: &PitMargins, sow: Sow) -> Option<String> {
    match margins {
        PitMargins::Off => None,
        PitMargins::Working => Some("working it out…".into()),
        PitMargins::Beyond => Some("not proven here: too many stones left for the solver".into()),
        PitMargins::Proven(moves) => {
            let margin = margins.of(sow)?;
            let best = moves.iter().map(|m| m.margin).max()?;
            let mut text = format!("{} with perfect play after this", result_words(margin));
            if margin == best {
                text.push_str(" (a best move)");
            } else {
                text.push_str(&format!(" — gives away {} against the best", best - margin));
            }
            Some(text)
        }
    }
}

/// The overlay's lines in the side panel: the best moves, or why there
/// are none to show, and the review's summary.
pub(super) fn teach_notes(
    session: Res<Session<Mancala>>,
    margins: Res<PitMargins>,
    marks: Res<MoveMarks>,
    mut teaching: ResMut<Teaching>,
) {
    let offered = teaching.offered;
    let mut notes = Vec::new();
    if teaching.shown_for(Mancala::NAME) {
        let mover = session.view().current_player();
        notes.extend(position_notes(&margins, session.name_of(mover), mover));
        if let Some(summary) = marks.summary_for(session.moves.len()) {
            notes.push(TeachNote::line(summary));
            notes.push(TeachNote::line("A red mark in the move log: the stones that move gave away."));
        }
    }
    Teaching::set(&mut teaching, offered, notes);
}

fn position_notes(margins: &PitMargins, name: &str, mover: Player) -> Vec<TeachNote> {
    let row = if mover == Player::ONE { 'A' } else { 'B' };
    match margins {
        PitMargins::Off => Vec::new(),
        PitMargins::Working => vec![TeachNote::line("Working it out…")],
        PitMargins::Beyond => vec![TeachNote::line("Not proven here: too many stones left for the solver.")],
        PitMargins::Proven(moves) => {
            let best = margins.best();
            let top = moves.iter().map(|m| m.margin).max().unwrap_or(0);
            let pits: Vec<String> = best.iter().map(|s| format!("{row}{}", s.pit + 1)).collect();
            let result = match top {
                m if m > 0 => format!("{name} wins by {m}"),
                0 => "a draw".to_owned(),
                m => format!("{name} loses by {}", -m),
            };
            vec![
                TeachNote::line(format!(
                    "Best for {name}: {} — {result} with perfect play.",
                    pits.join(", ")
                )),
                TeachNote::line("The best pits are ringed; point at a pit for what it is worth."),
            ]
        }
    }
}
