//! The table, built anew from the view after a reset or a move: the felt,
//! an outline for every pile, the cards that show (face up, or their backs
//! in the owner's colour), each pile's label and each player's name. A
//! move's cards then fly from where they were, as its steps say.

use std::collections::HashMap;

use bevy::prelude::*;
use tabula_engine::russian_bank::{BankStep, Card, Place, RussianBank, opponent};
use tabula_engine::{Game, Player};

use super::art::{CARD, CardArt};
use super::layout::{
    CARDS_AN_EDGE, NAME_X, PLAYER_Y, TABLE, base_position, card_position, pile, places, side_sign, z_of,
};
use super::{CardFace, Choice, FLIGHT, Flight, LastStop, PileSlot, TableCard, TablePart, TargetGlow};
use crate::app::BoardCamera;
use crate::app::board::{fit_view, seat_color};
use crate::app::game::ActiveGame;
use crate::app::session::{BoardReset, MoveApplied, Session};
use crate::app::settings::Settings;

const FELT: Color = Color::srgb(0.09, 0.33, 0.2);
const RED_INK: Color = Color::srgb(0.78, 0.08, 0.1);
const BLACK_INK: Color = Color::srgb(0.08, 0.08, 0.1);
const LABEL: Color = Color::srgb(0.88, 0.93, 0.88);
const SLOT_TINT: Color = Color::srgba(0.85, 1.0, 0.88, 0.6);

fn rank_text(card: Card) -> String {
    match card.rank() {
        1 => "A".into(),
        11 => "J".into(),
        12 => "Q".into(),
        13 => "K".into(),
        r => r.to_string(),
    }
}

/// Spawns one card, face up (`Some`) or its back in `owner`'s colour.
fn spawn_card(
    commands: &mut Commands,
    art: Option<&CardArt>,
    card: Option<Card>,
    owner: Player,
    at: Vec3,
) -> Entity {
    let image = art.map(|a| match card {
        Some(_) => a.face.clone(),
        None => a.backs[owner.index()].clone(),
    });
    let sprite = Sprite { image: image.unwrap_or_default(), custom_size: Some(CARD), ..default() };
    let mut entity = commands.spawn((
        sprite,
        CardFace(card),
        Transform::from_translation(at),
        DespawnOnExit(ActiveGame::of::<RussianBank>()),
    ));
    if let Some(card) = card {
        let ink = if card.is_red() { RED_INK } else { BLACK_INK };
        let pip = art.map(|a| a.pip(card.suit())).unwrap_or_default();
        entity.with_children(|parent| {
            // Rank and pip in both top corners: a fan to either side shows one.
            for sx in [-1.0, 1.0] {
                let x = sx * (CARD.x / 2.0 - 16.0);
                parent.spawn((
                    Text2d::new(rank_text(card)),
                    TextFont::from_font_size(25.0),
                    TextColor(ink),
                    Transform::from_xyz(x, CARD.y / 2.0 - 19.0, 0.02),
                ));
                parent.spawn((
                    Sprite {
                        image: pip.clone(),
                        color: ink,
                        custom_size: Some(Vec2::splat(19.0)),
                        ..default()
                    },
                    Transform::from_xyz(x, CARD.y / 2.0 - 43.0, 0.02),
                ));
            }
            parent.spawn((
                Sprite { image: pip, color: ink, custom_size: Some(Vec2::splat(46.0)), ..default() },
                Transform::from_xyz(0.0, -16.0, 0.02),
            ));
        });
    }
    entity.id()
}

/// Which pile a card's back belongs to: the owner's colour.
fn owner_of(place: Place) -> Player {
    match place {
        Place::Reserve(p) | Place::Hand(p) | Place::Shown(p) | Place::Waste(p) => p,
        Place::Tableau(n) if n <= 4 => Player::ONE,
        Place::Tableau(_) | Place::Foundation(_) => Player::TWO,
    }
}

type TableEntities = Or<(With<TableCard>, With<PileSlot>, With<TablePart>, With<TargetGlow>)>;

/// Builds the whole table from the view after a reset or a move; a move's
/// cards then fly from where they were, as its steps say.
#[allow(clippy::too_many_arguments)]
pub(super) fn rebuild_table(
    mut commands: Commands,
    mut resets: MessageReader<BoardReset>,
    mut applied: MessageReader<MoveApplied<RussianBank>>,
    session: Res<Session<RussianBank>>,
    old: Query<Entity, TableEntities>,
    flying: Query<Entity, With<Flight>>,
    art: Option<Res<CardArt>>,
    settings: Res<Settings>,
    mut choice: ResMut<Choice>,
    mut last_stop: ResMut<LastStop>,
    mut cameras: Query<&mut Projection, With<BoardCamera>>,
) {
    let reset = resets.read().count() > 0;
    let moves: Vec<MoveApplied<RussianBank>> = applied.read().cloned().collect();
    if !reset && moves.is_empty() {
        return;
    }
    if reset && session.moves.is_empty() {
        last_stop.0 = None;
    }
    for applied in &moves {
        for step in &applied.steps {
            if let BankStep::Stopped { by, rule } = step {
                let (stopper, breaker) = (session.name_of(*by), session.name_of(opponent(*by)));
                last_stop.0 = Some(format!("{stopper} stopped {breaker}: {rule}."));
            }
        }
    }
    for entity in old.iter().chain(flying.iter()) {
        commands.entity(entity).despawn();
    }
    *choice = Choice { dropped: choice.dropped.take(), ..default() };
    fit_view(&mut cameras, TABLE);
    let view = session.view();
    let table = &view.0;
    let art = art.as_deref();
    let mut tops: HashMap<Place, Entity> = HashMap::new();
    commands.spawn((
        TablePart,
        Sprite::from_color(FELT, TABLE - Vec2::splat(20.0)),
        Transform::from_xyz(0.0, 0.0, -1.0),
        DespawnOnExit(ActiveGame::of::<RussianBank>()),
    ));
    for place in places() {
        let base = base_position(place);
        commands.spawn((
            PileSlot,
            Sprite {
                image: art.map(|a| a.slot.clone()).unwrap_or_default(),
                color: SLOT_TINT,
                custom_size: Some(CARD),
                ..default()
            },
            Transform::from_translation(base.extend(0.0)),
            DespawnOnExit(ActiveGame::of::<RussianBank>()),
        ));
        let cards = pile(table, place);
        // Deep piles: only the cards that show are drawn.
        let first_drawn = match place {
            Place::Tableau(_) => 0,
            _ => cards.len().saturating_sub(3 * CARDS_AN_EDGE).min(cards.len().saturating_sub(1)),
        };
        for (index, card) in cards.iter().enumerate().skip(first_drawn) {
            let at = card_position(place, index).extend(z_of(index));
            let entity = spawn_card(&mut commands, art, *card, owner_of(place), at);
            commands.entity(entity).insert(TableCard { place, index });
            if index + 1 == cards.len() {
                tops.insert(place, entity);
            }
        }
        spawn_label(&mut commands, place, cards.len());
    }
    // Each name at the far end of its row, clear of the buttons at the
    // bottom left; whose move it is shows under the name.
    for p in [Player::ONE, Player::TWO] {
        let at = Vec2::new(-side_sign(p) * NAME_X, side_sign(p) * PLAYER_Y);
        let to_move = table.outcome().is_none() && table.current_player() == p;
        commands.spawn((
            TablePart,
            Text2d::new(session.name_of(p).to_owned()),
            TextFont::from_font_size(32.0),
            TextColor(seat_color(p.index())),
            Transform::from_xyz(at.x, at.y + 18.0, 3.0),
            DespawnOnExit(ActiveGame::of::<RussianBank>()),
        ));
        let (line, alpha) = if to_move { ("to move", 1.0) } else { ("waits", 0.6) };
        commands.spawn((
            TablePart,
            Text2d::new(line),
            TextFont::from_font_size(22.0),
            TextColor(LABEL.with_alpha(alpha)),
            Transform::from_xyz(at.x, at.y - 18.0, 3.0),
            DespawnOnExit(ActiveGame::of::<RussianBank>()),
        ));
    }
    let speed = settings.animation_speed.max(0.1);
    let mut clock = 0.0;
    for applied in &moves {
        for step in &applied.steps {
            let (card, from, to) = match *step {
                BankStep::Moved { card, from, to } | BankStep::TakenBack { card, from, to } => {
                    (Some(card), from, to)
                }
                BankStep::HandTurned { player, card } => {
                    (Some(card), Place::Hand(player), Place::Shown(player))
                }
                BankStep::HandReturned { player, .. } => (None, Place::Shown(player), Place::Hand(player)),
                BankStep::WasteTurnedOver { player } => (None, Place::Waste(player), Place::Hand(player)),
                BankStep::HandTurnedBack { player } => (None, Place::Hand(player), Place::Waste(player)),
                _ => continue,
            };
            let start = match choice.dropped.take() {
                Some((place, at)) if place == from => at,
                _ => card_position(from, pile(table, from).len()),
            };
            let end = card_position(to, pile(table, to).len().saturating_sub(1));
            let shows = tops.get(&to).copied();
            if let Some(entity) = shows {
                commands.entity(entity).insert(Visibility::Hidden);
            }
            let ghost = spawn_card(&mut commands, art, card, owner_of(from), start.extend(50.0));
            commands.entity(ghost).insert(Flight {
                from: start.extend(50.0),
                to: end.extend(50.0),
                delay: clock,
                elapsed: 0.0,
                duration: FLIGHT / speed,
                shows,
                ghost: true,
            });
            clock += 0.6 * FLIGHT / speed;
        }
    }
    choice.dropped = None;
}

fn spawn_label(commands: &mut Commands, place: Place, count: usize) {
    let name = match place {
        Place::Reserve(_) => format!("Reserve {count}"),
        Place::Hand(_) => format!("Hand {count}"),
        Place::Shown(_) => "Turned".to_owned(),
        Place::Waste(_) => format!("Waste {count}"),
        Place::Tableau(n) => format!("T{n}"),
        Place::Foundation(n) => format!("F{n}"),
    };
    let base = base_position(place);
    let at = match place {
        Place::Reserve(p) | Place::Hand(p) | Place::Shown(p) | Place::Waste(p) => {
            base - Vec2::new(0.0, side_sign(p) * (CARD.y / 2.0 + 26.0))
        }
        Place::Tableau(n) if n <= 4 => base + Vec2::new(CARD.x / 2.0 + 16.0, 0.0),
        Place::Tableau(_) => base - Vec2::new(CARD.x / 2.0 + 16.0, 0.0),
        Place::Foundation(_) => base,
    };
    let faint = matches!(place, Place::Foundation(_)) && count > 0;
    commands.spawn((
        TablePart,
        Text2d::new(name),
        TextFont::from_font_size(19.0),
        TextColor(LABEL.with_alpha(if faint { 0.0 } else { 0.8 })),
        Transform::from_xyz(at.x, at.y, 0.5),
        DespawnOnExit(ActiveGame::of::<RussianBank>()),
    ));
}
