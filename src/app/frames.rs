//! The window rests when nothing moves: Bevy's reactive desktop mode draws
//! a frame on input, when egui asks for one, when the level file watcher
//! wakes it ([`wake`]), and at the latest every [`WAKE`]. Whatever moves asks
//! for the next frame through [`NextFrame`]: pieces in flight, an agent to
//! play, a replay playing, a level being read, sparks, and moving belts while
//! the window has focus.

use std::sync::OnceLock;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use bevy::prelude::*;
use bevy::window::RequestRedraw;
use bevy::winit::{EventLoopProxyWrapper, UpdateMode, WinitSettings, WinitUserEvent};
use bevy_egui::{EguiInput, EguiPreUpdateSet, egui};

/// The longest the window sleeps, with focus or without. Nothing needs it
/// sooner (what moves asks for frames, a saved level wakes it): this only
/// bounds how late a settings change is written after it rests.
pub const WAKE: Duration = Duration::from_secs(3);

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

/// After a wake from another thread, frames go on this long: what woke the
/// window (a saved level) takes a few frames to read and show, and some of
/// them wait on other threads.
const AWAKE_AFTER_WAKE: Duration = Duration::from_millis(600);

pub(super) fn plugin(app: &mut App) {
    // Headless apps have no window plugin to add the message.
    app.init_resource::<NextFrame>()
        .add_message::<RequestRedraw>()
        .add_systems(Last, (stay_awake_after_wake, ask_for_the_next_frame).chain());
}

/// The update mode of the window (not of headless apps, which run frame by
/// frame as their tests say).
pub fn reactive(app: &mut App) {
    app.insert_resource(WinitSettings {
        focused_mode: UpdateMode::reactive_low_power(WAKE),
        unfocused_mode: UpdateMode::reactive_low_power(WAKE),
    })
    .add_systems(Startup, keep_waker)
    .add_systems(
        PreUpdate,
        pass_on_modifier_changes_only
            .after(EguiPreUpdateSet::ProcessInput)
            .before(EguiPreUpdateSet::BeginPass),
    );
}

/// bevy_egui 0.42 tells egui the modifier keys every frame; egui takes any
/// event as input and asks for the next frame, so the window would never
/// rest. Only a change of the modifiers is passed on (egui keeps them from
/// one frame to the next).
fn pass_on_modifier_changes_only(
    mut inputs: Query<&mut EguiInput>,
    mut last: Local<Option<egui::Modifiers>>,
) {
    for mut input in &mut inputs {
        input.0.events.retain(|event| match event {
            egui::Event::ModifiersChanged(modifiers) => last.replace(*modifiers) != Some(*modifiers),
            _ => true,
        });
    }
}

/// Wakes the window from another thread (a level file saved).
static WAKER: OnceLock<Box<dyn Fn() + Send + Sync>> = OnceLock::new();
/// Set by [`wake`], taken by the next frame.
static WOKEN: AtomicBool = AtomicBool::new(false);

/// Wakes the window at once, if it sleeps, and keeps it drawing for a
/// moment: for what comes from another thread.
pub fn wake() {
    WOKEN.store(true, Ordering::Release);
    if let Some(wake) = WAKER.get() {
        wake();
    }
}

/// Wakes the window for one frame, if it sleeps: for news from another
/// thread that one frame shows whole (the Arena screen's, twice a second;
/// [`wake`] would keep it drawing all the time).
pub fn wake_for_one_frame() {
    if let Some(wake) = WAKER.get() {
        wake();
    }
}

fn stay_awake_after_wake(time: Res<Time<Real>>, mut until: Local<Duration>, mut next: ResMut<NextFrame>) {
    if WOKEN.swap(false, Ordering::AcqRel) {
        *until = time.elapsed() + AWAKE_AFTER_WAKE;
    }
    if time.elapsed() < *until {
        next.ask();
    }
}

fn keep_waker(proxy: Option<Res<EventLoopProxyWrapper>>) {
    let Some(proxy) = proxy else { return };
    let proxy = (**proxy).clone();
    // A second window in the process would keep the first one's waker; the
    // game opens one.
    let _ = WAKER.set(Box::new(move || {
        let _ = proxy.send_event(WinitUserEvent::WakeUp);
    }));
}

pub(crate) fn ask_for_the_next_frame(mut next: ResMut<NextFrame>, mut redraw: MessageWriter<RequestRedraw>) {
    if std::mem::take(&mut next.asked) {
        redraw.write(RequestRedraw);
    }
}
