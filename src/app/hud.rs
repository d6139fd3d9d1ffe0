//! The game screen's panels (egui): whose turn it is, watching and undo
//! controls, replays, sound, the status line, the end of the game and level
//! file errors. The board camera draws only in the space the panels leave.

use bevy::camera::Viewport;
use bevy::prelude::*;
use bevy::window::PrimaryWindow;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};

use super::board::BoardCamera;
use super::board::{playing, seat_color32};
use super::controls::ReplayBrowser;
use super::game::WindowGame;
use super::lesson::LessonPanel;
use super::levels::reload::LevelWatch;
use super::screen::Screen;
use super::session::{
    Agents, Controller, Headline, MovePreview, Session, SessionRequest, StatusLine, Turn, Watch,
};
use super::settings::Settings;

/// Paused: the colour of a held clock.
const PAUSED_COLOR: egui::Color32 = egui::Color32::from_rgb(255, 200, 90);
/// What is wrong, in red, everywhere in the window.
pub(crate) const ERROR_COLOR: egui::Color32 = egui::Color32::from_rgb(255, 110, 100);
const PANEL_WIDTH: f32 = 270.0;
const END_FILL: egui::Color32 = egui::Color32::from_rgb(38, 52, 44);
/// The game-over band's height with one line of result and its buttons.
const END_BAND_ROOM: f32 = 72.0;

pub(super) fn plugin(app: &mut App) {
    app.add_systems(OnEnter(Screen::Menu), full_viewport).add_systems(EguiPrimaryContextPass, scale_text);
}

/// The panels of one game's screen (with a window only: egui draws them).
pub(crate) fn game_plugin<G: WindowGame>(app: &mut App) {
    app.add_systems(EguiPrimaryContextPass, game_panels::<G>.run_if(playing::<G>));
}

/// egui text grows with the window so it stays readable on large screens.
fn scale_text(mut contexts: EguiContexts, window: Single<&Window, With<PrimaryWindow>>) -> Result {
    let zoom = (window.height() / 800.0).clamp(1.0, 2.0);
    let ctx = contexts.ctx_mut()?;
    if (ctx.zoom_factor() - zoom).abs() > 0.01 {
        ctx.set_zoom_factor(zoom);
    }
    Ok(())
}

/// One root `Ui` covering the window, for panels.
/// The status line's text, in red when it says what went wrong.
pub(crate) fn status_text(ui: &egui::Ui, status: &StatusLine) -> egui::RichText {
    let color = if status.error { ERROR_COLOR } else { ui.visuals().text_color() };
    egui::RichText::new(&status.text).color(color)
}

pub fn root_ui(ctx: &egui::Context) -> egui::Ui {
    egui::Ui::new(
        ctx.clone(),
        "root".into(),
        egui::UiBuilder::new().layer_id(egui::LayerId::background()).max_rect(ctx.viewport_rect()),
    )
}

#[allow(clippy::too_many_arguments)]
fn game_panels<G: WindowGame>(
    mut contexts: EguiContexts,
    session: Res<Session<G>>,
    agents: Option<Res<Agents<G>>>,
    watch: Res<Watch>,
    mut settings: ResMut<Settings>,
    status: Res<StatusLine>,
    preview: Res<MovePreview>,
    turn: Res<Turn>,
    headline: Res<Headline>,
    level_watch: Res<LevelWatch>,
    (mut browser, mut lesson): (ResMut<ReplayBrowser>, ResMut<LessonPanel>),
    mut requests: MessageWriter<SessionRequest>,
    mut camera: Single<&mut Camera, With<BoardCamera>>,
    window: Single<&Window, With<PrimaryWindow>>,
    mut clues: Local<super::clues::Clues>,
    mut end_room: Local<f32>,
) -> Result {
    let ctx = contexts.ctx_mut()?.clone();
    let mut root = root_ui(&ctx);
    let game = &session.game;
    let names = session.names();

    let top = egui::Panel::top("turn").show(&mut root, |ui| {
        ui.add_space(4.0);
        ui.horizontal(|ui| {
            ui.heading(format!("{} · {}", G::TITLE, session.level_name));
            ui.separator();
            ui.label(G::rules_text(&session.level));
        });
        ui.horizontal_wrapped(|ui| {
            for (i, seat) in session.seats.iter().enumerate() {
                if i > 0 {
                    ui.label("vs");
                }
                // The seat to move is underlined.
                let text = format!("{} ({})", seat.name, seat.controller.label());
                let mut name = egui::RichText::new(text).color(seat_color32(i)).strong();
                if turn.to_move.is_some_and(|p| p.index() == i) {
                    name = name.underline();
                }
                ui.label(name);
            }
            ui.separator();
            let turn = match (game.outcome(), turn.to_move) {
                (Some(_), _) | (None, None) => egui::RichText::new(
                    headline.0.clone().unwrap_or_else(|| G::outcome_text(&session.view(), &names)),
                )
                .strong(),
                (None, Some(to_move)) => {
                    let who = session.name_of(to_move);
                    let extra = if session.is_human(to_move) && !session.replay { ", your move" } else { "" };
                    egui::RichText::new(format!("{who} to move{extra}"))
                        .color(seat_color32(to_move.index()))
                        .strong()
                }
            };
            ui.label(turn.size(18.0));
            if !preview.0.is_empty() {
                ui.separator();
                ui.label(egui::RichText::new(&preview.0).size(16.0));
            }
            if watch.paused {
                ui.separator();
                ui.label(egui::RichText::new("Paused").color(PAUSED_COLOR).strong().size(18.0));
            }
            if session.replay {
                ui.separator();
                ui.label(format!(
                    "Replay: move {} of {}",
                    session.moves.len(),
                    session.moves.len() + session.redo.len()
                ));
            }
        });
        let notes = agents.map(|a| a.notes()).unwrap_or_default();
        // A game with an agent keeps the line for its notes from the start,
        // so the board does not move down when the first note comes.
        if session.seats.iter().any(|s| s.controller != Controller::Human) {
            ui.horizontal_wrapped(|ui| {
                ui.label(egui::RichText::new(" ").weak());
                for (i, note) in notes.iter().enumerate() {
                    if let Some(note) = note {
                        // Said of the agent: "Mary expects to win by 6".
                        let who = format!("{} {note}", session.seats[i].name);
                        ui.label(egui::RichText::new(who).color(seat_color32(i)).weak());
                    }
                }
            });
        }
        ui.add_space(4.0);
    });

    let bottom = egui::Panel::bottom("status").show(&mut root, |ui| {
        ui.add_space(3.0);
        ui.label(status_text(ui, &status).size(16.0));
        ui.label(egui::RichText::new(controls_help(&session)).weak());
        ui.add_space(3.0);
    });

    let right = egui::Panel::right("controls").exact_size(PANEL_WIDTH).show(&mut root, |ui| {
        egui::ScrollArea::vertical().show(ui, |ui| {
            // Beside the board, first in the panel, never over the board.
            level_problem(ui, &level_watch);
            super::lesson::lesson(ui, &session, &mut lesson);
            ui.heading("Game");
            ui.horizontal(|ui| {
                if ui.button("Undo (U)").clicked() {
                    requests.write(SessionRequest::Undo);
                }
                if ui.button("Redo (R)").clicked() {
                    requests.write(SessionRequest::Redo);
                }
            });
            ui.horizontal(|ui| {
                if ui.button("Play again (F2)").clicked() {
                    requests.write(SessionRequest::Restart);
                }
                if ui.button("Menu (Esc)").clicked() {
                    requests.write(SessionRequest::BackToMenu);
                }
            });
            ui.separator();
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
                egui::Slider::new(&mut settings.ai_moves_per_second, 0.25..=30.0)
                    .logarithmic(true)
                    .text("moves/s"),
            );
            ui.add(
                egui::Slider::new(&mut settings.animation_speed, 0.25..=4.0)
                    .logarithmic(true)
                    .text("animation"),
            );
            super::clues::clues(ui, &session, &mut clues);
            ui.separator();
            super::move_log::move_log(ui, &session, &mut requests);
            ui.separator();
            ui.heading("Replays");
            ui.horizontal(|ui| {
                if ui.button("Save (Ctrl+S)").clicked() {
                    requests.write(SessionRequest::SaveReplay);
                }
                if ui.button("Open… (O)").clicked() {
                    browser.open = true;
                }
            });
            ui.separator();
            ui.heading("Sound");
            ui.checkbox(&mut settings.sound, "Sound on (M)");
            ui.add_enabled(settings.sound, egui::Slider::new(&mut settings.volume, 0.0..=1.0).text("volume"));
            ui.separator();
            ui.heading("Level file");
            match &session.level_path {
                Some(path) => {
                    ui.label(egui::RichText::new(path.display().to_string()).monospace());
                    ui.label(
                        egui::RichText::new("Edit and save it: the game restarts on the new level.").weak(),
                    );
                }
                None => {
                    ui.label("Built in (from a replay)");
                }
            }
        });
    });

    // Paused shows on the board too, at its top left corner.
    if watch.paused {
        egui::Area::new("paused".into()).fixed_pos(egui::pos2(10.0, top.response.rect.bottom() + 10.0)).show(
            &ctx,
            |ui| {
                egui::Frame::popup(ui.style()).show(ui, |ui| {
                    let text = if session.replay {
                        "Paused: Space plays, . steps"
                    } else {
                        "Paused: Space goes on, . plays one move"
                    };
                    ui.label(egui::RichText::new(text).color(PAUSED_COLOR).strong().size(17.0));
                });
            },
        );
    }

    // The game-over band's room is kept from the start (as tall as any
    // band shown), so the board does not move when the band comes.
    let end = end_panel(&mut root, &session, &headline, &mut requests).unwrap_or(0.0);
    *end_room = end_room.max(end).max(END_BAND_ROOM);
    let end = *end_room;

    // The board takes what the panels leave.
    let scale = window.scale_factor();
    let left_top = UVec2::new(0, (top.response.rect.height() * scale) as u32);
    let reserved = UVec2::new(
        (right.response.rect.width() * scale) as u32,
        ((top.response.rect.height() + bottom.response.rect.height() + end) * scale) as u32,
    );
    let full = UVec2::new(window.physical_width(), window.physical_height());
    if full.x > reserved.x + 50 && full.y > reserved.y + 50 {
        camera.viewport =
            Some(Viewport { physical_position: left_top, physical_size: full - reserved, ..default() });
    }
    Ok(())
}

fn full_viewport(mut camera: Single<&mut Camera, With<BoardCamera>>) {
    camera.viewport = None;
}

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

/// The result and what to do next, as a band under the board: the board is
/// fitted to the space left, so the band never covers a pit or a name.
fn end_panel<G: WindowGame>(
    root: &mut egui::Ui,
    session: &Session<G>,
    headline: &Headline,
    requests: &mut MessageWriter<SessionRequest>,
) -> Option<f32> {
    if session.game.outcome().is_none() || (session.replay && !session.redo.is_empty()) {
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
            let text = G::outcome_text(&session.view(), &session.names());
            let size = if headline.0.is_some() { 17.0 } else { 24.0 };
            ui.label(egui::RichText::new(text).size(size).strong());
            ui.label(format!("after {} moves", session.moves.len()));
        });
        ui.horizontal(|ui| {
            if ui.button(egui::RichText::new("Play again (F2)").size(16.0)).clicked() {
                requests.write(SessionRequest::Restart);
            }
            if ui.button(egui::RichText::new("Save replay (Ctrl+S)").size(16.0)).clicked() {
                requests.write(SessionRequest::SaveReplay);
            }
            if ui.button(egui::RichText::new("Menu (Esc)").size(16.0)).clicked() {
                requests.write(SessionRequest::BackToMenu);
            }
        });
    });
    Some(band.response.rect.height())
}

/// The broken level file, at the top of the side panel: what is wrong,
/// and that the game goes on with the last good level.
fn level_problem(ui: &mut egui::Ui, watch: &LevelWatch) {
    let Some(problem) = &watch.problem else { return };
    egui::Frame::group(ui.style()).stroke(egui::Stroke::new(1.5, ERROR_COLOR)).show(ui, |ui| {
        ui.label(egui::RichText::new("Level file error").color(ERROR_COLOR).strong());
        ui.label(egui::RichText::new(problem).color(ERROR_COLOR).monospace());
        ui.label(egui::RichText::new("The game keeps the last good level until the file is fixed.").weak());
    });
    ui.separator();
}
