//! The Mancala board: two rows of pits with a store at each end, every stone
//! an entity. Hovering one of your pits previews where its last stone lands
//! ("extra turn", "capture"); sowing is animated stone by stone, then the
//! capture and the final sweep.
//!
//! This file holds the board's components, the chosen pit, where each pit
//! and store is drawn, and the plugin. Spawning the board is `spawn`'s, the
//! stones' flights `animate`'s, the preview, mouse and keys `input`'s, the
//! colours and the carved hollow `art`'s, the teaching overlay (each pit's
//! proven margin, the best pits ringed) `teach`'s and its review of a
//! finished game `review`'s.

mod animate;
mod art;
mod form;
mod input;
mod picture;
mod review;
mod spawn;
mod teach;

use bevy::prelude::*;
use bevy_egui::egui;
use tabula_engine::mancala::{Mancala, MancalaLevel, MancalaStep, Transfer, rules_line};
use tabula_engine::{Game, Outcome, Player};

use crate::app::board::{count_busy, keys_free, playing, pointer_free};
use crate::app::game::{ActiveGame, WindowGame, name_of};
use crate::app::glide::{Glide, glide};
use crate::app::help::{Key, key};
use crate::app::registry;
use crate::app::session::{MoveChoice, SessionSet, choice_expires};

pub use art::{STORE_WINNER, cell_pixels};
pub use teach::PitMargins;

const PIT: f32 = 112.0;
const SPACING: f32 = 132.0;
const ROW_Y: f32 = 78.0;
const STORE_SIZE: Vec2 = Vec2::new(112.0, 250.0);
const STONE: f32 = 24.0;
const MARGIN: f32 = 60.0;
/// From a row's centre: stone counts outside the board, pit names inside.
const LABEL_GAP: f32 = 94.0;
const TAG_GAP: f32 = 64.0;
const NAME_GAP: f32 = 150.0;

/// A stone and the cell it is in (or flying to).
#[derive(Component, Debug)]
pub struct Stone {
    pub cell: usize,
}

/// A pit or store cell, by cell.
#[derive(Component, Debug)]
pub struct Cell(pub usize);

#[derive(Component, Debug)]
struct CellCount(usize);

#[derive(Component, Debug)]
struct BoardPart;

/// The tag under a cell: a pit's name (A1), or whose store it is.
#[derive(Component, Debug, Clone, Copy)]
pub struct CellTag(pub usize);

/// The ring that lights a pit as a best move, while teaching.
#[derive(Component, Debug, Clone, Copy)]
pub struct BestRing(pub usize);

/// A pit's proven margin drawn on the board, while teaching ("+8").
#[derive(Component, Debug, Clone, Copy)]
pub struct MarginLabel(pub usize);

/// The cell each leg of a stone's glide leaves (a sown stone may be
/// captured on): while it waits to lift off, it is counted there.
#[derive(Component, Debug, Default, Clone)]
struct HopCells(Vec<usize>);

/// The pit the player points at or has chosen by key, on their own row.
#[derive(Resource, Debug, Default)]
pub struct PitChoice {
    pub pit: u8,
    pub hover: Option<u8>,
    pub keyed: bool,
}

impl MoveChoice for PitChoice {
    fn expire(&mut self) {
        self.keyed = false;
    }
}

/// Where each cell is drawn, for the current board size.
#[derive(Resource, Debug, Default, Clone)]
pub struct MancalaLayout {
    pub pits: usize,
    pub width: f32,
    pub height: f32,
}

impl MancalaLayout {
    fn new(pits: usize) -> MancalaLayout {
        let width = SPACING * pits as f32 + 2.0 * (STORE_SIZE.x + 30.0);
        MancalaLayout { pits, width, height: 2.0 * (ROW_Y + NAME_GAP + 30.0) }
    }

    /// Centre of a cell: player 1's row at the bottom left to right and their
    /// store on the right; player 2's row at the top right to left and their
    /// store on the left (counter-clockwise sowing).
    pub fn cell_position(&self, cell: usize) -> Vec2 {
        let n = self.pits;
        let x = |i: usize| SPACING * (i as f32 - (n as f32 - 1.0) / 2.0);
        let store_x = SPACING * n as f32 / 2.0 + STORE_SIZE.x / 2.0 + 10.0;
        match cell {
            c if c < n => Vec2::new(x(c), -ROW_Y),
            c if c == n => Vec2::new(store_x, 0.0),
            c if c < 2 * n + 1 => Vec2::new(x(2 * n - c), ROW_Y),
            _ => Vec2::new(-store_x, 0.0),
        }
    }

    fn is_store(&self, cell: usize) -> bool {
        cell == self.pits || cell == 2 * self.pits + 1
    }

    /// Where the `slot`-th stone of a cell sits: a sunflower spiral, stretched
    /// to fill a store, turned a different way in each cell so that pits
    /// holding the same count do not look stamped from one mould. A full
    /// spiral (`STONES_A_LAYER`) is covered by the next, shifted a little,
    /// so that a large count heaps up rather than crowding the rim.
    pub fn stone_position(&self, cell: usize, slot: usize) -> Vec2 {
        const STONES_A_LAYER: usize = 13;
        let (layer, place) = (slot / STONES_A_LAYER, slot % STONES_A_LAYER);
        let angle = place as f32 * 2.399_963 + cell as f32 * 1.9 + layer as f32 * 0.9;
        let r = 12.5 * (place as f32 + 0.35 * layer.min(1) as f32).sqrt();
        let (sx, sy) = if self.is_store(cell) { (0.85, 2.1) } else { (1.0, 1.0) };
        self.cell_position(cell) + Vec2::new(angle.cos() * r * sx, angle.sin() * r * sy)
    }

    /// The cell under a world point, if any.
    pub fn cell_at(&self, point: Vec2) -> Option<usize> {
        (0..2 * self.pits + 2).find(|&c| {
            let d = point - self.cell_position(c);
            let half = if self.is_store(c) { STORE_SIZE / 2.0 } else { Vec2::splat(PIT / 2.0) };
            d.x.abs() <= half.x && d.y.abs() <= half.y
        })
    }
}

/// Mancala in the window: its session, board, mouse and keys.
pub fn plugin(app: &mut App) {
    registry::register::<Mancala>(app);
    choice_expires::<PitChoice>(app);
    app.init_resource::<PitChoice>()
        .init_resource::<MancalaLayout>()
        .init_resource::<PitMargins>()
        .init_resource::<teach::Lessons>()
        .init_resource::<review::GameReview>()
        .add_systems(Startup, art::make_cell_texture)
        .add_systems(OnExit(ActiveGame::of::<Mancala>()), review::stop_reviewing)
        .add_systems(
            Update,
            (
                spawn::rebuild_board,
                animate::sow_stones,
                (glide, count_busy::<Glide>, animate::update_counts),
                (teach::work_out_margins, review::review_game, review::teach_notes),
                (input::preview_pit, review::say_verdict, teach::ring_best_pits, teach::label_margins),
            )
                .chain()
                .in_set(SessionSet::View)
                .run_if(playing::<Mancala>),
        )
        .add_systems(
            Update,
            (input::point_at_pits.run_if(pointer_free), input::choose_pit_with_keys.run_if(keys_free))
                .in_set(SessionSet::Requests)
                .run_if(playing::<Mancala>),
        );
}

impl WindowGame for Mancala {
    const MOUSE: &'static str = "Hover one of your pits to see where its last stone lands; click to sow.";
    const KEYS: &'static [Key] =
        &[key("Left/Right or digits", "pit"), key("Enter", "sow"), key("T", "teach: best moves")];
    const ABOUT: &'static str = "Sow stones around the board; the most in your store wins.";
    const PICTURE: Option<&'static str> = Some("kalah-6-4.ron");

    fn draw_level(painter: &egui::Painter, rect: egui::Rect, level: &MancalaLevel) {
        picture::draw(painter, rect, level);
    }

    fn new_level() -> MancalaLevel {
        MancalaLevel {
            name: "New level".into(),
            description: String::new(),
            group: Default::default(),
            pits: 6,
            stones: 4,
            capture: tabula_engine::mancala::Capture::Standard,
            sweep: true,
            move_cap: tabula_engine::mancala::level::DEFAULT_MOVE_CAP,
        }
    }

    fn edit_level(ui: &mut egui::Ui, level: &MancalaLevel) -> Option<MancalaLevel> {
        form::fields(ui, level)
    }

    fn from_view(view: &Mancala) -> Mancala {
        *view
    }

    fn rules_text(level: &MancalaLevel) -> String {
        rules_line(level.capture, level.sweep)
    }

    fn step_note(steps: &[MancalaStep]) -> Option<String> {
        let mut notes = Vec::new();
        if steps.iter().any(|s| matches!(s, MancalaStep::TurnChanged { extra_turn: true, .. })) {
            notes.push("extra turn".to_owned());
        }
        let captured: u16 = steps
            .iter()
            .map(|s| match s {
                MancalaStep::Moved { stones, why: Transfer::Capture, .. } => *stones,
                _ => 0,
            })
            .sum();
        if captured > 0 {
            notes.push(format!("captured {captured}"));
        }
        if steps.iter().any(|s| matches!(s, MancalaStep::Moved { why: Transfer::Sweep, .. })) {
            notes.push("the rest swept to the stores".to_owned());
        }
        (!notes.is_empty()).then(|| notes.join(", "))
    }

    fn outcome_text(board: &Mancala, names: &[String]) -> String {
        let (a, b) = (board.store(Player::ONE), board.store(Player::TWO));
        match board.outcome() {
            Some(Outcome::Win(p)) => {
                let (w, l) = if p == Player::ONE { (a, b) } else { (b, a) };
                format!("{} wins, {w} stones to {l}", name_of(names, p))
            }
            Some(Outcome::Draw) if a == b => format!("A draw, {a} stones each"),
            Some(Outcome::Draw) => format!("A draw: the move cap was reached at {a} to {b}"),
            None => String::new(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cells_go_round_counter_clockwise_and_are_found_again() {
        let layout = MancalaLayout::new(6);
        // Player 1's row left to right at the bottom, then their store on the right.
        assert!(layout.cell_position(0).x < layout.cell_position(5).x);
        assert!(layout.cell_position(0).y < 0.0);
        assert!(layout.cell_position(6).x > layout.cell_position(5).x);
        // Player 2's row right to left at the top, then their store on the left.
        assert!(layout.cell_position(7).x > layout.cell_position(12).x);
        assert!(layout.cell_position(7).y > 0.0);
        assert!(layout.cell_position(13).x < layout.cell_position(12).x);
        for cell in 0..14 {
            assert_eq!(layout.cell_at(layout.cell_position(cell)), Some(cell));
        }
        assert_eq!(layout.cell_at(Vec2::new(0.0, 0.0)), None);
    }
}
