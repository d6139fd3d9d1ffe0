//! The Mancala board's art, drawn in code: its colours, the hollow carved
//! in the wood for a pit or a store, the colours of the glass stones.

use bevy::prelude::*;

use crate::app::board::{round_pixels, texture};

const CELL_TEXTURE: u32 = 96;

pub(super) const BOARD_COLOR: Color = Color::srgb(0.42, 0.27, 0.15);
pub(super) const CELL_COLOR: Color = Color::srgb(0.85, 0.72, 0.55);
pub(super) const CELL_HOVER: Color = Color::srgb(1.0, 0.9, 0.65);
pub(super) const CELL_TARGET: Color = Color::srgb(0.55, 0.95, 0.6);
/// The winner's store once the last stones have landed.
pub const STORE_WINNER: Color = Color::srgb(1.0, 0.82, 0.3);
/// The ring of light around a best pit, while teaching.
pub(super) const BEST_RING: Color = Color::srgb(1.0, 0.93, 0.55);
pub(super) const LABEL_COLOR: Color = Color::srgb(0.95, 0.92, 0.85);
/// Glass-stone colours, picked per stone.
const STONE_COLOURS: [Color; 6] = [
    Color::srgb(0.93, 0.38, 0.33),
    Color::srgb(0.33, 0.62, 0.93),
    Color::srgb(0.98, 0.80, 0.30),
    Color::srgb(0.42, 0.80, 0.45),
    Color::srgb(0.78, 0.50, 0.92),
    Color::srgb(0.95, 0.95, 0.92),
];

#[derive(Resource)]
pub(super) struct CellTexture(pub Handle<Image>);

#[derive(Resource)]
pub(super) struct RingTexture(pub Handle<Image>);

pub(super) fn make_cell_texture(mut commands: Commands, images: Option<ResMut<Assets<Image>>>) {
    let Some(mut images) = images else { return };
    commands.insert_resource(CellTexture(texture(&mut images, CELL_TEXTURE, cell_pixels(CELL_TEXTURE))));
    commands.insert_resource(RingTexture(texture(&mut images, CELL_TEXTURE, ring_pixels(CELL_TEXTURE))));
}

/// RGBA pixels of a soft ring of light, brightest at a hollow's
/// rim and fading both ways, so that it glows around the pit.
pub fn ring_pixels(size: u32) -> Vec<u8> {
    let mut data = Vec::with_capacity((size * size * 4) as usize);
    let r = size as f32 / 2.0;
    for y in 0..size {
        for x in 0..size {
            let (dx, dy) = ((x as f32 + 0.5 - r) / r, (y as f32 + 0.5 - r) / r);
            let d = (dx * dx + dy * dy).sqrt();
            let alpha = (-((d - 0.88) / 0.06).powi(2)).exp();
            data.extend_from_slice(&[255, 255, 255, (alpha * 255.0) as u8]);
        }
    }
    data
}

/// RGBA pixels of a hollow carved in wood: shadowed at the top, lit at the
/// bottom, with a soft rim.
pub fn cell_pixels(size: u32) -> Vec<u8> {
    round_pixels(size, 0.8, |_, dy, d| {
        let inner = 0.55 + 0.3 * dy - 0.25 * (1.0 - d).powi(2);
        let rim = if d > 0.86 { 0.25 * (d - 0.86) / 0.14 } else { 0.0 };
        (inner + rim).clamp(0.2, 1.0)
    })
}

pub(super) fn bead_color(index: usize) -> Color {
    STONE_COLOURS[(index * 7 + index / 6) % STONE_COLOURS.len()]
}
