//! Seeded randomness: every game is deterministic given its level and a seed.

use rand::{Rng, SeedableRng};

/// The generator every game and agent uses; its stream is fixed by
/// `Cargo.lock`, so replays and match results reproduce exactly.
pub type GameRng = rand_xoshiro::Xoshiro256PlusPlus;

pub fn rng_from_seed(seed: u64) -> GameRng {
    GameRng::seed_from_u64(seed)
}

/// SplitMix64's finaliser: a good spread of nearby inputs.
pub fn splitmix64(mut x: u64) -> u64 {
    x = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    x = (x ^ (x >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    x ^ (x >> 31)
}

/// The seed of sub-stream `index` of `seed` (game i of a match, an agent's
/// own stream): independent of how work is split across threads.
pub fn derive_seed(seed: u64, index: u64) -> u64 {
    splitmix64(seed ^ splitmix64(index))
}

pub fn choose<'a, T>(items: &'a [T], rng: &mut GameRng) -> Option<&'a T> {
    if items.is_empty() { None } else { Some(&items[rng.random_range(0..items.len())]) }
}
