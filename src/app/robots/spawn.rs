//! The board's entities, spawned once when a level (or a game of it)
//! starts: a tile entity for every tile, its chevron, label, broken robot
//! or home ring as children; a robot entity for every robot, with its nose,
//! letters and hint arrow as children. Moves change these entities' facts
//! and places; they never spawn the board again.

use std::f32::consts::FRAC_PI_4;

use bevy::prelude::*;
use tabula_engine::robots::{Robots, RuleSet, Tile, column_name};

use super::animate::{Chevron, Heading, HintMark, Nose, ShownBoard, Spark};
use super::art::{self, ChevronTexture, RingTexture};
use super::input::{Destination, RobotChoice, SwapMark};
use super::zoom::{BoardView, ZoomScaled};
use super::{
    BoardTile, EdgeLabel, Facing, HeldHints, HintBearing, HintLabel, Owner, ROBOT, RobotLayout, RobotPiece,
    Rule, TILE, TileKind, TilePos, angle,
};
use crate::app::board::BoardCamera;
use crate::app::board::{StoneTexture, clear_on_reset, fit_view, seat_color};
use crate::app::game::ActiveGame;
use crate::app::session::{BoardReset, Session};

const MARGIN: f32 = 48.0;
/// Boards larger than this many tiles go without "?" labels on hint tiles
/// in the editor, which shows the whole board.
const LABELLED_TILES: usize = 40 * 40;
/// The game's board labels its hint tiles when it has no more than this
/// many (each label is a text entity).
const MAX_HINT_LABELS: usize = 4096;

type BoardParts =
    Or<(With<BoardTile>, With<RobotPiece>, With<Destination>, With<SwapMark>, With<Spark>, With<EdgeLabel>)>;

/// The textures the board is drawn with (plain sprites without them).
struct Art {
    stone: Handle<Image>,
    chevron: Handle<Image>,
    ring: Handle<Image>,
}

pub(super) fn spawn_board(
    mut commands: Commands,
    mut resets: MessageReader<BoardReset>,
    session: Res<Session<Robots>>,
    old: Query<Entity, BoardParts>,
    stone: Option<Res<StoneTexture>>,
    chevron: Option<Res<ChevronTexture>>,
    ring: Option<Res<RingTexture>>,
    mut layout: ResMut<RobotLayout>,
    mut choice: ResMut<RobotChoice>,
    mut shown: ResMut<ShownBoard>,
    mut cameras: Query<&mut Projection, With<BoardCamera>>,
    mut zoom: ResMut<BoardView>,
) {
    if !clear_on_reset(&mut commands, &mut resets, &old) {
        return;
    }
    let view = session.view();
    let board = &*view;
    *layout = RobotLayout { width: board.width(), height: board.height() };
    *zoom = BoardView::default();
    // On a large board robots, homes and labels are drawn bigger than a
    // tile while the whole board shows (see `zoom`), the margin with them.
    let marker = zoom.marker(board.width().max(board.height()));
    let size = Vec2::new(board.width() as f32, board.height() as f32) * TILE;
    fit_view(&mut cameras, size + 2.0 * MARGIN * marker);
    *choice = RobotChoice::default();
    let art = Art {
        stone: stone.map(|t| t.0.clone()).unwrap_or_default(),
        chevron: chevron.map(|t| t.0.clone()).unwrap_or_default(),
        ring: ring.map(|t| t.0.clone()).unwrap_or_default(),
    };
    let hints = (0..board.height())
        .flat_map(|y| (0..board.width()).map(move |x| (x, y)))
        .filter(|&p| board.tile(p) == Tile::Hint)
        .count();
    let labels = hints <= MAX_HINT_LABELS;
    for y in 0..board.height() {
        for x in 0..board.width() {
            spawn_tile(&mut commands, board, &layout, &art, (x, y), marker, labels);
        }
    }
    for robot in board.robots() {
        spawn_robot(&mut commands, board, robot, &layout, &art, marker);
    }
    spawn_edge_labels(&mut commands, &layout, MARGIN / 2.0 * marker);
    shown.0 = Some(board.clone());
}

fn on_exit() -> DespawnOnExit<ActiveGame> {
    DespawnOnExit(ActiveGame::of::<Robots>())
}

fn spawn_tile(
    commands: &mut Commands,
    board: &Robots,
    layout: &RobotLayout,
    art: &Art,
    p: (u16, u16),
    marker: f32,
    labels: bool,
) {
    let at = layout.position(p);
    let kind = board.tile(p);
    let ground = if (p.0 + p.1).is_multiple_of(2) { art::GROUND } else { art::GROUND_ALT };
    let color = match kind {
        Tile::Hint => art::HINT_TILE,
        Tile::Broken => art::BROKEN_TILE,
        Tile::Conveyor(_) => art::BELT_TILE,
        _ => ground,
    };
    let mut tile = commands.spawn((
        BoardTile,
        TilePos(p),
        TileKind(kind),
        Sprite::from_color(color, Vec2::splat(TILE - 2.0)),
        Transform::from_xyz(at.x, at.y, 0.0),
        on_exit(),
    ));
    match kind {
        Tile::Hint if labels => {
            // Shown once a tile is large enough on screen to read it (`zoom`).
            tile.with_child((HintLabel, hint_label()));
        }
        Tile::Broken => {
            tile.with_child(broken_body(&art.stone));
            for bar in broken_cross() {
                tile.with_child(bar);
            }
        }
        Tile::Home(r) => home_marks(&mut tile, &board.robots()[r as usize], &art.ring, marker),
        Tile::Conveyor(dir) => {
            tile.with_child((
                Chevron,
                Sprite {
                    image: art.chevron.clone(),
                    color: art::BELT_ARROW,
                    custom_size: Some(Vec2::splat(TILE * 0.7)),
                    ..default()
                },
                Transform::from_xyz(0.0, 0.0, 0.2).with_rotation(Quat::from_rotation_z(angle(dir))),
            ));
        }
        Tile::Normal | Tile::Hint => {}
    }
}

/// Whether hint tiles on a board this size carry their "?".
pub(crate) fn labelled_hints(width: u16, height: u16) -> bool {
    width as usize * height as usize <= LABELLED_TILES
}

/// The "?" on a hint tile, as its child.
pub(crate) fn hint_label() -> impl Bundle {
    (
        Text2d::new("?"),
        TextFont::from_font_size(30.0),
        TextColor(Color::srgba(0.7, 0.85, 1.0, 0.8)),
        Transform::from_xyz(0.0, 0.0, 0.5),
    )
}

/// A broken robot's body on its tile, as the tile's child.
pub(crate) fn broken_body(stone: &Handle<Image>) -> (Sprite, Transform) {
    (
        Sprite {
            image: stone.clone(),
            color: art::BROKEN_BODY,
            custom_size: Some(Vec2::splat(ROBOT * 0.9)),
            ..default()
        },
        Transform::from_xyz(0.0, 0.0, 0.5),
    )
}

/// The red cross over a broken robot: two bars, children of its tile.
pub(crate) fn broken_cross() -> [impl Bundle; 2] {
    [FRAC_PI_4, -FRAC_PI_4].map(|turn| {
        (
            Sprite::from_color(Color::srgb(0.8, 0.28, 0.22), Vec2::new(ROBOT * 0.7, 5.0)),
            Transform::from_xyz(0.0, 0.0, 0.6).with_rotation(Quat::from_rotation_z(turn)),
        )
    })
}

fn spawn_edge_labels(commands: &mut Commands, layout: &RobotLayout, gap: f32) {
    for label in edge_labels(layout, gap) {
        commands.spawn((label, on_exit()));
    }
}

/// Column letters under the board and row numbers left of it, `gap` from
/// its edges, as on a chess board (`zoom::pin_labels` keeps them readable).
pub(crate) fn edge_labels(layout: &RobotLayout, gap: f32) -> Vec<impl Bundle> {
    let (w, h) = (layout.width, layout.height);
    let label = |text: String, at: Vec2, index: u16, column: bool| {
        (
            EdgeLabel { index, column },
            Text2d::new(text),
            TextFont::from_font_size(super::zoom::LABEL_FONT),
            TextColor(Color::srgba(0.75, 0.8, 0.85, 0.8)),
            Transform::from_translation(at.extend(0.5)),
        )
    };
    let mut labels = Vec::with_capacity((w + h) as usize);
    for x in 0..w {
        let edge = layout.position((x, h - 1)) - Vec2::new(0.0, TILE / 2.0 + gap);
        labels.push(label(column_name(x), edge, x, true));
    }
    for y in 0..h {
        let edge = layout.position((0, y)) - Vec2::new(TILE / 2.0 + gap, 0.0);
        labels.push(label((h - y).to_string(), edge, h - 1 - y, false));
    }
    labels
}

/// A home's ring and letter in its robot's colour, as children of `tile`
/// (a tile's, or a hidden home shown at the end).
pub(super) fn home_marks(
    tile: &mut EntityCommands,
    robot: &tabula_engine::robots::Robot,
    ring: &Handle<Image>,
    marker: f32,
) {
    let color = seat_color(robot.player.index());
    tile.with_child((
        ZoomScaled,
        Sprite { image: ring.clone(), color, custom_size: Some(Vec2::splat(TILE * 0.86)), ..default() },
        Transform::from_xyz(0.0, 0.0, 1.5).with_scale(Vec3::splat(marker)),
    ));
    tile.with_child((
        ZoomScaled,
        Text2d::new(tabula_engine::robots::level::home_char(robot.id).to_string()),
        TextFont::from_font_size(28.0),
        TextColor(color),
        Transform::from_xyz(0.0, 0.0, 1.6).with_scale(Vec3::splat(marker)),
    ));
}

fn spawn_robot(
    commands: &mut Commands,
    board: &Robots,
    robot: &tabula_engine::robots::Robot,
    layout: &RobotLayout,
    art: &Art,
    marker: f32,
) {
    let at = layout.position(robot.at);
    let color = seat_color(robot.player.index());
    let rule = match robot.rule {
        RuleSet::A => "A",
        RuleSet::B => "B",
    };
    let heading = angle(robot.facing);
    commands
        .spawn((
            RobotPiece(robot.id),
            ZoomScaled,
            TilePos(robot.at),
            Facing(robot.facing),
            Rule(robot.rule),
            Owner(robot.player),
            HeldHints(robot.hints.clone()),
            HintBearing::of(board, robot.id),
            Heading(heading),
            Sprite { image: art.stone.clone(), color, custom_size: Some(Vec2::splat(ROBOT)), ..default() },
            Transform::from_xyz(at.x, at.y, 2.0).with_scale(Vec3::splat(marker)),
            on_exit(),
        ))
        .with_children(|piece| {
            // The nose turns with the facing; the letters stay upright.
            piece.spawn((
                Nose,
                Sprite::from_color(Color::srgb(0.1, 0.1, 0.1), Vec2::splat(13.0)),
                art::nose(heading),
            ));
            // A pale disc under the letter: dark on the seat's colour alone
            // read poorly on a small board.
            piece.spawn((
                Sprite {
                    image: art.stone.clone(),
                    color: Color::srgba(1.0, 1.0, 1.0, 0.72),
                    custom_size: Some(Vec2::splat(27.0)),
                    ..default()
                },
                Transform::from_xyz(-3.0, 1.0, 0.1),
            ));
            piece.spawn((
                Text2d::new(robot.id.to_string()),
                TextFont::from_font_size(24.0),
                TextColor(Color::srgb(0.08, 0.08, 0.08)),
                Transform::from_xyz(-3.0, 0.0, 0.2),
            ));
            piece.spawn((
                Text2d::new(rule),
                TextFont::from_font_size(13.0),
                TextColor(Color::srgb(0.15, 0.15, 0.15)),
                Transform::from_xyz(11.0, -9.0, 0.2),
            ));
            // Placed and shown by `show_hints` from the robot's facts.
            piece.spawn((
                HintMark,
                Sprite {
                    image: art.chevron.clone(),
                    color: art::HINT_ARROW,
                    custom_size: Some(Vec2::splat(TILE * 0.42)),
                    ..default()
                },
                Transform::from_xyz(0.0, 0.0, 1.0),
                Visibility::Hidden,
            ));
        });
}
