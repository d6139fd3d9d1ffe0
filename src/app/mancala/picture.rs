//! Mancala drawn small for the menu and the editor: the board with its pits
//! and stores, in the board's colours.

use bevy_egui::egui::{self, Color32, CornerRadius, Pos2, Rect, Stroke, pos2, vec2};
use tabula_engine::mancala::MancalaLevel;

use crate::app::board::seat_color32;
use crate::app::picture::fit;

const BOARD: Color32 = Color32::from_rgb(107, 69, 38);
const CELL: Color32 = Color32::from_rgb(217, 184, 140);
const STONE: Color32 = Color32::from_rgb(70, 110, 160);
const COUNT: Color32 = Color32::from_rgb(25, 25, 25);

pub fn draw(painter: &egui::Painter, rect: Rect, level: &MancalaLevel) {
    let pits = level.pits as f32;
    let area = fit(rect, pits + 2.0, 2.2);
    let cell = area.width() / (pits + 2.0);
    painter.rect_filled(area, CornerRadius::same((cell * 0.4) as u8), BOARD);
    for (side, store_x) in [(0, area.right() - cell * 0.5), (1, area.left() + cell * 0.5)] {
        let store =
            Rect::from_center_size(pos2(store_x, area.center().y), vec2(cell * 0.75, area.height() * 0.8));
        painter.rect_filled(store, CornerRadius::same((cell * 0.3) as u8), CELL);
        painter.rect_stroke(
            store,
            CornerRadius::same((cell * 0.3) as u8),
            Stroke::new(2.0, seat_color32(side)),
            egui::StrokeKind::Inside,
        );
    }
    for row in 0..2 {
        let y = area.top() + area.height() * (0.3 + 0.4 * row as f32);
        for p in 0..level.pits {
            let centre = pos2(area.left() + cell * (1.5 + p as f32), y);
            painter.circle_filled(centre, cell * 0.38, CELL);
            stones(painter, centre, cell * 0.28, level.stones.into());
        }
    }
}

/// Up to seven stones in a ring around `centre`, more as a number.
fn stones(painter: &egui::Painter, centre: Pos2, radius: f32, n: u32) {
    if n > 7 {
        painter.text(centre, egui::Align2::CENTER_CENTER, n, egui::FontId::proportional(radius), COUNT);
        return;
    }
    let ring = if n == 1 { 0.0 } else { radius * 0.55 };
    for i in 0..n {
        let angle = std::f32::consts::TAU * i as f32 / n as f32;
        let at = centre + vec2(angle.cos(), angle.sin()) * ring;
        painter.circle_filled(at, radius * 0.3, STONE);
    }
}
