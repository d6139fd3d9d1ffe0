//! The seats this window holds at servers' tables, kept on disk with their
//! tokens: a window closed by mistake comes back to its seat from the
//! menu's list of games in progress.

use std::path::{Path, PathBuf};

use bevy::prelude::*;
use serde::{Deserialize, Serialize};

/// A seat at a table, and the token that is the seat.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct KeptSeat {
    pub url: String,
    pub table: String,
    /// Numbered from 1, as the server numbers seats.
    pub seat: u8,
    pub token: String,
}

/// Where the seats are kept: `online-seats.ron` in the data folder.
#[derive(Resource, Clone, Debug)]
pub struct SeatsFile(pub PathBuf);

impl Default for SeatsFile {
    fn default() -> SeatsFile {
        SeatsFile(crate::app::settings::data_dir().join("online-seats.ron"))
    }
}

/// The seats kept, the newest last; none if the file is missing or broken
/// (a broken file is not worth refusing to start over).
pub fn read(file: &Path) -> Vec<KeptSeat> {
    std::fs::read_to_string(file).ok().and_then(|text| ron::from_str(&text).ok()).unwrap_or_default()
}

fn write(file: &Path, seats: &[KeptSeat]) -> std::io::Result<()> {
    if let Some(dir) = file.parent() {
        std::fs::create_dir_all(dir)?;
    }
    let text = ron::ser::to_string_pretty(seats, ron::ser::PrettyConfig::default())
        .map_err(|e| std::io::Error::other(e.to_string()))?;
    // Written beside and renamed: a crash mid-write leaves the old list.
    let fresh = file.with_extension("ron.new");
    std::fs::write(&fresh, text)?;
    std::fs::rename(&fresh, file)
}

/// Keeps `seat` (replacing what was kept for its table and seat).
pub fn keep(file: &Path, seat: KeptSeat) -> std::io::Result<()> {
    let mut seats = read(file);
    seats.retain(|s| !(s.table == seat.table && s.seat == seat.seat && s.url == seat.url));
    seats.push(seat);
    write(file, &seats)
}

/// Forgets every seat at `table` (its game is over).
pub fn forget_table(file: &Path, table: &str) -> std::io::Result<()> {
    forget(file, |s| s.table == table)
}

/// Forgets the seat of `token` (the server no longer knows it).
pub fn forget_token(file: &Path, token: &str) -> std::io::Result<()> {
    forget(file, |s| s.token == token)
}

/// Forgets the seats that are `gone`, writing only if there were any.
fn forget(file: &Path, gone: impl Fn(&KeptSeat) -> bool) -> std::io::Result<()> {
    let mut seats = read(file);
    let before = seats.len();
    seats.retain(|s| !gone(s));
    if seats.len() == before { Ok(()) } else { write(file, &seats) }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seats_are_kept_replaced_and_forgotten() {
        let dir = std::env::temp_dir().join(format!("tabula-seats-{}", std::process::id()));
        let file = dir.join("online-seats.ron");
        let seat = |table: &str, seat: u8, token: &str| KeptSeat {
            url: "ws://127.0.0.1:7878".into(),
            table: table.into(),
            seat,
            token: token.into(),
        };
        assert!(read(&file).is_empty(), "no file, no seats");
        keep(&file, seat("t1", 1, "a")).unwrap();
        keep(&file, seat("t2", 2, "b")).unwrap();
        keep(&file, seat("t1", 1, "c")).unwrap();
        assert_eq!(read(&file), vec![seat("t2", 2, "b"), seat("t1", 1, "c")]);
        forget_token(&file, "b").unwrap();
        forget_table(&file, "t1").unwrap();
        assert!(read(&file).is_empty());
        std::fs::write(&file, "not ron").unwrap();
        assert!(read(&file).is_empty(), "a broken file reads as no seats");
        let _ = std::fs::remove_dir_all(dir);
    }
}
