//! A Russian Bank position built by dragging cards: the two decks as a
//! palette (each face twice, a card used up greys out), and every pile of
//! the table as a place to drop on. The level's rules hold as you drop: a
//! foundation goes up from its ace in one suit, a tableau pile goes down in
//! alternating colours, no face more than twice; a refused drop says why
//! and changes nothing. A click on a pile's top card puts it back. A card
//! misplaced by hand is lit red.

use bevy_egui::egui;
use tabula_engine::Player;
use tabula_engine::russian_bank::{Card, FixedDeal, Place, SideSpec, Suit};

use super::felt::{Felt, card_label, face};
use super::{NAME_X, base_position};

const WRONG: egui::Color32 = super::felt::WRONG;
const TAKES: egui::Color32 = egui::Color32::from_rgb(120, 220, 140);
const FELT: egui::Color32 = egui::Color32::from_rgb(30, 86, 52);
const SLOT: egui::Color32 = egui::Color32::from_rgb(120, 170, 135);
const LABEL: egui::Color32 = egui::Color32::from_rgb(225, 230, 220);

/// A pile of the table, as the position writes it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pile {
    Reserve(usize),
    Hand(usize),
    Waste(usize),
    Tableau(usize),
    Foundation(usize),
}

impl Pile {
    fn name(self) -> String {
        match self {
            Pile::Reserve(p) => format!("player {}'s reserve", p + 1),
            Pile::Hand(p) => format!("player {}'s hand", p + 1),
            Pile::Waste(p) => format!("player {}'s waste", p + 1),
            Pile::Tableau(n) => format!("T{}", n + 1),
            Pile::Foundation(n) => format!("F{}", n + 1),
        }
    }

    /// Where the game lays it out.
    fn place(self) -> Place {
        let player = |p: usize| if p == 0 { Player::ONE } else { Player::TWO };
        match self {
            Pile::Reserve(p) => Place::Reserve(player(p)),
            Pile::Hand(p) => Place::Hand(player(p)),
            Pile::Waste(p) => Place::Waste(player(p)),
            Pile::Tableau(n) => Place::Tableau(n as u8 + 1),
            Pile::Foundation(n) => Place::Foundation(n as u8 + 1),
        }
    }

    fn cards(self, deal: &FixedDeal) -> &[Card] {
        match self {
            Pile::Reserve(p) => &deal.players[p].reserve,
            Pile::Hand(p) => &deal.players[p].hand,
            Pile::Waste(p) => &deal.players[p].waste,
            Pile::Tableau(n) => &deal.tableau[n],
            Pile::Foundation(n) => &deal.foundations[n],
        }
    }

    fn cards_mut(self, deal: &mut FixedDeal) -> &mut Vec<Card> {
        match self {
            Pile::Reserve(p) => &mut deal.players[p].reserve,
            Pile::Hand(p) => &mut deal.players[p].hand,
            Pile::Waste(p) => &mut deal.players[p].waste,
            Pile::Tableau(n) => &mut deal.tableau[n],
            Pile::Foundation(n) => &mut deal.foundations[n],
        }
    }
}

/// Where the builder last drew `pile` (its drop zone) is kept in egui's
/// memory under this id, so what is dropped where can be found again.
pub fn pile_id(pile: Pile) -> egui::Id {
    egui::Id::new(("editor pile", pile.name()))
}

/// The id of a card of the decks, to drag from.
pub fn palette_id(card: Card) -> egui::Id {
    egui::Id::new(("palette", card.index()))
}

/// A position with nothing on the table, player 1 to move.
pub fn empty_deal() -> FixedDeal {
    FixedDeal {
        to_move: 1,
        players: vec![SideSpec::default(), SideSpec::default()],
        tableau: vec![Vec::new(); 8],
        foundations: vec![Vec::new(); 8],
    }
}

/// How many times `card` lies on the table.
fn used(deal: &FixedDeal, card: Card) -> usize {
    every_pile().map(|p| p.cards(deal).iter().filter(|&&c| c == card).count()).sum()
}

fn every_pile() -> impl Iterator<Item = Pile> {
    (0..2)
        .flat_map(|p| [Pile::Reserve(p), Pile::Hand(p), Pile::Waste(p)])
        .chain((0..8).map(Pile::Tableau))
        .chain((0..8).map(Pile::Foundation))
}

/// Why `card` may not go on `pile`, if it may not.
pub fn refusal(deal: &FixedDeal, pile: Pile, card: Card) -> Option<String> {
    if used(deal, card) >= 2 {
        return Some(format!("both {}s are on the table already: two decks hold two", card.name()));
    }
    let top = pile.cards(deal).last().copied();
    match (pile, top) {
        (Pile::Foundation(_), None) if card.rank() != 1 => {
            Some(format!("{} starts with an ace, not the {}", pile.name(), card.name()))
        }
        (Pile::Foundation(_), Some(top)) if top.suit() != card.suit() || card.rank() != top.rank() + 1 => {
            Some(format!(
                "{} goes up in one suit: the {} does not follow the {}",
                pile.name(),
                card.name(),
                top.name()
            ))
        }
        (Pile::Tableau(_), Some(top)) if top.is_red() == card.is_red() || card.rank() + 1 != top.rank() => {
            Some(format!(
                "{} goes down in alternating colours: the {} cannot go on the {}",
                pile.name(),
                card.name(),
                top.name()
            ))
        }
        _ => None,
    }
}

/// Whether the `i`-th card of a pile is misplaced (a position written by
/// hand may have one): a third copy of a face, a foundation not going up
/// from its ace in one suit, a tableau pile not going down alternating.
fn misplaced(deal: &FixedDeal, pile: Pile, i: usize) -> bool {
    let cards = pile.cards(deal);
    let card = cards[i];
    let below = i.checked_sub(1).map(|b| cards[b]);
    used(deal, card) > 2
        || match (pile, below) {
            (Pile::Foundation(_), None) => card.rank() != 1,
            (Pile::Foundation(_), Some(b)) => b.suit() != card.suit() || card.rank() != b.rank() + 1,
            (Pile::Tableau(_), Some(b)) => b.is_red() == card.is_red() || card.rank() + 1 != b.rank(),
            _ => false,
        }
}

/// Whether a pile holds a misplaced card.
fn broken(deal: &FixedDeal, pile: Pile) -> bool {
    (0..pile.cards(deal).len()).any(|i| misplaced(deal, pile, i))
}

/// Who moves first in the position; the position as changed, if changed.
pub fn to_move(ui: &mut egui::Ui, deal: &FixedDeal) -> Option<FixedDeal> {
    let mut changed = None;
    ui.horizontal(|ui| {
        ui.label("To move:");
        for p in 1..=2u8 {
            if ui.selectable_label(deal.to_move == p, format!("player {p}")).clicked() && deal.to_move != p {
                changed = Some(FixedDeal { to_move: p, ..deal.clone() });
            }
        }
    });
    changed
}

/// The two decks, each face twice, to drag cards from; a card used up
/// greys out.
pub fn palette(ui: &mut egui::Ui, deal: &FixedDeal) {
    ui.label(egui::RichText::new("The two decks: drag a card onto a pile of the table.").weak());
    for suit in Suit::ALL {
        ui.horizontal(|ui| {
            ui.spacing_mut().item_spacing.x = 3.0;
            for rank in 1..=13 {
                let card = Card::new(rank, suit);
                let left = 2 - used(deal, card).min(2);
                if left == 0 {
                    ui.add_enabled(
                        false,
                        egui::Button::new(egui::RichText::new(card.name()).monospace().size(16.0))
                            .frame(false),
                    );
                } else {
                    ui.dnd_drag_source(palette_id(card), card, |ui| card_label(ui, card));
                }
            }
        });
    }
}

/// The table as the game lays it out (player 1's row at the bottom, the
/// foundations in two columns in the middle, tableau piles fanning out to
/// either side), every pile a place to drop a card on; a click on a pile
/// takes its top card back. The position as changed, if a card was dropped
/// or taken back; `refused` says why a drop was not taken.
pub fn table(
    ui: &mut egui::Ui,
    size: egui::Vec2,
    deal: &FixedDeal,
    refused: &mut Option<String>,
) -> Option<FixedDeal> {
    let (area, _) = ui.allocate_exact_size(size, egui::Sense::hover());
    let felt = Felt::new(ui.painter_at(area), area);
    felt.painter.rect_filled(felt.rect, 6.0, FELT);
    let dragged = egui::DragAndDrop::payload::<Card>(ui.ctx()).map(|c| *c);
    let mut changed = None;
    for pile in every_pile() {
        let cards = pile.cards(deal);
        let rect = felt.card(pile.place(), 0).union(felt.card(pile.place(), cards.len().saturating_sub(1)));
        let response = ui.interact(rect, pile_id(pile), egui::Sense::click());
        ui.ctx().data_mut(|d| d.insert_temp(pile_id(pile), rect));
        draw_pile(&felt, deal, pile);
        if broken(deal, pile) {
            outline(&felt.painter, rect, 2.0, WRONG);
        }
        // Where a dragged card would land, lit green if it may go there.
        if let Some(card) = dragged
            && response.contains_pointer()
        {
            outline(
                &felt.painter,
                rect,
                3.0,
                if refusal(deal, pile, card).is_none() { TAKES } else { WRONG },
            );
        }
        if let Some(next) = drop_or_take_back(&response, deal, pile, refused) {
            changed = Some(next);
        }
        if !cards.is_empty() && dragged.is_none() {
            let list: Vec<String> = cards.iter().map(|c| c.name()).collect();
            response.on_hover_text(format!(
                "{}, bottom to top: {}\nClick to take back the top card.",
                pile.name(),
                list.join(" ")
            ));
        }
    }
    player_names(&felt, deal);
    changed
}

/// A pile as the game shows it: its empty slot, its cards (a tableau pile
/// fanned, the others their top card) and its label.
fn draw_pile(felt: &Felt, deal: &FixedDeal, pile: Pile) {
    let place = pile.place();
    let cards = pile.cards(deal);
    let last = cards.len().saturating_sub(1);
    // The empty slot, as the game shows a pile's place.
    felt.painter.rect_stroke(
        felt.card(place, 0),
        4.0,
        egui::Stroke::new(1.0, SLOT),
        egui::StrokeKind::Inside,
    );
    let shown = match pile {
        // A foundation, a reserve, a hand and a waste show their top card.
        Pile::Tableau(_) => 0..cards.len(),
        _ => last..cards.len(),
    };
    for i in shown {
        // T1 to T4 fan out to the left, over their cards' left corners.
        let right = matches!(pile, Pile::Tableau(n) if n < 4);
        face(&felt.painter, felt.card(place, i), cards[i], felt.scale, misplaced(deal, pile, i), right);
    }
    let label = match pile {
        Pile::Reserve(_) => Some(format!("Reserve {}", cards.len())),
        Pile::Hand(_) => Some(format!("Hand {}", cards.len())),
        Pile::Waste(_) => Some(format!("Waste {}", cards.len())),
        Pile::Foundation(_) if !cards.is_empty() => None,
        Pile::Tableau(_) | Pile::Foundation(_) => Some(pile.name()),
    };
    if let Some(label) = label {
        let slot = felt.card(place, 0);
        let (at, align) = match pile {
            Pile::Foundation(_) => (slot.center(), egui::Align2::CENTER_CENTER),
            // Beside the pile's first card, on the foundations' side, as in the game.
            Pile::Tableau(n) if n < 4 => {
                (slot.right_center() + egui::vec2(3.0, 0.0), egui::Align2::LEFT_CENTER)
            }
            Pile::Tableau(_) => (slot.left_center() - egui::vec2(3.0, 0.0), egui::Align2::RIGHT_CENTER),
            _ => (slot.center_bottom() + egui::vec2(0.0, 4.0), egui::Align2::CENTER_TOP),
        };
        felt.painter.text(at, align, label, egui::FontId::monospace(12.0), LABEL);
    }
}

fn outline(painter: &egui::Painter, rect: egui::Rect, width: f32, color: egui::Color32) {
    painter.rect_stroke(rect.expand(3.0), 5.0, egui::Stroke::new(width, color), egui::StrokeKind::Outside);
}

/// A card dropped on the pile (when the rules take it; `refused` says why
/// not) or its top card clicked back: the position as changed.
fn drop_or_take_back(
    response: &egui::Response,
    deal: &FixedDeal,
    pile: Pile,
    refused: &mut Option<String>,
) -> Option<FixedDeal> {
    if let Some(card) = response.dnd_release_payload::<Card>() {
        if let Some(why) = refusal(deal, pile, *card) {
            *refused = Some(why);
            return None;
        }
        let mut next = deal.clone();
        pile.cards_mut(&mut next).push(*card);
        return Some(next);
    }
    if response.clicked() && !pile.cards(deal).is_empty() {
        let mut next = deal.clone();
        pile.cards_mut(&mut next).pop();
        return Some(next);
    }
    None
}

/// The players' names beside their rows, the one to move marked.
fn player_names(felt: &Felt, deal: &FixedDeal) {
    for p in 0..2 {
        let row = base_position(Pile::Waste(p).place());
        let at = felt.on_screen(bevy::math::Vec2::new(row.x.signum() * NAME_X, row.y));
        let label = format!("player {}", p + 1);
        felt.painter.text(at, egui::Align2::CENTER_BOTTOM, label, egui::FontId::proportional(15.0), LABEL);
        if deal.to_move as usize == p + 1 {
            let to_move = egui::FontId::proportional(12.0);
            felt.painter.text(at, egui::Align2::CENTER_TOP, "to move", to_move, TAKES);
        }
    }
}

#[cfg(test)]
#[path = "position_tests.rs"]
mod tests;
