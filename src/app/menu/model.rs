//! What the menu has chosen: the games it lists (playable in the window,
//! for the command line only, or not built yet), the chosen game's agents
//! and levels, the chosen level, and who plays each seat at what strength;
//! from these, the plan a session starts on.

use bevy::prelude::*;
use tabula_engine::core::AgentSpec;
use tabula_engine::core::LevelGroup;
use tabula_engine::core::agent::AgentInfo;
use tabula_engine::games::{self, GameEntry};
use tabula_engine::level::{self, LevelFile};

use crate::app::levels::library::{LevelEntry, levels_root};
use crate::app::session::{Controller, SeatSetup, SessionPlan};
use crate::app::settings::{MAX_SEATS, Settings};

/// Games specified in docs/rules/ (one file a game), by title and level folder:
/// the menu shows those not built yet, and says so.
const SPECIFIED: [(&str, &str); 2] = [("Russian Bank", "russian_bank"), ("Robot board", "robots")];

/// What each game is, in a line, and the level its picture is drawn from.
const ABOUT: [(&str, &str, &str); 4] = [
    ("nim", "Take stones from one pile at a time; the last stone decides.", "traditional-3-4-5.ron"),
    ("mancala", "Sow stones around the board; the most in your store wins.", "kalah-6-4.ron"),
    ("robots", "Race your robots home over belts; find hidden homes by hints.", "10-four-player-race.ron"),
    (
        "russian_bank",
        "Patience for two: be first to play out reserve, hand and waste.",
        "01-shuffled-deal.ron",
    ),
];

/// Who the menu puts in a seat: a human, or an agent with a strength.
#[derive(Clone, Debug, PartialEq)]
pub struct SeatChoice {
    /// Index into the game's agents; `None` is a human.
    pub agent: Option<usize>,
    pub strength: f64,
}

/// A game the menu lists: playable in the window, or not (yet).
#[derive(Clone)]
pub struct MenuGame {
    pub title: &'static str,
    pub folder: &'static str,
    /// The game, when the window plays it.
    pub entry: Option<&'static dyn GameEntry>,
    /// How far it is built, when the window does not play it.
    pub status: Option<&'static str>,
    /// What it is, in a line.
    pub about: &'static str,
    /// The level its picture is drawn from, read when the menu is made.
    pub picture: Option<LevelFile>,
}

impl MenuGame {
    pub fn is_playable(&self) -> bool {
        self.entry.is_some()
    }
}

pub(super) const COMMAND_LINE_ONLY: &str = "command line only";
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
    pub(super) scanned: Option<&'static str>,
    /// Every file of that folder has been read (loaded or failed) and shown.
    pub(super) listed: bool,
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
                    about: about(g.folder()).0,
                    picture: about(g.folder()).1,
                }
            })
            .partition(MenuGame::is_playable);
        list.extend(rules_only);
        list.extend(SPECIFIED.iter().filter(|(_, folder)| known.iter().all(|g| g.folder() != *folder)).map(
            |&(title, folder)| MenuGame {
                title,
                folder,
                entry: None,
                status: Some(NOT_BUILT),
                about: about(folder).0,
                picture: None,
            },
        ));
        let mut menu = Menu {
            games: list,
            game: 0,
            agents: Vec::new(),
            levels: Vec::new(),
            scanned: None,
            listed: false,
            selected: 0,
            seats: Vec::new(),
        };
        menu.switch_game(0);
        menu
    }

    pub fn current(&self) -> &MenuGame {
        &self.games[self.game]
    }

    /// Shows the chosen game's levels as they are now read, grouped as
    /// `LevelGroup` orders them (unreadable files last); the choice stays on
    /// the same file when it is still there.
    pub fn set_levels(&mut self, mut levels: Vec<LevelEntry>) {
        levels.sort_by_key(|l| l.level.as_ref().map_or(LevelGroup::ALL.len(), |l| l.group() as usize));
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
    pub(super) fn set_agent(&mut self, seat: usize, agent: Option<usize>) {
        let strength =
            agent.and_then(|i| self.agents.get(i)).and_then(|a| a.param).map_or(1.0, |p| p.default);
        self.seats[seat] = SeatChoice { agent, strength };
    }

    pub(super) fn cycle_seat(&mut self, seat: usize) {
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

/// A game's line and its picture's level (`None` when that file is missing
/// or broken: the menu then shows the game without a picture).
fn about(folder: &str) -> (&'static str, Option<LevelFile>) {
    match ABOUT.iter().find(|(f, ..)| *f == folder) {
        Some(&(_, line, file)) => (line, level::load(&levels_root().join(folder).join(file)).ok()),
        None => ("", None),
    }
}

fn format_strength(s: f64) -> String {
    format!("{s:.2}").trim_end_matches('0').trim_end_matches('.').to_owned()
}

pub(super) fn seed_now() -> u64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_nanos() as u64)
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

    #[test]
    fn levels_are_listed_by_group_with_the_specification_tests_last() {
        let mut menu = Menu::new(&["Nim", "Mancala", "Robots", "RussianBank"]);
        let bank = menu.games.iter().position(|g| g.title == "Russian Bank").unwrap();
        menu.switch_game(bank);
        read_levels(&mut menu);
        let groups: Vec<LevelGroup> = menu.levels.iter().map(|l| l.level.as_ref().unwrap().group()).collect();
        assert!(groups.is_sorted(), "{groups:?}");
        assert_eq!(groups.first(), Some(&LevelGroup::Lesson));
        let tests: Vec<String> = menu
            .levels
            .iter()
            .filter(|l| l.level.as_ref().unwrap().group() == LevelGroup::Specification)
            .map(|l| l.path.file_name().unwrap().to_string_lossy().into_owned())
            .collect();
        assert_eq!(tests.len(), 5, "seed 004's four positions and the written-out deal: {tests:?}");
        assert!(tests.iter().filter(|t| t.starts_with("seed-004")).count() == 4);
        // The shown-home races are lessons; the hidden-home levels are games.
        menu.switch_game(menu.games.iter().position(|g| g.title == "Robot board").unwrap());
        read_levels(&mut menu);
        for entry in &menu.levels {
            let level = entry.level.as_ref().unwrap();
            let hidden = level.get::<tabula_engine::robots::Robots>().unwrap().homes
                == tabula_engine::robots::Homes::Hidden;
            let large = entry.path.to_string_lossy().contains("large-");
            let expected = match (large, hidden) {
                (true, _) => LevelGroup::Large,
                (false, true) => LevelGroup::Game,
                _ => LevelGroup::Lesson,
            };
            assert_eq!(level.group(), expected, "{}", entry.path.display());
        }
    }

    #[test]
    fn every_game_has_a_line_and_a_picture() {
        let menu = Menu::new(&["Nim", "Mancala", "Robots", "RussianBank"]);
        for game in &menu.games {
            assert!(game.about.len() > 20, "{}", game.title);
            assert!(game.picture.is_some(), "{}: its picture's level is read", game.title);
        }
    }
}
