//! The match: the points of each finished deal, counted once, until a
//! player has the level's points; agents on both seats deal again after a
//! pause. The next deal keeps the level and the seats, with the next seed.

use bevy::prelude::*;
use tabula_engine::Player;
use tabula_engine::core::derive_seed;
use tabula_engine::level::LevelFile;
use tabula_engine::russian_bank::RussianBank;

use crate::app::frames::NextFrame;
use crate::app::session::{GameEnded, Headline, Session, SessionPlan, SessionRequest};

/// Seconds between the end of a deal and the next when agents play both seats.
const NEXT_DEAL_PAUSE: f32 = 3.0;

/// Points of each finished deal of the match, by deal seed.
#[derive(Resource, Debug, Default)]
pub struct BankMatch {
    /// Which match: the level and the seats.
    key: String,
    pub deals: Vec<(u64, Option<(Player, u32)>)>,
    /// Seconds until agents deal again.
    next_deal_in: Option<f32>,
}

impl BankMatch {
    pub fn points(&self) -> [u32; 2] {
        let mut points = [0, 0];
        for (_, result) in &self.deals {
            if let Some((p, pts)) = result {
                points[p.index()] += pts;
            }
        }
        points
    }

    /// The match winner once a player has `target` points.
    pub fn winner(&self, target: u32) -> Option<Player> {
        let points = self.points();
        (0..2).filter(|&i| points[i] >= target).max_by_key(|&i| points[i]).map(|i| Player(i as u8))
    }
}

/// Counts each finished deal into the match; agents on both seats deal
/// again after a pause until the match is decided.
pub(super) fn tally_match(
    time: Res<Time>,
    mut ended: MessageReader<GameEnded>,
    session: Res<Session<RussianBank>>,
    mut bank_match: ResMut<BankMatch>,
    mut requests: MessageWriter<SessionRequest>,
    mut next: ResMut<NextFrame>,
    mut headline: ResMut<Headline>,
) {
    let key = match_key(&session);
    if bank_match.key != key {
        *bank_match = BankMatch { key, ..default() };
    }
    for _ in ended.read() {
        let result = session.game.winner_points();
        let seed = session.seed;
        bank_match.deals.retain(|(s, _)| *s != seed);
        bank_match.deals.push((seed, result));
        let winner = bank_match.winner(session.level.match_points);
        let decided = winner.is_some();
        if let Some(winner) = winner {
            let points = bank_match.points();
            let (won, other) = (points[winner.index()], points[1 - winner.index()]);
            headline.0 = Some(format!("{} wins the match {won} to {other}", session.name_of(winner)));
        }
        if !session.has_human() && session.kind.moves_here() && !decided {
            bank_match.next_deal_in = Some(NEXT_DEAL_PAUSE);
        }
    }
    if let Some(left) = bank_match.next_deal_in.as_mut() {
        next.ask();
        *left -= time.delta_secs();
        if *left <= 0.0 {
            bank_match.next_deal_in = None;
            requests.write(SessionRequest::Start(Box::new(next_deal_plan(&session, &bank_match))));
        }
    }
}

fn match_key(session: &Session<RussianBank>) -> String {
    let seats: Vec<String> =
        session.seats.iter().map(|s| format!("{}:{}", s.name, s.controller.label())).collect();
    format!("{}|{}", session.level_name, seats.join(","))
}

/// The next deal of the match (a new match once one is decided): the same
/// level and seats, the next seed.
pub(super) fn next_deal_plan(session: &Session<RussianBank>, bank_match: &BankMatch) -> SessionPlan {
    let seed = derive_seed(session.seed, bank_match.deals.len() as u64 + 1);
    SessionPlan {
        level_path: session.level_path.clone(),
        level: LevelFile::new::<RussianBank>(session.level.clone()),
        seats: session.seats.clone(),
        seed,
        replay: None,
        deal: false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_match_adds_the_points_of_each_deal_once() {
        let mut m = BankMatch::default();
        m.deals.push((1, Some((Player::ONE, 51))));
        m.deals.push((2, None));
        m.deals.push((3, Some((Player::TWO, 260))));
        assert_eq!(m.points(), [51, 260]);
        assert_eq!(m.winner(300), None);
        m.deals.push((4, Some((Player::TWO, 40))));
        assert_eq!(m.winner(300), Some(Player::TWO));
    }
}
