//! The Nim board: each pile a row of stones, each stone an entity. A player
//! picks a stone with the mouse (it and every stone to its right are taken)
//! or with the keyboard, then confirms; the taken stones lift and fade away.
//!
//! This file holds the board's components, the player's choice, the layout
//! of the rows and the plugin. Spawning the rows is `spawn`'s, the taken
//! stones leaving `animate`'s, the colours of stones, rows and labels each
//! frame `paint`'s, the mouse and keys `input`'s, the teaching overlay (the
//! nim-sum, the winning takes) `teach`'s.

mod animate;
mod form;
mod input;
mod paint;
pub mod picture;
mod spawn;
mod teach;

use bevy::prelude::*;
use bevy_egui::egui;
use tabula_engine::nim::{Ending, Nim, NimLevel};
use tabula_engine::{Game, Outcome};

use crate::app::board::{count_busy, keys_free, playing, pointer_free};
use crate::app::game::{WindowGame, name_of};
use crate::app::help::{Key, key};
use crate::app::registry;
use crate::app::session::{MoveChoice, SessionSet, choice_expires};

pub use teach::NimLesson;

const STONE: f32 = 40.0;
const MAX_SPACING: f32 = 48.0;
/// Widest row of stones, in world units, before stones overlap.
const ROW_WIDTH: f32 = 1500.0;
const ROW_HEIGHT: f32 = 64.0;
const LABEL_WIDTH: f32 = 170.0;
const COUNT_WIDTH: f32 = 110.0;
const MARGIN: f32 = 40.0;
/// Rows show at most this many stones; larger piles show their count.
pub const DRAWN_STONES: u32 = 60;

const ROW_COLOR: Color = Color::srgb(0.17, 0.20, 0.18);
const ROW_CURSOR: Color = Color::srgb(0.24, 0.30, 0.26);
const ROW_REFUSED: Color = Color::srgb(0.55, 0.16, 0.14);
const STONE_COLOR: Color = Color::srgb(0.86, 0.84, 0.78);
const STONE_HOVER: Color = Color::srgb(1.0, 0.93, 0.62);
const STONE_CHOSEN: Color = Color::srgb(0.95, 0.45, 0.30);
/// The stones a winning take removes, while teaching.
pub const STONE_WINNING: Color = Color::srgb(0.50, 0.90, 0.55);
const LABEL_COLOR: Color = Color::srgb(0.85, 0.88, 0.85);
const DIM_LABEL: Color = Color::srgb(0.55, 0.6, 0.57);

#[derive(Component, Debug, Clone, Copy, PartialEq, Eq)]
pub struct Stone {
    pub pile: usize,
    /// Position in the row from the left; taking removes from the right.
    pub slot: u32,
}

#[derive(Component, Debug)]
struct PileRow(usize);

#[derive(Component, Debug)]
struct PileCount(usize);

/// A board label whose font keeps a readable size on screen.
#[derive(Component, Debug)]
struct Label {
    /// Size in world units at which it fills its space.
    world_size: f32,
}

/// A stone being taken: it rises and fades, then is despawned.
#[derive(Component, Debug)]
struct Leaving {
    timer: Timer,
    from: Vec3,
}

/// The pile and count the player is choosing.
#[derive(Resource, Debug, Default, Clone, PartialEq)]
pub struct NimChoice {
    pub pile: usize,
    pub count: u32,
    /// The choice came from a click (shown as chosen) or is only the cursor.
    pub armed: bool,
    /// Digits typed for the count, and when the last one was.
    typed: String,
    typed_at: f64,
    hover: Option<(usize, u32)>,
}

impl MoveChoice for NimChoice {
    fn expire(&mut self) {
        self.armed = false;
        self.typed.clear();
    }
}

/// The row of a refused take glows red for a moment.
#[derive(Resource, Debug, Default)]
struct RefusalFlash {
    pile: usize,
    left: f32,
}

/// Board geometry of the current level.
#[derive(Resource, Debug, Default, Clone)]
pub struct NimLayout {
    pub spacing: f32,
    pub piles: usize,
    pub width: f32,
    pub height: f32,
}

impl NimLayout {
    fn new(piles: &[u32]) -> NimLayout {
        let widest = piles.iter().map(|&n| n.min(DRAWN_STONES)).max().unwrap_or(1).max(1);
        let spacing = (ROW_WIDTH / widest as f32).min(MAX_SPACING);
        let width = LABEL_WIDTH + spacing * widest as f32 + COUNT_WIDTH;
        let height = ROW_HEIGHT * piles.len() as f32;
        NimLayout { spacing, piles: piles.len(), width, height }
    }

    fn row_y(&self, pile: usize) -> f32 {
        self.height / 2.0 - ROW_HEIGHT * (pile as f32 + 0.5)
    }

    fn left(&self) -> f32 {
        -self.width / 2.0
    }

    pub fn stone_position(&self, pile: usize, slot: u32) -> Vec2 {
        Vec2::new(self.left() + LABEL_WIDTH + self.spacing * (slot as f32 + 0.5), self.row_y(pile))
    }

    /// The stone under a world point, as (pile, slot).
    pub fn stone_at(&self, point: Vec2, piles: &[u32]) -> Option<(usize, u32)> {
        let row = ((self.height / 2.0 - point.y) / ROW_HEIGHT).floor();
        if row < 0.0 || row >= self.piles as f32 {
            return None;
        }
        let pile = row as usize;
        let x = point.x - self.left() - LABEL_WIDTH;
        let drawn = piles[pile].min(DRAWN_STONES);
        let slot = (x / self.spacing).floor();
        (slot >= 0.0 && (slot as u32) < drawn).then_some((pile, slot as u32))
    }
}

/// Nim in the window: its session, board, mouse and keys.
pub fn plugin(app: &mut App) {
    registry::register::<Nim>(app);
    choice_expires::<NimChoice>(app);
    app.init_resource::<NimChoice>()
        .init_resource::<NimLayout>()
        .init_resource::<RefusalFlash>()
        .init_resource::<NimLesson>()
        .add_systems(
            Update,
            (
                spawn::rebuild_board,
                animate::take_stones,
                paint::flash_refusals,
                teach::work_out_takes,
                (
                    animate::lift_stones,
                    paint::paint_board,
                    paint::fit_labels,
                    count_busy::<Leaving>,
                    input::describe_choice,
                    teach::say_verdict,
                ),
            )
                .chain()
                .in_set(SessionSet::View)
                .run_if(playing::<Nim>),
        )
        .add_systems(
            Update,
            (input::point_at_stones.run_if(pointer_free), input::choose_with_keys.run_if(keys_free))
                .in_set(SessionSet::Requests)
                .run_if(playing::<Nim>),
        );
}

impl WindowGame for Nim {
    const MOUSE: &'static str =
        "Click a stone to choose it and every stone to its right; click again or press Enter to take.";
    // Whoever starts a first-player win wins it: the person starts every
    // other game, and then needs the agent to slip.
    const TAKES_TURNS_TO_START: bool = true;
    const KEYS: &'static [Key] = &[
        key("Up/Down", "pile"),
        key("Left/Right or digits", "how many"),
        key("Enter", "take"),
        key("T", "teach: nim-sum"),
    ];
    const ABOUT: &'static str = "Take stones from one pile at a time; the last stone decides.";
    const PICTURE: Option<&'static str> = Some("traditional-3-4-5.ron");

    fn draw_level(painter: &egui::Painter, rect: egui::Rect, level: &NimLevel) {
        picture::draw(painter, rect, level);
    }

    fn new_level() -> NimLevel {
        NimLevel {
            name: "New level".into(),
            description: String::new(),
            group: Default::default(),
            piles: vec![3, 4, 5],
            ending: Ending::Normal,
        }
    }

    fn edit_level(ui: &mut egui::Ui, level: &NimLevel) -> Option<NimLevel> {
        form::fields(ui, level)
    }

    fn edit_on_picture(
        ui: &mut egui::Ui,
        level: &NimLevel,
        _refused: &mut Option<String>,
    ) -> Option<NimLevel> {
        form::drag_piles(ui, level)
    }

    fn from_view(view: &Nim) -> Nim {
        view.clone()
    }

    fn rules_text(level: &NimLevel) -> String {
        level.ending.describe().to_owned()
    }

    fn outcome_text(board: &Nim, names: &[String]) -> String {
        let Some(Outcome::Win(winner)) = board.outcome() else { return "A draw".into() };
        let loser = winner.next(2);
        match board.ending() {
            Ending::Misere => {
                format!(
                    "{} wins: {} took the last stone (misère)",
                    name_of(names, winner),
                    name_of(names, loser)
                )
            }
            Ending::Normal => {
                format!("{} wins by taking the last stone (normal play)", name_of(names, winner))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clicks_map_to_the_stone_under_them() {
        let piles = [5, 6, 7];
        let layout = NimLayout::new(&piles);
        for (pile, &n) in piles.iter().enumerate() {
            for slot in 0..n {
                let at = layout.stone_position(pile, slot);
                assert_eq!(layout.stone_at(at, &piles), Some((pile, slot)));
            }
            let past = layout.stone_position(pile, n);
            assert_eq!(layout.stone_at(past, &piles), None, "no stone past the row's end");
        }
        assert_eq!(layout.stone_at(Vec2::new(0.0, layout.height), &piles), None);
    }

    #[test]
    fn wide_rows_fit_the_board() {
        let layout = NimLayout::new(&[60, 3]);
        assert!(layout.width <= LABEL_WIDTH + ROW_WIDTH + COUNT_WIDTH + 0.01);
        let big = NimLayout::new(&[1_000_000]);
        assert_eq!(big.spacing, ROW_WIDTH / DRAWN_STONES as f32);
    }
}
