//! The teaching overlay on the Mancala board: the proven margin of each
//! move of the position on the board, worked out on another thread by the
//! engine's `Teacher` (seconds on a large board), the best pits ringed, and
//! what the side panel says of it. Reviewing a finished game is `review`'s.

use std::collections::HashMap;
use std::sync::atomic::Ordering;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use bevy::prelude::*;
use tabula_engine::mancala::solver::teach::{OVERLAY_NODES, default_dir};
use tabula_engine::mancala::solver::{
    MoveMargin, Preparation, Shared, Stage, Teacher, needs_preparing, prepare, shipped_margins, started,
};
use tabula_engine::mancala::{Mancala, MancalaLevel, Sow};
use tabula_engine::{Game, Player};

use super::art::{BEST_RING, LABEL_COLOR};
use super::{BestRing, MarginLabel};
use crate::app::frames;
use crate::app::session::{BoardBusy, Session, StatusLine};
use crate::app::teach::{Background, TeachNote, Teaching};

/// What the overlay knows of the moves of the position on the board.
#[derive(Resource, Debug, Default, Clone, PartialEq, Eq)]
pub enum PitMargins {
    /// The overlay is off, or the game is over.
    #[default]
    Off,
    /// The teacher of a big board is being made ready (once, kept in the
    /// data folder): how far, and the moves proven so far (the start's, or
    /// all of a position in the book the game ships: `whole`).
    Preparing { line: String, proven: Vec<MoveMargin>, whole: bool },
    /// The teacher is still at it, for so many seconds now; the moves
    /// proven so far.
    Working { seconds: u64, proven: Vec<MoveMargin> },
    /// Beyond what the teacher proves within its budget.
    Beyond,
    /// Each legal move with its proven margin.
    Proven(Vec<MoveMargin>),
}

impl PitMargins {
    /// The moves whose margin is the largest: the best moves.
    pub fn best(&self) -> Vec<Sow> {
        let (PitMargins::Proven(moves) | PitMargins::Preparing { proven: moves, whole: true, .. }) = self
        else {
            return Vec::new();
        };
        let top = moves.iter().map(|m| m.margin).max();
        moves.iter().filter(|m| Some(m.margin) == top).map(|m| m.sow).collect()
    }

    pub fn of(&self, sow: Sow) -> Option<i32> {
        self.known().iter().find(|m| m.sow == sow).map(|m| m.margin)
    }

    /// The moves proven so far: all of them once the position is proven.
    pub fn known(&self) -> &[MoveMargin] {
        match self {
            PitMargins::Preparing { proven, .. } | PitMargins::Working { proven, .. } => proven,
            PitMargins::Proven(moves) => moves,
            PitMargins::Off | PitMargins::Beyond => &[],
        }
    }
}

/// Positions proven so far: `None` for one beyond the teacher.
pub(super) type Proven = Arc<Mutex<HashMap<Mancala, Option<Vec<MoveMargin>>>>>;

/// The teacher of the level in play, what it has proven, and its work.
#[derive(Resource, Default)]
pub(super) struct Lessons {
    teacher: Option<(MancalaLevel, Teacher)>,
    /// The level's preparation while it runs; `None` in the pair when it
    /// needs none or has ended (decided once a level).
    preparing: Option<(MancalaLevel, Option<Arc<Preparation>>)>,
    /// Wakes the window twice a second while a preparation runs, for its
    /// progress line.
    ticker: Option<Background>,
    pub(super) proven: Proven,
    /// The position being worked out for the board, the work, its stop
    /// flag, and its moves proven so far.
    asking: Option<(Mancala, Background, Arc<Shared>, Arc<Mutex<Vec<MoveMargin>>>)>,
}

impl Lessons {
    /// The teacher for `level`'s rules; what another level's proved is
    /// forgotten.
    pub(super) fn teacher(&mut self, level: &MancalaLevel) -> Teacher {
        if self.teacher.as_ref().is_none_or(|(l, _)| l != level) {
            let preparing = self.preparing.take();
            *self = Lessons { teacher: Some((level.clone(), Teacher::new(level))), preparing, ..default() };
        }
        self.teacher.as_ref().map(|(_, t)| t.clone()).expect("set above")
    }

    fn known(&self, board: &Mancala) -> Option<Option<Vec<MoveMargin>>> {
        self.proven.lock().ok()?.get(board).cloned()
    }

    /// The preparation `level`'s teacher still needs, started if it was
    /// not (by the overlay or a `perfect` seat); `None` once it is ready.
    pub(super) fn preparation(&mut self, level: &MancalaLevel) -> Option<Arc<Preparation>> {
        if self.preparing.as_ref().is_none_or(|(l, _)| l != level) {
            let dir = default_dir();
            let prep = needs_preparing(level, &dir).then(|| prepare(level, &dir));
            self.preparing = Some((level.clone(), prep));
        }
        let prep = self.preparing.as_ref()?.1.clone()?;
        if prep.teaches() {
            // A new teacher serves from the databases (the start's proof
            // goes on beside it, into the table they share); positions the
            // old one could not prove are asked again.
            *self = Lessons { preparing: Some((level.clone(), None)), ..default() };
            return None;
        }
        let watched = prep.clone();
        self.tick_while(move || !watched.teaches());
        Some(prep)
    }

    /// Wakes the window twice a second while `busy` says so, and once
    /// after, for a progress line: drawing every frame would take a core
    /// from the work it shows.
    fn tick_while(&mut self, busy: impl Fn() -> bool + Send + 'static) {
        if self.ticker.as_ref().is_some_and(|t| !t.finished()) {
            return;
        }
        self.ticker = Some(Background::start(move |stop| {
            while !stop.load(Ordering::Relaxed) && busy() {
                std::thread::sleep(Duration::from_millis(500));
                frames::wake_for_one_frame();
            }
            frames::wake_for_one_frame();
        }));
    }
}

/// How a preparation's progress line begins.
const PREPARING: &str = "Preparing perfect play for this board";

/// What a preparation says: what it does, for how long, and that it is
/// done once.
fn preparing_line(prep: &Preparation) -> String {
    format!("{PREPARING}, once (kept for next time): {} — {} s", prep.stage().words(), prep.seconds())
}

/// The start's moves a preparation has proven, when the board is the
/// level's start.
fn start_proven(prep: &Preparation, level: &MancalaLevel, board: &Mancala) -> Vec<MoveMargin> {
    let (Stage::Start { moves } | Stage::ExtraTurns { moves, .. }) = prep.stage() else { return Vec::new() };
    if board.plies() != 0 || Mancala::new(level, 0).ok() != Some(*board) {
        return Vec::new();
    }
    let side = board.current_player().0;
    moves
        .iter()
        .filter_map(|m| m.exact().map(|margin| MoveMargin { sow: Sow { side, pit: m.pit }, margin }))
        .collect()
}

/// Works out the margins of the board's moves, on another thread; a
/// result for a position no longer on the board waits in the cache. A big
/// board's teacher is first made ready, with a progress line.
pub(super) fn work_out_margins(
    session: Res<Session<Mancala>>,
    mut teaching: ResMut<Teaching>,
    mut lessons: ResMut<Lessons>,
    mut margins: ResMut<PitMargins>,
    mut status: ResMut<StatusLine>,
) {
    let offered = session.kind.may_teach().then_some(Mancala::NAME);
    if teaching.offered != offered {
        teaching.offered = offered;
    }
    let board = *session.view();
    if !teaching.shown_for(Mancala::NAME) || board.outcome().is_some() {
        // A `perfect` seat may be preparing without the overlay: the
        // status line says so, in a game played here (at a server's
        // table the line is the table's, and its agents are the server's).
        let here = session.kind.may_teach();
        match started(&session.level, &default_dir()).filter(|_| here) {
            Some(prep) if !prep.ended() => {
                lessons.preparation(&session.level);
                let line = preparing_line(&prep);
                if status.text != line {
                    status.info(line);
                }
            }
            // Its last progress line would stay, as if it hung at the end.
            Some(_) if status.text.starts_with(PREPARING) => {
                status.info("Perfect play is ready for this board, and kept for next time");
            }
            _ => {}
        }
        if *margins != PitMargins::Off {
            *margins = PitMargins::Off;
        }
        return;
    }
    let now = if let Some(prep) = lessons.preparation(&session.level) {
        // The opening is in the book the game ships: shown at once.
        let (proven, whole) = match shipped_margins(&session.level, &board) {
            Some(all) => (all, true),
            None => (start_proven(&prep, &session.level, &board), false),
        };
        PitMargins::Preparing { line: preparing_line(&prep), proven, whole }
    } else {
        let teacher = lessons.teacher(&session.level);
        match lessons.known(&board) {
            Some(Some(moves)) => PitMargins::Proven(moves),
            Some(None) => PitMargins::Beyond,
            None => {
                ask(&mut lessons, teacher, board);
                let asked = lessons.asking.as_ref().filter(|(at, ..)| *at == board);
                let seconds = asked.map_or(0, |(_, work, ..)| work.seconds());
                let proven = asked.map(|(.., so_far)| so_far.lock().map(|m| m.clone()).unwrap_or_default());
                PitMargins::Working { seconds, proven: proven.unwrap_or_default() }
            }
        }
    };
    if *margins != now {
        *margins = now;
    }
}

/// Sets the teacher on `board`, with the overlay's budget: it works until
/// every move is proven, the budget is spent or the board shows another
/// position (it is then stopped, and what it had not proven is not kept).
fn ask(lessons: &mut Lessons, teacher: Teacher, board: Mancala) {
    if let Some((at, _, shared, _)) = &lessons.asking {
        if *at == board {
            return;
        }
        shared.stop.store(true, Ordering::Relaxed);
    }
    let proven = lessons.proven.clone();
    let so_far = Arc::new(Mutex::new(Vec::new()));
    let shared = Arc::new(Shared::default());
    shared.node_limit.store(OVERLAY_NODES, Ordering::Relaxed);
    let (heard, until) = (so_far.clone(), shared.clone());
    let work = Background::start(move |_| {
        let moves = teacher.move_margins_until(&board, &until, &|m| {
            if let Ok(mut heard) = heard.lock() {
                heard.push(m);
            }
            frames::wake_for_one_frame();
        });
        if !until.stopped()
            && let Ok(mut proven) = proven.lock()
        {
            proven.insert(board, moves);
        }
    });
    lessons.asking = Some((board, work, shared, so_far));
    let answered = lessons.proven.clone();
    lessons.tick_while(move || answered.lock().is_ok_and(|p| !p.contains_key(&board)));
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

/// Each proven margin drawn on its pit, as soon as it is proven: "+8" in
/// the ring's light for a best move, the rest plain; none while stones fly.
pub(super) fn label_margins(
    session: Res<Session<Mancala>>,
    margins: Res<PitMargins>,
    busy: Res<BoardBusy>,
    mut labels: Query<(&MarginLabel, &mut Text2d, &mut TextColor, &mut Visibility)>,
) {
    let board = session.view();
    let known = if busy.0 == 0 { margins.known() } else { &[] };
    let top = known.iter().map(|m| m.margin).max();
    // Best only once every move is proven: an early one may be beaten.
    let settled = !margins.best().is_empty();
    for (label, mut text, mut color, mut visibility) in &mut labels {
        let shown = known.iter().find(|m| board.pit_cell(m.sow.side, m.sow.pit) == label.0);
        let Some(m) = shown else {
            visibility.set_if_neq(Visibility::Hidden);
            continue;
        };
        let words = signed(m.margin);
        if text.0 != words {
            text.0 = words;
        }
        let now = if settled && Some(m.margin) == top { BEST_RING } else { LABEL_COLOR.with_alpha(0.8) };
        color.set_if_neq(TextColor(now));
        visibility.set_if_neq(Visibility::Inherited);
    }
}

/// A margin as a figure with its sign: "+8", "0", "−2".
fn signed(margin: i32) -> String {
    match margin {
        m if m > 0 => format!("+{m}"),
        m if m < 0 => format!("\u{2212}{}", -m),
        _ => "0".to_owned(),
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
        PitMargins::Preparing { .. } | PitMargins::Working { .. } => match margins.of(sow) {
            Some(margin) => Some(format!("{} with perfect play after this", result_words(margin))),
            None => Some(match margins {
                PitMargins::Working { seconds, .. } => working(*seconds),
                _ => "not proven yet: the teacher is being prepared".to_owned(),
            }),
        },
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
        PitMargins::Preparing { line, .. } => vec![TeachNote::line(line.clone())],
        PitMargins::Working { seconds, .. } => vec![TeachNote::line(format!("W{}", &working(*seconds)[1..]))],
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
