//! A human's hands on the table: a card dragged, or clicked and then a
//! pile clicked; the piles the chosen card may go to light up; a click on
//! the hand turns it; keys for the hand, the waste, the end of a turn, Stop!
//! and the next deal. The top bar says what the human may do now.

use std::ops::ControlFlow;

use bevy::ecs::system::SystemParam;
use bevy::prelude::*;
use tabula_engine::russian_bank::{BankMove, Place, RussianBank, Source, Target};
use tabula_engine::{Game, Player};

use super::art::{CARD, CardArt};
use super::deals::{BankMatch, next_deal_plan};
use super::layout::{card_position, pile, place_at, source_of, target_of, z_of};
use super::{Choice, TableCard, TargetGlow};
use crate::app::board::BoardPointer;
use crate::app::game::ActiveGame;
use crate::app::session::{BoardBusy, MovePreview, RequestMove, Session, SessionRequest, StatusLine, Watch};

// Bright enough to find at a glance on the felt (a stranger found 0.45 faint).
const TARGET_GLOW: Color = Color::srgba(0.5, 1.0, 0.45, 0.85);
const CHOSEN_TINT: Color = Color::srgb(1.0, 0.95, 0.6);

/// The human seat this screen acts for, and whether it is their turn.
pub(super) fn me(session: &Session<RussianBank>) -> Option<Player> {
    session.requester()
}

/// The moves `me` may make with the chosen card, by target place.
fn targets(table: &RussianBank, me: Player, from: Source) -> Vec<(Place, BankMove)> {
    let mut moves = Vec::new();
    table.legal_moves(me, &mut moves);
    moves
        .into_iter()
        .filter_map(|mv| match mv {
            BankMove::Play { from: f, to } if f == from => Some((to.place(me), mv)),
            _ => None,
        })
        .collect()
}

/// What a human's hands change: the chosen card, the cards' places, the
/// moves asked for, and the status line (for a card taken out of turn).
#[derive(SystemParam)]
pub(super) struct Hands<'w, 's> {
    choice: ResMut<'w, Choice>,
    cards: Query<'w, 's, (Entity, &'static TableCard, &'static mut Transform)>,
    requests: MessageWriter<'w, RequestMove<RussianBank>>,
    status: ResMut<'w, StatusLine>,
}

pub(super) fn handle_pointer(
    pointer: BoardPointer,
    mouse: Res<ButtonInput<MouseButton>>,
    session: Res<Session<RussianBank>>,
    busy: Res<BoardBusy>,
    mut hands: Hands,
) {
    let Some(me) = me(&session) else { return };
    let Some(point) = pointer.world() else { return };
    // A held card follows the pointer.
    if let (Some((_, entity)), Some(offset)) = (hands.choice.chosen, hands.choice.dragging)
        && let Ok((_, _, mut transform)) = hands.cards.get_mut(entity)
    {
        transform.translation = (point + offset).extend(60.0);
    }
    if mouse.just_pressed(MouseButton::Right) {
        hands.cancel();
        return;
    }
    if !mouse.just_pressed(MouseButton::Left) && !mouse.just_released(MouseButton::Left) {
        return;
    }
    // The table is read only when the mouse does something: the view is a
    // copy of the whole game.
    let view = session.view();
    let table = &view.0;
    if mouse.just_pressed(MouseButton::Left) && hands.press(me, point, table, &session, busy.0 > 0).is_break()
    {
        return;
    }
    if mouse.just_released(MouseButton::Left) {
        hands.release(me, point, table);
    }
}

impl Hands<'_, '_> {
    /// A left press: with a card chosen by a click, on its target; else on
    /// a card to take, or on the hand to turn it. Breaks when the press is
    /// all the mouse did.
    fn press(
        &mut self,
        me: Player,
        point: Vec2,
        table: &RussianBank,
        session: &Session<RussianBank>,
        busy: bool,
    ) -> ControlFlow<()> {
        self.choice.pressed_at = Some(point);
        let place = place_at(table, point);
        // With a card chosen by a click, a click elsewhere is its target.
        if let Some((from, entity)) = self.choice.chosen
            && self.choice.dragging.is_none()
        {
            let target = place.filter(|&p| p != from.place(me)).and_then(|p| target_of(me, p));
            match target {
                Some(to) => {
                    self.requests.write(RequestMove { by: me, mv: BankMove::Play { from, to } });
                    self.choice.chosen = Some((from, entity));
                }
                None => self.cancel(),
            }
            self.choice.pressed_at = None;
            return ControlFlow::Break(());
        }
        if busy {
            return ControlFlow::Break(());
        }
        match place {
            Some(Place::Hand(p)) if p == me => {
                self.requests.write(RequestMove { by: me, mv: BankMove::TurnHand });
            }
            Some(place) => return self.take(me, place, point, table, session),
            None => {}
        }
        ControlFlow::Continue(())
    }

    /// Takes the top card of `place` in hand, to drag it or to click its
    /// target, if it is `me`'s turn. Breaks when it cannot be taken.
    fn take(
        &mut self,
        me: Player,
        place: Place,
        point: Vec2,
        table: &RussianBank,
        session: &Session<RussianBank>,
    ) -> ControlFlow<()> {
        let Some(from) = source_of(me, place) else { return ControlFlow::Break(()) };
        let top = self
            .cards
            .iter()
            .filter(|(_, c, _)| c.place == place)
            .max_by_key(|(_, c, _)| c.index)
            .map(|(e, _, t)| (e, t.translation.truncate()));
        if let Some((entity, at)) = top {
            if table.current_player() != me {
                self.status.error(if session.level.stop_rule {
                    "It is not your turn (S calls Stop!)"
                } else {
                    "It is not your turn"
                });
                return ControlFlow::Break(());
            }
            self.choice.chosen = Some((from, entity));
            self.choice.dragging = Some(at - point);
            self.choice.changed = true;
        }
        ControlFlow::Continue(())
    }

    /// A left release with a card held: dropped on a pile, its move is
    /// asked for; not moved, it was a click, and the card stays chosen.
    fn release(&mut self, me: Player, point: Vec2, table: &RussianBank) {
        let (Some((from, entity)), Some(_)) = (self.choice.chosen, self.choice.dragging) else { return };
        let moved = self.choice.pressed_at.is_some_and(|p| p.distance(point) > 8.0);
        self.choice.dragging = None;
        if !moved {
            // A click: the card stays chosen, waiting for a click on a pile.
            if let Ok((_, card, mut transform)) = self.cards.get_mut(entity) {
                transform.translation = card_position(card.place, card.index).extend(60.0);
            }
            return;
        }
        let source_place = from.place(me);
        let target = place_at(table, point).filter(|&p| p != source_place).and_then(|p| target_of(me, p));
        match target {
            Some(to) => {
                self.requests.write(RequestMove { by: me, mv: BankMove::Play { from, to } });
            }
            None => self.cancel(),
        }
    }

    /// Puts the chosen card back and forgets it.
    fn cancel(&mut self) {
        if let Some((_, entity)) = self.choice.chosen.take()
            && let Ok((_, card, mut transform)) = self.cards.get_mut(entity)
        {
            transform.translation = card_position(card.place, card.index).extend(z_of(card.index));
        }
        self.choice.dragging = None;
        self.choice.changed = true;
    }
}

pub(super) fn handle_keys(
    keys: Res<ButtonInput<KeyCode>>,
    session: Res<Session<RussianBank>>,
    mut requests: MessageWriter<RequestMove<RussianBank>>,
    mut next_deal: MessageWriter<SessionRequest>,
    bank_match: Res<BankMatch>,
    mut watch: ResMut<Watch>,
    mut status: ResMut<StatusLine>,
) {
    let ctrl = keys.any_pressed([KeyCode::ControlLeft, KeyCode::ControlRight]);
    // F: the agent to move finishes its turn quickly, with or without a
    // person at the table.
    if keys.just_pressed(KeyCode::KeyF) && session.outcome().is_none() && !session.kind.steps_through() {
        watch.hurry = !session.is_human(session.game.current_player());
    }
    let Some(me) = me(&session) else { return };
    let mv = if keys.just_pressed(KeyCode::KeyH) {
        Some(BankMove::TurnHand)
    } else if keys.just_pressed(KeyCode::KeyW) {
        Some(BankMove::Play { from: Source::Hand, to: Target::Waste })
    } else if keys.just_pressed(KeyCode::KeyE) {
        Some(BankMove::EndTurn)
    } else if keys.just_pressed(KeyCode::KeyS) && !ctrl && session.level.stop_rule {
        Some(BankMove::Stop)
    } else {
        None
    };
    match mv {
        Some(BankMove::Stop) if !session.redo.is_empty() => {
            status.error("Stop! catches a slip as it is made, not at a move stepped back to in the log");
        }
        Some(mv) => {
            let by = if mv == BankMove::Stop { stopper(&session).unwrap_or(me) } else { me };
            requests.write(RequestMove { by, mv });
        }
        None => {}
    }
    if keys.just_pressed(KeyCode::KeyN) && session.outcome().is_some() && session.kind.plays_here() {
        next_deal.write(SessionRequest::Start(Box::new(next_deal_plan(&session, &bank_match))));
    }
}

/// The human who would call Stop now: one not to move, in a game with
/// the Stop rule.
pub(super) fn stopper(session: &Session<RussianBank>) -> Option<Player> {
    // Nothing to stop once the game is over, by the rules or called off the
    // board (a resignation, a flag on the clock), nor in a replay, nor at a
    // move stepped back to in the log: a slip seen later is not caught.
    if !session.level.stop_rule
        || session.outcome().is_some()
        || session.kind.steps_through()
        || !session.redo.is_empty()
    {
        return None;
    }
    let to_move = session.game.current_player();
    [Player::ONE, Player::TWO].into_iter().find(|&p| p != to_move && session.is_human(p))
}

/// Lights the piles the chosen card may go to, and marks the card.
pub(super) fn light_targets(
    mut commands: Commands,
    mut choice: ResMut<Choice>,
    session: Res<Session<RussianBank>>,
    glows: Query<Entity, With<TargetGlow>>,
    mut sprites: Query<&mut Sprite, With<TableCard>>,
    art: Option<Res<CardArt>>,
) {
    if !choice.changed {
        return;
    }
    choice.changed = false;
    for entity in &glows {
        commands.entity(entity).despawn();
    }
    for mut sprite in &mut sprites {
        sprite.color = Color::WHITE;
    }
    let (Some((from, entity)), Some(me)) = (choice.chosen, me(&session)) else { return };
    if let Ok(mut sprite) = sprites.get_mut(entity) {
        sprite.color = CHOSEN_TINT;
    }
    let view = session.view();
    for (place, _) in targets(&view.0, me, from) {
        let len = pile(&view.0, place).len();
        let at = card_position(place, len.saturating_sub(1));
        commands.spawn((
            TargetGlow,
            Sprite {
                image: art.as_ref().map(|a| a.slot.clone()).unwrap_or_default(),
                color: TARGET_GLOW,
                custom_size: Some(CARD + Vec2::splat(14.0)),
                ..default()
            },
            Transform::from_translation(at.extend(40.0)),
            DespawnOnExit(ActiveGame::of::<RussianBank>()),
        ));
    }
}

/// The top bar's line on what the human may do now.
pub(super) fn describe_choice(
    session: Res<Session<RussianBank>>,
    choice: Res<Choice>,
    mut preview: ResMut<MovePreview>,
) {
    let view = session.view();
    let table = &view.0;
    let text = match (me(&session), choice.chosen) {
        // Where the game is not played here, again is a rematch (the end
        // band's).
        _ if table.outcome().is_some() && !session.kind.plays_here() => String::new(),
        _ if table.outcome().is_some() => "N deals again".to_owned(),
        (Some(me), Some((from, _))) => {
            let card = table.source_card(me, from).map(|c| c.name()).unwrap_or_default();
            let n = targets(table, me, from).len();
            match n {
                0 => format!("The {card} has nowhere to go: right-click to put it back"),
                _ => format!("The {card}: drop it on a lit pile ({n}); right-click to put it back"),
            }
        }
        (Some(me), None) if table.current_player() == me => {
            "Drag a card to a pile, or click your hand to turn it".to_owned()
        }
        (Some(_), None) if session.level.stop_rule => {
            "The other player's turn: press S (Stop!) if you see priority broken".to_owned()
        }
        (Some(_), None) => "The other player's turn".to_owned(),
        (None, _) => String::new(),
    };
    if preview.0 != text {
        preview.0 = text;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::app::session::{Controller, SeatSetup, SessionPlan};
    use tabula_engine::Outcome;

    #[test]
    fn stop_is_offered_only_while_the_game_is_on() {
        let path = crate::app::levels::library::levels_root().join("russian_bank/01-shuffled-deal.ron");
        let level = tabula_engine::level::load(&path).unwrap();
        let seats = ["Ann", "Bob"]
            .map(|name| SeatSetup { name: name.into(), controller: Controller::Human })
            .to_vec();
        let plan =
            SessionPlan { level_path: None, level: level.clone(), seats, seed: 3, replay: None, deal: false };
        let mut session =
            Session::<RussianBank>::new(&plan, level.get::<RussianBank>().unwrap().clone()).unwrap();
        assert!(stopper(&session).is_some(), "the other's turn: Stop! is offered");
        // Stepped back through the log to a past move: the moves after it
        // are still ahead, and a slip there is not caught by going back.
        let mut past =
            Session::<RussianBank>::new(&plan, level.get::<RussianBank>().unwrap().clone()).unwrap();
        past.redo.push(BankMove::TurnHand);
        assert_eq!(stopper(&past), None, "no Stop! at a move stepped back to");
        session.called = Some(Outcome::Win(Player::ONE));
        assert_eq!(stopper(&session), None, "a game resigned at a server's table: no Stop! after the end");
    }
}
