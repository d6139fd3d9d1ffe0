//! What the structure tests share: where the checkout is, its Rust files,
//! and their code with comments, strings and tests blanked out (line
//! breaks kept, so that a line number is the file's). Each structure test
//! includes this module and uses what it needs.
#![allow(dead_code)]

use std::path::{Path, PathBuf};

/// The package's folder, as cargo tells the running test: a test binary
/// built by another checkout sharing the target folder still reads this
/// checkout's files (a path built in at compile time would be the other's).
pub fn manifest_dir() -> PathBuf {
    std::env::var_os("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR for tests").into()
}

/// The checkout's root (the engine is at crates/engine in it).
pub fn root() -> PathBuf {
    manifest_dir().join("../..")
}

/// Every `.rs` file under `dir`, in order.
pub fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().path()).collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// A file of tests only, by its name: `tests.rs` or `*_tests.rs` (a
/// crate's `tests/` folder is not walked by the structure tests at all).
pub fn is_test_file(path: &Path) -> bool {
    let name = path.file_name().unwrap().to_string_lossy();
    name.ends_with("_tests.rs") || name == "tests.rs"
}

/// The source with comments, strings and char literals blanked out (their
/// braces and `fn`s are not code), every line break kept where it was.
pub fn code(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    // Blanks a skipped character, keeping line breaks.
    let blank = |out: &mut String, c: char| out.push(if c == '\n' { '\n' } else { ' ' });
    while let Some(c) = chars.next() {
        match c {
            '/' if chars.peek() == Some(&'/') => {
                while let Some(&c) = chars.peek() {
                    if c == '\n' {
                        break;
                    }
                    chars.next();
                }
            }
            '/' if chars.peek() == Some(&'*') => {
                // Block comments nest.
                out.push(' ');
                let (mut depth, mut last) = (0, '/');
                for c in chars.by_ref() {
                    blank(&mut out, c);
                    match (last, c) {
                        ('/', '*') => (depth, last) = (depth + 1, ' '),
                        ('*', '/') => {
                            depth -= 1;
                            if depth == 0 {
                                break;
                            }
                            last = ' ';
                        }
                        _ => last = c,
                    }
                }
            }
            '"' => {
                let mut escaped = false;
                for c in chars.by_ref() {
                    blank(&mut out, c);
                    if !escaped && c == '"' {
                        break;
                    }
                    escaped = !escaped && c == '\\';
                }
            }
            // A raw string: r"..." or r#"..."#.
            'r' if !out.chars().next_back().is_some_and(|p| p.is_alphanumeric() || p == '_')
                && matches!(chars.peek(), Some('#' | '"')) =>
            {
                let mut hashes = 0;
                while chars.peek() == Some(&'#') {
                    hashes += 1;
                    chars.next();
                }
                if chars.peek() != Some(&'"') {
                    out.push('r');
                    out.push_str(&"#".repeat(hashes));
                    continue;
                }
                chars.next();
                let closing = format!("\"{}", "#".repeat(hashes));
                let mut inside = String::new();
                for c in chars.by_ref() {
                    blank(&mut out, c);
                    inside.push(c);
                    if inside.ends_with(&closing) {
                        break;
                    }
                }
            }
            // A char literal ('x', '\n', '\u{C0}', '{'), not a lifetime ('a).
            '\'' => {
                let rest: Vec<char> = chars.clone().take(12).collect();
                let len = if rest.first() == Some(&'\\') {
                    rest.iter().skip(2).position(|&c| c == '\'').map(|i| i + 3)
                } else {
                    (rest.get(1) == Some(&'\'')).then_some(2)
                };
                match len {
                    Some(n) => {
                        for _ in 0..n {
                            chars.next();
                        }
                        out.push_str("' '");
                    }
                    None => out.push(c),
                }
            }
            _ => out.push(c),
        }
    }
    out
}

/// Where each `#[cfg(test)]` item of `code` is, from its attribute to its
/// `;` or its matching `}`, as byte ranges.
pub fn test_items(code: &str) -> Vec<std::ops::Range<usize>> {
    const MARK: &str = "#[cfg(test)]";
    let mut items = Vec::new();
    let mut from = 0;
    while let Some(at) = code[from..].find(MARK).map(|i| from + i) {
        let after = &code[at + MARK.len()..];
        let len = match (after.find(';'), after.find('{')) {
            (Some(semi), Some(open)) if semi < open => semi + 1,
            (_, Some(open)) => {
                let mut depth = 0;
                let mut end = after.len();
                for (i, c) in after[open..].char_indices() {
                    match c {
                        '{' => depth += 1,
                        '}' => {
                            depth -= 1;
                            if depth == 0 {
                                end = open + i + 1;
                                break;
                            }
                        }
                        _ => {}
                    }
                }
                end
            }
            (Some(semi), None) => semi + 1,
            (None, None) => after.len(),
        };
        from = at + MARK.len() + len;
        items.push(at..from);
    }
    items
}

/// `code` with each `#[cfg(test)]` item blanked out (line breaks kept).
pub fn without_tests(code: &str) -> String {
    let mut out = code.to_owned();
    for item in test_items(code).into_iter().rev() {
        let blank: String = code[item.clone()].chars().map(|c| if c == '\n' { '\n' } else { ' ' }).collect();
        out.replace_range(item, &blank);
    }
    out
}

/// The lines of `text` outside its `#[cfg(test)]` items, comments and
/// blank lines counted.
pub fn lines_outside_tests(text: &str) -> usize {
    let code = code(text);
    let in_tests: usize = test_items(&code).iter().map(|r| code[r.clone()].matches('\n').count() + 1).sum();
    text.lines().count() - in_tests.min(text.lines().count())
}

/// Each function with a body in `code`: its name, the line of its `fn`
/// (from 1) and its length in lines, to its closing brace.
pub fn functions(code: &str) -> Vec<(String, usize, usize)> {
    let bytes = code.as_bytes();
    let is_ident = |b: u8| b.is_ascii_alphanumeric() || b == b'_';
    let line_at = |at: usize| 1 + bytes[..at].iter().filter(|&&b| b == b'\n').count();
    let mut found = Vec::new();
    let mut at = 0;
    while let Some(i) = code[at..].find("fn").map(|i| at + i) {
        at = i + 2;
        // The keyword, then a name: not `fn(` (a pointer type), not a part
        // of a longer word.
        if (i > 0 && is_ident(bytes[i - 1])) || !bytes.get(i + 2).is_some_and(|b| b.is_ascii_whitespace()) {
            continue;
        }
        let rest = code[i + 2..].trim_start();
        let name: String = rest.chars().take_while(|&c| c.is_alphanumeric() || c == '_').collect();
        if name.is_empty() {
            continue;
        }
        // The body's brace; a `;` outside brackets first ends a declaration.
        let mut depth = 0i32;
        let mut open = None;
        for (j, &b) in bytes.iter().enumerate().skip(i) {
            match b {
                b'(' | b'[' => depth += 1,
                b')' | b']' => depth -= 1,
                b';' if depth == 0 => break,
                b'{' if depth == 0 => {
                    open = Some(j);
                    break;
                }
                _ => {}
            }
        }
        let Some(open) = open else { continue };
        let mut braces = 0;
        let close = bytes[open..]
            .iter()
            .position(|&b| {
                braces += match b {
                    b'{' => 1,
                    b'}' => -1,
                    _ => 0,
                };
                braces == 0
            })
            .map_or(bytes.len() - 1, |k| open + k);
        found.push((name, line_at(i), line_at(close) - line_at(i) + 1));
    }
    found
}
