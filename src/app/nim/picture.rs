//! Nim drawn small for the menu and the editor: the piles as rows of
//! stones, in the board's colours; in the editor's form, a row dragged to
//! the stone under the pointer sets its pile.

use bevy_egui::egui::{self, Color32, CornerRadius, Rect, vec2};
use tabula_engine::nim::NimLevel;

use crate::app::picture::fit;

const STONE: Color32 = Color32::from_rgb(219, 214, 199);
const ROW: Color32 = Color32::from_rgb(43, 51, 46);

/// Stones a row shows in the editor; a longer pile has its count beside them.
pub const SHOWN: u32 = 12;

/// The menu's picture: the rows sized to the largest pile (up to `SHOWN`).
pub fn draw(painter: &egui::Painter, rect: Rect, level: &NimLevel) {
    let room = level.piles.iter().copied().max().unwrap_or(1).clamp(1, SHOWN);
    rows(painter, rect, level, room);
}

/// Where the rows are drawn in `rect` with room for `room` stones a row:
/// the rows' area and a stone's cell (a row is a cell tall).
pub fn layout(rect: Rect, piles: usize, room: u32) -> (Rect, f32) {
    let rows = piles.clamp(1, 8);
    let area = fit(rect, room as f32 + 1.5, rows as f32);
    (area, area.height() / rows as f32)
}

/// The piles as rows of stones (up to eight rows, up to `room` stones a
/// row, the count beside a longer pile).
pub fn rows(painter: &egui::Painter, rect: Rect, level: &NimLevel, room: u32) {
    let (area, cell) = layout(rect, level.piles.len(), room);
    for (i, &n) in level.piles.iter().take(8).enumerate() {
        let row = Rect::from_min_size(area.min + vec2(0.0, i as f32 * cell), vec2(area.width(), cell));
        painter.rect_filled(row.shrink(cell * 0.06), CornerRadius::same(3), ROW);
        for s in 0..n.min(room) {
            let centre = row.left_center() + vec2(cell * (0.5 + s as f32), 0.0);
            painter.circle_filled(centre, cell * 0.36, STONE);
        }
        if n > room {
            let at = row.left_center() + vec2(cell * (room as f32 + 0.7), 0.0);
            painter.text(at, egui::Align2::CENTER_CENTER, n, egui::FontId::proportional(cell * 0.5), STONE);
        }
    }
}
