//! The level as the editor draws it, in the game's own colours: a tile
//! entity for every tile with a glyph child (a belt's chevron, a home's
//! ring in its robot's colour, a broken robot), the robots, and what the
//! engine finds wrong: the tiles it names outlined in red, the tiles a
//! stranded robot can reach shaded. An edit redraws only the tiles it
//! changed; a resize draws the board anew.

use bevy::prelude::*;
use tabula_engine::robots::diagnose::Finding;
use tabula_engine::robots::level::robot_of_home;
use tabula_engine::robots::{Dir, RobotSpec};

use super::Editing;
use crate::app::board::BoardCamera;
use crate::app::board::{StoneTexture, fit_view, seat_color};
use crate::app::robots::art::{self, ChevronTexture, RingTexture};
use crate::app::robots::spawn::{broken_body, broken_cross, edge_labels, hint_label, labelled_hints};
use crate::app::robots::{BoardView, EdgeLabel, RobotLayout, TILE, angle};
use crate::app::screen::Screen;

const MARGIN: f32 = 48.0;
const LIT: Color = Color::srgba(1.0, 0.25, 0.2, 0.9);
const SHADED: Color = Color::srgba(0.45, 0.95, 0.55, 0.28);

/// A tile of the edited board.
#[derive(Component, Debug)]
pub struct EditorTile(pub (u16, u16));

/// The glyph drawn on a tile.
#[derive(Component, Debug)]
struct Glyph;

/// A robot of the edited level.
#[derive(Component, Debug)]
pub struct EditorRobot(pub char);

/// A tile the engine's finding lights or shades.
#[derive(Component, Debug)]
pub struct FindingMark {
    pub lit: bool,
}

/// What is on screen: the board as drawn, entity by tile, and the robots
/// and finding drawn.
#[derive(Resource, Default)]
pub struct Drawn {
    pub layout: RobotLayout,
    board: Vec<Vec<char>>,
    tiles: Vec<(Entity, Entity)>,
    /// A hint tile's "?", a broken robot's cross, by tile, as the game
    /// draws them; spawned only where there is one.
    marks: Vec<Option<Entity>>,
    robots: Vec<RobotSpec>,
    /// The homes drawn with their letters: tile and character.
    homes: Vec<((u16, u16), char)>,
    finding: Option<Finding>,
    revision: Option<u64>,
}

/// The textures of the game's board.
#[derive(Clone, Default)]
struct Art {
    stone: Handle<Image>,
    chevron: Handle<Image>,
    ring: Handle<Image>,
}

fn art(
    stone: Option<Res<StoneTexture>>,
    chevron: Option<Res<ChevronTexture>>,
    ring: Option<Res<RingTexture>>,
) -> Art {
    Art {
        stone: stone.map(|t| t.0.clone()).unwrap_or_default(),
        chevron: chevron.map(|t| t.0.clone()).unwrap_or_default(),
        ring: ring.map(|t| t.0.clone()).unwrap_or_default(),
    }
}

/// Entering the editor, the board is drawn from nothing.
pub(super) fn spawn_board(mut commands: Commands) {
    commands.insert_resource(Drawn::default());
}

/// The tile sprites a redraw recolours, and the glyphs on them.
type Grounds<'w, 's> = Query<'w, 's, &'static mut Sprite, With<EditorTile>>;
type Glyphs<'w, 's> = Query<
    'w,
    's,
    (&'static mut Sprite, &'static mut Transform, &'static mut Visibility),
    Without<EditorTile>,
>;

/// Brings what is drawn up to the level as it stands.
pub(super) fn redraw(
    mut commands: Commands,
    editing: Res<Editing>,
    drawn: Option<ResMut<Drawn>>,
    stone: Option<Res<StoneTexture>>,
    chevron: Option<Res<ChevronTexture>>,
    ring: Option<Res<RingTexture>>,
    mut sprites: Glyphs,
    mut grounds: Grounds,
    old: Query<Entity, Or<(With<EditorTile>, With<EditorRobot>, With<FindingMark>, With<EdgeLabel>)>>,
    mut cameras: Query<&mut Projection, With<BoardCamera>>,
) {
    let Some(mut drawn) = drawn else { return };
    if drawn.revision == Some(editing.revision) {
        return;
    }
    drawn.revision = Some(editing.revision);
    let art = art(stone, chevron, ring);
    let level = editing.level();
    let board: Vec<Vec<char>> = level.board.iter().map(|r| r.chars().collect()).collect();
    let (w, h) = (board.first().map_or(0, Vec::len) as u16, board.len() as u16);
    if (w, h) != (drawn.layout.width, drawn.layout.height) || drawn.tiles.is_empty() {
        for entity in &old {
            commands.entity(entity).despawn();
        }
        fit_view(&mut cameras, Vec2::new(w as f32, h as f32) * TILE + 2.0 * MARGIN);
        spawn_tiles(&mut commands, &mut drawn, RobotLayout { width: w, height: h });
        return;
    }
    repaint_tiles(&mut commands, &mut drawn, &board, &level.robots, &art, &mut sprites, &mut grounds);
    let homes: Vec<((u16, u16), char)> = board
        .iter()
        .enumerate()
        .flat_map(|(y, row)| row.iter().enumerate().map(move |(x, &c)| ((x as u16, y as u16), c)))
        .filter(|&(_, c)| robot_of_home(c).is_some())
        .collect();
    drawn.board = board;
    if drawn.robots != level.robots || drawn.homes != homes {
        respawn_robots(&mut commands, &drawn, &level.robots, &homes, &art);
        drawn.robots = level.robots.clone();
        drawn.homes = homes;
    }
    if drawn.finding != editing.finding {
        respawn_marks(&mut commands, &drawn, editing.finding.as_ref());
        drawn.finding = editing.finding.clone();
    }
}

/// A board of a new size: a tile and its glyph for every place, the edge
/// labels, and nothing of the old board remembered (the new entities take
/// their looks next frame, once they exist).
fn spawn_tiles(commands: &mut Commands, drawn: &mut Drawn, layout: RobotLayout) {
    drawn.layout = layout;
    // The zoom reads the board's size from the game's layout.
    commands.insert_resource(layout);
    commands.insert_resource(BoardView::default());
    drawn.tiles = (0..layout.height)
        .flat_map(|y| (0..layout.width).map(move |x| (x, y)))
        .map(|p| {
            let at = layout.position(p);
            let glyph = commands.spawn((Glyph, Sprite::default(), Transform::from_xyz(0.0, 0.0, 0.2))).id();
            let tile = commands
                .spawn((
                    EditorTile(p),
                    Sprite::from_color(art::GROUND, Vec2::splat(TILE - 2.0)),
                    Transform::from_xyz(at.x, at.y, 0.0),
                    DespawnOnExit(Screen::Editor),
                ))
                .add_child(glyph)
                .id();
            (tile, glyph)
        })
        .collect();
    drawn.marks = vec![None; drawn.tiles.len()];
    for label in edge_labels(&layout, MARGIN / 2.0) {
        commands.spawn((label, DespawnOnExit(Screen::Editor)));
    }
    drawn.board.clear();
    drawn.robots.clear();
    drawn.homes.clear();
    drawn.finding = None;
    drawn.revision = None;
}

/// Every tile whose letter changed: its ground, its glyph and its mark.
fn repaint_tiles(
    commands: &mut Commands,
    drawn: &mut Drawn,
    board: &[Vec<char>],
    robots: &[RobotSpec],
    art: &Art,
    sprites: &mut Glyphs,
    grounds: &mut Grounds,
) {
    let (w, h) = (drawn.layout.width, drawn.layout.height);
    for (y, row) in board.iter().enumerate() {
        for (x, &c) in row.iter().enumerate() {
            if drawn.board.get(y).and_then(|r| r.get(x)) == Some(&c) {
                continue;
            }
            let (tile, glyph) = drawn.tiles[y * w as usize + x];
            let p = (x as u16, y as u16);
            if let Ok(mut ground) = grounds.get_mut(tile) {
                ground.color = ground_color(c, p);
            }
            if let Ok((mut sprite, mut transform, mut visibility)) = sprites.get_mut(glyph) {
                *visibility = dress(c, robots, art, &mut sprite, &mut transform);
            }
            let mark = &mut drawn.marks[y * w as usize + x];
            if let Some(old) = mark.take() {
                commands.entity(old).despawn();
            }
            *mark = tile_mark(commands, c, w, h);
            if let Some(mark) = *mark {
                commands.entity(tile).add_child(mark);
            }
        }
    }
}

/// What a tile shows on top of its ground: a hint's "?" where hints are
/// labelled, a broken robot's cross.
fn tile_mark(commands: &mut Commands, c: char, w: u16, h: u16) -> Option<Entity> {
    match c {
        '?' if labelled_hints(w, h) => Some(commands.spawn(hint_label()).id()),
        '#' => Some(
            commands
                .spawn((Transform::default(), Visibility::Inherited))
                .with_children(|cross| {
                    for bar in broken_cross() {
                        cross.spawn(bar);
                    }
                })
                .id(),
        ),
        _ => None,
    }
}

fn ground_color(c: char, p: (u16, u16)) -> Color {
    match c {
        '?' => art::HINT_TILE,
        '#' => art::BROKEN_TILE,
        '^' | '>' | 'v' | '<' => art::BELT_TILE,
        _ if (p.0 + p.1).is_multiple_of(2) => art::GROUND,
        _ => art::GROUND_ALT,
    }
}

/// The glyph for tile character `c`; whether it shows.
fn dress(
    c: char,
    robots: &[RobotSpec],
    art: &Art,
    sprite: &mut Sprite,
    transform: &mut Transform,
) -> Visibility {
    let belt = Dir::ALL.into_iter().find(|d| d.arrow() == c);
    *transform = Transform::from_xyz(0.0, 0.0, 0.2);
    if let Some(dir) = belt {
        *sprite = Sprite {
            image: art.chevron.clone(),
            color: art::BELT_ARROW,
            custom_size: Some(Vec2::splat(TILE * 0.7)),
            ..default()
        };
        transform.rotation = Quat::from_rotation_z(angle(dir));
    } else if c == '#' {
        let (body, at) = broken_body(&art.stone);
        (*sprite, *transform) = (body, at);
    } else if let Some(id) = robot_of_home(c) {
        let owner = robots.iter().find(|r| r.id == id);
        let color = owner.map_or(Color::WHITE, |r| seat_color(r.player.saturating_sub(1).into()));
        *sprite = Sprite {
            image: art.ring.clone(),
            color,
            custom_size: Some(Vec2::splat(TILE * 0.8)),
            ..default()
        };
    } else {
        return Visibility::Hidden;
    }
    Visibility::Inherited
}

/// A home's letter, over its ring.
#[derive(Component, Debug)]
struct HomeLetter;

fn respawn_robots(
    commands: &mut Commands,
    drawn: &Drawn,
    robots: &[RobotSpec],
    homes: &[((u16, u16), char)],
    art: &Art,
) {
    commands.queue(|world: &mut World| {
        let old: Vec<Entity> =
            world.query_filtered::<Entity, Or<(With<EditorRobot>, With<HomeLetter>)>>().iter(world).collect();
        for entity in old {
            world.despawn(entity);
        }
    });
    for &(p, c) in homes {
        let at = drawn.layout.position(p);
        let owner = robots.iter().find(|r| Some(r.id) == robot_of_home(c));
        let color = owner.map_or(Color::WHITE, |r| seat_color(r.player.saturating_sub(1).into()));
        commands.spawn((
            HomeLetter,
            Text2d::new(c.to_string()),
            TextFont::from_font_size(28.0),
            TextColor(color),
            Transform::from_xyz(at.x, at.y, 1.6),
            DespawnOnExit(Screen::Editor),
        ));
    }
    for robot in robots {
        let at = drawn.layout.position(robot.at);
        commands
            .spawn((
                EditorRobot(robot.id),
                Sprite {
                    image: art.stone.clone(),
                    color: seat_color(robot.player.saturating_sub(1).into()),
                    custom_size: Some(Vec2::splat(TILE * 0.78)),
                    ..default()
                },
                Transform::from_xyz(at.x, at.y, 2.0),
                DespawnOnExit(Screen::Editor),
            ))
            .with_children(|robot_entity| {
                robot_entity.spawn((
                    Text2d::new(robot.id.to_string()),
                    TextFont::from_font_size(26.0),
                    TextColor(Color::srgb(0.08, 0.08, 0.1)),
                    Transform::from_xyz(-3.0, 2.0, 0.5),
                ));
                // Its rule set, small, as the game's robots show it.
                robot_entity.spawn((
                    Text2d::new(format!("{:?}", robot.rule)),
                    TextFont::from_font_size(13.0),
                    TextColor(Color::srgb(0.08, 0.08, 0.1)),
                    Transform::from_xyz(11.0, -9.0, 0.5),
                ));
                // The facing, as a notch on the robot's edge.
                let (dx, dy) = robot.facing.delta();
                robot_entity.spawn((
                    Sprite::from_color(Color::srgb(0.1, 0.1, 0.12), Vec2::splat(10.0)),
                    Transform::from_xyz(dx as f32 * TILE * 0.36, -dy as f32 * TILE * 0.36, 0.6),
                ));
            });
    }
}

fn respawn_marks(commands: &mut Commands, drawn: &Drawn, finding: Option<&Finding>) {
    commands.queue(|world: &mut World| {
        let marks: Vec<Entity> = world.query_filtered::<Entity, With<FindingMark>>().iter(world).collect();
        for entity in marks {
            world.despawn(entity);
        }
    });
    let Some(finding) = finding else { return };
    for (tiles, lit) in [(&finding.shaded, false), (&finding.lit, true)] {
        for &p in tiles {
            let at = drawn.layout.position(p);
            let mut mark = commands.spawn((
                FindingMark { lit },
                Transform::from_xyz(at.x, at.y, 1.0),
                Visibility::Inherited,
                DespawnOnExit(Screen::Editor),
            ));
            if lit {
                // An outline: four bars round the tile.
                mark.with_children(|m| {
                    for (x, y, w, h) in [
                        (0.0, 0.5, 1.0, 0.08),
                        (0.0, -0.5, 1.0, 0.08),
                        (0.5, 0.0, 0.08, 1.0),
                        (-0.5, 0.0, 0.08, 1.0),
                    ] {
                        m.spawn((
                            Sprite::from_color(LIT, Vec2::new(w * TILE, h * TILE)),
                            Transform::from_xyz(x * (TILE - 6.0), y * (TILE - 6.0), 0.0),
                        ));
                    }
                });
            } else {
                mark.insert(Sprite::from_color(SHADED, Vec2::splat(TILE - 8.0)));
            }
        }
    }
}
