//! The toy game in the window: what `WindowGame` asks beyond the rules
//! (the rules themselves are in `tests/common/toy.rs`, which the server's
//! tests share).

use crate::toy::{Tally, TallyLevel, TallyView};

impl tabula::app::game::WindowGame for Tally {
    const MOUSE: &'static str = "test game";
    const KEYS: &'static [tabula::app::help::Key] = &[];
    const ABOUT: &'static str = "Add to the tally in turn; the highest secret wins.";

    fn new_level() -> TallyLevel {
        TallyLevel { name: "New tally".into(), seats: 3, target: 12, secrets: None }
    }

    fn from_view(view: &TallyView) -> Tally {
        // A secret this seat does not see is held as 0: the view of it
        // hides it again.
        let secrets: Vec<u8> = view.secrets.iter().map(|s| s.unwrap_or(0)).collect();
        serde_json::from_value(serde_json::json!({
            "secrets": secrets, "shown": view.shown, "tally": view.tally, "target": view.target,
            "to_move": view.to_move, "outcome": view.outcome,
        }))
        .expect("a tally from its view")
    }

    fn rules_text(level: &TallyLevel) -> String {
        format!("to {}", level.target)
    }

    fn outcome_text(view: &TallyView, _names: &[String]) -> String {
        format!("{:?}", view.outcome)
    }
}
