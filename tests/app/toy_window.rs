//! The toy game in the window: what `WindowGame` asks beyond the rules
//! (the rules themselves are in `tests/common/toy.rs`, which the server's
//! tests share).

use crate::toy::{Tally, TallyLevel, TallyView};

impl tabula::app::game::WindowGame for Tally {
    const MOUSE: &'static str = "test game";
    const KEYS: &'static [tabula::app::help::Key] = &[];
    const ABOUT: &'static str = "Add to the tally in turn; the highest secret wins.";

    fn new_level() -> TallyLevel {
        TallyLevel { name: "New tally".into(), seats: 3, target: 12 }
    }

    fn rules_text(level: &TallyLevel) -> String {
        format!("to {}", level.target)
    }

    fn outcome_text(view: &TallyView, _names: &[String]) -> String {
        format!("{:?}", view.outcome)
    }
}
