//! Where tabula keeps its files: the same folders for the window, the
//! command line and the engine's databases.

use std::path::PathBuf;

/// `$TABULA_CONFIG_DIR`, else `$XDG_CONFIG_HOME/tabula`, else `~/.config/tabula`.
pub fn config_dir() -> PathBuf {
    dir_from_env("TABULA_CONFIG_DIR", "XDG_CONFIG_HOME", ".config")
}

/// `$TABULA_DATA_DIR`, else `$XDG_DATA_HOME/tabula`, else `~/.local/share/tabula`.
pub fn data_dir() -> PathBuf {
    dir_from_env("TABULA_DATA_DIR", "XDG_DATA_HOME", ".local/share")
}

fn dir_from_env(own: &str, xdg: &str, home_default: &str) -> PathBuf {
    if let Some(dir) = std::env::var_os(own) {
        return PathBuf::from(dir);
    }
    let base = std::env::var_os(xdg).map(PathBuf::from).unwrap_or_else(|| {
        std::env::var_os("HOME").map(PathBuf::from).unwrap_or_else(|| PathBuf::from(".")).join(home_default)
    });
    base.join("tabula")
}
