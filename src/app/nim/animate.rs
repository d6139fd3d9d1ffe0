//! Taken stones leave the board: each starts to rise and fade as the
//! engine's steps say, the pile's count follows, and the cursor moves off an
//! emptied pile.

use bevy::prelude::*;
use tabula_engine::nim::{Nim, NimStep};

use super::{DRAWN_STONES, Leaving, NimChoice, PileCount, STONE_CHOSEN, Stone};
use crate::app::session::{MoveApplied, Session};
use crate::app::settings::Settings;

const LEAVE_SECONDS: f32 = 0.5;

/// Taken stones start leaving; the count label follows the engine.
pub(super) fn take_stones(
    mut commands: Commands,
    mut applied: MessageReader<MoveApplied<Nim>>,
    stones: Query<(Entity, &Stone, &Transform), Without<Leaving>>,
    mut counts: Query<(&PileCount, &mut Text2d)>,
    settings: Res<Settings>,
    mut choice: ResMut<NimChoice>,
    session: Res<Session<Nim>>,
) {
    let taken = applied.read().flat_map(|m| m.steps.iter()).filter_map(|step| match *step {
        NimStep::Took { pile, count, left, .. } => Some((pile as usize, count, left)),
        _ => None,
    });
    for (pile, count, left) in taken.collect::<Vec<_>>() {
        let before = left + count;
        // Drawn slots beyond what is left go; piles larger than the rows
        // show lose only their count until they fit.
        let (keep, had) = (left.min(DRAWN_STONES), before.min(DRAWN_STONES));
        for (entity, stone, transform) in &stones {
            if stone.pile == pile && (keep..had).contains(&stone.slot) {
                let seconds = LEAVE_SECONDS / settings.animation_speed;
                commands.entity(entity).insert(Leaving {
                    timer: Timer::from_seconds(seconds, TimerMode::Once),
                    from: transform.translation,
                });
            }
        }
        for (label, mut text) in &mut counts {
            if label.0 == pile {
                text.0 = left.to_string();
            }
        }
        let view = session.view();
        let piles = view.piles();
        if piles[choice.pile] == 0 {
            // Move the cursor to the nearest pile that still has stones.
            if let Some(next) =
                (0..piles.len()).filter(|&p| piles[p] > 0).min_by_key(|&p| p.abs_diff(choice.pile))
            {
                choice.pile = next;
            }
        }
        choice.count = choice.count.clamp(1, piles[choice.pile].max(1));
    }
}

pub(super) fn lift_stones(
    mut commands: Commands,
    time: Res<Time>,
    mut stones: Query<(Entity, &mut Leaving, &mut Transform, &mut Sprite)>,
) {
    for (entity, mut leaving, mut transform, mut sprite) in &mut stones {
        leaving.timer.tick(time.delta());
        let t = leaving.timer.fraction();
        let ease = 1.0 - (1.0 - t) * (1.0 - t);
        transform.translation = leaving.from + Vec3::new(0.0, 90.0 * ease, 1.0);
        transform.scale = Vec3::splat(1.0 + 0.25 * ease);
        sprite.color = STONE_CHOSEN.with_alpha(1.0 - t);
        if leaving.timer.is_finished() {
            commands.entity(entity).despawn();
        }
    }
}
