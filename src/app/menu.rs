//! The main menu: the four games (those not built yet say so), the levels of
//! the chosen game, and for each seat a name and Human or an agent with its
//! strength. Everything can be chosen with the keyboard.

use std::path::{Path, PathBuf};

use bevy::prelude::*;
use bevy_egui::input::egui_wants_any_keyboard_input;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};
use tabula_engine::core::agent::AgentInfo;
use tabula_engine::core::{AgentRegistry, AgentSpec};
use tabula_engine::level::{self, GameKind, LevelFile};
use tabula_engine::mancala::Mancala;
use tabula_engine::nim::Nim;

use super::controls::ReplayBrowser;
use super::hud::root_ui;
use super::session::{Controller, SeatSetup, SessionPlan, SessionRequest, StatusLine};
use super::settings::Settings;
use super::{Screen, StartLevel};

/// Who the menu puts in a seat: a human, or an agent with a strength.
#[derive(Clone, Debug, PartialEq)]
pub struct SeatChoice {
    /// Index into the game's agents; `None` is a human.
    pub agent: Option<usize>,
    pub strength: f64,
}

/// A level file found under `levels/<game>/`.
#[derive(Clone, Debug)]
pub struct LevelEntry {
    pub path: PathBuf,
    pub level: Result<LevelFile, String>,
}

#[derive(Resource, Debug)]
pub struct Menu {
    pub game: GameKind,
    pub levels: Vec<LevelEntry>,
    pub selected: usize,
    pub seats: [SeatChoice; 2],
}

impl Default for Menu {
    fn default() -> Menu {
        let mut menu = Menu {
            game: GameKind::Nim,
            levels: Vec::new(),
            selected: 0,
            seats: [
                SeatChoice { agent: None, strength: 1.0 },
                SeatChoice { agent: default_opponent(GameKind::Nim), strength: 1.0 },
            ],
        };
        menu.scan();
        menu
    }
}

/// The agents the menu offers for a game.
pub fn agents_of(game: GameKind) -> &'static [AgentInfo] {
    match game {
        GameKind::Nim => Nim::agents(),
        GameKind::Mancala => Mancala::agents(),
        _ => &[],
    }
}

/// Where the game's default opponent is in `agents_of`.
pub fn default_opponent(game: GameKind) -> Option<usize> {
    let name = match game {
        GameKind::Nim => Nim::default_opponent(),
        GameKind::Mancala => Mancala::default_opponent(),
        _ => return None,
    };
    agents_of(game).iter().position(|a| a.name == name)
}

/// `$TABULA_LEVELS`, else `./levels`, else the levels beside the sources.
pub fn levels_root() -> PathBuf {
    if let Some(dir) = std::env::var_os("TABULA_LEVELS") {
        return dir.into();
    }
    let here = PathBuf::from("levels");
    if here.is_dir() { here } else { Path::new(env!("CARGO_MANIFEST_DIR")).join("levels") }
}

impl Menu {
    /// Reads the chosen game's level folder again.
    pub fn scan(&mut self) {
        self.levels = ron_files_in(&levels_root().join(self.game.folder()))
            .into_iter()
            .map(|path| LevelEntry { level: level::load(&path).map_err(|e| e.to_string()), path })
            .collect();
        self.selected = self.selected.min(self.levels.len().saturating_sub(1));
    }

    fn controller(&self, seat: usize) -> Controller {
        let choice = &self.seats[seat];
        match choice.agent.and_then(|i| agents_of(self.game).get(i)) {
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
        if !self.game.is_playable() {
            return Err(format!("{} is not built yet", self.game.title()));
        }
        let entry = self.levels.get(self.selected).ok_or("there is no level to play")?;
        let level = entry.level.clone()?;
        Ok(SessionPlan {
            level_path: Some(entry.path.clone()),
            level,
            seats: (0..2)
                .map(|i| SeatSetup { name: settings.names[i].clone(), controller: self.controller(i) })
                .collect(),
            seed: seed_now(),
            replay: None,
        })
    }

    /// Shows another game: its levels, you against its default opponent.
    pub fn switch_game(&mut self, game: GameKind) {
        self.game = game;
        self.selected = 0;
        self.scan();
        self.seats[0] = SeatChoice { agent: None, strength: 1.0 };
        self.seats[1] = SeatChoice { agent: None, strength: 1.0 };
        self.set_agent(1, default_opponent(game));
    }

    /// Puts an agent (or a human, `None`) in a seat at its default strength.
    fn set_agent(&mut self, seat: usize, agent: Option<usize>) {
        let strength =
            agent.and_then(|i| agents_of(self.game).get(i)).and_then(|a| a.param).map_or(1.0, |p| p.default);
        self.seats[seat] = SeatChoice { agent, strength };
    }

    fn cycle_seat(&mut self, seat: usize) {
        let n = agents_of(self.game).len();
        let next = match self.seats[seat].agent {
            None if n > 0 => Some(0),
            Some(i) if i + 1 < n => Some(i + 1),
            _ => None,
        };
        self.set_agent(seat, next);
    }
}

/// The `.ron` files of a folder, sorted by name (none if it cannot be read).
pub fn ron_files_in(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|entries| {
            entries
                .filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| p.extension().is_some_and(|x| x == "ron"))
                .collect()
        })
        .unwrap_or_default();
    // By name without ".ron", so "kalah-6-4" comes before its variant
    // "kalah-6-4-empty-capture".
    files.sort_by(|a, b| a.file_stem().cmp(&b.file_stem()));
    files
}

fn format_strength(s: f64) -> String {
    format!("{s:.2}").trim_end_matches('0').trim_end_matches('.').to_owned()
}

fn seed_now() -> u64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_nanos() as u64)
}

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<Menu>()
        .add_systems(OnEnter(Screen::Menu), rescan)
        .add_systems(Update, start_level_from_command_line.run_if(resource_exists::<StartLevel>))
        .add_systems(EguiPrimaryContextPass, menu_ui.run_if(in_state(Screen::Menu)))
        .add_systems(
            Update,
            menu_keys.run_if(in_state(Screen::Menu).and_then(not(egui_wants_any_keyboard_input))),
        );
}

fn rescan(mut menu: ResMut<Menu>) {
    menu.scan();
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
            let agents = agents_of(level.kind());
            let seats = (0..2)
                .map(|i| SeatSetup {
                    name: settings.names[i].clone(),
                    controller: match (&start.seats[i], i, default_opponent(level.kind()).map(|a| &agents[a]))
                    {
                        (Some(chosen), _, _) => chosen.clone(),
                        (None, 1, Some(info)) => Controller::Agent(AgentSpec::new(info.name, None)),
                        _ => Controller::Human,
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
    mut menu: ResMut<Menu>,
    mut settings: ResMut<Settings>,
    status: Res<StatusLine>,
    mut browser: ResMut<ReplayBrowser>,
    mut requests: MessageWriter<SessionRequest>,
    mut exit: MessageWriter<AppExit>,
) -> Result {
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
            egui::RichText::new("Keys: Left/Right game · Up/Down level · 1 and 2 change who plays each seat · Enter start · O open replay · Esc quit")
                .weak(),
        );
    });
    Ok(())
}

fn games_column(ui: &mut egui::Ui, menu: &mut Menu) {
    ui.heading("Game");
    for game in GameKind::ALL {
        let text = if game.is_playable() {
            game.title().to_owned()
        } else {
            format!("{} (not built yet)", game.title())
        };
        if ui.selectable_label(menu.game == game, text).clicked() && menu.game != game {
            menu.switch_game(game);
        }
    }
    if !menu.game.is_playable() {
        ui.add_space(8.0);
        ui.label(format!(
            "{} is specified but not built yet; it cannot be played in this version.",
            menu.game.title()
        ));
    }
}

fn levels_column(ui: &mut egui::Ui, menu: &mut Menu) {
    ui.heading("Level");
    if menu.levels.is_empty() {
        ui.label(format!("No levels in {}", levels_root().join(menu.game.folder()).display()));
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
        menu.selected = i;
    }
    if let Some(entry) = menu.levels.get(menu.selected) {
        ui.add_space(6.0);
        match &entry.level {
            Ok(LevelFile::Nim(l)) => {
                ui.label(&l.description);
                ui.label(format!("Piles: {:?}", l.piles));
                ui.label(l.ending.describe());
            }
            Ok(LevelFile::Mancala(l)) => {
                ui.label(&l.description);
                ui.label(format!("{} pits a side, {} stones each", l.pits, l.stones));
                ui.label(super::mancala_view::rules_line(l.capture, l.sweep));
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
    let agents = agents_of(menu.game);
    for seat in 0..2 {
        ui.group(|ui| {
            ui.horizontal(|ui| {
                ui.label(format!("Player {}", seat + 1));
                ui.add(egui::TextEdit::singleline(&mut settings.names[seat]).desired_width(120.0));
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
}

fn menu_keys(
    keys: Res<ButtonInput<KeyCode>>,
    mut menu: ResMut<Menu>,
    mut settings: ResMut<Settings>,
    mut browser: ResMut<ReplayBrowser>,
    mut requests: MessageWriter<SessionRequest>,
    mut status: ResMut<StatusLine>,
    mut exit: MessageWriter<AppExit>,
) {
    let pressed = |k: KeyCode| keys.just_pressed(k);
    let games = GameKind::ALL;
    let at = games.iter().position(|&g| g == menu.game).unwrap_or(0);
    let step_game = if pressed(KeyCode::ArrowRight) {
        Some(1)
    } else if pressed(KeyCode::ArrowLeft) {
        Some(games.len() - 1)
    } else {
        None
    };
    if let Some(step) = step_game {
        menu.switch_game(games[(at + step) % games.len()]);
    }
    let n = menu.levels.len().max(1);
    if pressed(KeyCode::ArrowDown) {
        menu.selected = (menu.selected + 1) % n;
    }
    if pressed(KeyCode::ArrowUp) {
        menu.selected = (menu.selected + n - 1) % n;
    }
    if pressed(KeyCode::Digit1) {
        menu.cycle_seat(0);
    }
    if pressed(KeyCode::Digit2) {
        menu.cycle_seat(1);
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

    #[test]
    fn strength_is_written_only_when_it_differs() {
        let mut menu = Menu::default();
        assert_eq!(menu.seats[1], SeatChoice { agent: Some(1), strength: 1.0 }, "optimal by default");
        assert_eq!(menu.controller(1), Controller::Agent(AgentSpec::new("optimal", None)));
        menu.seats[1].strength = 0.3;
        assert_eq!(menu.controller(1), Controller::Agent(AgentSpec::new("optimal", Some("0.3"))));
        menu.cycle_seat(1);
        assert_eq!(menu.controller(1), Controller::Human);
        menu.cycle_seat(1);
        assert_eq!(menu.controller(1), Controller::Agent(AgentSpec::new("random", None)));
    }

    #[test]
    fn unbuilt_games_say_so() {
        let menu = Menu { game: GameKind::Robots, ..Menu::default() };
        let err = menu.plan(&Settings::default()).unwrap_err();
        assert!(err.contains("not built yet"), "{err}");
    }
}

#[cfg(test)]
mod switch_tests {
    use super::*;

    #[test]
    fn switching_games_resets_seats_to_the_default_opponent_at_its_default_strength() {
        let mut menu = Menu::default();
        menu.switch_game(GameKind::Mancala);
        assert!(menu.levels.len() >= 5);
        assert_eq!(menu.controller(0), Controller::Human);
        assert_eq!(menu.controller(1), Controller::Agent(AgentSpec::new("minimax", None)));
        menu.seats[1].strength = 4.0;
        assert_eq!(menu.controller(1), Controller::Agent(AgentSpec::new("minimax", Some("4"))));
    }
}
