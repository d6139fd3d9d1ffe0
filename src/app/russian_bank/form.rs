//! A Russian Bank level in the editor's form: a shuffled deal or a fixed
//! position (built by dragging cards, `position`), and the rule options.

use bevy_egui::egui;
use tabula_engine::russian_bank::{Deal, FixedPosition, RussianBankLevel};

use super::position;
use crate::app::editor::form::heading;

/// The level's fields; the level as changed, if a field changed.
pub fn fields(ui: &mut egui::Ui, level: &RussianBankLevel) -> Option<RussianBankLevel> {
    let mut b = level.clone();
    heading(ui, &mut b.name, &mut b.description, &mut b.group);
    let mut fixed = matches!(b.deal, Deal::Fixed(_));
    ui.horizontal(|ui| {
        ui.selectable_value(&mut fixed, false, "A shuffled deal, from the game's seed");
        ui.selectable_value(&mut fixed, true, "A fixed position");
    });
    match (&b.deal, fixed) {
        (Deal::Fixed(_), false) => b.deal = Deal::Shuffled,
        (Deal::Shuffled, true) => b.deal = Deal::Fixed(FixedPosition(position::empty_deal())),
        (Deal::Fixed(FixedPosition(deal)), true) => {
            let next = position::to_move(ui, deal);
            position::palette(ui, deal);
            ui.separator();
            if let Some(next) = next {
                b.deal = Deal::Fixed(FixedPosition(next));
            }
        }
        (Deal::Shuffled, false) => {}
    }
    ui.checkbox(&mut b.stop_rule, "Stop rule: a move out of priority may be stopped");
    ui.add(egui::DragValue::new(&mut b.match_points).range(1..=10_000).prefix("match to points: "));
    ui.add(egui::DragValue::new(&mut b.move_cap).range(1..=100_000).prefix("a draw after moves: "));
    Some(b)
}

/// A fixed position's table to drop cards on, or the level's picture for a
/// shuffled deal; the level as changed there, if it was.
pub fn on_picture(
    ui: &mut egui::Ui,
    level: &RussianBankLevel,
    refused: &mut Option<String>,
) -> Option<RussianBankLevel> {
    let Deal::Fixed(FixedPosition(deal)) = &level.deal else {
        let size = egui::vec2(ui.available_width(), 280.0);
        let (rect, _) = ui.allocate_exact_size(size, egui::Sense::hover());
        crate::app::picture::backdrop(ui.painter(), rect);
        super::picture::draw(ui.painter(), rect.shrink(6.0), level);
        return None;
    };
    let size = egui::vec2(ui.available_width(), ui.available_height());
    let next = position::table(ui, size, deal, refused)?;
    Some(RussianBankLevel { deal: Deal::Fixed(FixedPosition(next)), ..level.clone() })
}
