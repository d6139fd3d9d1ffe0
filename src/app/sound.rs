//! Sound effects, synthesised at start-up (no sample files): a wooden click
//! for a move, a low double buzz for a refusal, a rising chime for the end,
//! and two soft bells after the click when an agent's move hands the turn
//! to a person.

use std::f32::consts::TAU;

use bevy::audio::{AudioSource, Volume};
use bevy::prelude::*;

use super::session::{GameEnded, MovePlayed, MoveRefused, SessionSet, TurnChanged};
use super::settings::Settings;

const RATE: u32 = 44_100;

#[derive(Resource)]
pub struct Sounds {
    pub moved: Handle<AudioSource>,
    pub refused: Handle<AudioSource>,
    pub ended: Handle<AudioSource>,
    /// A move that hands the turn to a person who was waiting.
    pub handed: Handle<AudioSource>,
}

/// One system for every game: each move, refusal or end sounds once.
pub fn plugin(app: &mut App) {
    app.add_systems(Startup, make_sounds)
        .add_systems(Update, play_sounds.in_set(SessionSet::View).run_if(resource_exists::<Sounds>));
}

fn make_sounds(mut commands: Commands, mut sources: ResMut<Assets<AudioSource>>) {
    let mut add = |samples: Vec<f32>| sources.add(AudioSource { bytes: wav(&samples).into() });
    commands.insert_resource(Sounds {
        moved: add(click()),
        refused: add(buzz()),
        ended: add(chime()),
        handed: add(handed()),
    });
}

/// A frame's events make one sound, the most telling: the end, else a
/// refusal, else a move (with the bells when it hands the turn from an
/// agent to a person; between two people at one screen the turn passes
/// with every move, and the click says enough).
fn play_sounds(
    mut commands: Commands,
    sounds: Res<Sounds>,
    settings: Res<Settings>,
    mut applied: MessageReader<MovePlayed>,
    mut refused: MessageReader<MoveRefused>,
    mut ended: MessageReader<GameEnded>,
    mut turns: MessageReader<TurnChanged>,
    mut person_was_to_move: Local<bool>,
) {
    let (moved, refused, ended) = (applied.read().count(), refused.read().count(), ended.read().count());
    let mut handed = false;
    for turn in turns.read() {
        handed = turn.person && !*person_was_to_move;
        *person_was_to_move = turn.person;
    }
    if !settings.sound {
        return;
    }
    let sound = if ended > 0 {
        &sounds.ended
    } else if refused > 0 {
        &sounds.refused
    } else if moved > 0 && handed {
        &sounds.handed
    } else if moved > 0 {
        &sounds.moved
    } else {
        return;
    };
    commands.spawn((
        AudioPlayer::new(sound.clone()),
        PlaybackSettings::DESPAWN.with_volume(Volume::Linear(settings.volume)),
    ));
}

fn samples(seconds: f32, mut f: impl FnMut(f32) -> f32) -> Vec<f32> {
    (0..(seconds * RATE as f32) as u32).map(|i| f(i as f32 / RATE as f32)).collect()
}

/// Two damped partials and a breath of noise: a stone set down on wood.
pub fn click() -> Vec<f32> {
    let mut seed = 0x2545_F491u32;
    samples(0.14, |t| {
        seed = seed.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
        let noise = (seed >> 9) as f32 / (1u32 << 23) as f32 - 1.0;
        let body = (TAU * 520.0 * t).sin() * 0.6 + (TAU * 1310.0 * t).sin() * 0.25;
        (body * (-t * 38.0).exp() + noise * 0.35 * (-t * 160.0).exp()) * 0.8
    })
}

/// Two low, soft square-ish tones.
pub fn buzz() -> Vec<f32> {
    samples(0.26, |t| {
        let f = if t < 0.12 { 196.0 } else { 147.0 };
        let local = if t < 0.12 { t } else { t - 0.13 };
        let gate = if (0.12..0.13).contains(&t) { 0.0 } else { 1.0 };
        let tone = ((TAU * f * t).sin() * 3.0).tanh() / 3.0f32.tanh();
        tone * gate * 0.35 * (1.0 - (-local * 200.0).exp()) * (-local * 9.0).exp()
    })
}

/// C, E, G, C rising, each ringing on.
pub fn chime() -> Vec<f32> {
    const NOTES: [f32; 4] = [523.25, 659.25, 783.99, 1046.5];
    samples(1.0, |t| {
        NOTES
            .iter()
            .enumerate()
            .map(|(i, f)| {
                let start = i as f32 * 0.11;
                if t < start {
                    return 0.0;
                }
                let u = t - start;
                ((TAU * f * u).sin() + 0.3 * (TAU * 2.0 * f * u).sin())
                    * (-u * 4.0).exp()
                    * (1.0 - (-u * 300.0).exp())
            })
            .sum::<f32>()
            * 0.22
    })
}

/// The click, then two soft bells a fourth apart: your turn.
pub fn handed() -> Vec<f32> {
    const NOTES: [(f32, f32); 2] = [(659.25, 0.16), (880.0, 0.3)];
    let mut out = click();
    out.resize((0.9 * RATE as f32) as usize, 0.0);
    for (i, x) in out.iter_mut().enumerate() {
        let t = i as f32 / RATE as f32;
        for (f, start) in NOTES {
            if t >= start {
                let u = t - start;
                *x += (TAU * f * u).sin() * (-u * 6.0).exp() * (1.0 - (-u * 400.0).exp()) * 0.25;
            }
        }
    }
    out
}

/// 16-bit mono PCM WAV bytes.
pub fn wav(samples: &[f32]) -> Vec<u8> {
    let data_len = (samples.len() * 2) as u32;
    let mut out = Vec::with_capacity(44 + data_len as usize);
    out.extend_from_slice(b"RIFF");
    out.extend_from_slice(&(36 + data_len).to_le_bytes());
    out.extend_from_slice(b"WAVEfmt ");
    out.extend_from_slice(&16u32.to_le_bytes());
    out.extend_from_slice(&1u16.to_le_bytes()); // PCM
    out.extend_from_slice(&1u16.to_le_bytes()); // mono
    out.extend_from_slice(&RATE.to_le_bytes());
    out.extend_from_slice(&(RATE * 2).to_le_bytes());
    out.extend_from_slice(&2u16.to_le_bytes());
    out.extend_from_slice(&16u16.to_le_bytes());
    out.extend_from_slice(b"data");
    out.extend_from_slice(&data_len.to_le_bytes());
    for &s in samples {
        out.extend_from_slice(&((s.clamp(-1.0, 1.0) * i16::MAX as f32) as i16).to_le_bytes());
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sounds_are_audible_and_do_not_clip() {
        for (name, s) in [("click", click()), ("buzz", buzz()), ("chime", chime()), ("handed", handed())] {
            let peak = s.iter().fold(0.0f32, |m, x| m.max(x.abs()));
            assert!(peak > 0.1 && peak <= 1.0, "{name}: peak {peak}");
            assert!(s.iter().all(|x| x.is_finite()), "{name}");
        }
        let bytes = wav(&[0.0, 0.5, -0.5]);
        assert_eq!(&bytes[..4], b"RIFF");
        assert_eq!(bytes.len(), 44 + 6);
    }
}
