//! What every game's small pictures share (the menu's cards and previews,
//! the editor's form): the dark backdrop, fitting a board into a rect, and
//! the fallbacks for a game without a picture or a form of its own.

use bevy_egui::egui::{self, Color32, CornerRadius, Rect, vec2};
use tabula_engine::games::Registered;
use tabula_engine::level::{self, LevelFile};

const BACKDROP: Color32 = Color32::from_rgb(24, 28, 26);
const NAME: Color32 = Color32::from_rgb(219, 214, 199);

/// The dark ground every picture is drawn on.
pub fn backdrop(painter: &egui::Painter, rect: Rect) {
    painter.rect_filled(rect, CornerRadius::same(6), BACKDROP);
}

/// The largest rect of aspect `w:h` centred in `rect`.
pub fn fit(rect: Rect, w: f32, h: f32) -> Rect {
    let scale = (rect.width() / w).min(rect.height() / h);
    Rect::from_center_size(rect.center(), vec2(w * scale, h * scale))
}

/// A level of a game without a picture of its own: its name.
pub fn name_only(painter: &egui::Painter, rect: Rect, name: &str) {
    let size = (rect.height() * 0.2).clamp(10.0, 28.0);
    painter.text(rect.center(), egui::Align2::CENTER_CENTER, name, egui::FontId::proportional(size), NAME);
}

/// A level of a game without a form of its own, edited as its text: the
/// text is taken when it reads as a level of the game, and otherwise stays
/// as typed with the reader's complaint under it.
pub fn edit_as_text<G: Registered>(ui: &mut egui::Ui, level: &G::Level) -> Option<G::Level> {
    let id = ui.id().with("level-text");
    let written = LevelFile::new::<G>(level.clone()).layout();
    // The text being typed outlives a frame; a level changed elsewhere
    // (undo, the file on disk) replaces it.
    let (mut text, shown) = ui
        .data(|d| d.get_temp::<(String, String)>(id))
        .filter(|(_, shown)| *shown == written)
        .unwrap_or_else(|| (written.clone(), written.clone()));
    ui.label("The level as written in its file:");
    ui.add(egui::TextEdit::multiline(&mut text).code_editor().desired_width(f32::INFINITY).desired_rows(12));
    let read = level::read_unchecked(&text, "the text above");
    let changed = match &read {
        Ok(file) => file.get::<G>().cloned().filter(|l| l != level),
        Err(e) => {
            ui.colored_label(Color32::from_rgb(255, 120, 100), e.to_string());
            None
        }
    };
    if read.as_ref().is_ok_and(|f| f.get::<G>().is_none()) {
        ui.colored_label(Color32::from_rgb(255, 120, 100), format!("that is not a {} level", G::TITLE));
    }
    let next_shown = changed.as_ref().map_or(shown, |l| LevelFile::new::<G>(l.clone()).layout());
    ui.data_mut(|d| d.insert_temp(id, (text, next_shown)));
    changed
}

#[cfg(test)]
mod tests {
    use super::*;
    use tabula_engine::nim::{Ending, Nim, NimLevel};

    /// One frame of the text field with `typed` in it (as a person left
    /// it), for `level`: what the field hands back.
    fn frame(ctx: &egui::Context, level: &NimLevel, typed: Option<&str>) -> Option<NimLevel> {
        let mut changed = None;
        let mut output = ctx.run_ui(egui::RawInput::default(), |ui| {
            if let Some(typed) = typed {
                let written = LevelFile::new::<Nim>(level.clone()).layout();
                ui.data_mut(|d| d.insert_temp(ui.id().with("level-text"), (typed.to_owned(), written)));
            }
            changed = edit_as_text::<Nim>(ui, level);
        });
        output.textures_delta.clear();
        changed
    }

    #[test]
    fn a_level_edited_as_text_is_taken_when_it_reads_and_kept_as_typed_when_not() {
        let ctx = egui::Context::default();
        let level = LevelFile::new::<Nim>(NimLevel {
            name: "t".into(),
            description: String::new(),
            group: Default::default(),
            piles: vec![1, 2],
            ending: Ending::Normal,
        });
        let nim = level.get::<Nim>().unwrap().clone();
        assert_eq!(frame(&ctx, &nim, None), None, "shown as written, nothing changed");
        let typed = level.layout().replace("[1, 2]", "[1, 2, 3]");
        let changed = frame(&ctx, &nim, Some(&typed)).expect("a text that reads is taken");
        assert_eq!(changed.piles, [1, 2, 3]);
        assert_eq!(
            frame(&ctx, &nim, Some("Nim(name: \"t\", piles: [1,")),
            None,
            "a broken text changes nothing"
        );
    }
}
