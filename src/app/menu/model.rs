//! What the menu has chosen: the games it lists (playable in the window, or
//! for the command line only), the chosen game's agents
//! and levels, the chosen level, and who plays each seat at what strength;
//! from these, the plan a session starts on.

use bevy::prelude::*;
use tabula_engine::core::AgentSpec;
use tabula_engine::core::LevelGroup;
use tabula_engine::core::agent::{AgentInfo, DIFFICULTIES};
use tabula_engine::games::{self, GameEntry};
use tabula_engine::level::{self, LevelFile};

use crate::app::game::GameCard;
use crate::app::levels::library::{LevelEntry, levels_root, writable_levels_root};
use crate::app::session::{Controller, SeatSetup, SessionPlan, seed_now};
use crate::app::settings::{MAX_SEATS, Settings};

/// Who the menu puts in a seat: a human, or an agent with a strength.
#[derive(Clone, Debug, PartialEq)]
pub struct SeatChoice {
    /// Index into the game's agents; `None` is a human.
    pub agent: Option<usize>,
    pub strength: f64,
}

/// A game the menu lists: playable in the window, or not.
#[derive(Clone)]
pub struct MenuGame {
    pub title: &'static str,
    pub folder: &'static str,
    /// The game, when the window plays it.
    pub entry: Option<&'static dyn GameEntry>,
    /// What the window knows of it, when the window plays it.
    pub card: Option<GameCard>,
    /// Why it cannot be played here, when the window does not play it.
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
    /// A level to choose once its game's levels are listed (the one last
    /// played from the command line).
    pub(super) wanted: Option<std::path::PathBuf>,
    /// The level last chosen in each game shown before, by folder: chosen
    /// again when its game is shown again.
    pub(super) chosen_before: std::collections::HashMap<&'static str, std::path::PathBuf>,
    pub selected: usize,
    /// One a seat of the chosen level.
    pub seats: Vec<SeatChoice>,
    /// The chosen level can be played on a new board each game, dealt like
    /// it by its game's generator.
    pub dealable: bool,
    /// A board dealt like the chosen level, for its picture while each game
    /// deals its own: the level's own board is not what will be played.
    pub dealt_example: Option<LevelFile>,
}

impl Menu {
    /// The menu over the games the window plays (in the order they
    /// registered), then the games the engine knows that it does not.
    pub fn new(cards: &[GameCard]) -> Menu {
        let known = games::all();
        let mut list: Vec<MenuGame> = cards
            .iter()
            .filter_map(|card| games::find(card.name).map(|g| (g, card)))
            .map(|(g, card)| MenuGame {
                title: g.title(),
                folder: g.folder(),
                entry: Some(g),
                card: Some(*card),
                status: None,
                about: card.about,
                picture: card
                    .picture
                    .and_then(|file| level::load(&levels_root().join(g.folder()).join(file)).ok()),
            })
            .collect();
        list.extend(known.iter().filter(|g| cards.iter().all(|c| c.name != g.name())).map(|&g| MenuGame {
            title: g.title(),
            folder: g.folder(),
            entry: None,
            card: None,
            status: Some(COMMAND_LINE_ONLY),
            about: "",
            picture: None,
        }));
        let mut menu = Menu {
            games: list,
            game: 0,
            agents: Vec::new(),
            levels: Vec::new(),
            scanned: None,
            listed: false,
            wanted: None,
            chosen_before: Default::default(),
            selected: 0,
            seats: Vec::new(),
            dealable: false,
            dealt_example: None,
        };
        menu.switch_game(0);
        menu
    }

    pub fn current(&self) -> &MenuGame {
        &self.games[self.game]
    }

    /// Shows the chosen game's levels as they are now read, grouped as
    /// `LevelGroup` orders them, then the player's own, unreadable files
    /// last; the choice stays on the same file when it is still there.
    pub fn set_levels(&mut self, mut levels: Vec<LevelEntry>) {
        let mine = LevelGroup::ALL.len();
        levels.sort_by_key(|l| match &l.level {
            Err(_) => mine + 1,
            Ok(_) if l.mine => mine,
            Ok(level) => level.group() as usize,
        });
        let chosen = self.levels.get(self.selected).map(|l| l.path.clone());
        let wanted = self.wanted.as_deref().and_then(|w| levels.iter().position(|l| same_file(&l.path, w)));
        if wanted.is_some() {
            self.wanted = None;
        }
        self.selected = wanted
            .or_else(|| chosen.and_then(|path| levels.iter().position(|l| l.path == path)))
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
            self.dealable = false;
            self.dealt_example = None;
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
        self.seat_lesson_opponent();
        self.dealt_example =
            self.levels.get(self.selected).and_then(|l| l.level.as_ref().ok()).and_then(|level| {
                let generators = games::generators();
                generators.iter().filter(|g| g.game == entry.name()).find_map(|g| g.deal_like(level, 0).ok())
            });
        self.dealable = self.dealt_example.is_some();
    }

    /// On a lesson, the agent seats at the game's default opponent get its
    /// lesson opponent (an agent that slips, for a card game's Stop to
    /// catch); on any other level, back again. A seat chosen otherwise stays.
    fn seat_lesson_opponent(&mut self) {
        let Some(spec) = self.current().entry.and_then(|e| e.lesson_opponent()) else { return };
        let Ok(spec) = spec.parse::<AgentSpec>() else { return };
        let (Some(lesson), Some(default)) =
            (self.agents.iter().position(|a| a.name == spec.name), self.default_opponent())
        else {
            return;
        };
        let strength = spec.param.as_deref().and_then(|p| p.parse().ok()).unwrap_or(1.0);
        let lesson = SeatChoice { agent: Some(lesson), strength };
        let default_strength = self.agents[default].param.map_or(1.0, |p| p.default);
        let default = SeatChoice { agent: Some(default), strength: default_strength };
        let on_lesson = matches!(self.levels.get(self.selected).map(|l| &l.level),
            Some(Ok(level)) if level.group() == LevelGroup::Lesson);
        let (from, to) = if on_lesson { (default, lesson) } else { (lesson, default) };
        for seat in self.seats.iter_mut().skip(1).filter(|s| **s == from) {
            *seat = to.clone();
        }
    }

    /// Whether `seat` holds the lesson's own opponent, seated by the lesson.
    pub fn lesson_seat(&self, seat: usize) -> bool {
        let on_lesson = matches!(self.levels.get(self.selected).map(|l| &l.level),
            Some(Ok(level)) if level.group() == LevelGroup::Lesson);
        let Some(spec) = self.current().entry.and_then(|e| e.lesson_opponent()) else { return false };
        let Ok(spec) = spec.parse::<AgentSpec>() else { return false };
        let strength = spec.param.as_deref().and_then(|p| p.parse().ok()).unwrap_or(1.0);
        let choice = &self.seats[seat];
        on_lesson
            && seat > 0
            && choice.agent.is_some_and(|i| self.agents[i].name == spec.name)
            && choice.strength == strength
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
            deal: self.dealable && settings.deals(game.folder),
        })
    }

    /// The seats of a table hosted online for the chosen level, as the
    /// server's `create` takes them: seat 1 is this window's player, a
    /// seat chosen Human is open to a friend, an agent's is the server's.
    pub fn online_seats(&self) -> Vec<String> {
        (0..self.seats.len())
            .map(|i| match self.controller(i) {
                Controller::Agent(spec) => spec.to_string(),
                _ => "person".to_owned(),
            })
            .collect()
    }

    /// The chosen level's file, to open in the editor.
    pub fn edit_path(&self) -> Result<std::path::PathBuf, String> {
        self.levels
            .get(self.selected)
            .map(|l| l.path.clone())
            .ok_or_else(|| "there is no level to edit".into())
    }

    /// A file name for a new level of the chosen game, not yet taken, in
    /// the player's folder when the game is installed.
    pub fn new_level_path(&self) -> std::path::PathBuf {
        let dir = writable_levels_root().join(self.current().folder);
        (1..).map(|n| dir.join(format!("new-level-{n}.ron"))).find(|p| !p.exists()).expect("a free name")
    }

    /// Shows another game: its levels, you against its default opponent.
    pub fn switch_game(&mut self, game: usize) {
        // A person or a difficulty chosen for a seat is every game's: kept.
        let carried: Vec<Option<Option<&'static str>>> = (self.seats.iter())
            .map(|seat| match seat.agent.and_then(|i| self.agents.get(i)) {
                None => Some(None),
                Some(info) if DIFFICULTIES.contains(&info.name) => Some(Some(info.name)),
                Some(_) => None,
            })
            .collect();
        if let Some(level) = self.levels.get(self.selected) {
            self.chosen_before.insert(self.current().folder, level.path.clone());
        }
        self.game = game.min(self.games.len().saturating_sub(1));
        self.agents = self.current().entry.map(|e| e.agents()).unwrap_or_default();
        self.wanted = self.chosen_before.get(self.current().folder).cloned();
        self.selected = 0;
        self.seats.clear();
        self.levels.clear();
        self.scanned = None;
        self.listed = false;
        self.fit_seats();
        for (seat, kind) in carried.into_iter().enumerate().take(self.seats.len()) {
            match kind {
                Some(None) => self.set_agent(seat, None),
                Some(Some(name)) => {
                    if let Some(i) = self.agents.iter().position(|a| a.name == name) {
                        self.set_agent(seat, Some(i));
                    }
                }
                None => {}
            }
        }
        self.seat_lesson_opponent();
    }

    /// Shows the game whose level folder is `folder`, with the level of
    /// file `path` chosen once its levels are listed: the menu a player
    /// comes back to after `tabula play <level>` shows that level.
    pub fn show(&mut self, folder: &str, path: &std::path::Path) {
        let Some(game) = self.games.iter().position(|g| g.folder == folder && g.is_playable()) else {
            return;
        };
        if game != self.game {
            self.switch_game(game);
        }
        // Chosen now if its game's levels are listed, else once they are.
        match self.levels.iter().position(|l| same_file(&l.path, path)) {
            Some(level) => self.select(level),
            None => self.wanted = Some(path.to_owned()),
        }
    }

    /// What the level list says while it shows no level: that the files
    /// are still being read, or that the game's folder holds none.
    pub fn empty_list_note(&self) -> Option<String> {
        if !self.levels.is_empty() {
            return None;
        }
        Some(match self.listed {
            true => format!("No levels in {}", levels_root().join(self.current().folder).display()),
            false => "Reading the levels…".to_owned(),
        })
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

fn format_strength(s: f64) -> String {
    format!("{s:.2}").trim_end_matches('0').trim_end_matches('.').to_owned()
}

/// Two names of one file (the menu lists `levels/<game>/x.ron`, a command line
/// may have named it otherwise).
fn same_file(a: &std::path::Path, b: &std::path::Path) -> bool {
    a == b || std::fs::canonicalize(a).ok().zip(std::fs::canonicalize(b).ok()).is_some_and(|(a, b)| a == b)
}

#[cfg(test)]
#[path = "model_tests.rs"]
mod tests;
