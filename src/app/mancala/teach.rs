//! The teaching overlay on the Mancala board: the proven margin of each
//! move of the position on the board, worked out on another thread by the
//! engine's `Teacher` (seconds on a large board), the best pits ringed, and
//! what the side panel says of it. Reviewing a finished game is `review`'s.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use bevy::prelude::*;
use tabula_engine::mancala::solver::{MoveMargin, Teacher};
use tabula_engine::mancala::{Mancala, MancalaLevel, Sow};
use tabula_engine::{Game, Player};

use super::input::chosen_pit;
use super::{BestRing, PitChoice};
use crate::app::frames::NextFrame;
use crate::app::session::{BoardBusy, Session};
use crate::app::teach::{Background, MoveMarks, TeachNote, Teaching};

/// What the overlay knows of the moves of the position on the board.
#[derive(Resource, Debug, Default, Clone, PartialEq, Eq)]
pub enum PitMargins {
    /// The overlay is off, or the game is over.
    #[default]
    Off,
    /// The teacher is still at it, for so many seconds now.
    Working(u64),
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
pub(super) type Proven = Arc<Mutex<HashMap<Mancala, Option<Vec<MoveMargin>>>>>;

/// The teacher of the level in play, what it has proven, and its work.
#[derive(Resource, Default)]
pub(super) struct Lessons {
    teacher: Option<(MancalaLevel, Teacher)>,
    pub(super) proven: Proven,
    /// The position being worked out for the board.
    asking: Option<(Mancala, Background)>,
}

impl Lessons {
    /// The teacher for `level`'s rules; what another level's proved is
    /// forgotten.
    pub(super) fn teacher(&mut self, level: &MancalaLevel) -> Teacher {
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
                let asked = lessons.asking.as_ref().filter(|(at, _)| *at == board);
                PitMargins::Working(asked.map_or(0, |(_, work)| work.seconds()))
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

/// A margin in a player's words, for the player to move: "you win by 4".
pub(super) fn result_words(margin: i32) -> String {
    match margin {
        m if m > 0 => format!("you win by {m}"),
        0 => "a draw".to_owned(),
        m => format!("you lose by {}", -m),
    }
}

/// What the overlay says of sowing `sow`: its margin in the mover's words.
pub(super) fn margin_words(margins: &PitMargins, sow: Sow) -> Option<String> {
    match margins {
        PitMargins::Off => None,
        PitMargins::Working(seconds) => Some(working(*seconds)),
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

/// "working it out…", and after a while for how long, so that a wait of
/// seconds on a large board is not taken for a hang.
fn working(seconds: u64) -> String {
    if seconds < 2 { "working it out…".to_owned() } else { format!("working it out… {seconds} s") }
}

/// What the side panel says of the position on the board.
pub(super) fn position_notes(margins: &PitMargins, name: &str, mover: Player) -> Vec<TeachNote> {
    let row = if mover == Player::ONE { 'A' } else { 'B' };
    match margins {
        PitMargins::Off => Vec::new(),
        PitMargins::Working(seconds) => vec![TeachNote::line(format!("W{}", &working(*seconds)[1..]))],
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
