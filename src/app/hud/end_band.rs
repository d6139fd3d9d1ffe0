//! The end of a game: the result and what to do next, as a band under the
//! board; before the end, Paused shows there. The board is fitted to the
//! space left, so the band never covers a pit, a card or a name.

use bevy::prelude::*;
use bevy_egui::egui;

use super::PanelsBelow;
use super::room::PanelRoom;
use super::watch::paused_band;
use crate::app::game::WindowGame;
use crate::app::session::{Headline, Session, SessionRequest, Sitting, Watch};

const END_FILL: egui::Color32 = egui::Color32::from_rgb(38, 52, 44);
/// The game-over band's height with one line of result and its buttons.
const END_BAND_ROOM: f32 = 72.0;

/// The last panel: the bottom of what the bars and the side panel leave.
pub(super) fn end_band<G: WindowGame>(
    mut panels: PanelRoom,
    session: Res<Session<G>>,
    headline: Res<Headline>,
    watch: Res<Watch>,
    sitting: Res<Sitting>,
    mut requests: MessageWriter<SessionRequest>,
    mut end_room: Local<f32>,
    mut below: ResMut<PanelsBelow>,
) -> Result {
    let shown = panels.show("game over", |root| {
        let tally = sitting.line(&session);
        band(root, &session, &headline, tally, &mut requests).or_else(|| paused_band(root, &session, &watch))
    })?;
    below.set_if_neq(PanelsBelow(panels.room.bottom.height() + shown.unwrap_or(0.0)));
    // The band's room is kept from the start (as tall as any band shown),
    // so the board does not move when the band comes.
    *end_room = end_room.max(shown.unwrap_or(0.0)).max(END_BAND_ROOM);
    panels.room.end = *end_room;
    Ok(())
}

/// The band, once the game is over (at the end of a replay); its height.
fn band<G: WindowGame>(
    root: &mut egui::Ui,
    session: &Session<G>,
    headline: &Headline,
    tally: Option<String>,
    requests: &mut MessageWriter<SessionRequest>,
) -> Option<f32> {
    if session.outcome().is_none() || (session.kind.steps_through() && !session.redo.is_empty()) {
        return None;
    }
    let frame = egui::Frame::side_top_panel(root.style())
        .fill(END_FILL)
        .inner_margin(egui::Margin::symmetric(16, 10));
    let band = egui::Panel::bottom("game over").frame(frame).resizable(false).show(root, |ui| {
        ui.horizontal_wrapped(|ui| {
            ui.label(egui::RichText::new("Game over").size(16.0).weak());
            // The match's result first, then the deal's.
            if let Some(headline) = &headline.0 {
                ui.label(egui::RichText::new(headline).size(24.0).strong());
            }
            if let Some(text) = rules_text(session, headline) {
                let size = if headline.0.is_some() { 17.0 } else { 24.0 };
                ui.label(egui::RichText::new(text).size(size).strong());
            }
            ui.label(after_moves(session.moves.len()));
            if let Some(tally) = tally {
                ui.label(egui::RichText::new(format!("· {tally}")).size(16.0));
            }
        });
        ui.horizontal(|ui| {
            // Played elsewhere, again means a rematch the others accept,
            // and the replay is kept there.
            let here = session.kind.plays_here();
            let again = match (here, session.turns_seats_round()) {
                (true, true) => format!("Play again: {} (F2)", session.person_again().unwrap_or_default()),
                (true, false) => "Play again (F2)".to_owned(),
                (false, _) => "Rematch (F2)".to_owned(),
            };
            // A spectator has no seat to play again with.
            let seated = here || session.has_human();
            if seated && ui.button(egui::RichText::new(again).size(16.0)).clicked() {
                requests.write(SessionRequest::PlayAgain);
            }
            let saved = session.saved_as().and_then(|p| p.file_name()).map(|n| n.to_string_lossy());
            if saved.is_none()
                && here
                && ui.button(egui::RichText::new("Save replay (Ctrl+S)").size(16.0)).clicked()
            {
                requests.write(SessionRequest::SaveReplay);
            }
            if ui.button(egui::RichText::new("Menu (Esc)").size(16.0)).clicked() {
                requests.write(SessionRequest::BackToMenu);
            }
            // Saved already (every finished game is, by default): said, not
            // offered again as a second copy.
            if let Some(name) = saved {
                ui.label(egui::RichText::new(format!("Saved as the replay {name}")).weak());
            }
        });
    });
    Some(band.response.rect.height())
}

/// The game's result in its rules' words. An end called off the board (a
/// resignation, a flag) is said by the headline alone: the rules would
/// read a game that is not over as a draw.
fn rules_text<G: WindowGame>(session: &Session<G>, headline: &Headline) -> Option<String> {
    (session.game.outcome().is_some() || headline.0.is_none())
        .then(|| G::outcome_text(&session.view(), &session.names()))
}

/// How long the game was, in words.
fn after_moves(n: usize) -> String {
    if n == 1 { "after 1 move".to_owned() } else { format!("after {n} moves") }
}

#[cfg(test)]
mod tests {

    use tabula_engine::{Outcome, Player};

    use super::*;
    use crate::app::theme::widgets::root_ui_over;

    #[test]
    fn a_resignation_is_said_by_its_headline_not_read_as_a_draw() {
        let mut session = super::super::nim_session(&[3, 4]);
        session.called = Some(Outcome::Win(Player::ONE));
        let headline = Headline(Some("Bob resigned: Ann wins".into()));
        assert_eq!(rules_text(&session, &headline), None);
        let mut over = super::super::nim_session(&[1]);
        over.game.play(tabula_engine::nim::Take { pile: 0, count: 1 }).unwrap();
        assert!(rules_text(&over, &headline).is_some(), "a deal over by its rules says so beside the match");
        assert_eq!((after_moves(1), after_moves(2)), ("after 1 move".to_owned(), "after 2 moves".to_owned()));
    }

    /// Paused is said in the room kept under the board, which the board is
    /// fitted above: it covers no piece however the board is drawn.
    #[test]
    fn paused_fits_in_the_room_kept_under_the_board() {
        let session = super::super::nim_session(&[3, 4]);
        let ctx = egui::Context::default();
        let window = egui::Rect::from_min_size(egui::Pos2::ZERO, egui::vec2(1280.0, 800.0));
        let input = || egui::RawInput { screen_rect: Some(window), ..Default::default() };
        for paused in [false, true] {
            let watch = Watch { paused, ..Default::default() };
            ctx.begin_pass(input());
            let mut root = root_ui_over(&ctx, egui::Id::new("test"), window);
            let shown = paused_band(&mut root, &session, &watch);
            // No renderer takes the font atlas here: it is let go.
            ctx.end_pass().textures_delta.clear();
            match shown {
                None => assert!(!paused, "Paused is said while paused"),
                Some(height) => assert!(paused && height > 0.0 && height <= END_BAND_ROOM, "{height}"),
            }
        }
    }
}
