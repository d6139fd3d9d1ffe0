//! The bottom bar: the status line, and the keys that work now.

use bevy::prelude::*;
use bevy_egui::egui;

use super::room::PanelRoom;
use crate::app::game::WindowGame;
use crate::app::help::{Controls, Key, ScreenKeys, key};
use crate::app::session::{Session, StatusLine};
use crate::app::teach::Teaching;
use crate::app::theme::widgets::status_text;

/// The second panel: the window's bottom, the whole width.
pub(super) fn bottom_bar<G: WindowGame>(
    mut panels: PanelRoom,
    session: Res<Session<G>>,
    status: Res<StatusLine>,
    teaching: Res<Teaching>,
    mut help: ResMut<ScreenKeys>,
) -> Result {
    let mut controls = controls(&session);
    // A board that teaches names T among its keys; watching or stepping
    // through a replay, its keys are not listed, so the F1 list names it.
    // At a server's table it is not offered, and not named.
    let named = controls.keys.iter().chain(&controls.more).any(|k| k.keys == "T");
    if teaching.offered != Some(G::NAME) {
        controls.keys.retain(|k| k.keys != "T");
    } else if !named {
        controls = controls.also(&[key("T", G::TEACHES)]);
    }
    let line = help.show(G::TITLE, controls);
    let bottom = panels.show("status", |root| {
        egui::Panel::bottom("status").show(root, |ui| {
            ui.add_space(3.0);
            ui.label(status_text(ui, &status).size(16.0));
            ui.label(egui::RichText::new(line).weak());
            ui.add_space(3.0);
        })
    })?;
    panels.room.bottom = bottom.response.rect;
    Ok(())
}

/// The keys for what is going on: a replay, a person playing, or agents
/// watched.
fn controls<G: WindowGame>(session: &Session<G>) -> Controls {
    if session.kind.steps_through() {
        let keys =
            [key("Space", "play/pause"), key(".", "step forward"), key(",", "step back"), key("Esc", "menu")];
        return Controls::new("Click a move in the log to go to it.", &keys);
    }
    if session.outcome().is_some() {
        return ended_controls(session);
    }
    if !session.kind.plays_here() {
        return table_controls(session);
    }
    let deal: &[Key] = if session.deals { &[key("Shift+F2", "restart this deal")] } else { &[] };
    if session.has_human() {
        G::controls(&session.level)
            .and(&[key("U", "undo"), key("R", "redo"), key("F2", "play again")])
            .and(deal)
            .and(&[key("L", "lesson"), key("M", "mute"), key("Esc", "menu")])
            .also(&[
                key("Ctrl+Z, Ctrl+Y", "undo, redo"),
                key("Space or P", "pause or resume the agents"),
                key(".", "one agent move"),
                key("[ ]", "agents slower, faster"),
                key("Ctrl+S", "save a replay"),
                key("O", "open a replay"),
            ])
    } else {
        let keys = [
            key("Space", "pause"),
            key(".", "step"),
            key("[ ]", "slower, faster"),
            key("U", "undo"),
            key("F2", "play again"),
        ];
        Controls::new("Watching the agents.", &keys)
            .and(deal)
            .and(&[key("L", "lesson"), key("Ctrl+S", "save replay"), key("Esc", "menu")])
            .also(&[key("R", "redo"), key("O", "open a replay"), key("M", "mute")])
    }
}

/// A game played elsewhere: the board's keys for a seat, and what undo
/// and play again mean there; a spectator only watches.
fn table_controls<G: WindowGame>(session: &Session<G>) -> Controls {
    let common = [key("L", "lesson"), key("M", "mute"), key("Esc", "menu")];
    if session.has_human() {
        G::controls(&session.level)
            .and(&[key("U", session.kind.undo()), key("F2", session.kind.again())])
            .and(&common)
    } else {
        Controls::new("Watching the table: the moves come as they are played.", &common)
    }
}

/// After the end: no more play, only what comes next.
fn ended_controls<G: WindowGame>(session: &Session<G>) -> Controls {
    if !session.kind.plays_here() {
        let again: &[Key] = if session.has_human() { &[key("F2", session.kind.again())] } else { &[] };
        return Controls::new("The game is over.", again)
            .and(&[key("O", "open a replay"), key("Esc", "menu")]);
    }
    let save: &[Key] = if session.saved_as().is_some() { &[] } else { &[key("Ctrl+S", "save the replay")] };
    let deal: &[Key] = if session.deals { &[key("Shift+F2", "restart this deal")] } else { &[] };
    Controls::new("The game is over.", &[key("F2", "play again")])
        .and(deal)
        .and(&[key("U", "take back the last move")])
        .and(save)
        .and(&[key("O", "open a replay"), key("Esc", "menu")])
        .also(&[key("L", "lesson"), key("M", "mute")])
}

#[cfg(test)]
mod tests {
    use tabula_engine::nim::Nim;
    use tabula_engine::{Game, Player};

    use super::*;

    /// After the end the bar lists what comes next, not moves to make.
    #[test]
    fn after_the_end_the_keys_are_what_comes_next() {
        let mut session = super::super::nim_session(&[1]);
        let playing = controls(&session).line();
        let mut legal = Vec::new();
        session.game.legal_moves(Player::ONE, &mut legal);
        session.game.apply(Player::ONE, legal[0]).unwrap();
        session.moves.push(legal[0]);
        session.movers.push(Player::ONE);
        assert!(session.outcome().is_some());
        let ended = controls(&session).line();
        assert!(ended.starts_with("The game is over."), "{ended}");
        for next in ["F2 play again", "U take back the last move", "Ctrl+S save the replay", "Esc menu"] {
            assert!(ended.contains(next), "{next} missing: {ended}");
        }
        assert!(!playing.starts_with("The game is over."), "{playing}");
        let board_keys = Nim::controls(&session.level).line();
        assert!(!ended.contains(&board_keys), "the board's keys are gone: {ended}");
    }
}
