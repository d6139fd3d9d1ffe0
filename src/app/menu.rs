//! The main menu: the four games (those not built yet say so), the levels of
//! the chosen game, and for each seat a name and Human or an agent with its
//! strength. Everything can be chosen with the keyboard.

use bevy::prelude::*;
use bevy_egui::input::egui_wants_any_keyboard_input;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};
use tabula_engine::core::AgentSpec;
use tabula_engine::core::agent::AgentInfo;
use tabula_engine::games::{self, GameEntry};
use tabula_engine::level;

use super::controls::ReplayBrowser;
use super::frames::NextFrame;
use super::hud::root_ui;
use super::levels::library::{LevelEntry, LevelLibrary, levels_root};
use super::levels::{LevelAsset, LevelSources};
use super::session::WindowGames;
use super::session::{Controller, SeatSetup, SessionPlan, SessionRequest, StatusLine};
use super::settings::{MAX_SEATS, Settings};
use super::{Screen, StartLevel};

/// Games specified in docs/rules/ (one file a game), by title and level folder:
/// the menu shows those not built yet, and says so.
const SPECIFIED: [(&str, &str); 2] = [("Russian Bank", "russian_bank"), ("Robot board", "robots")];

/// Who the menu puts in a seat: a human, or an agent with a strength.
#[derive(Clone, Debug, PartialEq)]
pub struct SeatChoice {
    /// Index into the game's agents; `None` is a human.
    pub agent: Option<usize>,
    pub strength: f64,
}

/// A game the menu lists: playable in the window, or not (yet).
#[derive(Clone, Copy)]
pub struct MenuGame {
    pub title: &'static str,
    pub folder: &'static str,
    /// The game, when the window plays it.
    pub entry: Option<&'static dyn GameEntry>,
    /// How far it is built, when the window does not play it.
    pub status: Option<&'static str>,
}

impl MenuGame {
    pub fn is_playable(&self) -> bool {
        self.entry.is_some()
    }
}

const COMMAND_LINE_ONLY: &str = "command line only";
const NOT_BUILT: &str = "not built yet";

#[derive(Resource)]
pub struct Menu {
    pub games: Vec<MenuGame>,
    /// Index into `games`.
    pub game: usize,
    /// The chosen game's agents.
    pub agents: Vec<AgentInfo>,
    /// The chosen game's levels, as the asset server has read them.
    pub levels: Vec<LevelEntry>,
    /// The game folder whose files were last asked of the asset server.
    scanned: Option<&'static str>,
    pub selected: usize,
    /// One a seat of the chosen level.
    pub seats: Vec<SeatChoice>,
}

impl Menu {
    /// The menu over the games the window can play (by name), then the
    /// games not built yet; the first game chosen.
    pub fn new(playable: &[&str]) -> Menu {
        let known = games::all();
        let (mut list, rules_only): (Vec<MenuGame>, Vec<MenuGame>) = known
            .iter()
            .map(|&g| {
                let window = playable.contains(&g.name());
                MenuGame {
                    title: g.title(),
                    folder: g.folder(),
                    entry: window.then_some(g),
                    status: (!window).then_some(COMMAND_LINE_ONLY),
                }
            })
            .partition(MenuGame::is_playable);
        list.extend(rules_only);
        list.extend(
            SPECIFIED
                .iter()
                .filter(|(_, folder)| known.iter().all(|g| g.folder() != *folder))
                .map(|&(title, folder)| MenuGame { title, folder, entry: None, status: Some(NOT_BUILT) }),
        );
        let mut menu = Menu {
            games: list,
            game: 0,
            agents: Vec::new(),
            levels: Vec::new(),
            scanned: None,
            selected: 0,
            seats: Vec::new(),
        };
        menu.switch_game(0);
        menu
    }

    pub fn current(&self) -> MenuGame {
        self.games[self.game]
    }

    /// Shows the chosen game's levels as they are now read; the choice
    /// stays on the same file when it is still there.
    pub fn set_levels(&mut self, levels: Vec<LevelEntry>) {
        let chosen = self.levels.get(self.selected).map(|l| l.path.clone());
        self.selected = chosen
            .and_then(|path| levels.iter().position(|l| l.path == path))
            .unwrap_or(self.selected)
            .min(levels.len().saturating_sub(1));
        self.levels = levels;
        self.fit_seats();
    }

    /// One seat a player of the chosen level: new seats get the game's
    /// default opponent, the first a human.
    pub fn fit_seats(&mut self) {
        let Some(entry) = self.current().entry else {
            self.seats.clear();
            return;
        };
        let players = match self.levels.get(self.selected).map(|l| &l.level) {
            Some(Ok(level)) => entry.num_players(level),
            _ => entry.seats().0,
        }
        .min(MAX_SEATS);
        while self.seats.len() < players {
            let agent = if self.seats.is_empty() { None } else { self.default_opponent() };
            self.seats.push(SeatChoice { agent, strength: 1.0 });
            self.set_agent(self.seats.len() - 1, agent);
        }
        self.seats.truncate(players);
    }

    /// Where the game's default opponent is in `agents`.
    fn default_opponent(&self) -> Option<usize> {
        let name = self.current().entry?.default_opponent();
        self.agents.iter().position(|a| a.name == name)
    }

    fn controller(&self, seat: usize) -> Controller {
        let choice = &self.seats[seat];
        match choice.agent.and_then(|i| self.agents.get(i)) {
            None => Controller::Human,
            Some(info) => Controller::Agent(AgentSpec {
                name: info.name.into(),
                param: info
                    .param
                    .and_then(|p| (p.default != choice.strength).then(|| format_strength(choice.strength))),
            }),
        }
    }

    /// The plan for the chosen level and seats, or why there is none.
    pub fn plan(&self, settings: &Settings) -> Result<SessionPlan, String> {
        let game = self.current();
        if let Some(status) = game.status {
            return Err(format!("{} cannot be played in the window: {status}", game.title));
        }
        let entry = self.levels.get(self.selected).ok_or("there is no level to play")?;
        let level = entry.level.clone()?;
        Ok(SessionPlan {
            level_path: Some(entry.path.clone()),
            level,
            seats: (0..self.seats.len())
                .map(|i| SeatSetup { name: settings.name(i), controller: self.controller(i) })
                .collect(),
            seed: seed_now(),
            replay: None,
        })
    }

    /// Shows another game: its levels, you against its default opponent.
    pub fn switch_game(&mut self, game: usize) {
        self.game = game.min(self.games.len().saturating_sub(1));
        self.agents = self.current().entry.map(|e| e.agents()).unwrap_or_default();
        self.selected = 0;
        self.seats.clear();
        self.levels.clear();
        self.scanned = None;
        self.fit_seats();
    }

    /// Chooses another level; the seats follow its number of players.
    pub fn select(&mut self, level: usize) {
        self.selected = level;
        self.fit_seats();
    }

    /// Puts an agent (or a human, `None`) in a seat at its default strength.
    fn set_agent(&mut self, seat: usize, agent: Option<usize>) {
        let strength =
            agent.and_then(|i| self.agents.get(i)).and_then(|a| a.param).map_or(1.0, |p| p.default);
        self.seats[seat] = SeatChoice { agent, strength };
    }

    fn cycle_seat(&mut self, seat: usize) {
        if seat >= self.seats.len() {
            return;
        }
        let n = self.agents.len();
        let next = match self.seats[seat].agent {
            None if n > 0 => Some(0),
            Some(i) if i + 1 < n => Some(i + 1),
            _ => None,
        };
        self.set_agent(seat, next);
    }
}

fn format_strength(s: f64) -> String {
    format!("{s:.2}").trim_end_matches('0').trim_end_matches('.').to_owned()
}

fn seed_now() -> u64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_nanos() as u64)
}

pub(super) fn plugin(app: &mut App) {
    app.add_systems(OnEnter(Screen::Menu), rescan)
        .add_systems(Update, list_levels.run_if(in_state(Screen::Menu)))
        .add_systems(Update, start_level_from_command_line.run_if(resource_exists::<StartLevel>))
        .add_systems(EguiPrimaryContextPass, menu_ui.run_if(in_state(Screen::Menu)))
        .add_systems(
            Update,
            menu_keys.run_if(in_state(Screen::Menu).and_then(not(egui_wants_any_keyboard_input))),
        );
}

/// The menu is made on first showing, once every game has registered; on
/// each showing the level folder is listed again (files may have come).
fn rescan(mut commands: Commands, menu: Option<ResMut<Menu>>, window_games: Res<WindowGames>) {
    match menu {
        Some(mut menu) => menu.scanned = None,
        None => {
            let names: Vec<&str> = window_games.0.iter().map(|e| e.name).collect();
            commands.insert_resource(Menu::new(&names));
        }
    }
}

/// Lists the chosen game's level files through the asset server, and
/// shows them once all have loaded or failed (and again when one changes).
fn list_levels(
    menu: Option<ResMut<Menu>>,
    mut library: ResMut<LevelLibrary>,
    server: Res<AssetServer>,
    sources: Res<LevelSources>,
    assets: Res<Assets<LevelAsset>>,
    mut next: ResMut<NextFrame>,
) {
    let Some(mut menu) = menu else { return };
    let folder = menu.current().folder;
    if menu.scanned != Some(folder) {
        library.scan(&server, &sources, folder);
        menu.scanned = Some(folder);
    }
    match library.entries(&sources, folder, &assets, &server) {
        Some(levels) if levels != menu.levels => menu.set_levels(levels),
        Some(_) => {}
        None => next.ask(),
    }
}

/// `tabula play <level>`: Human against the strongest agent.
fn start_level_from_command_line(
    mut commands: Commands,
    start: Res<StartLevel>,
    settings: Res<Settings>,
    mut requests: MessageWriter<SessionRequest>,
    mut status: ResMut<StatusLine>,
) {
    commands.remove_resource::<StartLevel>();
    match level::load(&start.path) {
        Ok(level) => {
            let game = level.game();
            let seats = (0..game.num_players(&level))
                .map(|i| SeatSetup {
                    name: settings.name(i),
                    controller: match start.seats.get(i).cloned().flatten() {
                        Some(chosen) => chosen,
                        None if i == 0 => Controller::Human,
                        None => Controller::Agent(AgentSpec::new(game.default_opponent(), None)),
                    },
                })
                .collect();
            let plan = SessionPlan {
                level_path: Some(start.path.clone()),
                level,
                seats,
                seed: seed_now(),
                replay: None,
            };
            requests.write(SessionRequest::Start(Box::new(plan)));
        }
        Err(e) => status.error(e.to_string()),
    }
}

fn menu_ui(
    mut contexts: EguiContexts,
    menu: Option<ResMut<Menu>>,
    mut settings: ResMut<Settings>,
    status: Res<StatusLine>,
    mut browser: ResMut<ReplayBrowser>,
    mut requests: MessageWriter<SessionRequest>,
    mut exit: MessageWriter<AppExit>,
) -> Result {
    let Some(mut menu) = menu else { return Ok(()) };
    let ctx = contexts.ctx_mut()?.clone();
    let mut root = root_ui(&ctx);
    egui::CentralPanel::default_margins().show(&mut root, |ui| {
        ui.vertical_centered(|ui| {
            ui.add_space(8.0);
            ui.label(egui::RichText::new("tabula").size(44.0).strong());
            ui.label("Four games from formal specifications. Play, watch the AI, edit the levels.");
        });
        ui.add_space(12.0);
        ui.columns(3, |cols| {
            games_column(&mut cols[0], &mut menu);
            levels_column(&mut cols[1], &mut menu);
            seats_column(&mut cols[2], &mut menu, &mut settings);
        });
        ui.add_space(12.0);
        ui.separator();
        ui.horizontal(|ui| {
            let plan = menu.plan(&settings);
            let start = ui.add_enabled(plan.is_ok(), egui::Button::new(egui::RichText::new("Start (Enter)").size(20.0)));
            if start.clicked()
                && let Ok(plan) = plan
            {
                requests.write(SessionRequest::Start(Box::new(plan)));
            }
            if ui.button("Open replay… (O)").clicked() {
                browser.open = true;
            }
            if ui.button("Quit (Esc)").clicked() {
                exit.write(AppExit::Success);
            }
            ui.separator();
            ui.checkbox(&mut settings.sound, "Sound (M)");
            ui.add(egui::Slider::new(&mut settings.animation_speed, 0.25..=4.0).logarithmic(true).text("animation speed"));
        });
        if !status.text.is_empty() && status.error {
            ui.label(egui::RichText::new(&status.text).color(egui::Color32::from_rgb(255, 110, 100)));
        }
        ui.label(
            egui::RichText::new("Keys: Left/Right game · Up/Down level · 1 to 8 change who plays each seat · Enter start · O open replay · Esc quit")
                .weak(),
        );
    });
    Ok(())
}

fn games_column(ui: &mut egui::Ui, menu: &mut Menu) {
    ui.heading("Game");
    let mut clicked = None;
    for (i, game) in menu.games.iter().enumerate() {
        let text = match game.status {
            None => game.title.to_owned(),
            Some(status) => format!("{} ({status})", game.title),
        };
        if ui.selectable_label(menu.game == i, text).clicked() && menu.game != i {
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

fn levels_column(ui: &mut egui::Ui, menu: &mut Menu) {
    ui.heading("Level");
    if menu.levels.is_empty() {
        ui.label(format!("No levels in {}", levels_root().join(menu.current().folder).display()));
    }
    let mut clicked = None;
    egui::ScrollArea::vertical().id_salt("levels").max_height(260.0).show(ui, |ui| {
        for (i, entry) in menu.levels.iter().enumerate() {
            let name = match &entry.level {
                Ok(l) => l.name().to_owned(),
                Err(_) => {
                    format!("{} (invalid)", entry.path.file_name().unwrap_or_default().to_string_lossy())
                }
            };
            if ui.selectable_label(menu.selected == i, name).clicked() {
                clicked = Some(i);
            }
        }
    });
    if let Some(i) = clicked {
        menu.select(i);
    }
    if let Some(entry) = menu.levels.get(menu.selected) {
        ui.add_space(6.0);
        match &entry.level {
            Ok(level) => {
                ui.label(level.description());
                for line in level.summary() {
                    ui.label(line);
                }
            }
            Err(e) => {
                ui.label(egui::RichText::new(e).color(egui::Color32::from_rgb(255, 110, 100)));
            }
        }
        ui.label(egui::RichText::new(entry.path.display().to_string()).monospace().weak());
    }
}

fn seats_column(ui: &mut egui::Ui, menu: &mut Menu, settings: &mut Settings) {
    ui.heading("Players");
    let agents = menu.agents.clone();
    egui::ScrollArea::vertical().id_salt("seats").max_height(420.0).show(ui, |ui| {
        for seat in 0..menu.seats.len() {
            ui.group(|ui| {
                ui.horizontal(|ui| {
                    ui.label(
                        egui::RichText::new(format!("Player {}", seat + 1))
                            .color(super::board::seat_color32(seat)),
                    );
                    if let Some(name) = settings.names.get_mut(seat) {
                        ui.add(egui::TextEdit::singleline(name).desired_width(120.0));
                    }
                });
                let before = menu.seats[seat].agent;
                let mut picked = before;
                let current = before.and_then(|i| agents.get(i)).map_or("Human", |a| a.name);
                egui::ComboBox::from_id_salt(("seat", seat)).selected_text(current).show_ui(ui, |ui| {
                    ui.selectable_value(&mut picked, None, "Human");
                    for (i, info) in agents.iter().enumerate() {
                        ui.selectable_value(&mut picked, Some(i), info.name).on_hover_text(info.about);
                    }
                });
                if picked != before {
                    menu.set_agent(seat, picked);
                }
                let choice = &mut menu.seats[seat];
                if let Some(info) = choice.agent.and_then(|i| agents.get(i)) {
                    ui.label(egui::RichText::new(info.about).weak());
                    if let Some(p) = info.param {
                        let slider = egui::Slider::new(&mut choice.strength, p.min..=p.max).text(p.name);
                        // Depths and playout counts are whole numbers.
                        let slider = if p.max - p.min >= 10.0 {
                            slider.integer().logarithmic(p.max >= 1000.0)
                        } else {
                            slider
                        };
                        ui.add(slider).on_hover_text(p.about);
                    }
                }
            });
        }
    });
}

fn menu_keys(
    keys: Res<ButtonInput<KeyCode>>,
    menu: Option<ResMut<Menu>>,
    mut settings: ResMut<Settings>,
    mut browser: ResMut<ReplayBrowser>,
    mut requests: MessageWriter<SessionRequest>,
    mut status: ResMut<StatusLine>,
    mut exit: MessageWriter<AppExit>,
) {
    let Some(mut menu) = menu else { return };
    let pressed = |k: KeyCode| keys.just_pressed(k);
    let games = menu.games.len();
    let at = menu.game;
    if pressed(KeyCode::ArrowRight) {
        menu.switch_game((at + 1) % games);
    }
    if pressed(KeyCode::ArrowLeft) {
        menu.switch_game((at + games - 1) % games);
    }
    let n = menu.levels.len().max(1);
    if pressed(KeyCode::ArrowDown) {
        let next = (menu.selected + 1) % n;
        menu.select(next);
    }
    if pressed(KeyCode::ArrowUp) {
        let next = (menu.selected + n - 1) % n;
        menu.select(next);
    }
    for digit in super::board::digits_pressed(&keys).filter(|&d| (1..=MAX_SEATS as u8).contains(&d)) {
        menu.cycle_seat(digit as usize - 1);
    }
    if pressed(KeyCode::KeyM) {
        settings.sound = !settings.sound;
    }
    if pressed(KeyCode::KeyO) {
        browser.open = true;
    }
    if pressed(KeyCode::Enter) || pressed(KeyCode::NumpadEnter) {
        match menu.plan(&settings) {
            Ok(plan) => {
                requests.write(SessionRequest::Start(Box::new(plan)));
            }
            Err(e) => status.error(e),
        }
    }
    if pressed(KeyCode::Escape) {
        if browser.open {
            browser.open = false;
        } else {
            exit.write(AppExit::Success);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn menu() -> Menu {
        let mut menu = Menu::new(&["Nim", "Mancala"]);
        read_levels(&mut menu);
        menu
    }

    /// The chosen game's levels read at once (the window reads them through
    /// the asset server; tests/app.rs checks that).
    fn read_levels(menu: &mut Menu) {
        let dir = levels_root().join(menu.current().folder);
        let files = crate::app::levels::library::ron_files_in(&dir);
        menu.set_levels(
            files
                .into_iter()
                .map(|path| LevelEntry { level: level::load(&path).map_err(|e| e.to_string()), path })
                .collect(),
        );
    }

    #[test]
    fn strength_is_written_only_when_it_differs() {
        let mut menu = menu();
        assert_eq!(menu.current().title, "Nim");
        assert_eq!(menu.seats.len(), 2);
        assert_eq!(menu.seats[1], SeatChoice { agent: Some(1), strength: 1.0 }, "optimal by default");
        assert_eq!(menu.controller(1), Controller::Agent(AgentSpec::new("optimal", None)));
        menu.seats[1].strength = 0.3;
        assert_eq!(menu.controller(1), Controller::Agent(AgentSpec::new("optimal", Some("0.3"))));
        menu.cycle_seat(1);
        assert_eq!(menu.controller(1), Controller::Human);
        menu.cycle_seat(1);
        assert_eq!(menu.controller(1), Controller::Agent(AgentSpec::new("random", None)));
        menu.cycle_seat(5);
        assert_eq!(menu.seats.len(), 2, "no seat 6 at a two-player game");
    }

    #[test]
    fn games_the_window_cannot_play_say_why() {
        // The engine knows the Robot board; a menu of a window without its
        // board says it is for the command line only.
        let mut menu = menu();
        let titles: Vec<&str> = menu.games.iter().map(|g| g.title).collect();
        assert_eq!(titles, ["Nim", "Mancala / Kalah", "Robot board", "Russian Bank"]);
        menu.switch_game(2);
        read_levels(&mut menu);
        assert!(menu.levels.len() >= 10, "the Robot board's levels are listed");
        let err = menu.plan(&Settings::default()).unwrap_err();
        assert!(err.contains("command line only"), "{err}");
        assert!(menu.seats.is_empty());
        menu.switch_game(3);
        assert_eq!(menu.current().title, "Russian Bank");
        assert!(menu.plan(&Settings::default()).unwrap_err().contains("command line only"));
    }

    #[test]
    fn the_robot_board_offers_a_seat_for_each_player_of_the_level() {
        let mut menu = Menu::new(&["Nim", "Mancala", "Robots"]);
        menu.switch_game(2);
        read_levels(&mut menu);
        assert_eq!(menu.current().title, "Robot board");
        let race = menu.levels.iter().position(|l| l.path.ends_with("10-four-player-race.ron")).unwrap();
        menu.select(race);
        assert_eq!(menu.seats.len(), 4);
        assert_eq!(menu.controller(0), Controller::Human);
        assert_eq!(menu.controller(3), Controller::Agent(AgentSpec::new("planner", None)));
        let plan = menu.plan(&Settings::default()).unwrap();
        assert_eq!(plan.seats.len(), 4);
        assert_eq!(plan.seats[2].name, "Ada");
    }

    #[test]
    fn switching_games_resets_seats_to_the_default_opponent_at_its_default_strength() {
        let mut menu = menu();
        menu.switch_game(1);
        read_levels(&mut menu);
        assert_eq!(menu.current().title, "Mancala / Kalah");
        assert!(menu.levels.len() >= 5);
        assert_eq!(menu.controller(0), Controller::Human);
        assert_eq!(menu.controller(1), Controller::Agent(AgentSpec::new("minimax", None)));
        menu.seats[1].strength = 4.0;
        assert_eq!(menu.controller(1), Controller::Agent(AgentSpec::new("minimax", Some("4"))));
    }
}
