//! Where everything lies on the table: each player's row of reserve, hand,
//! turned card and waste; the two columns of foundations; the tableau piles
//! fanning out to either side. Which place is under the pointer, and what a
//! place is as a move's source or target for a player.

use bevy::prelude::*;
use tabula_engine::Player;
use tabula_engine::russian_bank::{Card, Place, RussianBank, Source, Target};

use super::art::CARD;

/// Horizontal step between the cards of a fanned tableau pile.
const FAN: f32 = 34.0;
/// Vertical step between the rows of tableau piles and foundations.
const ROW: f32 = 152.0;
/// The centre of each foundation column, from the middle.
const FOUNDATION_X: f32 = 58.0;
/// The first card of each tableau pile, from the middle.
const TABLEAU_X: f32 = 196.0;
/// Each player's row of reserve, hand, turned card and waste.
pub(super) const PLAYER_Y: f32 = 1.5 * ROW + 200.0;
const RESERVE_X: f32 = -100.0;
const HAND_X: f32 = 105.0;
const SHOWN_X: f32 = 215.0;
const WASTE_X: f32 = 360.0;
/// The player's name, beyond their waste.
pub const NAME_X: f32 = 540.0;
/// Edges a face-down pile shows at most.
const MAX_EDGES: usize = 5;
/// Room around the table.
pub const TABLE: Vec2 = Vec2::new(1330.0, 2.0 * PLAYER_Y + CARD.y + 110.0);
/// A face-down pile shows one edge for this many cards.
pub(super) const CARDS_AN_EDGE: usize = 4;

/// Player 1's row is at the bottom, player 2's at the top, turned round.
pub(super) fn side_sign(p: Player) -> f32 {
    if p == Player::ONE { -1.0 } else { 1.0 }
}

/// Where the first (bottom) card of a place lies.
pub fn base_position(place: Place) -> Vec2 {
    let row_y = |row: usize| (row as f32 - 1.5) * ROW;
    match place {
        Place::Foundation(n) => {
            let i = n as usize - 1;
            let x = if i < 4 { -FOUNDATION_X } else { FOUNDATION_X };
            Vec2::new(x, row_y(3 - i % 4))
        }
        // T1 bottom left up to T4; T5 top right down to T8.
        Place::Tableau(n) if n <= 4 => Vec2::new(-TABLEAU_X, row_y(n as usize - 1)),
        Place::Tableau(n) => Vec2::new(TABLEAU_X, row_y(8 - n as usize)),
        Place::Reserve(p) => Vec2::new(-side_sign(p) * RESERVE_X, side_sign(p) * PLAYER_Y),
        Place::Hand(p) => Vec2::new(-side_sign(p) * HAND_X, side_sign(p) * PLAYER_Y),
        Place::Shown(p) => Vec2::new(-side_sign(p) * SHOWN_X, side_sign(p) * PLAYER_Y),
        Place::Waste(p) => Vec2::new(-side_sign(p) * WASTE_X, side_sign(p) * PLAYER_Y),
    }
}

/// Where card `index` of a place lies: tableau piles fan outwards, other
/// piles stack with an edge showing every few cards.
pub fn card_position(place: Place, index: usize) -> Vec2 {
    let base = base_position(place);
    match place {
        Place::Tableau(n) if n <= 4 => base - Vec2::new(FAN * index as f32, 0.0),
        Place::Tableau(_) => base + Vec2::new(FAN * index as f32, 0.0),
        Place::Foundation(_) | Place::Shown(_) => base,
        _ => base + Vec2::new(1.5, 1.5) * (index / CARDS_AN_EDGE).min(MAX_EDGES) as f32,
    }
}

pub(super) fn z_of(index: usize) -> f32 {
    1.0 + index as f32 * 0.05
}

/// The cards of a place as the view shows them (`None`: face down).
pub(super) fn pile(view: &RussianBank, place: Place) -> Vec<Option<Card>> {
    let face_down_below = |cards: &[Card], hidden: usize| -> Vec<Option<Card>> {
        cards.iter().enumerate().map(|(i, &c)| (i >= hidden).then_some(c)).collect()
    };
    match place {
        Place::Reserve(p) => {
            let side = view.side(p);
            face_down_below(side.reserve.as_slice(), side.reserve_hidden as usize)
        }
        // The hand is face down, known cards too.
        Place::Hand(p) => vec![None; view.side(p).hand.len()],
        Place::Shown(p) => view.side(p).shown.map(Some).into_iter().collect(),
        Place::Waste(p) => view.side(p).waste.as_slice().iter().map(|&c| Some(c)).collect(),
        Place::Tableau(n) => view.tableau(n as usize - 1).iter().map(|&c| Some(c)).collect(),
        Place::Foundation(n) => view.foundation_pile(n as usize - 1).into_iter().map(Some).collect(),
    }
}

pub(super) fn places() -> impl Iterator<Item = Place> {
    let own = [Player::ONE, Player::TWO]
        .into_iter()
        .flat_map(|p| [Place::Reserve(p), Place::Hand(p), Place::Shown(p), Place::Waste(p)]);
    own.chain((1..=8).map(Place::Tableau)).chain((1..=8).map(Place::Foundation))
}

/// The place under a world point: a pile's cards or its empty slot.
pub fn place_at(view: &RussianBank, point: Vec2) -> Option<Place> {
    places().find(|&place| {
        let len = pile(view, place).len().max(1);
        let (a, b) = (card_position(place, 0), card_position(place, len - 1));
        let (lo, hi) = (a.min(b) - CARD / 2.0, a.max(b) + CARD / 2.0);
        point.cmpge(lo).all() && point.cmple(hi).all()
    })
}

/// The move source a place is for `me`, if any.
pub fn source_of(me: Player, place: Place) -> Option<Source> {
    match place {
        Place::Reserve(p) if p == me => Some(Source::Reserve),
        Place::Shown(p) if p == me => Some(Source::Hand),
        Place::Tableau(n) => Some(Source::Tableau(n)),
        _ => None,
    }
}

/// The move target a place is for `me`, if any.
pub fn target_of(me: Player, place: Place) -> Option<Target> {
    match place {
        Place::Foundation(n) => Some(Target::Foundation(n)),
        Place::Tableau(n) => Some(Target::Tableau(n)),
        Place::Reserve(p) if p != me => Some(Target::OpponentReserve),
        Place::Waste(p) if p != me => Some(Target::OpponentWaste),
        Place::Waste(_) => Some(Target::Waste),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use tabula_engine::Game;

    use super::*;

    #[test]
    fn every_place_is_found_where_it_is_drawn_and_nothing_overlaps() {
        let level =
            tabula_engine::level::load(std::path::Path::new("levels/russian_bank/01-shuffled-deal.ron"))
                .unwrap();
        let table = RussianBank::new(level.get::<RussianBank>().unwrap(), 1).unwrap();
        for place in places() {
            assert_eq!(place_at(&table, base_position(place)), Some(place), "{place:?}");
        }
        // T1 and T5 are nearest their owners.
        assert!(base_position(Place::Tableau(1)).y < base_position(Place::Tableau(4)).y);
        assert!(base_position(Place::Tableau(5)).y > base_position(Place::Tableau(8)).y);
        assert!(base_position(Place::Reserve(Player::ONE)).y < 0.0);
        // A full fan (13 cards) stays on the table, clear of the foundations.
        for n in 1..=8 {
            let far = card_position(Place::Tableau(n), 12);
            assert!(far.x.abs() + CARD.x / 2.0 <= TABLE.x / 2.0, "T{n}");
            assert!(base_position(Place::Tableau(n)).x.abs() - CARD.x / 2.0 > FOUNDATION_X + CARD.x / 2.0);
        }
        // Targets and sources are seen from the human's side.
        assert_eq!(target_of(Player::TWO, Place::Reserve(Player::ONE)), Some(Target::OpponentReserve));
        assert_eq!(target_of(Player::ONE, Place::Reserve(Player::ONE)), None);
        assert_eq!(source_of(Player::ONE, Place::Shown(Player::ONE)), Some(Source::Hand));
        assert_eq!(source_of(Player::ONE, Place::Shown(Player::TWO)), None);
    }
}
