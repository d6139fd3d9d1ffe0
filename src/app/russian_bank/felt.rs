//! The table a fixed Russian Bank position is built on, as egui draws it:
//! where the game's layout lands on screen (`Felt`), and the cards' faces.

use bevy_egui::egui;
use tabula_engine::russian_bank::{Card, Place};

use super::{CARD, TABLE, card_position};

const RED: egui::Color32 = egui::Color32::from_rgb(200, 40, 40);
const BLACK: egui::Color32 = egui::Color32::from_rgb(25, 25, 25);
const FACE: egui::Color32 = egui::Color32::from_rgb(245, 242, 232);
/// A card or pile that breaks the rules, or a drop refused.
pub(super) const WRONG: egui::Color32 = egui::Color32::from_rgb(255, 90, 80);

/// The table's felt on screen: where the game's layout lands, at what scale.
pub(super) struct Felt {
    pub painter: egui::Painter,
    pub rect: egui::Rect,
    pub scale: f32,
}

impl Felt {
    /// The table as large as fits in `area`, centred.
    pub fn new(painter: egui::Painter, area: egui::Rect) -> Felt {
        let scale = (area.width() / TABLE.x).min(area.height() / TABLE.y);
        let rect = egui::Rect::from_center_size(area.center(), egui::vec2(TABLE.x, TABLE.y) * scale);
        Felt { painter, rect, scale }
    }

    /// A point of the game's table (y up) on screen.
    pub fn on_screen(&self, v: bevy::math::Vec2) -> egui::Pos2 {
        self.rect.center() + egui::vec2(v.x, -v.y) * self.scale
    }

    /// Where the `i`th card of a pile lies.
    pub fn card(&self, place: Place, i: usize) -> egui::Rect {
        egui::Rect::from_center_size(
            self.on_screen(card_position(place, i)),
            egui::vec2(CARD.x, CARD.y) * self.scale,
        )
    }
}

/// A card face up on the table: its rank and suit in the corner (the right
/// one when `right`: the corner a fan leaves in sight) and a large suit in
/// the middle; a misplaced card outlined in the warning colour.
pub(super) fn face(
    painter: &egui::Painter,
    rect: egui::Rect,
    card: Card,
    scale: f32,
    misplaced: bool,
    right: bool,
) {
    painter.rect_filled(rect, 4.0, FACE);
    let (width, outline) = if misplaced { (3.0, WRONG) } else { (1.0, egui::Color32::from_gray(90)) };
    painter.rect_stroke(rect, 4.0, egui::Stroke::new(width, outline), egui::StrokeKind::Inside);
    let color = if card.is_red() { RED } else { BLACK };
    let corner = (CARD.x * scale * 0.3).clamp(9.0, 20.0);
    let (at, align) = match right {
        true => (rect.right_top() + egui::vec2(-2.0, 1.0), egui::Align2::RIGHT_TOP),
        false => (rect.left_top() + egui::vec2(2.0, 1.0), egui::Align2::LEFT_TOP),
    };
    // Rank over suit, as a card's index: narrow enough for the strip a fan
    // leaves in sight.
    let name = card.name();
    let (rank, pip) = name.split_at(name.char_indices().last().map_or(0, |(i, _)| i));
    painter.text(at, align, format!("{rank}\n{pip}"), egui::FontId::proportional(corner), color);
    painter.text(
        rect.center() + egui::vec2(0.0, rect.height() * 0.12),
        egui::Align2::CENTER_CENTER,
        pip,
        egui::FontId::proportional(corner * 1.6),
        color,
    );
}

/// A card of the decks: its rank and suit in its colour.
pub(super) fn card_label(ui: &mut egui::Ui, card: Card) -> egui::Response {
    let color = if card.is_red() { RED } else { BLACK };
    let text = egui::RichText::new(card.name()).color(color).background_color(FACE).monospace().size(16.0);
    ui.add(egui::Label::new(text).sense(egui::Sense::hover()))
}
