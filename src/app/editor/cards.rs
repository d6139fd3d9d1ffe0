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
                let id = palette_id(card);
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
                let (zone, dropped) = ui.dnd_drop_zone::<Card, ()>(egui::Frame::group(ui.style()), |ui| {
                    ui.horizontal_wrapped(|ui| {
                        ui.label(egui::RichText::new(pile.name()).strong());
                        let cards = pile.cards(deal);
                        if cards.is_empty() {
                            ui.label(egui::RichText::new("empty").weak());
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
                // The drop zone paints its own frame, so a pile out of order
                // is outlined over it.
                if broken(deal, pile) {
                    let stroke = egui::Stroke::new(2.0, WRONG);
                    ui.painter().rect_stroke(zone.response.rect, 4.0, stroke, egui::StrokeKind::Inside);
                }
                ui.ctx().data_mut(|d| d.insert_temp(pile_id(pile), zone.response.rect));
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

    /// One frame of the builder in a bare egui context, given the pointer's
    /// events as a person's mouse would send them; the position it hands
    /// back, if any.
    fn frame(
        ctx: &egui::Context,
        deal: &FixedDeal,
        events: Vec<egui::Event>,
        refused: &mut Option<String>,
    ) -> Option<FixedDeal> {
        let input = egui::RawInput {
            screen_rect: Some(egui::Rect::from_min_size(egui::Pos2::ZERO, egui::vec2(1280.0, 1600.0))),
            events,
            ..Default::default()
        };
        let mut changed = None;
        // Nothing draws here: the textures egui would upload are let go.
        ctx.run_ui(input, |ui| changed = builder(ui, deal, refused)).textures_delta.clear();
        changed
    }

    fn button(pos: egui::Pos2, pressed: bool) -> egui::Event {
        egui::Event::PointerButton {
            pos,
            button: egui::PointerButton::Primary,
            pressed,
            modifiers: egui::Modifiers::NONE,
        }
    }

    /// Presses on `card` in the decks, moves the pointer to `pile` in a few
    /// frames and lets go there, as a hand with a mouse does.
    fn drag(
        ctx: &egui::Context,
        deal: &FixedDeal,
        card: Card,
        pile: Pile,
        refused: &mut Option<String>,
    ) -> Option<FixedDeal> {
        frame(ctx, deal, vec![], refused);
        let from = ctx.read_response(palette_id(card)).expect("the card is in the decks").rect.center();
        let to = ctx.data(|d| d.get_temp::<egui::Rect>(pile_id(pile))).expect("the pile is drawn").center();
        let mut changed =
            frame(ctx, deal, vec![egui::Event::PointerMoved(from), button(from, true)], refused);
        for step in 1..=5 {
            let at = from + (to - from) * step as f32 / 5.0;
            changed = changed.or(frame(ctx, deal, vec![egui::Event::PointerMoved(at)], refused));
        }
        changed = changed.or(frame(ctx, deal, vec![button(to, false)], refused));
        changed.or(frame(ctx, deal, vec![], refused))
    }

    #[test]
    fn cards_dragged_from_the_decks_land_on_their_pile_or_are_refused_saying_why() {
        let ctx = egui::Context::default();
        let mut refused = None;
        let (ace, two, three) =
            (Card::new(1, Suit::Hearts), Card::new(2, Suit::Hearts), Card::new(3, Suit::Hearts));
        let deal = empty_deal();
        let deal = drag(&ctx, &deal, ace, Pile::Foundation(2), &mut refused).expect("the ace lands on F3");
        assert_eq!((deal.foundations[2].as_slice(), refused.as_deref()), (&[ace][..], None));
        assert_eq!(drag(&ctx, &deal, three, Pile::Foundation(2), &mut refused), None, "a gap in the suit");
        assert!(refused.take().unwrap().contains("goes up in one suit"));
        let deal = drag(&ctx, &deal, two, Pile::Foundation(2), &mut refused).expect("the 2 follows the ace");
        assert_eq!(deal.foundations[2], vec![ace, two]);

        let (king, queen) = (Card::new(13, Suit::Clubs), Card::new(12, Suit::Hearts));
        let deal =
            drag(&ctx, &deal, king, Pile::Tableau(0), &mut refused).expect("any card on an empty pile");
        let deal = drag(&ctx, &deal, queen, Pile::Tableau(0), &mut refused).expect("down, red on black");
        assert_eq!(drag(&ctx, &deal, Card::new(11, Suit::Diamonds), Pile::Tableau(0), &mut refused), None);
        assert!(refused.take().unwrap().contains("alternating colours"));
        let deal =
            drag(&ctx, &deal, three, Pile::Reserve(1), &mut refused).expect("a reserve takes any card");
        let deal = drag(&ctx, &deal, three, Pile::Hand(0), &mut refused).expect("a face twice");
        assert_eq!(
            (deal.players[1].reserve.as_slice(), deal.players[0].hand.as_slice()),
            (&[three][..], &[three][..])
        );
        frame(&ctx, &deal, vec![], &mut refused);
        frame(&ctx, &deal, vec![], &mut refused);
        assert!(
            ctx.read_response(palette_id(three)).is_none(),
            "both 3♥s are used: it can no longer be dragged"
        );
        assert_eq!(refused, None);
    }

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
