//! A game in progress held without its type: the game server keeps tables
//! of every registered game through [`LiveGame`], and seats agents through
//! [`LiveAgent`]. Moves come and go as JSON in the replay notation; what a
//! seat sees goes out as its observation, never more.

use std::any::Any;

use serde::{Deserialize, Serialize};
use serde_json::Value;
use serde_json::value::RawValue;

use crate::core::agent::{Agent, AgentError, AgentSpec};
use crate::core::{Game, GameRng, Outcome, Player, Registered, RuleError, RuleViolation, apply_with_steps};
use crate::level::LevelFile;
use crate::replay::{LevelSource, Replay, Seat};

/// JSON text made once and sent as it is.
pub type Json = Box<RawValue>;

/// Why a move was refused; the game is unchanged.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct Refusal {
    pub kind: RefusalKind,
    pub message: String,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RefusalKind {
    /// Not a move of this game at all (an unknown name, a missing field).
    Malformed,
    /// The seat may not move now.
    NotYourTurn,
    /// A move of this game the rules refuse here.
    Illegal,
}

/// A move the game accepted.
#[derive(Debug)]
pub struct Played {
    pub seat: Player,
    /// The move in the replay notation, as the game writes it.
    pub mv: Json,
    /// The move in words ("take 3 stones from pile 1").
    pub says: String,
    /// Its steps, in order (public: every seat may follow them).
    pub steps: Json,
}

/// A game in progress, its type hidden.
pub trait LiveGame: Send + Sync {
    /// The game's name in level files.
    fn game(&self) -> &'static str;
    fn level(&self) -> &LevelFile;
    fn seed(&self) -> u64;
    fn num_players(&self) -> usize;
    /// Who moves next (meaningless once the game is over).
    fn to_move(&self) -> Player;
    fn outcome(&self) -> Option<Outcome>;
    fn scores(&self) -> Vec<i64>;
    /// Moves played so far.
    fn ply(&self) -> usize;
    /// The moves played so far, each with its seat and its words: every
    /// follower of a table hears every move, so they are public.
    fn moves(&self) -> Vec<(Player, Json, String)>;
    /// The level's text as every seat may read it ([`crate::core::Level::public`]).
    fn public_level(&self) -> String;
    /// Plays `mv` (JSON in the replay notation) for `seat`, or refuses it
    /// and changes nothing.
    fn play(&mut self, seat: Player, mv: &Value) -> Result<Played, Refusal>;
    /// What `viewer` may see (`None`: a spectator), as JSON.
    fn observe(&self, viewer: Option<Player>) -> Json;
    /// The moves `seat` may make now, as JSON, each with its words.
    fn legal(&self, seat: Player) -> Vec<(Json, String)>;
    /// Whether `seat` has a move now (nothing written out).
    fn may_move(&self, seat: Player) -> bool;
    /// The most legal moves any seat can have from here on, and the most
    /// moves the game can last ([`Game::legal_bound`], [`Game::move_bound`]).
    fn bounds(&self) -> (u64, u64);
    /// Goes back to the position after `ply` moves, unless a move since
    /// showed what was hidden (then the reason, and nothing changes).
    fn take_back(&mut self, ply: usize) -> Result<(), &'static str>;
    /// The earliest position a take-back may reach, and why no earlier.
    fn take_back_limit(&self) -> (usize, Option<&'static str>);
    /// The game so far as a replay file's text.
    fn replay(&self, players: &[Seat]) -> String;
    /// Builds an agent of this game from its spec.
    fn agent(&self, spec: &AgentSpec) -> Result<Box<dyn LiveAgent>, AgentError>;
    /// A seat other than the one to move may sometimes move (a Stop).
    fn interjections(&self) -> bool;
    /// A copy, for an agent to think on while the table serves others.
    fn boxed_clone(&self) -> Box<dyn LiveGame>;
    fn as_any(&self) -> &dyn Any;
}

/// An agent seated at a live game.
pub trait LiveAgent: Send {
    /// The move `seat` makes now, from its observation only.
    fn choose(&mut self, game: &dyn LiveGame, seat: Player, rng: &mut GameRng) -> Option<Value>;
    /// A move `seat` makes out of turn now (a Stop), if it makes one.
    fn interject(&mut self, game: &dyn LiveGame, seat: Player, rng: &mut GameRng) -> Option<Value>;
    /// The same from the seat's observation as JSON, as a server sends it
    /// (a bot playing over the network): `interject` asks for a move out of
    /// turn. An observation that is not this game's is an error.
    fn choose_seen(
        &mut self,
        view: &str,
        seat: Player,
        interject: bool,
        rng: &mut GameRng,
    ) -> Result<Option<Value>, String>;
}

/// An agent of game `G`, held without its type.
pub(crate) fn live_agent<G: Registered>(spec: &AgentSpec) -> Result<Box<dyn LiveAgent>, AgentError> {
    Ok(Box::new(Seated::<G>(G::build_agent(spec)?)))
}

/// A game of type `G` in progress, with what a take-back needs.
pub(crate) struct Live<G: Game> {
    level: LevelFile,
    seed: u64,
    game: G,
    moves: Vec<G::Move>,
    /// Who made each move.
    movers: Vec<Player>,
    /// Each move in words, said from the position before it.
    said: Vec<String>,
    /// The ply after the last move that cannot be taken back, and why.
    barrier: (usize, Option<&'static str>),
}

fn json(value: &impl Serialize) -> Json {
    serde_json::value::to_raw_value(value).expect("game data serialises")
}

fn to_value(value: &impl Serialize) -> Value {
    serde_json::to_value(value).expect("game data serialises")
}

impl<G: Registered> Live<G> {
    pub(crate) fn new(level: &LevelFile, seed: u64) -> Result<Live<G>, RuleViolation> {
        let typed = level.get::<G>().expect("a level started by its own game");
        Ok(Live {
            level: level.clone(),
            seed,
            game: G::new(typed, seed)?,
            moves: Vec::new(),
            movers: Vec::new(),
            said: Vec::new(),
            barrier: (0, None),
        })
    }

    fn typed(game: &dyn LiveGame) -> &Live<G> {
        game.as_any().downcast_ref().expect("an agent plays the game it was built for")
    }
}

impl<G: Registered> LiveGame for Live<G> {
    fn game(&self) -> &'static str {
        G::NAME
    }

    fn level(&self) -> &LevelFile {
        &self.level
    }

    fn seed(&self) -> u64 {
        self.seed
    }

    fn num_players(&self) -> usize {
        self.game.num_players()
    }

    fn to_move(&self) -> Player {
        self.game.current_player()
    }

    fn outcome(&self) -> Option<Outcome> {
        self.game.outcome()
    }

    fn scores(&self) -> Vec<i64> {
        self.game.scores()
    }

    fn ply(&self) -> usize {
        self.moves.len()
    }

    fn moves(&self) -> Vec<(Player, Json, String)> {
        let each = self.movers.iter().zip(&self.moves).zip(&self.said);
        each.map(|((&seat, mv), says)| (seat, json(mv), says.clone())).collect()
    }

    fn public_level(&self) -> String {
        let typed = self.level.get::<G>().expect("a level started by its own game");
        LevelFile::new::<G>(crate::core::Level::public(typed)).layout()
    }

    fn play(&mut self, seat: Player, sent: &Value) -> Result<Played, Refusal> {
        let malformed = |message| Refusal { kind: RefusalKind::Malformed, message };
        let mv =
            G::Move::deserialize(sent).map_err(|e| malformed(format!("not a move of {}: {e}", G::TITLE)))?;
        // One way to write each move, as `legal` writes it: serde would also
        // read a struct from a list (`[1, 1]`), which no document promises.
        let written = to_value(&mv);
        if written != *sent {
            return Err(malformed(format!(
                "not a move of {} as the notation writes it: {written}",
                G::TITLE
            )));
        }
        // Said from the position before, as the window's log says it.
        let says = self.game.words_for(&mv);
        let (_, steps) = apply_with_steps(&mut self.game, seat, mv).map_err(|e| Refusal {
            kind: if e.not_your_turn().is_some() { RefusalKind::NotYourTurn } else { RefusalKind::Illegal },
            message: e.to_string(),
        })?;
        self.moves.push(mv);
        self.movers.push(seat);
        self.said.push(says.clone());
        if let Some(why) = steps.iter().find_map(G::irreversible) {
            self.barrier = (self.moves.len(), Some(why));
        }
        Ok(Played { seat, mv: json(&mv), says, steps: json(&steps) })
    }

    fn observe(&self, viewer: Option<Player>) -> Json {
        json(&*self.game.observe(viewer))
    }

    fn legal(&self, seat: Player) -> Vec<(Json, String)> {
        let mut moves = Vec::new();
        self.game.legal_moves(seat, &mut moves);
        moves.iter().map(|mv| (json(mv), mv.to_string())).collect()
    }

    fn may_move(&self, seat: Player) -> bool {
        let mut moves = Vec::new();
        self.game.legal_moves(seat, &mut moves);
        !moves.is_empty()
    }

    fn bounds(&self) -> (u64, u64) {
        (self.game.legal_bound(), self.game.move_bound())
    }

    fn take_back(&mut self, ply: usize) -> Result<(), &'static str> {
        if ply < self.barrier.0 {
            return Err(self.barrier.1.unwrap_or("it cannot be taken back"));
        }
        if ply >= self.moves.len() {
            return Ok(());
        }
        let mut again = Live::<G>::new(&self.level, self.seed).expect("the level started once");
        for &mv in &self.moves[..ply] {
            let seat = again.game.actor(&mv);
            again.said.push(again.game.words_for(&mv));
            again.game.apply(seat, mv).expect("a move played once plays again");
            again.moves.push(mv);
            again.movers.push(seat);
        }
        again.barrier = self.barrier;
        *self = again;
        Ok(())
    }

    fn take_back_limit(&self) -> (usize, Option<&'static str>) {
        self.barrier
    }

    fn replay(&self, players: &[Seat]) -> String {
        Replay {
            level: LevelSource::Inline(self.level.clone()),
            seed: self.seed,
            players: players.to_vec(),
            moves: self.moves.clone(),
        }
        .to_ron()
    }

    fn agent(&self, spec: &AgentSpec) -> Result<Box<dyn LiveAgent>, AgentError> {
        live_agent::<G>(spec)
    }

    fn interjections(&self) -> bool {
        G::INTERJECTIONS
    }

    fn boxed_clone(&self) -> Box<dyn LiveGame> {
        Box::new(Live {
            level: self.level.clone(),
            seed: self.seed,
            game: self.game.clone(),
            moves: self.moves.clone(),
            movers: self.movers.clone(),
            said: self.said.clone(),
            barrier: self.barrier,
        })
    }

    fn as_any(&self) -> &dyn Any {
        self
    }
}

/// An agent of game `G`, seated at a live game of `G`.
struct Seated<G: Game>(Box<dyn Agent<G>>);

impl<G: Registered> LiveAgent for Seated<G> {
    fn choose(&mut self, game: &dyn LiveGame, seat: Player, rng: &mut GameRng) -> Option<Value> {
        let live = Live::<G>::typed(game);
        self.0.choose(seat, &live.game.observe(Some(seat)), rng).map(|mv| to_value(&mv))
    }

    fn interject(&mut self, game: &dyn LiveGame, seat: Player, rng: &mut GameRng) -> Option<Value> {
        let live = Live::<G>::typed(game);
        self.0.interject(seat, &live.game.observe(Some(seat)), rng).map(|mv| to_value(&mv))
    }

    fn choose_seen(
        &mut self,
        view: &str,
        seat: Player,
        interject: bool,
        rng: &mut GameRng,
    ) -> Result<Option<Value>, String> {
        let seen: G::Observation =
            serde_json::from_str(view).map_err(|e| format!("not what a seat of {} sees: {e}", G::TITLE))?;
        let mv = if interject { self.0.interject(seat, &seen, rng) } else { self.0.choose(seat, &seen, rng) };
        Ok(mv.map(|mv| to_value(&mv)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::rng_from_seed;
    use crate::games::start;
    use crate::nim::{Ending, Nim, NimLevel};
    use crate::russian_bank::RussianBank;

    fn raw(text: &str) -> Value {
        serde_json::from_str(text).unwrap()
    }

    #[test]
    fn a_live_game_plays_refuses_and_takes_back_in_json() {
        let level = LevelFile::new::<Nim>(NimLevel::new("t", &[2, 3], Ending::Normal));
        let mut live = start(&level, 1).unwrap();
        let played = live.play(Player::ONE, &raw(r#"{"pile":1,"count":2}"#)).unwrap();
        assert_eq!(played.says, "take 2 stones from pile 2");
        assert!(played.steps.get().contains("Took"), "{}", played.steps);
        let before = live.observe(None).get().to_owned();
        let refused = live.play(Player::ONE, &raw(r#"{"pile":0,"count":1}"#)).unwrap_err();
        assert_eq!(refused.kind, RefusalKind::NotYourTurn);
        let refused = live.play(Player::TWO, &raw(r#"{"pile":0,"count":3}"#)).unwrap_err();
        assert_eq!(refused.kind, RefusalKind::Illegal);
        let refused = live.play(Player::TWO, &raw(r#"{"heap":0}"#)).unwrap_err();
        assert_eq!(refused.kind, RefusalKind::Malformed);
        assert!(refused.message.starts_with("not a move of Nim: "), "{}", refused.message);
        // A move another way than the notation's: a list, an unknown field.
        for other in [r#"[0, 1]"#, r#"{"pile":0,"count":1,"bogus":9}"#] {
            let refused = live.play(Player::TWO, &raw(other)).unwrap_err();
            assert_eq!(refused.kind, RefusalKind::Malformed, "{other}");
        }
        assert_eq!(live.observe(None).get(), before, "a refusal changes nothing");
        assert_eq!(live.legal(Player::TWO).len(), 3);
        assert!(live.legal(Player::ONE).is_empty());
        live.take_back(0).unwrap();
        assert_eq!(live.ply(), 0);
        assert_eq!(live.legal(Player::ONE).len(), 5);
        assert!(live.replay(&[]).contains("moves: []"));
    }

    /// A Russian Bank game without Stop, seed 7, and a random agent to
    /// play both seats.
    fn random_bank_game() -> (Box<dyn LiveGame>, GameRng, Box<dyn LiveAgent>) {
        let level =
            crate::level::parse("RussianBank(name: \"t\", deal: Shuffled, stop_rule: false)", "t.ron")
                .unwrap();
        let live = start(&level, 7).unwrap();
        let agent = live.agent(&"random".parse().unwrap()).unwrap();
        (live, rng_from_seed(7), agent)
    }

    #[test]
    fn a_take_back_stops_at_a_move_that_showed_a_hidden_card() {
        let (mut live, mut rng, mut agent) = random_bank_game();
        while live.take_back_limit().0 == 0 && live.outcome().is_none() {
            let seat = live.to_move();
            let mv = agent.choose(&*live, seat, &mut rng).unwrap();
            live.play(seat, &mv).unwrap();
        }
        let (limit, why) = live.take_back_limit();
        assert_eq!(why, Some(crate::core::SHOWED_HIDDEN));
        assert_eq!(live.take_back(limit - 1), Err(crate::core::SHOWED_HIDDEN));
        assert_eq!(live.ply(), limit, "a refused take-back changes nothing");
        assert_eq!(live.game(), <RussianBank as Game>::NAME);
    }

    /// What the server keeps of each move says a card played by its face,
    /// as the window's log does: a client that comes back, or a spectator
    /// who comes in, reads past moves only from it.
    #[test]
    fn a_card_played_is_named_in_the_words_the_server_keeps() {
        let (mut live, mut rng, mut agent) = random_bank_game();
        let mut named = 0;
        for _ in 0..60 {
            let seat = live.to_move();
            let mv = agent.choose(&*live, seat, &mut rng).unwrap();
            let played = live.play(seat, &mv).unwrap();
            if mv.to_string().contains("Play") {
                let face = played.says.split(' ').next().unwrap_or_default();
                assert!(face.ends_with(['♠', '♥', '♦', '♣']), "no card named in {:?} ({mv})", played.says);
                named += 1;
            }
        }
        assert!(named > 10, "only {named} cards played");
        // The moves a `state` lists say the same.
        let kept: Vec<String> = live.moves().into_iter().map(|(_, _, says)| says).collect();
        let faces =
            kept.iter().filter(|s| s.split(' ').next().is_some_and(|w| w.ends_with(['♠', '♥', '♦', '♣'])));
        assert_eq!(faces.count(), named);
        let back = live.take_back_limit().0.max(1);
        live.take_back(back).unwrap();
        let again: Vec<String> = live.moves().into_iter().map(|(_, _, says)| says).collect();
        assert_eq!(again[..], kept[..back], "and again after a take-back");
    }
}
