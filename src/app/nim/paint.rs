//! The board's colours and labels each frame: the stones a take would
//! remove, the stones under the pointer, the cursor's row, a refused take's
//! row glowing red for a moment; pile names and counts kept readable however
//! small the board is drawn.

use bevy::camera::ScalingMode;
use bevy::prelude::*;
use tabula_engine::nim::Nim;

use super::teach::NimLesson;
use super::{
    COUNT_WIDTH, DIM_LABEL, DRAWN_STONES, LABEL_COLOR, LABEL_WIDTH, Label, Leaving, MARGIN, NimChoice,
    NimLayout, PileCount, PileRow, ROW_COLOR, ROW_CURSOR, ROW_HEIGHT, ROW_REFUSED, RefusalFlash,
    STONE_CHOSEN, STONE_COLOR, STONE_HOVER, STONE_WINNING, Stone,
};
use crate::app::board::BoardCamera;
use crate::app::frames::NextFrame;
use crate::app::session::{MoveRefused, Session};

/// Smallest on-screen label size in logical pixels.
const MIN_LABEL_PX: f32 = 15.0;
const FLASH_SECONDS: f32 = 0.6;

pub(super) fn flash_refusals(
    time: Res<Time>,
    mut refused: MessageReader<MoveRefused>,
    choice: Res<NimChoice>,
    mut flash: ResMut<RefusalFlash>,
    mut next: ResMut<NextFrame>,
) {
    flash.left = (flash.left - time.delta_secs()).max(0.0);
    if flash.left > 0.0 {
        next.ask();
    }
    if refused.read().count() > 0 {
        *flash = RefusalFlash { pile: choice.pile, left: FLASH_SECONDS };
    }
}

/// Stones to take are highlighted; the cursor's row is lit; while
/// teaching, so are the stones each winning take removes.
pub(super) fn paint_board(
    choice: Res<NimChoice>,
    session: Res<Session<Nim>>,
    lesson: Res<NimLesson>,
    mut stones: Query<(&Stone, &mut Sprite), (Without<Leaving>, Without<PileRow>)>,
    mut rows: Query<(&PileRow, &mut Sprite), Without<Stone>>,
    flash: Res<RefusalFlash>,
) {
    let human = session.human_to_move().is_some();
    let view = session.view();
    let piles = view.piles();
    let chosen = |pile: usize, count: u32| {
        let n = piles[pile];
        move |stone: &Stone| stone.pile == pile && stone.slot + count.min(n) >= n.min(DRAWN_STONES) && n > 0
    };
    // Only stones the player chose are lit as chosen: the cursor alone
    // lights its row, never stones Enter would take unasked.
    let selected = (human && choice.armed).then(|| chosen(choice.pile, choice.count));
    let hovered = choice.hover.filter(|_| human).map(|(p, c)| chosen(p, c));
    let winning: Vec<_> = lesson.winning.iter().map(|t| chosen(t.pile as usize, t.count)).collect();
    for (stone, mut sprite) in &mut stones {
        sprite.color = if selected.as_ref().is_some_and(|f| f(stone)) {
            STONE_CHOSEN
        } else if hovered.as_ref().is_some_and(|f| f(stone)) {
            STONE_HOVER
        } else if winning.iter().any(|f| f(stone)) {
            STONE_WINNING
        } else {
            STONE_COLOR
        };
    }
    for (row, mut sprite) in &mut rows {
        let base = if human && row.0 == choice.pile { ROW_CURSOR } else { ROW_COLOR };
        sprite.color = if flash.left > 0.0 && row.0 == flash.pile {
            base.mix(&ROW_REFUSED, flash.left / FLASH_SECONDS)
        } else {
            base
        };
    }
}

/// Labels get larger in world units as the board is drawn smaller, so they
/// stay readable on screen, up to what their row has room for. Labels that
/// then outgrow their margin widen the view so nothing is cut off.
pub(super) fn fit_labels(
    mut cameras: Query<(&Camera, &mut Projection), With<BoardCamera>>,
    mut labels: Query<(&Label, &Text2d, &mut TextFont, &mut TextColor, Option<&PileCount>)>,
    session: Res<Session<Nim>>,
    layout: Res<NimLayout>,
) {
    let Ok((camera, mut projection)) = cameras.single_mut() else { return };
    let Projection::Orthographic(ortho) = &mut *projection else { return };
    let Some(viewport) = camera.logical_viewport_size() else { return };
    let px_per_unit = viewport.x / ortho.area.width().max(1.0);
    let view = session.view();
    let piles = view.piles();
    let mut overflow: f32 = 0.0;
    for (label, text, mut font, mut color, count) in &mut labels {
        let size = label.world_size.max(MIN_LABEL_PX / px_per_unit).min(ROW_HEIGHT * 0.8);
        if font.font_size != size.into() {
            font.font_size = size.into();
        }
        let room = if count.is_some() { COUNT_WIDTH - 14.0 } else { LABEL_WIDTH - 16.0 };
        overflow = overflow.max(label_width(&text.0, size) - room);
        if let Some(count) = count {
            let empty = piles[count.0] == 0;
            color.0 = if empty { DIM_LABEL } else { LABEL_COLOR };
        }
    }
    let wanted = layout.width + 2.0 * (MARGIN + overflow.max(0.0));
    if let ScalingMode::AutoMin { min_width, .. } = &mut ortho.scaling_mode
        && (*min_width - wanted).abs() > 1.0
    {
        *min_width = wanted;
    }
}

/// Width of a board label: the default font is monospaced, about 0.6 em a
/// character.
fn label_width(text: &str, size: f32) -> f32 {
    text.chars().count() as f32 * 0.6 * size
}
