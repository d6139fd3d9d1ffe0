//! The margins a teacher has proven, kept on disk: a position proven once
//! (every move's exact margin, after a search of seconds or minutes) is
//! answered at once in every later game, in this process and the next.
//!
//! The file, `teacher.margins` beside the tiers of its rules, is a header
//! line naming its format, then one record a position, appended as each is
//! proven: the 32 bytes of its pits from the mover's side, the count of its
//! moves, and for each the pit and its margin less the stores' difference
//! (a little-endian `i16`), which is what the pits alone decide. A record
//! cut short (the process killed while writing) ends the reading; a file
//! with another header is neither read nor written.
//!
//! The game ships a book in the same format for the boards whose first
//! positions take a minute each to prove (Kalah (6,4)): every position of
//! their first plies, proven once by `examples/opening_book.rs`, so that a
//! first game's opening is answered at once, before any preparation.

use std::collections::HashMap;
use std::fs::{File, OpenOptions};
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::sync::{Mutex, OnceLock};

use super::board::{Pits, Rules};
use crate::mancala::Capture;

/// The first line of a margins file, naming its format.
const HEADER: &[u8] = b"tabula kalah margins 1\n";
/// Moves a position has at most (a side's pits).
const MOST_MOVES: usize = 16;

/// A move's pit and its margin less the stores' difference.
pub(super) type Margins = Vec<(u8, i16)>;

/// Proven margins by position, and the file they are appended to.
#[derive(Debug, Default)]
pub(super) struct Book {
    known: Mutex<HashMap<Pits, Margins>>,
    /// `None` with no folder, or a file this version must not touch.
    path: Option<PathBuf>,
}

/// The book the game ships for `rules`' boards, in the file format.
fn shipped_bytes(rules: Rules) -> &'static [u8] {
    match (rules.pits, rules.capture, rules.sweep) {
        (6, Capture::Standard, true) => include_bytes!("../../../data/kalah/6-standard-sweep.margins"),
        _ => &[],
    }
}

/// The margins the game ships for `rules`' boards, read once.
pub(super) fn shipped(rules: Rules) -> &'static HashMap<Pits, Margins> {
    static SHIPPED: OnceLock<Mutex<HashMap<Rules, &'static HashMap<Pits, Margins>>>> = OnceLock::new();
    let mut all = SHIPPED.get_or_init(Default::default).lock().unwrap_or_else(|e| e.into_inner());
    all.entry(rules).or_insert_with(|| {
        let bytes = shipped_bytes(rules);
        let known = bytes.strip_prefix(HEADER).map(records).unwrap_or_default();
        Box::leak(Box::new(known))
    })
}

impl Book {
    /// The book kept at `path` for `rules`, read if it is there, over the
    /// one the game ships. A file of another format is left alone: nothing
    /// read from it, nothing added to it.
    pub(super) fn open(path: PathBuf, rules: Rules) -> Book {
        let mut book = Book { known: Mutex::new(shipped(rules).clone()), path: Some(path.clone()) };
        let Ok(mut file) = File::open(&path) else { return book };
        let mut bytes = Vec::new();
        if file.read_to_end(&mut bytes).is_err() || !bytes.starts_with(HEADER) {
            book.path = None;
            return book;
        }
        book.known.get_mut().unwrap_or_else(|e| e.into_inner()).extend(records(&bytes[HEADER.len()..]));
        book
    }

    /// The margins proven for `pits`, if any.
    pub(super) fn get(&self, pits: &Pits) -> Option<Margins> {
        self.known.lock().ok()?.get(pits).cloned()
    }

    /// Keeps the margins proven for `pits`, and appends them to the file
    /// (best effort: a book that cannot be written still serves this
    /// process).
    pub(super) fn put(&self, pits: Pits, margins: Margins) {
        let Ok(mut known) = self.known.lock() else { return };
        if known.contains_key(&pits) || margins.is_empty() || margins.len() > MOST_MOVES {
            return;
        }
        if let Some(path) = &self.path {
            let _ = append(path, &pits, &margins);
        }
        known.insert(pits, margins);
    }
}

/// Appends one record, writing the header first into a new file.
fn append(path: &Path, pits: &Pits, margins: &Margins) -> std::io::Result<()> {
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent)?;
    }
    let mut file = OpenOptions::new().create(true).append(true).open(path)?;
    let mut record = Vec::with_capacity(33 + 3 * margins.len());
    if file.metadata()?.len() == 0 {
        record.extend_from_slice(HEADER);
    }
    record.extend_from_slice(&pits.0);
    record.push(margins.len() as u8);
    for &(pit, margin) in margins {
        record.push(pit);
        record.extend_from_slice(&margin.to_le_bytes());
    }
    file.write_all(&record)
}

/// The records after the header, up to the first one cut short.
fn records(mut bytes: &[u8]) -> HashMap<Pits, Margins> {
    let mut known = HashMap::new();
    while bytes.len() > 33 {
        let count = bytes[32] as usize;
        let size = 33 + 3 * count;
        if count == 0 || count > MOST_MOVES || bytes.len() < size {
            break;
        }
        let mut pits = [0u8; 32];
        pits.copy_from_slice(&bytes[..32]);
        let margins = bytes[33..size].chunks(3).map(|m| (m[0], i16::from_le_bytes([m[1], m[2]]))).collect();
        known.insert(Pits(pits), margins);
        bytes = &bytes[size..];
    }
    known
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Rules the game ships no book for.
    const BARE: Rules = Rules { pits: 4, capture: Capture::Standard, sweep: true };

    fn pits(first: u8) -> Pits {
        let mut p = [0u8; 32];
        p[0] = first;
        p[1] = 3;
        Pits(p)
    }

    #[test]
    fn margins_kept_are_read_back_and_a_record_cut_short_ends_the_reading() {
        let dir = std::env::temp_dir().join(format!("tabula-book-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let path = dir.join("6-standard-sweep").join("teacher.margins");
        let book = Book::open(path.clone(), BARE);
        book.put(pits(1), vec![(0, 4), (1, -300)]);
        book.put(pits(2), vec![(1, 7)]);
        let again = Book::open(path.clone(), BARE);
        assert_eq!(again.get(&pits(1)), Some(vec![(0, 4), (1, -300)]));
        assert_eq!(again.get(&pits(2)), Some(vec![(1, 7)]));
        // The process killed in the middle of a record: the rest is kept.
        let mut bytes = std::fs::read(&path).unwrap();
        bytes.truncate(bytes.len() - 2);
        std::fs::write(&path, &bytes).unwrap();
        let cut = Book::open(path.clone(), BARE);
        assert_eq!(cut.get(&pits(1)), Some(vec![(0, 4), (1, -300)]));
        assert_eq!(cut.get(&pits(2)), None);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_file_of_another_format_is_neither_read_nor_written() {
        let dir = std::env::temp_dir().join(format!("tabula-book-foreign-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("teacher.margins");
        let foreign = b"tabula kalah margins 0\nwhatever".to_vec();
        std::fs::write(&path, &foreign).unwrap();
        let book = Book::open(path.clone(), BARE);
        assert_eq!(book.get(&pits(1)), None);
        book.put(pits(1), vec![(0, 4)]);
        assert_eq!(book.get(&pits(1)), Some(vec![(0, 4)]), "it serves this process");
        assert_eq!(std::fs::read(&path).unwrap(), foreign, "the file is left as it was");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
