//! A table from a level: the deal R1 shuffles from the seed, or a fixed
//! position checked card by card; and who starts.

use super::*;

impl RussianBank {
    /// Builds the start of a level: a shuffled deal or a fixed position.
    pub(super) fn from_level(level: &RussianBankLevel, seed: u64) -> Result<RussianBank, RuleViolation> {
        if level.move_cap == 0 {
            return Err(violation("move-cap", "move_cap must be at least 1".into()));
        }
        if level.match_points == 0 {
            return Err(violation("match-points", "match_points must be at least 1".into()));
        }
        let (sides, tableau, foundations, turn) = match &level.deal {
            Deal::Shuffled => deal(seed),
            Deal::Fixed(fixed) => fixed_position(&fixed.0)?,
        };
        Ok(RussianBank {
            sides,
            tableau,
            foundations,
            turn,
            breach: None,
            deciding: false,
            stop_rule: level.stop_rule,
            plies: 0,
            move_cap: level.move_cap,
            outcome: None,
            points: 0,
        })
    }
}

pub(super) type Table = ([Side; 2], [Pile<TABLEAU_DEPTH>; 8], [Option<Card>; 8], Player);

pub(super) fn side(reserve: &[Card], hand: &[Card], waste: &[Card]) -> Side {
    let pile = |cards| Pile::from_slice(cards).expect("at most two decks");
    Side {
        reserve: pile(reserve),
        reserve_hidden: reserve.len().saturating_sub(1) as u8,
        hand: pile(hand),
        hand_hidden: hand.len() as u8,
        shown: None,
        waste: pile(waste),
    }
}

/// R1: each player shuffles their own deck; 13 to the reserve, one to each
/// of their four tableau piles, 35 to the hand.
pub(super) fn deal(seed: u64) -> Table {
    let mut tableau = [Pile::EMPTY; 8];
    let sides = [0usize, 1].map(|p| {
        let mut deck: Vec<Card> = Card::deck().collect();
        deck.shuffle(&mut rng_from_seed(derive_seed(seed, p as u64)));
        for (i, &card) in deck[13..17].iter().enumerate() {
            tableau[p * 4 + i].push(card);
        }
        side(&deck[..13], &deck[17..], &[])
    });
    let turn = first_player(&sides, &tableau);
    (sides, tableau, [None; 8], turn)
}

/// The deal of `seed` written out card by card, as a fixed position.
pub fn written_out(seed: u64) -> FixedDeal {
    let (sides, tableau, _, turn) = deal(seed);
    let spec = |s: &Side| SideSpec {
        reserve: s.reserve.as_slice().to_vec(),
        hand: s.hand.as_slice().to_vec(),
        waste: Vec::new(),
    };
    FixedDeal {
        to_move: turn.0 + 1,
        players: sides.iter().map(spec).collect(),
        tableau: tableau.iter().map(|p| p.as_slice().to_vec()).collect(),
        foundations: vec![Vec::new(); 8],
    }
}

/// Who starts (R1): the lower reserve top, then T1 against T5, T2 against
/// T6 and so on (lower starts), then player 1. Ranks only.
pub fn first_player(sides: &[Side; 2], tableau: &[Pile<TABLEAU_DEPTH>; 8]) -> Player {
    let rank = |c: Option<Card>| c.map_or(0, Card::rank);
    let pairs = std::iter::once((rank(sides[0].reserve.top()), rank(sides[1].reserve.top())))
        .chain((0..4).map(|i| (rank(tableau[i].top()), rank(tableau[i + 4].top()))));
    for (one, two) in pairs {
        if one != two {
            return if one < two { Player::ONE } else { Player::TWO };
        }
    }
    Player::ONE
}

pub(super) fn fixed_position(fixed: &FixedDeal) -> Result<Table, RuleViolation> {
    if fixed.players.len() != 2 {
        return Err(violation(
            "players",
            format!("Russian Bank has 2 players, the level lists {}", fixed.players.len()),
        ));
    }
    if !(1..=2).contains(&fixed.to_move) {
        return Err(violation("to-move", format!("to_move is 1 or 2, not {}", fixed.to_move)));
    }
    for (what, piles) in [("tableau", &fixed.tableau), ("foundations", &fixed.foundations)] {
        if piles.len() != 8 {
            return Err(violation("piles", format!("{what} lists {} piles; there are 8", piles.len())));
        }
    }
    let mut count = [0u8; 52];
    let all = fixed
        .players
        .iter()
        .flat_map(|p: &SideSpec| p.reserve.iter().chain(&p.hand).chain(&p.waste))
        .chain(fixed.tableau.iter().flatten())
        .chain(fixed.foundations.iter().flatten());
    for &card in all {
        count[card.index()] += 1;
        if count[card.index()] > 2 {
            return Err(violation(
                "cards",
                format!("the {card} appears {} times; two decks hold it twice", count[card.index()]),
            ));
        }
    }
    let mut foundations = [None; 8];
    for (i, pile) in fixed.foundations.iter().enumerate() {
        for (k, &card) in pile.iter().enumerate() {
            if card.rank() as usize != k + 1 || card.suit() != pile[0].suit() {
                return Err(violation(
                    "foundation-order",
                    format!(
                        "F{} holds the {card} at height {}: a foundation is the ace up, in one suit",
                        i + 1,
                        k + 1
                    ),
                ));
            }
        }
        foundations[i] = pile.last().copied();
    }
    let mut tableau = [Pile::EMPTY; 8];
    for (i, pile) in fixed.tableau.iter().enumerate() {
        for pair in pile.windows(2) {
            if !builds_down(pair[1], pair[0]) {
                return Err(violation(
                    "tableau-order",
                    format!(
                        "T{} has the {} on the {}: a tableau pile builds down in alternating colours",
                        i + 1,
                        pair[1],
                        pair[0]
                    ),
                ));
            }
        }
        tableau[i] = Pile::from_slice(pile).expect("a pile built down holds at most 13 cards");
    }
    let sides = [0, 1].map(|p| {
        let spec = &fixed.players[p];
        side(&spec.reserve, &spec.hand, &spec.waste)
    });
    Ok((sides, tableau, foundations, Player(fixed.to_move - 1)))
}
