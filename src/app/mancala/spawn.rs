//! The board, spawned anew from the engine's cells when a level (or a game
//! of it) starts: the wooden board, each pit and store with its count and
//! name, a stone entity for every stone, and each player's name on their
//! side.

use bevy::prelude::*;
use tabula_engine::Player;
use tabula_engine::mancala::Mancala;

use super::art::{BEST_RING, BOARD_COLOR, CELL_COLOR, CellTexture, LABEL_COLOR, RingTexture, bead_color};
use super::{
    BestRing, BoardPart, Cell, CellCount, CellTag, LABEL_GAP, MARGIN, MancalaLayout, MarginLabel, NAME_GAP,
    PIT, ROW_Y, STONE, STORE_SIZE, Stone, TAG_GAP,
};
use crate::app::board::BoardCamera;
use crate::app::board::{StoneTexture, clear_on_reset, fit_view, seat_color};
use crate::app::game::ActiveGame;
use crate::app::session::{BoardReset, Session};

type Parts =
    Or<(With<Stone>, With<Cell>, With<CellCount>, With<BoardPart>, With<BestRing>, With<MarginLabel>)>;

/// The images a board is drawn with (none without an asset server).
struct Art {
    stone: Handle<Image>,
    hollow: Handle<Image>,
    ring: Handle<Image>,
}

pub(super) fn rebuild_board(
    mut commands: Commands,
    mut resets: MessageReader<BoardReset>,
    session: Res<Session<Mancala>>,
    old: Query<Entity, Parts>,
    stone_texture: Option<Res<StoneTexture>>,
    (cell_texture, ring_texture): (Option<Res<CellTexture>>, Option<Res<RingTexture>>),
    mut layout: ResMut<MancalaLayout>,
    mut cameras: Query<&mut Projection, With<BoardCamera>>,
) {
    if !clear_on_reset(&mut commands, &mut resets, &old) {
        return;
    }
    let view = session.view();
    let board = &*view;
    let n = board.pits();
    *layout = MancalaLayout::new(n);
    fit_view(&mut cameras, Vec2::new(layout.width, layout.height) + 2.0 * MARGIN);
    let art = Art {
        stone: stone_texture.map(|t| t.0.clone()).unwrap_or_default(),
        hollow: cell_texture.map(|t| t.0.clone()).unwrap_or_default(),
        ring: ring_texture.map(|t| t.0.clone()).unwrap_or_default(),
    };
    commands.spawn((
        BoardPart,
        Sprite::from_color(BOARD_COLOR, Vec2::new(layout.width, STORE_SIZE.y + 50.0)),
        Transform::default(),
        DespawnOnExit(ActiveGame::of::<Mancala>()),
    ));
    // Stones are coloured in turn across the whole board.
    let mut index = 0;
    for cell in 0..2 * n + 2 {
        spawn_cell(&mut commands, &layout, &art, board, cell);
        spawn_tag(&mut commands, &layout, &session, board, cell);
        for slot in 0..board.cells()[cell] as usize {
            spawn_stone(&mut commands, &layout, &art, cell, slot, index);
            index += 1;
        }
    }
    spawn_names(&mut commands, &layout, &session, board);
}

/// A pit or a store, and its count of stones beside it.
fn spawn_cell(commands: &mut Commands, layout: &MancalaLayout, art: &Art, board: &Mancala, cell: usize) {
    let n = board.pits();
    let at = layout.cell_position(cell);
    let size = if layout.is_store(cell) { STORE_SIZE } else { Vec2::splat(PIT) };
    commands.spawn((
        Cell(cell),
        Sprite { image: art.hollow.clone(), color: CELL_COLOR, custom_size: Some(size), ..default() },
        Transform::from_xyz(at.x, at.y, 1.0),
        DespawnOnExit(ActiveGame::of::<Mancala>()),
    ));
    // Over the hollow, under the stones: lit while teaching.
    if !layout.is_store(cell) {
        commands.spawn((
            BestRing(cell),
            Sprite { image: art.ring.clone(), color: BEST_RING, custom_size: Some(size * 1.15), ..default() },
            Transform::from_xyz(at.x, at.y, 1.5),
            Visibility::Hidden,
            DespawnOnExit(ActiveGame::of::<Mancala>()),
        ));
        // On the board's middle, beside the pit's inner edge: the margin
        // stays clear of the stones, the count and the name.
        let toward_middle = if cell < n { 1.0 } else { -1.0 };
        let margin_at = at + Vec2::new(0.0, toward_middle * (PIT / 2.0 + 16.0));
        commands.spawn((
            MarginLabel(cell),
            Text2d::new(""),
            TextFont::from_font_size(19.0),
            TextColor(LABEL_COLOR),
            Transform::from_xyz(margin_at.x, margin_at.y, 3.0),
            Visibility::Hidden,
            DespawnOnExit(ActiveGame::of::<Mancala>()),
        ));
    }
    let label_at = if layout.is_store(cell) {
        at + Vec2::new(0.0, STORE_SIZE.y / 2.0 + 28.0)
    } else if cell < n {
        at - Vec2::new(0.0, LABEL_GAP)
    } else {
        at + Vec2::new(0.0, LABEL_GAP)
    };
    commands.spawn((
        CellCount(cell),
        Text2d::new(board.cells()[cell].to_string()),
        TextFont::from_font_size(if layout.is_store(cell) { 34.0 } else { 26.0 }),
        TextColor(LABEL_COLOR),
        Transform::from_xyz(label_at.x, label_at.y, 3.0),
        DespawnOnExit(ActiveGame::of::<Mancala>()),
    ));
}

/// A cell's tag: pits are tagged by name (A1), stores by whose they are.
fn spawn_tag(
    commands: &mut Commands,
    layout: &MancalaLayout,
    session: &Session<Mancala>,
    board: &Mancala,
    cell: usize,
) {
    let n = board.pits();
    let at = layout.cell_position(cell);
    let (tag, tag_at, color) = if layout.is_store(cell) {
        let owner = if cell == board.store_cell(Player::ONE) { Player::ONE } else { Player::TWO };
        let name = format!("{}'s store", session.name_of(owner));
        (name, at - Vec2::new(0.0, STORE_SIZE.y / 2.0 + 13.0), seat_color(owner.index()))
    } else if cell < n {
        (board.cell_name(cell), at - Vec2::new(0.0, TAG_GAP), LABEL_COLOR.with_alpha(0.55))
    } else {
        (board.cell_name(cell), at + Vec2::new(0.0, TAG_GAP), LABEL_COLOR.with_alpha(0.55))
    };
    commands.spawn((
        BoardPart,
        CellTag(cell),
        Text2d::new(tag),
        TextFont::from_font_size(15.0),
        TextColor(color),
        Transform::from_xyz(tag_at.x, tag_at.y, 3.0),
        DespawnOnExit(ActiveGame::of::<Mancala>()),
    ));
}

/// The stone in `slot` of `cell`, the `index`th of the board.
fn spawn_stone(
    commands: &mut Commands,
    layout: &MancalaLayout,
    art: &Art,
    cell: usize,
    slot: usize,
    index: usize,
) {
    let p = layout.stone_position(cell, slot);
    commands.spawn((
        Stone { cell },
        Sprite {
            image: art.stone.clone(),
            color: bead_color(index),
            custom_size: Some(Vec2::splat(STONE)),
            ..default()
        },
        Transform::from_xyz(p.x, p.y, 2.0 + slot as f32 * 0.001),
        DespawnOnExit(ActiveGame::of::<Mancala>()),
    ));
}

/// Each player's name on their side of the board.
fn spawn_names(commands: &mut Commands, layout: &MancalaLayout, session: &Session<Mancala>, board: &Mancala) {
    for (player, y) in [(Player::ONE, -(ROW_Y + NAME_GAP)), (Player::TWO, ROW_Y + NAME_GAP)] {
        let store = layout.cell_position(board.store_cell(player));
        commands.spawn((
            BoardPart,
            Text2d::new(format!(
                "{} (row {})",
                session.name_of(player),
                if player == Player::ONE { 'A' } else { 'B' }
            )),
            TextFont::from_font_size(30.0),
            TextColor(seat_color(player.index())),
            Transform::from_xyz(store.x * 0.55, y, 3.0),
            DespawnOnExit(ActiveGame::of::<Mancala>()),
        ));
    }
}
