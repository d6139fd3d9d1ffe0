//! Level files as Bevy assets. The loader reads a file through the engine's
//! own parsing and validation, so a broken file names file, line and column
//! or the rule it breaks. The files come from up to three asset sources:
//! `levels` (the shipped levels, or `$TABULA_LEVELS`), `mine` (the levels
//! the player wrote, in their data folder) and `opened`, the folder of a
//! level opened from elsewhere (`tabula play /some/dir/x.ron`). All are
//! watched: an edit saved on disk reloads the asset.

pub mod library;
pub mod reload;

use std::path::{Path, PathBuf};
use std::time::Duration;

use bevy::asset::io::{
    AssetSource, AssetSourceBuilder, AssetSourceEvent, AssetSourceId, AssetWatcher, Reader,
};
use bevy::asset::{AssetLoader, AssetPath, LoadContext};
use bevy::prelude::*;
use tabula_engine::level::{self, LevelError, LevelFile};

/// The asset source of the levels folder.
pub const LEVELS_SOURCE: &str = "levels";
/// The asset source of the player's own levels.
pub const PLAYER_SOURCE: &str = "mine";
/// The asset source of the folder of a level opened from elsewhere.
pub const OPENED_SOURCE: &str = "opened";
/// How long the watcher waits for more events of one save: editors write a
/// file in several steps, and a reload should see the last.
const WATCH_DEBOUNCE: Duration = Duration::from_millis(40);

/// A level file, read and validated.
#[derive(Asset, TypePath, Debug, Clone)]
pub struct LevelAsset(pub LevelFile);

/// A folder the asset server reads levels from.
#[derive(Clone, Debug)]
struct Source {
    id: &'static str,
    /// The folder as the user named it, for messages.
    shown: PathBuf,
    /// The folder as the asset server opens it.
    absolute: PathBuf,
}

/// The folders of the level asset sources.
#[derive(Resource, Clone, Debug)]
pub struct LevelSources(Vec<Source>);

impl LevelSources {
    /// The levels folder, and the folder of `opened` when it lies outside it.
    pub fn new(levels: &Path, opened: Option<&Path>) -> LevelSources {
        Self::with_player(levels, None, opened)
    }

    /// The levels folder, the player's own (`mine`, made if need be, so
    /// that it is watched from the start), and the folder of `opened` when
    /// it lies outside both.
    pub fn with_player(levels: &Path, mine: Option<&Path>, opened: Option<&Path>) -> LevelSources {
        let source = |id, dir: &Path| Source { id, shown: dir.to_owned(), absolute: absolute(dir) };
        let mut sources = vec![source(LEVELS_SOURCE, levels)];
        if let Some(mine) = mine {
            if let Err(e) = std::fs::create_dir_all(mine) {
                warn!("cannot make the folder of your levels, {}: {e}", mine.display());
            }
            let mine = source(PLAYER_SOURCE, mine);
            if !mine.absolute.starts_with(&sources[0].absolute)
                && !sources[0].absolute.starts_with(&mine.absolute)
            {
                sources.push(mine);
            }
        }
        if let Some(file) = opened {
            let dir = file.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(Path::new("."));
            let file = absolute(file);
            if !sources.iter().any(|s| file.starts_with(&s.absolute)) {
                sources.push(source(OPENED_SOURCE, dir));
            }
        }
        LevelSources(sources)
    }

    /// Registers the sources with their watchers; before `AssetPlugin`.
    pub fn register(&self, app: &mut App) {
        for source in &self.0 {
            let dir = source.absolute.display().to_string();
            app.register_asset_source(
                source.id,
                AssetSourceBuilder::new(AssetSource::get_default_reader(dir.clone()))
                    .with_watcher(waking_watcher(dir)),
            );
        }
        app.insert_resource(self.clone());
    }

    /// The asset path of a level file, if it lies in one of the folders.
    pub fn asset_path(&self, file: &Path) -> Option<AssetPath<'static>> {
        let file = absolute(file);
        self.0.iter().find_map(|s| {
            let inside = file.strip_prefix(&s.absolute).ok()?;
            Some(AssetPath::from_path_buf(inside.to_owned()).with_source(AssetSourceId::from(s.id)))
        })
    }

    /// The file an asset path names, as the user names its folder.
    pub fn file(&self, path: &AssetPath) -> PathBuf {
        let source = match path.source() {
            AssetSourceId::Name(name) => self.0.iter().find(|s| s.id == &**name),
            AssetSourceId::Default => None,
        };
        match source {
            Some(s) => s.shown.join(path.path()),
            None => path.path().to_owned(),
        }
    }

    /// The levels folder as the user names it.
    pub fn levels_folder(&self) -> &Path {
        &self.0[0].shown
    }

    /// The folder of the player's own levels, when the window lists them.
    pub fn player_folder(&self) -> Option<&Path> {
        self.0.iter().find(|s| s.id == PLAYER_SOURCE).map(|s| s.shown.as_path())
    }

    /// The folders the menu lists levels from: the levels folder, then the
    /// player's, each with whether it is the player's.
    pub fn listed_folders(&self) -> impl Iterator<Item = (&Path, bool)> {
        self.0.iter().filter(|s| s.id != OPENED_SOURCE).map(|s| (s.shown.as_path(), s.id == PLAYER_SOURCE))
    }
}

/// Bevy's file watcher for `dir`, whose events also wake the window: at rest
/// it would otherwise take them in only when it next wakes by itself.
fn waking_watcher(
    dir: String,
) -> impl FnMut(async_channel::Sender<AssetSourceEvent>) -> Option<Box<dyn AssetWatcher>> + Send + Sync {
    move |to_bevy| {
        let (to_us, from_watcher) = async_channel::unbounded();
        // Bevy's own constructor panics on a folder it cannot watch (an
        // unreadable subfolder, the system's watch limit): that costs hot
        // reload, not the game.
        let watching =
            match bevy::asset::io::file::FileWatcher::new(PathBuf::from(&dir), to_us, WATCH_DEBOUNCE) {
                Ok(w) => Box::new(w) as Box<dyn AssetWatcher>,
                Err(e) => {
                    warn!("level files in {dir} will not reload on save: {e:?}");
                    return None;
                }
            };
        let forward = move || {
            while let Ok(event) = from_watcher.recv_blocking() {
                if to_bevy.send_blocking(event).is_err() {
                    break;
                }
                crate::app::frames::wake();
            }
        };
        std::thread::Builder::new().name("level file watcher".into()).spawn(forward).ok()?;
        Some(watching)
    }
}

/// `dir` from the root, without `.` or `..`; left as it is when it does
/// not exist (the asset server then reports the missing file).
fn absolute(dir: &Path) -> PathBuf {
    std::fs::canonicalize(dir).unwrap_or_else(|_| std::path::absolute(dir).unwrap_or_else(|_| dir.to_owned()))
}

/// Reads level files with the engine's parser.
#[derive(TypePath)]
struct LevelLoader {
    sources: LevelSources,
}

impl AssetLoader for LevelLoader {
    type Asset = LevelAsset;
    type Settings = ();
    type Error = LevelError;

    async fn load(
        &self,
        reader: &mut dyn Reader,
        _settings: &(),
        load_context: &mut LoadContext<'_>,
    ) -> Result<LevelAsset, LevelError> {
        let file = self.sources.file(load_context.path()).display().to_string();
        let mut bytes = Vec::new();
        reader
            .read_to_end(&mut bytes)
            .await
            .map_err(|e| LevelError::Io { file: file.clone(), message: e.to_string() })?;
        let text = String::from_utf8(bytes).map_err(|_| LevelError::Io {
            file: file.clone(),
            message: "the file is not UTF-8 text".into(),
        })?;
        level::parse(&text, &file).map(LevelAsset)
    }

    fn extensions(&self) -> &[&str] {
        &["ron"]
    }
}

/// What went wrong reading a level asset, in the engine's words when it was
/// the level itself.
pub fn load_error(error: &bevy::asset::AssetLoadError) -> String {
    if let bevy::asset::AssetLoadError::AssetLoaderError(e) = error
        && let Some(level) = e.error().downcast_ref::<LevelError>()
    {
        return level.to_string();
    }
    error.to_string()
}

/// The level asset type and its loader. The sources are registered before
/// the asset plugin (`LevelSources::register`); an app that did not (some
/// tests) reads no level files through the asset server.
pub(super) fn plugin(app: &mut App) {
    let sources = app.world().get_resource::<LevelSources>().cloned();
    let sources = sources.unwrap_or_else(|| LevelSources::new(&library::levels_root(), None));
    app.insert_resource(sources.clone())
        .init_asset::<LevelAsset>()
        .register_asset_loader(LevelLoader { sources })
        .add_plugins((library::plugin, reload::plugin));
}
