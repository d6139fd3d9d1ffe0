//! Level files in tabula's layout (`crate::layout`): what the editor saves
//! and `tabula fmt` writes. The comment lines at the top of a file are
//! kept; any other comment cannot be, and is named so that the editor and
//! `tabula fmt` say so before they write over it.

use crate::level::{self, LevelError, LevelFile};

/// A level file laid out: its text, and the comments that could not be kept.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Formatted {
    pub text: String,
    /// Each comment below the file's first lines, by line (from 1) and text.
    pub lost_comments: Vec<(usize, String)>,
}

/// `text`, a level file (checked for syntax only, so that work in progress
/// can be laid out), in tabula's layout; `file` names it in errors.
pub fn format(text: &str, file: &str) -> Result<Formatted, LevelError> {
    let level = level::read_unchecked(text, file)?;
    let (header, rest) = split_header(text);
    Ok(Formatted { text: format!("{header}{}", level.layout()), lost_comments: comments(rest, header) })
}

/// The file's text for `level`, with `header` (comment lines) above it.
pub fn with_header(level: &LevelFile, header: &str) -> String {
    format!("{header}{}", level.layout())
}

/// The comment lines (and blank lines among them) at the top of a file, and
/// the rest.
pub fn split_header(text: &str) -> (&str, &str) {
    let mut end = 0;
    for line in text.split_inclusive('\n') {
        let trimmed = line.trim();
        if !(trimmed.starts_with("//") || trimmed.is_empty()) {
            break;
        }
        end += line.len();
    }
    text.split_at(end)
}

/// The comments in `rest` (the file after its header), outside strings and
/// character literals, each with its line in the whole file.
fn comments(rest: &str, header: &str) -> Vec<(usize, String)> {
    let first_line = header.matches('\n').count() + 1;
    let mut found = Vec::new();
    let mut in_string = false;
    let mut chars = rest.char_indices().peekable();
    while let Some((i, c)) = chars.next() {
        match c {
            '"' => in_string = !in_string,
            '\\' if in_string => {
                chars.next();
            }
            // 'x' and '"': a character literal, whatever it holds.
            '\'' if !in_string => {
                let close = rest[i + 1..].char_indices().take(3).find(|&(_, c)| c == '\'');
                if let Some((n, _)) = close {
                    while chars.peek().is_some_and(|&(j, _)| j <= i + 1 + n) {
                        chars.next();
                    }
                }
            }
            '/' if !in_string && matches!(chars.peek(), Some((_, '/' | '*'))) => {
                let block = chars.peek().is_some_and(|&(_, c)| c == '*');
                let end = if block {
                    rest[i..].find("*/").map_or(rest.len(), |e| i + e + 2)
                } else {
                    rest[i..].find('\n').map_or(rest.len(), |e| i + e)
                };
                let line = first_line + rest[..i].matches('\n').count();
                found.push((line, rest[i..end].trim_end().to_owned()));
                while chars.peek().is_some_and(|&(j, _)| j < end) {
                    chars.next();
                }
            }
            _ => {}
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::robots::generate::{Plan, generate};

    /// Every shipped level, saved unedited, is byte for byte its file.
    #[test]
    fn every_shipped_level_is_in_the_layout_and_reads_back_the_same() {
        let root = crate::manifest_dir().join("../../levels");
        let mut count = 0;
        for game in std::fs::read_dir(&root).unwrap() {
            for file in std::fs::read_dir(game.unwrap().path()).unwrap() {
                let path = file.unwrap().path();
                let text = std::fs::read_to_string(&path).unwrap();
                let name = path.display().to_string();
                let formatted = format(&text, &name).unwrap();
                assert_eq!(formatted.text, text, "{name}");
                assert!(formatted.lost_comments.is_empty(), "{name}");
                let level = level::parse(&text, &name).unwrap();
                let (header, _) = split_header(&text);
                assert_eq!(with_header(&level, header), text, "{name}: from the level itself");
                count += 1;
            }
        }
        assert!(count >= 38, "{count} levels");
    }

    #[test]
    fn generated_boards_read_back_as_the_same_level() {
        for seed in 0..20 {
            let plan = Plan::new(12 + seed as usize, 9, 3, 2, seed);
            let made = LevelFile::new::<crate::robots::Robots>(generate(plan).unwrap());
            let text = made.layout();
            assert_eq!(level::parse(&text, "generated").unwrap(), made);
            assert_eq!(format(&text, "generated").unwrap().text, text);
        }
    }

    #[test]
    fn comments_below_the_header_are_named_with_their_lines_and_strings_are_not_comments() {
        let text = "// kept\n\nNim(\n    name: \"a // b\",\n    description: \"\",\n    piles: [1, 2], // why two\n    /* gone */ ending: Normal,\n)\n";
        let formatted = format(text, "t.ron").unwrap();
        assert!(formatted.text.starts_with("// kept\n\nNim(\n"), "{}", formatted.text);
        assert_eq!(formatted.lost_comments, vec![(6, "// why two".to_owned()), (7, "/* gone */".to_owned())]);
        assert!(formatted.text.contains("piles: [1, 2],\n"));
        let chars = "Robots(name: \"x\", board: [\"a.\"], robots: [(id: '/', at: (0, 0), facing: North, rule: A, player: 1)])";
        assert!(comments(chars, "").is_empty());
    }

    #[test]
    fn a_level_with_a_broken_rule_is_laid_out_all_the_same() {
        // No stones at all: not a level to play, but one being written.
        let text = "Nim(name: \"wip\", piles: [0], ending: Misere)";
        let formatted = format(text, "wip.ron").unwrap();
        assert_eq!(
            formatted.text,
            "Nim(\n    name: \"wip\",\n    description: \"\",\n    piles: [0],\n    ending: Misere,\n)\n"
        );
        assert!(level::parse(&formatted.text, "wip.ron").is_err(), "still breaks its rule");
    }
}
