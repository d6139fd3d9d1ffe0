//! The Robot board: tiles, belts that run, homes in their robot's colour,
//! robots that show their facing and rule set. Clicking one of your robots
//! lights every tile its requests lead to (after the belt ride); a click
//! there walks. Rides and settle rounds play tile by tile as the engine's
//! steps say; hints show as arrows; a win sets off fireworks.

use std::f32::consts::{FRAC_PI_2, FRAC_PI_4, TAU};

use bevy::prelude::*;
use tabula_engine::robots::{Dir, Hint, Pos, RobotMove, RobotStep, Robots, RobotsLevel, RuleSet, Tile};
use tabula_engine::{Game, Outcome, Player};

use crate::app::BoardCamera;
use crate::app::board::{
    BoardPointer, StoneTexture, clear_on_reset, count_busy, digits_pressed, fit_view, keys_free, playing,
    pointer_free, round_pixels, seat_color, texture,
};
use crate::app::frames::NextFrame;
use crate::app::game::{ActiveGame, WindowGame, name_of};
use crate::app::registry;
use crate::app::session::{BoardReset, MoveApplied, MovePreview, RequestMove, Session, SessionSet};
use crate::app::settings::Settings;

const TILE: f32 = 64.0;
const MARGIN: f32 = 48.0;
const ROBOT: f32 = 50.0;
/// Seconds for a walk, one belt tile, a turn.
const WALK: f32 = 0.28;
const BELT_STEP: f32 = 0.16;
const TURN: f32 = 0.22;
/// Belts run this many tiles a second on screen.
const BELT_SPEED: f32 = 0.8;
const CHEVRON_TEXTURE: u32 = 64;

const GROUND: Color = Color::srgb(0.20, 0.24, 0.22);
const GROUND_ALT: Color = Color::srgb(0.22, 0.26, 0.24);
const HINT_TILE: Color = Color::srgb(0.18, 0.28, 0.42);
const BROKEN_TILE: Color = Color::srgb(0.12, 0.12, 0.13);
const BROKEN_BODY: Color = Color::srgb(0.36, 0.34, 0.33);
const BELT_TILE: Color = Color::srgb(0.28, 0.27, 0.24);
const BELT_ARROW: Color = Color::srgb(0.93, 0.78, 0.30);
const TARGET: Color = Color::srgba(0.45, 0.95, 0.55, 0.45);
const SWAP_PICK: Color = Color::srgba(0.95, 0.55, 0.95, 0.55);
const HINT_ARROW: Color = Color::srgb(1.0, 0.95, 0.45);

#[derive(Component, Debug)]
struct BoardTile;

/// A belt's moving chevron on tile `at`, running `dir`.
#[derive(Component, Debug)]
struct Chevron {
    dir: Dir,
    base: Vec2,
}

/// A robot on the board.
#[derive(Component, Debug)]
pub struct RobotPiece(pub char);

/// The arrow beside a robot showing its latest hint.
#[derive(Component, Debug)]
struct HintMark;

/// A lit tile: where a request of the chosen robot leads.
#[derive(Component, Debug)]
struct Destination(RobotMove);

/// A tile picked for an exchange.
#[derive(Component, Debug)]
struct SwapMark;

/// A robot gliding from one place and facing to another.
#[derive(Component, Debug)]
struct Motion {
    from: Vec3,
    to: Vec3,
    from_angle: f32,
    to_angle: f32,
    delay: f32,
    duration: f32,
    elapsed: f32,
}

/// A spark of the fireworks, or a robot blown apart.
#[derive(Component, Debug)]
struct Spark {
    velocity: Vec2,
    life: f32,
    age: f32,
}

/// What the player has chosen on the board.
#[derive(Resource, Debug, Default)]
pub struct RobotChoice {
    pub selected: Option<char>,
    pub swapping: bool,
    pub swap_first: Option<Pos>,
    /// The board drawn for these lit tiles (rebuilt when either changes).
    lit_for: Option<(char, u32)>,
}

#[derive(Resource)]
struct ChevronTexture(Handle<Image>);

#[derive(Resource)]
struct RingTexture(Handle<Image>);

/// The small mark on a robot's rim that shows where it faces.
#[derive(Component, Debug)]
struct Nose;

/// Where a robot piece faces on screen, as an angle (North 0).
#[derive(Component, Debug, Clone, Copy)]
struct Heading(f32);

/// The board's size, for placing things.
#[derive(Resource, Debug, Default, Clone, Copy)]
pub struct RobotLayout {
    pub width: u16,
    pub height: u16,
}

impl RobotLayout {
    pub fn position(&self, p: Pos) -> Vec2 {
        Vec2::new(
            (p.0 as f32 - (self.width as f32 - 1.0) / 2.0) * TILE,
            ((self.height as f32 - 1.0) / 2.0 - p.1 as f32) * TILE,
        )
    }

    pub fn tile_at(&self, point: Vec2) -> Option<Pos> {
        let x = (point.x / TILE + self.width as f32 / 2.0).floor();
        let y = (self.height as f32 / 2.0 - point.y / TILE).floor();
        (x >= 0.0 && y >= 0.0 && x < self.width as f32 && y < self.height as f32)
            .then_some((x as u16, y as u16))
    }
}

/// The screen angle of a facing (North up).
fn angle(dir: Dir) -> f32 {
    -(dir.quarters() as f32) * FRAC_PI_2
}

/// The robot board in the window.
pub fn plugin(app: &mut App) {
    registry::register::<Robots>(app);
    app.init_resource::<RobotChoice>()
        .init_resource::<RobotLayout>()
        .add_systems(Startup, make_chevron_texture)
        .add_systems(
            Update,
            (
                rebuild_board,
                animate_steps,
                (
                    run_belts,
                    move_robots,
                    fly_sparks,
                    count_busy::<Motion>,
                    show_destinations,
                    describe_choice,
                ),
            )
                .chain()
                .in_set(SessionSet::View)
                .run_if(playing::<Robots>),
        )
        .add_systems(
            Update,
            (click_board.run_if(pointer_free), request_with_keys.run_if(keys_free))
                .in_set(SessionSet::Requests)
                .run_if(playing::<Robots>),
        );
}

impl WindowGame for Robots {
    const CONTROLS: &'static str = "Click one of your robots, then a green tile. Keys: N next robot · arrows step (rule A) · Up or 1-3 walk, Left/Right/Down turn (rule B) · X exchange two tiles · Enter pass";

    fn rules_text(level: &RobotsLevel) -> String {
        tabula_engine::core::Level::summary(level).join(" · ")
    }

    fn outcome_text(board: &Robots, names: &[String]) -> String {
        match board.outcome() {
            Some(Outcome::Win(p)) => {
                let robot = board.robots().iter().find(|r| r.player == p && r.at == r.home);
                let how = robot.map_or(String::new(), |r| format!(": robot {} is home", r.id));
                format!("{} wins{how}", name_of(names, p))
            }
            Some(Outcome::Draw) => "A draw: the move cap was reached".into(),
            None => String::new(),
        }
    }

    fn step_note(steps: &[RobotStep]) -> Option<String> {
        let mut notes = Vec::new();
        if steps.iter().any(|s| matches!(s, RobotStep::Rode { .. })) {
            notes.push("rode the belt".to_owned());
        }
        let rounds = steps
            .iter()
            .filter_map(|s| if let RobotStep::Carried { round, .. } = s { Some(*round) } else { None })
            .max();
        if let Some(n) = rounds {
            notes.push(format!("the belts settled in {n} round{}", if n == 1 { "" } else { "s" }));
        }
        for s in steps {
            if let RobotStep::HintGiven { robot, hint } = s {
                notes.push(format!("{robot}'s hint: home is {}", hint_words(*hint)));
            }
        }
        (!notes.is_empty()).then(|| notes.join(", "))
    }
}

fn hint_words(hint: Hint) -> &'static str {
    match hint {
        Hint::Ahead => "ahead",
        Hint::AheadRight => "ahead right",
        Hint::Right => "right",
        Hint::BehindRight => "behind right",
        Hint::Behind => "behind",
        Hint::BehindLeft => "behind left",
        Hint::Left => "left",
        Hint::AheadLeft => "ahead left",
    }
}

fn make_chevron_texture(mut commands: Commands, images: Option<ResMut<Assets<Image>>>) {
    let Some(mut images) = images else { return };
    commands.insert_resource(ChevronTexture(texture(
        &mut images,
        CHEVRON_TEXTURE,
        chevron_pixels(CHEVRON_TEXTURE),
    )));
    commands.insert_resource(RingTexture(texture(&mut images, 64, home_ring())));
}

/// RGBA pixels of a chevron pointing up (a ^), soft at the edges.
pub fn chevron_pixels(size: u32) -> Vec<u8> {
    // Distance from point q to the segment a-b.
    fn segment(q: Vec2, a: Vec2, b: Vec2) -> f32 {
        let (ab, aq) = (b - a, q - a);
        let t = (aq.dot(ab) / ab.length_squared()).clamp(0.0, 1.0);
        (aq - ab * t).length()
    }
    let (tip, left, right) = (Vec2::new(0.0, -0.22), Vec2::new(-0.34, 0.2), Vec2::new(0.34, 0.2));
    let mut data = Vec::with_capacity((size * size * 4) as usize);
    for y in 0..size {
        for x in 0..size {
            let q = Vec2::new((x as f32 + 0.5) / size as f32 - 0.5, (y as f32 + 0.5) / size as f32 - 0.5);
            let d = segment(q, tip, left).min(segment(q, tip, right));
            let alpha = (1.0 - (d - 0.07).max(0.0) * size as f32 / 1.5).clamp(0.0, 1.0);
            data.extend_from_slice(&[255, 255, 255, (alpha * 255.0) as u8]);
        }
    }
    data
}

/// The ring that marks a home.
fn home_ring() -> Vec<u8> {
    round_pixels(64, 0.9, |_, _, d| if d > 0.72 { 1.0 } else { 0.0 })
}

type BoardParts = Or<(With<BoardTile>, With<RobotPiece>, With<Destination>, With<SwapMark>, With<Spark>)>;

#[allow(clippy::too_many_arguments)]
fn rebuild_board(
    mut commands: Commands,
    mut resets: MessageReader<BoardReset>,
    session: Res<Session<Robots>>,
    old: Query<Entity, BoardParts>,
    stone: Option<Res<StoneTexture>>,
    chevron: Option<Res<ChevronTexture>>,
    ring: Option<Res<RingTexture>>,
    mut layout: ResMut<RobotLayout>,
    mut choice: ResMut<RobotChoice>,
    mut cameras: Query<&mut Projection, With<BoardCamera>>,
) {
    if !clear_on_reset(&mut commands, &mut resets, &old) {
        return;
    }
    let view = session.view();
    let board = &*view;
    *layout = RobotLayout { width: board.width(), height: board.height() };
    fit_view(&mut cameras, Vec2::new(board.width() as f32, board.height() as f32) * TILE + 2.0 * MARGIN);
    *choice = RobotChoice::default();
    let stone = stone.map(|t| t.0.clone()).unwrap_or_default();
    let chevron = chevron.map(|t| t.0.clone()).unwrap_or_default();
    let ring = ring.map(|t| t.0.clone()).unwrap_or_default();
    let on_exit = || DespawnOnExit(ActiveGame::of::<Robots>());
    let labels = board.width() as usize * (board.height() as usize) <= 40 * 40;
    // On a large board robots and homes are drawn bigger than a tile, so
    // they stay in sight when the whole board fits the window.
    let marker = (board.width().max(board.height()) as f32 / 24.0).max(1.0);
    for y in 0..board.height() {
        for x in 0..board.width() {
            let p = (x, y);
            let at = layout.position(p);
            let ground = if (x + y) % 2 == 0 { GROUND } else { GROUND_ALT };
            let color = match board.tile(p) {
                Tile::Hint => HINT_TILE,
                Tile::Broken => BROKEN_TILE,
                Tile::Conveyor(_) => BELT_TILE,
                _ => ground,
            };
            let mut tile = commands.spawn((
                BoardTile,
                Sprite::from_color(color, Vec2::splat(TILE - 2.0)),
                Transform::from_xyz(at.x, at.y, 0.0),
                on_exit(),
            ));
            match board.tile(p) {
                Tile::Hint if labels => {
                    tile.with_child((
                        Text2d::new("?"),
                        TextFont::from_font_size(30.0),
                        TextColor(Color::srgba(0.7, 0.85, 1.0, 0.8)),
                        Transform::from_xyz(0.0, 0.0, 0.5),
                    ));
                }
                Tile::Broken => {
                    tile.with_child((
                        Sprite {
                            image: stone.clone(),
                            color: BROKEN_BODY,
                            custom_size: Some(Vec2::splat(ROBOT * 0.9)),
                            ..default()
                        },
                        Transform::from_xyz(0.0, 0.0, 0.5),
                    ));
                    // A red cross over the broken robot.
                    for turn in [FRAC_PI_4, -FRAC_PI_4] {
                        tile.with_child((
                            Sprite::from_color(Color::srgb(0.8, 0.28, 0.22), Vec2::new(ROBOT * 0.7, 5.0)),
                            Transform::from_xyz(0.0, 0.0, 0.6).with_rotation(Quat::from_rotation_z(turn)),
                        ));
                    }
                }
                Tile::Home(r) => {
                    let robot = &board.robots()[r as usize];
                    let color = seat_color(robot.player.index());
                    tile.with_child((
                        Sprite {
                            image: ring.clone(),
                            color,
                            custom_size: Some(Vec2::splat(TILE * 0.86 * marker)),
                            ..default()
                        },
                        Transform::from_xyz(0.0, 0.0, 1.5),
                    ));
                    tile.with_child((
                        Text2d::new(tabula_engine::robots::level::home_char(robot.id).to_string()),
                        TextFont::from_font_size(28.0),
                        TextColor(color),
                        Transform::from_xyz(0.0, 0.0, 1.6).with_scale(Vec3::splat(marker)),
                    ));
                }
                Tile::Conveyor(dir) => {
                    commands.spawn((
                        BoardTile,
                        Chevron { dir, base: at },
                        Sprite {
                            image: chevron.clone(),
                            color: BELT_ARROW,
                            custom_size: Some(Vec2::splat(TILE * 0.7)),
                            ..default()
                        },
                        Transform::from_xyz(at.x, at.y, 0.2).with_rotation(Quat::from_rotation_z(angle(dir))),
                        on_exit(),
                    ));
                }
                _ => {}
            }
        }
    }
    for robot in board.robots() {
        let at = layout.position(robot.at);
        let color = seat_color(robot.player.index());
        let rule = match robot.rule {
            RuleSet::A => "A",
            RuleSet::B => "B",
        };
        let heading = angle(robot.facing);
        commands
            .spawn((
                RobotPiece(robot.id),
                Heading(heading),
                Sprite { image: stone.clone(), color, custom_size: Some(Vec2::splat(ROBOT)), ..default() },
                Transform::from_xyz(at.x, at.y, 2.0).with_scale(Vec3::splat(marker)),
                on_exit(),
            ))
            .with_children(|piece| {
                // The nose turns with the facing; the letters stay upright.
                piece.spawn((
                    Nose,
                    Sprite::from_color(Color::srgb(0.1, 0.1, 0.1), Vec2::splat(13.0)),
                    nose(heading),
                ));
                piece.spawn((
                    Text2d::new(robot.id.to_string()),
                    TextFont::from_font_size(24.0),
                    TextColor(Color::srgb(0.08, 0.08, 0.08)),
                    Transform::from_xyz(-3.0, 0.0, 0.2),
                ));
                piece.spawn((
                    Text2d::new(rule),
                    TextFont::from_font_size(13.0),
                    TextColor(Color::srgb(0.15, 0.15, 0.15)),
                    Transform::from_xyz(11.0, -9.0, 0.2),
                ));
            });
        if let Some(&hint) = robot.hints.last() {
            spawn_hint(&mut commands, &chevron, at, robot.facing, hint);
        }
    }
}

/// The nose of a robot heading `heading`: on the rim, turned to point out.
fn nose(heading: f32) -> Transform {
    let turn = Quat::from_rotation_z(heading);
    Transform {
        translation: turn * Vec3::new(0.0, ROBOT / 2.0 - 3.0, 0.1),
        rotation: turn * Quat::from_rotation_z(FRAC_PI_4),
        ..default()
    }
}

/// An arrow beside a robot pointing where its latest hint says home is.
fn spawn_hint(commands: &mut Commands, chevron: &Handle<Image>, at: Vec2, facing: Dir, hint: Hint) {
    let turn = angle(facing) - hint.index() as f32 * FRAC_PI_4;
    let offset = Vec2::from_angle(turn + FRAC_PI_2) * (TILE * 0.42);
    commands.spawn((
        BoardTile,
        HintMark,
        Sprite {
            image: chevron.clone(),
            color: HINT_ARROW,
            custom_size: Some(Vec2::splat(TILE * 0.42)),
            ..default()
        },
        Transform::from_xyz(at.x + offset.x, at.y + offset.y, 3.0).with_rotation(Quat::from_rotation_z(turn)),
        DespawnOnExit(ActiveGame::of::<Robots>()),
    ));
}

/// Belts run: each chevron slides along its tile in the belt's direction.
/// They ask for frames while the window has focus (a belt that runs is how
/// a player tells it from a floor arrow); without focus they rest with the
/// window, which then draws only when it wakes.
fn run_belts(
    time: Res<Time>,
    mut chevrons: Query<(&Chevron, &mut Transform)>,
    window: Query<&Window, With<bevy::window::PrimaryWindow>>,
    mut next: ResMut<NextFrame>,
) {
    if !chevrons.is_empty() && window.single().is_ok_and(|w| w.focused) {
        next.ask();
    }
    let phase = (time.elapsed_secs() * BELT_SPEED).fract() - 0.5;
    for (chevron, mut transform) in &mut chevrons {
        let (dx, dy) = chevron.dir.delta();
        let shift = Vec2::new(dx as f32, -dy as f32) * phase * TILE * 0.5;
        transform.translation.x = chevron.base.x + shift.x;
        transform.translation.y = chevron.base.y + shift.y;
    }
}

/// Schedules each robot's glides as the steps say: the walk, the ride tile
/// by tile, the settle rounds one after another; then hints and the end.
#[allow(clippy::too_many_arguments)]
fn animate_steps(
    mut commands: Commands,
    mut applied: MessageReader<MoveApplied<Robots>>,
    pieces: Query<(Entity, &RobotPiece, &Transform, &Heading)>,
    hints: Query<Entity, With<HintMark>>,
    session: Res<Session<Robots>>,
    layout: Res<RobotLayout>,
    settings: Res<Settings>,
    chevron: Option<Res<ChevronTexture>>,
    mut resets: MessageWriter<BoardReset>,
) {
    let steps: Vec<RobotStep> = applied.read().flat_map(|m| m.steps.iter().cloned()).collect();
    if steps.is_empty() {
        return;
    }
    if steps.iter().any(|s| matches!(s, RobotStep::Swapped { .. })) {
        // Tiles changed places: the board is drawn again as it now is.
        resets.write(BoardReset);
        return;
    }
    let speed = settings.animation_speed;
    let mut place: std::collections::HashMap<char, (Entity, Vec3, f32, f32)> =
        pieces.iter().map(|(e, piece, t, h)| (piece.0, (e, t.translation, h.0, 0.0))).collect();
    let mut clock = 0.0f32;
    let mut round = 0u16;
    let mut round_start = 0.0f32;
    for step in &steps {
        let (id, to, facing, duration, start) = match *step {
            RobotStep::Walked { robot, to } => {
                let facing = place.get(&robot).map_or(0.0, |p| p.2);
                (robot, Some(to), facing, WALK, clock)
            }
            RobotStep::Rode { robot, to, facing } => (robot, Some(to), angle(facing), BELT_STEP, clock),
            RobotStep::Rotated { robot, facing } => {
                let at = place.get(&robot).map(|p| p.1);
                let Some(at) = at else { continue };
                let (entity, _, from_angle, _) = place[&robot];
                let to_angle = nearest_turn(from_angle, angle(facing));
                commands.entity(entity).insert((
                    Heading(to_angle),
                    Motion {
                        from: at,
                        to: at,
                        from_angle,
                        to_angle,
                        delay: clock / speed,
                        duration: TURN / speed,
                        elapsed: 0.0,
                    },
                ));
                place.insert(robot, (entity, at, to_angle, 0.0));
                clock += TURN;
                continue;
            }
            RobotStep::Carried { robot, to, facing, round: r } => {
                if r != round {
                    round = r;
                    round_start = clock;
                    clock += BELT_STEP;
                }
                (robot, Some(to), angle(facing), BELT_STEP, round_start)
            }
            _ => continue,
        };
        let Some(to) = to else { continue };
        let Some(&(entity, from, from_angle, _)) = place.get(&id) else { continue };
        let target = layout.position(to).extend(2.0);
        let to_angle = nearest_turn(from_angle, facing);
        commands.entity(entity).insert((
            Heading(to_angle),
            Motion {
                from,
                to: target,
                from_angle,
                to_angle,
                delay: start / speed,
                duration: duration / speed,
                elapsed: 0.0,
            },
        ));
        place.insert(id, (entity, target, to_angle, 0.0));
        if !matches!(step, RobotStep::Carried { .. }) {
            clock += duration;
        }
    }
    // Hints as they stand after the move.
    for entity in &hints {
        commands.entity(entity).despawn();
    }
    let chevron = chevron.map(|c| c.0.clone()).unwrap_or_default();
    let view = session.view();
    for robot in view.robots() {
        if let Some(&hint) = robot.hints.last() {
            spawn_hint(&mut commands, &chevron, layout.position(robot.at), robot.facing, hint);
        }
    }
    // A win: fireworks over the winner, the others blown apart.
    if let Some(RobotStep::Won { robot }) = steps.iter().find(|s| matches!(s, RobotStep::Won { .. })) {
        let winner = view.robot(*robot).map(|r| (r.at, r.player));
        if let Some((home, player)) = winner {
            let centre = layout.position(home);
            for i in 0..48 {
                let a = i as f32 / 48.0 * TAU;
                let v = Vec2::from_angle(a) * (160.0 + 90.0 * ((i * 7 % 5) as f32));
                commands.spawn((
                    BoardTile,
                    Spark { velocity: v, life: 1.6, age: -clock / speed },
                    Sprite::from_color(seat_color(player.index() + i % 3), Vec2::splat(9.0)),
                    Transform::from_xyz(centre.x, centre.y, 5.0),
                    DespawnOnExit(ActiveGame::of::<Robots>()),
                ));
            }
        }
        for (entity, piece, _, _) in &pieces {
            if piece.0 != *robot {
                commands.entity(entity).insert(Spark {
                    velocity: Vec2::ZERO,
                    life: 0.9,
                    age: -clock / speed,
                });
            }
        }
    }
}

/// The target angle nearest `from` that shows the same facing as `to`.
fn nearest_turn(from: f32, to: f32) -> f32 {
    let mut delta = (to - from) % TAU;
    if delta > TAU / 2.0 {
        delta -= TAU;
    } else if delta < -TAU / 2.0 {
        delta += TAU;
    }
    from + delta
}

fn move_robots(
    mut commands: Commands,
    time: Res<Time>,
    mut robots: Query<(Entity, &mut Motion, &mut Transform, &Children)>,
    mut noses: Query<&mut Transform, (With<Nose>, Without<Motion>)>,
) {
    for (entity, mut motion, mut transform, children) in &mut robots {
        motion.elapsed += time.delta_secs();
        let t = ((motion.elapsed - motion.delay) / motion.duration).clamp(0.0, 1.0);
        if motion.elapsed < motion.delay {
            continue;
        }
        let ease = t * t * (3.0 - 2.0 * t);
        transform.translation = motion.from.lerp(motion.to, ease) + Vec3::Z * 0.5 * (1.0 - t);
        let heading = motion.from_angle + (motion.to_angle - motion.from_angle) * ease;
        for child in children.iter() {
            if let Ok(mut nose_transform) = noses.get_mut(child) {
                *nose_transform = nose(heading);
            }
        }
        if t >= 1.0 {
            commands.entity(entity).remove::<Motion>();
        }
    }
}

/// Sparks fly and fade; a robot blown apart swells and fades.
fn fly_sparks(
    mut commands: Commands,
    time: Res<Time>,
    mut sparks: Query<(Entity, &mut Spark, &mut Transform, &mut Sprite, Has<RobotPiece>)>,
    mut next: ResMut<NextFrame>,
) {
    if !sparks.is_empty() {
        next.ask();
    }
    let dt = time.delta_secs();
    for (entity, mut spark, mut transform, mut sprite, robot) in &mut sparks {
        spark.age += dt;
        if spark.age < 0.0 {
            continue;
        }
        let t = (spark.age / spark.life).min(1.0);
        if robot {
            transform.scale *= 1.0 + dt / spark.life;
            sprite.color = sprite.color.with_alpha(1.0 - t);
            if t >= 1.0 {
                commands.entity(entity).remove::<Spark>().insert(Visibility::Hidden);
            }
        } else {
            transform.translation += (spark.velocity * dt).extend(0.0);
            spark.velocity.y -= 220.0 * dt;
            sprite.color = sprite.color.with_alpha(1.0 - t);
            if t >= 1.0 {
                commands.entity(entity).despawn();
            }
        }
    }
}

/// Lights the tiles the chosen robot's requests lead to, and the tile
/// picked for an exchange.
#[allow(clippy::too_many_arguments)]
fn show_destinations(
    mut commands: Commands,
    session: Res<Session<Robots>>,
    mut choice: ResMut<RobotChoice>,
    layout: Res<RobotLayout>,
    lit: Query<Entity, Or<(With<Destination>, With<SwapMark>)>>,
    moving: Query<(), With<Motion>>,
) {
    let view = session.view();
    let human = session.human_to_move();
    if human.is_none()
        || choice.selected.is_some_and(|id| view.robot(id).is_none_or(|r| Some(r.player) != human))
    {
        choice.selected = None;
    }
    let key = choice
        .selected
        .map(|id| (id, view.plies()))
        .or(choice.swap_first.map(|p| ('#', p.0 as u32 * 65536 + p.1 as u32 + view.plies() * 7)));
    let busy = !moving.is_empty();
    if choice.lit_for == key && !busy {
        return;
    }
    for entity in &lit {
        commands.entity(entity).despawn();
    }
    choice.lit_for = if busy { None } else { key };
    if busy {
        return;
    }
    if let Some(id) = choice.selected {
        for (mv, to, _) in view.destinations(id) {
            if matches!(mv, RobotMove::Rotate { .. }) {
                continue;
            }
            let at = layout.position(to);
            commands.spawn((
                Destination(mv),
                Sprite::from_color(TARGET, Vec2::splat(TILE - 10.0)),
                Transform::from_xyz(at.x, at.y, 1.0),
                DespawnOnExit(ActiveGame::of::<Robots>()),
            ));
        }
    }
    if let Some(p) = choice.swap_first {
        let at = layout.position(p);
        commands.spawn((
            SwapMark,
            Sprite::from_color(SWAP_PICK, Vec2::splat(TILE - 6.0)),
            Transform::from_xyz(at.x, at.y, 1.0),
            DespawnOnExit(ActiveGame::of::<Robots>()),
        ));
    }
}

/// Says what the player's choice would do.
fn describe_choice(
    session: Res<Session<Robots>>,
    choice: Res<RobotChoice>,
    mut preview: ResMut<MovePreview>,
) {
    let view = session.view();
    let text = match session.human_to_move() {
        None => String::new(),
        Some(p) if choice.swapping => {
            let left = view.swaps_left(p);
            match choice.swap_first {
                None => {
                    format!("Exchange ({left} left): click the first tile (not a home or hint); X to stop.")
                }
                Some(a) => format!("Exchange ({}, {}) with…: click the second tile.", a.0, a.1),
            }
        }
        Some(_) => match choice.selected.and_then(|id| view.robot(id)) {
            Some(r) if r.rule == RuleSet::A => {
                format!("Robot {} (rule A): click a green tile or press an arrow to step.", r.id)
            }
            Some(r) => format!(
                "Robot {} (rule B): click a green tile, Up or 1-3 to walk, Left/Right/Down to turn.",
                r.id
            ),
            None => "Click one of your robots (or N) to see where it can go.".into(),
        },
    };
    if preview.0 != text {
        preview.0 = text;
    }
}

fn own_robots(view: &Robots, player: Player) -> Vec<char> {
    view.robots().iter().filter(|r| r.player == player).map(|r| r.id).collect()
}

#[allow(clippy::too_many_arguments)]
fn click_board(
    pointer: BoardPointer,
    mouse: Res<ButtonInput<MouseButton>>,
    session: Res<Session<Robots>>,
    layout: Res<RobotLayout>,
    mut choice: ResMut<RobotChoice>,
    destinations: Query<(&Destination, &Transform)>,
    mut requests: MessageWriter<RequestMove<Robots>>,
) {
    if !mouse.just_pressed(MouseButton::Left) {
        return;
    }
    let Some(point) = pointer.world() else { return };
    let Some(tile) = layout.tile_at(point) else { return };
    let Some(by) = session.requester() else { return };
    let view = session.view();
    if choice.swapping {
        match choice.swap_first {
            None => choice.swap_first = Some(tile),
            Some(first) => {
                let (a, b) =
                    if (first.1, first.0) <= (tile.1, tile.0) { (first, tile) } else { (tile, first) };
                choice.swap_first = None;
                choice.swapping = false;
                requests.write(RequestMove { by, mv: RobotMove::Exchange { a, b } });
            }
        }
        return;
    }
    if let Some(robot) = view.robot_at(tile).filter(|r| r.player == by) {
        choice.selected = Some(robot.id);
        return;
    }
    let target = layout.position(tile);
    let chosen = destinations.iter().find(|(_, t)| t.translation.truncate().distance(target) < 1.0);
    match chosen {
        Some((Destination(mv), _)) => {
            requests.write(RequestMove { by, mv: *mv });
        }
        None => choice.selected = None,
    }
}

fn request_with_keys(
    keys: Res<ButtonInput<KeyCode>>,
    session: Res<Session<Robots>>,
    mut choice: ResMut<RobotChoice>,
    mut requests: MessageWriter<RequestMove<Robots>>,
) {
    let Some(by) = session.requester() else { return };
    let view = session.view();
    let own = own_robots(&view, by);
    if keys.just_pressed(KeyCode::KeyN) && !own.is_empty() {
        let next = choice
            .selected
            .and_then(|id| own.iter().position(|&o| o == id))
            .map_or(0, |i| (i + 1) % own.len());
        choice.selected = Some(own[next]);
    }
    if keys.just_pressed(KeyCode::KeyX) {
        choice.swapping = !choice.swapping;
        choice.swap_first = None;
    }
    if keys.just_pressed(KeyCode::Enter) || keys.just_pressed(KeyCode::NumpadEnter) {
        requests.write(RequestMove { by, mv: RobotMove::Pass });
    }
    let Some(robot) = choice.selected.or(own.first().copied()).and_then(|id| view.robot(id)) else { return };
    let id = robot.id;
    let pressed = |k: KeyCode| keys.just_pressed(k);
    let mv = match robot.rule {
        RuleSet::A => [
            (KeyCode::ArrowUp, Dir::North),
            (KeyCode::ArrowRight, Dir::East),
            (KeyCode::ArrowDown, Dir::South),
            (KeyCode::ArrowLeft, Dir::West),
        ]
        .into_iter()
        .find(|&(k, _)| pressed(k))
        .map(|(_, dir)| RobotMove::Step { robot: id, dir }),
        RuleSet::B => {
            let walk = digits_pressed(&keys)
                .find(|&d| (1..=3).contains(&d))
                .or(pressed(KeyCode::ArrowUp).then_some(1));
            let turn = [(KeyCode::ArrowLeft, 1), (KeyCode::ArrowDown, 2), (KeyCode::ArrowRight, 3)]
                .into_iter()
                .find(|&(k, _)| pressed(k))
                .map(|(_, q)| q);
            walk.map(|steps| RobotMove::Forward { robot: id, steps })
                .or(turn.map(|quarters| RobotMove::Rotate { robot: id, quarters }))
        }
    };
    if let Some(mv) = mv {
        choice.selected = Some(id);
        requests.write(RequestMove { by, mv });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tiles_are_found_where_they_are_drawn() {
        let layout = RobotLayout { width: 7, height: 4 };
        for y in 0..4 {
            for x in 0..7 {
                assert_eq!(layout.tile_at(layout.position((x, y))), Some((x, y)));
            }
        }
        assert!(layout.position((0, 0)).y > layout.position((0, 3)).y, "y grows downwards");
        assert_eq!(layout.tile_at(Vec2::new(10.0 * TILE, 0.0)), None);
    }

    #[test]
    fn turns_take_the_short_way_round() {
        assert!(
            (nearest_turn(0.0, angle(Dir::West)) - FRAC_PI_2).abs() < 1e-5,
            "North to West is a quarter left"
        );
        assert!((nearest_turn(0.0, angle(Dir::East)) + FRAC_PI_2).abs() < 1e-5);
    }
}
