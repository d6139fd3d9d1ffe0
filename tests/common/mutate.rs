//! Files as a user might leave them: a good file cut short or mid-token,
//! with two lines swapped, a line lost or doubled, a number made extreme, a
//! character changed, and plain garbage. The fuzz tests of levels, replays
//! and arena files read these where tabula reads files.

use rand::Rng;

/// Numbers that break sums, sizes and conversions.
const EXTREMES: &[&str] = &[
    "0",
    "-1",
    "255",
    "256",
    "65535",
    "65536",
    "4294967295",
    "4294967296",
    "9223372036854775807",
    "18446744073709551615",
    "18446744073709551616",
    "1e308",
];

/// Characters that mean something in RON, and some that do not.
const CHARACTERS: &[char] =
    &['(', ')', '[', ']', '{', '}', ',', ':', '"', '\'', '-', '.', '0', '9', 'a', 'Z', '_', ' ', '\n', '♦'];

/// A broken version of a good file: what was done to it, and its text.
pub struct Variant {
    pub what: String,
    pub text: String,
}

/// `count` variants of `text`, always the empty file and garbage among them.
pub fn variants(text: &str, rng: &mut impl Rng, count: usize) -> Vec<Variant> {
    let mut out = vec![Variant { what: "empty".into(), text: String::new() }];
    while out.len() < count {
        out.push(match rng.random_range(0..8) {
            0 => cut(text, rng),
            1 => cut_mid_token(text, rng),
            2 => swap_lines(text, rng),
            3 => drop_line(text, rng),
            4 => double_line(text, rng),
            5 => extreme_number(text, rng),
            6 => change_character(text, rng),
            _ => garbage(rng),
        });
    }
    out
}

/// The character boundaries of `text`, the end included.
fn boundaries(text: &str) -> Vec<usize> {
    text.char_indices().map(|(i, _)| i).chain([text.len()]).collect()
}

fn cut(text: &str, rng: &mut impl Rng) -> Variant {
    let at = pick(&boundaries(text), rng);
    Variant { what: format!("cut at byte {at}"), text: text[..at].to_owned() }
}

/// Cut inside a word or number, where a token was half written.
fn cut_mid_token(text: &str, rng: &mut impl Rng) -> Variant {
    let inside: Vec<usize> = text
        .char_indices()
        .zip(text.chars().skip(1))
        .filter(|((_, a), b)| a.is_alphanumeric() && b.is_alphanumeric())
        .map(|((i, a), _)| i + a.len_utf8())
        .collect();
    if inside.is_empty() {
        return cut(text, rng);
    }
    let at = pick(&inside, rng);
    Variant { what: format!("cut mid-token at byte {at}"), text: text[..at].to_owned() }
}

fn lines(text: &str) -> Vec<&str> {
    text.lines().collect()
}

/// Two lines swapped: in a replay, most often two moves.
fn swap_lines(text: &str, rng: &mut impl Rng) -> Variant {
    let mut lines = lines(text);
    if lines.len() < 2 {
        return garbage(rng);
    }
    let (a, b) = (rng.random_range(0..lines.len()), rng.random_range(0..lines.len()));
    lines.swap(a, b);
    Variant { what: format!("lines {} and {} swapped", a + 1, b + 1), text: lines.join("\n") }
}

fn drop_line(text: &str, rng: &mut impl Rng) -> Variant {
    let mut lines = lines(text);
    if lines.is_empty() {
        return garbage(rng);
    }
    let at = rng.random_range(0..lines.len());
    lines.remove(at);
    Variant { what: format!("line {} dropped", at + 1), text: lines.join("\n") }
}

/// A line twice: in a replay, a move played again where it is illegal.
fn double_line(text: &str, rng: &mut impl Rng) -> Variant {
    let mut lines = lines(text);
    if lines.is_empty() {
        return garbage(rng);
    }
    let at = rng.random_range(0..lines.len());
    lines.insert(at, lines[at]);
    Variant { what: format!("line {} doubled", at + 1), text: lines.join("\n") }
}

/// Where each number of `text` starts and ends.
fn numbers(text: &str) -> Vec<(usize, usize)> {
    let bytes = text.as_bytes();
    (0..bytes.len())
        .filter(|&i| bytes[i].is_ascii_digit() && (i == 0 || !bytes[i - 1].is_ascii_alphanumeric()))
        .map(|start| {
            (start, (start..bytes.len()).find(|&i| !bytes[i].is_ascii_digit()).unwrap_or(bytes.len()))
        })
        .collect()
}

fn with_number(text: &str, (start, end): (usize, usize), number: &str) -> Variant {
    Variant {
        what: format!("{} at byte {start} made {number}", &text[start..end]),
        text: format!("{}{number}{}", &text[..start], &text[end..]),
    }
}

/// A number of the file replaced by one of [`EXTREMES`].
fn extreme_number(text: &str, rng: &mut impl Rng) -> Variant {
    let numbers = numbers(text);
    if numbers.is_empty() {
        return change_character(text, rng);
    }
    with_number(text, pick(&numbers, rng), pick(EXTREMES, rng))
}

/// The file with each of its first `most` numbers replaced by each of
/// [`EXTREMES`] in turn: every count, size and seed as large (or as odd) as
/// can be written.
pub fn extreme_numbers(text: &str, most: usize) -> Vec<Variant> {
    let numbers = numbers(text);
    let mut out = Vec::new();
    for &number in numbers.iter().take(most) {
        out.extend(EXTREMES.iter().map(|extreme| with_number(text, number, extreme)));
    }
    out
}

fn change_character(text: &str, rng: &mut impl Rng) -> Variant {
    let places = boundaries(text);
    let at = pick(&places, rng);
    let end = text[at..].chars().next().map_or(at, |c| at + c.len_utf8());
    let c = pick(CHARACTERS, rng);
    Variant { what: format!("byte {at} made {c:?}"), text: format!("{}{c}{}", &text[..at], &text[end..]) }
}

/// Random bytes, read as text the way a file of them would be.
fn garbage(rng: &mut impl Rng) -> Variant {
    let bytes: Vec<u8> = (0..rng.random_range(1..200)).map(|_| rng.random()).collect();
    Variant { what: "garbage".into(), text: String::from_utf8_lossy(&bytes).into_owned() }
}

fn pick<T: Copy>(items: &[T], rng: &mut impl Rng) -> T {
    items[rng.random_range(0..items.len())]
}
