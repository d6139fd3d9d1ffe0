//! The menu drawn with egui: a column of games (each a card with a picture
//! of one of its levels and a line on what it is), one of the chosen game's
//! levels in their groups with the chosen one's picture and description,
//! one of the players with each seat's name, Human or agent (in a player's
//! words) and strength, and under them "Play online" (`online`); at the
//! bottom Start, Host online, Open replay, Quit, sound and animation speed.

use bevy::prelude::*;
use bevy_egui::{EguiContexts, egui};

use tabula_engine::core::LevelGroup;
use tabula_engine::core::agent::{DIFFICULTIES, NEWCOMER, display_name};

use super::model::{COMMAND_LINE_ONLY, Menu, MenuGame};
use super::online::{Online, online_section, seeking_line};
use crate::app::controls::ReplayBrowser;
use crate::app::editor::RequestEdit;
use crate::app::help::ScreenKeys;
use crate::app::levels::library::LevelEntry;
use crate::app::session::{SessionRequest, StatusLine};
use crate::app::settings::Settings;
use crate::app::theme::{palette::ERROR_COLOR, widgets::root_ui};

pub(super) fn menu_ui(
    mut contexts: EguiContexts,
    menu: Option<ResMut<Menu>>,
    mut settings: ResMut<Settings>,
    mut status: ResMut<StatusLine>,
    mut browser: ResMut<ReplayBrowser>,
    mut requests: MessageWriter<SessionRequest>,
    mut exit: MessageWriter<AppExit>,
    mut edits: MessageWriter<RequestEdit>,
    mut next: ResMut<NextState<crate::app::screen::Screen>>,
    mut help: ResMut<ScreenKeys>,
    mut online: Online,
) -> Result {
    let Some(mut menu) = menu else { return Ok(()) };
    let keys = help.show("the menu", super::keys::menu_controls());
    let ctx = contexts.ctx_mut()?.clone();
    let mut root = root_ui(&ctx);
    // The buttons stay at the window's bottom, wherever the columns end.
    egui::Panel::bottom("menu-actions").show(&mut root, |ui| {
        ui.add_space(6.0);
        ui.horizontal(|ui| {
            let plan = menu.plan(&settings);
            let plan_ok = plan.is_ok();
            let start = ui.add_enabled(
                plan.is_ok(),
                egui::Button::new(egui::RichText::new("Start (Enter)").size(20.0)),
            );
            if start.clicked()
                && let Ok(plan) = plan
            {
                requests.write(SessionRequest::Start(Box::new(plan)));
            }
            let host = ui.add_enabled(plan_ok, egui::Button::new("Host online (H)"));
            if host.on_hover_text("A table at a server this window runs, for friends to join").clicked() {
                let asked = online.form.host(&menu);
                online.ask(asked, &mut status);
            }
            if menu.current().is_playable() {
                if ui.button("Edit level (E)").clicked() {
                    match menu.edit_path() {
                        Ok(path) => {
                            edits.write(RequestEdit(path));
                        }
                        Err(e) => status.error(e),
                    }
                }
                if ui.button("New level (N)").clicked() {
                    edits.write(RequestEdit(menu.new_level_path()));
                }
            }
            if ui.button("Open replay… (O)").clicked() {
                browser.open = true;
            }
            let arena = ui.button("Arena… (A)");
            if arena.on_hover_text("AI against AI over many games and levels, the ratings live").clicked() {
                next.set(crate::app::screen::Screen::Arena);
            }
            if ui.button("Quit (Esc)").clicked() {
                exit.write(AppExit::Success);
            }
            ui.separator();
            ui.checkbox(&mut settings.sound, "Sound (M)");
            ui.add(
                egui::Slider::new(&mut settings.animation_speed, 0.25..=4.0)
                    .logarithmic(true)
                    .fixed_decimals(2)
                    .text("animation speed"),
            );
        });
        // The line is always there, so a refusal never moves the buttons.
        ui.label(seeking_line(online.table.as_deref(), &status));
        ui.label(egui::RichText::new(keys).weak());
        ui.add_space(3.0);
    });
    egui::CentralPanel::default_margins().show(&mut root, |ui| {
        title(ui);
        ui.columns(3, |cols| columns(cols, &mut menu, &mut settings, &mut online, &mut status));
    });
    Ok(())
}

fn columns(
    cols: &mut [egui::Ui],
    menu: &mut Menu,
    settings: &mut Settings,
    online: &mut Online,
    status: &mut StatusLine,
) {
    games_column(&mut cols[0], menu);
    levels_column(&mut cols[1], menu, settings);
    // The seats and "Play online" scroll together: at 800 x 600 the
    // section unfolded is taller than the room left.
    egui::ScrollArea::vertical().id_salt("players").show(&mut cols[2], |ui| {
        seats_column(ui, menu, settings);
        online_section(ui, menu, online, status);
    });
}

fn title(ui: &mut egui::Ui) {
    ui.vertical_centered(|ui| {
        ui.label(egui::RichText::new("tabula").size(36.0).strong());
        ui.label("Four games from formal specifications. Play, watch the AI, edit the levels.");
    });
    ui.add_space(10.0);
}

/// Room for a game's picture in its card, and for the chosen level's.
const CARD_PICTURE: egui::Vec2 = egui::vec2(112.0, 70.0);
const LEVEL_PICTURE: egui::Vec2 = egui::vec2(280.0, 120.0);

fn games_column(ui: &mut egui::Ui, menu: &mut Menu) {
    ui.heading("Game");
    let mut clicked = None;
    for (i, game) in menu.games.iter().enumerate() {
        if game_card(ui, game, menu.game == i).clicked() && menu.game != i {
            clicked = Some(i);
        }
    }
    if let Some(i) = clicked {
        menu.switch_game(i);
    }
    let game = menu.current();
    if let Some(status) = game.status {
        ui.add_space(8.0);
        let why = if status == COMMAND_LINE_ONLY {
            "its rules and agents run from the command line (tabula match, perft, replay), but this window has no board for it"
        } else {
            "it is specified but cannot be played in this version"
        };
        ui.label(format!("{}: {why}.", game.title));
    }
}

/// A game as a card: its picture, its name and what it is; the chosen one
/// lit. The whole card takes the click.
fn game_card(ui: &mut egui::Ui, game: &MenuGame, chosen: bool) -> egui::Response {
    let fill = if chosen { ui.visuals().selection.bg_fill } else { ui.visuals().faint_bg_color };
    let frame = egui::Frame::group(ui.style()).fill(fill).inner_margin(6.0).show(ui, |ui| {
        ui.set_width(ui.available_width());
        ui.horizontal(|ui| {
            let (rect, _) = ui.allocate_exact_size(CARD_PICTURE, egui::Sense::hover());
            if let (Some(level), Some(card)) = (&game.picture, &game.card) {
                card.draw(ui.painter(), rect, level);
            }
            ui.vertical(|ui| {
                let title = match game.status {
                    None => egui::RichText::new(game.title).size(18.0).strong(),
                    Some(status) => egui::RichText::new(format!("{} ({status})", game.title)).size(18.0),
                };
                ui.label(title);
                ui.label(egui::RichText::new(game.about).size(13.0));
            });
        });
    });
    ui.add_space(2.0);
    let response = ui.interact(frame.response.rect, ui.id().with(game.title), egui::Sense::click());
    response.on_hover_cursor(egui::CursorIcon::PointingHand)
}

/// The heading a level is listed under: its group, or the player's own
/// levels, or the files that cannot be read.
fn heading_of(entry: &LevelEntry) -> &'static str {
    match &entry.level {
        Err(_) => "Files with errors",
        Ok(_) if entry.mine => "Your levels",
        Ok(level) => level.group().heading(),
    }
}

fn levels_column(ui: &mut egui::Ui, menu: &mut Menu, settings: &mut Settings) {
    ui.heading("Level");
    if let Some(note) = menu.empty_list_note() {
        ui.label(note);
    }
    let mut clicked = None;
    // The list takes what the chosen level's picture and words leave (the
    // most they took so far in this game: another game's longest words
    // would cut this game's list short), in whole rows.
    let details_id = ui.id().with(("level details", menu.game));
    let details = ui.data(|d| d.get_temp::<f32>(details_id)).unwrap_or(LEVEL_PICTURE.y + 130.0);
    let pitch = ui.spacing().interact_size.y + ui.spacing().item_spacing.y;
    let list_height = list_height(ui.available_height(), details, pitch);
    // The chosen row and the list's height it was scrolled into view at:
    // a list cut shorter (longer details below it) scrolls to it again.
    let shown_id = ui.id().with("level scrolled to");
    let shown = ui.data(|d| d.get_temp::<(usize, u32)>(shown_id));
    let scrolled = |i: usize| Some((i, list_height as u32));
    // As wide as its column, so that a long name is not cut by the bar.
    let list =
        egui::ScrollArea::vertical().id_salt("levels").max_height(list_height).auto_shrink([false, true]);
    list.show(ui, |ui| {
        // Lessons, games, large boards, then the seeds' own test positions,
        // folded away from what people play unless one of them is chosen;
        // then the player's own levels, then files that cannot be read.
        let mut groups: Vec<&str> = menu.levels.iter().map(heading_of).collect();
        groups.dedup();
        for heading in groups {
            let chosen_inside = menu.levels.get(menu.selected).is_some_and(|l| heading_of(l) == heading);
            egui::CollapsingHeader::new(egui::RichText::new(heading).strong())
                .id_salt(heading)
                .default_open(heading != LevelGroup::Specification.heading())
                .open(chosen_inside.then_some(true))
                .show(ui, |ui| {
                    for (i, entry) in menu.levels.iter().enumerate().filter(|(_, l)| heading_of(l) == heading)
                    {
                        let file = || entry.path.file_name().unwrap_or_default().to_string_lossy();
                        let name = match &entry.level {
                            Ok(l) => l.name().to_owned(),
                            Err(_) if entry.mine => format!("{} (yours, invalid)", file()),
                            Err(_) => format!("{} (invalid)", file()),
                        };
                        let row = ui.selectable_label(menu.selected == i, name);
                        if row.clicked() {
                            clicked = Some(i);
                        }
                        // A level chosen by key (or the last one played, on
                        // opening) is scrolled into the list's view.
                        if menu.selected == i && shown != scrolled(i) {
                            row.scroll_to_me(None);
                        }
                    }
                });
        }
    });
    if let Some(i) = clicked {
        menu.select(i);
    }
    let selected = (menu.selected, list_height as u32);
    ui.data_mut(|d| d.insert_temp(shown_id, selected));
    let top = ui.cursor().top();
    level_details(ui, menu, settings);
    // The most any level's details took so far: the list does not grow
    // and shrink from one level to the next.
    let used = (ui.cursor().top() - top).max(details);
    ui.data_mut(|d| d.insert_temp(details_id, used));
}

/// The level list's height: what `available` leaves below it for the
/// chosen level's `details`, in whole rows of `pitch` (a row cut in half
/// at the bottom looks like the last), and never under seven rows.
fn list_height(available: f32, details: f32, pitch: f32) -> f32 {
    let rows = ((available - details) / pitch).floor().max(7.0);
    rows * pitch
}

/// The chosen level's picture, description, summary and file, and
/// whether each game deals a new board like it.
fn level_details(ui: &mut egui::Ui, menu: &Menu, settings: &mut Settings) {
    if let Some(entry) = menu.levels.get(menu.selected) {
        ui.add_space(6.0);
        match &entry.level {
            Ok(level) => {
                let width = LEVEL_PICTURE.x.min(ui.available_width());
                let (rect, _) =
                    ui.allocate_exact_size(egui::vec2(width, LEVEL_PICTURE.y), egui::Sense::hover());
                // With a new board each game, the picture is one such board.
                let dealt = menu.dealt_example.as_ref().filter(|_| settings.deals(menu.current().folder));
                if let Some(card) = &menu.current().card {
                    card.draw(ui.painter(), rect, dealt.unwrap_or(level));
                }
                if dealt.is_some() {
                    ui.weak("A board dealt like it: each game deals its own");
                }
                ui.label(level.description());
                for line in level.summary() {
                    ui.label(egui::RichText::new(line).weak());
                }
            }
            Err(e) => {
                ui.label(egui::RichText::new(e).color(ERROR_COLOR));
            }
        }
        ui.label(egui::RichText::new(entry.path.display().to_string()).monospace().weak());
        if menu.dealable {
            let folder = menu.current().folder;
            let mut on = settings.deals(folder);
            let text = "A new board each game, dealt like this one (D)";
            let about = "Each game, and each Play again (F2), is played on a board drawn at random \
                with as much on it as this level: another sum to work out, other hints to follow.";
            if ui.checkbox(&mut on, text).on_hover_text(about).changed() {
                settings.set_deals(folder, on);
            }
        }
    }
}

fn seats_column(ui: &mut egui::Ui, menu: &mut Menu, settings: &mut Settings) {
    ui.heading("Players");
    let agents = menu.agents.clone();
    ui.vertical(|ui| {
        for seat in 0..menu.seats.len() {
            ui.group(|ui| {
                ui.horizontal(|ui| {
                    ui.label(
                        egui::RichText::new(format!("Player {}", seat + 1))
                            .color(crate::app::board::seat_color32(seat)),
                    );
                    if let Some(name) = settings.names.get_mut(seat) {
                        ui.add(egui::TextEdit::singleline(name).desired_width(120.0));
                    }
                });
                let before = menu.seats[seat].agent;
                let mut picked = before;
                let current =
                    before.and_then(|i| agents.get(i)).map_or("Human".into(), |a| display_name(a.name));
                egui::ComboBox::from_id_salt(("seat", seat)).selected_text(current).show_ui(ui, |ui| {
                    ui.selectable_value(&mut picked, None, "Human");
                    // The difficulties first, easiest first, the newcomer
                    // where it measures (above Beginner, below Casual); each
                    // agent in a player's words, how it works on hover.
                    let rank = |i: &usize| match agents[*i].name {
                        NEWCOMER => 1,
                        name => DIFFICULTIES
                            .iter()
                            .position(|&d| d == name)
                            .map_or(DIFFICULTIES.len() + 1, |k| k + (k > 0) as usize),
                    };
                    let mut order: Vec<usize> = (0..agents.len()).collect();
                    order.sort_by_key(rank);
                    for i in order {
                        let info = &agents[i];
                        let text = format!("{}: {}", display_name(info.name), info.plain);
                        ui.selectable_value(&mut picked, Some(i), text).on_hover_text(info.about);
                    }
                });
                if picked != before {
                    menu.set_agent(seat, picked);
                }
                // Said, since the lesson chose it rather than the player.
                if menu.lesson_seat(seat) {
                    ui.label(
                        egui::RichText::new("Seated by the lesson: it errs on purpose, for you to catch")
                            .weak(),
                    );
                }
                let choice = &mut menu.seats[seat];
                if let Some(info) = choice.agent.and_then(|i| agents.get(i)) {
                    ui.label(info.plain).on_hover_text(info.about);
                    if let Some(p) = info.param {
                        let slider = egui::Slider::new(&mut choice.strength, p.min..=p.max).text(p.name);
                        // Depths and playout counts are whole numbers.
                        let slider = if p.max - p.min >= 10.0 {
                            slider.integer().logarithmic(p.max >= 1000.0)
                        } else {
                            slider.max_decimals(2)
                        };
                        ui.add(slider).on_hover_text(p.about);
                    }
                }
            });
        }
    });
}

#[cfg(test)]
mod tests {
    use super::list_height;

    /// The list ends on a whole row, and the chosen level's details fit
    /// below it whenever the window has room for them and seven rows.
    #[test]
    fn the_level_list_shows_whole_rows_and_leaves_the_details_their_room() {
        let pitch = 21.0;
        for available in (300..900).step_by(7).map(|a| a as f32) {
            for details in [180.0, 260.0, 333.5] {
                let h = list_height(available, details, pitch);
                assert_eq!((h / pitch).fract(), 0.0, "{h} is not whole rows of {pitch}");
                assert!(h >= 7.0 * pitch);
                if available - details >= 7.0 * pitch {
                    assert!(h + details <= available, "{h} + {details} over {available}");
                }
            }
        }
    }
}
