//! Cards in flight: a moved card glides from its old pile to its new one
//! and the card under it shows once it lands; a refused card goes back
//! where it came from.

use bevy::prelude::*;

use super::layout::{card_position, z_of};
use super::{Choice, FLIGHT, Flight, TableCard};
use crate::app::session::MoveRefused;

pub(super) fn fly_cards(
    mut commands: Commands,
    time: Res<Time>,
    mut flights: Query<(Entity, &mut Flight, &mut Transform)>,
) {
    for (entity, mut flight, mut transform) in &mut flights {
        flight.elapsed += time.delta_secs();
        if flight.elapsed < flight.delay {
            continue;
        }
        let t = ((flight.elapsed - flight.delay) / flight.duration).clamp(0.0, 1.0);
        let ease = t * t * (3.0 - 2.0 * t);
        transform.translation = flight.from.lerp(flight.to, ease);
        if t >= 1.0 {
            if let Some(shown) = flight.shows {
                commands.entity(shown).insert(Visibility::Inherited);
            }
            if flight.ghost {
                commands.entity(entity).despawn();
            } else {
                commands.entity(entity).remove::<Flight>();
            }
        }
    }
}

/// A refused move: the card goes back where it came from.
pub(super) fn snap_back(
    mut commands: Commands,
    mut refused: MessageReader<MoveRefused>,
    mut choice: ResMut<Choice>,
    cards: Query<(&TableCard, &Transform)>,
) {
    if refused.read().count() == 0 {
        return;
    }
    if let Some((_, entity)) = choice.chosen.take()
        && let Ok((card, transform)) = cards.get(entity)
    {
        let home = card_position(card.place, card.index).extend(z_of(card.index));
        commands.entity(entity).insert(Flight {
            from: transform.translation,
            to: home,
            delay: 0.0,
            elapsed: 0.0,
            duration: FLIGHT,
            shows: None,
            ghost: false,
        });
    }
    choice.dragging = None;
    choice.dropped = None;
    choice.changed = true;
}
