//! The layout tabula writes level files in, the same from the editor and
//! from `tabula fmt`: the game's name, one field a line, short values on
//! their line, long lists one item a line (a board drawn as rows of text,
//! its pieces one a line). Every shipped level is in this layout, so saving
//! one unedited changes no byte; `crate::format` keeps a file's comment
//! lines at its top and names any other comment, which cannot be kept.

use serde::Serialize;

use crate::core::{Heading, Level};

const INDENT: &str = "    ";
/// Lines are kept to this many columns where a list can be broken.
const WIDTH: usize = 100;

/// One value on one line: `(id: 'A', at: (0, 0), facing: South)`,
/// `[5, 6, 7]`, `"Mary's"` (strings as people write them, not escaped).
pub fn inline<T: Serialize + ?Sized>(value: &T) -> String {
    let config = ron::ser::PrettyConfig::new()
        .escape_strings(false)
        .struct_names(false)
        .compact_arrays(true)
        .compact_structs(true)
        .compact_maps(true)
        .new_line("")
        .indentor("");
    ron::ser::to_string_pretty(value, config).expect("levels serialise")
}

/// Writes a level's fields, one a line, nested lists and structs indented.
pub struct Layout {
    text: String,
    depth: usize,
}

impl Layout {
    /// Opens `Game(` and writes the fields every level opens with: name,
    /// description, and its group unless it is a game.
    pub fn of(game: &str, level: &impl Level) -> Layout {
        let mut layout = Layout { text: format!("{game}(\n"), depth: 1 };
        let Heading { name, description, group } = level.heading();
        layout.field("name", name).field("description", description);
        if !group.is_game() {
            layout.field("group", &group);
        }
        layout
    }

    fn line(&mut self, line: &str) {
        for _ in 0..self.depth {
            self.text.push_str(INDENT);
        }
        self.text.push_str(line);
        self.text.push('\n');
    }

    /// `name: value,` on one line.
    pub fn field<T: Serialize + ?Sized>(&mut self, name: &str, value: &T) -> &mut Layout {
        // RON marks a variant named `None` as `r#None` (not Option's); level
        // files read the plain word.
        let value = inline(value);
        self.line(&format!("{name}: {},", value.strip_prefix("r#").unwrap_or(&value)));
        self
    }

    /// The field, unless it holds the value a file without it reads as.
    pub fn optional<T: Serialize + PartialEq>(&mut self, name: &str, value: &T, default: &T) -> &mut Layout {
        if value != default {
            self.field(name, value);
        }
        self
    }

    /// `name: [` then one item a line, then `],` (`name: [],` when empty).
    pub fn rows<T: Serialize>(&mut self, name: &str, items: &[T]) -> &mut Layout {
        if items.is_empty() {
            return self.field(name, items);
        }
        self.line(&format!("{name}: ["));
        self.depth += 1;
        for item in items {
            self.line(&format!("{},", inline(item)));
        }
        self.depth -= 1;
        self.line("],");
        self
    }

    /// `name: [a, b],` on one line when it fits in 100 columns, else rows.
    pub fn list<T: Serialize>(&mut self, name: &str, items: &[T]) -> &mut Layout {
        let one = format!("{name}: {},", inline(items));
        if self.fits(&one) { self.item(&one) } else { self.rows(name, items) }
    }

    /// Whether `line` fits in 100 columns where the next line goes.
    pub fn fits(&self, line: &str) -> bool {
        self.depth * INDENT.len() + line.chars().count() <= WIDTH
    }

    /// A line as it is, at the current depth.
    pub fn item(&mut self, line: &str) -> &mut Layout {
        self.line(line);
        self
    }

    /// `name: <open>` and the lines that follow, one level deeper, until
    /// [`Layout::close`].
    pub fn open(&mut self, name: &str, open: &str) -> &mut Layout {
        self.begin(&format!("{name}: {open}"))
    }

    /// A line (`(`, say) and the lines that follow, one level deeper.
    pub fn begin(&mut self, line: &str) -> &mut Layout {
        self.line(line);
        self.depth += 1;
        self
    }

    /// Ends what [`Layout::open`] or [`Layout::begin`] began with `close`
    /// (`)),` say).
    pub fn close(&mut self, close: &str) -> &mut Layout {
        self.depth -= 1;
        self.line(close);
        self
    }

    /// The level's text, closed with `)`.
    pub fn finish(mut self) -> String {
        self.text.push_str(")\n");
        self.text
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn inline_values_read_as_people_write_them() {
        assert_eq!(inline(&[5u32, 6, 7][..]), "[5, 6, 7]");
        assert_eq!(inline("Mary's"), "\"Mary's\"");
        // Quotes inside: a raw string, read back as written.
        assert_eq!(inline("a \"best\" move"), "r#\"a \"best\" move\"#");
        assert_eq!(inline(&(1u16, 2u16)), "(1, 2)");
    }
}
