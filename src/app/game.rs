//! What the window needs of a game beyond its rules, and which game's board
//! is showing. How a game joins the window is `registry`'s; what the menu
//! and the editor ask of the games it joined is `WindowCatalog`'s.

use bevy::prelude::*;
use bevy_egui::egui;
use tabula_engine::games::Registered;
use tabula_engine::level::LevelFile;
use tabula_engine::{Game, Player};

use super::help::{Controls, Key};
use super::picture;

/// The game whose board is showing, by its name in level files; `None` in
/// the menu. A board's entities carry `DespawnOnExit` of their game.
#[derive(States, Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct ActiveGame(pub Option<&'static str>);

impl ActiveGame {
    pub fn of<G: Game>() -> ActiveGame {
        ActiveGame(Some(G::NAME))
    }
}

/// A game the window can show.
pub trait WindowGame: Registered {
    /// How a person plays this board with the mouse, in a sentence.
    const MOUSE: &'static str;
    /// The board's keys and what each does (the keys every game shares are
    /// the HUD's).
    const KEYS: &'static [Key];
    /// What the game is, in a line, for the menu.
    const ABOUT: &'static str;
    /// Seconds the board stays still after a move before an agent moves
    /// again, at the default speed (faster speeds shorten it): time to see
    /// each move land, and to answer it (a card game's Stop).
    const AGENT_PAUSE: f32 = 0.0;
    /// The pause after `mv` in particular, if it is to be longer than
    /// `AGENT_PAUSE` (a card put on the person's own pile, to be seen).
    fn agent_pause_after(_mv: &Self::Move) -> f32 {
        Self::AGENT_PAUSE
    }
    /// Play again against an agent turns the two seats round, so that a
    /// person moves first and second in turn, as a rematch swaps colours:
    /// for a game where the first move weighs much and the board looks the
    /// same from either seat.
    const TAKES_TURNS_TO_START: bool = false;
    /// What the teaching overlay shows, as its key T says it, where the
    /// game teaches.
    const TEACHES: &'static str = "teach: what each move is worth";
    /// The level in the game's folder that the menu draws the game from;
    /// `None` shows the game without a picture.
    const PICTURE: Option<&'static str> = None;
    /// Draws `level` small to fill `rect` (its aspect kept): the menu's
    /// cards and previews and the editor's form show it. Without a picture
    /// of its own, a game shows the level's name.
    fn draw_level(painter: &egui::Painter, rect: egui::Rect, level: &Self::Level) {
        picture::name_only(painter, rect, tabula_engine::core::Level::name(level));
    }
    /// A new level to start editing from.
    fn new_level() -> Self::Level;
    /// The level's fields in the editor's form; the level as changed, if a
    /// field changed. Without a form of its own, a game's level is edited as
    /// its text.
    fn edit_level(ui: &mut egui::Ui, level: &Self::Level) -> Option<Self::Level> {
        picture::edit_as_text::<Self>(ui, level)
    }
    /// The level drawn beside the form, for editing on where the game
    /// allows it (dragging stones, dropping cards); the level as changed
    /// there, with a refusal said in `refused`.
    fn edit_on_picture(
        ui: &mut egui::Ui,
        level: &Self::Level,
        _refused: &mut Option<String>,
    ) -> Option<Self::Level> {
        let size = egui::vec2(ui.available_width(), 280.0);
        let (rect, _) = ui.allocate_exact_size(size, egui::Sense::hover());
        picture::backdrop(ui.painter(), rect);
        Self::draw_level(ui.painter(), rect.shrink(6.0), level);
        None
    }
    /// The board's controls for a level, less any keys the level's rules
    /// turn off: the bottom line and the F1 overlay show them.
    fn controls(_level: &Self::Level) -> Controls {
        Controls::new(Self::MOUSE, Self::KEYS)
    }
    /// The game as a seat that sees `view` knows it: what a window playing
    /// at a game server's table holds (it never learns more).
    fn from_view(view: &Self::Observation) -> Self;
    /// The level's rule options in a line, for the top bar.
    fn rules_text(level: &Self::Level) -> String;
    /// Why the game ended, with the seats' names.
    fn outcome_text(board: &Self::Observation, names: &[String]) -> String;
    /// What every seat knows beyond what the board shows (hints, and where
    /// they were given), a line each with the seat it is
    /// about, for the side panel.
    fn clues(_board: &Self::Observation) -> Vec<(Player, String)> {
        Vec::new()
    }
    /// A move in words for the move log and the status line.
    fn move_text(_level: &Self::Level, mv: &Self::Move) -> String {
        mv.to_string()
    }
    /// A move in words as the log says it, from the position `before` it,
    /// which may name what the move takes there (a card's face).
    fn move_words(_before: &Self, level: &Self::Level, mv: &Self::Move) -> String {
        Self::move_text(level, mv)
    }
    /// Why the rules refused a move, in words for the status line.
    fn refusal(_board: &Self::Observation, error: &Self::Error) -> String {
        error.to_string()
    }
    /// What a move did beyond the move itself ("extra turn"), if anything.
    fn step_note(_steps: &[Self::Step]) -> Option<String> {
        None
    }
}

/// The name of seat `p`, or "Player N" past the names given.
pub fn name_of(names: &[String], p: Player) -> String {
    names.get(p.index()).cloned().unwrap_or_else(|| p.to_string())
}

/// What the menu and the editor know of a game the window plays, without
/// its type: one a registered game, in the order the games registered.
#[derive(Clone, Copy)]
pub struct GameCard {
    /// The game's name in level files.
    pub name: &'static str,
    pub about: &'static str,
    pub picture: Option<&'static str>,
    draw: fn(&egui::Painter, egui::Rect, &LevelFile),
    new_level: fn() -> LevelFile,
    edit_level: fn(&mut egui::Ui, &LevelFile) -> Option<LevelFile>,
    edit_on_picture: fn(&mut egui::Ui, &LevelFile, &mut Option<String>) -> Option<LevelFile>,
}

impl GameCard {
    pub fn of<G: WindowGame>() -> GameCard {
        GameCard {
            name: G::NAME,
            about: G::ABOUT,
            picture: G::PICTURE,
            draw: |painter, rect, level| {
                if let Some(level) = level.get::<G>() {
                    G::draw_level(painter, rect, level);
                }
            },
            new_level: || LevelFile::new::<G>(G::new_level()),
            edit_level: |ui, level| {
                let level = level.get::<G>()?;
                G::edit_level(ui, level).filter(|l| l != level).map(LevelFile::new::<G>)
            },
            edit_on_picture: |ui, level, refused| {
                let level = level.get::<G>()?;
                G::edit_on_picture(ui, level, refused).filter(|l| l != level).map(LevelFile::new::<G>)
            },
        }
    }

    /// Draws `level` to fill `rect` on the pictures' dark backdrop.
    pub fn draw(&self, painter: &egui::Painter, rect: egui::Rect, level: &LevelFile) {
        picture::backdrop(painter, rect);
        (self.draw)(painter, rect.shrink(6.0), level);
    }

    pub fn new_level(&self) -> LevelFile {
        (self.new_level)()
    }

    /// The form's fields for `level`; the level as changed, if it was.
    pub fn edit_level(&self, ui: &mut egui::Ui, level: &LevelFile) -> Option<LevelFile> {
        (self.edit_level)(ui, level)
    }

    /// The picture beside the form; the level as changed on it, if it was.
    pub fn edit_on_picture(
        &self,
        ui: &mut egui::Ui,
        level: &LevelFile,
        refused: &mut Option<String>,
    ) -> Option<LevelFile> {
        (self.edit_on_picture)(ui, level, refused)
    }
}

/// The games the window plays, as the menu and the editor ask of them.
#[derive(Resource, Default, Clone)]
pub struct WindowCatalog(pub Vec<GameCard>);

impl WindowCatalog {
    pub fn find(&self, name: &str) -> Option<&GameCard> {
        self.0.iter().find(|c| c.name == name)
    }

    /// The card of `level`'s game, if the window plays it.
    pub fn of(&self, level: &LevelFile) -> Option<&GameCard> {
        self.find(level.game().name())
    }
}
