//! The game screen where the game is kept elsewhere (a server's table):
//! each seat's state and clock beside its name, the connection and the
//! invite in the top bar, a take-back asked and answered, resigning, and
//! a rematch at the end. All of it is drawn from what the keeper tells
//! the panels (`TableNews`).

use bevy::prelude::*;
use bevy_egui::egui;
use tabula_engine::Player;

use crate::app::ask::{Asking, Question};
use crate::app::game::WindowGame;
use crate::app::session::{Connection, Session, SessionRequest, TableLine, TableNews};
use crate::app::theme::palette::{ERROR_COLOR, OK_COLOR, PAUSED_COLOR};
use crate::app::theme::widgets::status_light;

/// The line under the seats: connected or not, the table's code, and
/// while a seat is open, where a friend joins.
pub(super) fn table_line(ui: &mut egui::Ui, news: &TableNews) {
    let Some(line) = &news.line else { return };
    ui.horizontal_wrapped(|ui| {
        let (color, said) = match &line.connection {
            Connection::Up => (OK_COLOR, "Online".to_owned()),
            Connection::Lost(why) => (ERROR_COLOR, format!("Connection lost, reconnecting… ({why})")),
            Connection::Connecting => (PAUSED_COLOR, "Connecting…".to_owned()),
        };
        status_light(ui, color);
        ui.label(egui::RichText::new(said).color(color).strong());
        ui.label(egui::RichText::new(&line.address).monospace().weak());
        let Some(code) = &line.code else { return };
        if news.seat.is_none() {
            ui.label("· watching (spectator)");
        }
        if !news.waiting {
            ui.label(egui::RichText::new(format!("· table {code}")).weak());
            return;
        }
        invite(ui, line, code);
    });
}

/// What to send a friend while a seat is open, and a button to copy it.
fn invite(ui: &mut egui::Ui, line: &TableLine, code: &str) {
    let address = &line.invite;
    ui.label(egui::RichText::new("· Waiting for a friend: send them").strong());
    ui.label(egui::RichText::new(format!("address {address}  code {code}")).monospace().strong());
    if ui.small_button("Copy").on_hover_text("Copies the address and code").clicked() {
        ui.ctx().copy_text(format!("{address} {code}"));
    }
    // A friend without tabula plays in a browser, from the server's page.
    let Some(link) = &line.link else { return };
    ui.label(egui::RichText::new("· or, in a browser:").strong());
    ui.label(egui::RichText::new(link).monospace().strong());
    if ui.small_button("Copy link").on_hover_text("Copies the link to the web page's seat").clicked() {
        ui.ctx().copy_text(link.clone());
    }
}

/// The side panel's game buttons where the game is kept elsewhere.
pub(super) fn game_buttons<G: WindowGame>(
    ui: &mut egui::Ui,
    news: &TableNews,
    session: &Session<G>,
    requests: &mut MessageWriter<SessionRequest>,
    asking: &mut Asking,
) {
    ui.heading("Game");
    take_back_question(ui, news, session, requests);
    let seated = news.seat.is_some();
    let over = session.outcome().is_some();
    // A spectator only watches.
    if seated {
        ui.horizontal(|ui| {
            let ask = egui::Button::new(format!("{} (U)", capitalised(session.kind.undo())));
            let ask = ui.add_enabled(!over && !session.moves.is_empty(), ask);
            if ask.on_hover_text("Your last move, if the others agree").clicked() {
                requests.write(SessionRequest::Undo);
            }
            if ui.add_enabled(!over, egui::Button::new("Resign")).clicked() {
                asking.0 = Some(Question::Resign);
            }
        });
    }
    ui.horizontal(|ui| {
        if seated && over && ui.button(format!("{} (F2)", capitalised(session.kind.again()))).clicked() {
            requests.write(SessionRequest::PlayAgain);
        }
        if ui.button("Menu (Esc)").clicked() {
            requests.write(SessionRequest::BackToMenu);
        }
    });
    if !news.rematch_asked.is_empty() {
        ui.label(format!(
            "{} asked by {}",
            capitalised(session.kind.again()),
            names(session, &news.rematch_asked)
        ));
    }
}

/// A take-back waiting for answers: the others are asked to accept it.
fn take_back_question<G: WindowGame>(
    ui: &mut egui::Ui,
    news: &TableNews,
    session: &Session<G>,
    answers: &mut MessageWriter<SessionRequest>,
) {
    let Some((by, to_ply)) = news.take_back else { return };
    let what = taken_back(session.moves.len(), to_ply);
    egui::Frame::group(ui.style()).stroke(egui::Stroke::new(1.5, PAUSED_COLOR)).show(ui, |ui| {
        if news.seat == Some(by) {
            ui.label(format!("You asked to take back {what}: waiting for the others"));
            return;
        }
        ui.label(egui::RichText::new(format!("{} asks to take back {what}", session.name_of(by))).strong());
        if news.seat.is_some() {
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

/// Words begun with a capital, for a button: "rematch" as "Rematch".
fn capitalised(words: &str) -> String {
    let mut chars = words.chars();
    chars.next().map_or_else(String::new, |first| first.to_uppercase().chain(chars).collect())
}

fn names<G: WindowGame>(session: &Session<G>, seats: &[Player]) -> String {
    seats.iter().map(|&p| session.name_of(p)).collect::<Vec<_>>().join(", ")
}

#[cfg(test)]
mod tests {
    use super::{capitalised, taken_back};

    #[test]
    fn a_take_back_is_said_in_moves_not_plies() {
        assert_eq!(taken_back(7, 6), "the last move");
        assert_eq!(taken_back(7, 5), "the last 2 moves");
        assert_eq!(taken_back(1, 0), "every move, to the start");
    }

    #[test]
    fn a_button_begins_with_a_capital() {
        assert_eq!(capitalised("ask to take back"), "Ask to take back");
        assert_eq!(capitalised(""), "");
    }
}
