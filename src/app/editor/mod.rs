//! The level editor: what every game's editor shares. A level opens in its
//! game's own editor (one that paints a board, brought by the game's folder
//! through `own_editor`) or, for a game without one, in the form (`form`):
//! the level's fields beside its picture. Both have undo and redo without
//! limit, the engine's own checks after every edit, hot reload of the file
//! both ways (`watch`), saving in the layout `tabula fmt` writes, and
//! test-play with one key and back to the editor as it was.
//!
//! This file holds the plugin, opening a file (`open`), how a game brings
//! its own editor (`own_editor`, `LevelEditor`), and the bars and verbs the
//! editors share.

pub mod form;
mod watch;

use std::path::{Path, PathBuf};

use bevy::ecs::component::Mutable;
use bevy::prelude::*;
use bevy_egui::EguiPrimaryContextPass;
use tabula_engine::format;
use tabula_engine::games;
use tabula_engine::level::{self, LevelFile};

use super::ask::{Asking, LeaveEditor};
use super::game::WindowCatalog;
use super::screen::{BackTo, Screen};
use super::session::{SeatSetup, SessionPlan, SessionRequest, StatusLine, seed_now};

/// A level to open in the editor at start (`tabula edit <level.ron>`).
#[derive(Resource, Clone, Debug)]
pub struct StartEdit(pub PathBuf);

/// Opens a level in the editor screen, or says why not.
#[derive(Message, Clone, Debug)]
pub struct RequestEdit(pub PathBuf);

/// A level file read for editing (its rules may be broken), or a new level
/// to be saved there.
pub struct Opened {
    /// Where saving writes.
    pub path: PathBuf,
    pub level: LevelFile,
    /// The file's comment lines, kept at its top.
    pub header: String,
    /// Comments below them, which saving drops (named first).
    pub lost_comments: Vec<(usize, String)>,
}

/// A game's editor as the shared parts see it (the file watch, the
/// greeting, opening one level after another).
pub trait LevelEditor: Resource + Component<Mutability = Mutable> + Sized {
    fn open(opened: Opened) -> Self;
    /// The file it saves to.
    fn path(&self) -> &Path;
    /// The level as it stands.
    fn level_now(&self) -> LevelFile;
    /// The level as last saved or opened.
    fn level_saved(&self) -> LevelFile;
    /// The file changed on disk to `level`, of the same game: one edit
    /// that undo takes back, and what the file now holds.
    fn take_from_disk(&mut self, level: LevelFile);
    /// Whether the level differs from what was last saved or opened.
    fn unsaved(&self) -> bool;
    /// Writes the level to its file: what was done, or why not.
    fn save(&mut self) -> Result<String, String>;
}

/// How a game's levels are edited: the games that brought an editor of
/// their own, and every editor's way to close (opening a level closes the
/// one open before).
#[derive(Resource, Default)]
pub struct Editors {
    own: Vec<(&'static str, fn(&mut Commands, Opened))>,
    closers: Vec<fn(&mut Commands)>,
    /// The editor screen is in the app: an editor's systems join at once.
    built: bool,
    /// Editors whose systems wait for the editor screen.
    waiting: Vec<fn(&mut App)>,
}

/// Edits `game`'s levels with editor `E` (and its systems, `plugin`),
/// rather than the form. Called from the game folder's plugin.
pub fn own_editor<E: LevelEditor>(app: &mut App, game: &'static str, plugin: fn(&mut App)) {
    let mut editors = app.world_mut().get_resource_or_init::<Editors>();
    editors.own.push((game, |commands, opened| commands.insert_resource(E::open(opened))));
    editors.closers.push(|commands| commands.remove_resource::<E>());
    if editors.built {
        editor_systems::<E>(app);
        plugin(app);
    } else {
        editors.waiting.push(|app| editor_systems::<E>(app));
        editors.waiting.push(plugin);
    }
}

/// What every editor has: its file watched both ways, and a greeting.
fn editor_systems<E: LevelEditor>(app: &mut App) {
    app.add_systems(OnEnter(Screen::Editor), (greet::<E>, watch::catch_up::<E>).chain()).add_systems(
        Update,
        (watch::watch_file::<E>, watch::follow_file::<E>, leave::<E>)
            .chain()
            .run_if(in_state(Screen::Editor)),
    );
}

/// Esc (or Menu) in an editor: back to the menu, asking first when the
/// level has edits not saved (Save and leave, Leave without saving, Stay).
pub fn ask_to_leave<E: LevelEditor>(
    editing: &E,
    asking: &mut Asking,
    leave: &mut MessageWriter<LeaveEditor>,
) {
    asking.leave_editor(editing.unsaved(), leave);
}

/// The editor left as asked and answered: saved first when so answered,
/// and staying when that fails, with why.
fn leave<E: LevelEditor>(
    mut answers: MessageReader<LeaveEditor>,
    editing: Option<ResMut<E>>,
    mut status: ResMut<StatusLine>,
    mut next: ResMut<NextState<Screen>>,
) {
    let Some(mut editing) = editing else { return };
    for answer in answers.read() {
        if answer.save {
            match editing.save() {
                Ok(done) => status.info(done),
                Err(why) => {
                    status.error(why);
                    continue;
                }
            }
        }
        next.set(Screen::Menu);
    }
}

/// Reads `path` for editing (its rules may be broken), or, when there is no
/// such file, a new level of the game whose folder it is in.
pub fn open(path: &Path, catalog: &WindowCatalog) -> Result<Opened, String> {
    let name = path.display().to_string();
    let text = match std::fs::read_to_string(path) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            let level = new_level_for(path, catalog)?;
            return Ok(Opened {
                path: path.to_owned(),
                level,
                header: String::new(),
                lost_comments: Vec::new(),
            });
        }
        Err(e) => return Err(format!("Cannot read {name}: {e}")),
    };
    let formatted = format::format(&text, &name).map_err(|e| e.to_string())?;
    let level = level::read_unchecked(&text, &name).map_err(|e| e.to_string())?;
    let (header, _) = format::split_header(&text);
    Ok(Opened {
        path: path.to_owned(),
        level,
        header: header.to_owned(),
        lost_comments: formatted.lost_comments,
    })
}

/// A new level for a file that does not exist yet, of the game whose level
/// folder holds it.
fn new_level_for(path: &Path, catalog: &WindowCatalog) -> Result<LevelFile, String> {
    let folder = path.parent().and_then(|d| d.file_name()).and_then(|f| f.to_str()).unwrap_or("");
    let game = games::all().into_iter().find(|g| g.folder() == folder);
    match game.and_then(|g| catalog.find(g.name())) {
        Some(card) => Ok(card.new_level()),
        None => {
            let folders: Vec<&str> =
                catalog.0.iter().filter_map(|c| games::find(c.name)).map(|g| g.folder()).collect();
            Err(format!(
                "There is no {}: a new level is made in its game's level folder ({})",
                path.display(),
                folders.join(", ")
            ))
        }
    }
}

/// The editor screen (the window adds it; headless tests too), with the
/// form for every game and each game's own editor.
pub fn plugin(app: &mut App) {
    app.add_message::<RequestEdit>()
        .add_message::<LeaveEditor>()
        .init_resource::<Asking>()
        .init_resource::<watch::EditorWatch>()
        .init_resource::<WindowCatalog>()
        .add_systems(Update, (open_requested, start_from_command_line.run_if(resource_exists::<StartEdit>)))
        .add_systems(EguiPrimaryContextPass, form::form.run_if(in_state(Screen::Editor)));
    editor_systems::<form::FormEditing>(app);
    let mut editors = app.world_mut().get_resource_or_init::<Editors>();
    editors.built = true;
    editors.closers.push(|commands| commands.remove_resource::<form::FormEditing>());
    let waiting = std::mem::take(&mut editors.waiting);
    for plugin in waiting {
        plugin(app);
    }
}

/// Entering the editor (opened, or back from a test-play), the status line
/// says what is edited, not what the game last said.
fn greet<E: LevelEditor>(editing: Option<Res<E>>, mut status: ResMut<StatusLine>) {
    if let Some(editing) = editing {
        status.info(format!("Editing {}", editing.path().display()));
    }
}

fn start_from_command_line(
    mut commands: Commands,
    start: Res<StartEdit>,
    mut requests: MessageWriter<RequestEdit>,
) {
    commands.remove_resource::<StartEdit>();
    requests.write(RequestEdit(start.0.clone()));
}

fn open_requested(
    mut commands: Commands,
    mut requests: MessageReader<RequestEdit>,
    catalog: Res<WindowCatalog>,
    editors: Res<Editors>,
    mut status: ResMut<StatusLine>,
    mut next: ResMut<NextState<Screen>>,
) {
    for RequestEdit(path) in requests.read() {
        // An installed level is never written: it is saved as the
        // player's own.
        let (read, save) = crate::app::levels::library::edited(path);
        match open(&read, &catalog) {
            Ok(mut opened) => {
                if read == save {
                    status.info(format!("Editing {}", save.display()));
                } else {
                    status.info(format!("Editing {}: saved as your own, {}", read.display(), save.display()));
                }
                opened.path = save;
                for close in &editors.closers {
                    close(&mut commands);
                }
                let game = opened.level.game().name();
                match editors.own.iter().find(|(g, _)| *g == game) {
                    Some((_, open)) => open(&mut commands, opened),
                    None => commands.insert_resource(form::FormEditing::open(opened)),
                }
                next.set(Screen::Editor);
            }
            Err(e) => status.error(e),
        }
    }
}

/// A game of the level as it stands with `seats`, for a test-play. The game
/// watches the file, so the editor's saves restart it; a level never saved
/// has no file to watch yet (watching it would show a missing file as a
/// level error for the whole game).
pub fn test_plan(path: &Path, level: LevelFile, seats: Vec<SeatSetup>) -> SessionPlan {
    let level_path = path.exists().then(|| path.to_owned());
    SessionPlan { level_path, level, seats, seed: seed_now(), replay: None, deal: false }
}

/// Test-play: the game starts on the level as it stands; leaving it comes
/// back here, to the level, its history and the tool as they were.
pub fn test_play(
    plan: Result<SessionPlan, String>,
    requests: &mut MessageWriter<SessionRequest>,
    back: &mut BackTo,
    status: &mut StatusLine,
) {
    match plan {
        Ok(plan) => {
            back.0 = Screen::Editor;
            requests.write(SessionRequest::Start(Box::new(plan)));
        }
        Err(e) => status.error(e),
    }
}

/// The verbs both editors show at the bottom: which were clicked.
#[derive(Default)]
pub struct Verbs {
    pub undo: bool,
    pub redo: bool,
    pub save: bool,
    pub play: bool,
    pub leave: bool,
}

/// The verbs as buttons, what undo and redo have left, the status line and
/// the keys, in a panel that stays at the bottom whatever the editor holds.
pub fn bottom_bar(
    root: &mut bevy_egui::egui::Ui,
    id: &str,
    depth: (usize, usize),
    status: &StatusLine,
    keys: &str,
) -> (Verbs, bevy_egui::egui::Rect) {
    use bevy_egui::egui;
    let mut verbs = Verbs::default();
    let panel = egui::Panel::bottom(id.to_owned()).show(root, |ui| {
        ui.add_space(4.0);
        ui.horizontal(|ui| {
            verbs.undo = ui.button("Undo (Ctrl+Z)").clicked();
            verbs.redo = ui.button("Redo (Ctrl+Y)").clicked();
            verbs.save = ui.button("Save (Ctrl+S)").clicked();
            verbs.play = ui.button("Test-play (F5)").clicked();
            verbs.leave = ui.button("Menu (Esc)").clicked();
            ui.label(egui::RichText::new(edits_left(depth)).weak());
        });
        ui.label(crate::app::theme::widgets::status_text(ui, status));
        ui.label(egui::RichText::new(keys).weak());
    });
    (verbs, panel.response.rect)
}

/// What undo and redo have left, as the editors show it.
pub fn edits_left((undo, redo): (usize, usize)) -> String {
    let edits = if undo == 1 { "edit" } else { "edits" };
    format!("{undo} {edits} to undo, {redo} to redo")
}
