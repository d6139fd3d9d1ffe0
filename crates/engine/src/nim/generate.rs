//! Nim levels dealt from a seed (`tabula generate nim`): piles of stones
//! drawn at random, so a game after a game is another sum to work out, not
//! the same winning line again.

use rand::Rng;

use super::level::{Ending, MAX_PILES, NimLevel};
use super::rules::Nim;
use crate::core::{LevelGenerator, LevelGroup, rng_from_seed};

/// The options `tabula generate nim` takes, for its help.
pub const OPTIONS: &str = "\
  --piles N     piles, 1 to 64 (default 4)
  --most M      most stones a pile is dealt, 1 to 1000 (default 7)
  --ending E    normal (the last stone wins, the default) or misere (it loses)";

/// Most stones a pile is dealt: boards for a person to work out, far
/// below what a level may hold.
const MOST: u32 = 1_000;

/// `tabula generate nim`, for the catalog.
pub struct NimGenerator;

impl LevelGenerator for NimGenerator {
    type Game = Nim;
    const OPTIONS: &'static str = OPTIONS;

    fn generate(options: &[(String, String)], seed: u64) -> Result<NimLevel, String> {
        let (mut piles, mut most, mut ending) = (4, 7, Ending::Normal);
        for (name, value) in options {
            let number =
                |max: u32| -> Result<u32, String> {
                    value.parse::<u32>().ok().filter(|n| (1..=max).contains(n)).ok_or_else(|| {
                        format!("--{name} takes a whole number from 1 to {max}, not '{value}'")
                    })
                };
            match name.as_str() {
                "piles" => piles = number(MAX_PILES as u32)? as usize,
                "most" => most = number(MOST)?,
                "ending" => {
                    ending = match value.as_str() {
                        "normal" => Ending::Normal,
                        "misere" | "misère" => Ending::Misere,
                        _ => return Err(format!("--ending takes normal or misere, not '{value}'")),
                    }
                }
                _ => return Err(format!("Nim's generator has no option --{name}; it takes:\n{OPTIONS}")),
            }
        }
        Ok(deal(piles, most, ending, seed))
    }

    /// As many piles as `level` has, with its ending, each dealt 1 to
    /// seven stones, or to its largest pile where that is more.
    fn deal_like(level: &NimLevel, seed: u64) -> Result<NimLevel, String> {
        let most = level.piles.iter().copied().max().unwrap_or(0).clamp(7, MOST);
        let mut dealt = deal(level.piles.len().clamp(1, MAX_PILES), most, level.ending, seed);
        dealt.description = format!(
            "{} piles dealt at random, 1 to {most} stones each, as many as in {}; {}.",
            dealt.piles.len(),
            level.name,
            level.ending.describe()
        );
        Ok(dealt)
    }
}

/// `piles` piles of 1 to `most` stones, named by their stones.
fn deal(piles: usize, most: u32, ending: Ending, seed: u64) -> NimLevel {
    let mut rng = rng_from_seed(seed);
    let piles: Vec<u32> = (0..piles).map(|_| rng.random_range(1..=most)).collect();
    let shown: Vec<String> = piles.iter().map(u32::to_string).collect();
    NimLevel {
        name: format!("Dealt {}", shown.join("-")),
        description: format!(
            "{} piles dealt at random, 1 to {most} stones each; {}.",
            piles.len(),
            ending.describe()
        ),
        group: LevelGroup::Game,
        piles,
        ending,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn options(pairs: &[(&str, &str)]) -> Vec<(String, String)> {
        pairs.iter().map(|(n, v)| (n.to_string(), v.to_string())).collect()
    }

    #[test]
    fn dealt_piles_are_as_asked_valid_and_differ_by_seed() {
        let asked = options(&[("piles", "5"), ("most", "9"), ("ending", "misere")]);
        let mut seen = std::collections::HashSet::new();
        for seed in 0..50 {
            let level = NimGenerator::generate(&asked, seed).unwrap();
            assert_eq!(level, NimGenerator::generate(&asked, seed).unwrap(), "the same seed, the same piles");
            assert_eq!(level.piles.len(), 5);
            assert!(level.piles.iter().all(|n| (1..=9).contains(n)), "{:?}", level.piles);
            assert_eq!(level.ending, Ending::Misere);
            level.check().unwrap();
            seen.insert(level.piles);
        }
        assert!(seen.len() > 45, "50 seeds dealt only {} layouts", seen.len());
    }

    #[test]
    fn a_deal_like_a_level_keeps_its_piles_count_and_ending() {
        let level = NimLevel::new("McMorran 5-6-7", &[5, 6, 7], Ending::Misere);
        let dealt = NimGenerator::deal_like(&level, 3).unwrap();
        assert_eq!((dealt.piles.len(), dealt.ending), (3, Ending::Misere));
        assert!(dealt.piles.iter().all(|n| (1..=7).contains(n)));
        assert_eq!(dealt.name, format!("Dealt {}-{}-{}", dealt.piles[0], dealt.piles[1], dealt.piles[2]));
        assert!(dealt.description.contains("McMorran 5-6-7"), "{}", dealt.description);
        let big = NimLevel::new("Big", &[2, 30], Ending::Normal);
        let dealt: Vec<NimLevel> = (0..40).map(|s| NimGenerator::deal_like(&big, s).unwrap()).collect();
        assert!(dealt.iter().any(|l| l.piles.iter().any(|&n| n > 7)), "dealt up to the largest pile");
        assert!(dealt.iter().all(|l| l.piles.iter().all(|&n| n <= 30)));
    }

    #[test]
    fn options_out_of_range_are_refused_by_name() {
        for (pairs, said) in [
            (options(&[("piles", "0")]), "--piles takes a whole number from 1 to 64, not '0'"),
            (options(&[("most", "x")]), "--most takes a whole number from 1 to 1000, not 'x'"),
            (options(&[("ending", "sudden")]), "--ending takes normal or misere, not 'sudden'"),
            (options(&[("width", "3")]), "Nim's generator has no option --width"),
        ] {
            let e = NimGenerator::generate(&pairs, 0).unwrap_err();
            assert!(e.starts_with(said), "{e}");
        }
    }
}
