//! The top bar: the game and level with its rules, the seats with the one
//! to move underlined, whose move it is or how the game ended, the move
//! previewed, Paused, the replay's place, and what the agents say.

use bevy::ecs::system::SystemParam;
use bevy::prelude::*;
use bevy_egui::egui;

use super::room::PanelRoom;
use super::table::table_line;
use crate::app::board::seat_color32;
use crate::app::game::WindowGame;
use crate::app::session::{Agents, Controller, Headline, MovePreview, Session, TableNews, Turn, Watch};
use crate::app::teach::Teaching;
use crate::app::theme::palette::{PAUSED_COLOR, TEACH_COLOR};

/// What the top bar says of the game.
#[derive(SystemParam)]
pub(super) struct TurnFacts<'w, G: WindowGame> {
    session: Res<'w, Session<G>>,
    agents: Option<Res<'w, Agents<G>>>,
    turn: Res<'w, Turn>,
    headline: Res<'w, Headline>,
    preview: Res<'w, MovePreview>,
    watch: Res<'w, Watch>,
    teaching: Res<'w, Teaching>,
    news: Res<'w, TableNews>,
}

/// The first panel of the game screen: it takes the window's top.
pub(super) fn top_bar<G: WindowGame>(mut panels: PanelRoom, facts: TurnFacts<G>) -> Result {
    panels.start()?;
    let top = panels.show("turn", |root| {
        egui::Panel::top("turn").show(root, |ui| {
            ui.add_space(4.0);
            ui.horizontal(|ui| {
                ui.heading(format!("{} · {}", G::TITLE, facts.session.level_name));
                ui.separator();
                ui.label(G::rules_text(&facts.session.level));
            });
            ui.horizontal_wrapped(|ui| facts.seats_and_turn(ui));
            table_line(ui, &facts.news);
            facts.verdict(ui);
            facts.agents_notes(ui);
            ui.add_space(4.0);
        })
    })?;
    panels.room.top = top.response.rect;
    Ok(())
}

impl<G: WindowGame> TurnFacts<'_, G> {
    /// The seats, then whose move it is (or how it ended) and what goes
    /// with it.
    fn seats_and_turn(&self, ui: &mut egui::Ui) {
        let session = &self.session;
        for (i, seat) in session.seats.iter().enumerate() {
            if i > 0 {
                ui.label("vs");
            }
            // The seat to move is underlined.
            let state = self.news.seats.get(i).cloned().unwrap_or_else(|| seat.controller.label());
            let text = format!("{} ({state})", seat.name);
            let mut name = egui::RichText::new(text).color(seat_color32(i)).strong();
            if self.turn.to_move.is_some_and(|p| p.index() == i) {
                name = name.underline();
            }
            ui.label(name);
        }
        ui.separator();
        ui.label(self.turn_text().size(18.0));
        if !self.preview.0.is_empty() {
            ui.separator();
            ui.label(egui::RichText::new(&self.preview.0).size(16.0));
        }
        if self.watch.paused {
            ui.separator();
            ui.label(egui::RichText::new("Paused").color(PAUSED_COLOR).strong().size(18.0));
        }
        if session.kind.steps_through() {
            ui.separator();
            ui.label(format!(
                "Replay: move {} of {}",
                session.moves.len(),
                session.moves.len() + session.redo.len()
            ));
        }
    }

    /// Whose move it is, or how the game (or the match) ended.
    fn turn_text(&self) -> egui::RichText {
        let session = &self.session;
        match (session.outcome(), self.turn.to_move) {
            (Some(_), _) | (None, None) => egui::RichText::new(
                self.headline.0.clone().unwrap_or_else(|| G::outcome_text(&session.view(), &session.names())),
            )
            .strong(),
            (None, Some(_)) if self.news.waiting => {
                egui::RichText::new("Waiting for every seat to be taken").color(PAUSED_COLOR).strong()
            }
            (None, Some(to_move)) => {
                let who = session.name_of(to_move);
                let extra = if session.is_human(to_move) && !session.kind.steps_through() {
                    ", your move"
                } else {
                    ""
                };
                egui::RichText::new(format!("{who} to move{extra}"))
                    .color(seat_color32(to_move.index()))
                    .strong()
            }
        }
    }

    /// While teaching, what the chosen move is worth: a line kept even
    /// when empty, so the board does not move as the choice changes.
    /// Off, the line says that T teaches, so that it is found, and so that
    /// the board does not move as T is pressed.
    fn verdict(&self, ui: &mut egui::Ui) {
        if self.teaching.shown_for(G::NAME) {
            // Never a bare "Teach:": with nothing to say of a move, say it is on.
            let text = match self.teaching.verdict.as_str() {
                "" => "Teach: on (T turns it off)".to_owned(),
                verdict => format!("Teach: {verdict}"),
            };
            let line = egui::RichText::new(text).size(16.0);
            if self.teaching.waits == Some(G::NAME) {
                // A line that asks for an act stands out from those that inform.
                ui.label(line.color(egui::Color32::BLACK).background_color(TEACH_COLOR).strong());
            } else {
                ui.label(line.color(TEACH_COLOR));
            }
        } else if self.teaching.offered == Some(G::NAME) {
            let what = G::TEACHES.strip_prefix("teach").unwrap_or(G::TEACHES);
            ui.label(egui::RichText::new(format!("T teaches{what}")).size(16.0).weak());
        }
    }

    /// What the agents say of the game ("Mary expects to win by 6").
    fn agents_notes(&self, ui: &mut egui::Ui) {
        let session = &self.session;
        let notes = self.agents.as_ref().map(|a| a.notes()).unwrap_or_default();
        // A game with an agent keeps the line for its notes from the start,
        // so the board does not move down when the first note comes.
        if session.kind.plays_here() && session.seats.iter().any(|s| s.controller != Controller::Human) {
            ui.horizontal_wrapped(|ui| {
                ui.label(egui::RichText::new(" ").weak());
                for (i, note) in notes.iter().enumerate() {
                    if let Some(note) = note {
                        let who = agent_note(&session.seats[i].name, note, &session.movers, i);
                        ui.label(egui::RichText::new(who).color(seat_color32(i)).weak());
                    }
                }
            });
        }
    }
}

/// An agent's note said of it ("Mary expects to win by 6"); with moves
/// made since its last (a person's extra turn), the move it was said at.
fn agent_note(name: &str, note: &str, movers: &[tabula_engine::Player], seat: usize) -> String {
    let last = movers.iter().rposition(|p| p.index() == seat);
    match last.filter(|&at| at + 1 < movers.len()) {
        Some(at) => format!("{name} {note} (at move {})", at + 1),
        None => format!("{name} {note}"),
    }
}

#[cfg(test)]
mod tests {
    use super::agent_note;
    use tabula_engine::Player;

    /// A note made at the agent's own move is said as it is; once others
    /// have moved since (a person's extra turn), with the move it was made at.
    #[test]
    fn a_note_from_before_the_last_moves_says_when_it_was_made() {
        let (one, two) = (Player::ONE, Player::TWO);
        assert_eq!(agent_note("Mary", "expects to win by 6", &[one, two], 1), "Mary expects to win by 6");
        assert_eq!(
            agent_note("Mary", "expects to win by 6", &[one, two, one, one], 1),
            "Mary expects to win by 6 (at move 2)"
        );
        assert_eq!(agent_note("Mary", "is thinking", &[], 1), "Mary is thinking");
    }
}
