//! Each seat's colour, on the board, in the panels and in words: apart
//! from the boards, so that the session can say whose colour is whose.

use bevy::prelude::*;

/// One colour a seat, eight seats: the Okabe-Ito palette, which people with
/// any common colour-vision deficiency can tell apart, with its blue lifted
/// and its black made a light grey so both read on the dark table.
pub const SEAT_RGB: [[u8; 3]; 8] = [
    [86, 180, 233],  // sky blue
    [230, 159, 0],   // orange
    [0, 158, 115],   // bluish green
    [240, 228, 66],  // yellow
    [213, 94, 0],    // vermilion
    [204, 121, 167], // reddish purple
    [70, 140, 220],  // blue
    [225, 225, 225], // light grey
];

/// The colours of `SEAT_RGB` in words, for a line that says whose is which.
const SEAT_COLOR_NAMES: [&str; 8] =
    ["sky blue", "orange", "green", "yellow", "vermilion", "purple", "blue", "grey"];

pub fn seat_color_name(i: usize) -> &'static str {
    SEAT_COLOR_NAMES[i % SEAT_COLOR_NAMES.len()]
}

/// Seat `i`'s colour on the board.
pub fn seat_color(i: usize) -> Color {
    let [r, g, b] = SEAT_RGB[i % SEAT_RGB.len()];
    Color::srgb_u8(r, g, b)
}

/// Seat `i`'s colour in the panels.
pub fn seat_color32(i: usize) -> bevy_egui::egui::Color32 {
    let [r, g, b] = SEAT_RGB[i % SEAT_RGB.len()];
    bevy_egui::egui::Color32::from_rgb(r, g, b)
}
