//! The form editor's tests: a pile dragged on the picture, and a form edit
//! checked, undone, saved and test-played.

use super::*;
use crate::app::editor::open;
use crate::app::game::{GameCard, WindowCatalog};
use crate::app::nim::picture;
use tabula_engine::mancala::Mancala;
use tabula_engine::nim::Nim;

/// The window's catalog of the games this test edits.
fn catalog() -> WindowCatalog {
    WindowCatalog(vec![GameCard::of::<Nim>(), GameCard::of::<Mancala>()])
}

#[test]
fn a_piles_count_follows_a_drag_along_its_row_and_the_drag_is_undone_as_one_edit() {
    let level = level::read_unchecked("Nim(name: \"t\", piles: [5, 6, 7], ending: Misere)", "t.ron").unwrap();
    let mut editing = FormEditing::new("t.ron".into(), level, String::new(), Vec::new());
    let ctx = egui::Context::default();
    // One frame as the form runs it: the button followed, then the
    // picture; where the picture was drawn.
    let frame = |editing: &mut FormEditing, events: Vec<egui::Event>| {
        let mut drawn = egui::Rect::NOTHING;
        let input = egui::RawInput {
            screen_rect: Some(egui::Rect::from_min_size(egui::Pos2::ZERO, egui::vec2(800.0, 600.0))),
            events,
            ..Default::default()
        };
        let mut output = ctx.run_ui(input, |ui| {
            editing.hold(ui.ctx().input(|i| i.pointer.any_down()));
            drawn = egui::Rect::from_min_size(ui.cursor().min, egui::vec2(ui.available_width(), 280.0));
            let card = GameCard::of::<Nim>();
            if let Some(level) = card.edit_on_picture(ui, editing.level(), &mut None) {
                editing.edit(level);
            }
        });
        // Nothing draws here: the textures egui would upload are let go.
        output.textures_delta.clear();
        drawn
    };
    let button = |pos, pressed| egui::Event::PointerButton {
        pos,
        button: egui::PointerButton::Primary,
        pressed,
        modifiers: egui::Modifiers::NONE,
    };
    let drawn = frame(&mut editing, vec![]);
    let (area, cell) = picture::layout(drawn, 3, picture::SHOWN);
    let stone =
        |row: usize, s: usize| area.min + egui::vec2(cell * (0.5 + s as f32), cell * (0.5 + row as f32));
    let piles = |editing: &FormEditing| editing.level().get::<Nim>().unwrap().piles.clone();
    // Press on the second pile's second stone, drag to its ninth, let go.
    frame(&mut editing, vec![egui::Event::PointerMoved(stone(1, 1)), button(stone(1, 1), true)]);
    assert_eq!(piles(&editing), vec![5, 2, 7], "the pile ends under the pointer");
    for s in 2..=8 {
        frame(&mut editing, vec![egui::Event::PointerMoved(stone(1, s))]);
    }
    frame(&mut editing, vec![button(stone(1, 8), false)]);
    frame(&mut editing, vec![]);
    assert_eq!(piles(&editing), vec![5, 9, 7]);
    assert_eq!(editing.history.depth(), (1, 0), "one drag, one edit");
    editing.undo();
    assert_eq!(piles(&editing), vec![5, 6, 7]);
    editing.redo();
    assert_eq!(piles(&editing), vec![5, 9, 7]);
    // Dragged out past the first stone, the pile is empty, even when
    // the drag strays onto another row; below the rows is no pile.
    let (first, out) = (stone(0, 0), stone(1, 0) - egui::vec2(2.0 * cell, 0.0));
    frame(&mut editing, vec![egui::Event::PointerMoved(first), button(first, true)]);
    assert_eq!(piles(&editing), vec![1, 9, 7]);
    frame(&mut editing, vec![egui::Event::PointerMoved(out)]);
    frame(&mut editing, vec![button(out, false)]);
    let below = stone(2, 3) + egui::vec2(0.0, 2.0 * cell);
    frame(&mut editing, vec![egui::Event::PointerMoved(below), button(below, true)]);
    frame(&mut editing, vec![button(below, false)]);
    assert_eq!(piles(&editing), vec![0, 9, 7]);
    assert_eq!(editing.history.depth(), (2, 0));
}

#[test]
fn a_form_edit_is_checked_undone_saved_in_the_layout_and_test_played() {
    let dir = std::env::temp_dir().join(format!("tabula-form-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let shipped = crate::app::levels::library::levels_root().join("mancala/kalah-6-4.ron");
    let path = dir.join("kalah.ron");
    std::fs::copy(&shipped, &path).unwrap();
    let mut editing = FormEditing::open(open(&path, &catalog()).unwrap());
    let mut kalah = editing.level().get::<Mancala>().unwrap().clone();
    kalah.stones = 0;
    editing.edit(LevelFile::new::<Mancala>(kalah.clone()));
    assert!(
        editing.problem.as_deref().is_some_and(|p| p.contains("at least one stone")),
        "{:?}",
        editing.problem
    );
    assert!(editing.test_plan(&Settings::default()).is_err(), "not played while a rule is broken");
    kalah.stones = 5;
    editing.edit(LevelFile::new::<Mancala>(kalah));
    assert!(editing.problem.is_none());
    editing.save().unwrap();
    let saved = std::fs::read_to_string(&path).unwrap();
    assert!(saved.contains("    stones: 5,\n"), "{saved}");
    assert_eq!(format::format(&saved, "kalah.ron").unwrap().text, saved, "in the fmt layout");
    assert_eq!(editing.test_plan(&Settings::default()).unwrap().seats.len(), 2);
    editing.undo();
    editing.undo();
    editing.save().unwrap();
    assert_eq!(std::fs::read(&path).unwrap(), std::fs::read(&shipped).unwrap(), "unedited: byte for byte");
    let new = dir.join("nim").join("new.ron");
    assert!(open(&new, &catalog()).is_ok_and(|o| o.level.get::<Nim>().is_some()), "a new Nim level");
    let elsewhere = dir.join("new.ron");
    let refused = open(&elsewhere, &catalog()).err().unwrap();
    assert!(refused.contains("nim, mancala"), "a new level is made in a game's folder: {refused}");
}
