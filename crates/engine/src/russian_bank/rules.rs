//! Russian Bank's rules (docs/rules/russian-bank.md): building, loading,
//! priority, the hand and the waste, Stop, the win and the ending points.
//!
//! Every change to a state goes through [`RussianBank::follow_step`], the
//! same function an observation follows, so what a view shows is what the
//! rules did.

use std::borrow::Cow;
use std::fmt;

use rand::seq::SliceRandom;
use serde::{Deserialize, Serialize};

use super::level::{Card, Deal, FixedDeal, RussianBankLevel, SideSpec, violation};
use super::pile::{ALL_CARDS, Pile, TABLEAU_DEPTH};
use crate::core::{
    Game, GameRng, NotYourTurn, Observation, Outcome, Player, RuleError, RuleViolation, derive_seed,
    rng_from_seed,
};

mod deal;
mod motion;

pub use deal::{first_player, written_out};

/// Where a player takes a card from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Source {
    /// The top of one's own reserve.
    Reserve,
    /// The turned-up hand card.
    Hand,
    /// The top of T1..T8 (1-based).
    Tableau(u8),
}

/// Where a card goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Target {
    Foundation(u8),
    Tableau(u8),
    OpponentReserve,
    OpponentWaste,
    /// One's own waste, from the hand only; ends the turn.
    Waste,
}

/// A move, as in replay files (docs/formats.md, "Move notation").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub enum BankMove {
    Play {
        from: Source,
        to: Target,
    },
    /// Turn up the top hand card (turning the waste over first if the hand
    /// is empty).
    TurnHand,
    /// Only with no hand card showing and hand and waste empty.
    EndTurn,
    /// Called by the opponent of a player who broke priority.
    Stop,
    /// The opponent lets a breach that emptied the mover stand.
    Accept,
}

impl Source {
    /// Where the card played by `player` from here lies.
    pub fn place(self, player: Player) -> Place {
        match self {
            Source::Reserve => Place::Reserve(player),
            Source::Hand => Place::Shown(player),
            Source::Tableau(n) => Place::Tableau(n),
        }
    }
}

impl Target {
    /// The pile a card played here by `player` lands on.
    pub fn place(self, player: Player) -> Place {
        match self {
            Target::Foundation(n) => Place::Foundation(n),
            Target::Tableau(n) => Place::Tableau(n),
            Target::OpponentReserve => Place::Reserve(opponent(player)),
            Target::OpponentWaste => Place::Waste(opponent(player)),
            Target::Waste => Place::Waste(player),
        }
    }
}

impl fmt::Display for Source {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Source::Reserve => f.write_str("reserve"),
            Source::Hand => f.write_str("hand card"),
            Source::Tableau(n) => write!(f, "T{n}"),
        }
    }
}

impl fmt::Display for Target {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Target::Foundation(n) => write!(f, "F{n}"),
            Target::Tableau(n) => write!(f, "T{n}"),
            Target::OpponentReserve => f.write_str("the opponent's reserve"),
            Target::OpponentWaste => f.write_str("the opponent's waste"),
            Target::Waste => f.write_str("the waste"),
        }
    }
}

impl fmt::Display for BankMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BankMove::Play { from, to } => write!(f, "{from} to {to}"),
            BankMove::TurnHand => f.write_str("turn the hand"),
            BankMove::EndTurn => f.write_str("end the turn"),
            BankMove::Stop => f.write_str("Stop!"),
            BankMove::Accept => f.write_str("let it stand"),
        }
    }
}

/// The priority rule a move breaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Priority {
    /// The reserve's top card can go to a foundation: that comes first.
    ReserveToFoundation,
    /// A tableau top or the hand card can go to a foundation: some such
    /// foundation move comes before any other kind of move.
    ToFoundation,
    /// The hand was turned while the reserve's top card had a move.
    ReserveBeforeHand,
}

impl fmt::Display for Priority {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Priority::ReserveToFoundation => {
                "the reserve's top card can go to a foundation, and that comes first"
            }
            Priority::ToFoundation => "a card can go to a foundation, and that comes before any other move",
            Priority::ReserveBeforeHand => {
                "the reserve comes before the hand: its top card has a move, so the hand may not be turned"
            }
        })
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum BankError {
    #[error("the game is over")]
    GameOver,
    #[error("there is no {kind}{n}: piles are numbered 1 to 8")]
    NoSuchPile { kind: char, n: u8 },
    #[error("{}", match from {
        Source::Reserve => "your reserve is empty".to_owned(),
        Source::Hand => "no hand card is turned up".to_owned(),
        Source::Tableau(n) => format!("T{n} is empty"),
    })]
    EmptySource { from: Source },
    #[error("the card is already on that pile")]
    SamePile,
    #[error("{}", match onto {
        None => format!("an empty foundation takes only an ace, not the {}", card.name()),
        Some(top) => format!("the {} cannot go on the {}: a foundation builds up in suit, one rank at a time", card.name(), top.name()),
    })]
    Foundation { card: Card, onto: Option<Card> },
    #[error("the {} cannot go on the {}: a tableau pile builds down in alternating colours", card.name(), onto.name())]
    Tableau { card: Card, onto: Card },
    #[error("the {} cannot load the {}: loading takes the same suit, one rank higher or lower", card.name(), onto.name())]
    Loading { card: Card, onto: Card },
    #[error("the opponent's {pile} is empty, and an empty pile cannot be loaded")]
    LoadEmpty { pile: &'static str },
    #[error("only the turned hand card goes to your own waste")]
    WasteOnlyFromHand,
    #[error("play the turned hand card or put it on your waste first")]
    HandShowing,
    #[error("your hand and waste are empty: end your turn")]
    NothingToTurn,
    #[error(
        "a turn ends by putting the hand card on the waste; EndTurn is for when hand and waste are empty"
    )]
    CannotEndTurn,
    #[error("priority: {0}")]
    Priority(Priority),
    #[error("no rule was broken")]
    NoBreach,
    #[error("there is no emptying move to let stand")]
    NothingToAccept,
    #[error("{by} emptied their piles by breaking priority: stop it or let it stand first")]
    MustDecide { by: Player },
    #[error(transparent)]
    NotYourTurn(#[from] NotYourTurn),
}

impl RuleError for BankError {
    fn not_your_turn(&self) -> Option<NotYourTurn> {
        match self {
            BankError::NotYourTurn(t) => Some(*t),
            _ => None,
        }
    }
}

/// A place a card can be, for steps.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Place {
    Reserve(Player),
    /// Face down in the hand.
    Hand(Player),
    /// The turned-up hand card.
    Shown(Player),
    Waste(Player),
    Tableau(u8),
    Foundation(u8),
}

/// A move that broke priority, kept until the next move so the opponent
/// may stop it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Breach {
    pub by: Player,
    pub rule: Priority,
    pub mv: BankMove,
    /// The card the move played or turned.
    pub card: Option<Card>,
    /// The move turned the waste over into a new hand.
    pub recycled: bool,
}

/// One step of a move, in order.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum BankStep {
    /// `by` moved (the move count rises; a breach not stopped stands).
    Began {
        by: Player,
    },
    Moved {
        card: Card,
        from: Place,
        to: Place,
    },
    /// The reserve's new top card turned face up.
    Revealed {
        player: Player,
        card: Card,
    },
    /// The waste turned over, unshuffled, as the new hand.
    WasteTurnedOver {
        player: Player,
    },
    /// The top hand card turned up.
    HandTurned {
        player: Player,
        card: Card,
    },
    /// The move broke priority (every player can see it; the window does
    /// not say so to a human).
    Breached {
        breach: Breach,
    },
    /// `by` stopped the breach, which broke `rule`.
    Stopped {
        by: Player,
        rule: Priority,
    },
    /// A card of a stopped move goes back.
    TakenBack {
        card: Card,
        from: Place,
        to: Place,
    },
    /// A turned hand card goes back face down on top of the hand, known.
    HandReturned {
        player: Player,
        card: Card,
    },
    /// A hand made from the waste goes back to being the waste.
    HandTurnedBack {
        player: Player,
    },
    /// `player` emptied their piles by a breach: the opponent decides.
    Emptied {
        player: Player,
    },
    TurnChanged {
        to: Player,
    },
    /// The game ended; `points` are the winner's.
    Ended {
        outcome: Outcome,
        points: u32,
    },
}

/// One player's own piles. Cards never seen by anyone lie at the bottom of
/// the reserve and of the hand: the first `reserve_hidden` and `hand_hidden`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Side {
    pub reserve: Pile<ALL_CARDS>,
    pub reserve_hidden: u8,
    pub hand: Pile<ALL_CARDS>,
    pub hand_hidden: u8,
    /// The turned-up hand card.
    pub shown: Option<Card>,
    pub waste: Pile<ALL_CARDS>,
}

impl Side {
    /// Reserve, hand (with a turned card) and waste are all empty.
    pub fn is_empty(&self) -> bool {
        self.reserve.is_empty() && self.hand.is_empty() && self.shown.is_none() && self.waste.is_empty()
    }

    /// What this side is worth to the player who emptied theirs (R8): 2 for
    /// each reserve card, 1 for each card of the hand and waste.
    pub fn penalty(&self) -> u32 {
        2 * self.reserve.len() as u32
            + self.hand.len() as u32
            + self.shown.is_some() as u32
            + self.waste.len() as u32
    }

    /// Cards left to get rid of, as the ending points weigh them.
    pub fn cards_left(&self) -> usize {
        self.reserve.len() + self.hand.len() + self.shown.is_some() as usize + self.waste.len()
    }

    /// The reserve's top card is face down (only between a card leaving
    /// and the next one turning up).
    fn reserve_top_hidden(&self) -> bool {
        !self.reserve.is_empty() && self.reserve_hidden as usize == self.reserve.len()
    }

    /// Puts `card`, turned up by the rules, into unseen slot `slot` of the
    /// reserve (`in_hand` false) or the hand. In a real state (or one an
    /// agent sampled) it is already there; in an observation the slot holds
    /// no card anyone knows, and the card takes its place.
    fn bring_unseen(&mut self, card: Card, in_hand: bool, slot: usize) {
        let pile = if in_hand { &mut self.hand } else { &mut self.reserve };
        pile.as_mut_slice()[slot] = card;
    }

    /// The unseen cards as no one knows them: every one the same
    /// placeholder, so that two deals differing only in them look alike.
    fn hide_unseen(&mut self) {
        let (rh, hh) = (self.reserve_hidden as usize, self.hand_hidden as usize);
        self.reserve.as_mut_slice()[..rh].fill(Card::PLACEHOLDER);
        self.hand.as_mut_slice()[..hh].fill(Card::PLACEHOLDER);
    }

    /// The unseen slots dealt from `pool` (taken from its end).
    fn deal_unseen(&mut self, pool: &mut Vec<Card>) {
        let (rh, hh) = (self.reserve_hidden as usize, self.hand_hidden as usize);
        for slot in self.reserve.as_mut_slice()[..rh].iter_mut().chain(&mut self.hand.as_mut_slice()[..hh]) {
            *slot = pool.pop().expect("two decks hold every card in sight and every unseen one");
        }
    }

    /// The cards of this side in sight (face up or known).
    fn seen(&self) -> impl Iterator<Item = Card> + '_ {
        let (rh, hh) = (self.reserve_hidden as usize, self.hand_hidden as usize);
        self.reserve.as_slice()[rh..]
            .iter()
            .chain(&self.hand.as_slice()[hh..])
            .chain(self.shown.iter())
            .chain(self.waste.as_slice())
            .copied()
    }
}

/// What priority asks of the player to move in a position.
#[derive(Clone, Copy, Debug)]
struct Duty {
    /// The reserve's top card can go to a foundation.
    reserve_to_foundation: bool,
    /// Some other movable card can go to a foundation.
    to_foundation: bool,
    /// The reserve's top card has some legal move.
    reserve_can_move: bool,
}

impl Duty {
    /// The priority rule `mv` (already checked against the building rules)
    /// would break.
    fn breach(self, mv: BankMove) -> Option<Priority> {
        let foundation_move = matches!(mv, BankMove::Play { to: Target::Foundation(_), .. });
        if self.reserve_to_foundation {
            let reserve_up =
                matches!(mv, BankMove::Play { from: Source::Reserve, to: Target::Foundation(_) });
            return (!reserve_up).then_some(Priority::ReserveToFoundation);
        }
        if self.to_foundation && !foundation_move {
            return Some(Priority::ToFoundation);
        }
        if mv == BankMove::TurnHand && self.reserve_can_move {
            return Some(Priority::ReserveBeforeHand);
        }
        None
    }
}

/// A game of Russian Bank.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RussianBank {
    pub(crate) sides: [Side; 2],
    pub(crate) tableau: [Pile<TABLEAU_DEPTH>; 8],
    /// The top card of F1..F8 (a foundation holds the ace up to it).
    pub(crate) foundations: [Option<Card>; 8],
    /// Whose turn it is.
    pub(crate) turn: Player,
    /// The last move, if it broke priority and may still be stopped.
    pub(crate) breach: Option<Breach>,
    /// The breach emptied its player: the opponent must stop it or accept.
    pub(crate) deciding: bool,
    pub(crate) stop_rule: bool,
    pub(crate) plies: u32,
    pub(crate) move_cap: u32,
    pub(crate) outcome: Option<Outcome>,
    pub(crate) points: u32,
}

/// The other player of the two.
pub fn opponent(p: Player) -> Player {
    p.next(2)
}

fn pile_number(kind: char, n: u8) -> Result<usize, BankError> {
    if (1..=8).contains(&n) { Ok(n as usize - 1) } else { Err(BankError::NoSuchPile { kind, n }) }
}

/// The tableau builds down in alternating colours.
fn builds_down(card: Card, onto: Card) -> bool {
    onto.rank() == card.rank() + 1 && onto.is_red() != card.is_red()
}

/// Loading: the same suit, one rank higher or lower.
fn loads(card: Card, onto: Card) -> bool {
    card.suit() == onto.suit() && card.rank().abs_diff(onto.rank()) == 1
}

fn builds_up(card: Card, onto: Option<Card>) -> bool {
    match onto {
        None => card.rank() == 1,
        Some(top) => top.suit() == card.suit() && card.rank() == top.rank() + 1,
    }
}

/// The sources in the order legal moves list them.
const SOURCES: [Source; 10] = [
    Source::Reserve,
    Source::Hand,
    Source::Tableau(1),
    Source::Tableau(2),
    Source::Tableau(3),
    Source::Tableau(4),
    Source::Tableau(5),
    Source::Tableau(6),
    Source::Tableau(7),
    Source::Tableau(8),
];

impl RussianBank {
    pub fn side(&self, player: Player) -> &Side {
        &self.sides[player.index()]
    }

    pub fn tableau(&self, n: usize) -> &[Card] {
        self.tableau[n].as_slice()
    }

    /// The top card of foundation `n` (0-based).
    pub fn foundation(&self, n: usize) -> Option<Card> {
        self.foundations[n]
    }

    /// Foundation `n` bottom to top: the ace up to its top card.
    pub fn foundation_pile(&self, n: usize) -> Vec<Card> {
        self.foundations[n]
            .map_or(Vec::new(), |top| (1..=top.rank()).map(|r| Card::new(r, top.suit())).collect())
    }

    pub fn turn(&self) -> Player {
        self.turn
    }

    pub fn breach(&self) -> Option<&Breach> {
        self.breach.as_ref()
    }

    pub fn deciding(&self) -> bool {
        self.deciding
    }

    pub fn stop_rule(&self) -> bool {
        self.stop_rule
    }

    pub fn plies(&self) -> u32 {
        self.plies
    }

    /// The position as a number: equal for two tables that differ only in
    /// how many moves led to them (what a repetition is).
    pub fn position_key(&self) -> u64 {
        use std::hash::{Hash, Hasher};
        let mut hasher = std::hash::DefaultHasher::new();
        (&self.sides, &self.tableau, &self.foundations, self.turn, &self.breach, self.deciding)
            .hash(&mut hasher);
        hasher.finish()
    }

    /// What `player` scores for emptying their piles in this position (R8,
    /// the seed's `updatePoints`): 30 plus the opponent's penalty.
    pub fn ending_points(&self, player: Player) -> u32 {
        30 + self.side(opponent(player)).penalty()
    }

    /// The points the winner scored, once the game is won.
    pub fn winner_points(&self) -> Option<(Player, u32)> {
        self.outcome.and_then(Outcome::winner).map(|p| (p, self.points))
    }

    /// The card `from` would play for `player`.
    pub fn source_card(&self, player: Player, from: Source) -> Result<Card, BankError> {
        let side = self.side(player);
        let card = match from {
            Source::Reserve => side.reserve.top(),
            Source::Hand => side.shown,
            Source::Tableau(n) => self.tableau[pile_number('T', n)?].top(),
        };
        card.ok_or(BankError::EmptySource { from })
    }

    /// Whether `card` may go to `to` for `player` by the building rules.
    fn fits(&self, player: Player, from: Source, card: Card, to: Target) -> Result<(), BankError> {
        let opponent = self.side(opponent(player));
        match to {
            Target::Foundation(n) => {
                let onto = self.foundations[pile_number('F', n)?];
                if builds_up(card, onto) { Ok(()) } else { Err(BankError::Foundation { card, onto }) }
            }
            Target::Tableau(n) => {
                let i = pile_number('T', n)?;
                if from == Source::Tableau(n) {
                    return Err(BankError::SamePile);
                }
                match self.tableau[i].top() {
                    Some(onto) if !builds_down(card, onto) => Err(BankError::Tableau { card, onto }),
                    _ => Ok(()),
                }
            }
            Target::OpponentReserve | Target::OpponentWaste => {
                let (pile, name) = if to == Target::OpponentReserve {
                    (&opponent.reserve, "reserve")
                } else {
                    (&opponent.waste, "waste")
                };
                let onto = pile.top().ok_or(BankError::LoadEmpty { pile: name })?;
                if loads(card, onto) { Ok(()) } else { Err(BankError::Loading { card, onto }) }
            }
            Target::Waste => {
                if from == Source::Hand {
                    Ok(())
                } else {
                    Err(BankError::WasteOnlyFromHand)
                }
            }
        }
    }

    fn to_some_foundation(&self, card: Card) -> bool {
        self.foundations.iter().any(|&top| builds_up(card, top))
    }

    /// Whether `card`, played by `player` from `from`, has any move at all.
    fn has_move(&self, player: Player, from: Source, card: Card) -> bool {
        if self.to_some_foundation(card) {
            return true;
        }
        let tableau = (1..=8).any(|n| self.fits(player, from, card, Target::Tableau(n)).is_ok());
        tableau
            || [Target::OpponentReserve, Target::OpponentWaste]
                .iter()
                .any(|&to| self.fits(player, from, card, to).is_ok())
    }

    fn duty(&self, player: Player) -> Duty {
        let side = self.side(player);
        let reserve_top = side.reserve.top();
        let reserve_to_foundation = reserve_top.is_some_and(|c| self.to_some_foundation(c));
        let to_foundation = side.shown.is_some_and(|c| self.to_some_foundation(c))
            || self.tableau.iter().any(|pile| pile.top().is_some_and(|c| self.to_some_foundation(c)));
        let reserve_can_move =
            reserve_to_foundation || reserve_top.is_some_and(|c| self.has_move(player, Source::Reserve, c));
        Duty { reserve_to_foundation, to_foundation, reserve_can_move }
    }

    /// The priority rule `mv` by `player` would break (for a move the
    /// building rules allow), whether or not the Stop rule is on.
    pub fn breaks_priority(&self, player: Player, mv: BankMove) -> Option<Priority> {
        match mv {
            BankMove::Stop | BankMove::Accept => None,
            _ => self.duty(player).breach(mv),
        }
    }

    /// What priority asks of `player` now, if anything: the first rule
    /// that binds (the reserve up, then any card up, then the reserve
    /// before the hand) and the moves the building rules allow that keep
    /// it. A teacher's aid: the same with the Stop rule on or off.
    pub fn priority_now(&self, player: Player) -> Option<(Priority, Vec<BankMove>)> {
        let duty = self.duty(player);
        let rule = if duty.reserve_to_foundation {
            Priority::ReserveToFoundation
        } else if duty.to_foundation {
            Priority::ToFoundation
        } else if duty.reserve_can_move {
            Priority::ReserveBeforeHand
        } else {
            return None;
        };
        let mut moves = Vec::new();
        self.turn_moves(player, &mut moves);
        moves.retain(|&mv| duty.breach(mv).is_none());
        Some((rule, moves))
    }

    /// The seat that may make `mv` now, as far as whose turn it is goes.
    fn seat_for(&self, mv: BankMove) -> Player {
        match mv {
            BankMove::Stop => opponent(self.breach.map_or(self.turn, |b| b.by)),
            _ => Game::current_player(self),
        }
    }

    fn not_your_turn(&self, player: Player) -> BankError {
        BankError::NotYourTurn(NotYourTurn { player, to_move: Game::current_player(self) })
    }

    /// Checks `mv` by `player` without changing anything; returns the
    /// priority rule it breaks, if the Stop rule lets it be played anyway.
    fn check(&self, player: Player, mv: BankMove) -> Result<Option<Priority>, BankError> {
        if self.outcome.is_some() {
            return Err(BankError::GameOver);
        }
        let turn_check = || {
            if self.seat_for(mv) != player { Err(self.not_your_turn(player)) } else { Ok(()) }
        };
        match mv {
            BankMove::Stop => {
                return match self.breach {
                    Some(b) if b.by == opponent(player) => Ok(None),
                    // A seat that could call Stop now, or the player to move,
                    // hears that nothing was broken; any other is out of turn.
                    _ if self.seat_for(mv) == player || Game::current_player(self) == player => {
                        Err(BankError::NoBreach)
                    }
                    _ => Err(self.not_your_turn(player)),
                };
            }
            BankMove::Accept => {
                turn_check()?;
                return if self.deciding { Ok(None) } else { Err(BankError::NothingToAccept) };
            }
            _ => {}
        }
        turn_check()?;
        if self.deciding {
            return Err(BankError::MustDecide { by: self.turn });
        }
        let side = self.side(player);
        match mv {
            BankMove::Play { from, to } => {
                let card = self.source_card(player, from)?;
                self.fits(player, from, card, to)?;
            }
            BankMove::TurnHand => {
                if side.shown.is_some() {
                    return Err(BankError::HandShowing);
                }
                if side.hand.is_empty() && side.waste.is_empty() {
                    return Err(BankError::NothingToTurn);
                }
            }
            BankMove::EndTurn => {
                if side.shown.is_some() {
                    return Err(BankError::HandShowing);
                }
                if !side.hand.is_empty() || !side.waste.is_empty() {
                    return Err(BankError::CannotEndTurn);
                }
            }
            BankMove::Stop | BankMove::Accept => unreachable!("handled above"),
        }
        match self.duty(player).breach(mv) {
            Some(rule) if !self.stop_rule => Err(BankError::Priority(rule)),
            breach => Ok(breach),
        }
    }

    /// Every move of the player whose turn it is, breaches included when
    /// the Stop rule lets them be played.
    fn turn_moves(&self, player: Player, out: &mut Vec<BankMove>) {
        let side = self.side(player);
        let opponent = self.side(opponent(player));
        let duty = self.duty(player);
        let mut push = |mv: BankMove| {
            if self.stop_rule || duty.breach(mv).is_none() {
                out.push(mv);
            }
        };
        for from in SOURCES {
            let card = match from {
                Source::Reserve => side.reserve.top(),
                Source::Hand => side.shown,
                Source::Tableau(n) => self.tableau[n as usize - 1].top(),
            };
            let Some(card) = card else { continue };
            for n in 1..=8u8 {
                if builds_up(card, self.foundations[n as usize - 1]) {
                    push(BankMove::Play { from, to: Target::Foundation(n) });
                }
            }
            for n in 1..=8u8 {
                if from == Source::Tableau(n) {
                    continue;
                }
                if self.tableau[n as usize - 1].top().is_none_or(|onto| builds_down(card, onto)) {
                    push(BankMove::Play { from, to: Target::Tableau(n) });
                }
            }
            if opponent.reserve.top().is_some_and(|onto| loads(card, onto)) {
                push(BankMove::Play { from, to: Target::OpponentReserve });
            }
            if opponent.waste.top().is_some_and(|onto| loads(card, onto)) {
                push(BankMove::Play { from, to: Target::OpponentWaste });
            }
            if from == Source::Hand {
                push(BankMove::Play { from, to: Target::Waste });
            }
        }
        if side.shown.is_none() {
            if !side.hand.is_empty() || !side.waste.is_empty() {
                push(BankMove::TurnHand);
            } else {
                push(BankMove::EndTurn);
            }
        }
    }

    /// The observation every seat shares: unseen cards in a canonical order.
    /// The table as every seat and a spectator see it: each unseen card
    /// in its place but no card anyone knows (docs/rules/russian-bank.md,
    /// "Hidden information").
    pub fn public_view(&self) -> RussianBank {
        let mut view = self.clone();
        view.sides.iter_mut().for_each(Side::hide_unseen);
        view
    }
}

impl Game for RussianBank {
    type Move = BankMove;
    type Error = BankError;
    type Effects = Vec<BankStep>;
    type Step = BankStep;
    type Level = RussianBankLevel;
    type Observation = BankView;

    const NAME: &'static str = "RussianBank";
    const TITLE: &'static str = "Russian Bank";
    const FOLDER: &'static str = "russian_bank";
    const SEATS: (usize, usize) = (2, 2);
    const PERFECT_INFORMATION: bool = false;
    const INTERJECTIONS: bool = true;

    fn new(level: &RussianBankLevel, seed: u64) -> Result<RussianBank, RuleViolation> {
        RussianBank::from_level(level, seed)
    }

    fn num_players(&self) -> usize {
        2
    }

    fn current_player(&self) -> Player {
        if self.deciding { opponent(self.turn) } else { self.turn }
    }

    fn legal_moves(&self, player: Player, out: &mut Vec<BankMove>) {
        if self.outcome.is_some() {
            return;
        }
        if self.deciding {
            if player != self.turn {
                out.extend([BankMove::Stop, BankMove::Accept]);
            }
            return;
        }
        if player == self.turn {
            self.turn_moves(player, out);
        }
        if self.breach.is_some_and(|b| b.by == opponent(player)) {
            out.push(BankMove::Stop);
        }
    }

    fn apply(&mut self, player: Player, mv: BankMove) -> Result<Vec<BankStep>, BankError> {
        let breach = self.check(player, mv)?;
        let mut steps = Vec::with_capacity(4);
        self.perform(player, mv, breach, &mut steps);
        Ok(steps)
    }

    fn outcome(&self) -> Option<Outcome> {
        self.outcome
    }

    fn actor(&self, mv: &BankMove) -> Player {
        self.seat_for(*mv)
    }

    /// A card played is named ("J♦ T3 to F1"): it is face up once moved.
    fn words_for(&self, mv: &BankMove) -> String {
        match *mv {
            BankMove::Play { from, to } => {
                let card = self.source_card(self.actor(mv), from).map(Card::name).unwrap_or_default();
                let from = match from {
                    Source::Hand => "hand".to_owned(),
                    other => other.to_string(),
                };
                format!("{card} {from} to {to}")
            }
            other => other.to_string(),
        }
    }

    fn observe(&self, _viewer: Option<Player>) -> Cow<'_, BankView> {
        // Both players (and a spectator) see the same: no one looks at a
        // face-down card.
        Cow::Owned(BankView(self.public_view()))
    }

    /// The unseen cards drawn from two full decks less every card in
    /// sight: all a seat knows of them, whatever the deal (a fixed deal may
    /// hold any cards).
    fn sample_state(observation: &BankView, _viewer: Option<Player>, rng: &mut GameRng) -> RussianBank {
        let mut state = observation.0.clone();
        let mut left = [2u8; 52];
        let tableau = state.tableau.iter().flat_map(|p| p.as_slice().iter().copied());
        let foundations = (0..8).flat_map(|n| state.foundation_pile(n));
        for card in state.sides.iter().flat_map(Side::seen).chain(tableau).chain(foundations) {
            left[card.index()] = left[card.index()].saturating_sub(1);
        }
        let mut pool: Vec<Card> =
            Card::deck().flat_map(|c| std::iter::repeat_n(c, left[c.index()] as usize)).collect();
        pool.shuffle(rng);
        state.sides.iter_mut().for_each(|s| s.deal_unseen(&mut pool));
        state
    }

    fn steps(_before: &RussianBank, effects: &Vec<BankStep>) -> Vec<BankStep> {
        effects.clone()
    }

    /// A take-back stops at a card turned up, and at a Stop: taking a Stop
    /// back would let the breach it stopped stand after all.
    fn irreversible(step: &BankStep) -> Option<&'static str> {
        match step {
            BankStep::Revealed { .. } | BankStep::HandTurned { .. } => Some(crate::core::SHOWED_HIDDEN),
            BankStep::Stopped { .. } => Some("it was a Stop, and the breach it stopped would stand"),
            _ => None,
        }
    }

    fn public_state(&self) -> serde_json::Value {
        let side = |s: &Side| {
            let unseen = |pile: &[Card], hidden: u8| -> Vec<Option<Card>> {
                pile.iter().enumerate().map(|(i, &c)| (i >= hidden as usize).then_some(c)).collect()
            };
            serde_json::json!({
                "reserve": unseen(s.reserve.as_slice(), s.reserve_hidden),
                "hand": unseen(s.hand.as_slice(), s.hand_hidden),
                "shown": s.shown,
                "waste": s.waste,
            })
        };
        serde_json::json!({
            "turn": self.turn.0 + 1,
            "players": [side(&self.sides[0]), side(&self.sides[1])],
            "tableau": self.tableau,
            "foundations": (0..8).map(|n| self.foundation_pile(n)).collect::<Vec<_>>(),
            "breach": self.breach,
            "deciding": self.deciding,
        })
    }

    fn move_bound(&self) -> u64 {
        if self.outcome.is_some() { 0 } else { (self.move_cap - self.plies) as u64 }
    }

    /// Each card that may move (the reserve's top, the hand card, a
    /// tableau pile's top) to each foundation, each other tableau pile, the
    /// opponent's reserve and waste, and the hand card to its waste; then
    /// TurnHand, EndTurn, Stop and Accept.
    fn legal_bound(&self) -> u64 {
        (SOURCES.len() * (8 + 8 + 2) + 1 + 4) as u64
    }

    fn scores(&self) -> Vec<i64> {
        let mut scores = vec![0, 0];
        if let Some((p, points)) = self.winner_points() {
            scores[p.index()] = points as i64;
        }
        scores
    }

    fn random_move(&self, rng: &mut GameRng) -> Option<BankMove> {
        let mut moves = Vec::with_capacity(32);
        self.legal_moves(Game::current_player(self), &mut moves);
        crate::core::rng::choose(&moves, rng).copied()
    }

    fn probe_moves(&self, out: &mut Vec<BankMove>) {
        let targets = [
            Target::OpponentReserve,
            Target::OpponentWaste,
            Target::Waste,
            Target::Foundation(0),
            Target::Tableau(9),
        ];
        for from in SOURCES.into_iter().chain([Source::Tableau(0)]) {
            for n in 1..=8 {
                out.push(BankMove::Play { from, to: Target::Foundation(n) });
                out.push(BankMove::Play { from, to: Target::Tableau(n) });
            }
            out.extend(targets.map(|to| BankMove::Play { from, to }));
        }
        out.extend([BankMove::TurnHand, BankMove::EndTurn, BankMove::Stop, BankMove::Accept]);
    }
}

/// What a seat sees: the table, each card no one has seen in its place
/// but unknown. Everyone sees the same. As JSON (what a game server sends)
/// it is the state's own structure with an unseen card written `null`:
/// `"reserve": [null, null, "7H"]` is a reserve of three, the 7 of hearts
/// on top. In memory an unseen card is a placeholder that no rule reads.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BankView(pub RussianBank);

/// Calls `f` on each unseen slot of every reserve and hand of a state as JSON.
fn unseen_slots(state: &mut serde_json::Value, f: impl Fn(&mut serde_json::Value)) {
    for side in state["sides"].as_array_mut().into_iter().flatten() {
        for (pile, hidden) in [("reserve", "reserve_hidden"), ("hand", "hand_hidden")] {
            let n = side[hidden].as_u64().unwrap_or(0) as usize;
            for slot in side[pile].as_array_mut().into_iter().flatten().take(n) {
                f(slot);
            }
        }
    }
}

impl Serialize for BankView {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut state = serde_json::to_value(&self.0).map_err(serde::ser::Error::custom)?;
        unseen_slots(&mut state, |slot| *slot = serde_json::Value::Null);
        state.serialize(s)
    }
}

impl<'de> Deserialize<'de> for BankView {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<BankView, D::Error> {
        let mut state = serde_json::Value::deserialize(d)?;
        let placeholder = serde_json::to_value(Card::PLACEHOLDER).map_err(serde::de::Error::custom)?;
        unseen_slots(&mut state, |slot| {
            if slot.is_null() {
                *slot = placeholder.clone();
            }
        });
        let mut view: RussianBank = serde_json::from_value(state).map_err(serde::de::Error::custom)?;
        view.sides.iter_mut().for_each(Side::hide_unseen);
        Ok(BankView(view))
    }
}

impl Observation<RussianBank> for BankView {
    fn legal_moves(&self, player: Player, out: &mut Vec<BankMove>) {
        // Unseen cards never decide what is legal.
        Game::legal_moves(&self.0, player, out)
    }

    fn follow(&mut self, step: &BankStep) {
        self.0.follow_step(step);
    }
}
