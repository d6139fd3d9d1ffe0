//! The buttons over the table, bottom left: the match score and its
//! winner, why the last Stop was called, Turn hand, To waste, End turn, Let
//! it stand, Stop!, and Next deal or New match once a deal is over.

use bevy::prelude::*;
use bevy_egui::{EguiContexts, egui};
use tabula_engine::russian_bank::{BankMove, RussianBank, Source, Target};
use tabula_engine::{Game, Player};

use super::deals::{BankMatch, next_deal_plan};
use super::input::{me, stopper};
use super::{LastStop, TABLE};
use crate::app::board::BoardCamera;
use crate::app::hud::PanelsBelow;
use crate::app::session::{RequestMove, Session, SessionRequest};

/// Screen points between the panels under the board (the status line, the
/// band that shows the end of a game) and the table's buttons.
const LIFT: f32 = 8.0;
/// The box's left edge from the window's, in points.
const LEFT: f32 = 12.0;
/// The widest the box's words and buttons are.
const WIDEST: f32 = 220.0;
/// The narrowest that still holds a button's words on one line.
const NARROWEST: f32 = 110.0;
/// What the box's frame adds around its words (margins, stroke), and the
/// gap left before the felt.
const FRAME_AND_GAP: f32 = 28.0;

/// The buttons of the table and the match score, over the board.
pub(super) fn table_buttons(
    mut contexts: EguiContexts,
    session: Res<Session<RussianBank>>,
    mut bank_match: ResMut<BankMatch>,
    last_stop: Res<LastStop>,
    mut requests: MessageWriter<RequestMove<RussianBank>>,
    mut session_requests: MessageWriter<SessionRequest>,
    below: Res<PanelsBelow>,
    cameras: Query<(&Camera, &GlobalTransform), With<BoardCamera>>,
) -> Result {
    let ctx = contexts.ctx_mut()?.clone();
    let table = &session.game;
    // Above the status line; at the end, above the band that says who won,
    // however tall it is (a match's headline, a rematch's buttons).
    let lift = below.0 + LIFT;
    let mine = me(&session).filter(|_| !session.kind.steps_through() && table.outcome().is_none());
    // Stop is offered whenever it is the other's turn, breach or not:
    // noticing one is the player's skill.
    let stop_by = stopper(&session);
    // Where the game is not played here, the next deal is a rematch (the
    // end band's).
    let next_deal = table.outcome().is_some() && session.kind.moves_here();
    let score = session.kind.plays_here() || last_stop.shown(session.moves.len()).is_some();
    if !(score || mine.is_some() || stop_by.is_some() || next_deal) {
        // Nothing to say or do here (a spectator, a game played elsewhere).
        return Ok(());
    }
    let width = box_width(felt_left(&cameras));
    egui::Area::new("russian-bank-table".into())
        .anchor(egui::Align2::LEFT_BOTTOM, egui::vec2(LEFT, -lift))
        .show(&ctx, |ui| {
            egui::Frame::popup(ui.style()).show(ui, |ui| {
                ui.set_max_width(width);
                match_score(ui, &session, &bank_match, &last_stop);
                if let Some(me) = mine {
                    ui.horizontal_wrapped(|ui| turn_buttons(ui, table, me, &mut requests));
                }
                if let Some(stopper) = stop_by
                    && ui.button(egui::RichText::new("Stop! (S)").strong().size(18.0)).clicked()
                {
                    requests.write(RequestMove { by: stopper, mv: BankMove::Stop });
                }
                if next_deal {
                    next_deal_button(ui, &session, &mut bank_match, &mut session_requests);
                }
            });
        });
    Ok(())
}

/// Where the felt begins on the window, in points from its left edge.
fn felt_left(cameras: &Query<(&Camera, &GlobalTransform), With<BoardCamera>>) -> Option<f32> {
    let (camera, at) = cameras.single().ok()?;
    // The felt is drawn 10 units inside the table's size.
    let corner = (-(TABLE - Vec2::splat(20.0)) / 2.0).extend(0.0);
    let on_viewport = camera.world_to_viewport(at, corner).ok()?;
    // The board's viewport starts at the window's left edge.
    Some(on_viewport.x)
}

/// The box's width for words and buttons: left of the felt wherever the
/// window leaves room beside the table (a stranger saw it cover the
/// table's corner once a Stop's reason made it taller), else its widest.
fn box_width(felt_left: Option<f32>) -> f32 {
    match felt_left.map(|x| x - LEFT - FRAME_AND_GAP) {
        Some(room) if room >= NARROWEST => room.min(WIDEST),
        _ => WIDEST,
    }
}

/// The match's score, its winner, and why the last Stop was called.
fn match_score(
    ui: &mut egui::Ui,
    session: &Session<RussianBank>,
    bank_match: &BankMatch,
    last_stop: &LastStop,
) {
    let target = session.level.match_points;
    let points = bank_match.points();
    // A game played elsewhere is one deal (a rematch is the next): no
    // match is kept for it, so no score is shown that would stay at nothing.
    if session.kind.plays_here() {
        // Two lines: the box is narrow beside the felt.
        ui.label(egui::RichText::new(format!("Match to {target}")).strong());
        let (one, two) = (session.name_of(Player::ONE), session.name_of(Player::TWO));
        ui.label(egui::RichText::new(format!("{one} {} · {two} {}", points[0], points[1])).strong());
    }
    if let Some(winner) = bank_match.winner(target).filter(|_| session.kind.plays_here()) {
        ui.label(
            egui::RichText::new(format!("{} wins the match", session.name_of(winner)))
                .color(crate::app::board::seat_color32(winner.index()))
                .strong(),
        );
    }
    if let Some(why) = last_stop.shown(session.moves.len()) {
        ui.label(egui::RichText::new(why).color(egui::Color32::from_rgb(255, 200, 120)));
    }
}

/// What `me` may do with the turn besides playing a card: each button
/// enabled when the rules allow it now.
fn turn_buttons(
    ui: &mut egui::Ui,
    table: &RussianBank,
    me: Player,
    requests: &mut MessageWriter<RequestMove<RussianBank>>,
) {
    let mut legal = Vec::new();
    table.legal_moves(me, &mut legal);
    let mine = table.outcome().is_none() && table.current_player() == me;
    let mut button = |ui: &mut egui::Ui, text: &str, mv: BankMove, enabled: bool| {
        if ui.add_enabled(enabled, egui::Button::new(text)).clicked() {
            requests.write(RequestMove { by: me, mv });
        }
    };
    button(ui, "Turn hand (H)", BankMove::TurnHand, mine && legal.contains(&BankMove::TurnHand));
    let waste = BankMove::Play { from: Source::Hand, to: Target::Waste };
    button(ui, "To waste (W)", waste, mine && legal.contains(&waste));
    if legal.contains(&BankMove::EndTurn) {
        button(ui, "End turn (E)", BankMove::EndTurn, mine);
    }
    if legal.contains(&BankMove::Accept) {
        button(ui, "Let it stand", BankMove::Accept, true);
    }
}

/// Once a deal is over: the next deal, or a new match once it is won.
fn next_deal_button(
    ui: &mut egui::Ui,
    session: &Session<RussianBank>,
    bank_match: &mut BankMatch,
    session_requests: &mut MessageWriter<SessionRequest>,
) {
    let target = session.level.match_points;
    let label = if bank_match.winner(target).is_some() { "New match (N)" } else { "Next deal (N)" };
    if ui.button(label).clicked() {
        if bank_match.winner(target).is_some() {
            bank_match.deals.clear();
        }
        session_requests.write(SessionRequest::Start(Box::new(next_deal_plan(session, bank_match))));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The box stays left of the felt where the window leaves room beside
    /// the table, and takes its widest where it leaves none.
    #[test]
    fn the_box_keeps_left_of_the_felt_where_there_is_room() {
        for felt in [172.0, 200.0, 400.0] {
            let width = box_width(Some(felt));
            assert!(LEFT + width + FRAME_AND_GAP <= felt && width <= WIDEST, "{felt}: {width}");
        }
        assert_eq!(box_width(Some(400.0)), WIDEST);
        assert_eq!(box_width(Some(60.0)), WIDEST, "no room: at its widest, over the felt's corner");
        assert_eq!(box_width(None), WIDEST);
    }
}
