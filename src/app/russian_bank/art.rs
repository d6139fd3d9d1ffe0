//! Card art drawn in code: a face, two backs (player 1 red, player 2 blue),
//! the four suit pips and the outline of an empty pile.

use bevy::asset::RenderAssetUsages;
use bevy::prelude::*;
use bevy::render::render_resource::{Extent3d, TextureDimension, TextureFormat};
use tabula_engine::russian_bank::Suit;

/// Texture pixels per world unit: cards stay sharp when the window is large.
const DETAIL: f32 = 2.0;
const PIP_TEXTURE: u32 = 96;
/// Samples per pixel side, for smooth edges.
const SUPERSAMPLE: u32 = 3;

pub const CARD: Vec2 = Vec2::new(96.0, 134.0);
const CORNER: f32 = 9.0;

/// Player 1's backs red, player 2's blue
/// (docs/rules/russian-bank.md, "Cards and piles").
const BACKS: [[u8; 3]; 2] = [[176, 36, 44], [34, 84, 170]];

#[derive(Resource, Clone)]
pub struct CardArt {
    pub face: Handle<Image>,
    pub backs: [Handle<Image>; 2],
    pub pips: [Handle<Image>; 4],
    pub slot: Handle<Image>,
}

impl CardArt {
    pub fn pip(&self, suit: Suit) -> Handle<Image> {
        self.pips[suit as usize].clone()
    }
}

pub(super) fn make_card_art(mut commands: Commands, images: Option<ResMut<Assets<Image>>>) {
    let Some(mut images) = images else { return };
    let (w, h) = ((CARD.x * DETAIL) as u32, (CARD.y * DETAIL) as u32);
    let mut add = |width, height, pixels| {
        images.add(Image::new(
            Extent3d { width, height, depth_or_array_layers: 1 },
            TextureDimension::D2,
            pixels,
            TextureFormat::Rgba8UnormSrgb,
            RenderAssetUsages::RENDER_WORLD,
        ))
    };
    let face = add(w, h, card_pixels(w, h, |_, _| [250, 250, 246], [150, 150, 140]));
    let backs =
        BACKS.map(|rgb| add(w, h, card_pixels(w, h, |x, y| back_pattern(rgb, x, y), [245, 245, 240])));
    let slot = add(w, h, outline_pixels(w, h));
    let pips = Suit::ALL.map(|suit| add(PIP_TEXTURE, PIP_TEXTURE, pip_pixels(PIP_TEXTURE, suit)));
    commands.insert_resource(CardArt { face, backs, pips, slot });
}

/// Signed distance (in pixels) from a rounded rectangle's edge; negative inside.
fn rounded_rect_distance(w: u32, h: u32, x: f32, y: f32) -> f32 {
    let r = CORNER * DETAIL;
    let (hw, hh) = (w as f32 / 2.0, h as f32 / 2.0);
    let qx = (x - hw).abs() - (hw - r);
    let qy = (y - hh).abs() - (hh - r);
    let outside = Vec2::new(qx.max(0.0), qy.max(0.0)).length();
    outside + qx.max(qy).min(0.0) - r
}

/// A card: `fill(x, y)` inside, a border of colour `edge`, soft corners.
pub fn card_pixels(w: u32, h: u32, fill: impl Fn(f32, f32) -> [u8; 3], edge: [u8; 3]) -> Vec<u8> {
    let mut data = Vec::with_capacity((w * h * 4) as usize);
    let border = 2.0 * DETAIL;
    for y in 0..h {
        for x in 0..w {
            let (fx, fy) = (x as f32 + 0.5, y as f32 + 0.5);
            let d = rounded_rect_distance(w, h, fx, fy);
            let alpha = (0.5 - d).clamp(0.0, 1.0);
            let rgb = if d > -border { edge } else { fill(fx / w as f32, fy / h as f32) };
            data.extend_from_slice(&[rgb[0], rgb[1], rgb[2], (alpha * 255.0) as u8]);
        }
    }
    data
}

/// A lattice on the back's colour, inside a white frame.
fn back_pattern(rgb: [u8; 3], x: f32, y: f32) -> [u8; 3] {
    let frame = 0.07;
    if x < frame || x > 1.0 - frame || y < frame * 0.72 || y > 1.0 - frame * 0.72 {
        return [245, 245, 240];
    }
    let (u, v) = (x * 10.0, y * 14.0);
    let line = ((u + v).fract() < 0.16) || ((u - v).fract().abs() < 0.16);
    let shade = if line { 1.25 } else { 1.0 };
    rgb.map(|c| (c as f32 * shade).min(255.0) as u8)
}

/// The dashed outline of an empty pile: white, tinted by the sprite.
fn outline_pixels(w: u32, h: u32) -> Vec<u8> {
    let mut data = Vec::with_capacity((w * h * 4) as usize);
    let width = 2.5 * DETAIL;
    for y in 0..h {
        for x in 0..w {
            let d = rounded_rect_distance(w, h, x as f32 + 0.5, y as f32 + 0.5);
            let on_edge = d <= 0.5 && d > -width;
            let dash = ((x + y) / (6 * DETAIL as u32)).is_multiple_of(2);
            let inside = d <= 0.5;
            let alpha = if on_edge && dash {
                220
            } else if inside {
                28
            } else {
                0
            };
            data.extend_from_slice(&[255, 255, 255, alpha]);
        }
    }
    data
}

/// Whether a point (x right, y up, both -1..1) is inside a suit's pip.
pub fn inside_pip(suit: Suit, x: f32, y: f32) -> bool {
    let heart = |x: f32, y: f32| {
        let (x, y) = (x * 1.25, y * 1.25 + 0.2);
        (x * x + y * y - 1.0).powi(3) - x * x * y.powi(3) <= 0.0
    };
    let stem = |x: f32, y: f32| y < -0.25 && y > -0.95 && x.abs() < 0.08 + (-0.25 - y) * 0.45;
    match suit {
        Suit::Hearts => heart(x, y + 0.05),
        Suit::Diamonds => x.abs() / 0.68 + y.abs() / 0.95 <= 1.0,
        Suit::Spades => heart(x, -(y - 0.22)) && y > -0.45 || stem(x, y),
        Suit::Clubs => {
            let ball = |cx: f32, cy: f32| (x - cx).powi(2) + (y - cy).powi(2) <= 0.31f32.powi(2);
            let middle = x.abs() < 0.2 && y > -0.3 && y < 0.3;
            ball(0.0, 0.42) || ball(-0.38, -0.05) || ball(0.38, -0.05) || middle || stem(x, y)
        }
    }
}

/// A white pip on transparent pixels, tinted red or black by the sprite.
fn pip_pixels(size: u32, suit: Suit) -> Vec<u8> {
    let mut data = Vec::with_capacity((size * size * 4) as usize);
    let n = SUPERSAMPLE;
    for row in 0..size {
        for col in 0..size {
            let mut hits = 0;
            for sy in 0..n {
                for sx in 0..n {
                    let x = ((col * n + sx) as f32 + 0.5) / (size * n) as f32 * 2.0 - 1.0;
                    let y = 1.0 - ((row * n + sy) as f32 + 0.5) / (size * n) as f32 * 2.0;
                    hits += inside_pip(suit, x, y) as u32;
                }
            }
            data.extend_from_slice(&[255, 255, 255, (hits * 255 / (n * n)) as u8]);
        }
    }
    data
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pips_have_their_shapes() {
        // Every pip covers its centre and leaves its corners empty.
        for suit in Suit::ALL {
            assert!(inside_pip(suit, 0.0, 0.1), "{suit:?}");
            assert!(!inside_pip(suit, 0.95, 0.95), "{suit:?}");
            assert!(!inside_pip(suit, -0.95, -0.95), "{suit:?}");
        }
        // A heart has its notch at the top and its point at the bottom; a
        // spade the other way up, on a stem.
        assert!(!inside_pip(Suit::Hearts, 0.0, 0.75) && inside_pip(Suit::Hearts, 0.0, -0.6));
        assert!(inside_pip(Suit::Spades, 0.0, 0.7) && inside_pip(Suit::Spades, 0.0, -0.8));
        // A diamond is pointed left and right, a club has three leaves.
        assert!(!inside_pip(Suit::Diamonds, 0.6, 0.5) && inside_pip(Suit::Diamonds, 0.6, 0.0));
        assert!(inside_pip(Suit::Clubs, -0.4, -0.05) && !inside_pip(Suit::Clubs, -0.4, 0.45));
    }

    #[test]
    fn cards_are_opaque_inside_with_round_corners() {
        let (w, h) = (40, 56);
        let px = card_pixels(w, h, |_, _| [1, 2, 3], [9, 9, 9]);
        let alpha = |x: u32, y: u32| px[((y * w + x) * 4 + 3) as usize];
        assert_eq!(alpha(20, 28), 255);
        assert_eq!(alpha(0, 0), 0);
        assert_eq!(&px[((28 * w + 20) * 4) as usize..][..3], &[1, 2, 3]);
    }
}
