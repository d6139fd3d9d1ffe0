//! The keys and mouse actions of the screen showing, from one list: the
//! screen's bottom line shows them in short, F1 (or ?) shows them whole in
//! an overlay. A screen sets its list each frame it draws its bottom line,
//! so the two can never disagree.

use bevy::input::keyboard::{Key as LogicalKey, KeyboardInput};
use bevy::input::{ButtonState, InputSystems};
use bevy::prelude::*;
use bevy_egui::input::egui_wants_any_keyboard_input;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};

/// Keys (or a mouse action) and what they do.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Key {
    pub keys: &'static str,
    pub does: &'static str,
}

/// `Key { keys, does }`, short enough for lists of them.
pub const fn key(keys: &'static str, does: &'static str) -> Key {
    Key { keys, does }
}

/// How a screen is played: a sentence on the mouse, then the keys.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Controls {
    pub mouse: &'static str,
    pub keys: Vec<Key>,
    /// Keys only the F1 list names: the bottom line has room for the
    /// ones a player needs most.
    pub more: Vec<Key>,
}

impl Controls {
    pub fn new(mouse: &'static str, keys: &[Key]) -> Controls {
        Controls { mouse, keys: keys.to_vec(), more: Vec::new() }
    }

    /// These controls, with `more` named only in the F1 list.
    pub fn also(mut self, more: &[Key]) -> Controls {
        self.more.extend_from_slice(more);
        self
    }

    /// These controls followed by `more`.
    pub fn and(mut self, more: &[Key]) -> Controls {
        self.keys.extend_from_slice(more);
        self
    }

    /// The bottom line: the mouse, then each key and what it does.
    pub fn line(&self) -> String {
        let keys: Vec<String> = self.keys.iter().map(|k| format!("{} {}", k.keys, k.does)).collect();
        let keys = format!("Keys: {} · F1 all keys", keys.join(" · "));
        if self.mouse.is_empty() { keys } else { format!("{} {keys}", self.mouse) }
    }
}

/// The controls of the screen showing, and whether the overlay lists them.
#[derive(Resource, Debug, Default)]
pub struct ScreenKeys {
    pub screen: &'static str,
    pub controls: Controls,
    pub open: bool,
}

impl ScreenKeys {
    /// The screen's controls as it draws them this frame; their line.
    pub fn show(&mut self, screen: &'static str, controls: Controls) -> String {
        let line = controls.line();
        if self.screen != screen || self.controls != controls {
            self.screen = screen;
            self.controls = controls;
        }
        line
    }
}

/// The overlay and its keys; `ScreenKeys` is the headless part's, as every
/// screen sets it.
pub fn plugin(app: &mut App) {
    app.add_systems(PreUpdate, help_keys.after(InputSystems).run_if(not(egui_wants_any_keyboard_input)))
        .add_systems(EguiPrimaryContextPass, help_overlay);
}

/// F1 or ? opens and closes the overlay; while it is open, Esc closes it
/// and no other key reaches the screen beneath.
fn help_keys(
    mut keys: ResMut<ButtonInput<KeyCode>>,
    mut typed: MessageReader<KeyboardInput>,
    mut help: ResMut<ScreenKeys>,
) {
    // ? is wherever the keyboard's layout puts it: the character counts.
    let question = typed.read().any(|k| {
        k.state == ButtonState::Pressed
            && matches!(&k.logical_key, LogicalKey::Character(c) if c.as_str() == "?")
    });
    let toggle = keys.just_pressed(KeyCode::F1) || question;
    if toggle {
        help.open = !help.open;
        keys.reset_all();
    } else if help.open {
        if keys.just_pressed(KeyCode::Escape) {
            help.open = false;
        }
        keys.reset_all();
    }
}

fn help_overlay(mut contexts: EguiContexts, mut help: ResMut<ScreenKeys>) -> Result {
    if !help.open {
        return Ok(());
    }
    let ctx = contexts.ctx_mut()?;
    let mut open = true;
    egui::Window::new(format!("Keys: {}", help.screen))
        .open(&mut open)
        .collapsible(false)
        .resizable(false)
        .anchor(egui::Align2::CENTER_CENTER, egui::Vec2::ZERO)
        .show(ctx, |ui| {
            if !help.controls.mouse.is_empty() {
                ui.label(egui::RichText::new(help.controls.mouse).size(15.0));
                ui.add_space(6.0);
            }
            egui::Grid::new("keys").num_columns(2).spacing([18.0, 5.0]).striped(true).show(ui, |ui| {
                // One row for Esc: the screen's own (the menu) is listed above.
                let closing = [key("F1 or ?", "this list (Esc closes it first)")];
                for key in help.controls.keys.iter().chain(&help.controls.more).chain(&closing) {
                    ui.label(egui::RichText::new(key.keys).strong().size(15.0));
                    ui.label(egui::RichText::new(key.does).size(15.0));
                    ui.end_row();
                }
            });
        });
    if !open {
        help.open = false;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_line_lists_the_mouse_then_every_key_and_the_help_key() {
        let controls = Controls::new("Click a stone.", &[key("Enter", "take")]).and(&[key("U", "undo")]);
        assert_eq!(controls.line(), "Click a stone. Keys: Enter take · U undo · F1 all keys");
        assert_eq!(Controls::new("", &[key("Esc", "menu")]).line(), "Keys: Esc menu · F1 all keys");
    }
}
