//! The teaching overlay on the Nim board: the nim-sum of the piles (their
//! XOR, in binary a pile a line, so the columns show why), and every
//! winning take lit on the board, by Bouton's rule for the level's ending
//! as the engine says it.

use bevy::prelude::*;
use tabula_engine::Game;
use tabula_engine::nim::ai::winning_takes;
use tabula_engine::nim::{Ending, Nim, Take};

use super::NimChoice;
use crate::app::session::Session;
use crate::app::teach::{TeachNote, Teaching};

/// What the overlay shows of the piles on the board.
#[derive(Resource, Debug, Default, Clone, PartialEq, Eq)]
pub struct NimLesson {
    /// The overlay is on and the game goes on.
    pub shown: bool,
    /// The piles it was worked out for.
    pub piles: Vec<u32>,
    pub nim_sum: u32,
    /// Every take after which the player to move wins with best play.
    pub winning: Vec<Take>,
    /// What the side panel says of it.
    notes: Vec<TeachNote>,
}

/// Works the lesson out again when the piles change or the overlay is
/// turned on, and says it in the side panel.
pub(super) fn work_out_takes(
    session: Res<Session<Nim>>,
    mut teaching: ResMut<Teaching>,
    mut lesson: ResMut<NimLesson>,
) {
    let offered = session.kind.may_teach().then_some(Nim::NAME);
    if teaching.offered != offered {
        teaching.offered = offered;
    }
    let view = session.view();
    let shown = teaching.shown_for(Nim::NAME) && view.outcome().is_none();
    if lesson.shown != shown || lesson.piles != view.piles() {
        let piles = view.piles().to_vec();
        let nim_sum = piles.iter().fold(0, |x, &n| x ^ n);
        let winning = if shown { winning_takes(&piles, view.ending()) } else { Vec::new() };
        let mut now = NimLesson { shown, piles, nim_sum, winning, notes: Vec::new() };
        if shown {
            now.notes = notes(&now, view.ending());
        }
        *lesson = now;
    }
    Teaching::set(&mut teaching, offered, lesson.notes.clone());
}

/// The top bar's teaching line: whether the take pointed at (or chosen)
/// wins against best play; with none, the nim-sum and what it means.
pub(super) fn say_verdict(
    session: Res<Session<Nim>>,
    choice: Res<NimChoice>,
    lesson: Res<NimLesson>,
    mut teaching: ResMut<Teaching>,
) {
    let pointed = choice.hover.or(choice.armed.then_some((choice.pile, choice.count)));
    let take = pointed.filter(|_| session.human_to_move().is_some());
    let view = session.view();
    // Misère with no pile above one stone: the nim-sum no longer decides.
    let endgame = view.ending() == Ending::Misere && lesson.piles.iter().all(|&n| n <= 1);
    let verdict = match take.map(|(pile, count)| Take { pile: pile as u32, count }) {
        _ if !lesson.shown => String::new(),
        Some(take) if lesson.winning.contains(&take) => format!("{take}: it wins against best play"),
        Some(take) if view.check(take).is_ok() => format!("{take}: it loses against best play"),
        _ if endgame && lesson.winning.is_empty() => {
            "an odd number of one-stone piles: every move loses against best play".to_owned()
        }
        _ if endgame => {
            "no pile above one stone: leave an odd number of them (the winning takes are lit)".into()
        }
        _ if lesson.winning.is_empty() => {
            format!("nim-sum {}: every move loses against best play", lesson.nim_sum)
        }
        _ => format!("nim-sum {}: the winning takes are lit", lesson.nim_sum),
    };
    Teaching::say(&mut teaching, verdict);
}

/// The nim-sum worked out in binary, then what it means and the winning
/// takes.
fn notes(lesson: &NimLesson, ending: Ending) -> Vec<TeachNote> {
    let widest = lesson.piles.iter().copied().max().unwrap_or(0).max(1);
    let bits = (u32::BITS - widest.leading_zeros()) as usize;
    let count_width = widest.to_string().len();
    let mut notes =
        vec![TeachNote::line("Nim-sum: the piles' sizes in binary, each column added without carry.")];
    for (i, &n) in lesson.piles.iter().enumerate() {
        let name = format!("Pile {}", i + 1);
        notes.push(TeachNote::table(format!("{name:<8}{n:>count_width$}  {n:0bits$b}")));
    }
    let sum = lesson.nim_sum;
    let pad = 8 + count_width;
    notes.push(TeachNote::table(format!("{:<pad$}  {sum:0bits$b} = {sum}", "nim-sum")));
    let endgame = lesson.piles.iter().all(|&n| n <= 1);
    notes.push(TeachNote::line(match (ending, endgame) {
        (Ending::Normal, _) => "A winning take leaves a nim-sum of 0.",
        (Ending::Misere, false) => {
            "Misère: a winning take leaves a nim-sum of 0, except the take that leaves no pile above one \
             stone: it leaves an odd number of one-stone piles."
        }
        (Ending::Misere, true) => "Misère, every pile at most one stone: leave an odd number of them.",
    }));
    if lesson.winning.is_empty() {
        notes.push(TeachNote::line("Every move loses against best play."));
    } else {
        let takes: Vec<String> = lesson.winning.iter().map(ToString::to_string).collect();
        notes.push(TeachNote::line(format!("Winning: {} (lit on the board).", takes.join("; "))));
    }
    notes
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_binary_columns_line_up_under_the_nim_sum() {
        let winning = winning_takes(&[3, 4, 5], Ending::Normal);
        let lesson = NimLesson { shown: true, piles: vec![3, 4, 5], nim_sum: 2, winning, notes: Vec::new() };
        let notes = notes(&lesson, Ending::Normal);
        let table: Vec<&str> = notes.iter().filter(|n| n.table).map(|n| n.text.as_str()).collect();
        assert_eq!(table, ["Pile 1  3  011", "Pile 2  4  100", "Pile 3  5  101", "nim-sum    010 = 2"]);
        assert_eq!(notes.last().unwrap().text, "Winning: take 2 stones from pile 1 (lit on the board).");
        let lost = NimLesson { piles: vec![1, 2, 3], winning: Vec::new(), ..lesson };
        assert_eq!(notes_of(&lost).last().unwrap().text, "Every move loses against best play.");
    }

    fn notes_of(lesson: &NimLesson) -> Vec<TeachNote> {
        notes(lesson, Ending::Normal)
    }
}
