//! Settings kept between runs: player names, sound, animation speed,
//! whether finished games are saved as replays, and the last level played.

use std::path::PathBuf;

use bevy::prelude::*;
use serde::{Deserialize, Serialize};

/// The most seats any game has.
pub const MAX_SEATS: usize = 8;
const DEFAULT_NAMES: [&str; MAX_SEATS] = ["John", "Mary", "Ada", "Ben", "Cleo", "Dev", "Eve", "Finn"];

#[derive(Resource, Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Settings {
    /// Names of seats 1 to 8.
    pub names: Vec<String>,
    pub sound: bool,
    /// 0 to 1.
    pub volume: f32,
    /// Multiplies animation speed: 0.25 (slow) to 4 (fast).
    pub animation_speed: f32,
    /// AI moves per second when watching.
    pub ai_moves_per_second: f32,
    /// Every finished game is saved as a replay.
    pub save_finished_games: bool,
    /// The level of the last game started: the menu opens on it.
    pub last_level: Option<PathBuf>,
    /// The games (by level folder) played on a new board each game, dealt
    /// like the level chosen.
    pub dealt: Vec<String>,
}

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            names: DEFAULT_NAMES.map(String::from).to_vec(),
            sound: true,
            volume: 0.7,
            animation_speed: 1.0,
            ai_moves_per_second: 2.0,
            save_finished_games: true,
            last_level: None,
            dealt: Vec::new(),
        }
    }
}

impl Settings {
    /// Whether the game of level folder `folder` deals a new board each game.
    pub fn deals(&self, folder: &str) -> bool {
        self.dealt.iter().any(|f| f == folder)
    }

    pub fn set_deals(&mut self, folder: &str, on: bool) {
        self.dealt.retain(|f| f != folder);
        if on {
            self.dealt.push(folder.to_owned());
        }
    }

    /// Clamps values a hand-edited file may have put out of range.
    fn sanitised(mut self) -> Settings {
        self.volume = self.volume.clamp(0.0, 1.0);
        self.animation_speed = self.animation_speed.clamp(0.25, 4.0);
        self.ai_moves_per_second = self.ai_moves_per_second.clamp(0.25, 30.0);
        // Files from before eight seats hold two names.
        self.names.resize(MAX_SEATS, String::new());
        self.names.truncate(MAX_SEATS);
        for (name, default) in self.names.iter_mut().zip(DEFAULT_NAMES) {
            if name.trim().is_empty() {
                *name = default.to_owned();
            }
        }
        self
    }

    /// The name of seat `i` (0-based).
    pub fn name(&self, i: usize) -> String {
        // As the panels name a seat without a name.
        self.names.get(i).cloned().unwrap_or_else(|| tabula_engine::Player(i as u8).to_string())
    }
}

pub use tabula_engine::core::{config_dir, data_dir};

/// Where settings are kept; insert it before the plugin to use another file.
#[derive(Resource, Clone, Debug)]
pub struct SettingsFile(pub PathBuf);

impl Default for SettingsFile {
    fn default() -> SettingsFile {
        SettingsFile(config_dir().join("settings.ron"))
    }
}

/// The saved settings, or the defaults when there are none or they are broken
/// (a warning says which).
pub fn load(path: &std::path::Path) -> Settings {
    match std::fs::read_to_string(path) {
        Ok(text) => match ron::from_str::<Settings>(&text) {
            Ok(s) => s.sanitised(),
            Err(e) => {
                warn!("{}: {e}; using default settings", path.display());
                Settings::default()
            }
        },
        Err(_) => Settings::default(),
    }
}

pub fn save(settings: &Settings, path: &std::path::Path) -> std::io::Result<()> {
    let text =
        ron::ser::to_string_pretty(settings, ron::ser::PrettyConfig::new()).expect("settings serialise");
    tabula_engine::level::write_atomically(path, &text)
}

/// Seconds since the last unsaved change (a dragged slider changes the
/// settings every frame, so they are written once it rests), and the
/// settings as last seen: a panel that binds a slider to them marks them
/// changed every frame it draws, changed or not.
#[derive(Resource, Default)]
struct UnsavedFor {
    idle: Option<f32>,
    seen: Option<Settings>,
}

const SAVE_AFTER: f32 = 0.5;

pub(super) fn plugin(app: &mut App) {
    let file = app.world_mut().get_resource_or_init::<SettingsFile>().clone();
    let loaded = load(&file.0);
    app.insert_resource(UnsavedFor { idle: None, seen: Some(loaded.clone()) })
        .insert_resource(loaded)
        .add_systems(Last, save_when_changed.before(crate::app::frames::ask_for_the_next_frame));
}

fn save_when_changed(
    time: Res<Time>,
    settings: Res<Settings>,
    file: Res<SettingsFile>,
    mut unsaved: ResMut<UnsavedFor>,
    mut exits: MessageReader<AppExit>,
    mut next: ResMut<crate::app::frames::NextFrame>,
) {
    if settings.is_changed() && unsaved.seen.as_ref() != Some(&*settings) {
        unsaved.seen = Some(settings.clone());
        unsaved.idle = Some(0.0);
    }
    let exiting = exits.read().count() > 0;
    let Some(idle) = unsaved.idle.as_mut() else { return };
    *idle += time.delta_secs();
    // A resting window draws no frames: it is kept awake until the change
    // is written, so a window killed a moment later has kept it.
    next.ask();
    if *idle >= SAVE_AFTER || exiting {
        unsaved.idle = None;
        if let Err(e) = save(&settings, &file.0) {
            warn!("cannot save settings to {}: {e}", file.0.display());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn settings_survive_a_save_and_load() {
        let dir = std::env::temp_dir().join(format!("tabula-settings-{}", std::process::id()));
        let path = dir.join("settings.ron");
        let mut s = Settings { sound: false, ..default() };
        s.names[0] = "Ann".into();
        s.names[7] = "Zoe".into();
        save(&s, &path).unwrap();
        assert_eq!(load(&path), s);
        std::fs::write(&path, "(names: [\"Ann\", \"Bob\"])").unwrap();
        let old = load(&path);
        assert_eq!(old.names.len(), MAX_SEATS, "a two-seat file gets the other six names");
        assert_eq!((old.name(1).as_str(), old.name(2).as_str()), ("Bob", "Ada"));
        std::fs::write(&path, "(volume: oops)").unwrap();
        assert_eq!(load(&path), Settings::default(), "a broken file falls back to the defaults");
        std::fs::remove_dir_all(dir).unwrap();
    }

    #[test]
    fn out_of_range_values_are_clamped() {
        let s =
            Settings { volume: 3.0, animation_speed: 0.0, names: vec![" ".into(), "B".into()], ..default() };
        let s = s.sanitised();
        assert_eq!(s.volume, 1.0);
        assert_eq!(s.animation_speed, 0.25);
        assert_eq!(s.names[..3], ["John".to_string(), "B".to_string(), "Ada".to_string()]);
    }
}
