//! The bottom bar: the status line, and the keys that work now.

use bevy::prelude::*;
use bevy_egui::egui;

use super::room::PanelRoom;
use crate::app::game::WindowGame;
use crate::app::session::{Session, StatusLine};
use crate::app::theme::widgets::status_text;

/// The second panel: the window's bottom, the whole width.
pub(super) fn bottom_bar<G: WindowGame>(
    mut panels: PanelRoom,
    session: Res<Session<G>>,
    status: Res<StatusLine>,
) -> Result {
    let bottom = panels.show("status", |root| {
        egui::Panel::bottom("status").show(root, |ui| {
            ui.add_space(3.0);
            ui.label(status_text(ui, &status).size(16.0));
            ui.label(egui::RichText::new(controls_help(&session)).weak());
            ui.add_space(3.0);
        })
    })?;
    panels.room.bottom = bottom.response.rect;
    Ok(())
}

/// The keys for what is going on: a replay, a person playing, or agents
/// watched.
fn controls_help<G: WindowGame>(session: &Session<G>) -> String {
    if session.replay {
        return "Replay: Space play/pause · . step forward · , step back · Esc menu".into();
    }
    if session.has_human() {
        format!("{} · U undo · R redo · L lesson · M mute · Esc menu", G::controls(&session.level))
    } else {
        "Watching: Space pause · . step · [ ] speed · U undo · L lesson · Ctrl+S save replay · Esc menu"
            .into()
    }
}
