//! docs/protocol.md is the protocol a stranger implements: every request,
//! message, error code and limit it lists is one the types have, and every
//! one the types have is listed.

use std::collections::BTreeSet;

use tabula_server::protocol::{ErrorCode, LimitsInfo, Request, ServerMessage};

fn doc() -> String {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/protocol.md");
    std::fs::read_to_string(path).unwrap()
}

/// The text from the heading `## {name}` to the next `## ` heading.
fn section<'a>(doc: &'a str, name: &str) -> &'a str {
    let start = doc.find(&format!("\n## {name}")).unwrap_or_else(|| panic!("no section {name}"));
    let rest = &doc[start + 4..];
    let end = rest.find("\n## ").unwrap_or(rest.len());
    &rest[..end]
}

/// The names in backticks that begin a table's rows, or a `### ` heading.
fn listed(text: &str) -> BTreeSet<String> {
    text.lines()
        .filter_map(|line| line.strip_prefix("| `").or_else(|| line.strip_prefix("### `")))
        .filter_map(|rest| rest.split('`').next())
        .map(str::to_owned)
        .collect()
}

fn set(names: impl IntoIterator<Item = impl Into<String>>) -> BTreeSet<String> {
    names.into_iter().map(Into::into).collect()
}

#[test]
fn every_request_is_documented_and_every_documented_one_exists() {
    let doc = doc();
    assert_eq!(listed(section(&doc, "Requests")), set(Request::TYPES));
}

#[test]
fn every_message_is_documented_and_every_documented_one_exists() {
    let doc = doc();
    assert_eq!(listed(section(&doc, "Messages")), set(ServerMessage::<serde_json::Value>::TYPES));
}

#[test]
fn every_error_code_is_documented_and_every_documented_one_exists() {
    let doc = doc();
    assert_eq!(listed(section(&doc, "Errors")), set(ErrorCode::ALL.map(|c| c.name())));
}

#[test]
fn every_limit_of_the_welcome_is_documented() {
    let doc = doc();
    let limits = section(&doc, "Limits");
    let sample = LimitsInfo {
        message_bytes: 0,
        level_bytes: 0,
        messages_per_second: 0.0,
        burst: 0.0,
        refusals_per_second: 0.0,
        tables_per_connection: 0,
        connections_per_address: 0,
        wrong_tokens: 0,
        tables: 0,
        hosted_level_bytes: 0,
        legal_moves: 0,
        plies: 0,
        sent_bytes: 0,
    };
    let fields = serde_json::to_value(sample).unwrap();
    for field in fields.as_object().unwrap().keys() {
        assert!(limits.contains(&format!("`{field}`")), "docs/protocol.md's Limits name no `{field}`");
    }
}

/// Each `### `Game`` of the Views section and the JSON example under it.
fn view_examples(doc: &str) -> Vec<(String, String)> {
    let views = section(doc, "Views");
    let mut examples = Vec::new();
    let mut game = None;
    let mut block: Option<String> = None;
    for line in views.lines() {
        if let Some(name) = line.strip_prefix("### `").and_then(|r| r.split('`').next()) {
            game = Some(name.to_owned());
        } else if line.starts_with("```json") {
            block = Some(String::new());
        } else if line.starts_with("```") {
            if let (Some(game), Some(text)) = (&game, block.take()) {
                examples.push((game.clone(), text));
            }
        } else if let Some(text) = &mut block {
            text.push_str(line);
            text.push('\n');
        }
    }
    examples
}

#[test]
fn every_game_has_a_view_example_that_is_its_observation() {
    let doc = doc();
    let examples = view_examples(&doc);
    let mut rng = tabula_engine::core::rng_from_seed(1);
    for game in tabula_engine::games::all() {
        let (_, text) = examples
            .iter()
            .find(|(name, _)| name == game.name())
            .unwrap_or_else(|| panic!("no view example for {}", game.name()));
        let mut agent = tabula_engine::games::live_agent(game.name(), &"random".parse().unwrap()).unwrap();
        agent
            .choose_seen(text, tabula_engine::Player(0), false, &mut rng)
            .unwrap_or_else(|e| panic!("the example of {} is not its view: {e}", game.name()));
    }
}
