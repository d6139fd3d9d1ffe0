//! A Robot board level drawn small for the menu, the editor's generator
//! preview and the level previews: tiles, belts, homes (unless hidden) and
//! robots in their players' colours.

use bevy_egui::egui::{self, Color32, CornerRadius, Rect, Stroke, Vec2, vec2};
use tabula_engine::robots::RobotsLevel;

use crate::app::board::seat_color32;
use crate::app::picture::fit;

const UNOWNED_HOME: Color32 = Color32::from_rgb(219, 214, 199);
const GROUND: Color32 = Color32::from_rgb(51, 61, 56);
const HINT: Color32 = Color32::from_rgb(46, 71, 107);
const BROKEN: Color32 = Color32::from_rgb(92, 87, 84);
const BELT: Color32 = Color32::from_rgb(237, 199, 77);
/// A Robot board level drawn to fill `rect` (the editor's generator
/// previews its board with it too).
pub fn draw(painter: &egui::Painter, rect: Rect, level: &RobotsLevel) {
    let h = level.board.len().max(1);
    let w = level.board.first().map_or(1, |r| r.chars().count()).max(1);
    let area = fit(rect, w as f32, h as f32);
    let cell = area.width() / w as f32;
    painter.rect_filled(area, CornerRadius::ZERO, GROUND);
    let hidden = level.homes == tabula_engine::robots::Homes::Hidden;
    let tile = |x: usize, y: usize| {
        Rect::from_min_size(area.min + vec2(x as f32 * cell, y as f32 * cell), Vec2::splat(cell))
            .shrink(cell * 0.06)
    };
    for (y, row) in level.board.iter().enumerate() {
        for (x, c) in row.chars().enumerate() {
            let t = tile(x, y);
            match c {
                '?' => {
                    painter.rect_filled(t, CornerRadius::ZERO, HINT);
                }
                '#' => {
                    painter.rect_filled(t, CornerRadius::same((cell * 0.3) as u8), BROKEN);
                }
                '^' | '>' | 'v' | '<' => belt(painter, t, c),
                c if c.is_ascii_lowercase() && !hidden => {
                    let owner = level.robots.iter().find(|r| r.id.to_ascii_lowercase() == c);
                    let color =
                        owner.map_or(UNOWNED_HOME, |r| seat_color32(r.player.saturating_sub(1).into()));
                    painter.circle_stroke(
                        t.center(),
                        cell * 0.36,
                        Stroke::new((cell * 0.12).max(1.0), color),
                    );
                }
                _ => {}
            }
        }
    }
    for robot in &level.robots {
        let t = tile(robot.at.0.into(), robot.at.1.into());
        let color = seat_color32(robot.player.saturating_sub(1).into());
        painter.rect_filled(t.shrink(cell * 0.08), CornerRadius::same((cell * 0.2) as u8), color);
    }
}

/// A conveyor tile: a chevron pointing the belt's way.
fn belt(painter: &egui::Painter, t: Rect, c: char) {
    let dir = match c {
        '^' => vec2(0.0, -1.0),
        '>' => vec2(1.0, 0.0),
        'v' => vec2(0.0, 1.0),
        _ => vec2(-1.0, 0.0),
    };
    let side = vec2(-dir.y, dir.x);
    let (c, r) = (t.center(), t.width() * 0.35);
    let stroke = Stroke::new((t.width() * 0.12).max(1.0), BELT);
    painter.line_segment([c - dir * r * 0.3 + side * r, c + dir * r * 0.6], stroke);
    painter.line_segment([c - dir * r * 0.3 - side * r, c + dir * r * 0.6], stroke);
}
