//! The level drawn beside the form, to edit on: Nim's piles to drag, a
//! fixed Russian Bank position's table to drop cards on, or the menu's
//! picture of the level (Mancala, a shuffled deal).

use bevy_egui::egui;
use tabula_engine::level::LevelFile;
use tabula_engine::nim::{Nim, NimLevel};
use tabula_engine::russian_bank::{Deal, FixedPosition, RussianBank, RussianBankLevel};

use crate::app::menu::pictures;

/// The level drawn on the left: Nim's piles to drag, a fixed Russian Bank
/// position's table to drop cards on, or the menu's picture. The level as
/// changed there, if it was.
pub(super) fn picture(
    ui: &mut egui::Ui,
    level: &LevelFile,
    refused: &mut Option<String>,
) -> Option<LevelFile> {
    let size = egui::vec2(ui.available_width(), 280.0);
    if let Some(nim) = level.get::<Nim>() {
        return drag_piles(ui, size, nim);
    }
    if let Some(bank) = level.get::<RussianBank>()
        && let Deal::Fixed(FixedPosition(deal)) = &bank.deal
    {
        let size = egui::vec2(ui.available_width(), ui.available_height());
        let next = super::cards::table(ui, size, deal, refused)?;
        return Some(LevelFile::new::<RussianBank>(RussianBankLevel {
            deal: Deal::Fixed(FixedPosition(next)),
            ..bank.clone()
        }));
    }
    let (rect, _) = ui.allocate_exact_size(size, egui::Sense::hover());
    pictures::draw(ui.painter(), rect, level);
    None
}

/// Nim's piles drawn with room for a dozen stones a row, so a row keeps its
/// place while its count changes; pressing or dragging on a row makes that
/// pile end with the stone under the pointer (dragged out to the left of its
/// first stone: empty). The level
/// as changed, if a pile did.
pub(super) fn drag_piles(ui: &mut egui::Ui, size: egui::Vec2, nim: &NimLevel) -> Option<LevelFile> {
    let (rect, response) = ui.allocate_exact_size(size, egui::Sense::click_and_drag());
    pictures::nim_rows(ui.painter(), rect, nim, pictures::NIM_SHOWN);
    let pointer = response.interact_pointer_pos().filter(|_| response.is_pointer_button_down_on())?;
    let (area, cell) = pictures::nim_layout(rect, nim.piles.len(), pictures::NIM_SHOWN);
    // The row the press began on, wherever the drag wanders.
    let origin = ui.input(|i| i.pointer.press_origin()).unwrap_or(pointer);
    let row = ((origin.y - area.top()) / cell).floor();
    let pile = (row >= 0.0).then_some(row as usize).filter(|&i| i < nim.piles.len().min(8))?;
    // The pile ends with the stone under the pointer; dragged out past the
    // first stone, it is empty.
    let x = (pointer.x - area.left()) / cell;
    let count = if x < 0.0 { 0 } else { (x.floor() as u32 + 1).min(pictures::NIM_SHOWN) };
    let mut next = nim.clone();
    // A pile longer than the row shows keeps its count until dragged inside.
    if nim.piles[pile] > pictures::NIM_SHOWN && count == pictures::NIM_SHOWN {
        return None;
    }
    next.piles[pile] = count;
    (next.piles != nim.piles).then(|| LevelFile::new::<Nim>(next))
}
