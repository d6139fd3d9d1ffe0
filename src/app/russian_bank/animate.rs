//! A move's steps on the card entities. Each step that carries cards takes
//! them from the top of one pile and puts them on another, as the engine
//! says; the cards then fly there one after another, and every card shows
//! afterwards exactly what the screen's seat sees of it. A refused card goes
//! back where it came from.

use std::collections::HashMap;

use bevy::prelude::*;
use tabula_engine::russian_bank::{BankStep, Card, Place, Priority, RussianBank, opponent};
use tabula_engine::{Game, Player};

use super::layout::{card_position, pile, places, z_of};
use super::spawn::{Cards, deal, drawn, visibility};
use super::{CardFace, Choice, FLIGHT, LIFT, LastStop, Redealt, TableCard};
use crate::app::glide::{Glide, Leg};
use crate::app::session::{MoveApplied, MoveRefused, Session, Watch};
use crate::app::settings::Settings;

/// The cards of each pile, bottom first, as the entities hold them, and the
/// flights that carry them to their new places.
struct Carry {
    piles: HashMap<Place, Vec<Entity>>,
    from: HashMap<Entity, Vec3>,
    glides: HashMap<Entity, Glide>,
    clock: f32,
    flight: f32,
}

impl Carry {
    /// The cards as the entities hold them, none of them carried yet.
    fn new(cards: &Cards, flight: f32) -> Carry {
        let mut carry =
            Carry { piles: HashMap::new(), from: HashMap::new(), glides: HashMap::new(), clock: 0.0, flight };
        let mut order: Vec<(TableCard, Entity)> = cards.iter().map(|(e, card, ..)| (*card, e)).collect();
        order.sort_by_key(|(card, _)| card.index);
        for &(card, entity) in &order {
            carry.piles.entry(card.place).or_default().push(entity);
        }
        for (entity, _, _, _, transform) in cards {
            carry.from.insert(entity, transform.translation);
        }
        carry
    }

    /// Carries the cards a step moves.
    fn follow(&mut self, step: &BankStep) {
        match *step {
            BankStep::Moved { from, to, .. } | BankStep::TakenBack { from, to, .. } => self.top(from, to),
            BankStep::HandTurned { player, .. } => self.top(Place::Hand(player), Place::Shown(player)),
            BankStep::HandReturned { player, .. } => self.top(Place::Shown(player), Place::Hand(player)),
            BankStep::WasteTurnedOver { player } => {
                self.turned_over(Place::Waste(player), Place::Hand(player))
            }
            BankStep::HandTurnedBack { player } => {
                self.turned_over(Place::Hand(player), Place::Waste(player))
            }
            _ => {}
        }
    }

    /// Where each card lands and what it shows there, from the view of the
    /// table after the moves: none when the piles' cards do not agree.
    fn landed(&self, table: &RussianBank) -> Option<HashMap<Entity, (TableCard, CardFace, usize)>> {
        let mut shown = HashMap::new();
        let mut agrees = true;
        for place in places() {
            let entities = self.piles.get(&place).map_or(&[][..], Vec::as_slice);
            let faces = pile(table, place);
            agrees &= faces.len() == entities.len();
            for (index, (&entity, &face)) in entities.iter().zip(&faces).enumerate() {
                shown.insert(entity, (TableCard { place, index }, CardFace(face), faces.len()));
            }
        }
        agrees.then_some(shown)
    }

    /// The top card of `from` goes on top of `to`.
    fn top(&mut self, from: Place, to: Place) {
        let Some(entity) = self.piles.get_mut(&from).and_then(Vec::pop) else { return };
        self.put(entity, to);
        self.clock += 0.6 * self.flight;
    }

    /// The whole of `from` goes to `to`, turned over (a waste becoming a
    /// hand, or back), all at once.
    fn turned_over(&mut self, from: Place, to: Place) {
        let cards = self.piles.remove(&from).unwrap_or_default();
        for entity in cards.into_iter().rev() {
            self.put(entity, to);
        }
        self.clock += self.flight;
    }

    fn put(&mut self, entity: Entity, to: Place) {
        let pile = self.piles.entry(to).or_default();
        let index = pile.len();
        pile.push(entity);
        let end = card_position(to, index).extend(z_of(index));
        let from = self.from.insert(entity, end).unwrap_or(end);
        let glide = self.glides.entry(entity).or_default();
        // A card carried twice (played, then taken back) lands first.
        let start = self.clock.max(glide.end());
        glide.push(Leg { lift: LIFT, ..Leg::new(from, end, start, self.flight) });
    }
}

/// Carries each applied move's cards as its steps say, then shows on every
/// card what the screen's seat sees of it.
pub(super) fn follow_moves(
    mut commands: Commands,
    mut applied: MessageReader<MoveApplied<RussianBank>>,
    session: Res<Session<RussianBank>>,
    mut cards: Cards,
    settings: Res<Settings>,
    mut choice: ResMut<Choice>,
    mut last_stop: ResMut<LastStop>,
    mut redealt: ResMut<Redealt>,
    watch: Res<Watch>,
) {
    let moves: Vec<&MoveApplied<RussianBank>> = applied.read().collect();
    if moves.is_empty() {
        return;
    }
    *choice = Choice { changed: true, ..default() };
    // A turn fast-forwarded flies its cards three times as fast.
    let hurry = if watch.hurry { 3.0 } else { 1.0 };
    let mut carry = Carry::new(&cards, FLIGHT / (hurry * settings.animation_speed.max(0.1)));
    // Every card shows, at the end, what the view has in its place.
    let view = session.view();
    let table = &view.0;
    for step in moves.iter().flat_map(|applied| &applied.steps) {
        if let BankStep::Stopped { by, rule } = *step {
            let (stopper, breaker) = (session.name_of(by), session.name_of(opponent(by)));
            let why = stop_reason(table, opponent(by), breaker, rule);
            let text = format!("{stopper} stopped {breaker}: {why}.");
            // Read through the stopper's turn, then gone.
            last_stop.say(text, session.moves.len(), by);
        }
        carry.follow(step);
    }
    let Some(shown) = carry.landed(table) else {
        // Cards the steps did not account for: deal the table from the view.
        warn!("the table's cards differ from the game after a move; dealt again");
        redealt.0 += 1;
        deal(&mut commands, table, &mut cards);
        return;
    };
    for (entity, mut card, mut face, mut drawn_now, _) in &mut cards {
        let Some(&(slot, new_face, len)) = shown.get(&entity) else { continue };
        card.set_if_neq(slot);
        face.set_if_neq(new_face);
        drawn_now.set_if_neq(visibility(drawn(slot.place, slot.index, len)));
    }
    for (entity, glide) in carry.glides {
        commands.entity(entity).insert(glide);
    }
}

/// Why a Stop was called, with the card that should have moved, from the
/// table as the Stop left it (as it was before the breach).
fn stop_reason(table: &RussianBank, breaker: Player, name: &str, rule: Priority) -> String {
    let side = table.side(breaker);
    let goes_up = |card: &Card| {
        (0..8).any(|n| match table.foundation(n) {
            None => card.rank() == 1,
            Some(top) => top.suit() == card.suit() && card.rank() == top.rank() + 1,
        })
    };
    let reserve = side.reserve.top().map(Card::name);
    let up =
        side.shown.into_iter().chain((0..8).filter_map(|n| table.tableau(n).last().copied())).find(goes_up);
    match (rule, reserve, up) {
        (Priority::ReserveToFoundation, Some(card), _) => {
            format!("the {card} on {name}'s reserve could go up to a foundation, and that comes first")
        }
        (Priority::ToFoundation, _, Some(card)) => {
            format!("the {} could go up to a foundation, and that comes before any other move", card.name())
        }
        (Priority::ReserveBeforeHand, Some(card), _) => {
            format!("the {card} on {name}'s reserve had a move, and the reserve comes before the hand")
        }
        _ => rule.to_string(),
    }
}

/// A Stop refused (nothing was broken), said where a Stop's reason is,
/// so the answer stays while the other plays on: the status line's is
/// overwritten by their next move at once. Of a player not to move, a
/// refusal other than for being out of turn is a Stop's.
pub(super) fn refused_stop(
    mut refused: MessageReader<MoveRefused>,
    session: Res<Session<RussianBank>>,
    mut last_stop: ResMut<LastStop>,
) {
    for refusal in refused.read() {
        let to_move = session.game.current_player();
        if refusal.by != to_move && !refusal.out_of_turn && session.outcome().is_none() {
            let other = session.name_of(to_move);
            let text = match refusal.reason.as_str() {
                // Only the last move may be stopped (a later one lets a
                // breach stand), so that is what the answer is about.
                "no rule was broken" => {
                    format!(
                        "No Stop: {other}'s last move broke no rule of priority (a Stop must come before the next move)."
                    )
                }
                why => format!("No Stop: {why}."),
            };
            last_stop.say(text, session.moves.len(), to_move);
        }
    }
}

/// Ends what was said of the last Stop when the turn passes.
pub(super) fn end_with_the_turn(session: Res<Session<RussianBank>>, mut last_stop: ResMut<LastStop>) {
    let to_move = session.game.current_player();
    // Touched only on a new turn, as change detection would see it.
    if last_stop.to_move != Some(to_move) {
        last_stop.look(to_move);
    }
}

/// A refused move: the card goes back where it came from.
pub(super) fn snap_back(
    mut commands: Commands,
    mut refused: MessageReader<MoveRefused>,
    mut choice: ResMut<Choice>,
    cards: Query<(&TableCard, &Transform)>,
) {
    if refused.read().count() == 0 {
        return;
    }
    if let Some((_, entity)) = choice.chosen.take()
        && let Ok((card, transform)) = cards.get(entity)
    {
        let mut glide = Glide::default();
        let home = card_position(card.place, card.index).extend(z_of(card.index));
        glide.push(Leg::new(transform.translation, home, 0.0, FLIGHT));
        commands.entity(entity).insert(glide);
    }
    choice.dragging = None;
    choice.changed = true;
}
