//! The table, laid once when Russian Bank is shown: the felt, an outline
//! and a label for every pile, each player's name with whose move it is, and
//! a card entity for every card. A new deal, an undo or a restart deals the
//! same card entities anew from the view; a move's steps carry them
//! (`animate`). The labels count the cards the piles hold, and the line
//! under each name follows the turn as announced.

use std::collections::HashMap;

use bevy::prelude::*;
use tabula_engine::Player;
use tabula_engine::russian_bank::{Place, RussianBank};

use super::art::{CARD, CardArt};
use super::cards::spawn_card;
use super::layout::{
    CARDS_AN_EDGE, NAME_X, PLAYER_Y, TABLE, base_position, card_position, pile, places, side_sign, z_of,
};
use super::{CardFace, Choice, Felt, LastStop, PileLabel, PileSlot, SeatLine, SeatName, TableCard};
use crate::app::board::BoardCamera;
use crate::app::board::{fit_view, seat_color};
use crate::app::game::ActiveGame;
use crate::app::glide::Glide;
use crate::app::session::{BoardReset, Session, Turn};

const FELT: Color = Color::srgb(0.09, 0.33, 0.2);
const LABEL: Color = Color::srgb(0.88, 0.93, 0.88);
const SLOT_TINT: Color = Color::srgba(0.85, 1.0, 0.88, 0.6);

/// The card entities, with what a deal sets on them.
pub(super) type Cards<'w, 's> = Query<
    'w,
    's,
    (Entity, &'static mut TableCard, &'static mut CardFace, &'static mut Visibility, &'static mut Transform),
>;

/// The cards of a pile drawn: a deep pile shows its top cards only (the
/// rest lie hidden under them), a tableau pile fans out whole.
pub(super) fn drawn(place: Place, index: usize, len: usize) -> bool {
    match place {
        Place::Tableau(_) => true,
        _ => index >= len.saturating_sub(3 * CARDS_AN_EDGE).min(len.saturating_sub(1)),
    }
}

/// Lays the table on the first reset of a game shown, and deals its cards
/// on every reset (a new deal, an undo, a restart).
pub(super) fn lay_table(
    mut commands: Commands,
    mut resets: MessageReader<BoardReset>,
    session: Res<Session<RussianBank>>,
    laid: Query<(), With<Felt>>,
    mut cards: Cards,
    mut names: Query<(&SeatName, &mut Text2d)>,
    art: Option<Res<CardArt>>,
    mut choice: ResMut<Choice>,
    mut last_stop: ResMut<LastStop>,
    mut cameras: Query<&mut Projection, With<BoardCamera>>,
) {
    if resets.read().count() == 0 {
        return;
    }
    if session.moves.is_empty() {
        last_stop.clear();
    }
    *choice = Choice { changed: true, ..default() };
    if laid.is_empty() {
        fit_view(&mut cameras, TABLE);
        lay_piles(&mut commands, art.as_deref(), &session);
    }
    for (name, mut text) in &mut names {
        if text.0 != session.name_of(name.0) {
            text.0 = session.name_of(name.0).to_owned();
        }
    }
    deal(&mut commands, &session.view().0, &mut cards);
}

/// Puts every card where the view has it, snapped to its place: a card
/// already there stays, the others are taken from those left over. Cards
/// are spawned only for a table with more cards than before (a first deal,
/// a level with a fuller position) and despawned only for one with fewer.
pub(super) fn deal(commands: &mut Commands, table: &RussianBank, cards: &mut Cards) {
    let mut at: HashMap<TableCard, Entity> = cards.iter().map(|(e, card, ..)| (*card, e)).collect();
    let wanted: Vec<(TableCard, CardFace, usize)> = places()
        .flat_map(|place| {
            let shown = pile(table, place);
            let len = shown.len();
            shown
                .into_iter()
                .enumerate()
                .map(move |(index, face)| (TableCard { place, index }, CardFace(face), len))
        })
        .collect();
    let mut open = Vec::new();
    let mut placed = HashMap::new();
    for &(card, face, len) in &wanted {
        match at.remove(&card) {
            Some(entity) => {
                placed.insert(entity, (card, face, len));
            }
            None => open.push((card, face, len)),
        }
    }
    let mut spare: Vec<Entity> = at.into_values().collect();
    spare.sort();
    for (card, face, len) in open {
        match spare.pop() {
            Some(entity) => {
                placed.insert(entity, (card, face, len));
            }
            None => {
                let position = card_position(card.place, card.index).extend(z_of(card.index));
                let entity = spawn_card(commands, card, face, position);
                commands.entity(entity).insert(visibility(drawn(card.place, card.index, len)));
            }
        }
    }
    for entity in spare {
        commands.entity(entity).despawn();
    }
    for (entity, mut card, mut face, mut shown, mut transform) in cards.iter_mut() {
        let Some(&(slot, new_face, len)) = placed.get(&entity) else { continue };
        card.set_if_neq(slot);
        face.set_if_neq(new_face);
        shown.set_if_neq(visibility(drawn(slot.place, slot.index, len)));
        transform.translation = card_position(slot.place, slot.index).extend(z_of(slot.index));
        commands.entity(entity).remove::<Glide>();
    }
}

pub(super) fn visibility(drawn: bool) -> Visibility {
    if drawn { Visibility::Inherited } else { Visibility::Hidden }
}

/// The felt, each pile's outline and label, and each player's name.
fn lay_piles(commands: &mut Commands, art: Option<&CardArt>, session: &Session<RussianBank>) {
    let shown_here = DespawnOnExit(ActiveGame::of::<RussianBank>());
    commands.spawn((
        Felt,
        Sprite::from_color(FELT, TABLE - Vec2::splat(20.0)),
        Transform::from_xyz(0.0, 0.0, -1.0),
        shown_here.clone(),
    ));
    for place in places() {
        commands.spawn((
            PileSlot,
            Sprite {
                image: art.map(|a| a.slot.clone()).unwrap_or_default(),
                color: SLOT_TINT,
                custom_size: Some(CARD),
                ..default()
            },
            Transform::from_translation(base_position(place).extend(0.0)),
            shown_here.clone(),
        ));
        let at = label_position(place);
        commands.spawn((
            PileLabel(place),
            Text2d::new(label_text(place, 0)),
            TextFont::from_font_size(19.0),
            TextColor(LABEL.with_alpha(0.8)),
            Transform::from_xyz(at.x, at.y, 0.5),
            shown_here.clone(),
        ));
    }
    // Each name at the far end of its row, clear of the buttons at the
    // bottom left; whose move it is shows under the name.
    for p in [Player::ONE, Player::TWO] {
        let at = Vec2::new(-side_sign(p) * NAME_X, side_sign(p) * PLAYER_Y);
        commands.spawn((
            SeatName(p),
            Text2d::new(session.name_of(p).to_owned()),
            TextFont::from_font_size(32.0),
            TextColor(seat_color(p.index())),
            Transform::from_xyz(at.x, at.y + 18.0, 3.0),
            shown_here.clone(),
        ));
        commands.spawn((
            SeatLine(p),
            Text2d::new("waits"),
            TextFont::from_font_size(22.0),
            TextColor(LABEL.with_alpha(0.6)),
            Transform::from_xyz(at.x, at.y - 18.0, 3.0),
            shown_here.clone(),
        ));
    }
}

fn label_text(place: Place, count: usize) -> String {
    match place {
        Place::Reserve(_) => format!("Reserve {count}"),
        Place::Hand(_) => format!("Hand {count}"),
        Place::Shown(_) => "Turned".to_owned(),
        Place::Waste(_) => format!("Waste {count}"),
        Place::Tableau(n) => format!("T{n}"),
        Place::Foundation(n) => format!("F{n}"),
    }
}

fn label_position(place: Place) -> Vec2 {
    let base = base_position(place);
    match place {
        Place::Reserve(p) | Place::Hand(p) | Place::Shown(p) | Place::Waste(p) => {
            base - Vec2::new(0.0, side_sign(p) * (CARD.y / 2.0 + 26.0))
        }
        Place::Tableau(n) if n <= 4 => base + Vec2::new(CARD.x / 2.0 + 16.0, 0.0),
        Place::Tableau(_) => base - Vec2::new(CARD.x / 2.0 + 16.0, 0.0),
        Place::Foundation(_) => base,
    }
}

/// The labels count the cards of their piles, once cards have moved; a
/// foundation's name hides under its cards.
pub(super) fn count_piles(
    moved: Query<(), Changed<TableCard>>,
    cards: Query<&TableCard>,
    mut labels: Query<(&PileLabel, &mut Text2d, &mut TextColor)>,
) {
    if moved.is_empty() {
        return;
    }
    let mut counts: HashMap<Place, usize> = HashMap::new();
    for card in &cards {
        *counts.entry(card.place).or_default() += 1;
    }
    for (label, mut text, mut color) in &mut labels {
        let count = counts.get(&label.0).copied().unwrap_or(0);
        let line = label_text(label.0, count);
        if text.0 != line {
            text.0 = line;
        }
        let faint = matches!(label.0, Place::Foundation(_)) && count > 0;
        color.set_if_neq(TextColor(LABEL.with_alpha(if faint { 0.0 } else { 0.8 })));
    }
}

/// The line under each name says who is to move, as the turn was last
/// announced (and for names just laid, as it stands).
pub(super) fn show_turn(
    turn: Res<Turn>,
    laid: Query<(), Added<SeatLine>>,
    mut lines: Query<(&SeatLine, &mut Text2d, &mut TextColor)>,
) {
    if !turn.is_changed() && laid.is_empty() {
        return;
    }
    for (line, mut text, mut color) in &mut lines {
        let to_move = turn.to_move == Some(line.0);
        let (words, alpha) = if to_move { ("to move", 1.0) } else { ("waits", 0.6) };
        if text.0 != words {
            text.0 = words.to_owned();
        }
        color.set_if_neq(TextColor(LABEL.with_alpha(alpha)));
    }
}
