//! Zoom and pan, for boards too large to play whole: the wheel (toward the
//! pointer) or + and - zoom, a drag with the right button or Shift and the
//! arrows pan, F fits the whole board again. Robots, homes and the edge
//! labels are drawn larger as the view takes in more tiles, so they stay in
//! sight when the whole board shows and keep to their tile when zoomed in,
//! where the chosen robot's lit destinations show around it.

use bevy::input::mouse::{MouseScrollUnit, MouseWheel};
use bevy::prelude::*;

use super::animate::Spark;
use super::input::RobotChoice;
use super::{EdgeLabel, HintLabel, RobotLayout, RobotPiece, TILE};
use crate::app::board::BoardCamera;
use crate::app::board::BoardPointer;

/// One press of + or -, or one notch of the wheel.
const STEP: f32 = 1.25;
/// The closest view shows this many tiles along the board's longer side.
const CLOSEST: f32 = 8.0;
/// Up to this many tiles in view, markers are a tile wide; beyond, larger.
const MARKED_TILES: f32 = 24.0;
/// Edge labels are this many pixels high on screen, from a font this size.
const LABEL_PIXELS: f32 = 13.0;
pub(super) const LABEL_FONT: f32 = 20.0;
/// Shift and an arrow pan by this share of the view.
const PAN_SHARE: f32 = 0.25;

/// How the board camera looks at the board: `zoom` 1 shows it whole, and
/// `centre` is the board point in the middle of the view.
#[derive(Resource, Debug, Clone, Copy, PartialEq)]
pub struct BoardView {
    pub zoom: f32,
    pub centre: Vec2,
}

impl Default for BoardView {
    fn default() -> BoardView {
        BoardView { zoom: 1.0, centre: Vec2::ZERO }
    }
}

/// What bounds a view: the board's size, and half the size of what the
/// camera shows when the whole board fits (the window's shape decides it).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Frame {
    pub board: Vec2,
    pub fit_half: Vec2,
}

impl BoardView {
    /// Zoomed by `factor`, the board point `anchor` kept where it is on
    /// screen.
    pub fn zoomed(self, factor: f32, anchor: Vec2, frame: Frame) -> BoardView {
        let closest = (frame.board.max_element() / TILE / CLOSEST).max(1.0);
        let zoom = (self.zoom * factor).clamp(1.0, closest);
        let centre = anchor + (self.centre - anchor) * (self.zoom / zoom);
        BoardView { zoom, centre }.kept_on(frame)
    }

    pub fn panned(self, by: Vec2, frame: Frame) -> BoardView {
        BoardView { centre: self.centre + by, ..self }.kept_on(frame)
    }

    /// The centre moved no further than keeps the board filling the view
    /// (or, along a side it does not fill, in the middle).
    fn kept_on(self, frame: Frame) -> BoardView {
        let free = (frame.board / 2.0 - frame.fit_half / self.zoom).max(Vec2::ZERO);
        BoardView { centre: self.centre.clamp(-free, free), ..self }
    }

    /// How many times a tile's size robots and homes are drawn on a board
    /// `tiles` long.
    pub fn marker(self, tiles: u16) -> f32 {
        (tiles as f32 / self.zoom / MARKED_TILES).max(1.0)
    }
}

/// Every how many tiles an edge label shows, tiles `tile_px` pixels wide:
/// a label every 28 pixels at most.
pub fn label_step(tile_px: f32) -> u16 {
    [1, 2, 5, 10, 20, 50, 100, 200, 500].into_iter().find(|&s| s as f32 * tile_px >= 28.0).unwrap_or(1000)
}

/// Drawn larger as the view takes in more tiles.
#[derive(Component, Debug)]
pub struct ZoomScaled;

fn board_size(layout: &RobotLayout) -> Vec2 {
    Vec2::new(layout.width as f32, layout.height as f32) * TILE
}

/// The board camera's frame for `layout`, as it shows now.
fn frame(layout: &RobotLayout, cameras: &Query<&Projection, With<BoardCamera>>) -> Frame {
    let fit_half = match cameras.single() {
        Ok(Projection::Orthographic(ortho)) => ortho.area.half_size() / ortho.scale,
        _ => Vec2::ZERO,
    };
    Frame { board: board_size(layout), fit_half }
}

/// The wheel zooms toward the pointer; a drag with the right button pans.
pub(crate) fn zoom_with_mouse(
    mut view: ResMut<BoardView>,
    layout: Res<RobotLayout>,
    mut wheel: MessageReader<MouseWheel>,
    mouse: Res<ButtonInput<MouseButton>>,
    pointer: BoardPointer,
    cameras: Query<&Projection, With<BoardCamera>>,
    mut grabbed: Local<Option<Vec2>>,
) {
    let board = frame(&layout, &cameras);
    let notches: f32 = wheel
        .read()
        .map(|w| match w.unit {
            MouseScrollUnit::Line => w.y,
            MouseScrollUnit::Pixel => w.y / 40.0,
        })
        .sum();
    if notches != 0.0
        && let Some(at) = pointer.world()
    {
        *view = view.zoomed(STEP.powf(notches), at, board);
    }
    if mouse.just_pressed(MouseButton::Right) {
        *grabbed = pointer.world();
    }
    if !mouse.pressed(MouseButton::Right) {
        *grabbed = None;
    }
    // The board point grabbed stays under the pointer.
    if let (Some(grab), Some(now)) = (*grabbed, pointer.world())
        && grab != now
    {
        *view = view.panned(grab - now, board);
    }
}

/// The keys: plus and minus zoom toward the chosen robot (or the middle of
/// the view), Shift and an arrow pan, F fits.
pub(crate) fn zoom_with_keys(
    mut view: ResMut<BoardView>,
    layout: Res<RobotLayout>,
    keys: Res<ButtonInput<KeyCode>>,
    choice: Res<RobotChoice>,
    robots: Query<(&RobotPiece, &Transform)>,
    cameras: Query<&Projection, With<BoardCamera>>,
) {
    let board = frame(&layout, &cameras);
    let pressed = |k: KeyCode| keys.just_pressed(k);
    let chosen = robots.iter().find(|(piece, _)| Some(piece.0) == choice.selected);
    let anchor = chosen.map_or(view.centre, |(_, t)| t.translation.truncate());
    if pressed(KeyCode::Equal) || pressed(KeyCode::NumpadAdd) {
        *view = view.zoomed(STEP, anchor, board);
    }
    if pressed(KeyCode::Minus) || pressed(KeyCode::NumpadSubtract) {
        *view = view.zoomed(1.0 / STEP, anchor, board);
    }
    if pressed(KeyCode::KeyF) {
        *view = BoardView::default();
    }
    if keys.any_pressed([KeyCode::ShiftLeft, KeyCode::ShiftRight]) {
        let shown = board.fit_half * 2.0 / view.zoom * PAN_SHARE;
        let by = [
            (KeyCode::ArrowUp, Vec2::Y),
            (KeyCode::ArrowDown, Vec2::NEG_Y),
            (KeyCode::ArrowLeft, Vec2::NEG_X),
            (KeyCode::ArrowRight, Vec2::X),
        ]
        .into_iter()
        .filter(|&(k, _)| pressed(k))
        .map(|(_, d)| d * shown)
        .sum::<Vec2>();
        if by != Vec2::ZERO {
            *view = view.panned(by, board);
        }
    }
}

/// A robot newly chosen (by N or a click) comes into the middle of a
/// zoomed-in view, where its lit destinations show.
pub(super) fn show_the_chosen(
    mut view: ResMut<BoardView>,
    layout: Res<RobotLayout>,
    choice: Res<RobotChoice>,
    robots: Query<(&RobotPiece, &Transform)>,
    cameras: Query<&Projection, With<BoardCamera>>,
    mut shown: Local<Option<char>>,
) {
    if choice.selected == *shown {
        return;
    }
    *shown = choice.selected;
    if view.zoom > 1.0
        && let Some((_, at)) = robots.iter().find(|(piece, _)| Some(piece.0) == choice.selected)
    {
        let by = at.translation.truncate() - view.centre;
        *view = view.panned(by, frame(&layout, &cameras));
    }
}

/// The camera follows the view; markers and labels take its scale.
pub(crate) fn frame_board(
    view: Res<BoardView>,
    layout: Res<RobotLayout>,
    mut cameras: Query<(&mut Transform, &mut Projection), With<BoardCamera>>,
    mut scaled: Query<&mut Transform, (With<ZoomScaled>, Without<BoardCamera>, Without<Spark>)>,
    added: Query<(), Added<ZoomScaled>>,
) {
    if !view.is_changed() && added.is_empty() {
        return;
    }
    for (mut transform, mut projection) in &mut cameras {
        transform.translation = view.centre.extend(transform.translation.z);
        if let Projection::Orthographic(ortho) = &mut *projection {
            ortho.scale = 1.0 / view.zoom;
        }
    }
    let tiles = layout.width.max(layout.height);
    let marker = view.marker(tiles);
    for mut transform in &mut scaled {
        transform.scale = Vec3::splat(marker);
    }
}

/// A hint tile's "?" is shown once a tile is this many pixels wide on
/// screen: smaller, it could not be read and would only speckle the board.
const HINT_LABEL_PIXELS: f32 = 16.0;

/// Whether hint tiles `tile_px` pixels wide on screen show their "?".
pub fn hint_labels_readable(tile_px: f32) -> bool {
    tile_px >= HINT_LABEL_PIXELS
}

/// Edge labels at a readable size whatever the zoom, as many as have room,
/// beside the board's edges, or along the view's own edges, over the tiles,
/// where the board's are out of sight; hint tiles' "?" once readable.
pub(crate) fn pin_labels(
    layout: Res<RobotLayout>,
    cameras: Query<(&Camera, &Projection, &Transform), With<BoardCamera>>,
    mut labels: Query<(&EdgeLabel, &mut Transform, &mut Visibility), Without<BoardCamera>>,
    mut hint_labels: Query<&mut Visibility, (With<HintLabel>, Without<EdgeLabel>)>,
) {
    let Ok((camera, Projection::Orthographic(ortho), at)) = cameras.single() else { return };
    let Some(pixels) = camera.logical_viewport_size().filter(|p| p.y > 0.0) else { return };
    let per_pixel = ortho.area.height() / pixels.y;
    let readable = match hint_labels_readable(TILE / per_pixel) {
        true => Visibility::Inherited,
        false => Visibility::Hidden,
    };
    for mut visibility in &mut hint_labels {
        visibility.set_if_neq(readable);
    }
    let seen = Rect::from_center_half_size(at.translation.truncate(), ortho.area.half_size());
    let board = board_size(&layout) / 2.0;
    let step = label_step(TILE / per_pixel);
    for (label, mut transform, mut visibility) in &mut labels {
        // Labels count from 1, as on a chess board.
        let shown = (label.index + 1).is_multiple_of(step) || label.index == 0;
        *visibility = if shown { Visibility::Inherited } else { Visibility::Hidden };
        transform.scale = Vec3::splat(LABEL_PIXELS * per_pixel / LABEL_FONT);
        let (place, edge, seen_edge, inset) = match label.column {
            true => (&mut transform.translation.y, -board.y, seen.min.y, 10.0),
            false => (&mut transform.translation.x, -board.x, seen.min.x, 16.0),
        };
        *place = (edge - 14.0 * per_pixel).max(seen_edge + inset * per_pixel);
    }
}

/// Leaving the board, the camera looks at the whole window's board again.
pub(crate) fn unframe(
    mut view: ResMut<BoardView>,
    mut cameras: Query<(&mut Transform, &mut Projection), With<BoardCamera>>,
) {
    *view = BoardView::default();
    for (mut transform, mut projection) in &mut cameras {
        transform.translation = Vec3::new(0.0, 0.0, transform.translation.z);
        if let Projection::Orthographic(ortho) = &mut *projection {
            ortho.scale = 1.0;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A 128 x 128 board in a window wider than tall.
    const FRAME: Frame =
        Frame { board: Vec2::new(128.0 * TILE, 128.0 * TILE), fit_half: Vec2::new(6000.0, 4200.0) };

    #[test]
    fn zooming_keeps_the_point_under_the_pointer_and_stays_on_the_board() {
        let anchor = Vec2::new(1000.0, -2000.0);
        let view = BoardView::default().zoomed(4.0, anchor, FRAME);
        assert_eq!(view.zoom, 4.0);
        // The anchor is as far from the centre, in screen terms, as before.
        assert!(((anchor - view.centre) * view.zoom - anchor).length() < 1e-3);
        // Never further out than the whole board, nor closer than 8 tiles.
        assert_eq!(view.zoomed(0.01, anchor, FRAME).zoom, 1.0);
        assert_eq!(view.zoomed(1000.0, anchor, FRAME).zoom, 16.0);
        assert_eq!(BoardView::default().zoomed(0.5, anchor, FRAME), BoardView::default());
        // Panning stops where the view's edge meets the board's.
        let far = view.panned(Vec2::new(1e6, 1e6), FRAME);
        assert_eq!(far.centre, FRAME.board / 2.0 - FRAME.fit_half / 4.0);
        // Along a side the view shows whole, the board stays in the middle.
        let wide = BoardView::default().zoomed(1.25, anchor, FRAME).panned(Vec2::new(1e6, 0.0), FRAME);
        assert_eq!(wide.centre.x, 0.0);
    }

    #[test]
    fn markers_are_a_tile_wide_close_up_and_larger_as_more_tiles_show() {
        let whole = BoardView::default();
        assert_eq!(whole.marker(12), 1.0);
        assert!((whole.marker(128) - 128.0 / 24.0).abs() < 1e-5);
        assert_eq!(whole.zoomed(16.0, Vec2::ZERO, FRAME).marker(128), 1.0);
    }

    #[test]
    fn hint_tiles_show_their_question_mark_once_zoomed_in_enough_to_read_it() {
        // 128 tiles in about 700 pixels: a speckle; 16 tiles of 64 units
        // at the closest zoom: plain to read.
        assert!(!hint_labels_readable(700.0 / 128.0));
        assert!(hint_labels_readable(700.0 / CLOSEST));
        assert!(hint_labels_readable(64.0), "a small board shows them whole");
    }

    #[test]
    fn edge_labels_keep_28_pixels_apart() {
        assert_eq!(label_step(64.0), 1);
        assert_eq!(label_step(20.0), 2);
        assert_eq!(label_step(5.0), 10);
        assert_eq!(label_step(0.01), 1000);
    }
}
