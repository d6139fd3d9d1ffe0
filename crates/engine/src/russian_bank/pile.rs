//! A pile of cards, bottom to top, in a fixed-size array: a whole table
//! copies without allocating, which the agents' sampling and search rely on.

use std::fmt;

use serde::{Deserialize, Serialize};

use super::level::Card;

#[derive(Clone, Copy)]
pub struct Pile<const N: usize> {
    cards: [Card; N],
    len: u8,
}

/// Two decks: no pile holds more.
pub const ALL_CARDS: usize = 104;
/// A tableau pile builds down from at most a king to an ace.
pub const TABLEAU_DEPTH: usize = 13;

impl<const N: usize> Pile<N> {
    pub const EMPTY: Pile<N> = Pile { cards: [Card::PLACEHOLDER; N], len: 0 };

    /// `None` when `cards` do not fit.
    pub fn from_slice(cards: &[Card]) -> Option<Pile<N>> {
        if cards.len() > N {
            return None;
        }
        let mut pile = Pile::EMPTY;
        pile.cards[..cards.len()].copy_from_slice(cards);
        pile.len = cards.len() as u8;
        Some(pile)
    }

    pub fn len(&self) -> usize {
        self.len as usize
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    pub fn top(&self) -> Option<Card> {
        self.as_slice().last().copied()
    }

    pub fn as_slice(&self) -> &[Card] {
        &self.cards[..self.len as usize]
    }

    pub fn as_mut_slice(&mut self) -> &mut [Card] {
        &mut self.cards[..self.len as usize]
    }

    /// Panics when full: the rules never put more than two decks anywhere.
    pub fn push(&mut self, card: Card) {
        self.cards[self.len as usize] = card;
        self.len += 1;
    }

    pub fn pop(&mut self) -> Option<Card> {
        let top = self.top()?;
        self.len -= 1;
        Some(top)
    }

    pub fn clear(&mut self) {
        self.len = 0;
    }

    /// The same cards in the opposite order (a pile turned over).
    pub fn reversed(&self) -> Pile<N> {
        let mut pile = *self;
        pile.as_mut_slice().reverse();
        pile
    }
}

impl<const N: usize> PartialEq for Pile<N> {
    fn eq(&self, other: &Pile<N>) -> bool {
        self.as_slice() == other.as_slice()
    }
}

impl<const N: usize> Eq for Pile<N> {}

impl<const N: usize> std::hash::Hash for Pile<N> {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.as_slice().hash(state);
    }
}

impl<const N: usize> fmt::Debug for Pile<N> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.as_slice()).finish()
    }
}

impl<const N: usize> Serialize for Pile<N> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.as_slice().serialize(s)
    }
}

impl<'de, const N: usize> Deserialize<'de> for Pile<N> {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Pile<N>, D::Error> {
        let cards = Vec::<Card>::deserialize(d)?;
        Pile::from_slice(&cards)
            .ok_or_else(|| serde::de::Error::custom(format!("a pile holds at most {N} cards")))
    }
}
