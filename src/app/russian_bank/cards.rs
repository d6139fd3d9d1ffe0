//! A card entity and what it shows. Each card carries its rank and pip marks
//! as children from the start; its face (`CardFace`) decides whether they
//! show and what they say, or whether the card shows its back in its owner's
//! colour. A card turned up or down is painted again, never spawned again.

use bevy::prelude::*;
use tabula_engine::Player;
use tabula_engine::russian_bank::{Place, RussianBank};

use super::art::{CARD, CardArt};
use super::{CardFace, TableCard};
use crate::app::game::ActiveGame;

const RED_INK: Color = Color::srgb(0.78, 0.08, 0.1);
const BLACK_INK: Color = Color::srgb(0.08, 0.08, 0.1);
/// The big pip in the middle of a face, and the small ones under the ranks.
const BIG_PIP: f32 = 46.0;
const SMALL_PIP: f32 = 19.0;

/// A mark on a card's face: its rank in a corner, or a pip.
#[derive(Component, Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum CardMark {
    Rank,
    Pip,
}

/// Whose colour a card's back is: the owner of the pile it lies in. Only a
/// reserve's and a hand's cards lie face down, and they are their owner's.
pub(super) fn owner_of(place: Place) -> Player {
    match place {
        Place::Reserve(p) | Place::Hand(p) | Place::Shown(p) | Place::Waste(p) => p,
        Place::Tableau(n) if n <= 4 => Player::ONE,
        Place::Tableau(_) | Place::Foundation(_) => Player::TWO,
    }
}

/// Spawns a card with its marks; `paint_faces` paints it as `face` says.
pub(super) fn spawn_card(commands: &mut Commands, card: TableCard, face: CardFace, at: Vec3) -> Entity {
    let sprite = Sprite { custom_size: Some(CARD), ..default() };
    let mut entity = commands.spawn((
        sprite,
        card,
        face,
        Transform::from_translation(at),
        DespawnOnExit(ActiveGame::of::<RussianBank>()),
    ));
    entity.with_children(|parent| {
        // Rank and pip in both top corners: a fan to either side shows one.
        for sx in [-1.0, 1.0] {
            let x = sx * (CARD.x / 2.0 - 16.0);
            parent.spawn((
                CardMark::Rank,
                Text2d::default(),
                TextFont::from_font_size(25.0),
                Transform::from_xyz(x, CARD.y / 2.0 - 19.0, 0.02),
            ));
            parent.spawn((
                CardMark::Pip,
                Sprite { custom_size: Some(Vec2::splat(SMALL_PIP)), ..default() },
                Transform::from_xyz(x, CARD.y / 2.0 - 43.0, 0.02),
            ));
        }
        parent.spawn((
            CardMark::Pip,
            Sprite { custom_size: Some(Vec2::splat(BIG_PIP)), ..default() },
            Transform::from_xyz(0.0, -16.0, 0.02),
        ));
    });
    entity.id()
}

type Marks<'w, 's> = Query<
    'w,
    's,
    (
        &'static CardMark,
        &'static mut Visibility,
        Option<&'static mut Text2d>,
        Option<&'static mut TextColor>,
        Option<&'static mut Sprite>,
    ),
    Without<TableCard>,
>;

/// Paints each card whose face changed (or that was just dealt): its face
/// with rank and pips in red or black ink, or its back.
pub(super) fn paint_faces(
    art: Option<Res<CardArt>>,
    mut cards: Query<(&CardFace, &TableCard, &mut Sprite, &Children), Changed<CardFace>>,
    mut marks: Marks,
) {
    let art = art.as_deref();
    for (face, card, mut sprite, children) in &mut cards {
        if let Some(art) = art {
            sprite.image = match face.0 {
                Some(_) => art.face.clone(),
                None => art.backs[owner_of(card.place).index()].clone(),
            };
        }
        for &child in children {
            let Ok((mark, mut visibility, text, color, pip)) = marks.get_mut(child) else { continue };
            let Some(shown) = face.0 else {
                *visibility = Visibility::Hidden;
                continue;
            };
            *visibility = Visibility::Inherited;
            let ink = if shown.is_red() { RED_INK } else { BLACK_INK };
            match mark {
                CardMark::Rank => {
                    if let (Some(mut text), Some(mut color)) = (text, color) {
                        text.0 = shown.rank_name();
                        color.0 = ink;
                    }
                }
                CardMark::Pip => {
                    if let Some(mut pip) = pip {
                        pip.image = art.map(|a| a.pip(shown.suit())).unwrap_or_default();
                        pip.color = ink;
                    }
                }
            }
        }
    }
}
