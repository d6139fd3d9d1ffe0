//! The games finished at one table since it was set from the menu, by the
//! players' names: Play again and Restart keep the count (the seats turn
//! round, the names go with them), anything that begins a session anew
//! starts it again. A stranger alone wants to know how the evening stands,
//! not only the last game.

use bevy::prelude::*;
use tabula_engine::Outcome;

use super::{Controller, Session};
use crate::app::game::WindowGame;

/// Games won in a row, and none lost, before the band asks whether a
/// stronger opponent would suit.
const SWEEP: u32 = 3;

#[derive(Resource, Clone, Debug, Default, PartialEq, Eq)]
pub struct Sitting {
    /// Each name that won a game, with its wins, in the order they came.
    wins: Vec<(String, u32)>,
    draws: u32,
}

impl Sitting {
    /// Counts the game `session` holds if it is over and was played here
    /// (not a replay stepped through, not a server's table).
    pub fn count<G: WindowGame>(&mut self, session: &Session<G>) {
        if session.kind.plays_here() && !session.kind.steps_through() {
            self.add(session.outcome(), &session.names());
        }
    }

    fn add(&mut self, outcome: Option<Outcome>, names: &[String]) {
        match outcome {
            Some(Outcome::Win(p)) => {
                let name = names.get(p.index()).cloned().unwrap_or_default();
                match self.wins.iter_mut().find(|(n, _)| *n == name) {
                    Some((_, won)) => *won += 1,
                    None => self.wins.push((name, 1)),
                }
            }
            Some(Outcome::Draw) => self.draws += 1,
            None => {}
        }
    }

    /// The count with the game `session` holds, once it is over and at
    /// least one game came before it: "Games at this table: John 2, Mary 1".
    pub fn line<G: WindowGame>(&self, session: &Session<G>) -> Option<String> {
        // Asked every frame: nothing is built before the game is over.
        session.outcome()?;
        let mut now = self.clone();
        now.count(session);
        if now.games() < 2 || now == *self {
            return None;
        }
        // One person against agents, who won every game: a stranger who
        // beat Casual three times found nothing to come back for.
        let people: Vec<&str> = session
            .seats
            .iter()
            .filter(|s| s.controller == Controller::Human)
            .map(|s| s.name.as_str())
            .collect();
        let stronger = match people[..] {
            [person] if now.swept_by(person) => ". A stronger opponent? Esc, then choose one for Player 2",
            _ => "",
        };
        Some(format!("{}{stronger}", now.said(&session.names())))
    }

    /// Whether `person` won every game, and at least three.
    fn swept_by(&self, person: &str) -> bool {
        self.draws == 0 && matches!(&self.wins[..], [(name, won)] if name == person && *won >= SWEEP)
    }

    fn games(&self) -> u32 {
        self.wins.iter().map(|(_, n)| n).sum::<u32>() + self.draws
    }

    /// Every player at the table named, the most wins first.
    fn said(&self, names: &[String]) -> String {
        let mut all = self.wins.clone();
        for name in names {
            if !all.iter().any(|(n, _)| n == name) {
                all.push((name.clone(), 0));
            }
        }
        all.sort_by_key(|(_, won)| std::cmp::Reverse(*won));
        let mut words: Vec<String> = all.iter().map(|(n, won)| format!("{n} {won}")).collect();
        match self.draws {
            0 => {}
            1 => words.push("1 drawn".to_owned()),
            d => words.push(format!("{d} drawn")),
        }
        format!("Games at this table: {}", words.join(", "))
    }
}

#[cfg(test)]
mod tests {
    use tabula_engine::Player;

    use super::*;

    fn names(a: &str, b: &str) -> Vec<String> {
        vec![a.to_owned(), b.to_owned()]
    }

    #[test]
    fn wins_are_counted_by_name_as_the_seats_turn_round() {
        let mut sitting = Sitting::default();
        sitting.add(Some(Outcome::Win(Player::ONE)), &names("John", "Mary"));
        // Play again: Mary now in seat 1, and she wins.
        sitting.add(Some(Outcome::Win(Player::ONE)), &names("Mary", "John"));
        sitting.add(Some(Outcome::Win(Player::TWO)), &names("Mary", "John"));
        sitting.add(Some(Outcome::Draw), &names("John", "Mary"));
        // A game left before its end is not counted.
        sitting.add(None, &names("John", "Mary"));
        assert_eq!(sitting.games(), 4);
        assert_eq!(sitting.said(&names("John", "Mary")), "Games at this table: John 2, Mary 1, 1 drawn");
        assert!(!sitting.swept_by("John"));
        let mut swept = Sitting::default();
        for n in 1..=SWEEP {
            assert!(!swept.swept_by("John"), "after {n} games");
            swept.add(Some(Outcome::Win(Player::TWO)), &names("Mary", "John"));
        }
        assert!(swept.swept_by("John") && !swept.swept_by("Mary"));
        let fresh = Sitting::default();
        assert_eq!(fresh.said(&names("Ann", "Bob")), "Games at this table: Ann 0, Bob 0");
    }
}
