//! How often `greedy` below full strength breaks priority (slips), and how
//! often a full-strength `greedy` opponent stops the slip, over 1,000
//! shuffled deals a strength, seats swapped every game.
//! Run with `cargo run --release -p tabula-engine --example bank_slips`.

use tabula_engine::core::{AgentRegistry, Game, Outcome, Player, derive_seed, rng_from_seed};
use tabula_engine::russian_bank::ai::slip_move;
use tabula_engine::russian_bank::{BankStep, RussianBank, RussianBankLevel, opponent};

const GAMES: u64 = 1000;

/// What the weak seat did in the games of one strength.
#[derive(Default)]
struct Tally {
    chances: u64,
    slips: u64,
    stopped: u64,
    turns: u64,
    wins: u64,
    draws: u64,
}

fn main() {
    let level = RussianBankLevel::shuffled("Shuffled deal");
    println!("greedy:S against greedy, {GAMES} shuffled deals each, seats swapped every game");
    println!("strength | slips a game | of its chances | stopped | slips a turn | wins | draws");
    for strength in [1.0, 0.9, 0.8, 0.7, 0.5, 0.3, 0.0] {
        let mut tally = Tally::default();
        for game in 0..GAMES {
            play(&level, &format!("greedy:{strength}"), game, &mut tally);
        }
        let per_game = |n: u64| n as f64 / GAMES as f64;
        println!(
            "{strength:>8} | {:>12.2} | {:>13.1}% | {:>6.1}% | {:>12.2} | {:>3.1}% | {:.1}%",
            per_game(tally.slips),
            100.0 * tally.slips as f64 / tally.chances.max(1) as f64,
            100.0 * tally.stopped as f64 / tally.slips.max(1) as f64,
            tally.slips as f64 / tally.turns.max(1) as f64,
            100.0 * per_game(tally.wins),
            100.0 * per_game(tally.draws),
        );
    }
}

/// One deal, the weak agent in seat 1 on even games and seat 2 on odd ones,
/// Stops asked for after every move as `tabula match` asks.
fn play(level: &RussianBankLevel, weak_spec: &str, index: u64, tally: &mut Tally) {
    let seed = derive_seed(2026, index);
    let mut game = RussianBank::new(level, seed).expect("a valid level");
    let weak = Player((index % 2) as u8);
    let mut agents = [weak_spec, "greedy"].map(|s| RussianBank::agent_from_str(s).expect("a known agent"));
    if weak == Player::TWO {
        agents.swap(0, 1);
    }
    let mut rng = rng_from_seed(seed);
    let mut moves = Vec::new();
    while game.outcome().is_none() {
        let seat = game.current_player();
        let view = game.observe(Some(seat)).into_owned();
        let could_slip = seat == weak && slip_move(&view.0, seat, &mut moves).is_some();
        let mv = agents[seat.index()].choose(seat, &view, &mut rng).expect("a move in a running game");
        tally.chances += could_slip as u64;
        tally.slips += (could_slip && game.breaks_priority(seat, mv).is_some()) as u64;
        let mut steps = game.apply(seat, mv).expect("agents play legal moves");
        let other = opponent(game.current_player());
        if game.outcome().is_none()
            && let Some(stop) = agents[other.index()].interject(other, &game.observe(Some(other)), &mut rng)
        {
            steps.extend(game.apply(other, stop).expect("a Stop the rules offered"));
        }
        for step in &steps {
            match step {
                BankStep::Stopped { by, .. } if *by != weak => tally.stopped += 1,
                BankStep::TurnChanged { to } if *to == weak => tally.turns += 1,
                _ => {}
            }
        }
    }
    match game.outcome() {
        Some(Outcome::Win(p)) if p == weak => tally.wins += 1,
        Some(Outcome::Draw) => tally.draws += 1,
        _ => {}
    }
}
