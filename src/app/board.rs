//! What every game's board view shares: when its systems run, the camera and
//! fitting it to the board, where the pointer is on the board, digit keys,
//! telling agents to wait while pieces move, and the art drawn in code (the
//! stone every board uses).

use bevy::asset::RenderAssetUsages;
use bevy::camera::ScalingMode;
use bevy::ecs::query::QueryFilter;
use bevy::ecs::system::SystemParam;
use bevy::prelude::*;
use bevy::render::render_resource::{Extent3d, TextureDimension, TextureFormat};
use bevy::window::PrimaryWindow;

use super::frames::NextFrame;
use super::game::{ActiveGame, WindowGame};
use super::session::{BoardBusy, BoardReset, Session};

const STONE_TEXTURE: u32 = 64;

/// The camera that draws the board (in the space the panels leave).
#[derive(Component, Debug)]
pub struct BoardCamera;

pub use super::seat_colors::{SEAT_RGB, seat_color, seat_color_name, seat_color32};

/// The shaded stone every board uses, tinted per stone.
#[derive(Resource)]
pub struct StoneTexture(pub Handle<Image>);

pub(super) fn plugin(app: &mut App) {
    app.add_systems(Startup, make_stone_texture);
}

/// The board camera's projection before a level is shown.
pub fn board_projection() -> Projection {
    Projection::Orthographic(OrthographicProjection {
        scaling_mode: ScalingMode::AutoMin { min_width: 1200.0, min_height: 700.0 },
        ..OrthographicProjection::default_2d()
    })
}

/// Run condition: the board of `G` shows its session.
pub fn playing<G: WindowGame>(
    active: Option<Res<State<ActiveGame>>>,
    session: Option<Res<Session<G>>>,
) -> bool {
    active.is_some_and(|a| *a.get() == ActiveGame::of::<G>()) && session.is_some()
}

/// Run condition for a board's mouse systems: there is a mouse, and egui
/// (when there is one) is not using it.
pub fn pointer_free(
    mouse: Option<Res<ButtonInput<MouseButton>>>,
    egui: Option<Res<bevy_egui::input::EguiWantsInput>>,
) -> bool {
    mouse.is_some() && egui.is_none_or(|e| !e.wants_any_pointer_input())
}

/// Run condition for a board's keys: there is a keyboard, and no egui text
/// field has it.
pub fn keys_free(
    keys: Option<Res<ButtonInput<KeyCode>>>,
    egui: Option<Res<bevy_egui::input::EguiWantsInput>>,
) -> bool {
    keys.is_some() && egui.is_none_or(|e| !e.wants_any_keyboard_input())
}

/// Makes the board camera show at least `size` world units, centred.
pub fn fit_view(cameras: &mut Query<&mut Projection, With<BoardCamera>>, size: Vec2) {
    for mut projection in cameras.iter_mut() {
        if let Projection::Orthographic(ortho) = &mut *projection {
            ortho.scaling_mode = ScalingMode::AutoMin { min_width: size.x, min_height: size.y };
        }
    }
}

/// The mouse pointer in board (world) coordinates, when it is over the window.
#[derive(SystemParam)]
pub struct BoardPointer<'w, 's> {
    windows: Query<'w, 's, &'static Window, With<PrimaryWindow>>,
    cameras: Query<'w, 's, (&'static Camera, &'static GlobalTransform), With<BoardCamera>>,
}

impl BoardPointer<'_, '_> {
    pub fn world(&self) -> Option<Vec2> {
        let window = self.windows.single().ok()?;
        let (camera, transform) = self.cameras.single().ok()?;
        camera.viewport_to_world_2d(transform, window.cursor_position()?).ok()
    }
}

const DIGITS: [KeyCode; 10] = [
    KeyCode::Digit0,
    KeyCode::Digit1,
    KeyCode::Digit2,
    KeyCode::Digit3,
    KeyCode::Digit4,
    KeyCode::Digit5,
    KeyCode::Digit6,
    KeyCode::Digit7,
    KeyCode::Digit8,
    KeyCode::Digit9,
];

/// The digits pressed this frame, in key order.
pub fn digits_pressed(keys: &ButtonInput<KeyCode>) -> impl Iterator<Item = u8> + '_ {
    (0..10u8).filter(|&d| keys.just_pressed(DIGITS[d as usize]))
}

/// On a `BoardReset` (new game, undo, reload), despawns the board's
/// entities `old` and says so: the view then builds the board afresh.
pub fn clear_on_reset<F: QueryFilter>(
    commands: &mut Commands,
    resets: &mut MessageReader<BoardReset>,
    old: &Query<Entity, F>,
) -> bool {
    if resets.read().count() == 0 {
        return false;
    }
    for entity in old {
        commands.entity(entity).despawn();
    }
    true
}

/// Agents and replays wait while any piece carries the animation marker `C`;
/// the window draws until they have landed.
pub fn count_busy<C: Component>(
    moving: Query<(), With<C>>,
    mut busy: ResMut<BoardBusy>,
    mut next: ResMut<NextFrame>,
) {
    busy.0 = moving.iter().count() as u32;
    if busy.0 > 0 {
        next.ask();
    }
}

/// Drawn once at start-up; without an asset store (some headless tests) the
/// boards use plain sprites.
fn make_stone_texture(mut commands: Commands, images: Option<ResMut<Assets<Image>>>) {
    let Some(mut images) = images else { return };
    commands.insert_resource(StoneTexture(texture(&mut images, STONE_TEXTURE, stone_pixels(STONE_TEXTURE))));
}

/// A square texture from RGBA pixels drawn in code.
pub fn texture(images: &mut Assets<Image>, size: u32, pixels: Vec<u8>) -> Handle<Image> {
    images.add(Image::new(
        Extent3d { width: size, height: size, depth_or_array_layers: 1 },
        TextureDimension::D2,
        pixels,
        TextureFormat::Rgba8UnormSrgb,
        RenderAssetUsages::RENDER_WORLD,
    ))
}

/// RGBA pixels of a round grey shape `size` across. `shade(dx, dy, d)` is
/// the brightness (0 to 1) at a point, with dx and dy from the centre in -1..1
/// and d its distance; the edge fades over `1 / (softness * radius)`.
pub fn round_pixels(size: u32, softness: f32, shade: impl Fn(f32, f32, f32) -> f32) -> Vec<u8> {
    let mut data = Vec::with_capacity((size * size * 4) as usize);
    let r = size as f32 / 2.0;
    for y in 0..size {
        for x in 0..size {
            let dx = (x as f32 + 0.5 - r) / r;
            let dy = (y as f32 + 0.5 - r) / r;
            let d = (dx * dx + dy * dy).sqrt();
            let alpha = ((1.0 - d) * r * softness).clamp(0.0, 1.0);
            let v = (shade(dx, dy, d).clamp(0.0, 1.0) * 255.0) as u8;
            data.extend_from_slice(&[v, v, v, (alpha * 255.0) as u8]);
        }
    }
    data
}

/// A round stone lit from the upper left, darker toward the rim, with a soft
/// edge and a highlight.
pub fn stone_pixels(size: u32) -> Vec<u8> {
    round_pixels(size, 0.9, |dx, dy, d| {
        let light = (1.0 - 0.35 * d * d) * (1.0 - 0.18 * (dx + dy)).clamp(0.6, 1.2);
        let highlight = (-((dx + 0.35).powi(2) + (dy + 0.35).powi(2)) * 14.0).exp() * 0.35;
        light * 0.85 + highlight
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn eight_seat_colours_are_far_apart() {
        for (i, a) in SEAT_RGB.iter().enumerate() {
            for b in &SEAT_RGB[i + 1..] {
                let d: i32 = a.iter().zip(b).map(|(&x, &y)| (x as i32 - y as i32).pow(2)).sum();
                assert!(d > 40 * 40, "{a:?} and {b:?} are too alike");
            }
        }
    }

    #[test]
    fn stone_texture_is_round_and_opaque_in_the_middle() {
        let px = stone_pixels(32);
        let alpha = |x: usize, y: usize| px[(y * 32 + x) * 4 + 3];
        assert_eq!(alpha(16, 16), 255);
        assert_eq!(alpha(0, 0), 0);
    }
}
