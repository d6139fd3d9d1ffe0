//! Russian Bank in the window: the table laid out as people lay it, cards
//! to drag or click, lit targets, flights from the engine's steps, the Stop
//! button, and a match to the level's points over fresh deals.
//!
//! Layout: player 1 sits at the bottom, player 2 at the top, each with
//! reserve, hand, turned card and waste in their row. The foundations stand
//! in two columns in the middle; T1..T4 fan out to the left (T1 at the
//! bottom, nearest player 1), T5..T8 to the right (T5 at the top, nearest
//! player 2).
//!
//! Every card is an entity for as long as the game is shown: a move's steps
//! carry cards from pile to pile and turn them face up or down; nothing is
//! despawned and spawned again, a new deal included.
//!
//! This file holds the table's components, the card a human has chosen and
//! the plugin. Where each pile and card lies is `layout`'s, laying the table
//! and dealing its cards from the view `spawn`'s, a card entity and its
//! painted face `cards`'s, following a move's steps `animate`'s, the mouse,
//! keys and lit targets `input`'s, the match over several deals `deals`'s,
//! the buttons and score over the table `buttons`'s, the card art `art`'s,
//! the teaching overlay (priority in cards, slips named) `teach`'s.

mod animate;
mod art;
mod buttons;
mod cards;
mod deals;
mod felt;
mod form;
mod input;
mod layout;
mod picture;
mod position;
mod spawn;
mod teach;

use bevy::prelude::*;
use bevy_egui::{EguiPrimaryContextPass, egui};
use tabula_engine::russian_bank::{
    BankMove, BankStep, BankView, Card, Place, RussianBank, RussianBankLevel, Source, Target,
};
use tabula_engine::{Game, Outcome, Player};

use crate::app::board::{count_busy, keys_free, playing, pointer_free};
use crate::app::game::{WindowGame, name_of};
use crate::app::glide::{Glide, glide};
use crate::app::help::{Controls, Key, key};
use crate::app::hud::HudPanels;
use crate::app::registry;
use crate::app::session::{MoveChoice, SessionSet, choice_expires};

pub use art::CARD;
pub use deals::BankMatch;
pub use layout::{NAME_X, TABLE, base_position, card_position, place_at, source_of, target_of};

/// Seconds a card takes from pile to pile.
const FLIGHT: f32 = 0.3;
/// How high a flying card rises over the table.
const LIFT: f32 = 50.0;
/// Seconds the table stays still after an agent loads the other
/// player's reserve or waste, at the default speed.
const LOADED_PAUSE: f32 = 2.5;

/// A card on the table: where it lies (and how deep in its pile).
#[derive(Component, Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct TableCard {
    pub place: Place,
    pub index: usize,
}

/// What a card entity shows: its face, or `None` for its back. A card the
/// screen's seat has not seen is spawned with its back: no entity holds a
/// hidden face.
#[derive(Component, Debug, Clone, Copy, PartialEq, Eq)]
pub struct CardFace(pub Option<Card>);

/// The outline where a pile lies, empty or not.
#[derive(Component, Debug)]
struct PileSlot;

/// The felt under the table.
#[derive(Component, Debug)]
struct Felt;

/// A pile's name and how many cards it holds.
#[derive(Component, Debug, Clone, Copy)]
struct PileLabel(Place);

/// A player's name at the end of their row.
#[derive(Component, Debug, Clone, Copy)]
struct SeatName(Player);

/// The line under a player's name: to move, or waits.
#[derive(Component, Debug, Clone, Copy)]
struct SeatLine(Player);

/// A highlight over a pile the chosen card may go to.
#[derive(Component, Debug)]
struct TargetGlow;

/// The card a human has picked up or chosen.
#[derive(Resource, Debug, Default)]
pub struct Choice {
    /// The source and the card's entity.
    pub chosen: Option<(Source, Entity)>,
    /// Held by the mouse, with the pointer's offset from the card's centre.
    dragging: Option<Vec2>,
    /// Where the press began, to tell a click from a drag.
    pressed_at: Option<Vec2>,
    /// The choice changed: targets are lit again.
    changed: bool,
}

impl MoveChoice for Choice {
    fn expire(&mut self) {
        *self = Choice { changed: true, ..default() };
    }
}

/// How often a move's steps did not account for the cards on the table, so
/// that it was dealt again from the view: a fault, which the mirror test
/// wants never to see.
#[derive(Resource, Debug, Default)]
pub struct Redealt(pub u32);

/// Why the last Stop was called, or why one was refused: said in the
/// table panel for the turn it was said in (the stopper's, after a Stop),
/// so that it is read, and then gone, so that it never lingers over later
/// play.
#[derive(Resource, Debug, Default)]
pub struct LastStop {
    text: Option<String>,
    /// The moves played when it was said: an undo before then takes it away.
    at: usize,
    /// The player to move when last looked at, and whether the turn has
    /// passed since it was said.
    to_move: Option<Player>,
    passed: bool,
}

impl LastStop {
    /// Says `text` with `at` moves played and `to_move` to move, until the
    /// turn passes.
    pub fn say(&mut self, text: String, at: usize, to_move: Player) {
        *self = LastStop { text: Some(text), at, to_move: Some(to_move), passed: false };
    }

    pub fn clear(&mut self) {
        self.text = None;
    }

    /// Notes who is to move now: a new turn ends what was said.
    pub fn look(&mut self, to_move: Player) {
        if self.to_move != Some(to_move) {
            self.to_move = Some(to_move);
            self.passed = true;
        }
    }

    /// What to say with `plies` moves played.
    pub fn shown(&self, plies: usize) -> Option<&str> {
        self.text.as_deref().filter(|_| plies >= self.at && !self.passed)
    }
}

/// Russian Bank in the window.
pub fn plugin(app: &mut App) {
    registry::register::<RussianBank>(app);
    choice_expires::<Choice>(app);
    app.init_resource::<Choice>()
        .init_resource::<BankMatch>()
        .init_resource::<LastStop>()
        .init_resource::<Redealt>()
        .init_resource::<teach::BankLesson>()
        .add_systems(Startup, art::make_card_art)
        .add_systems(
            Update,
            (
                (
                    spawn::lay_table,
                    animate::follow_moves,
                    animate::snap_back,
                    animate::refused_stop,
                    animate::end_with_the_turn,
                    cards::paint_faces,
                    spawn::count_piles,
                    spawn::show_turn,
                    glide,
                    count_busy::<Glide>,
                    input::light_targets,
                    input::describe_choice,
                )
                    .chain()
                    .in_set(SessionSet::View),
                deals::tally_match.in_set(SessionSet::View),
                teach::teach_priority.in_set(SessionSet::View),
            )
                .run_if(playing::<RussianBank>),
        )
        .add_systems(
            Update,
            (input::handle_pointer.run_if(pointer_free), input::handle_keys.run_if(keys_free))
                .in_set(SessionSet::Requests)
                .run_if(playing::<RussianBank>),
        )
        .add_systems(
            EguiPrimaryContextPass,
            buttons::table_buttons.after(HudPanels).run_if(playing::<RussianBank>),
        );
}

impl WindowGame for RussianBank {
    const MOUSE: &'static str = "Drag a card (or click it, then a pile): the piles it may go to light up. Click your hand to turn it.";
    const KEYS: &'static [Key] = &[
        key("H", "turn hand"),
        key("W", "hand card to waste"),
        key("E", "end turn"),
        key("F", "fast-forward the other's turn"),
    ];
    const ABOUT: &'static str = "Patience for two: be first to play out reserve, hand and waste.";
    const PICTURE: Option<&'static str> = Some("01-shuffled-deal.ron");
    /// Each card of an agent's turn lands, and stays a moment: long enough
    /// to follow the turn, and to call Stop on a slip.
    const AGENT_PAUSE: f32 = 1.0;
    /// A card put on the other player's reserve or waste changes what
    /// they must play: it stays in view longer than a card moved on the
    /// player's own side.
    fn agent_pause_after(mv: &BankMove) -> f32 {
        match mv {
            BankMove::Play { to: Target::OpponentReserve | Target::OpponentWaste, .. } => LOADED_PAUSE,
            _ => Self::AGENT_PAUSE,
        }
    }
    const TEACHES: &'static str = "teach: what priority asks, every slip named";

    fn draw_level(painter: &egui::Painter, rect: egui::Rect, level: &RussianBankLevel) {
        picture::draw(painter, rect, level);
    }

    fn new_level() -> RussianBankLevel {
        RussianBankLevel {
            name: "New level".into(),
            description: String::new(),
            group: Default::default(),
            deal: tabula_engine::russian_bank::Deal::Shuffled,
            stop_rule: true,
            match_points: tabula_engine::russian_bank::level::DEFAULT_MATCH_POINTS,
            move_cap: tabula_engine::russian_bank::level::DEFAULT_MOVE_CAP,
        }
    }

    fn edit_level(ui: &mut egui::Ui, level: &RussianBankLevel) -> Option<RussianBankLevel> {
        form::fields(ui, level)
    }

    fn edit_on_picture(
        ui: &mut egui::Ui,
        level: &RussianBankLevel,
        refused: &mut Option<String>,
    ) -> Option<RussianBankLevel> {
        form::on_picture(ui, level, refused)
    }

    /// Stop! is a key only where the level has the Stop rule.
    fn controls(level: &RussianBankLevel) -> Controls {
        let stop: &[Key] = if level.stop_rule { &[key("S", "Stop! during the other's turn")] } else { &[] };
        Controls::new(Self::MOUSE, Self::KEYS)
            .and(stop)
            .and(&[key("N", "next deal")])
            .also(&[key("right-click", "put a picked-up card back")])
    }

    fn from_view(view: &BankView) -> RussianBank {
        view.0.clone()
    }

    fn rules_text(level: &RussianBankLevel) -> String {
        let stop = if level.stop_rule { "Stop rule on" } else { "Stop rule off" };
        format!("{stop} · match to {} points · a draw after {} moves", level.match_points, level.move_cap)
    }

    fn outcome_text(board: &BankView, names: &[String]) -> String {
        match board.0.outcome() {
            Some(Outcome::Win(p)) => {
                let points = board.0.winner_points().map_or(0, |(_, pts)| pts);
                format!("{} emptied their piles and scores {points}", name_of(names, p))
            }
            Some(Outcome::Draw) => "A draw: the move cap was reached".to_owned(),
            None => String::new(),
        }
    }

    /// A card played is named as it shows: "7♣ hand to T3".
    fn move_words(before: &RussianBank, _level: &RussianBankLevel, mv: &BankMove) -> String {
        // The engine's words, as the server says them too.
        before.words_for(mv)
    }

    fn step_note(steps: &[BankStep]) -> Option<String> {
        // Only a Stop says what was broken; a breach itself is never told.
        steps.iter().find_map(|s| match s {
            BankStep::Stopped { rule, .. } => Some(format!("stopped: {rule}")),
            BankStep::WasteTurnedOver { .. } => Some("the waste turned over as the new hand".to_owned()),
            _ => None,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A Stop's reason lasts through the stopper's turn, then goes; an
    /// undo to before it takes it away.
    #[test]
    fn a_stops_reason_is_said_for_the_turn_then_gone() {
        let mut last = LastStop::default();
        last.say("Mary stopped John".into(), 5, Player::TWO);
        last.look(Player::TWO);
        assert_eq!(last.shown(6), Some("Mary stopped John"), "the stopper's turn");
        assert_eq!(last.shown(4), None, "undone to before the Stop");
        last.look(Player::ONE);
        assert_eq!(last.shown(9), None, "gone when the turn passes");
        last.say("No Stop".into(), 12, Player::TWO);
        assert_eq!(last.shown(12), Some("No Stop"));
        last.look(Player::ONE);
        assert_eq!(last.shown(13), None, "a refusal lasts only the turn it was said in");
    }

    /// A card the agent puts on the person's reserve or waste stays in
    /// view longer than one it moves on its own side.
    #[test]
    fn a_card_loaded_on_the_other_side_is_left_longer_in_view() {
        let play = |to| BankMove::Play { from: Source::Hand, to };
        for to in [Target::OpponentReserve, Target::OpponentWaste] {
            assert!(RussianBank::agent_pause_after(&play(to)) >= 2.0 * RussianBank::AGENT_PAUSE);
        }
        for mv in [play(Target::Waste), BankMove::TurnHand, BankMove::Stop] {
            assert_eq!(RussianBank::agent_pause_after(&mv), RussianBank::AGENT_PAUSE);
        }
    }
}
