//! A piece gliding over the board along legs, one after another: a robot's
//! walk then its ride tile by tile, a card's move then its taking back. Each
//! leg starts where the one before it ends, so a piece given several legs in
//! one move passes through every place the steps name and never jumps.

use bevy::prelude::*;

/// One stretch of a glide: from a place and heading to another, starting
/// `start` seconds after the glide began.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Leg {
    pub from: Vec3,
    pub to: Vec3,
    pub from_angle: f32,
    pub to_angle: f32,
    pub start: f32,
    pub duration: f32,
    /// Height added at the leg's start and gone by its end: the piece is
    /// lifted over the others and set down in its place.
    pub lift: f32,
}

/// The legs a piece still has to travel; removed once it has landed.
#[derive(Component, Debug, Default, Clone, PartialEq)]
pub struct Glide {
    legs: Vec<Leg>,
    elapsed: f32,
}

/// Where a glide has a piece now.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct GlidePoint {
    pub at: Vec3,
    pub angle: f32,
    /// Every leg has been travelled.
    pub done: bool,
}

impl Glide {
    /// Adds a leg; legs are travelled in the order of their start.
    pub fn push(&mut self, leg: Leg) {
        let at = self.legs.partition_point(|l| l.start <= leg.start);
        self.legs.insert(at, leg);
    }

    pub fn legs(&self) -> &[Leg] {
        &self.legs
    }

    /// When the last leg ends, in seconds from the glide's start: a leg
    /// added for the same piece starts no earlier.
    pub fn end(&self) -> f32 {
        self.legs.iter().map(|l| l.start + l.duration).fold(0.0, f32::max)
    }

    /// Moves the glide's clock on by `seconds`.
    pub fn advance(&mut self, seconds: f32) {
        self.elapsed += seconds;
    }

    /// Where the piece is at the glide's clock: before the first leg at its
    /// start, between legs where the last one ended, within a leg eased
    /// from its start to its end.
    pub fn point(&self) -> GlidePoint {
        let Some(first) = self.legs.first() else {
            return GlidePoint { at: Vec3::ZERO, angle: 0.0, done: true };
        };
        let current = self.legs.iter().rev().find(|l| l.start <= self.elapsed);
        let Some(leg) = current else {
            return GlidePoint { at: first.from, angle: first.from_angle, done: false };
        };
        let t = if leg.duration > 0.0 {
            ((self.elapsed - leg.start) / leg.duration).clamp(0.0, 1.0)
        } else {
            1.0
        };
        let ease = t * t * (3.0 - 2.0 * t);
        let at = leg.from.lerp(leg.to, ease) + Vec3::Z * leg.lift * (1.0 - t);
        let angle = leg.from_angle + (leg.to_angle - leg.from_angle) * ease;
        let last = self.legs.last().is_some_and(|l| std::ptr::eq(l, leg));
        GlidePoint { at, angle, done: last && t >= 1.0 }
    }
}

/// Pieces travel their glides; a piece that has landed loses its `Glide`.
pub fn glide(
    mut commands: Commands,
    time: Res<Time>,
    mut moving: Query<(Entity, &mut Glide, &mut Transform)>,
) {
    for (entity, mut glide, mut transform) in &mut moving {
        glide.advance(time.delta_secs());
        let point = glide.point();
        transform.translation = point.at;
        if point.done {
            commands.entity(entity).remove::<Glide>();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn leg(from: f32, to: f32, start: f32) -> Leg {
        Leg {
            from: Vec3::X * from,
            to: Vec3::X * to,
            from_angle: 0.0,
            to_angle: 0.0,
            start,
            duration: 1.0,
            lift: 0.0,
        }
    }

    #[test]
    fn a_piece_passes_through_every_leg_and_lands_on_the_last() {
        let mut glide = Glide::default();
        // Pushed out of order: a ride before the walk that precedes it.
        glide.push(leg(1.0, 2.0, 2.0));
        glide.push(leg(0.0, 1.0, 0.5));
        let at = |g: &Glide| g.point().at.x;
        assert_eq!(at(&glide), 0.0, "waits at the first leg's start");
        glide.advance(1.0);
        assert!((at(&glide) - 0.5).abs() < 1e-5, "halfway through the walk");
        glide.advance(0.75);
        assert_eq!(at(&glide), 1.0, "between legs it stays where the walk ended");
        assert!(!glide.point().done);
        glide.advance(0.75);
        assert!((at(&glide) - 1.5).abs() < 1e-5, "halfway through the ride, not back at the start");
        glide.advance(1.0);
        assert_eq!(glide.point(), GlidePoint { at: Vec3::X * 2.0, angle: 0.0, done: true });
    }

    #[test]
    fn a_lifted_piece_is_set_down_exactly_in_its_place() {
        let mut glide = Glide::default();
        glide.push(Leg { lift: 50.0, ..leg(0.0, 4.0, 0.0) });
        assert_eq!(glide.point().at.z, 50.0);
        glide.advance(2.0);
        assert_eq!(glide.point().at, Vec3::X * 4.0);
    }
}
