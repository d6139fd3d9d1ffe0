//! The solver's folder: where each file it keeps lies, and the format each
//! is written in. Every file says what it is and in which version before
//! anything else (the endgame tiers and the teacher's book with their own
//! headers; the tables of bounds, the checkpoints and the results here), so
//! an old or foreign file is refused by its name, never loaded as something
//! it is not.
//!
//! ```text
//! <data folder>/kalah/                       default_dir()
//!   <pits>-<capture>-<sweep|nosweep>/        a set of rules (Rules::tag)
//!     tier-NNN.db                            the endgame tier of NNN stones (endgame.rs)
//!     teacher.table, teacher.margins         a teacher's bounds and proven margins (book.rs)
//!     solve-<pits>x<stones>.checkpoint.ron   a solve under way, and its table
//!     solve-<pits>x<stones>.table
//!     solved-<pits>x<stones>.ron             a finished solve
//! ```

use std::io::{Read, Write};
use std::path::{Path, PathBuf};

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

use super::Rules;
use crate::mancala::MancalaLevel;

/// The folder's name in the data folder.
const FOLDER: &str = "kalah";

/// Where `tabula solve` and the teachers keep what they build unless told
/// otherwise: `kalah/` in the data folder (`$TABULA_DATA_DIR`, else
/// `$XDG_DATA_HOME/tabula`, else `~/.local/share/tabula`).
pub fn default_dir() -> PathBuf {
    crate::core::data_dir().join(FOLDER)
}

/// The folder of a set of rules under `dir`.
fn rules_dir(dir: &Path, rules: Rules) -> PathBuf {
    dir.join(rules.tag())
}

/// Where the tier of `stones` stones of `rules` is kept under `dir`.
pub fn tier(dir: &Path, rules: Rules, stones: u32) -> PathBuf {
    rules_dir(dir, rules).join(format!("tier-{stones:03}.db"))
}

/// Where a teacher's table of bounds is kept: one a set of rules, since
/// its bounds are true of the positions whatever level they came from.
pub fn teacher_table(dir: &Path, rules: Rules) -> PathBuf {
    rules_dir(dir, rules).join("teacher.table")
}

/// Where the margins a teacher proved for `rules` are kept under `dir`.
pub fn book(dir: &Path, rules: Rules) -> PathBuf {
    rules_dir(dir, rules).join("teacher.margins")
}

/// The files of a solve of one level: its checkpoint, the table the
/// checkpoint goes with, and the finished result.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SolveFiles {
    pub checkpoint: PathBuf,
    pub table: PathBuf,
    pub result: PathBuf,
}

/// The files of a solve of `level` under `dir`.
pub fn solve(dir: &Path, level: &MancalaLevel) -> SolveFiles {
    let base = rules_dir(dir, Rules::of(level));
    let name = format!("{}x{}", level.pits, level.stones);
    SolveFiles {
        checkpoint: base.join(format!("solve-{name}.checkpoint.ron")),
        table: base.join(format!("solve-{name}.table")),
        result: base.join(format!("solved-{name}.ron")),
    }
}

/// A file left aside: what it is, and why it was not loaded.
#[derive(Debug, thiserror::Error)]
pub enum Refused {
    #[error("{path}: {error}")]
    Io { path: PathBuf, error: std::io::Error },
    #[error(
        "{path}: not {what} as this tabula writes it (an older tabula's, another program's, or cut short)"
    )]
    Foreign { path: PathBuf, what: &'static str },
    #[error("{path}: {what} in format {found}; this tabula reads format {reads} (it is made again)")]
    OtherVersion { path: PathBuf, what: &'static str, found: u32, reads: u32 },
}

/// A table of bounds' first bytes: what it is, its version, its slots.
const TABLE_MAGIC: &[u8; 16] = b"tabula kalah tt\n";
const TABLE_VERSION: u32 = 1;
/// The header's length: magic, version, four bytes unused, the slots.
pub(super) const TABLE_HEADER: usize = 32;
const TABLE: &str = "a tabula table of proven bounds";

/// The header a table of `slots` slots is written with.
pub(super) fn table_header(slots: u64) -> [u8; TABLE_HEADER] {
    let mut h = [0u8; TABLE_HEADER];
    h[..16].copy_from_slice(TABLE_MAGIC);
    h[16..20].copy_from_slice(&TABLE_VERSION.to_le_bytes());
    h[24..32].copy_from_slice(&slots.to_le_bytes());
    h
}

/// Reads a table's header from `file` (at `path`): its number of slots, or
/// why the file is refused.
pub(super) fn read_table_header(file: &mut impl Read, path: &Path) -> Result<u64, Refused> {
    let mut h = [0u8; TABLE_HEADER];
    let foreign = || Refused::Foreign { path: path.to_owned(), what: TABLE };
    file.read_exact(&mut h).map_err(|_| foreign())?;
    if &h[..16] != TABLE_MAGIC {
        return Err(foreign());
    }
    let found = u32::from_le_bytes(h[16..20].try_into().expect("four bytes"));
    if found != TABLE_VERSION {
        return Err(Refused::OtherVersion {
            path: path.to_owned(),
            what: TABLE,
            found,
            reads: TABLE_VERSION,
        });
    }
    Ok(u64::from_le_bytes(h[24..32].try_into().expect("eight bytes")))
}

/// A checkpoint or a result as kept: what it is and its version first.
#[derive(Serialize, Deserialize)]
struct Kept<T> {
    kept: String,
    format: u32,
    body: T,
}

/// What a kept RON file says it is: its name and its version.
#[derive(Deserialize)]
struct Label {
    kept: String,
    format: u32,
}

/// The version checkpoints and results are written in.
const KEPT_VERSION: u32 = 1;
pub(super) const CHECKPOINT: &str = "a tabula solve checkpoint";
pub(super) const RESULT: &str = "a tabula solve result";

/// Writes `body` to `path` as `what`, through a temporary file (a kill
/// leaves the old file or the new, never half of one).
pub(super) fn write_kept<T: Serialize>(path: &Path, what: &str, body: &T) -> std::io::Result<()> {
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent)?;
    }
    let kept = Kept { kept: what.to_owned(), format: KEPT_VERSION, body };
    let tmp = path.with_extension("tmp");
    let mut file = std::fs::File::create(&tmp)?;
    file.write_all(ron::to_string(&kept).expect("plain data").as_bytes())?;
    file.sync_all()?;
    std::fs::rename(tmp, path)
}

/// Reads `what` back from `path`; `Ok(None)` if there is no such file.
pub(super) fn read_kept<T: DeserializeOwned>(path: &Path, what: &'static str) -> Result<Option<T>, Refused> {
    let text = match std::fs::read_to_string(path) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(error) => return Err(Refused::Io { path: path.to_owned(), error }),
    };
    let foreign = || Refused::Foreign { path: path.to_owned(), what };
    let label: Label = ron::Options::default()
        .without_recursion_limit()
        .from_str::<Label>(&text)
        .ok()
        .filter(|l| l.kept == what)
        .ok_or_else(foreign)?;
    if label.format != KEPT_VERSION {
        return Err(Refused::OtherVersion {
            path: path.to_owned(),
            what,
            found: label.format,
            reads: KEPT_VERSION,
        });
    }
    let kept: Kept<T> = ron::from_str(&text).map_err(|_| foreign())?;
    Ok(Some(kept.body))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dir(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("tabula-files-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    #[test]
    fn a_kept_file_is_read_back_and_an_old_or_foreign_one_refused_by_name() {
        let dir = dir("kept");
        let path = dir.join("solved-6x4.ron");
        write_kept(&path, RESULT, &vec![1u8, 2, 3]).unwrap();
        assert_eq!(read_kept::<Vec<u8>>(&path, RESULT).unwrap(), Some(vec![1, 2, 3]));
        assert!(matches!(read_kept::<Vec<u8>>(&path, CHECKPOINT), Err(Refused::Foreign { .. })));
        // As results were kept before they said what they are.
        std::fs::write(&path, "(value: 8, moves: [])").unwrap();
        let refused = read_kept::<Vec<u8>>(&path, RESULT).unwrap_err();
        assert!(refused.to_string().starts_with(&path.display().to_string()), "{refused}");
        std::fs::write(&path, "(kept: \"a tabula solve result\", format: 9, body: [1])").unwrap();
        assert!(matches!(read_kept::<Vec<u8>>(&path, RESULT), Err(Refused::OtherVersion { found: 9, .. })));
        assert_eq!(read_kept::<Vec<u8>>(&dir.join("none.ron"), RESULT).unwrap(), None);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_table_header_says_what_it_is_and_an_old_table_is_refused() {
        let path = Path::new("t.table");
        let mut header = table_header(1 << 20).to_vec();
        assert_eq!(read_table_header(&mut header.as_slice(), path).unwrap(), 1 << 20);
        // A table as written before: its length word only.
        let old = (1u64 << 20).to_le_bytes().repeat(4);
        assert!(matches!(read_table_header(&mut old.as_slice(), path), Err(Refused::Foreign { .. })));
        header[16] = 2;
        assert!(matches!(
            read_table_header(&mut header.as_slice(), path),
            Err(Refused::OtherVersion { found: 2, .. })
        ));
    }

    #[test]
    fn the_layout_is_one_folder_a_set_of_rules() {
        let level = crate::mancala::rules::tests::level(6, 4, crate::mancala::Capture::Standard, true);
        let files = solve(Path::new("/d"), &level);
        let rules = Path::new("/d").join(Rules::of(&level).tag());
        assert_eq!(files.result, rules.join("solved-6x4.ron"));
        assert_eq!(tier(Path::new("/d"), Rules::of(&level), 7), rules.join("tier-007.db"));
        assert_eq!(teacher_table(Path::new("/d"), Rules::of(&level)).parent(), Some(rules.as_path()));
    }
}
