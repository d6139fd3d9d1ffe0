//! The game screen at a server's table: the connection and the invite in
//! the top bar, each seat's state and clock beside its name, a take-back
//! asked and answered, resigning, and a rematch at the end.

use bevy::ecs::system::SystemParam;
use bevy::prelude::*;
use bevy_egui::egui;
use tabula_engine::Player;

use crate::app::ask::{Asking, Question};
use crate::app::game::WindowGame;
use crate::app::online::host::Hosting;
use crate::app::online::{OnlineTable, clock_text};
use crate::app::session::{Session, SessionRequest};
use crate::app::theme::palette::{ERROR_COLOR, OK_COLOR, PAUSED_COLOR};
use crate::app::theme::widgets::status_light;

/// The table, for the panels; absent at a local game.
#[derive(SystemParam)]
pub(super) struct Table<'w> {
    pub(super) online: Option<Res<'w, OnlineTable>>,
    hosting: Option<Res<'w, Hosting>>,
}

impl Table<'_> {
    /// A seat's state beside its name: "you", "reconnecting", the clock.
    pub(super) fn seat_label(&self, seat: usize) -> Option<String> {
        let online = self.online.as_ref()?;
        let clock = online.clocks_now().and_then(|c| c.get(seat).map(|&ms| format!(" · {}", clock_text(ms))));
        Some(format!("{}{}", online.seat_state(seat), clock.unwrap_or_default()))
    }

    /// A seat is still open: the game has not begun.
    pub(super) fn waiting(&self) -> bool {
        self.online.as_ref().is_some_and(|o| !o.all_seated())
    }

    /// The line under the seats: connected or not, the table's code, and
    /// while a seat is open, where a friend joins.
    pub(super) fn connection_line(&self, ui: &mut egui::Ui) {
        let Some(online) = &self.online else { return };
        ui.horizontal_wrapped(|ui| {
            let (color, said) = match &online.trouble {
                None if online.up => (OK_COLOR, "Online".to_owned()),
                Some(why) => (ERROR_COLOR, format!("Connection lost, reconnecting… ({why})")),
                None => (PAUSED_COLOR, "Connecting…".to_owned()),
            };
            status_light(ui, color);
            ui.label(egui::RichText::new(said).color(color).strong());
            ui.label(egui::RichText::new(online.url()).monospace().weak());
            let Some(code) = &online.table else { return };
            if online.seat.is_none() {
                ui.label("· watching (spectator)");
            }
            if online.all_seated() {
                ui.label(egui::RichText::new(format!("· table {code}")).weak());
                return;
            }
            let address = self.hosting.as_ref().map_or_else(|| online.url().to_owned(), |h| h.invite_url());
            ui.label(egui::RichText::new("· Waiting for a friend: send them").strong());
            ui.label(egui::RichText::new(format!("address {address}  code {code}")).monospace().strong());
            if ui.small_button("Copy").on_hover_text("Copies the address and code").clicked() {
                ui.ctx().copy_text(format!("{address} {code}"));
            }
        });
    }
}

/// The side panel's game buttons at a server's table.
pub(super) fn game_buttons<G: WindowGame>(
    ui: &mut egui::Ui,
    online: &OnlineTable,
    session: &Session<G>,
    requests: &mut MessageWriter<SessionRequest>,
    asking: &mut Asking,
) {
    ui.heading("Game");
    take_back_question(ui, online, session, requests);
    let seated = online.seat.is_some();
    let over = session.outcome().is_some();
    // A spectator only watches.
    if seated {
        ui.horizontal(|ui| {
            let ask =
                ui.add_enabled(!over && !session.moves.is_empty(), egui::Button::new("Ask to take back (U)"));
            if ask.on_hover_text("Your last move, if the others agree").clicked() {
                requests.write(SessionRequest::Undo);
            }
            if ui.add_enabled(!over, egui::Button::new("Resign")).clicked() {
                asking.0 = Some(Question::Resign);
            }
        });
    }
    ui.horizontal(|ui| {
        if seated && over && ui.button("Rematch (F2)").clicked() {
            requests.write(SessionRequest::PlayAgain);
        }
        if ui.button("Menu (Esc)").clicked() {
            requests.write(SessionRequest::BackToMenu);
        }
    });
    if !online.rematch_asked.is_empty() {
        ui.label(format!("Rematch asked by {}", names(session, &online.rematch_asked)));
    }
}

/// A take-back waiting for answers: the others are asked to accept it.
fn take_back_question<G: WindowGame>(
    ui: &mut egui::Ui,
    online: &OnlineTable,
    session: &Session<G>,
    answers: &mut MessageWriter<SessionRequest>,
) {
    let Some((by, to_ply)) = online.take_back else { return };
    let what = taken_back(session.moves.len(), to_ply);
    egui::Frame::group(ui.style()).stroke(egui::Stroke::new(1.5, PAUSED_COLOR)).show(ui, |ui| {
        if online.seat == Some(by) {
            ui.label(format!("You asked to take back {what}: waiting for the others"));
            return;
        }
        ui.label(egui::RichText::new(format!("{} asks to take back {what}", session.name_of(by))).strong());
        if online.seat.is_some() {
            ui.horizontal(|ui| {
                if ui.button("Accept").clicked() {
                    answers.write(SessionRequest::AnswerTakeBack(true));
                }
                if ui.button("Decline").clicked() {
                    answers.write(SessionRequest::AnswerTakeBack(false));
                }
            });
        }
    });
}

/// What a take-back to `to_ply` undoes, `plies` moves played, in words.
fn taken_back(plies: usize, to_ply: usize) -> String {
    match plies.saturating_sub(to_ply) {
        _ if to_ply == 0 => "every move, to the start".to_owned(),
        1 => "the last move".to_owned(),
        n => format!("the last {n} moves"),
    }
}

fn names<G: WindowGame>(session: &Session<G>, seats: &[Player]) -> String {
    seats.iter().map(|&p| session.name_of(p)).collect::<Vec<_>>().join(", ")
}

#[cfg(test)]
mod tests {
    use super::taken_back;

    #[test]
    fn a_take_back_is_said_in_moves_not_plies() {
        assert_eq!(taken_back(7, 6), "the last move");
        assert_eq!(taken_back(7, 5), "the last 2 moves");
        assert_eq!(taken_back(1, 0), "every move, to the start");
    }
}
