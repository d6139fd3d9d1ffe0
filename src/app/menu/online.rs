//! The menu's "Play online": the chosen level and seats hosted at a table
//! of this window's own server (its port, spectators, a clock), a friend's
//! table joined or watched by address and code, and the games in progress
//! come back to. While a table is sought, what the connection says.

use bevy::ecs::system::SystemParam;
use bevy::prelude::*;
use bevy_egui::egui;

use super::model::Menu;
use crate::app::levels::library::levels_root;
use crate::app::online::host::Hosting;
use crate::app::online::seats_file::{self, KeptSeat, SeatsFile};
use crate::app::online::start::{Clock, DEFAULT_PORT, GoOnline, create_request, server_url};
use crate::app::online::{OnlineTable, Seek};
use crate::app::session::StatusLine;
use crate::app::theme::palette::ERROR_COLOR;

/// What the player has typed and chosen in "Play online".
#[derive(Resource, Clone, Debug)]
pub struct OnlineForm {
    /// The section is unfolded.
    pub open: bool,
    pub port: u16,
    pub spectators: bool,
    pub clock: bool,
    pub minutes: u32,
    pub increment: u32,
    /// The friend's server, as typed.
    pub address: String,
    /// The table's id, the invite code a friend sends.
    pub code: String,
    /// The address field takes the keyboard on the next frame (J).
    pub(super) focus_address: bool,
    /// The seats kept on disk, read when first shown.
    kept: Option<Vec<KeptSeat>>,
}

impl Default for OnlineForm {
    fn default() -> OnlineForm {
        OnlineForm {
            open: false,
            port: DEFAULT_PORT,
            spectators: true,
            clock: false,
            minutes: 10,
            increment: 5,
            address: String::new(),
            code: String::new(),
            focus_address: false,
            kept: None,
        }
    }
}

impl OnlineForm {
    /// The chosen level and seats hosted at this window's server.
    pub fn host(&self, menu: &Menu) -> Result<GoOnline, String> {
        let game = menu.current();
        if let Some(status) = game.status {
            return Err(format!("{} cannot be played in the window: {status}", game.title));
        }
        let entry = menu.levels.get(menu.selected).ok_or("there is no level to host")?;
        entry.level.as_ref().map_err(Clone::clone)?;
        let seats = menu.online_seats();
        let clock = self.clock.then_some(Clock { minutes: self.minutes.max(1), increment: self.increment });
        let create = create_request(&entry.path, &levels_root(), &seats, self.spectators, clock)?;
        Ok(GoOnline::Host { port: self.port, create, level: Some(entry.path.clone()) })
    }

    /// The table of the code at the address typed: a seat, or watching.
    pub fn join(&self, watch: bool) -> Result<GoOnline, String> {
        let url = server_url(&self.address)?;
        let table = self.code.trim().to_owned();
        if table.is_empty() {
            return Err("type the invite code your friend sent (the table's id)".into());
        }
        let seek = if watch { Seek::Watch { table } } else { Seek::Join { table, seat: None } };
        Ok(GoOnline::At { url, seek })
    }
}

/// What "Play online" reads and changes besides the menu.
#[derive(SystemParam)]
pub(super) struct Online<'w, 's> {
    commands: Commands<'w, 's>,
    pub form: ResMut<'w, OnlineForm>,
    hosting: Option<Res<'w, Hosting>>,
    pub table: Option<Res<'w, OnlineTable>>,
    pub go: MessageWriter<'w, GoOnline>,
    file: Res<'w, SeatsFile>,
}

impl Online<'_, '_> {
    /// Does what was asked, or says why not.
    pub fn ask(&mut self, asked: Result<GoOnline, String>, status: &mut StatusLine) {
        match asked {
            Ok(go) => {
                self.go.write(go);
            }
            Err(e) => status.error(e),
        }
    }
}

/// P unfolds "Play online" (or folds it), H hosts the menu's choice, J
/// takes the keyboard to the address of a friend's table.
pub(super) fn online_keys(
    keys: Res<ButtonInput<KeyCode>>,
    menu: Option<Res<Menu>>,
    mut form: ResMut<OnlineForm>,
    mut go: MessageWriter<GoOnline>,
    mut status: ResMut<StatusLine>,
) {
    let Some(menu) = menu else { return };
    if keys.just_pressed(KeyCode::KeyP) {
        form.open = !form.open;
    }
    if keys.just_pressed(KeyCode::KeyJ) {
        form.open = true;
        form.focus_address = true;
    }
    if keys.just_pressed(KeyCode::KeyH) {
        match form.host(&menu) {
            Ok(asked) => {
                go.write(asked);
            }
            Err(e) => status.error(e),
        }
    }
}

/// Back in the menu, the seats kept are read again (a game may have added
/// or finished one).
pub(super) fn read_kept_again(mut form: ResMut<OnlineForm>) {
    form.kept = None;
}

/// The line under the buttons while a table is sought, or the status
/// line's error, in red.
pub(super) fn seeking_line(table: Option<&OnlineTable>, status: &StatusLine) -> egui::RichText {
    match table {
        _ if status.error => egui::RichText::new(&status.text).color(ERROR_COLOR),
        Some(table) if table.up => {
            egui::RichText::new(format!("Connected to {}: waiting for the table…", table.url())).weak()
        }
        Some(table) => egui::RichText::new(format!("Connecting to {}…", table.url())).weak(),
        None => egui::RichText::new(" "),
    }
}

/// The section, under the seats: folded until asked for.
pub(super) fn online_section(ui: &mut egui::Ui, menu: &Menu, online: &mut Online, status: &mut StatusLine) {
    let header = egui::CollapsingHeader::new(egui::RichText::new("Play online (P)").strong())
        .id_salt("play-online")
        .open(Some(online.form.open))
        .show(ui, |ui| {
            if let Some(table) = online.table.as_deref() {
                seeking(ui, table, &mut online.commands, status);
            }
            host_group(ui, menu, online, status);
            join_group(ui, online, status);
            kept_group(ui, online);
        });
    if header.header_response.clicked() {
        online.form.open = !online.form.open;
    }
}

/// A table sought: where, and a way to stop (which clears what the
/// attempt said).
fn seeking(ui: &mut egui::Ui, table: &OnlineTable, commands: &mut Commands, status: &mut StatusLine) {
    ui.horizontal_wrapped(|ui| {
        let what = if table.up { "Connected to" } else { "Connecting to" };
        ui.label(format!("{what} {}…", table.url()));
        if let Some(why) = &table.trouble {
            ui.label(egui::RichText::new(why).color(ERROR_COLOR));
        }
        if ui.button("Cancel").clicked() {
            commands.remove_resource::<OnlineTable>();
            status.info("");
        }
    });
}

fn host_group(ui: &mut egui::Ui, menu: &Menu, online: &mut Online, status: &mut StatusLine) {
    ui.group(|ui| {
        ui.label(egui::RichText::new("Host this game").strong());
        ui.label(
            egui::RichText::new(
                "You take the first Human seat, friends the others; agents are played by your server (agents alone: you watch).",
            )
            .weak(),
        );
        let form = &mut online.form;
        match online.hosting.as_deref() {
            Some(hosting) => {
                let server = hosting.invite_url();
                let page = tabula_server::page::page_link(&server).unwrap_or_default();
                ui.label(format!("Your server: {server} (in a browser: {page})"));
            }
            None => {
                ui.horizontal(|ui| {
                    ui.label("Port");
                    ui.add(egui::DragValue::new(&mut form.port).range(1..=65535));
                });
            }
        }
        ui.checkbox(&mut form.spectators, "Spectators may watch");
        if menu.seats.len() == 2 {
            ui.horizontal_wrapped(|ui| {
                ui.checkbox(&mut form.clock, "Clock");
                ui.add_enabled(
                    form.clock,
                    egui::DragValue::new(&mut form.minutes).range(1..=180).suffix(" min"),
                );
                ui.label("+");
                ui.add_enabled(
                    form.clock,
                    egui::DragValue::new(&mut form.increment).range(0..=60).suffix(" s"),
                );
            });
        } else {
            form.clock = false;
        }
        if ui.button("Host online (H)").clicked() {
            let asked = online.form.host(menu);
            online.ask(asked, status);
        }
    });
}

fn join_group(ui: &mut egui::Ui, online: &mut Online, status: &mut StatusLine) {
    ui.group(|ui| {
        ui.label(egui::RichText::new("Join a friend's table").strong());
        let entered = |field: &egui::Response| {
            field.lost_focus() && field.ctx.input(|i| i.key_pressed(egui::Key::Enter))
        };
        let mut join = false;
        egui::Grid::new("join-form").num_columns(2).show(ui, |ui| {
            ui.label("Address");
            let address =
                ui.add(egui::TextEdit::singleline(&mut online.form.address).hint_text("192.168.1.20:7878"));
            // J: the address typed at once; Enter goes on to the code, and
            // Enter there joins.
            if std::mem::take(&mut online.form.focus_address) {
                address.request_focus();
            }
            ui.end_row();
            ui.label("Code");
            let code = ui.add(egui::TextEdit::singleline(&mut online.form.code).hint_text("the table's id"));
            if entered(&address) {
                code.request_focus();
            }
            join = entered(&code);
            ui.end_row();
        });
        if join {
            let asked = online.form.join(false);
            online.ask(asked, status);
        }
        ui.horizontal_wrapped(|ui| {
            if ui.button("Join as player").clicked() {
                let asked = online.form.join(false);
                online.ask(asked, status);
            }
            if ui.button("Watch").clicked() {
                let asked = online.form.join(true);
                online.ask(asked, status);
            }
        });
    });
}

/// The seats this window holds at tables not finished, newest first.
fn kept_group(ui: &mut egui::Ui, online: &mut Online) {
    ui.group(|ui| {
        ui.label(egui::RichText::new("Games in progress").strong());
        let file = online.file.0.clone();
        let kept = online.form.kept.get_or_insert_with(|| seats_file::read(&file)).clone();
        if kept.is_empty() {
            ui.label(
                egui::RichText::new("none: a seat taken online is kept here until its game ends").weak(),
            );
        }
        for seat in kept.iter().rev() {
            ui.label(format!("Table {}, seat {}", seat.table, seat.seat));
            ui.label(egui::RichText::new(&seat.url).monospace().weak());
            ui.horizontal(|ui| {
                if ui.button("Return").clicked() {
                    let seek = Seek::Resume { token: seat.token.clone() };
                    online.go.write(GoOnline::At { url: seat.url.clone(), seek });
                }
                if ui.button("Forget").clicked() {
                    if let Err(e) = seats_file::forget_token(&file, &seat.token) {
                        warn!("cannot forget the kept seat: {e}");
                    }
                    online.form.kept = None;
                }
            });
        }
    });
}
