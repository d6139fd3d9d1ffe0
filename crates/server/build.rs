//! Embeds the web page (`web/public/`, served on the WebSocket's port) in
//! the server: every file of that folder, by name, so a file added there
//! is served with no change here.

use std::fmt::Write as _;
use std::path::Path;

fn main() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../web/public");
    // Cargo looks through a folder named here for any change in it.
    println!("cargo:rerun-if-changed={}", dir.display());
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
        let path = dir.join(&name);
        let path = path.canonicalize().unwrap_or(path);
        writeln!(out, "    ({name:?}, include_bytes!({:?})),", path.display().to_string()).unwrap();
    }
    out.push_str("];\n");
    let target = Path::new(&std::env::var("OUT_DIR").unwrap()).join("web_files.rs");
    std::fs::write(target, out).unwrap();
}
