//! What every game's board view shares: when its systems run, fitting the
//! camera to the board, where the pointer is on the board, digit keys, and
//! telling agents to wait while pieces move.

use bevy::camera::ScalingMode;
use bevy::ecs::system::SystemParam;
use bevy::prelude::*;
use bevy::window::PrimaryWindow;

use super::session::{BoardBusy, Session, SessionGame};
use super::{BoardCamera, Screen};

/// Run condition: the game screen shows a session of `G`.
pub fn playing<G: SessionGame>(screen: Res<State<Screen>>, session: Option<Res<Session<G>>>) -> bool {
    *screen.get() == Screen::Game && session.is_some()
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

/// Agents and replays wait while any piece carries the animation marker `C`.
pub fn count_busy<C: Component>(moving: Query<(), With<C>>, mut busy: ResMut<BoardBusy>) {
    busy.0 = moving.iter().count() as u32;
}
