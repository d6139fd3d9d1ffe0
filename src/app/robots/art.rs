//! The Robot board's art, drawn in code: its colours, the belt's chevron,
//! the ring of a home, a robot's nose.

use std::f32::consts::FRAC_PI_4;

use bevy::prelude::*;

use super::ROBOT;
use crate::app::board::{round_pixels, texture};

pub(crate) const GROUND: Color = Color::srgb(0.20, 0.24, 0.22);
pub(crate) const GROUND_ALT: Color = Color::srgb(0.22, 0.26, 0.24);
pub(crate) const HINT_TILE: Color = Color::srgb(0.18, 0.28, 0.42);
pub(crate) const BROKEN_TILE: Color = Color::srgb(0.12, 0.12, 0.13);
pub(crate) const BROKEN_BODY: Color = Color::srgb(0.36, 0.34, 0.33);
pub(crate) const BELT_TILE: Color = Color::srgb(0.28, 0.27, 0.24);
pub(crate) const BELT_ARROW: Color = Color::srgb(0.93, 0.78, 0.30);
pub(crate) const TARGET: Color = Color::srgba(0.45, 0.95, 0.55, 0.45);
pub(super) const SWAP_PICK: Color = Color::srgba(0.95, 0.55, 0.95, 0.55);
pub(super) const HINT_ARROW: Color = Color::srgb(1.0, 0.95, 0.45);
const CHEVRON_TEXTURE: u32 = 64;

#[derive(Resource)]
pub(crate) struct ChevronTexture(pub Handle<Image>);

#[derive(Resource)]
pub(crate) struct RingTexture(pub Handle<Image>);

/// The home ring's texture size: drawn up to a few tiles wide on large boards.
const RING_TEXTURE: u32 = 128;

/// Drawn once at start-up; without an asset store (some headless tests) the
/// board uses plain sprites.
pub(super) fn make_textures(mut commands: Commands, images: Option<ResMut<Assets<Image>>>) {
    let Some(mut images) = images else { return };
    commands.insert_resource(ChevronTexture(texture(
        &mut images,
        CHEVRON_TEXTURE,
        chevron_pixels(CHEVRON_TEXTURE),
    )));
    commands.insert_resource(RingTexture(texture(&mut images, RING_TEXTURE, home_ring())));
}

/// RGBA pixels of a chevron pointing up (a ^), soft at the edges.
pub fn chevron_pixels(size: u32) -> Vec<u8> {
    // Distance from point q to the segment a-b.
    fn segment(q: Vec2, a: Vec2, b: Vec2) -> f32 {
        let (ab, aq) = (b - a, q - a);
        let t = (aq.dot(ab) / ab.length_squared()).clamp(0.0, 1.0);
        (aq - ab * t).length()
    }
    let (tip, left, right) = (Vec2::new(0.0, -0.22), Vec2::new(-0.34, 0.2), Vec2::new(0.34, 0.2));
    let mut data = Vec::with_capacity((size * size * 4) as usize);
    for y in 0..size {
        for x in 0..size {
            let q = Vec2::new((x as f32 + 0.5) / size as f32 - 0.5, (y as f32 + 0.5) / size as f32 - 0.5);
            let d = segment(q, tip, left).min(segment(q, tip, right));
            let alpha = (1.0 - (d - 0.07).max(0.0) * size as f32 / 1.5).clamp(0.0, 1.0);
            data.extend_from_slice(&[255, 255, 255, (alpha * 255.0) as u8]);
        }
    }
    data
}

/// The ring that marks a home: white (tinted with the robot's colour) round
/// a dark middle, both edges soft over a pixel or two so it is smooth at
/// any size.
pub(super) fn home_ring() -> Vec<u8> {
    let half = RING_TEXTURE as f32 / 2.0;
    round_pixels(RING_TEXTURE, 0.9, |_, _, d| ((d - 0.72) * half / 1.5 + 0.5).clamp(0.0, 1.0))
}

/// The nose of a robot heading `heading`: on the rim, turned to point out.
pub(super) fn nose(heading: f32) -> Transform {
    let turn = Quat::from_rotation_z(heading);
    Transform {
        translation: turn * Vec3::new(0.0, ROBOT / 2.0 - 3.0, 0.1),
        rotation: turn * Quat::from_rotation_z(FRAC_PI_4),
        ..default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_home_ring_is_smooth_at_its_inner_edge() {
        let pixels = home_ring();
        let middle = RING_TEXTURE as usize / 2;
        // Along the row through the middle, from the centre out: dark, a
        // step or two of grey, then white.
        let row: Vec<u8> = (middle..RING_TEXTURE as usize)
            .map(|x| pixels[(middle * RING_TEXTURE as usize + x) * 4])
            .collect();
        assert_eq!(row[0], 0);
        assert!(row.iter().any(|&v| v > 40 && v < 215), "no grey between dark and white: {row:?}");
        assert!(row.windows(2).all(|w| w[0] <= w[1]), "the shade only rises outward");
        assert_eq!(*row.iter().max().unwrap(), 255);
    }
}
