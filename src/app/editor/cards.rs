//! A Russian Bank position built by dragging cards: the two decks as a
//! palette (each face twice, a card used up greys out), and every pile of
//! the table as a place to drop on. The level's rules hold as you drop: a
//! foundation goes up from its ace in one suit, a tableau pile goes down in
//! alternating colours, no face more than twice; a refused drop says why
//! and changes nothing. A click on a pile's top card puts it back. A card
//! misplaced by hand is lit red.

use bevy_egui::egui;
use tabula_engine::russian_bank::{Card, FixedDeal, SideSpec, Suit};

const RED: egui::Color32 = egui::Color32::from_rgb(200, 40, 40);
const BLACK: egui::Color32 = egui::Color32::from_rgb(25, 25, 25);
const FACE: egui::Color32 = egui::Color32::from_rgb(245, 242, 232);
const WRONG: egui::Color32 = egui::Color32::from_rgb(255, 90, 80);

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

/// The builder: the palette and the table. The position as changed, if a
/// card was dropped or taken back; `refused` says why a drop was not taken.
pub fn builder(ui: &mut egui::Ui, deal: &FixedDeal, refused: &mut Option<String>) -> Option<FixedDeal> {
    let mut changed = None;
    ui.horizontal(|ui| {
        ui.label("To move:");
        for p in 1..=2u8 {
            if ui.selectable_label(deal.to_move == p, format!("player {p}")).clicked() && deal.to_move != p {
                changed = Some(FixedDeal { to_move: p, ..deal.clone() });
            }
        }
    });
    ui.label(egui::RichText::new("Drag a card onto a pile; click a pile's top card to take it back.").weak());
    for suit in Suit::ALL {
        ui.horizontal(|ui| {
            for rank in 1..=13 {
                let card = Card::new(rank, suit);
                let left = 2 - used(deal, card).min(2);
                let id = egui::Id::new(("palette", card.index()));
                if left == 0 {
                    ui.add_enabled(false, egui::Button::new(card.name()).small());
                } else {
                    ui.dnd_drag_source(id, card, |ui| card_label(ui, card, false, false));
                }
            }
        });
    }
    ui.separator();
    let mut row = |ui: &mut egui::Ui, piles: &[Pile]| {
        ui.horizontal_wrapped(|ui| {
            for &pile in piles {
                let wrong = broken(deal, pile);
                let frame = egui::Frame::group(ui.style()).stroke(egui::Stroke::new(
                    if wrong { 2.0 } else { 1.0 },
                    if wrong { WRONG } else { ui.visuals().widgets.noninteractive.bg_stroke.color },
                ));
                let (_, dropped) = ui.dnd_drop_zone::<Card, ()>(frame, |ui| {
                    ui.horizontal_wrapped(|ui| {
                        ui.label(egui::RichText::new(pile.name()).small().weak());
                        let cards = pile.cards(deal);
                        if cards.is_empty() {
                            ui.label(egui::RichText::new("empty").small().weak());
                        }
                        for (i, &card) in cards.iter().enumerate() {
                            let top = i + 1 == cards.len();
                            let wrong = misplaced(deal, pile, i);
                            if card_label(ui, card, top, wrong).clicked() && top {
                                let mut next = deal.clone();
                                pile.cards_mut(&mut next).pop();
                                changed = Some(next);
                            }
                        }
                    });
                });
                if let Some(card) = dropped {
                    match refusal(deal, pile, *card) {
                        Some(why) => *refused = Some(why),
                        None => {
                            let mut next = deal.clone();
                            pile.cards_mut(&mut next).push(*card);
                            changed = Some(next);
                        }
                    }
                }
            }
        });
    };
    // A player's piles a line each: a hand may hold many cards.
    for p in 0..2 {
        for pile in [Pile::Reserve(p), Pile::Hand(p), Pile::Waste(p)] {
            row(ui, &[pile]);
        }
    }
    row(ui, &(0..8).map(Pile::Tableau).collect::<Vec<_>>());
    row(ui, &(0..8).map(Pile::Foundation).collect::<Vec<_>>());
    changed
}

/// A card as a small face: its rank and suit in its colour.
/// A misplaced card is lit: its face drawn in the warning colour.
fn card_label(ui: &mut egui::Ui, card: Card, clickable: bool, misplaced: bool) -> egui::Response {
    let color = if card.is_red() { RED } else { BLACK };
    let face = if misplaced { WRONG } else { FACE };
    let text = egui::RichText::new(card.name()).color(color).background_color(face).monospace();
    let sense = if clickable { egui::Sense::click() } else { egui::Sense::hover() };
    ui.add(egui::Label::new(text).sense(sense))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn drops_keep_the_levels_rules_and_say_why_not() {
        let mut deal = empty_deal();
        let ace = Card::new(1, Suit::Hearts);
        assert!(
            refusal(&deal, Pile::Foundation(0), Card::new(2, Suit::Hearts))
                .unwrap()
                .contains("starts with an ace")
        );
        assert_eq!(refusal(&deal, Pile::Foundation(0), ace), None);
        deal.foundations[0].push(ace);
        assert!(
            refusal(&deal, Pile::Foundation(0), Card::new(2, Suit::Spades)).unwrap().contains("one suit")
        );
        assert_eq!(refusal(&deal, Pile::Foundation(0), Card::new(2, Suit::Hearts)), None);
        deal.tableau[0].push(Card::new(7, Suit::Clubs));
        assert!(
            refusal(&deal, Pile::Tableau(0), Card::new(6, Suit::Spades)).unwrap().contains("alternating")
        );
        assert_eq!(refusal(&deal, Pile::Tableau(0), Card::new(6, Suit::Hearts)), None);
        deal.players[0].reserve.push(ace);
        assert!(
            refusal(&deal, Pile::Waste(1), ace).unwrap().contains("both"),
            "two decks hold two aces of hearts"
        );
        assert!(!broken(&deal, Pile::Tableau(0)));
        deal.tableau[1] = vec![Card::new(7, Suit::Clubs), Card::new(6, Suit::Clubs)];
        assert!(broken(&deal, Pile::Tableau(1)), "a pile written by hand out of order is outlined");
        assert!(
            !misplaced(&deal, Pile::Tableau(1), 0) && misplaced(&deal, Pile::Tableau(1), 1),
            "and its card lit"
        );
        deal.foundations[2] = vec![Card::new(3, Suit::Spades)];
        assert!(misplaced(&deal, Pile::Foundation(2), 0), "a foundation not starting with its ace");
    }
}
