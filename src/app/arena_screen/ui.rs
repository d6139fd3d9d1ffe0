//! The Arena screen drawn with egui: the arena files in a column at the
//! left (each a card: name, description, agents, levels, games, and what
//! its database holds, or what is wrong with it); beside them the chosen
//! arena with Run (or Resume) and Stop, the progress of its run, and its
//! standings (`standings`).

use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};

use super::run::Ending;
use super::standings::standings;
use super::tables::{self, arena_summary};
use super::{ArenaEntry, ArenaRequest, Arenas, Live, Phase, Shown};
use crate::app::help::{Controls, Key, ScreenKeys, key};
use crate::app::screen::Screen;
use crate::app::session::StatusLine;
use crate::app::theme::palette::ERROR_COLOR;
use crate::app::theme::widgets::{root_ui, status_text};

/// The column of arena files.
const FILES_WIDTH: f32 = 270.0;
const KEYS: &[Key] =
    &[key("Up/Down", "choose an arena"), key("R", "run or resume"), key("S", "stop"), key("Esc", "menu")];

pub(super) fn plugin(app: &mut App) {
    app.add_systems(EguiPrimaryContextPass, arena_ui.run_if(in_state(Screen::Arena)));
}

fn arena_ui(
    mut contexts: EguiContexts,
    arenas: Res<Arenas>,
    live: Res<Live>,
    shown: Res<Shown>,
    status: Res<StatusLine>,
    mut requests: MessageWriter<ArenaRequest>,
    mut help: ResMut<ScreenKeys>,
) -> Result {
    let keys = help.show("the Arena", Controls::new("Click an arena to choose it.", KEYS));
    let ctx = contexts.ctx_mut()?.clone();
    let mut root = root_ui(&ctx);
    let playing = live.playing();
    egui::Panel::bottom("arena-status").show(&mut root, |ui| {
        ui.add_space(3.0);
        ui.label(status_text(ui, &status));
        ui.label(egui::RichText::new(keys).weak());
        ui.add_space(3.0);
    });
    egui::Panel::left("arena-files").exact_size(FILES_WIDTH).show(&mut root, |ui| {
        // The chosen arena's count follows its run.
        let done = shown.progress.as_ref().filter(|_| playing).map(|p| p.done);
        files_column(ui, &arenas, playing, done, &mut requests);
    });
    egui::CentralPanel::default_margins().show(&mut root, |ui| match arenas.current() {
        None => {
            ui.heading("Arena");
            ui.label(format!(
                "No arena files in {}. An arena file names agents and levels (docs/formats.md, \"Arenas\"); \
                 `tabula arena <file.ron> --window` opens one from anywhere.",
                arenas.folder.display()
            ));
        }
        Some(entry) => chosen_arena(ui, entry, &shown, playing, &mut requests),
    });
    Ok(())
}

fn files_column(
    ui: &mut egui::Ui,
    arenas: &Arenas,
    playing: bool,
    done: Option<u64>,
    requests: &mut MessageWriter<ArenaRequest>,
) {
    ui.add_space(6.0);
    ui.heading("Arenas");
    ui.label(egui::RichText::new(arenas.folder.display().to_string()).monospace().weak());
    ui.add_space(4.0);
    egui::ScrollArea::vertical().id_salt("arena-files").show(ui, |ui| {
        for (i, entry) in arenas.files.iter().enumerate() {
            let chosen = i == arenas.chosen;
            let card = file_card(ui, entry, chosen, !playing, done.filter(|_| chosen));
            // While a run plays, the others wait: it is stopped first.
            let card =
                if playing { card.on_hover_text("Stop the run to choose another arena") } else { card };
            if card.clicked() && i != arenas.chosen {
                requests.write(ArenaRequest::Choose(i));
            }
        }
    });
}

/// An arena file as a card; the chosen one lit. The whole card takes the
/// click, when `choosable`. `done`: the games in its database now, as its
/// run counts them.
fn file_card(
    ui: &mut egui::Ui,
    entry: &ArenaEntry,
    chosen: bool,
    choosable: bool,
    done: Option<u64>,
) -> egui::Response {
    let fill = if chosen { ui.visuals().selection.bg_fill } else { ui.visuals().faint_bg_color };
    let frame = egui::Frame::group(ui.style()).fill(fill).inner_margin(6.0).show(ui, |ui| {
        ui.set_width(ui.available_width());
        match &entry.arena {
            Ok(arena) => {
                ui.label(egui::RichText::new(&arena.name).size(17.0).strong());
                if !arena.description.is_empty() {
                    ui.label(egui::RichText::new(&arena.description).size(13.0));
                }
                ui.label(egui::RichText::new(arena_summary(arena)).size(13.0));
                held_line(ui, entry, arena.total_games(), done);
            }
            Err(e) => {
                ui.label(egui::RichText::new(format!("{} (invalid)", entry.file_name())).size(17.0));
                ui.label(egui::RichText::new(e).size(13.0).color(ERROR_COLOR));
            }
        }
    });
    ui.add_space(2.0);
    let sense = if choosable { egui::Sense::click() } else { egui::Sense::hover() };
    let response = ui.interact(frame.response.rect, ui.id().with(&entry.path), sense);
    if choosable { response.on_hover_cursor(egui::CursorIcon::PointingHand) } else { response }
}

/// What the database holds of the arena's games, or why it cannot be read.
fn held_line(ui: &mut egui::Ui, entry: &ArenaEntry, total: u64, done: Option<u64>) {
    let db = entry.db.file_name().unwrap_or_default().to_string_lossy();
    match &done.map_or_else(|| entry.held.clone(), Ok) {
        Ok(0) => ui.label(egui::RichText::new(format!("{db}: no games played yet")).size(13.0)),
        Ok(held) => ui.label(egui::RichText::new(format!("{db}: {held} of {total} games")).size(13.0)),
        Err(e) => ui.label(egui::RichText::new(e).size(13.0).color(ERROR_COLOR)),
    };
}

fn chosen_arena(
    ui: &mut egui::Ui,
    entry: &ArenaEntry,
    shown: &Shown,
    playing: bool,
    requests: &mut MessageWriter<ArenaRequest>,
) {
    let arena = match &entry.arena {
        Ok(arena) => arena,
        Err(e) => {
            ui.heading(entry.file_name());
            ui.label(egui::RichText::new(e).color(ERROR_COLOR));
            return;
        }
    };
    ui.horizontal_wrapped(|ui| {
        ui.heading(&arena.name);
        ui.label(egui::RichText::new(entry.path.display().to_string()).monospace().weak());
    });
    if !arena.description.is_empty() {
        ui.label(&arena.description);
    }
    ui.label(format!("Agents: {}", arena.agents.join(", ")));
    let levels: Vec<String> = arena
        .levels
        .iter()
        .map(|l| {
            let name = std::path::Path::new(&l.path)
                .file_stem()
                .map_or(l.path.clone(), |s| s.to_string_lossy().into());
            format!("{name} ({} seats, {} games)", l.seats, l.games * l.pairings.len() as u64)
        })
        .collect();
    ui.label(format!("Levels: {}", levels.join(", ")));
    ui.add_space(4.0);
    verbs(ui, entry, arena.total_games(), shown, playing, requests);
    ui.add_space(4.0);
    progress(ui, entry, arena.total_games(), shown);
    if let Some(problem) = &shown.problem {
        ui.label(egui::RichText::new(problem).color(ERROR_COLOR));
    }
    ui.separator();
    if entry.held.is_err() {
        return;
    }
    egui::ScrollArea::both().id_salt("standings").auto_shrink([false, false]).show(ui, |ui| match &shown.standings {
        Some(s) if shown.rated > 0 => standings(ui, s, shown.rated),
        _ if shown.phase == Phase::Reading => {
            ui.label("Reading the database…");
        }
        // Playing, before the first reading: games may already be held.
        _ if playing => {
            ui.label("The ratings come in as the games are read back from the database…");
        }
        _ => {
            ui.label("No games in the database yet: Run plays them, and the ratings come in as they are played.");
        }
    });
}

/// Run (or Resume) and Stop, and back to the menu.
fn verbs(
    ui: &mut egui::Ui,
    entry: &ArenaEntry,
    total: u64,
    shown: &Shown,
    playing: bool,
    requests: &mut MessageWriter<ArenaRequest>,
) {
    ui.horizontal(|ui| {
        let (label, can_run, why) = match entry.held.clone() {
            // The count held changes with every game: not shown on the button.
            _ if playing => ("Running".to_owned(), false, "Stop (S) stops it".to_owned()),
            Err(e) => ("Run (R)".to_owned(), false, e),
            Ok(held) if held >= total => {
                ("Run (R)".to_owned(), false, "Every game of the arena is in its database".to_owned())
            }
            Ok(0) => {
                ("Run (R)".to_owned(), true, format!("Plays its {total} games into {}", entry.db.display()))
            }
            Ok(held) => (
                format!("Resume (R): {held} of {total} games held"),
                true,
                format!("Plays the {} games not in {} yet", total - held, entry.db.display()),
            ),
        };
        let run = egui::Button::new(egui::RichText::new(label).size(18.0));
        if ui.add_enabled(can_run && !playing, run).on_hover_text(why).clicked() {
            requests.write(ArenaRequest::Run);
        }
        let stop = egui::Button::new(egui::RichText::new("Stop (S)").size(18.0));
        let can_stop = playing && shown.phase != Phase::Stopping;
        if ui.add_enabled(can_stop, stop).on_hover_text("The games played stay in the database").clicked() {
            requests.write(ArenaRequest::Stop);
        }
        if ui.button(egui::RichText::new("Menu (Esc)").size(18.0)).clicked() {
            requests.write(ArenaRequest::Back);
        }
    });
}

/// The bar across every pairing, the rate, the time left and the pairing
/// being played; or how the run ended.
fn progress(ui: &mut egui::Ui, entry: &ArenaEntry, total: u64, shown: &Shown) {
    let Some(p) = &shown.progress else {
        match &entry.held {
            Ok(held) => ui.label(format!("{held} of {total} games in {}", entry.db.display())),
            Err(e) => ui.label(egui::RichText::new(format!(
                "{e}: move it away to run the arena here, or run it from the command line with another --db"
            ))
            .color(ERROR_COLOR)),
        };
        return;
    };
    let fraction = if p.total > 0 { p.done as f32 / p.total as f32 } else { 0.0 };
    ui.add(
        egui::ProgressBar::new(fraction)
            .desired_width(ui.available_width().min(720.0))
            .text(format!("{} / {} games", p.done, p.total)),
    );
    match &shown.phase {
        Phase::Stopping => {
            ui.label(egui::RichText::new("Stopping after the games being played…").strong());
        }
        Phase::Ended(ending) => {
            let text = tables::ending_text(ending, p.resumed, p.total, &entry.db);
            let color = if matches!(ending, Ending::Failed(_)) {
                ERROR_COLOR
            } else {
                ui.visuals().strong_text_color()
            };
            ui.label(egui::RichText::new(text).color(color));
        }
        _ => {
            ui.label(tables::progress_text(p));
        }
    }
}
