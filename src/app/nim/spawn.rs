//! The rows of the board, spawned anew from the engine's piles when a level
//! (or a game of it) starts: for each pile its row, its name, its count and
//! a stone entity for each stone drawn.

use bevy::prelude::*;
use bevy::sprite::Anchor;
use tabula_engine::nim::Nim;

use super::{
    DRAWN_STONES, LABEL_COLOR, LABEL_WIDTH, Label, MARGIN, NimChoice, NimLayout, PileCount, PileRow,
    ROW_COLOR, ROW_HEIGHT, STONE, STONE_COLOR, Stone,
};
use crate::app::board::BoardCamera;
use crate::app::board::{StoneTexture, clear_on_reset, fit_view};
use crate::app::game::ActiveGame;
use crate::app::session::{BoardReset, Session};

type BoardEntities = Or<(With<Stone>, With<PileRow>, With<PileCount>, With<Label>)>;

/// Spawns the board anew from the engine state.
pub(super) fn rebuild_board(
    mut commands: Commands,
    mut resets: MessageReader<BoardReset>,
    session: Res<Session<Nim>>,
    old: Query<Entity, BoardEntities>,
    texture: Option<Res<StoneTexture>>,
    mut layout: ResMut<NimLayout>,
    mut choice: ResMut<NimChoice>,
    mut cameras: Query<&mut Projection, With<BoardCamera>>,
) {
    if !clear_on_reset(&mut commands, &mut resets, &old) {
        return;
    }
    let view = session.view();
    let piles = view.piles();
    // Laid out for the level's piles, not the ones left: after an undo or
    // a replay step the rows and stones keep their size and place.
    *layout = NimLayout::new(&session.level.piles);
    fit_view(&mut cameras, Vec2::new(layout.width, layout.height) + 2.0 * MARGIN);
    let image = texture.map(|t| t.0.clone()).unwrap_or_default();
    for (pile, &n) in piles.iter().enumerate() {
        let y = layout.row_y(pile);
        commands.spawn((
            PileRow(pile),
            Sprite::from_color(ROW_COLOR, Vec2::new(layout.width, ROW_HEIGHT - 8.0)),
            Transform::from_xyz(0.0, y, 0.0),
            DespawnOnExit(ActiveGame::of::<Nim>()),
        ));
        commands.spawn((
            Label { world_size: 26.0 },
            Text2d::new(format!("Pile {}", pile + 1)),
            TextFont::from_font_size(26.0),
            TextColor(LABEL_COLOR),
            // Right-aligned so a label enlarged for small boards grows away
            // from the stones.
            Anchor::CENTER_RIGHT,
            Transform::from_xyz(layout.left() + LABEL_WIDTH - 16.0, y, 1.0),
            DespawnOnExit(ActiveGame::of::<Nim>()),
        ));
        commands.spawn((
            PileCount(pile),
            Label { world_size: 30.0 },
            Text2d::new(n.to_string()),
            TextFont::from_font_size(30.0),
            TextColor(LABEL_COLOR),
            Anchor::CENTER_RIGHT,
            Transform::from_xyz(layout.width / 2.0 - 14.0, y, 1.0),
            DespawnOnExit(ActiveGame::of::<Nim>()),
        ));
        for slot in 0..n.min(DRAWN_STONES) {
            let pos = layout.stone_position(pile, slot);
            commands.spawn((
                Stone { pile, slot },
                Sprite {
                    image: image.clone(),
                    color: STONE_COLOR,
                    custom_size: Some(Vec2::splat(STONE.min(layout.spacing * 0.92).max(14.0))),
                    ..default()
                },
                Transform::from_xyz(pos.x, pos.y, 2.0),
                DespawnOnExit(ActiveGame::of::<Nim>()),
            ));
        }
    }
    choice.pile = choice.pile.min(piles.len() - 1);
    choice.armed = false;
    choice.count = choice.count.clamp(1, piles[choice.pile].max(1));
}
