//! The teaching overlay, for the games that can teach: on demand (T or its
//! box in the side panel), it says on the board what each move is worth
//! with best play, and after a game marks in the move log the moves that
//! gave something away. Each game works out its own lessons; this holds
//! what they share with the panels: whether it is on, its lines for the
//! side panel, the marks for the log, and work on another thread.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread::JoinHandle;
use std::time::Instant;

use bevy::prelude::*;

use super::session::SessionStarted;

/// Whether the overlay is on (for the whole window's life: a new game
/// keeps it), which game offers it now, and what it says beside the board.
#[derive(Resource, Debug, Default)]
pub struct Teaching {
    pub on: bool,
    /// The game whose board can teach here (not at another person's
    /// online table), by its name; `None` where nothing teaches.
    pub offered: Option<&'static str>,
    /// Lines for the side panel, under the box that turns it on.
    pub notes: Vec<TeachNote>,
    /// What the move chosen on the board is worth ("A3: you win by 4 with
    /// perfect play after this"), or of the position when none is: a line
    /// of the top bar of its own, kept while teaching so the board stays
    /// still as the choice changes.
    pub verdict: String,
    /// The game whose verdict waits for the person to act on it (a slip
    /// of the other's to stop, the other held meanwhile): drawn to stand
    /// out from the lines that only inform.
    pub waits: Option<&'static str>,
    /// The game of the last session begun: T is turned on for a game, and
    /// another game starts without it.
    pub game: Option<&'static str>,
}

impl Teaching {
    pub fn toggle(&mut self) {
        self.on = !self.on;
    }

    /// Whether `game`'s board teaches now.
    pub fn shown_for(&self, game: &str) -> bool {
        self.on && self.offered == Some(game)
    }

    /// Says `verdict`, touching the resource only when it changes.
    pub fn say(this: &mut ResMut<Teaching>, verdict: String) {
        if this.verdict != verdict {
            this.verdict = verdict;
        }
    }

    /// Sets what `game` offers and says, touching the resource only when
    /// that changes.
    pub fn set(this: &mut ResMut<Teaching>, game: Option<&'static str>, notes: Vec<TeachNote>) {
        if this.offered != game {
            this.offered = game;
        }
        if this.notes != notes {
            this.notes = notes;
        }
    }
}

/// A line of the overlay in the side panel.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TeachNote {
    pub text: String,
    /// Set in a fixed-width font, so that columns of figures line up.
    pub table: bool,
}

impl TeachNote {
    pub fn line(text: impl Into<String>) -> TeachNote {
        TeachNote { text: text.into(), table: false }
    }

    pub fn table(text: impl Into<String>) -> TeachNote {
        TeachNote { text: text.into(), table: true }
    }
}

/// Marks on the moves of a finished game, as chess sites mark blunders:
/// the move log shows each beside its move.
#[derive(Resource, Debug, Default, Clone, PartialEq)]
pub struct MoveMarks {
    /// The game's moves the marks are for: none are shown for another line.
    pub moves: usize,
    /// A mark for each move, in order ("−4"), or none for a good move.
    pub marks: Vec<Option<String>>,
    /// Said above the log ("3 moves gave away stones").
    pub summary: Option<String>,
}

impl MoveMarks {
    /// The mark of move `number` (counted from 1) of a line of `played` moves.
    pub fn of(&self, number: usize, played: usize) -> Option<&str> {
        if self.moves != played {
            return None;
        }
        self.marks.get(number.checked_sub(1)?)?.as_deref()
    }

    /// The summary, when the marks are for a line of `played` moves.
    pub fn summary_for(&self, played: usize) -> Option<&str> {
        self.summary.as_deref().filter(|_| self.moves == played)
    }
}

/// Work on a thread of its own, which may take seconds: a frame never
/// waits for it. Dropping it asks the work to stop where it checks `stop`.
pub struct Background {
    handle: JoinHandle<()>,
    stop: Arc<AtomicBool>,
    started: Instant,
}

impl Background {
    pub fn start(work: impl FnOnce(&AtomicBool) + Send + 'static) -> Background {
        let stop = Arc::new(AtomicBool::new(false));
        let flag = stop.clone();
        let handle = std::thread::spawn(move || work(&flag));
        Background { handle, stop, started: Instant::now() }
    }

    pub fn finished(&self) -> bool {
        self.handle.is_finished()
    }

    /// Whole seconds since it started.
    pub fn seconds(&self) -> u64 {
        self.started.elapsed().as_secs()
    }
}

impl Drop for Background {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
    }
}

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<Teaching>().init_resource::<MoveMarks>().add_systems(Update, forget_marks);
}

/// A new session's log has none of the last game's marks, and its board
/// teaches only if its game says so again (a game that cannot teach says
/// nothing, and must not inherit the last one's offer). Teaching turned on
/// for one game is off in another (which would open with its winning moves
/// lit, unasked).
fn forget_marks(
    mut started: MessageReader<SessionStarted>,
    mut marks: ResMut<MoveMarks>,
    mut teaching: ResMut<Teaching>,
) {
    let Some(game) = started.read().last().map(|plan| plan.0.level.game().name()) else { return };
    if teaching.game != Some(game) {
        teaching.on &= teaching.game.is_none();
        teaching.game = Some(game);
    }
    if *marks != MoveMarks::default() {
        *marks = MoveMarks::default();
    }
    Teaching::set(&mut teaching, None, Vec::new());
}
