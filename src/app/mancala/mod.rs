//! The Mancala board: two rows of pits with a store at each end, every stone
//! an entity. Hovering one of your pits previews where its last stone lands
//! ("extra turn", "capture"); sowing is animated stone by stone, then the
//! capture and the final sweep.

use bevy::prelude::*;
use tabula_engine::mancala::{Mancala, MancalaLevel, MancalaStep, Sow, Sown, Transfer, rules_line};
use tabula_engine::{Game, Outcome, Player};

use crate::app::BoardCamera;
use crate::app::board::{
    BoardPointer, StoneTexture, clear_on_reset, count_busy, digits_pressed, fit_view, keys_free, playing,
    pointer_free, round_pixels, seat_color, texture,
};
use crate::app::game::{ActiveGame, WindowGame, name_of};
use crate::app::registry;
use crate::app::session::{
    BoardBusy, BoardReset, MoveApplied, MovePreview, RequestMove, Session, SessionSet,
};
use crate::app::settings::Settings;

const PIT: f32 = 112.0;
const SPACING: f32 = 132.0;
const ROW_Y: f32 = 78.0;
const STORE_SIZE: Vec2 = Vec2::new(112.0, 250.0);
const STONE: f32 = 24.0;
const MARGIN: f32 = 60.0;
/// From a row's centre: stone counts outside the board, pit names inside.
const LABEL_GAP: f32 = 94.0;
const TAG_GAP: f32 = 64.0;
const NAME_GAP: f32 = 150.0;
/// Seconds between two stones of one sowing, and for one stone's flight.
const SOW_STEP: f32 = 0.16;
const FLIGHT: f32 = 0.32;
const CELL_TEXTURE: u32 = 96;

const BOARD_COLOR: Color = Color::srgb(0.42, 0.27, 0.15);
const CELL_COLOR: Color = Color::srgb(0.85, 0.72, 0.55);
const CELL_HOVER: Color = Color::srgb(1.0, 0.9, 0.65);
const CELL_TARGET: Color = Color::srgb(0.55, 0.95, 0.6);
/// The winner's store once the last stones have landed.
pub const STORE_WINNER: Color = Color::srgb(1.0, 0.82, 0.3);
const LABEL_COLOR: Color = Color::srgb(0.95, 0.92, 0.85);
/// Glass-stone colours, picked per stone.
const STONE_COLOURS: [Color; 6] = [
    Color::srgb(0.93, 0.38, 0.33),
    Color::srgb(0.33, 0.62, 0.93),
    Color::srgb(0.98, 0.80, 0.30),
    Color::srgb(0.42, 0.80, 0.45),
    Color::srgb(0.78, 0.50, 0.92),
    Color::srgb(0.95, 0.95, 0.92),
];

/// A stone and the cell it is in (or flying to).
#[derive(Component, Debug)]
pub struct Stone {
    pub cell: usize,
}

/// A pit or store cell, by cell.
#[derive(Component, Debug)]
pub struct Cell(pub usize);

#[derive(Component, Debug)]
struct CellCount(usize);

#[derive(Component, Debug)]
struct BoardPart;

/// A stone on its way: it waits `delay`, then flies for `duration`.
#[derive(Component, Debug)]
struct Flight {
    /// The cell it leaves, where it is counted until it lifts off.
    from_cell: usize,
    from: Vec3,
    to: Vec3,
    delay: f32,
    elapsed: f32,
    duration: f32,
}

/// The pit the player points at or has chosen by key, on their own row.
#[derive(Resource, Debug, Default)]
pub struct PitChoice {
    pub pit: u8,
    pub hover: Option<u8>,
    pub keyed: bool,
}

/// Where each cell is drawn, for the current board size.
#[derive(Resource, Debug, Default, Clone)]
pub struct MancalaLayout {
    pub pits: usize,
    pub width: f32,
    pub height: f32,
}

impl MancalaLayout {
    fn new(pits: usize) -> MancalaLayout {
        let width = SPACING * pits as f32 + 2.0 * (STORE_SIZE.x + 30.0);
        MancalaLayout { pits, width, height: 2.0 * (ROW_Y + NAME_GAP + 30.0) }
    }

    /// Centre of a cell: player 1's row at the bottom left to right and their
    /// store on the right; player 2's row at the top right to left and their
    /// store on the left (counter-clockwise sowing).
    pub fn cell_position(&self, cell: usize) -> Vec2 {
        let n = self.pits;
        let x = |i: usize| SPACING * (i as f32 - (n as f32 - 1.0) / 2.0);
        let store_x = SPACING * n as f32 / 2.0 + STORE_SIZE.x / 2.0 + 10.0;
        match cell {
            c if c < n => Vec2::new(x(c), -ROW_Y),
            c if c == n => Vec2::new(store_x, 0.0),
            c if c < 2 * n + 1 => Vec2::new(x(2 * n - c), ROW_Y),
            _ => Vec2::new(-store_x, 0.0),
        }
    }

    fn is_store(&self, cell: usize) -> bool {
        cell == self.pits || cell == 2 * self.pits + 1
    }

    /// Where the `slot`-th stone of a cell sits: a sunflower spiral, stretched
    /// to fill a store, turned a different way in each cell so that pits
    /// holding the same count do not look stamped from one mould. A full
    /// spiral (`STONES_A_LAYER`) is covered by the next, shifted a little,
    /// so that a large count heaps up rather than crowding the rim.
    pub fn stone_position(&self, cell: usize, slot: usize) -> Vec2 {
        const STONES_A_LAYER: usize = 13;
        let (layer, place) = (slot / STONES_A_LAYER, slot % STONES_A_LAYER);
        let angle = place as f32 * 2.399_963 + cell as f32 * 1.9 + layer as f32 * 0.9;
        let r = 12.5 * (place as f32 + 0.35 * layer.min(1) as f32).sqrt();
        let (sx, sy) = if self.is_store(cell) { (0.85, 2.1) } else { (1.0, 1.0) };
        self.cell_position(cell) + Vec2::new(angle.cos() * r * sx, angle.sin() * r * sy)
    }

    /// The cell under a world point, if any.
    pub fn cell_at(&self, point: Vec2) -> Option<usize> {
        (0..2 * self.pits + 2).find(|&c| {
            let d = point - self.cell_position(c);
            let half = if self.is_store(c) { STORE_SIZE / 2.0 } else { Vec2::splat(PIT / 2.0) };
            d.x.abs() <= half.x && d.y.abs() <= half.y
        })
    }
}

#[derive(Resource)]
struct CellTexture(Handle<Image>);

/// Mancala in the window: its session, board, mouse and keys.
pub fn plugin(app: &mut App) {
    registry::register::<Mancala>(app);
    app.init_resource::<PitChoice>()
        .init_resource::<MancalaLayout>()
        .add_systems(Startup, make_cell_texture)
        .add_systems(
            Update,
            (rebuild_board, sow_stones, (fly_stones, count_busy::<Flight>, update_counts, preview_pit))
                .chain()
                .in_set(SessionSet::View)
                .run_if(playing::<Mancala>),
        )
        .add_systems(
            Update,
            (point_at_pits.run_if(pointer_free), choose_pit_with_keys.run_if(keys_free))
                .in_set(SessionSet::Requests)
                .run_if(playing::<Mancala>),
        );
}

impl WindowGame for Mancala {
    const CONTROLS: &'static str = "Hover one of your pits to see where its last stone lands; click to sow. Keys: Left/Right or digits pit · Enter sow";

    fn rules_text(level: &MancalaLevel) -> String {
        rules_line(level.capture, level.sweep)
    }

    fn step_note(steps: &[MancalaStep]) -> Option<String> {
        let mut notes = Vec::new();
        if steps.iter().any(|s| matches!(s, MancalaStep::TurnChanged { extra_turn: true, .. })) {
            notes.push("extra turn".to_owned());
        }
        let captured: u16 = steps
            .iter()
            .map(|s| match s {
                MancalaStep::Moved { stones, why: Transfer::Capture, .. } => *stones,
                _ => 0,
            })
            .sum();
        if captured > 0 {
            notes.push(format!("captured {captured}"));
        }
        if steps.iter().any(|s| matches!(s, MancalaStep::Moved { why: Transfer::Sweep, .. })) {
            notes.push("the rest swept to the stores".to_owned());
        }
        (!notes.is_empty()).then(|| notes.join(", "))
    }

    fn outcome_text(board: &Mancala, names: &[String]) -> String {
        let (a, b) = (board.store(Player::ONE), board.store(Player::TWO));
        match board.outcome() {
            Some(Outcome::Win(p)) => {
                let (w, l) = if p == Player::ONE { (a, b) } else { (b, a) };
                format!("{} wins, {w} stones to {l}", name_of(names, p))
            }
            Some(Outcome::Draw) if a == b => format!("A draw, {a} stones each"),
            Some(Outcome::Draw) => format!("A draw: the move cap was reached at {a} to {b}"),
            None => String::new(),
        }
    }
}

fn make_cell_texture(mut commands: Commands, images: Option<ResMut<Assets<Image>>>) {
    let Some(mut images) = images else { return };
    commands.insert_resource(CellTexture(texture(&mut images, CELL_TEXTURE, cell_pixels(CELL_TEXTURE))));
}

/// RGBA pixels of a hollow carved in wood: shadowed at the top, lit at the
/// bottom, with a soft rim.
pub fn cell_pixels(size: u32) -> Vec<u8> {
    round_pixels(size, 0.8, |_, dy, d| {
        let inner = 0.55 + 0.3 * dy - 0.25 * (1.0 - d).powi(2);
        let rim = if d > 0.86 { 0.25 * (d - 0.86) / 0.14 } else { 0.0 };
        (inner + rim).clamp(0.2, 1.0)
    })
}

fn bead_color(index: usize) -> Color {
    STONE_COLOURS[(index * 7 + index / 6) % STONE_COLOURS.len()]
}

type Parts = Or<(With<Stone>, With<Cell>, With<CellCount>, With<BoardPart>)>;

fn rebuild_board(
    mut commands: Commands,
    mut resets: MessageReader<BoardReset>,
    session: Res<Session<Mancala>>,
    old: Query<Entity, Parts>,
    stone_texture: Option<Res<StoneTexture>>,
    cell_texture: Option<Res<CellTexture>>,
    mut layout: ResMut<MancalaLayout>,
    mut cameras: Query<&mut Projection, With<BoardCamera>>,
) {
    if !clear_on_reset(&mut commands, &mut resets, &old) {
        return;
    }
    let view = session.view();
    let board = &*view;
    let n = board.pits();
    *layout = MancalaLayout::new(n);
    fit_view(&mut cameras, Vec2::new(layout.width, layout.height) + 2.0 * MARGIN);
    let stone = stone_texture.map(|t| t.0.clone()).unwrap_or_default();
    let hollow = cell_texture.map(|t| t.0.clone()).unwrap_or_default();
    commands.spawn((
        BoardPart,
        Sprite::from_color(BOARD_COLOR, Vec2::new(layout.width, STORE_SIZE.y + 50.0)),
        Transform::default(),
        DespawnOnExit(ActiveGame::of::<Mancala>()),
    ));
    let mut index = 0;
    for cell in 0..2 * n + 2 {
        let at = layout.cell_position(cell);
        let size = if layout.is_store(cell) { STORE_SIZE } else { Vec2::splat(PIT) };
        commands.spawn((
            Cell(cell),
            Sprite { image: hollow.clone(), color: CELL_COLOR, custom_size: Some(size), ..default() },
            Transform::from_xyz(at.x, at.y, 1.0),
            DespawnOnExit(ActiveGame::of::<Mancala>()),
        ));
        let label_at = if layout.is_store(cell) {
            at + Vec2::new(0.0, STORE_SIZE.y / 2.0 + 28.0)
        } else if cell < n {
            at - Vec2::new(0.0, LABEL_GAP)
        } else {
            at + Vec2::new(0.0, LABEL_GAP)
        };
        commands.spawn((
            CellCount(cell),
            Text2d::new(board.cells()[cell].to_string()),
            TextFont::from_font_size(if layout.is_store(cell) { 34.0 } else { 26.0 }),
            TextColor(LABEL_COLOR),
            Transform::from_xyz(label_at.x, label_at.y, 3.0),
            DespawnOnExit(ActiveGame::of::<Mancala>()),
        ));
        if !layout.is_store(cell) {
            let tag_at = if cell < n { at - Vec2::new(0.0, TAG_GAP) } else { at + Vec2::new(0.0, TAG_GAP) };
            commands.spawn((
                BoardPart,
                Text2d::new(board.cell_name(cell)),
                TextFont::from_font_size(15.0),
                TextColor(LABEL_COLOR.with_alpha(0.55)),
                Transform::from_xyz(tag_at.x, tag_at.y, 3.0),
                DespawnOnExit(ActiveGame::of::<Mancala>()),
            ));
        }
        for slot in 0..board.cells()[cell] as usize {
            let p = layout.stone_position(cell, slot);
            commands.spawn((
                Stone { cell },
                Sprite {
                    image: stone.clone(),
                    color: bead_color(index),
                    custom_size: Some(Vec2::splat(STONE)),
                    ..default()
                },
                Transform::from_xyz(p.x, p.y, 2.0 + slot as f32 * 0.001),
                DespawnOnExit(ActiveGame::of::<Mancala>()),
            ));
            index += 1;
        }
    }
    // Each player's name on their side of the board.
    for (player, y) in [(Player::ONE, -(ROW_Y + NAME_GAP)), (Player::TWO, ROW_Y + NAME_GAP)] {
        let store = layout.cell_position(board.store_cell(player));
        commands.spawn((
            BoardPart,
            Text2d::new(format!(
                "{} (row {})",
                session.name_of(player),
                if player == Player::ONE { 'A' } else { 'B' }
            )),
            TextFont::from_font_size(30.0),
            TextColor(seat_color(player.index())),
            Transform::from_xyz(store.x * 0.55, y, 3.0),
            DespawnOnExit(ActiveGame::of::<Mancala>()),
        ));
    }
}

/// The stones of each cell as the animation will leave them, and the flights
/// that take them there.
struct Choreography<'a> {
    layout: &'a MancalaLayout,
    speed: f32,
    in_cell: Vec<Vec<(Entity, Vec3)>>,
}

impl Choreography<'_> {
    /// Sends a stone from `from_cell` to `cell`, lifting off after `delay`.
    fn fly(
        &mut self,
        commands: &mut Commands,
        (entity, from): (Entity, Vec3),
        from_cell: usize,
        cell: usize,
        delay: f32,
    ) {
        let slot = self.in_cell[cell].len();
        let to = self.layout.stone_position(cell, slot).extend(2.0 + slot as f32 * 0.001);
        let duration = FLIGHT / self.speed;
        commands
            .entity(entity)
            .insert((Stone { cell }, Flight { from_cell, from, to, delay, elapsed: 0.0, duration }));
        self.in_cell[cell].push((entity, to));
    }
}

/// Schedules each stone's flight as the steps say: the sowing one stone
/// after another, then the capture, then the sweep, so the board ends as
/// the engine says.
fn sow_stones(
    mut commands: Commands,
    mut applied: MessageReader<MoveApplied<Mancala>>,
    stones: Query<(Entity, &Stone, &Transform)>,
    layout: Res<MancalaLayout>,
    settings: Res<Settings>,
) {
    let steps: Vec<MancalaStep> = applied.read().flat_map(|m| m.steps.iter().copied()).collect();
    if steps.is_empty() {
        return;
    }
    let speed = settings.animation_speed;
    let mut plan = Choreography { layout: &layout, speed, in_cell: vec![Vec::new(); 2 * layout.pits + 2] };
    for (entity, stone, transform) in &stones {
        plan.in_cell[stone.cell].push((entity, transform.translation));
    }
    // Steps of one kind run together; the next kind starts when they land.
    let (mut clock, mut sown, mut phase) = (0.0, 0usize, None);
    for step in steps {
        let MancalaStep::Moved { from, to, stones, why } = step else { continue };
        if phase != Some(why) {
            clock += match phase {
                Some(Transfer::Sowing) => sown as f32 * SOW_STEP / speed + FLIGHT / speed,
                Some(_) => 2.0 * FLIGHT / speed,
                None => 0.0,
            };
            (phase, sown) = (Some(why), 0);
        }
        for _ in 0..stones {
            let delay = match why {
                Transfer::Sowing => clock + sown as f32 * SOW_STEP / speed,
                _ => clock + sown as f32 * 0.03 / speed,
            };
            // The stones that were in the cell go first, before any that
            // a lap has just dropped there.
            if plan.in_cell[from as usize].is_empty() {
                break;
            }
            let stone = plan.in_cell[from as usize].remove(0);
            plan.fly(&mut commands, stone, from as usize, to as usize, delay);
            sown += 1;
        }
    }
}

fn fly_stones(
    mut commands: Commands,
    time: Res<Time>,
    mut flights: Query<(Entity, &mut Flight, &mut Transform)>,
) {
    for (entity, mut flight, mut transform) in &mut flights {
        flight.elapsed += time.delta_secs();
        let t = ((flight.elapsed - flight.delay) / flight.duration).clamp(0.0, 1.0);
        if flight.elapsed < flight.delay {
            continue;
        }
        let ease = t * t * (3.0 - 2.0 * t);
        let lift = 40.0 * (std::f32::consts::PI * t).sin();
        transform.translation = flight.from.lerp(flight.to, ease) + Vec3::new(0.0, lift, 8.0 * (1.0 - t));
        transform.scale = Vec3::splat(1.0 + 0.3 * (std::f32::consts::PI * t).sin());
        if t >= 1.0 {
            transform.translation = flight.to;
            transform.scale = Vec3::ONE;
            commands.entity(entity).remove::<Flight>();
        }
    }
}

/// Counts follow the stones: a stone counts where it rests or waits to lift
/// off, not while in the air; at rest the counts are the engine's.
fn update_counts(
    stones: Query<(&Stone, Option<&Flight>)>,
    mut labels: Query<(&CellCount, &mut Text2d)>,
    session: Res<Session<Mancala>>,
    layout: Res<MancalaLayout>,
    busy: Res<BoardBusy>,
) {
    let mut counts = vec![0u32; 2 * layout.pits + 2];
    if busy.0 == 0 {
        for (i, &c) in session.view().cells().iter().enumerate() {
            counts[i] = c as u32;
        }
    } else {
        for (stone, flight) in &stones {
            match flight {
                None => counts[stone.cell] += 1,
                Some(f) if f.elapsed < f.delay => counts[f.from_cell] += 1,
                Some(_) => {}
            }
        }
    }
    for (label, mut text) in &mut labels {
        let value = counts.get(label.0).copied().unwrap_or(0).to_string();
        if text.0 != value {
            text.0 = value;
        }
    }
}

fn chosen_pit(choice: &PitChoice) -> Option<u8> {
    choice.hover.or(choice.keyed.then_some(choice.pit))
}

/// Previews the chosen pit once a frame: its cell and the cell of its last
/// stone light up, and the top bar says where that stone lands and what it
/// does. After the end, once the stones have settled, the winner's store
/// glows.
fn preview_pit(
    session: Res<Session<Mancala>>,
    choice: Res<PitChoice>,
    busy: Res<BoardBusy>,
    mut cells: Query<(&Cell, &mut Sprite)>,
    mut shown: ResMut<MovePreview>,
) {
    let human = session.human_to_move();
    let view = session.view();
    let board = &*view;
    let chosen = human.zip(chosen_pit(&choice)).map(|(p, pit)| (p, Sow { side: p.0, pit }));
    let preview = chosen.map(|(p, sow)| (p, sow, board.preview(sow)));
    let lit = preview.as_ref().filter(|_| busy.0 == 0).and_then(|(_, sow, fx)| {
        fx.as_ref().ok().map(|fx| (board.pit_cell(sow.side, sow.pit), fx.last as usize))
    });
    let winner = board.outcome().and_then(|o| o.winner()).filter(|_| busy.0 == 0);
    let winning_store = winner.map(|p| board.store_cell(p));
    for (cell, mut sprite) in &mut cells {
        let color = match lit {
            Some((from, _)) if cell.0 == from => CELL_HOVER,
            Some((_, last)) if cell.0 == last => CELL_TARGET,
            _ if winning_store == Some(cell.0) => STORE_WINNER,
            _ => CELL_COLOR,
        };
        if sprite.color != color {
            sprite.color = color;
        }
    }
    let text = match (preview, human) {
        (Some((p, sow, Ok(fx))), _) => describe_sowing(board, p, sow, &fx),
        (Some((_, sow, Err(e))), _) => format!("{sow}: {e}"),
        (None, Some(_)) => "Point at one of your pits to see where its stones go; click to sow.".into(),
        (None, None) => String::new(),
    };
    if shown.0 != text {
        shown.0 = text;
    }
}

/// "sow pit A3: the last of 4 stones lands in your store — extra turn".
fn describe_sowing(board: &Mancala, p: Player, sow: Sow, fx: &Sown) -> String {
    let last = fx.last as usize;
    let place = if last == board.store_cell(p) {
        "your store".to_owned()
    } else if last == board.store_cell(p.next(2)) {
        "the other store".to_owned()
    } else {
        format!("pit {}", board.cell_name(last))
    };
    let mut text = format!("{sow}: the last of {} stones lands in {place}", fx.stones);
    if fx.extra_turn {
        text.push_str(" — extra turn");
    }
    if fx.captured > 0 {
        text.push_str(&format!(" — capture {} stones", fx.captured));
    }
    if fx.ended {
        text.push_str(" — ends the game");
    }
    text
}

fn point_at_pits(
    pointer: BoardPointer,
    mouse: Res<ButtonInput<MouseButton>>,
    session: Res<Session<Mancala>>,
    layout: Res<MancalaLayout>,
    mut choice: ResMut<PitChoice>,
    mut requests: MessageWriter<RequestMove<Mancala>>,
) {
    let view = session.view();
    let sow = pointer.world().and_then(|p| layout.cell_at(p)).and_then(|c| view.sow_at(c));
    // Hover counts only on the mover's own row; clicks anywhere ask the engine.
    let hover = sow.filter(|s| s.side == view.current_player().0).map(|s| s.pit);
    if choice.hover != hover {
        choice.hover = hover;
        if hover.is_some() {
            choice.keyed = false;
        }
    }
    if mouse.just_pressed(MouseButton::Left)
        && let Some(mv) = sow
        && let Some(by) = session.requester()
    {
        requests.write(RequestMove { by, mv });
    }
}

fn choose_pit_with_keys(
    keys: Res<ButtonInput<KeyCode>>,
    session: Res<Session<Mancala>>,
    mut choice: ResMut<PitChoice>,
    mut requests: MessageWriter<RequestMove<Mancala>>,
) {
    let view = session.view();
    let n = view.pits() as u8;
    // Player 2's row runs right to left on screen, so the arrows follow it.
    let flip = view.current_player() == Player::TWO;
    let (right, left) = (keys.just_pressed(KeyCode::ArrowRight), keys.just_pressed(KeyCode::ArrowLeft));
    if right || left {
        let forward = right != flip;
        choice.pit = if forward { (choice.pit + 1) % n } else { (choice.pit + n - 1) % n };
        choice.keyed = true;
    }
    // Digit d chooses pit d of the row (1-based as on the board).
    for digit in digits_pressed(&keys).filter(|&d| d >= 1 && d <= n) {
        choice.pit = digit - 1;
        choice.keyed = true;
    }
    choice.pit = choice.pit.min(n - 1);
    if (keys.just_pressed(KeyCode::Enter) || keys.just_pressed(KeyCode::NumpadEnter))
        && let Some(by) = session.requester()
    {
        let side = view.current_player().0;
        requests.write(RequestMove { by, mv: Sow { side, pit: choice.pit } });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cells_go_round_counter_clockwise_and_are_found_again() {
        let layout = MancalaLayout::new(6);
        // Player 1's row left to right at the bottom, then their store on the right.
        assert!(layout.cell_position(0).x < layout.cell_position(5).x);
        assert!(layout.cell_position(0).y < 0.0);
        assert!(layout.cell_position(6).x > layout.cell_position(5).x);
        // Player 2's row right to left at the top, then their store on the left.
        assert!(layout.cell_position(7).x > layout.cell_position(12).x);
        assert!(layout.cell_position(7).y > 0.0);
        assert!(layout.cell_position(13).x < layout.cell_position(12).x);
        for cell in 0..14 {
            assert_eq!(layout.cell_at(layout.cell_position(cell)), Some(cell));
        }
        assert_eq!(layout.cell_at(Vec2::new(0.0, 0.0)), None);
    }
}
