//! The window rests when nothing moves: Bevy's reactive desktop mode draws
//! a frame on input, when egui asks for one, and every [`WAKE`] (so a level
//! edit, which comes from the file watcher's thread, shows within half a
//! second). Whatever moves asks for the next frame through [`NextFrame`]:
//! pieces in flight, an agent to play, a replay playing, sparks, and the
//! Robot board's belts while the window has focus.

use std::time::Duration;

use bevy::prelude::*;
use bevy::window::RequestRedraw;
use bevy::winit::{UpdateMode, WinitSettings};

/// The longest the window sleeps, with focus or without: a level edited in
/// an editor beside it shows within half a second either way.
pub const WAKE: Duration = Duration::from_millis(250);

/// Set by whatever moves this frame: the window draws another.
#[derive(Resource, Debug, Default)]
pub struct NextFrame {
    asked: bool,
}

impl NextFrame {
    pub fn ask(&mut self) {
        self.asked = true;
    }
}

pub(super) fn plugin(app: &mut App) {
    // Headless apps have no window plugin to add the message.
    app.init_resource::<NextFrame>().add_message::<RequestRedraw>().add_systems(Last, ask_for_the_next_frame);
}

/// The update mode of the window (not of headless apps, which run frame by
/// frame as their tests say). `TABULA_CONTINUOUS=1` draws every frame, as
/// the window did before it rested (scripts/idle-cpu.sh compares the two).
pub fn reactive(app: &mut App) {
    if std::env::var_os("TABULA_CONTINUOUS").is_some() {
        return;
    }
    app.insert_resource(WinitSettings {
        focused_mode: UpdateMode::reactive_low_power(WAKE),
        unfocused_mode: UpdateMode::reactive_low_power(WAKE),
    });
}

fn ask_for_the_next_frame(mut next: ResMut<NextFrame>, mut redraw: MessageWriter<RequestRedraw>) {
    if std::mem::take(&mut next.asked) {
        redraw.write(RequestRedraw);
    }
}
