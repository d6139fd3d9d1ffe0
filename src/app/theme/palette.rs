//! Colours that mean the same on every screen. A game's own board colours
//! stay in its folder.

use bevy_egui::egui::Color32;

/// What is wrong, in red, everywhere in the window.
pub const ERROR_COLOR: Color32 = Color32::from_rgb(255, 110, 100);
/// What is right: a level that can be played, a file saved.
pub const OK_COLOR: Color32 = Color32::from_rgb(120, 220, 140);
/// Paused: the colour of a held clock.
pub const PAUSED_COLOR: Color32 = Color32::from_rgb(255, 200, 90);
/// The teaching overlay's words: the light of the rings around best moves.
pub const TEACH_COLOR: Color32 = Color32::from_rgb(255, 228, 140);
