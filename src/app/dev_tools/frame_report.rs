//! `TABULA_FRAME_REPORT=N`: measures N frames after a warm-up and prints
//! the frame time (Bevy's frame-time diagnostics) and the time of the
//! game's own systems (scripts/frame-report.sh), then quits.
//!
//! The game's own systems run in `Update` in the session sets: requests,
//! moves (agents, replays, the engine), then the board view. The span from
//! before the first set to after the last is timed. While reporting,
//! `Update` runs on one thread, so the span is the systems' own work one
//! after another, not Bevy's hand-over of systems between threads, which
//! costs most where software rendering keeps both cores busy
//! (`TABULA_FRAME_REPORT_THREADS=multi` keeps the multi-threaded executor
//! to measure that too). Another plugin's `Update` system may run within
//! the span, so the figure is an upper bound.

use std::time::Instant;

use bevy::diagnostic::{DiagnosticsStore, FrameTimeDiagnosticsPlugin};
use bevy::ecs::schedule::SingleThreadedExecutor;
use bevy::prelude::*;

use crate::app::session::SessionSet;

/// Frames before measuring: shaders compiled, the board built.
const WARM_UP: u32 = 90;

#[derive(Resource, Debug)]
struct FrameReport {
    frames: u32,
    seen: u32,
    started: Option<Instant>,
    own_ms: Vec<f64>,
    frame_ms: Vec<f64>,
    /// When each set ended, for the split by set.
    marks: [Option<Instant>; 3],
    set_ms: [Vec<f64>; 3],
}

const SETS: [&str; 3] = ["requests", "moves", "view"];

pub(super) fn plugin(app: &mut App) {
    let Some(frames) = std::env::var("TABULA_FRAME_REPORT").ok().and_then(|n| n.parse().ok()) else {
        return;
    };
    if !app.is_plugin_added::<FrameTimeDiagnosticsPlugin>() {
        app.add_plugins(FrameTimeDiagnosticsPlugin::default());
    }
    if std::env::var("TABULA_FRAME_REPORT_THREADS").as_deref() != Ok("multi") {
        app.edit_schedule(Update, |schedule| {
            schedule.set_executor(SingleThreadedExecutor::new());
        });
    }
    app.insert_resource(FrameReport {
        frames,
        seen: 0,
        started: None,
        own_ms: Vec::new(),
        frame_ms: Vec::new(),
        marks: [None; 3],
        set_ms: Default::default(),
    })
    .add_systems(Update, start_own.before(SessionSet::Requests))
    .add_systems(Update, mark::<0>.after(SessionSet::Requests).before(SessionSet::Moves))
    .add_systems(Update, mark::<1>.after(SessionSet::Moves).before(SessionSet::View))
    .add_systems(Update, (mark::<2>, end_own).chain().after(SessionSet::View))
    .add_systems(Last, report);
}

fn start_own(mut report: ResMut<FrameReport>) {
    report.started = Some(Instant::now());
}

fn mark<const SET: usize>(mut report: ResMut<FrameReport>) {
    report.marks[SET] = Some(Instant::now());
}

fn end_own(mut report: ResMut<FrameReport>) {
    let report = &mut *report;
    if let Some(started) = report.started.take()
        && report.seen >= WARM_UP
    {
        report.own_ms.push(started.elapsed().as_secs_f64() * 1000.0);
        let mut from = started;
        for (set, mark) in report.marks.iter().enumerate() {
            if let Some(at) = *mark {
                report.set_ms[set].push(at.saturating_duration_since(from).as_secs_f64() * 1000.0);
                from = at;
            }
        }
    }
}

fn report(mut report: ResMut<FrameReport>, store: Res<DiagnosticsStore>, mut exit: MessageWriter<AppExit>) {
    report.seen += 1;
    if report.seen > WARM_UP
        && let Some(ms) = store.get(&FrameTimeDiagnosticsPlugin::FRAME_TIME).and_then(|d| d.value())
    {
        report.frame_ms.push(ms);
    }
    if report.seen < WARM_UP + report.frames {
        return;
    }
    let summary = |name: &str, values: &mut Vec<f64>| {
        values.sort_by(f64::total_cmp);
        let mean = values.iter().sum::<f64>() / values.len().max(1) as f64;
        let at =
            |q: f64| values.get(((values.len() as f64 - 1.0) * q).round() as usize).copied().unwrap_or(0.0);
        println!(
            "{name}: mean {mean:.3} ms, median {:.3} ms, 95% within {:.3} ms, max {:.3} ms",
            at(0.5),
            at(0.95),
            at(1.0)
        );
    };
    println!("{} frames after {WARM_UP} to warm up", report.frames);
    let mut frame = std::mem::take(&mut report.frame_ms);
    let mut own = std::mem::take(&mut report.own_ms);
    summary("frame time", &mut frame);
    summary("tabula's own systems", &mut own);
    for (set, name) in SETS.iter().enumerate() {
        let mut values = std::mem::take(&mut report.set_ms[set]);
        summary(&format!("  of which {name}"), &mut values);
    }
    exit.write(AppExit::Success);
}
