//! No function of the window (`src/app`) is longer than 80 lines, counted
//! from the line with `fn` to its closing brace: a longer one is split into
//! helpers whose names say what each part does. This reads the sources as
//! text and links no game code; it lives in the engine's package so that it
//! builds in seconds.

use std::path::{Path, PathBuf};

const LIMIT: usize = 80;

/// The package's folder, as cargo tells the running test: a test binary
/// built by another checkout sharing the target folder still reads this
/// checkout's files (a path built in at compile time would be the other's).
fn manifest_dir() -> PathBuf {
    std::env::var_os("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR for tests").into()
}

/// Every `.rs` file under `dir`.
fn sources(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<_> = std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().path()).collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            sources(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The source with comments, strings and char literals blanked out (their
/// braces and `fn`s are not code), every line break kept where it was.
fn code(text: &str) -> String {
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

/// Each function with a body in `code`: its name, the line of its `fn`
/// (from 1) and its length in lines, to its closing brace.
fn functions(code: &str) -> Vec<(String, usize, usize)> {
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

/// The functions under `dir` of the checkout at `root` longer than `limit`,
/// as `path:line name (n lines)`.
fn too_long(root: &Path, dir: &str, limit: usize) -> Vec<String> {
    let mut files = Vec::new();
    sources(&root.join(dir), &mut files);
    assert!(files.len() > 3, "the sources of {dir} were found");
    let mut long = Vec::new();
    for path in files {
        let text = code(&std::fs::read_to_string(&path).unwrap());
        for (name, line, lines) in functions(&text) {
            if lines > limit {
                let shown = path.strip_prefix(root).unwrap_or(&path).display().to_string();
                long.push(format!("{shown}:{line} {name} ({lines} lines)"));
            }
        }
    }
    long
}

#[test]
fn no_function_of_the_window_is_over_80_lines() {
    let long = too_long(&manifest_dir().join("../.."), "src/app", LIMIT);
    assert!(long.is_empty(), "functions over {LIMIT} lines (split them by meaning):\n{}", long.join("\n"));
}

#[test]
fn lines_are_counted_from_fn_to_the_closing_brace() {
    let text = "\
/// fn not_code() {
pub(super) fn shown(
    a: [u8; 2],
) -> Result {
    let s = \"} fn in_a_string() {\";
    let c = '}';
    let f: fn(u8) = drop;
    /* } /* nested } */ */
    Ok(())
}
fn declared();
";
    let found = functions(&code(text));
    assert_eq!(found, vec![("shown".to_owned(), 2, 9)]);
}
