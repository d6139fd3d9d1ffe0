//! Pictures of levels for the menu, drawn with egui from the level itself:
//! Nim's piles of stones, Mancala's pits and stores, the Robot board's tiles
//! and robots, Russian Bank's table as the level deals it. The colours are
//! the boards' own, so a picture looks like the game it opens.

use bevy_egui::egui::{self, Color32, CornerRadius, Pos2, Rect, Stroke, Vec2, pos2, vec2};
use tabula_engine::core::{Game, Player};
use tabula_engine::level::LevelFile;
use tabula_engine::mancala::{Mancala, MancalaLevel};
use tabula_engine::nim::{Nim, NimLevel};
use tabula_engine::robots::{Robots, RobotsLevel};
use tabula_engine::russian_bank::{Card, RussianBank};

use crate::app::board::seat_color32;

const BACKDROP: Color32 = Color32::from_rgb(24, 28, 26);
const STONE: Color32 = Color32::from_rgb(219, 214, 199);
const NIM_ROW: Color32 = Color32::from_rgb(43, 51, 46);
const MANCALA_BOARD: Color32 = Color32::from_rgb(107, 69, 38);
const MANCALA_CELL: Color32 = Color32::from_rgb(217, 184, 140);
const MANCALA_STONE: Color32 = Color32::from_rgb(70, 110, 160);
const GROUND: Color32 = Color32::from_rgb(51, 61, 56);
const HINT: Color32 = Color32::from_rgb(46, 71, 107);
const BROKEN: Color32 = Color32::from_rgb(92, 87, 84);
const BELT: Color32 = Color32::from_rgb(237, 199, 77);
const FELT: Color32 = Color32::from_rgb(30, 86, 52);
const CARD_FACE: Color32 = Color32::from_rgb(245, 242, 232);
const CARD_BACK: Color32 = Color32::from_rgb(120, 40, 48);
const RED_SUIT: Color32 = Color32::from_rgb(200, 40, 40);
const BLACK_SUIT: Color32 = Color32::from_rgb(25, 25, 25);

/// Draws `level` to fill `rect` (its aspect kept, centred) on a dark backdrop.
pub fn draw(painter: &egui::Painter, rect: Rect, level: &LevelFile) {
    painter.rect_filled(rect, CornerRadius::same(6), BACKDROP);
    let inner = rect.shrink(6.0);
    if let Some(nim) = level.get::<Nim>() {
        nim_picture(painter, inner, nim);
    } else if let Some(mancala) = level.get::<Mancala>() {
        mancala_picture(painter, inner, mancala);
    } else if let Some(robots) = level.get::<Robots>() {
        robots_picture(painter, inner, robots);
    } else if let Ok(bank) = RussianBank::new(level.get::<RussianBank>().expect("one of the four games"), 1) {
        bank_picture(painter, inner, &bank);
    }
}

/// The largest rect of aspect `w:h` centred in `rect`.
fn fit(rect: Rect, w: f32, h: f32) -> Rect {
    let scale = (rect.width() / w).min(rect.height() / h);
    Rect::from_center_size(rect.center(), vec2(w * scale, h * scale))
}

/// Stones a Nim row shows; a longer pile has its count beside them.
pub const NIM_SHOWN: u32 = 12;

/// Where Nim's rows are drawn in `rect` with room for `room` stones a row:
/// the rows' area and a stone's cell (a row is a cell tall).
pub fn nim_layout(rect: Rect, piles: usize, room: u32) -> (Rect, f32) {
    let rows = piles.clamp(1, 8);
    let area = fit(rect, room as f32 + 1.5, rows as f32);
    (area, area.height() / rows as f32)
}

fn nim_picture(painter: &egui::Painter, rect: Rect, level: &NimLevel) {
    let room = level.piles.iter().copied().max().unwrap_or(1).clamp(1, NIM_SHOWN);
    nim_rows(painter, rect, level, room);
}

/// Nim's piles as rows of stones (up to eight rows, up to `room` stones a
/// row, the count beside a longer pile).
pub fn nim_rows(painter: &egui::Painter, rect: Rect, level: &NimLevel, room: u32) {
    let (area, cell) = nim_layout(rect, level.piles.len(), room);
    for (i, &n) in level.piles.iter().take(8).enumerate() {
        let row = Rect::from_min_size(area.min + vec2(0.0, i as f32 * cell), vec2(area.width(), cell));
        painter.rect_filled(row.shrink(cell * 0.06), CornerRadius::same(3), NIM_ROW);
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

fn mancala_picture(painter: &egui::Painter, rect: Rect, level: &MancalaLevel) {
    let pits = level.pits as f32;
    let area = fit(rect, pits + 2.0, 2.2);
    let cell = area.width() / (pits + 2.0);
    painter.rect_filled(area, CornerRadius::same((cell * 0.4) as u8), MANCALA_BOARD);
    for (side, store_x) in [(0, area.right() - cell * 0.5), (1, area.left() + cell * 0.5)] {
        let store =
            Rect::from_center_size(pos2(store_x, area.center().y), vec2(cell * 0.75, area.height() * 0.8));
        painter.rect_filled(store, CornerRadius::same((cell * 0.3) as u8), MANCALA_CELL);
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
            painter.circle_filled(centre, cell * 0.38, MANCALA_CELL);
            stones(painter, centre, cell * 0.28, level.stones.into());
        }
    }
}

/// Up to seven stones in a ring around `centre`, more as a number.
fn stones(painter: &egui::Painter, centre: Pos2, radius: f32, n: u32) {
    if n > 7 {
        painter.text(centre, egui::Align2::CENTER_CENTER, n, egui::FontId::proportional(radius), BLACK_SUIT);
        return;
    }
    let ring = if n == 1 { 0.0 } else { radius * 0.55 };
    for i in 0..n {
        let angle = std::f32::consts::TAU * i as f32 / n as f32;
        let at = centre + vec2(angle.cos(), angle.sin()) * ring;
        painter.circle_filled(at, radius * 0.3, MANCALA_STONE);
    }
}

/// A Robot board level drawn to fill `rect` (the editor's generator
/// previews its board with it too).
pub fn robots_picture(painter: &egui::Painter, rect: Rect, level: &RobotsLevel) {
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
                    let color = owner.map_or(STONE, |r| seat_color32(r.player.saturating_sub(1).into()));
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

fn bank_picture(painter: &egui::Painter, rect: Rect, bank: &RussianBank) {
    // Nine columns: a player's piles at the left and right ends, the eight
    // tableau piles between, foundations in the middle row.
    let area = fit(rect, 10.0, 6.0);
    painter.rect_filled(area, CornerRadius::same(4), FELT);
    let unit = area.width() / 10.0;
    let size = vec2(unit * 0.8, unit * 1.12);
    let card_at = |col: f32, row: f32| {
        Rect::from_min_size(area.min + vec2(unit * (0.1 + col), unit * (0.2 + row)), size)
    };
    for (i, player) in [Player::ONE, Player::TWO].into_iter().enumerate() {
        let side = bank.side(player);
        let col = if i == 0 { 0.0 } else { 9.0 };
        card(painter, card_at(col, 0.0), side.reserve.top(), unit);
        card(painter, card_at(col, 1.4), side.shown, unit);
        if !side.hand.is_empty() {
            card(painter, card_at(col, 2.8), None, unit);
        }
    }
    for n in 0..8 {
        let (col, row) = (1.0 + (n % 4) as f32 * 2.0, if n < 4 { 0.0 } else { 3.2 });
        for (k, &c) in bank.tableau(n).iter().enumerate().take(3) {
            card(painter, card_at(col + 0.25, row + k as f32 * 0.45), Some(c), unit);
        }
        if let Some(top) = bank.foundation(n) {
            card(
                painter,
                card_at(1.0 + (n % 4) as f32 * 2.0 + 1.0, 1.6 + (n / 4) as f32 * 0.2),
                Some(top),
                unit,
            );
        }
    }
}

/// A card face up (rank and suit in its corner) or, `None`, its back.
fn card(painter: &egui::Painter, r: Rect, face: Option<Card>, unit: f32) {
    let round = CornerRadius::same((unit * 0.1) as u8);
    let Some(face) = face else {
        painter.rect_filled(r, round, CARD_BACK);
        painter.rect_stroke(r, round, Stroke::new(1.0, CARD_FACE), egui::StrokeKind::Inside);
        return;
    };
    painter.rect_filled(r, round, CARD_FACE);
    painter.rect_stroke(r, round, Stroke::new(1.0, Color32::from_gray(90)), egui::StrokeKind::Inside);
    let color = if face.is_red() { RED_SUIT } else { BLACK_SUIT };
    painter.text(
        r.left_top() + vec2(unit * 0.06, unit * 0.02),
        egui::Align2::LEFT_TOP,
        face.name(),
        egui::FontId::proportional(unit * 0.34),
        color,
    );
}
