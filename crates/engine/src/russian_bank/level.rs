//! Russian Bank's level file (docs/formats.md, "Russian Bank levels"): a
//! shuffled deal or a fixed position card by card, and the rule options.

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::core::{Heading, Level, LevelGroup, RuleViolation};
use crate::layout::{Layout, inline};

/// Clubs, diamonds, hearts, spades: the order of `C D H S`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Suit {
    Clubs,
    Diamonds,
    Hearts,
    Spades,
}

impl Suit {
    pub const ALL: [Suit; 4] = [Suit::Clubs, Suit::Diamonds, Suit::Hearts, Suit::Spades];

    pub fn letter(self) -> char {
        ['C', 'D', 'H', 'S'][self as usize]
    }

    pub fn is_red(self) -> bool {
        matches!(self, Suit::Diamonds | Suit::Hearts)
    }

    /// The suit's sign, as on the cards: ♣ ♦ ♥ ♠.
    pub fn symbol(self) -> char {
        ['♣', '♦', '♥', '♠'][self as usize]
    }
}

/// One card face: a rank from ace (1) to king (13) and a suit. The two
/// decks are not told apart: the rules never ask whose deck a card is from.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Card(u8);

const RANKS: &str = "A23456789TJQK";

impl Card {
    /// Fills the unused slots of a pile's array.
    pub(crate) const PLACEHOLDER: Card = Card(0);

    pub fn new(rank: u8, suit: Suit) -> Card {
        debug_assert!((1..=13).contains(&rank));
        Card(suit as u8 * 13 + rank - 1)
    }

    pub fn rank(self) -> u8 {
        self.0 % 13 + 1
    }

    pub fn suit(self) -> Suit {
        Suit::ALL[(self.0 / 13) as usize]
    }

    pub fn is_red(self) -> bool {
        self.suit().is_red()
    }

    /// 0 to 51, for tables indexed by card.
    pub fn index(self) -> usize {
        self.0 as usize
    }

    /// Every face of one deck.
    pub fn deck() -> impl Iterator<Item = Card> {
        (0..52).map(Card)
    }

    pub fn rank_char(self) -> char {
        RANKS.as_bytes()[self.rank() as usize - 1] as char
    }

    /// The rank as a card shows it: A, 2 to 10, J, Q, K.
    pub fn rank_name(self) -> String {
        match self.rank() {
            1 => "A".into(),
            11 => "J".into(),
            12 => "Q".into(),
            13 => "K".into(),
            r => r.to_string(),
        }
    }

    /// The card as people name it in writing: "10♦", "A♠" (the notation of
    /// replays, "TD", stays `Display`).
    pub fn name(self) -> String {
        format!("{}{}", self.rank_name(), self.suit().symbol())
    }
}

impl fmt::Display for Card {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.rank_char(), self.suit().letter())
    }
}

impl fmt::Debug for Card {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

impl std::str::FromStr for Card {
    type Err = String;

    fn from_str(s: &str) -> Result<Card, String> {
        let bad = || format!("'{s}' is not a card: write rank then suit, as AS, TD or 7C");
        let mut chars = s.chars();
        let (Some(r), Some(u), None) = (chars.next(), chars.next(), chars.next()) else {
            return Err(bad());
        };
        let rank = RANKS.find(r.to_ascii_uppercase()).ok_or_else(bad)? as u8 + 1;
        let suit = match u.to_ascii_uppercase() {
            'C' => Suit::Clubs,
            'D' => Suit::Diamonds,
            'H' => Suit::Hearts,
            'S' => Suit::Spades,
            _ => return Err(bad()),
        };
        Ok(Card::new(rank, suit))
    }
}

impl Serialize for Card {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Card {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Card, D::Error> {
        let text = String::deserialize(d)?;
        text.parse().map_err(serde::de::Error::custom)
    }
}

/// One player's piles in a fixed position, each bottom to top.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SideSpec {
    pub reserve: Vec<Card>,
    #[serde(default)]
    pub hand: Vec<Card>,
    #[serde(default)]
    pub waste: Vec<Card>,
}

/// A position card by card, for teaching and tests.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FixedDeal {
    /// 1 or 2.
    pub to_move: u8,
    pub players: Vec<SideSpec>,
    /// T1..T8, each bottom to top.
    pub tableau: Vec<Vec<Card>>,
    /// F1..F8, each bottom (the ace) to top.
    pub foundations: Vec<Vec<Card>>,
}

/// A fixed deal as level files write it, `Fixed((to_move: 1, ...))`
/// (docs/formats.md, "Russian Bank levels"): the inner parentheses are this
/// wrapper's, which RON's `unwrap_variant_newtypes`, on for every level, would
/// otherwise refuse.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FixedPosition(pub FixedDeal);

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Deal {
    /// Each player shuffles a full deck from the game's seed (R1).
    Shuffled,
    Fixed(FixedPosition),
}

pub const DEFAULT_MOVE_CAP: u32 = 5000;
pub const DEFAULT_MATCH_POINTS: u32 = 300;

fn yes() -> bool {
    true
}

fn default_cap() -> u32 {
    DEFAULT_MOVE_CAP
}

fn default_points() -> u32 {
    DEFAULT_MATCH_POINTS
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RussianBankLevel {
    pub name: String,
    #[serde(default)]
    pub description: String,
    /// Where the menu lists it.
    #[serde(default, skip_serializing_if = "LevelGroup::is_game")]
    pub group: LevelGroup,
    pub deal: Deal,
    /// R10: a move that breaks priority is played and may be stopped;
    /// off, the rules refuse it.
    #[serde(default = "yes")]
    pub stop_rule: bool,
    /// A match ends when a player reaches this many points.
    #[serde(default = "default_points")]
    pub match_points: u32,
    /// Moves (each Stop and Accept counting) after which a game is a draw.
    #[serde(default = "default_cap")]
    pub move_cap: u32,
}

impl RussianBankLevel {
    /// A shuffled deal with the stop rule and the defaults a level file
    /// leaves out (tests and examples build it by hand).
    pub fn shuffled(name: &str) -> RussianBankLevel {
        RussianBankLevel {
            name: name.into(),
            description: String::new(),
            group: LevelGroup::Game,
            deal: Deal::Shuffled,
            stop_rule: true,
            match_points: default_points(),
            move_cap: default_cap(),
        }
    }
}

impl Level for RussianBankLevel {
    fn heading(&self) -> Heading<'_> {
        Heading { name: &self.name, description: &self.description, group: self.group }
    }

    /// A fixed deal names every face-down card: it is left out (the
    /// position itself reaches each seat as its observation).
    fn public(&self) -> RussianBankLevel {
        RussianBankLevel { deal: Deal::Shuffled, ..self.clone() }
    }

    /// A fixed deal with a player's piles a line, a tableau pile a line.
    fn layout(&self, game: &str) -> Option<String> {
        let mut l = Layout::of(game, self);
        match &self.deal {
            Deal::Shuffled => {
                l.field("deal", &self.deal);
            }
            Deal::Fixed(FixedPosition(fixed)) => {
                l.open("deal", "Fixed((").field("to_move", &fixed.to_move).open("players", "[");
                // A player's piles on one line, or a pile a line when long.
                for side in &fixed.players {
                    let one = format!("{},", inline(side));
                    if l.fits(&one) {
                        l.item(&one);
                    } else {
                        l.begin("(")
                            .field("reserve", &side.reserve)
                            .field("hand", &side.hand)
                            .field("waste", &side.waste)
                            .close("),");
                    }
                }
                l.close("],")
                    .list("tableau", &fixed.tableau)
                    .list("foundations", &fixed.foundations)
                    .close(")),");
            }
        }
        // The Stop rule is written out either way: it changes how the game plays.
        l.field("stop_rule", &self.stop_rule)
            .optional("match_points", &self.match_points, &DEFAULT_MATCH_POINTS)
            .optional("move_cap", &self.move_cap, &DEFAULT_MOVE_CAP);
        Some(l.finish())
    }

    fn summary(&self) -> Vec<String> {
        let deal = match &self.deal {
            Deal::Shuffled => "a shuffled deal of two full decks".to_owned(),
            Deal::Fixed(FixedPosition(fixed)) => {
                let cards: usize = fixed
                    .players
                    .iter()
                    .map(|p| p.reserve.len() + p.hand.len() + p.waste.len())
                    .chain(fixed.tableau.iter().map(Vec::len))
                    .chain(fixed.foundations.iter().map(Vec::len))
                    .sum();
                format!("a fixed position of {cards} cards, player {} to move", fixed.to_move)
            }
        };
        let stop = if self.stop_rule { "Stop rule on" } else { "Stop rule off" };
        vec![
            deal,
            format!("{stop} · match to {} points · a draw after {} moves", self.match_points, self.move_cap),
        ]
    }
}

pub(crate) fn violation(rule: &'static str, message: String) -> RuleViolation {
    RuleViolation::new(rule, message)
}
