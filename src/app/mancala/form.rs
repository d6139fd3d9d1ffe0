//! A Mancala level in the editor's form: the board's size, the stones a pit
//! and the rule options.

use bevy_egui::egui;
use tabula_engine::mancala::{Capture, MancalaLevel};

use crate::app::editor::form::heading;

/// The level's fields; the level as changed, if a field changed.
pub fn fields(ui: &mut egui::Ui, level: &MancalaLevel) -> Option<MancalaLevel> {
    let mut m = level.clone();
    heading(ui, &mut m.name, &mut m.description, &mut m.group);
    ui.add(egui::DragValue::new(&mut m.pits).range(1..=16).prefix("pits a side: "));
    ui.add(egui::DragValue::new(&mut m.stones).range(1..=99).prefix("stones a pit: "));
    ui.horizontal(|ui| {
        ui.label("Captures");
        ui.selectable_value(&mut m.capture, Capture::None, "none");
        ui.selectable_value(&mut m.capture, Capture::Standard, "standard");
        ui.selectable_value(&mut m.capture, Capture::Empty, "also from an empty pit");
    });
    ui.checkbox(&mut m.sweep, "Stones left at the end go to their side's store");
    ui.add(egui::DragValue::new(&mut m.move_cap).range(1..=100_000).prefix("a draw after moves: "));
    Some(m)
}
