//! How a table changes: each step applied (the only way it does), and the
//! steps a move, a win and a Stop make.

use super::*;

impl RussianBank {
    /// Applies one step: the only way a state changes.
    pub fn follow_step(&mut self, step: &BankStep) {
        match *step {
            BankStep::Began { .. } => {
                self.plies += 1;
                self.breach = None;
            }
            BankStep::Moved { card, from, to } | BankStep::TakenBack { card, from, to } => {
                self.take(card, from);
                self.put(card, to);
            }
            BankStep::Revealed { player, card } => {
                let side = &mut self.sides[player.index()];
                debug_assert!(side.reserve_top_hidden());
                let slot = side.reserve.len() - 1;
                side.bring_unseen(card, false, slot);
                side.reserve_hidden -= 1;
            }
            BankStep::WasteTurnedOver { player } => {
                let side = &mut self.sides[player.index()];
                debug_assert!(side.hand.is_empty());
                side.hand = side.waste.reversed();
                side.hand_hidden = 0;
                side.waste.clear();
            }
            BankStep::HandTurned { player, card } => {
                let side = &mut self.sides[player.index()];
                let top = side.hand.len() - 1;
                if side.hand_hidden as usize == side.hand.len() {
                    side.bring_unseen(card, true, top);
                    side.hand_hidden -= 1;
                }
                let turned = side.hand.pop();
                debug_assert_eq!(turned, Some(card));
                side.shown = Some(card);
            }
            BankStep::Breached { breach } => self.breach = Some(breach),
            BankStep::Stopped { .. } => {
                self.plies += 1;
                self.breach = None;
                self.deciding = false;
            }
            BankStep::HandReturned { player, card } => {
                let side = &mut self.sides[player.index()];
                debug_assert_eq!(side.shown, Some(card));
                side.shown = None;
                side.hand.push(card);
            }
            BankStep::HandTurnedBack { player } => {
                let side = &mut self.sides[player.index()];
                debug_assert!(side.waste.is_empty() && side.hand_hidden == 0);
                side.waste = side.hand.reversed();
                side.hand.clear();
            }
            BankStep::Emptied { .. } => self.deciding = true,
            BankStep::TurnChanged { to } => self.turn = to,
            BankStep::Ended { outcome, points } => {
                self.outcome = Some(outcome);
                self.points = points;
                self.deciding = false;
            }
        }
    }

    pub(super) fn take(&mut self, card: Card, from: Place) {
        let taken = match from {
            Place::Reserve(p) => {
                let side = &mut self.sides[p.index()];
                let taken = side.reserve.pop();
                side.reserve_hidden = side.reserve_hidden.min(side.reserve.len() as u8);
                taken
            }
            Place::Hand(p) => self.sides[p.index()].hand.pop(),
            Place::Shown(p) => self.sides[p.index()].shown.take(),
            Place::Waste(p) => self.sides[p.index()].waste.pop(),
            Place::Tableau(n) => self.tableau[n as usize - 1].pop(),
            Place::Foundation(n) => {
                let top = &mut self.foundations[n as usize - 1];
                let taken = *top;
                *top = top.filter(|c| c.rank() > 1).map(|c| Card::new(c.rank() - 1, c.suit()));
                taken
            }
        };
        debug_assert_eq!(taken, Some(card), "taking from {from:?}");
    }

    pub(super) fn put(&mut self, card: Card, to: Place) {
        match to {
            Place::Reserve(p) => self.sides[p.index()].reserve.push(card),
            Place::Hand(p) => self.sides[p.index()].hand.push(card),
            Place::Shown(p) => self.sides[p.index()].shown = Some(card),
            Place::Waste(p) => self.sides[p.index()].waste.push(card),
            Place::Tableau(n) => self.tableau[n as usize - 1].push(card),
            Place::Foundation(n) => self.foundations[n as usize - 1] = Some(card),
        }
    }

    pub(super) fn emit(&mut self, steps: &mut Vec<BankStep>, step: BankStep) {
        self.follow_step(&step);
        steps.push(step);
    }

    pub(super) fn perform(
        &mut self,
        player: Player,
        mv: BankMove,
        breach: Option<Priority>,
        steps: &mut Vec<BankStep>,
    ) {
        let opponent = opponent(player);
        let breached = |card, recycled| {
            breach.map(|rule| BankStep::Breached { breach: Breach { by: player, rule, mv, card, recycled } })
        };
        match mv {
            BankMove::Play { from, to } => {
                let card = self.source_card(player, from).expect("checked");
                self.emit(steps, BankStep::Began { by: player });
                let step = BankStep::Moved { card, from: from.place(player), to: to.place(player) };
                self.emit(steps, step);
                let side = self.side(player);
                if from == Source::Reserve && side.reserve_top_hidden() {
                    let card = side.reserve.top().expect("a hidden top is a card");
                    self.emit(steps, BankStep::Revealed { player, card });
                }
                if let Some(step) = breached(Some(card), false) {
                    self.emit(steps, step);
                }
                if to == Target::Waste {
                    self.emit(steps, BankStep::TurnChanged { to: opponent });
                } else if matches!(from, Source::Reserve | Source::Hand) && self.side(player).is_empty() {
                    if breach.is_some() {
                        self.emit(steps, BankStep::Emptied { player });
                    } else {
                        self.win(player, steps);
                    }
                }
            }
            BankMove::TurnHand => {
                self.emit(steps, BankStep::Began { by: player });
                let recycled = self.side(player).hand.is_empty();
                if recycled {
                    self.emit(steps, BankStep::WasteTurnedOver { player });
                }
                let card = self.side(player).hand.top().expect("checked: a hand or waste to turn");
                self.emit(steps, BankStep::HandTurned { player, card });
                if let Some(step) = breached(Some(card), recycled) {
                    self.emit(steps, step);
                }
            }
            BankMove::EndTurn => {
                self.emit(steps, BankStep::Began { by: player });
                if let Some(step) = breached(None, false) {
                    self.emit(steps, step);
                }
                self.emit(steps, BankStep::TurnChanged { to: opponent });
            }
            BankMove::Stop => self.stop(player, steps),
            BankMove::Accept => {
                let by = self.breach.expect("checked: a breach to accept").by;
                self.emit(steps, BankStep::Began { by: player });
                self.win(by, steps);
            }
        }
        if self.outcome.is_none() && self.plies >= self.move_cap {
            self.emit(steps, BankStep::Ended { outcome: Outcome::Draw, points: 0 });
        }
    }

    pub(super) fn win(&mut self, player: Player, steps: &mut Vec<BankStep>) {
        let points = self.ending_points(player);
        self.emit(steps, BankStep::Ended { outcome: Outcome::Win(player), points });
    }

    /// Takes the breach back exactly and gives the turn to `by`.
    pub(super) fn stop(&mut self, by: Player, steps: &mut Vec<BankStep>) {
        let breach = self.breach.expect("checked: a breach to stop");
        let breaker = breach.by;
        self.emit(steps, BankStep::Stopped { by, rule: breach.rule });
        match breach.mv {
            BankMove::Play { from, to } => {
                let card = breach.card.expect("a played card");
                let step = BankStep::TakenBack { card, from: to.place(breaker), to: from.place(breaker) };
                self.emit(steps, step);
            }
            BankMove::TurnHand => {
                let card = breach.card.expect("a turned card");
                self.emit(steps, BankStep::HandReturned { player: breaker, card });
                if breach.recycled {
                    self.emit(steps, BankStep::HandTurnedBack { player: breaker });
                }
            }
            BankMove::EndTurn | BankMove::Stop | BankMove::Accept => {}
        }
        // Only the stopped move is taken back
        // (docs/rules/russian-bank.md, "Stop"): a hand card turned before it
        // stays showing, for its owner's next turn.
        if self.turn != by {
            self.emit(steps, BankStep::TurnChanged { to: by });
        }
    }
}
