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
    /// A hop: how far up the screen the piece rises at mid-leg, and how
    /// much larger it is drawn there (0 for a glide along the board).
    pub arc: f32,
    pub swell: f32,
}

impl Leg {
    /// A straight glide, facing no way in particular, neither lifted nor
    /// hopping.
    pub fn new(from: Vec3, to: Vec3, start: f32, duration: f32) -> Leg {
        Leg { from, to, from_angle: 0.0, to_angle: 0.0, start, duration, lift: 0.0, arc: 0.0, swell: 0.0 }
    }
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
    /// How large it is drawn (1 on the ground).
    pub scale: f32,
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

    /// The leg under way or next (legs laid end to end), and how far
    /// through it the piece is: 0 while it waits to set off. `None` once
    /// every leg is travelled.
    pub fn progress(&self) -> Option<(usize, f32)> {
        let i = self.legs.iter().position(|l| self.elapsed < l.start + l.duration)?;
        let leg = &self.legs[i];
        Some((i, ((self.elapsed - leg.start) / leg.duration).clamp(0.0, 1.0)))
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
            return GlidePoint { at: Vec3::ZERO, angle: 0.0, scale: 1.0, done: true };
        };
        let current = self.legs.iter().rev().find(|l| l.start <= self.elapsed);
        let Some(leg) = current else {
            return GlidePoint { at: first.from, angle: first.from_angle, scale: 1.0, done: false };
        };
        let t = if leg.duration > 0.0 {
            ((self.elapsed - leg.start) / leg.duration).clamp(0.0, 1.0)
        } else {
            1.0
        };
        let ease = t * t * (3.0 - 2.0 * t);
        // Exactly on the ground once landed (sin π is not quite 0).
        let bump = if t < 1.0 { (std::f32::consts::PI * t).sin() } else { 0.0 };
        let at = leg.from.lerp(leg.to, ease) + Vec3::Z * leg.lift * (1.0 - t) + Vec3::Y * leg.arc * bump;
        let angle = leg.from_angle + (leg.to_angle - leg.from_angle) * ease;
        let last = self.legs.last().is_some_and(|l| std::ptr::eq(l, leg));
        GlidePoint { at, angle, scale: 1.0 + leg.swell * bump, done: last && t >= 1.0 }
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
        transform.scale = Vec3::splat(point.scale);
        if point.done {
            commands.entity(entity).remove::<Glide>();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn leg(from: f32, to: f32, start: f32) -> Leg {
        Leg::new(Vec3::X * from, Vec3::X * to, start, 1.0)
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
        assert_eq!(glide.point(), GlidePoint { at: Vec3::X * 2.0, angle: 0.0, scale: 1.0, done: true });
    }

    #[test]
    fn a_hop_rises_and_swells_at_mid_leg_and_lands_flat() {
        let mut glide = Glide::default();
        glide.push(Leg { arc: 40.0, swell: 0.3, ..leg(0.0, 2.0, 0.0) });
        glide.push(Leg { arc: 40.0, swell: 0.3, ..leg(2.0, 4.0, 1.5) });
        glide.advance(0.5);
        let mid = glide.point();
        assert!((mid.at - Vec3::new(1.0, 40.0, 0.0)).length() < 1e-4 && (mid.scale - 1.3).abs() < 1e-5);
        assert_eq!(glide.progress(), Some((0, 0.5)));
        // Landed, it waits for the next hop where the first ended.
        glide.advance(0.75);
        assert_eq!(glide.progress(), Some((1, 0.0)));
        assert_eq!(glide.point().at, Vec3::X * 2.0);
        glide.advance(2.0);
        assert_eq!(glide.progress(), None);
        assert_eq!((glide.point().at, glide.point().scale), (Vec3::X * 4.0, 1.0));
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
