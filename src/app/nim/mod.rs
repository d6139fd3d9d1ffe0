//! The Nim board: each pile a row of stones, each stone an entity. A player
//! picks a stone with the mouse (it and every stone to its right are taken)
//! or with the keyboard, then confirms; the taken stones lift and fade away.

use bevy::camera::ScalingMode;
use bevy::prelude::*;
use bevy::sprite::Anchor;
use tabula_engine::nim::{Ending, Nim, NimLevel, NimStep, Take};
use tabula_engine::{Game, Outcome};

use crate::app::BoardCamera;
use crate::app::board::{
    BoardPointer, StoneTexture, clear_on_reset, count_busy, digits_pressed, fit_view, keys_free, playing,
    pointer_free,
};
use crate::app::frames::NextFrame;
use crate::app::game::{ActiveGame, WindowGame, name_of};
use crate::app::registry;
use crate::app::session::{
    BoardReset, MoveApplied, MovePreview, MoveRefused, RequestMove, Session, SessionSet,
};
use crate::app::settings::Settings;

const STONE: f32 = 40.0;
const MAX_SPACING: f32 = 48.0;
/// Widest row of stones, in world units, before stones overlap.
const ROW_WIDTH: f32 = 1500.0;
const ROW_HEIGHT: f32 = 64.0;
const LABEL_WIDTH: f32 = 170.0;
const COUNT_WIDTH: f32 = 110.0;
const MARGIN: f32 = 40.0;
/// Rows show at most this many stones; larger piles show their count.
pub const DRAWN_STONES: u32 = 60;
/// Smallest on-screen label size in logical pixels.
const MIN_LABEL_PX: f32 = 15.0;
const LEAVE_SECONDS: f32 = 0.5;

const ROW_COLOR: Color = Color::srgb(0.17, 0.20, 0.18);
const ROW_CURSOR: Color = Color::srgb(0.24, 0.30, 0.26);
const ROW_REFUSED: Color = Color::srgb(0.55, 0.16, 0.14);
const FLASH_SECONDS: f32 = 0.6;
const STONE_COLOR: Color = Color::srgb(0.86, 0.84, 0.78);
const STONE_HOVER: Color = Color::srgb(1.0, 0.93, 0.62);
const STONE_CHOSEN: Color = Color::srgb(0.95, 0.45, 0.30);
const LABEL_COLOR: Color = Color::srgb(0.85, 0.88, 0.85);
const DIM_LABEL: Color = Color::srgb(0.55, 0.6, 0.57);

#[derive(Component, Debug, Clone, Copy, PartialEq, Eq)]
pub struct Stone {
    pub pile: usize,
    /// Position in the row from the left; taking removes from the right.
    pub slot: u32,
}

#[derive(Component, Debug)]
struct PileRow(usize);

#[derive(Component, Debug)]
struct PileCount(usize);

/// A board label whose font keeps a readable size on screen.
#[derive(Component, Debug)]
struct Label {
    /// Size in world units at which it fills its space.
    world_size: f32,
}

/// A stone being taken: it rises and fades, then is despawned.
#[derive(Component, Debug)]
struct Leaving {
    timer: Timer,
    from: Vec3,
}

/// The pile and count the player is choosing.
#[derive(Resource, Debug, Default, Clone, PartialEq)]
pub struct NimChoice {
    pub pile: usize,
    pub count: u32,
    /// The choice came from a click (shown as chosen) or is only the cursor.
    pub armed: bool,
    /// Digits typed for the count, and when the last one was.
    typed: String,
    typed_at: f64,
    hover: Option<(usize, u32)>,
}

/// The row of a refused take glows red for a moment.
#[derive(Resource, Debug, Default)]
struct RefusalFlash {
    pile: usize,
    left: f32,
}

/// Board geometry of the current level.
#[derive(Resource, Debug, Default, Clone)]
pub struct NimLayout {
    pub spacing: f32,
    pub piles: usize,
    pub width: f32,
    pub height: f32,
}

impl NimLayout {
    fn new(piles: &[u32]) -> NimLayout {
        let widest = piles.iter().map(|&n| n.min(DRAWN_STONES)).max().unwrap_or(1).max(1);
        let spacing = (ROW_WIDTH / widest as f32).min(MAX_SPACING);
        let width = LABEL_WIDTH + spacing * widest as f32 + COUNT_WIDTH;
        let height = ROW_HEIGHT * piles.len() as f32;
        NimLayout { spacing, piles: piles.len(), width, height }
    }

    fn row_y(&self, pile: usize) -> f32 {
        self.height / 2.0 - ROW_HEIGHT * (pile as f32 + 0.5)
    }

    fn left(&self) -> f32 {
        -self.width / 2.0
    }

    pub fn stone_position(&self, pile: usize, slot: u32) -> Vec2 {
        Vec2::new(self.left() + LABEL_WIDTH + self.spacing * (slot as f32 + 0.5), self.row_y(pile))
    }

    /// The stone under a world point, as (pile, slot).
    pub fn stone_at(&self, point: Vec2, piles: &[u32]) -> Option<(usize, u32)> {
        let row = ((self.height / 2.0 - point.y) / ROW_HEIGHT).floor();
        if row < 0.0 || row >= self.piles as f32 {
            return None;
        }
        let pile = row as usize;
        let x = point.x - self.left() - LABEL_WIDTH;
        let drawn = piles[pile].min(DRAWN_STONES);
        let slot = (x / self.spacing).floor();
        (slot >= 0.0 && (slot as u32) < drawn).then_some((pile, slot as u32))
    }
}

/// Nim in the window: its session, board, mouse and keys.
pub fn plugin(app: &mut App) {
    registry::register::<Nim>(app);
    app.init_resource::<NimChoice>()
        .init_resource::<NimLayout>()
        .init_resource::<RefusalFlash>()
        .add_systems(
            Update,
            (
                rebuild_board,
                take_stones,
                flash_refusals,
                (lift_stones, paint_board, fit_labels, count_busy::<Leaving>, describe_choice),
            )
                .chain()
                .in_set(SessionSet::View)
                .run_if(playing::<Nim>),
        )
        .add_systems(
            Update,
            (point_at_stones.run_if(pointer_free), choose_with_keys.run_if(keys_free))
                .in_set(SessionSet::Requests)
                .run_if(playing::<Nim>),
        );
}

impl WindowGame for Nim {
    const CONTROLS: &'static str = "Click a stone to choose it and every stone to its right; click again or press Enter to take. \
        Keys: Up/Down pile · Left/Right or digits count · Enter take";

    fn rules_text(level: &NimLevel) -> String {
        level.ending.describe().to_owned()
    }

    fn outcome_text(board: &Nim, names: &[String]) -> String {
        let Some(Outcome::Win(winner)) = board.outcome() else { return "A draw".into() };
        let loser = winner.next(2);
        match board.ending() {
            Ending::Misere => {
                format!(
                    "{} wins: {} took the last stone (misère)",
                    name_of(names, winner),
                    name_of(names, loser)
                )
            }
            Ending::Normal => {
                format!("{} wins by taking the last stone (normal play)", name_of(names, winner))
            }
        }
    }
}

type BoardEntities = Or<(With<Stone>, With<PileRow>, With<PileCount>, With<Label>)>;

/// Spawns the board anew from the engine state.
fn rebuild_board(
    mut commands: Commands,
    mut resets: MessageReader<BoardReset>,
    session: Res<Session<Nim>>,
    old: Query<Entity, BoardEntities>,
    texture: Option<Res<StoneTexture>>,
    mut layout: ResMut<NimLayout>,
    mut choice: ResMut<NimChoice>,
    mut cameras: Query<&mut Projection, With<BoardCamera>>,
) {
    if !clear_on_reset(&mut commands, &mut resets, &old) {
        return;
    }
    let view = session.view();
    let piles = view.piles();
    *layout = NimLayout::new(piles);
    fit_view(&mut cameras, Vec2::new(layout.width, layout.height) + 2.0 * MARGIN);
    let image = texture.map(|t| t.0.clone()).unwrap_or_default();
    for (pile, &n) in piles.iter().enumerate() {
        let y = layout.row_y(pile);
        commands.spawn((
            PileRow(pile),
            Sprite::from_color(ROW_COLOR, Vec2::new(layout.width, ROW_HEIGHT - 8.0)),
            Transform::from_xyz(0.0, y, 0.0),
            DespawnOnExit(ActiveGame::of::<Nim>()),
        ));
        commands.spawn((
            Label { world_size: 26.0 },
            Text2d::new(format!("Pile {}", pile + 1)),
            TextFont::from_font_size(26.0),
            TextColor(LABEL_COLOR),
            // Right-aligned so a label enlarged for small boards grows away
            // from the stones.
            Anchor::CENTER_RIGHT,
            Transform::from_xyz(layout.left() + LABEL_WIDTH - 16.0, y, 1.0),
            DespawnOnExit(ActiveGame::of::<Nim>()),
        ));
        commands.spawn((
            PileCount(pile),
            Label { world_size: 30.0 },
            Text2d::new(n.to_string()),
            TextFont::from_font_size(30.0),
            TextColor(LABEL_COLOR),
            Anchor::CENTER_RIGHT,
            Transform::from_xyz(layout.width / 2.0 - 14.0, y, 1.0),
            DespawnOnExit(ActiveGame::of::<Nim>()),
        ));
        for slot in 0..n.min(DRAWN_STONES) {
            let pos = layout.stone_position(pile, slot);
            commands.spawn((
                Stone { pile, slot },
                Sprite {
                    image: image.clone(),
                    color: STONE_COLOR,
                    custom_size: Some(Vec2::splat(STONE.min(layout.spacing * 0.92).max(14.0))),
                    ..default()
                },
                Transform::from_xyz(pos.x, pos.y, 2.0),
                DespawnOnExit(ActiveGame::of::<Nim>()),
            ));
        }
    }
    choice.pile = choice.pile.min(piles.len() - 1);
    choice.armed = false;
    choice.count = choice.count.clamp(1, piles[choice.pile].max(1));
}

/// Taken stones start leaving; the count label follows the engine.
fn take_stones(
    mut commands: Commands,
    mut applied: MessageReader<MoveApplied<Nim>>,
    stones: Query<(Entity, &Stone, &Transform), Without<Leaving>>,
    mut counts: Query<(&PileCount, &mut Text2d)>,
    settings: Res<Settings>,
    mut choice: ResMut<NimChoice>,
    session: Res<Session<Nim>>,
) {
    let taken = applied.read().flat_map(|m| m.steps.iter()).filter_map(|step| match *step {
        NimStep::Took { pile, count, left, .. } => Some((pile as usize, count, left)),
        _ => None,
    });
    for (pile, count, left) in taken.collect::<Vec<_>>() {
        let before = left + count;
        // Drawn slots beyond what is left go; piles larger than the rows
        // show lose only their count until they fit.
        let (keep, had) = (left.min(DRAWN_STONES), before.min(DRAWN_STONES));
        for (entity, stone, transform) in &stones {
            if stone.pile == pile && (keep..had).contains(&stone.slot) {
                let seconds = LEAVE_SECONDS / settings.animation_speed;
                commands.entity(entity).insert(Leaving {
                    timer: Timer::from_seconds(seconds, TimerMode::Once),
                    from: transform.translation,
                });
            }
        }
        for (label, mut text) in &mut counts {
            if label.0 == pile {
                text.0 = left.to_string();
            }
        }
        choice.armed = false;
        choice.typed.clear();
        let view = session.view();
        let piles = view.piles();
        if piles[choice.pile] == 0 {
            // Move the cursor to the nearest pile that still has stones.
            if let Some(next) =
                (0..piles.len()).filter(|&p| piles[p] > 0).min_by_key(|&p| p.abs_diff(choice.pile))
            {
                choice.pile = next;
            }
        }
        choice.count = choice.count.clamp(1, piles[choice.pile].max(1));
    }
}

fn flash_refusals(
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

/// Says in words what Enter would do.
fn describe_choice(session: Res<Session<Nim>>, choice: Res<NimChoice>, mut preview: ResMut<MovePreview>) {
    let text = match session.human_to_move() {
        Some(_) if choice.armed => {
            format!(
                "Chosen: {}. Press Enter or click again to take.",
                Take { pile: choice.pile as u32, count: choice.count }
            )
        }
        Some(_) => "Choose stones: click one (it and all to its right), or use the arrow keys.".to_owned(),
        None => String::new(),
    };
    if preview.0 != text {
        preview.0 = text;
    }
}

fn lift_stones(
    mut commands: Commands,
    time: Res<Time>,
    mut stones: Query<(Entity, &mut Leaving, &mut Transform, &mut Sprite)>,
) {
    for (entity, mut leaving, mut transform, mut sprite) in &mut stones {
        leaving.timer.tick(time.delta());
        let t = leaving.timer.fraction();
        let ease = 1.0 - (1.0 - t) * (1.0 - t);
        transform.translation = leaving.from + Vec3::new(0.0, 90.0 * ease, 1.0);
        transform.scale = Vec3::splat(1.0 + 0.25 * ease);
        sprite.color = STONE_CHOSEN.with_alpha(1.0 - t);
        if leaving.timer.is_finished() {
            commands.entity(entity).despawn();
        }
    }
}

/// Stones to take are highlighted; the cursor's row is lit.
fn paint_board(
    choice: Res<NimChoice>,
    session: Res<Session<Nim>>,
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
    let selected = human.then(|| chosen(choice.pile, choice.count));
    let hovered = choice.hover.filter(|_| human).map(|(p, c)| chosen(p, c));
    for (stone, mut sprite) in &mut stones {
        sprite.color = if selected.as_ref().is_some_and(|f| f(stone)) && (choice.armed || hovered.is_none()) {
            STONE_CHOSEN
        } else if hovered.as_ref().is_some_and(|f| f(stone)) {
            STONE_HOVER
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
fn fit_labels(
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

/// Hover shows what a click would take; a click chooses; a second click on
/// the same choice confirms.
fn point_at_stones(
    pointer: BoardPointer,
    mouse: Res<ButtonInput<MouseButton>>,
    session: Res<Session<Nim>>,
    layout: Res<NimLayout>,
    mut choice: ResMut<NimChoice>,
    mut requests: MessageWriter<RequestMove<Nim>>,
) {
    let point = pointer.world();
    let view = session.view();
    let piles = view.piles();
    let hover = point.and_then(|p| layout.stone_at(p, piles)).map(|(pile, slot)| {
        let n = piles[pile];
        (pile, n.min(DRAWN_STONES) - slot)
    });
    if choice.hover != hover {
        choice.hover = hover;
    }
    if !mouse.just_pressed(MouseButton::Left) {
        return;
    }
    let Some((pile, count)) = hover else { return };
    let Some(by) = session.requester() else { return };
    if choice.armed && choice.pile == pile && choice.count == count {
        requests.write(RequestMove { by, mv: Take { pile: pile as u32, count } });
    } else {
        *choice = NimChoice { pile, count, armed: true, hover, ..default() };
    }
}

/// Up and down choose the pile, left and right the count, digits type a
/// count, Enter takes.
fn choose_with_keys(
    keys: Res<ButtonInput<KeyCode>>,
    time: Res<Time>,
    session: Res<Session<Nim>>,
    mut choice: ResMut<NimChoice>,
    mut requests: MessageWriter<RequestMove<Nim>>,
) {
    let view = session.view();
    let piles = view.piles();
    let n = piles.len();
    let mut moved = false;
    if keys.just_pressed(KeyCode::ArrowUp) || keys.just_pressed(KeyCode::KeyW) {
        choice.pile = (choice.pile + n - 1) % n;
        moved = true;
    }
    if keys.just_pressed(KeyCode::ArrowDown) || keys.just_pressed(KeyCode::KeyS) {
        choice.pile = (choice.pile + 1) % n;
        moved = true;
    }
    if moved {
        choice.count = choice.count.clamp(1, piles[choice.pile].max(1));
        choice.armed = true;
        choice.typed.clear();
    }
    if keys.just_pressed(KeyCode::ArrowRight) || keys.just_pressed(KeyCode::KeyD) {
        choice.count = (choice.count + 1).min(piles[choice.pile].max(1));
        choice.armed = true;
    }
    if keys.just_pressed(KeyCode::ArrowLeft) || keys.just_pressed(KeyCode::KeyA) {
        choice.count = choice.count.saturating_sub(1).max(1);
        choice.armed = true;
    }
    let now = time.elapsed_secs_f64();
    for digit in digits_pressed(&keys) {
        if now - choice.typed_at > 1.2 || choice.typed.len() >= 7 {
            choice.typed.clear();
        }
        choice.typed.push(char::from(b'0' + digit));
        choice.typed_at = now;
        // Typed counts are not clamped: the engine says what is wrong.
        choice.count = choice.typed.parse().unwrap_or(0);
        choice.armed = true;
    }
    if keys.just_pressed(KeyCode::Enter) || keys.just_pressed(KeyCode::NumpadEnter) {
        choice.typed.clear();
        if let Some(by) = session.requester() {
            requests.write(RequestMove { by, mv: Take { pile: choice.pile as u32, count: choice.count } });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clicks_map_to_the_stone_under_them() {
        let piles = [5, 6, 7];
        let layout = NimLayout::new(&piles);
        for (pile, &n) in piles.iter().enumerate() {
            for slot in 0..n {
                let at = layout.stone_position(pile, slot);
                assert_eq!(layout.stone_at(at, &piles), Some((pile, slot)));
            }
            let past = layout.stone_position(pile, n);
            assert_eq!(layout.stone_at(past, &piles), None, "no stone past the row's end");
        }
        assert_eq!(layout.stone_at(Vec2::new(0.0, layout.height), &piles), None);
    }

    #[test]
    fn wide_rows_fit_the_board() {
        let layout = NimLayout::new(&[60, 3]);
        assert!(layout.width <= LABEL_WIDTH + ROW_WIDTH + COUNT_WIDTH + 0.01);
        let big = NimLayout::new(&[1_000_000]);
        assert_eq!(big.spacing, ROW_WIDTH / DRAWN_STONES as f32);
    }
}
