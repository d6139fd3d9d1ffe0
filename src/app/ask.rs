//! Questions asked before what a player would regret: leaving a game that
//! is under way, leaving the editor with edits not saved, quitting tabula.
//! Enter (or Y) answers yes, Esc (or N) no (the editor's D leaves without
//! saving); while a question is open no other key reaches the screen
//! beneath.

use bevy::ecs::system::SystemParam;
use bevy::input::InputSystems;
use bevy::prelude::*;
use bevy::window::WindowCloseRequested;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};

use super::session::{GameInProgress, SessionKind, SessionRequest};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Question {
    /// Back to the menu from a game under way.
    LeaveGame,
    /// The replays to choose from, which end a game under way.
    OpenReplay,
    /// Resigning the game at a server's table.
    Resign,
    /// Back to the menu from the editor with edits not saved: save them,
    /// leave them, or stay.
    LeaveEditor,
    Quit,
}

/// The editor is to be left, its edits saved first or not (a leave asked
/// and answered).
#[derive(Message, Clone, Copy, Debug, PartialEq, Eq)]
pub struct LeaveEditor {
    pub save: bool,
}

/// The replay browser is to open (asked first over a game under way).
#[derive(Message, Clone, Copy, Debug)]
pub struct OpenReplays;

/// The question open, if any.
#[derive(Resource, Debug, Default)]
pub struct Asking(pub Option<Question>);

impl Asking {
    /// Back to the menu, asking first when that would end a game under way.
    pub fn leave_game(&mut self, in_progress: &GameInProgress, requests: &mut MessageWriter<SessionRequest>) {
        if in_progress.0 {
            self.0 = Some(Question::LeaveGame);
        } else {
            requests.write(SessionRequest::BackToMenu);
        }
    }

    /// Out of the editor, asking first when edits are not saved.
    pub fn leave_editor(&mut self, unsaved: bool, leave: &mut MessageWriter<LeaveEditor>) {
        if unsaved {
            self.0 = Some(Question::LeaveEditor);
        } else {
            leave.write(LeaveEditor { save: false });
        }
    }

    /// The replays to choose from, asking first when opening one would end
    /// a game under way.
    pub fn open_replays(&mut self, in_progress: &GameInProgress, open: &mut MessageWriter<OpenReplays>) {
        if in_progress.0 {
            self.0 = Some(Question::OpenReplay);
        } else {
            open.write(OpenReplays);
        }
    }
}

pub fn plugin(app: &mut App) {
    // Headless apps have no window plugin to add the message.
    app.add_message::<WindowCloseRequested>()
        .add_message::<OpenReplays>()
        .add_message::<LeaveEditor>()
        .add_systems(PreUpdate, answer_by_key.after(InputSystems))
        .add_systems(Update, ask_before_closing)
        .add_systems(EguiPrimaryContextPass, ask);
}

/// Where the answers go.
#[derive(SystemParam)]
struct Answers<'w> {
    requests: MessageWriter<'w, SessionRequest>,
    exit: MessageWriter<'w, AppExit>,
    open: MessageWriter<'w, OpenReplays>,
    editor: MessageWriter<'w, LeaveEditor>,
}

fn answer_by_key(mut keys: ResMut<ButtonInput<KeyCode>>, mut asking: ResMut<Asking>, mut answers: Answers) {
    let Some(question) = asking.0 else { return };
    let pressed = |k: KeyCode| keys.just_pressed(k);
    if pressed(KeyCode::Enter) || pressed(KeyCode::NumpadEnter) || pressed(KeyCode::KeyY) {
        asking.0 = None;
        answer_yes(question, &mut answers);
    } else if question == Question::LeaveEditor && pressed(KeyCode::KeyD) {
        asking.0 = None;
        answers.editor.write(LeaveEditor { save: false });
    } else if pressed(KeyCode::Escape) || pressed(KeyCode::KeyN) {
        asking.0 = None;
    }
    keys.reset_all();
}

fn answer_yes(question: Question, answers: &mut Answers) {
    let Answers { requests, exit, open, editor } = answers;
    match question {
        Question::LeaveGame => {
            requests.write(SessionRequest::BackToMenu);
        }
        Question::OpenReplay => {
            open.write(OpenReplays);
        }
        Question::Resign => {
            requests.write(SessionRequest::Resign);
        }
        Question::LeaveEditor => {
            editor.write(LeaveEditor { save: true });
        }
        Question::Quit => {
            exit.write(AppExit::Success);
        }
    }
}

/// The window's close button: at once, unless a game is under way.
fn ask_before_closing(
    mut closes: MessageReader<WindowCloseRequested>,
    in_progress: Res<GameInProgress>,
    mut asking: ResMut<Asking>,
    mut exit: MessageWriter<AppExit>,
) {
    if closes.read().count() == 0 {
        return;
    }
    if in_progress.0 {
        asking.0 = Some(Question::Quit);
    } else {
        exit.write(AppExit::Success);
    }
}

/// A question and its yes, in words. A game played elsewhere goes on
/// without this window: leaving loses nothing.
fn words(question: Question, in_progress: bool, here: bool) -> (&'static str, &'static str) {
    match question {
        Question::LeaveGame if !here => (
            "Leave the table? The game goes on at the server: come back to your seat from the menu's Games in progress.",
            "Leave (Enter)",
        ),
        Question::LeaveGame => (
            "Leave this game? It is not over, and its moves are lost unless you save a replay first (Ctrl+S).",
            "Leave (Enter)",
        ),
        Question::OpenReplay => (
            "Open a replay? This game is not over, and its moves are lost unless you save a replay first (Ctrl+S).",
            "Choose a replay (Enter)",
        ),
        Question::Resign => {
            ("Resign this game? The others win it, and it cannot be taken back.", "Resign (Enter)")
        }
        Question::LeaveEditor => {
            ("Leave the editor? This level has edits that are not saved.", "Save and leave (Enter)")
        }
        Question::Quit if !here && in_progress => (
            "Quit tabula? The game goes on at the server: come back to your seat from the menu.",
            "Quit (Enter)",
        ),
        Question::Quit if in_progress => ("Quit tabula? The game under way is lost.", "Quit (Enter)"),
        Question::Quit => ("Quit tabula?", "Quit (Enter)"),
    }
}

fn ask(
    mut contexts: EguiContexts,
    mut asking: ResMut<Asking>,
    in_progress: Res<GameInProgress>,
    mut answers: Answers,
    kind: Res<SessionKind>,
) -> Result {
    let Some(question) = asking.0 else { return Ok(()) };
    let (text, yes) = words(question, in_progress.0, kind.plays_here());
    let ctx = contexts.ctx_mut()?;
    let mut answer = None;
    egui::Modal::new(egui::Id::new("ask")).show(ctx, |ui| {
        ui.set_max_width(380.0);
        ui.label(egui::RichText::new(text).size(16.0));
        ui.add_space(8.0);
        ui.horizontal(|ui| {
            if ui.button(egui::RichText::new(yes).size(16.0)).clicked() {
                answer = Some(Answer::Yes);
            }
            if question == Question::LeaveEditor
                && ui.button(egui::RichText::new("Leave without saving (D)").size(16.0)).clicked()
            {
                answer = Some(Answer::Discard);
            }
            if ui.button(egui::RichText::new("Stay (Esc)").size(16.0)).clicked() {
                answer = Some(Answer::Stay);
            }
        });
    });
    if let Some(answer) = answer {
        asking.0 = None;
        match answer {
            Answer::Yes => answer_yes(question, &mut answers),
            Answer::Discard => {
                answers.editor.write(LeaveEditor { save: false });
            }
            Answer::Stay => {}
        }
    }
    Ok(())
}

/// A button of the question.
enum Answer {
    Yes,
    /// The editor's third answer: leave, the edits not saved.
    Discard,
    Stay,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn leaving_a_servers_table_says_the_game_goes_on_there() {
        let (here, _) = words(Question::LeaveGame, true, true);
        assert!(here.contains("moves are lost"), "{here}");
        let (online, _) = words(Question::LeaveGame, true, false);
        assert!(online.contains("goes on at the server") && !online.contains("lost"), "{online}");
        let (quit, _) = words(Question::Quit, true, false);
        assert!(!quit.contains("lost"), "{quit}");
    }
}
