//! A Nim level in the editor's form: its piles and how it ends, and beside
//! them the rows of stones to drag.

use bevy_egui::egui;
use tabula_engine::nim::{Ending, NimLevel};

use super::picture;
use crate::app::editor::form::heading;

/// The level's fields; the level as changed, if a field changed.
pub fn fields(ui: &mut egui::Ui, level: &NimLevel) -> Option<NimLevel> {
    let mut nim = level.clone();
    heading(ui, &mut nim.name, &mut nim.description, &mut nim.group);
    ui.label("Piles");
    let mut remove = None;
    for (i, pile) in nim.piles.iter_mut().enumerate() {
        ui.horizontal(|ui| {
            ui.add(egui::DragValue::new(pile).range(0..=1_000_000).prefix(format!("pile {}: ", i + 1)));
            if ui.small_button("remove").clicked() {
                remove = Some(i);
            }
        });
    }
    if let Some(i) = remove {
        nim.piles.remove(i);
    }
    if ui.button("Add a pile").clicked() {
        nim.piles.push(3);
    }
    ui.horizontal(|ui| {
        ui.selectable_value(&mut nim.ending, Ending::Normal, "Last stone wins");
        ui.selectable_value(&mut nim.ending, Ending::Misere, "Last stone loses (misère)");
    });
    Some(nim)
}

/// The piles drawn with room for a dozen stones a row, so a row keeps its
/// place while its count changes; pressing or dragging on a row makes that
/// pile end with the stone under the pointer (dragged out to the left of its
/// first stone: empty). The level as changed, if a pile did.
pub fn drag_piles(ui: &mut egui::Ui, nim: &NimLevel) -> Option<NimLevel> {
    let size = egui::vec2(ui.available_width(), 280.0);
    let (rect, response) = ui.allocate_exact_size(size, egui::Sense::click_and_drag());
    picture::rows(ui.painter(), rect, nim, picture::SHOWN);
    let pointer = response.interact_pointer_pos().filter(|_| response.is_pointer_button_down_on())?;
    let (area, cell) = picture::layout(rect, nim.piles.len(), picture::SHOWN);
    // The row the press began on, wherever the drag wanders.
    let origin = ui.input(|i| i.pointer.press_origin()).unwrap_or(pointer);
    let row = ((origin.y - area.top()) / cell).floor();
    let pile = (row >= 0.0).then_some(row as usize).filter(|&i| i < nim.piles.len().min(8))?;
    // The pile ends with the stone under the pointer; dragged out past the
    // first stone, it is empty.
    let x = (pointer.x - area.left()) / cell;
    let count = if x < 0.0 { 0 } else { (x.floor() as u32 + 1).min(picture::SHOWN) };
    let mut next = nim.clone();
    // A pile longer than the row shows keeps its count until dragged inside.
    if nim.piles[pile] > picture::SHOWN && count == picture::SHOWN {
        return None;
    }
    next.piles[pile] = count;
    (next.piles != nim.piles).then_some(next)
}
