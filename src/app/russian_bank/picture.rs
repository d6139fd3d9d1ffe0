//! Russian Bank drawn small for the menu and the editor: the table as the
//! level deals it, reserves and hands at the ends, the tableau between.

use bevy_egui::egui::{self, Color32, CornerRadius, Rect, Stroke, vec2};
use tabula_engine::russian_bank::{Card, RussianBank, RussianBankLevel};
use tabula_engine::{Game, Player};

use crate::app::picture::fit;

const FELT: Color32 = Color32::from_rgb(30, 86, 52);
const CARD_FACE: Color32 = Color32::from_rgb(245, 242, 232);
const CARD_BACK: Color32 = Color32::from_rgb(120, 40, 48);
const RED_SUIT: Color32 = Color32::from_rgb(200, 40, 40);
const BLACK_SUIT: Color32 = Color32::from_rgb(25, 25, 25);

/// The level's table as dealt (a shuffled deal from seed 1); a level whose
/// deal breaks the rules draws nothing.
pub fn draw(painter: &egui::Painter, rect: Rect, level: &RussianBankLevel) {
    if let Ok(bank) = RussianBank::new(level, 1) {
        table(painter, rect, &bank);
    }
}

fn table(painter: &egui::Painter, rect: Rect, bank: &RussianBank) {
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
