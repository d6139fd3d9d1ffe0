//! A move's stones in flight, as the engine's steps say: the sowing one
//! stone after another, then the capture, then the sweep to the stores.
//! The pit and store counts follow the stones as they land.

use std::collections::HashMap;

use bevy::prelude::*;
use tabula_engine::mancala::{Mancala, MancalaStep, Transfer};

use super::{CellCount, HopCells, MancalaLayout, Stone};
use crate::app::glide::{Glide, Leg};
use crate::app::session::{BoardBusy, MoveApplied, Session};
use crate::app::settings::Settings;

/// Seconds between two stones of one sowing, and for one stone's flight.
const SOW_STEP: f32 = 0.16;
const FLIGHT: f32 = 0.32;
/// A stone hops: up the screen, towards the viewer and larger at mid-flight.
const HOP: Leg = Leg {
    from: Vec3::ZERO,
    to: Vec3::ZERO,
    from_angle: 0.0,
    to_angle: 0.0,
    start: 0.0,
    duration: 0.0,
    lift: 8.0,
    arc: 40.0,
    swell: 0.3,
};

/// The stones of each cell as the animation will leave them, and the flights
/// that take them there.
struct Choreography<'a> {
    layout: &'a MancalaLayout,
    speed: f32,
    in_cell: Vec<Vec<(Entity, Vec3)>>,
    flights: HashMap<Entity, (usize, Glide, HopCells)>,
}

impl Choreography<'_> {
    /// Sends a stone from `from_cell` to `cell`, lifting off after `delay`
    /// (and not before it has landed from an earlier hop).
    fn fly(&mut self, (entity, from): (Entity, Vec3), from_cell: usize, cell: usize, delay: f32) {
        let slot = self.in_cell[cell].len();
        let to = self.layout.stone_position(cell, slot).extend(2.0 + slot as f32 * 0.001);
        let duration = FLIGHT / self.speed;
        let (at, glide, cells) = self.flights.entry(entity).or_default();
        let start = delay.max(glide.end());
        glide.push(Leg { from, to, start, duration, ..HOP });
        cells.0.push(from_cell);
        *at = cell;
        self.in_cell[cell].push((entity, to));
    }
}

/// Schedules each stone's flight as the steps say: the sowing one stone
/// after another, then the capture, then the sweep, so the board ends as
/// the engine says.
pub(super) fn sow_stones(
    mut commands: Commands,
    mut applied: MessageReader<MoveApplied<Mancala>>,
    stones: Query<(Entity, &Stone, &Transform)>,
    layout: Res<MancalaLayout>,
    settings: Res<Settings>,
) {
    let steps: Vec<MancalaStep> = applied.read().flat_map(|m| m.steps.iter().copied()).collect();
    if steps.is_empty() {
        return;
    }
    let speed = settings.animation_speed;
    let mut plan = Choreography {
        layout: &layout,
        speed,
        in_cell: vec![Vec::new(); 2 * layout.pits + 2],
        flights: HashMap::new(),
    };
    for (entity, stone, transform) in &stones {
        plan.in_cell[stone.cell].push((entity, transform.translation));
    }
    // Steps of one kind run together; the next kind starts when they land.
    let (mut clock, mut sown, mut phase) = (0.0, 0usize, None);
    for step in steps {
        let MancalaStep::Moved { from, to, stones, why } = step else { continue };
        if phase != Some(why) {
            clock += match phase {
                Some(Transfer::Sowing) => sown as f32 * SOW_STEP / speed + FLIGHT / speed,
                Some(_) => 2.0 * FLIGHT / speed,
                None => 0.0,
            };
            (phase, sown) = (Some(why), 0);
        }
        for _ in 0..stones {
            let delay = match why {
                Transfer::Sowing => clock + sown as f32 * SOW_STEP / speed,
                _ => clock + sown as f32 * 0.03 / speed,
            };
            // The stones that were in the cell go first, before any that
            // a lap has just dropped there.
            if plan.in_cell[from as usize].is_empty() {
                break;
            }
            let stone = plan.in_cell[from as usize].remove(0);
            plan.fly(stone, from as usize, to as usize, delay);
            sown += 1;
        }
    }
    for (entity, (cell, glide, cells)) in plan.flights {
        commands.entity(entity).insert((Stone { cell }, glide, cells));
    }
}

/// Counts follow the stones: a stone counts where it rests or waits to lift
/// off, not while in the air; at rest the counts are the engine's.
pub(super) fn update_counts(
    stones: Query<(&Stone, Option<(&Glide, &HopCells)>)>,
    mut labels: Query<(&CellCount, &mut Text2d)>,
    session: Res<Session<Mancala>>,
    layout: Res<MancalaLayout>,
    busy: Res<BoardBusy>,
) {
    let mut counts = vec![0u32; 2 * layout.pits + 2];
    if busy.0 == 0 {
        for (i, &c) in session.view().cells().iter().enumerate() {
            counts[i] = c as u32;
        }
    } else {
        for (stone, flight) in &stones {
            match flight.and_then(|(glide, cells)| Some((glide.progress()?, cells))) {
                None => counts[stone.cell] += 1,
                Some(((leg, t), cells)) if t <= 0.0 => counts[cells.0[leg]] += 1,
                Some(_) => {}
            }
        }
    }
    for (label, mut text) in &mut labels {
        let value = counts.get(label.0).copied().unwrap_or(0).to_string();
        if text.0 != value {
            text.0 = value;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_stone_sown_then_captured_lands_in_the_pit_before_it_flies_to_the_store() {
        let layout = MancalaLayout::new(6);
        let mut plan = Choreography {
            layout: &layout,
            speed: 1.0,
            in_cell: vec![Vec::new(); 14],
            flights: HashMap::new(),
        };
        let stone = Entity::from_raw_u32(7).unwrap();
        let start = layout.stone_position(0, 0).extend(2.0);
        plan.fly((stone, start), 0, 3, 0.0);
        let sown = plan.in_cell[3][0];
        // The capture asks to lift off before the sowing has landed.
        plan.fly(sown, 3, 6, 0.1);
        let (cell, mut glide, cells) = plan.flights.remove(&stone).unwrap();
        assert_eq!(cell, 6);
        assert_eq!(cells.0, [0, 3], "it leaves its first pit, then the pit it was sown into");
        let legs = glide.legs().to_vec();
        assert_eq!(legs.len(), 2);
        assert_eq!(legs[1].from, legs[0].to, "the second hop starts where the first landed");
        assert!(legs[1].start >= legs[0].start + legs[0].duration);
        // Halfway through the sowing it is in the air; once landed it waits
        // in the pit it was sown into, counted there, until the capture.
        glide.advance(legs[0].duration * 0.5);
        assert_eq!(glide.progress(), Some((0, 0.5)));
        glide.advance(legs[1].start - legs[0].duration * 0.5);
        assert_eq!(glide.progress(), Some((1, 0.0)));
        glide.advance(10.0);
        assert_eq!(glide.progress(), None);
    }
}
