//! Measurement hooks for the scripts that measure the window, built only
//! with the `dev` feature (`cargo build --features dev`), each turned on by
//! a variable: `TABULA_REPORT_FIRST_FRAME=1` (scripts/first-frame.sh),
//! `TABULA_FRAME_REPORT=N` (scripts/frame-report.sh, in `frame_report`),
//! `TABULA_REPORT_RELOAD=1` (scripts/reload-latency.sh) and
//! `TABULA_CONTINUOUS=1` (scripts/idle-cpu.sh). What players run has none.

mod frame_report;

use std::sync::OnceLock;
use std::time::{Instant, SystemTime};

use bevy::diagnostic::FrameCount;
use bevy::prelude::*;
use bevy::winit::WinitSettings;

use super::frames::NextFrame;
use super::levels::reload::LevelReloaded;

/// When the process started, for the first-frame report.
static START: OnceLock<Instant> = OnceLock::new();

/// Marks the start of the process: `main` calls this first thing.
pub fn process_started() {
    START.get_or_init(Instant::now);
}

/// Added after `frames::reactive`, whose resting `TABULA_CONTINUOUS` undoes.
pub(super) fn plugin(app: &mut App) {
    app.add_plugins(frame_report::plugin);
    if std::env::var_os("TABULA_REPORT_FIRST_FRAME").is_some() {
        app.add_systems(Last, report_first_frame);
    }
    if std::env::var_os("TABULA_REPORT_RELOAD").is_some() {
        app.add_systems(Last, report_reload);
    }
    if std::env::var_os("TABULA_CONTINUOUS").is_some() {
        // Bevy's default: every frame drawn while the window has focus, as
        // before the window rested (scripts/idle-cpu.sh compares the two).
        app.insert_resource(WinitSettings::default());
    }
}

/// `TABULA_REPORT_FIRST_FRAME=1`: print how long the first frame took from
/// process start, then quit.
fn report_first_frame(frames: Res<FrameCount>, mut exit: MessageWriter<AppExit>) {
    // Rendering is pipelined: frame 0 is on screen once update 1 has ended.
    if frames.0 >= 2 {
        let ms = START.get().map_or(0, |t| t.elapsed().as_millis());
        println!("first frame after {ms} ms");
        exit.write(AppExit::Success);
    }
}

/// `TABULA_REPORT_RELOAD=1`: when a reloaded level is on screen, how long
/// after its file was saved. The new board is spawned the frame after the
/// restart and drawn the frame after that (rendering is pipelined).
fn report_reload(
    mut reloaded: MessageReader<LevelReloaded>,
    mut saved: Local<Option<(SystemTime, u32)>>,
    mut next: ResMut<NextFrame>,
) {
    for LevelReloaded { path } in reloaded.read() {
        if let Ok(at) = std::fs::metadata(path).and_then(|m| m.modified()) {
            *saved = Some((at, 0));
        }
    }
    let Some((at, frames)) = saved.as_mut() else { return };
    *frames += 1;
    next.ask();
    if *frames == 3 {
        let ms = at.elapsed().map_or(0, |d| d.as_millis());
        println!("level on screen {ms} ms after the file was saved");
        *saved = None;
    }
}
