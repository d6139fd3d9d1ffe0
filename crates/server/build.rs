//! Embeds the web page (`web/public/`, served on the WebSocket's port) in
//! the server: every file of that folder, by name, so a file added there
//! is served with no change here.

use std::fmt::Write as _;
use std::path::Path;

fn main() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../web/public");
    // Cargo looks through a folder named here for any change in it. The
    // path is the package's own, relative, and so are the files' below:
    // two clones sharing one target folder share this script's output, and
    // each must embed its own files.
    println!("cargo:rerun-if-changed=../../web/public");
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .map(|entries| {
            entries
                .flatten()
                .filter(|e| e.file_type().is_ok_and(|t| t.is_file()))
                .filter_map(|e| e.file_name().into_string().ok())
                .collect()
        })
        .unwrap_or_default();
    names.sort();
    let mut out = String::from("/// The page's files, by name.\npub static FILES: &[(&str, &[u8])] = &[\n");
    for name in names {
        let file = format!("/../../web/public/{name}");
        writeln!(out, "    ({name:?}, include_bytes!(concat!(env!(\"CARGO_MANIFEST_DIR\"), {file:?}))),")
            .unwrap();
    }
    out.push_str("];\n");
    let target = Path::new(&std::env::var("OUT_DIR").unwrap()).join("web_files.rs");
    std::fs::write(target, out).unwrap();
}
