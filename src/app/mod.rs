//! The window: menus, the game screens, watching AI matches, replays, hot
//! reload of level files, sound and settings. The engine owns every rule;
//! these systems turn input into move requests and the engine's answers into
//! entities, animations and messages.

pub mod arena_screen;
pub mod ask;
pub mod board;
mod clues;
pub mod controls;
#[cfg(feature = "dev")]
pub mod dev_tools;
pub mod editor;
pub mod frames;
pub mod game;
pub mod glide;
pub mod help;
pub mod hud;
mod lesson;
pub mod levels;
pub mod mancala;
pub mod menu;
pub mod move_log;
pub mod nim;
pub mod online;
pub mod picture;
pub mod registry;
pub mod robots;
pub mod russian_bank;
pub mod screen;
pub mod seat_colors;
pub mod session;
pub mod settings;
pub mod sound;
pub mod teach;
pub mod theme;

use std::process::ExitCode;

use bevy::camera::CameraOutputMode;
use bevy::camera::visibility::RenderLayers;
use bevy::prelude::*;
use bevy::render::render_resource::BlendState;
use bevy::window::WindowResizeConstraints;
use bevy_egui::{EguiGlobalSettings, EguiPlugin, PrimaryEguiContext};

/// Smallest window that keeps every text readable and the board on screen.
const MIN_WINDOW: Vec2 = Vec2::new(800.0, 600.0);
const START_WINDOW: UVec2 = UVec2::new(1280, 800);
const BACKGROUND: Color = Color::srgb(0.11, 0.13, 0.12);

/// The games the window plays: one line a game, its plugin in its folder.
pub const GAMES: &[fn(&mut App)] = &[nim::plugin, mancala::plugin, robots::plugin, russian_bank::plugin];

/// Why the window could not open on this machine's display, said before
/// Bevy tries (it would panic): the build draws through X11.
#[cfg(target_os = "linux")]
fn display_problem(display: Option<std::ffi::OsString>) -> Option<String> {
    const HELP: &str = "the window needs an X11 display; on a machine without one, run it under \
                        xvfb-run, or use the command line (tabula match, replay, perft, check)";
    let display = display.filter(|d| !d.is_empty());
    let Some(display) = display.and_then(|d| d.into_string().ok()) else {
        return Some(format!("DISPLAY is not set: {HELP}"));
    };
    // A local display ":N" or ":N.S" listens on /tmp/.X11-unix/XN.
    let number = display.strip_prefix(':')?.split('.').next()?;
    let socket = std::path::Path::new("/tmp/.X11-unix").join(format!("X{number}"));
    (!socket.exists()).then(|| format!("no X server is running on display {display}: {HELP}"))
}

/// Opens the window and runs until it is closed.
pub fn run(
    start: Option<session::StartLevel>,
    edit: Option<editor::StartEdit>,
    arena: Option<arena_screen::StartArena>,
    online: Option<online::start::StartOnline>,
) -> anyhow::Result<ExitCode> {
    #[cfg(target_os = "linux")]
    if let Some(problem) = display_problem(std::env::var_os("DISPLAY")) {
        anyhow::bail!(problem);
    }
    let mut app = App::new();
    // Asset sources exist only if registered before the asset plugin.
    let opened = start.as_ref().map(|s| s.path.as_path()).or(edit.as_ref().map(|e| e.0.as_path()));
    let mine = tabula_engine::shipped::player_levels();
    levels::LevelSources::with_player(&levels::library::levels_root(), Some(&mine), opened)
        .register(&mut app);
    app.add_plugins(DefaultPlugins.set(asset_plugin()).set(WindowPlugin {
        primary_window: Some(Window {
            title: "tabula".into(),
            resolution: START_WINDOW.into(),
            resize_constraints: WindowResizeConstraints {
                min_width: MIN_WINDOW.x,
                min_height: MIN_WINDOW.y,
                ..default()
            },
            ..default()
        }),
        // The close button asks first when a game is under way (`ask`).
        close_when_requested: false,
        ..default()
    }))
    .add_plugins(EguiPlugin::default())
    .insert_resource(ClearColor(BACKGROUND))
    .add_plugins(plugin)
    .add_plugins((
        controls::plugin,
        help::plugin,
        ask::plugin,
        hud::plugin,
        menu::plugin,
        sound::plugin,
        editor::plugin,
        arena_screen::plugin,
        theme::plugin,
    ));
    frames::reactive(&mut app);
    // After `reactive`: a measurement hook may undo the window's resting.
    #[cfg(feature = "dev")]
    app.add_plugins(dev_tools::plugin);
    if let Some(start) = start {
        app.insert_resource(start);
    }
    if let Some(edit) = edit {
        app.insert_resource(edit);
    }
    if let Some(arena) = arena {
        app.insert_resource(arena);
    }
    if let Some(online) = online {
        app.insert_resource(online);
    }
    app.add_systems(Startup, spawn_camera);
    match app.run() {
        AppExit::Success => Ok(ExitCode::SUCCESS),
        AppExit::Error(code) => Ok(ExitCode::from(code.get())),
    }
}

/// How the window's asset server reads level files: watching them for
/// edits, and without looking for `.meta` files beside them (there are none).
pub fn asset_plugin() -> AssetPlugin {
    AssetPlugin {
        watch_for_changes_override: Some(true),
        meta_check: bevy::asset::AssetMetaCheck::Never,
        ..default()
    }
}

/// Everything that works without a window: states, settings, game sessions,
/// board entities, levels as assets with hot reload. Headless tests build an
/// `App` with this, after registering `levels::LevelSources`.
pub fn plugin(app: &mut App) {
    app.add_plugins((
        screen::plugin,
        settings::plugin,
        frames::plugin,
        session::plugin,
        board::plugin,
        levels::plugin,
        online::plugin,
        online::start::plugin,
        teach::plugin,
    ));
    app.init_resource::<help::ScreenKeys>().init_resource::<ask::Asking>();
    for game in GAMES {
        game(app);
    }
}

/// The board camera, and above it a camera that draws only egui, over the
/// whole window.
fn spawn_camera(mut commands: Commands, mut egui_settings: ResMut<EguiGlobalSettings>) {
    egui_settings.auto_create_primary_context = false;
    commands.spawn((Camera2d, board::BoardCamera, board::board_projection()));
    commands.spawn((
        PrimaryEguiContext,
        Camera2d,
        RenderLayers::none(),
        Camera {
            order: 1,
            output_mode: CameraOutputMode::Write {
                blend_state: Some(BlendState::ALPHA_BLENDING),
                clear_color: ClearColorConfig::None,
            },
            clear_color: ClearColorConfig::Custom(Color::NONE),
            ..default()
        },
    ));
}

#[cfg(all(test, target_os = "linux"))]
mod tests {
    use super::display_problem;

    #[test]
    fn a_missing_display_is_named_before_bevy_would_panic() {
        assert!(display_problem(None).unwrap().starts_with("DISPLAY is not set"));
        assert!(display_problem(Some("".into())).is_some());
        let problem = display_problem(Some(":4321".into())).unwrap();
        assert!(problem.starts_with("no X server is running on display :4321"), "{problem}");
        assert_eq!(display_problem(Some("remote.example:0".into())), None, "remote displays are not probed");
    }
}
