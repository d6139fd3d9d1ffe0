//! Watching: the side panel's controls (pause, step, step back, the agents'
//! speed and the animations'), and Paused shown on the board.

use bevy::prelude::*;
use bevy_egui::egui;

use super::room::PanelRoom;
use crate::app::game::WindowGame;
use crate::app::session::{Session, SessionRequest, Watch};
use crate::app::settings::Settings;
use crate::app::theme::palette::PAUSED_COLOR;

/// The side panel's Watch section.
pub(super) fn watch_controls<G: WindowGame>(
    ui: &mut egui::Ui,
    session: &Session<G>,
    watch: &Watch,
    settings: &mut Settings,
    requests: &mut MessageWriter<SessionRequest>,
) {
    ui.heading("Watch");
    ui.horizontal(|ui| {
        let label = if watch.paused { "Resume (Space)" } else { "Pause (Space)" };
        if ui.button(label).clicked() {
            requests.write(SessionRequest::TogglePause);
        }
        if ui.button("Step (.)").clicked() {
            requests.write(SessionRequest::Step);
        }
    });
    if session.replay && ui.button("Step back (,)").clicked() {
        requests.write(SessionRequest::Undo);
    }
    ui.add(
        egui::Slider::new(&mut settings.ai_moves_per_second, 0.25..=30.0).logarithmic(true).text("moves/s"),
    );
    ui.add(egui::Slider::new(&mut settings.animation_speed, 0.25..=4.0).logarithmic(true).text("animation"));
}

/// Paused shows on the board too, at its top left corner.
pub(super) fn paused_note<G: WindowGame>(
    mut panels: PanelRoom,
    session: Res<Session<G>>,
    watch: Res<Watch>,
) -> Result {
    if !watch.paused {
        return Ok(());
    }
    let ctx = panels.ctx()?;
    let at = egui::pos2(10.0, panels.room.top.bottom() + 10.0);
    egui::Area::new("paused".into()).fixed_pos(at).show(&ctx, |ui| {
        egui::Frame::popup(ui.style()).show(ui, |ui| {
            let text = if session.replay {
                "Paused: Space plays, . steps"
            } else {
                "Paused: Space goes on, . plays one move"
            };
            ui.label(egui::RichText::new(text).color(PAUSED_COLOR).strong().size(17.0));
        });
    });
    Ok(())
}
