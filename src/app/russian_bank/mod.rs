//! Russian Bank in the window: the table laid out as people lay it, cards
//! to drag or click, lit targets, flights from the engine's steps, the Stop
//! button, and a match to the level's points over fresh deals.
//!
//! Layout: player 1 sits at the bottom, player 2 at the top, each with
//! reserve, hand, turned card and waste in their row. The foundations stand
//! in two columns in the middle; T1..T4 fan out to the left (T1 at the
//! bottom, nearest player 1), T5..T8 to the right (T5 at the top, nearest
//! player 2).

mod art;

use std::collections::HashMap;

use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};
use tabula_engine::core::derive_seed;
use tabula_engine::level::LevelFile;
use tabula_engine::russian_bank::{
    BankMove, BankStep, BankView, Card, Place, RussianBank, RussianBankLevel, Source, Target, opponent,
};
use tabula_engine::{Game, Outcome, Player};

use self::art::{CARD, CardArt};
use crate::app::BoardCamera;
use crate::app::board::{BoardPointer, count_busy, fit_view, keys_free, playing, pointer_free, seat_color};
use crate::app::frames::NextFrame;
use crate::app::game::{ActiveGame, WindowGame, name_of};
use crate::app::registry;
use crate::app::session::{
    BoardBusy, BoardReset, GameEnded, MoveApplied, MovePreview, MoveRefused, RequestMove, Session,
    SessionPlan, SessionRequest, SessionSet, StatusLine,
};
use crate::app::settings::Settings;

/// Horizontal step between the cards of a fanned tableau pile.
const FAN: f32 = 34.0;
/// Vertical step between the rows of tableau piles and foundations.
const ROW: f32 = 152.0;
/// The centre of each foundation column, from the middle.
const FOUNDATION_X: f32 = 58.0;
/// The first card of each tableau pile, from the middle.
const TABLEAU_X: f32 = 196.0;
/// Each player's row of reserve, hand, turned card and waste.
const PLAYER_Y: f32 = 1.5 * ROW + 200.0;
const RESERVE_X: f32 = -100.0;
const HAND_X: f32 = 105.0;
const SHOWN_X: f32 = 215.0;
const WASTE_X: f32 = 360.0;
/// The player's name, beyond their waste.
const NAME_X: f32 = 540.0;
/// Edges a face-down pile shows at most.
const MAX_EDGES: usize = 5;
/// Room around the table.
const TABLE: Vec2 = Vec2::new(1330.0, 2.0 * PLAYER_Y + CARD.y + 110.0);
/// A face-down pile shows one edge for this many cards.
const CARDS_AN_EDGE: usize = 4;
const FLIGHT: f32 = 0.3;
/// Seconds between the end of a deal and the next when agents play both seats.
const NEXT_DEAL_PAUSE: f32 = 3.0;
/// Screen points between the window's bottom and the table's buttons: over
/// the status line, and over the band that shows the end of a game.
const STATUS_LIFT: f32 = 70.0;
const END_BAND_LIFT: f32 = 150.0;

const FELT: Color = Color::srgb(0.09, 0.33, 0.2);
const RED_INK: Color = Color::srgb(0.78, 0.08, 0.1);
const BLACK_INK: Color = Color::srgb(0.08, 0.08, 0.1);
const LABEL: Color = Color::srgb(0.88, 0.93, 0.88);
const SLOT_TINT: Color = Color::srgba(0.85, 1.0, 0.88, 0.6);
const TARGET_GLOW: Color = Color::srgba(0.45, 1.0, 0.5, 0.45);
const CHOSEN_TINT: Color = Color::srgb(1.0, 0.95, 0.6);

/// A card on the table: where it lies (and how deep in its pile).
#[derive(Component, Debug, Clone, Copy)]
pub struct TableCard {
    pub place: Place,
    pub index: usize,
}

/// The outline where a pile lies, empty or not.
#[derive(Component, Debug)]
struct PileSlot;

/// Labels, felt, names: everything rebuilt with the table.
#[derive(Component, Debug)]
struct TablePart;

/// A highlight over a pile the chosen card may go to.
#[derive(Component, Debug)]
struct TargetGlow;

/// A card on its way from one pile to another; `shows` is the card waiting
/// under it at the destination, shown once it lands.
#[derive(Component, Debug)]
pub struct Flight {
    from: Vec3,
    to: Vec3,
    delay: f32,
    elapsed: f32,
    duration: f32,
    shows: Option<Entity>,
    /// A ghost that goes away on landing (the table already holds the card).
    ghost: bool,
}

/// The card a human has picked up or chosen.
#[derive(Resource, Debug, Default)]
pub struct Choice {
    /// The source and the card's entity.
    pub chosen: Option<(Source, Entity)>,
    /// Held by the mouse, with the pointer's offset from the card's centre.
    dragging: Option<Vec2>,
    /// Where the press began, to tell a click from a drag.
    pressed_at: Option<Vec2>,
    /// Where the last dragged card was let go, for its flight to start there.
    dropped: Option<(Place, Vec2)>,
    /// The choice changed: targets are lit again.
    changed: bool,
}

/// Why the last Stop of this deal was called, shown until the next deal.
#[derive(Resource, Debug, Default)]
pub struct LastStop(pub Option<String>);

/// Points of each finished deal of the match, by deal seed.
#[derive(Resource, Debug, Default)]
pub struct BankMatch {
    /// Which match: the level and the seats.
    key: String,
    pub deals: Vec<(u64, Option<(Player, u32)>)>,
    /// Seconds until agents deal again.
    next_deal_in: Option<f32>,
}

impl BankMatch {
    pub fn points(&self) -> [u32; 2] {
        let mut points = [0, 0];
        for (_, result) in &self.deals {
            if let Some((p, pts)) = result {
                points[p.index()] += pts;
            }
        }
        points
    }

    /// The match winner once a player has `target` points.
    pub fn winner(&self, target: u32) -> Option<Player> {
        let points = self.points();
        (0..2).filter(|&i| points[i] >= target).max_by_key(|&i| points[i]).map(|i| Player(i as u8))
    }
}

/// Russian Bank in the window.
pub fn plugin(app: &mut App) {
    registry::register::<RussianBank>(app);
    app.init_resource::<Choice>()
        .init_resource::<BankMatch>()
        .init_resource::<LastStop>()
        .add_systems(Startup, art::make_card_art)
        .add_systems(
            Update,
            (
                (rebuild_table, fly_cards, count_busy::<Flight>, snap_back, light_targets, describe_choice)
                    .chain()
                    .in_set(SessionSet::View),
                tally_match.in_set(SessionSet::View),
            )
                .run_if(playing::<RussianBank>),
        )
        .add_systems(
            Update,
            (handle_pointer.run_if(pointer_free), handle_keys.run_if(keys_free))
                .in_set(SessionSet::Requests)
                .run_if(playing::<RussianBank>),
        )
        .add_systems(EguiPrimaryContextPass, table_buttons.run_if(playing::<RussianBank>));
}

impl WindowGame for RussianBank {
    const CONTROLS: &'static str = "Drag a card (or click it, then a pile): the piles it may go to light up. Click your hand to turn it. Keys: H turn hand · W hand card to waste · E end turn · S Stop! during the other's turn · N next deal";

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

    fn step_note(steps: &[BankStep]) -> Option<String> {
        // Only a Stop says what was broken; a breach itself is never told.
        steps.iter().find_map(|s| match s {
            BankStep::Stopped { rule, .. } => Some(format!("stopped: {rule}")),
            BankStep::WasteTurnedOver { .. } => Some("the waste turned over as the new hand".to_owned()),
            _ => None,
        })
    }

    /// Undo stops at a card turned up, and at a Stop: taking a Stop back
    /// would let the breach it stopped stand after all.
    fn cannot_undo(step: &BankStep) -> Option<&'static str> {
        match step {
            BankStep::Revealed { .. } | BankStep::HandTurned { .. } => Some(crate::app::game::SHOWED_HIDDEN),
            BankStep::Stopped { .. } => Some("it was a Stop, and the breach it stopped would stand"),
            _ => None,
        }
    }
}

/// Player 1's row is at the bottom, player 2's at the top, turned round.
fn side_sign(p: Player) -> f32 {
    if p == Player::ONE { -1.0 } else { 1.0 }
}

/// Where the first (bottom) card of a place lies.
pub fn base_position(place: Place) -> Vec2 {
    let row_y = |row: usize| (row as f32 - 1.5) * ROW;
    match place {
        Place::Foundation(n) => {
            let i = n as usize - 1;
            let x = if i < 4 { -FOUNDATION_X } else { FOUNDATION_X };
            Vec2::new(x, row_y(3 - i % 4))
        }
        // T1 bottom left up to T4; T5 top right down to T8.
        Place::Tableau(n) if n <= 4 => Vec2::new(-TABLEAU_X, row_y(n as usize - 1)),
        Place::Tableau(n) => Vec2::new(TABLEAU_X, row_y(8 - n as usize)),
        Place::Reserve(p) => Vec2::new(-side_sign(p) * RESERVE_X, side_sign(p) * PLAYER_Y),
        Place::Hand(p) => Vec2::new(-side_sign(p) * HAND_X, side_sign(p) * PLAYER_Y),
        Place::Shown(p) => Vec2::new(-side_sign(p) * SHOWN_X, side_sign(p) * PLAYER_Y),
        Place::Waste(p) => Vec2::new(-side_sign(p) * WASTE_X, side_sign(p) * PLAYER_Y),
    }
}

/// Where card `index` of a place lies: tableau piles fan outwards, other
/// piles stack with an edge showing every few cards.
pub fn card_position(place: Place, index: usize) -> Vec2 {
    let base = base_position(place);
    match place {
        Place::Tableau(n) if n <= 4 => base - Vec2::new(FAN * index as f32, 0.0),
        Place::Tableau(_) => base + Vec2::new(FAN * index as f32, 0.0),
        Place::Foundation(_) | Place::Shown(_) => base,
        _ => base + Vec2::new(1.5, 1.5) * (index / CARDS_AN_EDGE).min(MAX_EDGES) as f32,
    }
}

/// The cards of a place as the view shows them (`None`: face down).
fn pile(view: &RussianBank, place: Place) -> Vec<Option<Card>> {
    let face_down_below = |cards: &[Card], hidden: usize| -> Vec<Option<Card>> {
        cards.iter().enumerate().map(|(i, &c)| (i >= hidden).then_some(c)).collect()
    };
    match place {
        Place::Reserve(p) => {
            let side = view.side(p);
            face_down_below(side.reserve.as_slice(), side.reserve_hidden as usize)
        }
        // The hand is face down, known cards too.
        Place::Hand(p) => vec![None; view.side(p).hand.len()],
        Place::Shown(p) => view.side(p).shown.map(Some).into_iter().collect(),
        Place::Waste(p) => view.side(p).waste.as_slice().iter().map(|&c| Some(c)).collect(),
        Place::Tableau(n) => view.tableau(n as usize - 1).iter().map(|&c| Some(c)).collect(),
        Place::Foundation(n) => view.foundation_pile(n as usize - 1).into_iter().map(Some).collect(),
    }
}

fn places() -> impl Iterator<Item = Place> {
    let own = [Player::ONE, Player::TWO]
        .into_iter()
        .flat_map(|p| [Place::Reserve(p), Place::Hand(p), Place::Shown(p), Place::Waste(p)]);
    own.chain((1..=8).map(Place::Tableau)).chain((1..=8).map(Place::Foundation))
}

/// The place under a world point: a pile's cards or its empty slot.
pub fn place_at(view: &RussianBank, point: Vec2) -> Option<Place> {
    places().find(|&place| {
        let len = pile(view, place).len().max(1);
        let (a, b) = (card_position(place, 0), card_position(place, len - 1));
        let (lo, hi) = (a.min(b) - CARD / 2.0, a.max(b) + CARD / 2.0);
        point.cmpge(lo).all() && point.cmple(hi).all()
    })
}

/// The move source a place is for `me`, if any.
pub fn source_of(me: Player, place: Place) -> Option<Source> {
    match place {
        Place::Reserve(p) if p == me => Some(Source::Reserve),
        Place::Shown(p) if p == me => Some(Source::Hand),
        Place::Tableau(n) => Some(Source::Tableau(n)),
        _ => None,
    }
}

/// The move target a place is for `me`, if any.
pub fn target_of(me: Player, place: Place) -> Option<Target> {
    match place {
        Place::Foundation(n) => Some(Target::Foundation(n)),
        Place::Tableau(n) => Some(Target::Tableau(n)),
        Place::Reserve(p) if p != me => Some(Target::OpponentReserve),
        Place::Waste(p) if p != me => Some(Target::OpponentWaste),
        Place::Waste(_) => Some(Target::Waste),
        _ => None,
    }
}

fn rank_text(card: Card) -> String {
    match card.rank() {
        1 => "A".into(),
        11 => "J".into(),
        12 => "Q".into(),
        13 => "K".into(),
        r => r.to_string(),
    }
}

/// Spawns one card, face up (`Some`) or its back in `owner`'s colour.
fn spawn_card(
    commands: &mut Commands,
    art: Option<&CardArt>,
    card: Option<Card>,
    owner: Player,
    at: Vec3,
) -> Entity {
    let image = art.map(|a| match card {
        Some(_) => a.face.clone(),
        None => a.backs[owner.index()].clone(),
    });
    let sprite = Sprite { image: image.unwrap_or_default(), custom_size: Some(CARD), ..default() };
    let mut entity = commands.spawn((
        sprite,
        Transform::from_translation(at),
        DespawnOnExit(ActiveGame::of::<RussianBank>()),
    ));
    if let Some(card) = card {
        let ink = if card.is_red() { RED_INK } else { BLACK_INK };
        let pip = art.map(|a| a.pip(card.suit())).unwrap_or_default();
        entity.with_children(|parent| {
            // Rank and pip in both top corners: a fan to either side shows one.
            for sx in [-1.0, 1.0] {
                let x = sx * (CARD.x / 2.0 - 16.0);
                parent.spawn((
                    Text2d::new(rank_text(card)),
                    TextFont::from_font_size(25.0),
                    TextColor(ink),
                    Transform::from_xyz(x, CARD.y / 2.0 - 19.0, 0.02),
                ));
                parent.spawn((
                    Sprite {
                        image: pip.clone(),
                        color: ink,
                        custom_size: Some(Vec2::splat(19.0)),
                        ..default()
                    },
                    Transform::from_xyz(x, CARD.y / 2.0 - 43.0, 0.02),
                ));
            }
            parent.spawn((
                Sprite { image: pip, color: ink, custom_size: Some(Vec2::splat(46.0)), ..default() },
                Transform::from_xyz(0.0, -16.0, 0.02),
            ));
        });
    }
    entity.id()
}

/// Which pile a card's back belongs to: the owner's colour.
fn owner_of(place: Place) -> Player {
    match place {
        Place::Reserve(p) | Place::Hand(p) | Place::Shown(p) | Place::Waste(p) => p,
        Place::Tableau(n) if n <= 4 => Player::ONE,
        Place::Tableau(_) | Place::Foundation(_) => Player::TWO,
    }
}

fn z_of(index: usize) -> f32 {
    1.0 + index as f32 * 0.05
}

type TableEntities = Or<(With<TableCard>, With<PileSlot>, With<TablePart>, With<TargetGlow>)>;

/// Builds the whole table from the view after a reset or a move; a move's
/// cards then fly from where they were, as its steps say.
#[allow(clippy::too_many_arguments)]
fn rebuild_table(
    mut commands: Commands,
    mut resets: MessageReader<BoardReset>,
    mut applied: MessageReader<MoveApplied<RussianBank>>,
    session: Res<Session<RussianBank>>,
    old: Query<Entity, TableEntities>,
    flying: Query<Entity, With<Flight>>,
    art: Option<Res<CardArt>>,
    settings: Res<Settings>,
    mut choice: ResMut<Choice>,
    mut last_stop: ResMut<LastStop>,
    mut cameras: Query<&mut Projection, With<BoardCamera>>,
) {
    let reset = resets.read().count() > 0;
    let moves: Vec<MoveApplied<RussianBank>> = applied.read().cloned().collect();
    if !reset && moves.is_empty() {
        return;
    }
    if reset && session.moves.is_empty() {
        last_stop.0 = None;
    }
    for applied in &moves {
        for step in &applied.steps {
            if let BankStep::Stopped { by, rule } = step {
                let (stopper, breaker) = (session.name_of(*by), session.name_of(opponent(*by)));
                last_stop.0 = Some(format!("{stopper} stopped {breaker}: {rule}."));
            }
        }
    }
    for entity in old.iter().chain(flying.iter()) {
        commands.entity(entity).despawn();
    }
    *choice = Choice { dropped: choice.dropped.take(), ..default() };
    fit_view(&mut cameras, TABLE);
    let view = session.view();
    let table = &view.0;
    let art = art.as_deref();
    let mut tops: HashMap<Place, Entity> = HashMap::new();
    commands.spawn((
        TablePart,
        Sprite::from_color(FELT, TABLE - Vec2::splat(20.0)),
        Transform::from_xyz(0.0, 0.0, -1.0),
        DespawnOnExit(ActiveGame::of::<RussianBank>()),
    ));
    for place in places() {
        let base = base_position(place);
        commands.spawn((
            PileSlot,
            Sprite {
                image: art.map(|a| a.slot.clone()).unwrap_or_default(),
                color: SLOT_TINT,
                custom_size: Some(CARD),
                ..default()
            },
            Transform::from_translation(base.extend(0.0)),
            DespawnOnExit(ActiveGame::of::<RussianBank>()),
        ));
        let cards = pile(table, place);
        // Deep piles: only the cards that show are drawn.
        let first_drawn = match place {
            Place::Tableau(_) => 0,
            _ => cards.len().saturating_sub(3 * CARDS_AN_EDGE).min(cards.len().saturating_sub(1)),
        };
        for (index, card) in cards.iter().enumerate().skip(first_drawn) {
            let at = card_position(place, index).extend(z_of(index));
            let entity = spawn_card(&mut commands, art, *card, owner_of(place), at);
            commands.entity(entity).insert(TableCard { place, index });
            if index + 1 == cards.len() {
                tops.insert(place, entity);
            }
        }
        spawn_label(&mut commands, place, cards.len());
    }
    // Each name at the far end of its row, clear of the buttons at the
    // bottom left; whose move it is shows under the name.
    for p in [Player::ONE, Player::TWO] {
        let at = Vec2::new(-side_sign(p) * NAME_X, side_sign(p) * PLAYER_Y);
        let to_move = table.outcome().is_none() && table.current_player() == p;
        commands.spawn((
            TablePart,
            Text2d::new(session.name_of(p).to_owned()),
            TextFont::from_font_size(32.0),
            TextColor(seat_color(p.index())),
            Transform::from_xyz(at.x, at.y + 18.0, 3.0),
            DespawnOnExit(ActiveGame::of::<RussianBank>()),
        ));
        let (line, alpha) = if to_move { ("to move", 1.0) } else { ("waits", 0.6) };
        commands.spawn((
            TablePart,
            Text2d::new(line),
            TextFont::from_font_size(22.0),
            TextColor(LABEL.with_alpha(alpha)),
            Transform::from_xyz(at.x, at.y - 18.0, 3.0),
            DespawnOnExit(ActiveGame::of::<RussianBank>()),
        ));
    }
    let speed = settings.animation_speed.max(0.1);
    let mut clock = 0.0;
    for applied in &moves {
        for step in &applied.steps {
            let (card, from, to) = match *step {
                BankStep::Moved { card, from, to } | BankStep::TakenBack { card, from, to } => {
                    (Some(card), from, to)
                }
                BankStep::HandTurned { player, card } => {
                    (Some(card), Place::Hand(player), Place::Shown(player))
                }
                BankStep::HandReturned { player, .. } => (None, Place::Shown(player), Place::Hand(player)),
                BankStep::WasteTurnedOver { player } => (None, Place::Waste(player), Place::Hand(player)),
                BankStep::HandTurnedBack { player } => (None, Place::Hand(player), Place::Waste(player)),
                _ => continue,
            };
            let start = match choice.dropped.take() {
                Some((place, at)) if place == from => at,
                _ => card_position(from, pile(table, from).len()),
            };
            let end = card_position(to, pile(table, to).len().saturating_sub(1));
            let shows = tops.get(&to).copied();
            if let Some(entity) = shows {
                commands.entity(entity).insert(Visibility::Hidden);
            }
            let ghost = spawn_card(&mut commands, art, card, owner_of(from), start.extend(50.0));
            commands.entity(ghost).insert(Flight {
                from: start.extend(50.0),
                to: end.extend(50.0),
                delay: clock,
                elapsed: 0.0,
                duration: FLIGHT / speed,
                shows,
                ghost: true,
            });
            clock += 0.6 * FLIGHT / speed;
        }
    }
    choice.dropped = None;
}

fn spawn_label(commands: &mut Commands, place: Place, count: usize) {
    let name = match place {
        Place::Reserve(_) => format!("Reserve {count}"),
        Place::Hand(_) => format!("Hand {count}"),
        Place::Shown(_) => "Turned".to_owned(),
        Place::Waste(_) => format!("Waste {count}"),
        Place::Tableau(n) => format!("T{n}"),
        Place::Foundation(n) => format!("F{n}"),
    };
    let base = base_position(place);
    let at = match place {
        Place::Reserve(p) | Place::Hand(p) | Place::Shown(p) | Place::Waste(p) => {
            base - Vec2::new(0.0, side_sign(p) * (CARD.y / 2.0 + 26.0))
        }
        Place::Tableau(n) if n <= 4 => base + Vec2::new(CARD.x / 2.0 + 16.0, 0.0),
        Place::Tableau(_) => base - Vec2::new(CARD.x / 2.0 + 16.0, 0.0),
        Place::Foundation(_) => base,
    };
    let faint = matches!(place, Place::Foundation(_)) && count > 0;
    commands.spawn((
        TablePart,
        Text2d::new(name),
        TextFont::from_font_size(19.0),
        TextColor(LABEL.with_alpha(if faint { 0.0 } else { 0.8 })),
        Transform::from_xyz(at.x, at.y, 0.5),
        DespawnOnExit(ActiveGame::of::<RussianBank>()),
    ));
}

fn fly_cards(
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
fn snap_back(
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

/// The human seat this screen acts for, and whether it is their turn.
fn me(session: &Session<RussianBank>) -> Option<Player> {
    session.requester()
}

/// The moves `me` may make with the chosen card, by target place.
fn targets(table: &RussianBank, me: Player, from: Source) -> Vec<(Place, BankMove)> {
    let mut moves = Vec::new();
    table.legal_moves(me, &mut moves);
    moves
        .into_iter()
        .filter_map(|mv| match mv {
            BankMove::Play { from: f, to } if f == from => Some((to.place(me), mv)),
            _ => None,
        })
        .collect()
}

#[allow(clippy::too_many_arguments)]
fn handle_pointer(
    pointer: BoardPointer,
    mouse: Res<ButtonInput<MouseButton>>,
    session: Res<Session<RussianBank>>,
    busy: Res<BoardBusy>,
    mut choice: ResMut<Choice>,
    mut cards: Query<(Entity, &TableCard, &mut Transform)>,
    mut requests: MessageWriter<RequestMove<RussianBank>>,
    mut status: ResMut<StatusLine>,
) {
    let Some(me) = me(&session) else { return };
    let Some(point) = pointer.world() else { return };
    // A held card follows the pointer.
    if let (Some((_, entity)), Some(offset)) = (choice.chosen, choice.dragging)
        && let Ok((_, _, mut transform)) = cards.get_mut(entity)
    {
        transform.translation = (point + offset).extend(60.0);
    }
    if mouse.just_pressed(MouseButton::Right) {
        cancel(&mut choice, &mut cards);
        return;
    }
    if !mouse.just_pressed(MouseButton::Left) && !mouse.just_released(MouseButton::Left) {
        return;
    }
    // The table is read only when the mouse does something: the view is a
    // copy of the whole game.
    let view = session.view();
    let table = &view.0;
    if mouse.just_pressed(MouseButton::Left) {
        choice.pressed_at = Some(point);
        let place = place_at(table, point);
        // With a card chosen by a click, a click elsewhere is its target.
        if let Some((from, entity)) = choice.chosen
            && choice.dragging.is_none()
        {
            let target = place.filter(|&p| p != from.place(me)).and_then(|p| target_of(me, p));
            match target {
                Some(to) => {
                    requests.write(RequestMove { by: me, mv: BankMove::Play { from, to } });
                    choice.chosen = Some((from, entity));
                }
                None => cancel(&mut choice, &mut cards),
            }
            choice.pressed_at = None;
            return;
        }
        if busy.0 > 0 {
            return;
        }
        match place {
            Some(Place::Hand(p)) if p == me => {
                requests.write(RequestMove { by: me, mv: BankMove::TurnHand });
            }
            Some(place) => {
                let Some(from) = source_of(me, place) else { return };
                let top = cards
                    .iter()
                    .filter(|(_, c, _)| c.place == place)
                    .max_by_key(|(_, c, _)| c.index)
                    .map(|(e, _, t)| (e, t.translation.truncate()));
                if let Some((entity, at)) = top {
                    if table.current_player() != me {
                        status.error("It is not your turn (S calls Stop!)");
                        return;
                    }
                    choice.chosen = Some((from, entity));
                    choice.dragging = Some(at - point);
                    choice.changed = true;
                }
            }
            None => {}
        }
    }
    if mouse.just_released(MouseButton::Left)
        && let Some((from, entity)) = choice.chosen
        && choice.dragging.is_some()
    {
        let moved = choice.pressed_at.is_some_and(|p| p.distance(point) > 8.0);
        choice.dragging = None;
        if !moved {
            // A click: the card stays chosen, waiting for a click on a pile.
            if let Ok((_, card, mut transform)) = cards.get_mut(entity) {
                transform.translation = card_position(card.place, card.index).extend(60.0);
            }
            return;
        }
        let source_place = from.place(me);
        let target = place_at(table, point).filter(|&p| p != source_place).and_then(|p| target_of(me, p));
        match target {
            Some(to) => {
                choice.dropped = Some((source_place, point));
                requests.write(RequestMove { by: me, mv: BankMove::Play { from, to } });
            }
            None => cancel(&mut choice, &mut cards),
        }
    }
}

/// Puts the chosen card back and forgets it.
fn cancel(choice: &mut Choice, cards: &mut Query<(Entity, &TableCard, &mut Transform)>) {
    if let Some((_, entity)) = choice.chosen.take()
        && let Ok((_, card, mut transform)) = cards.get_mut(entity)
    {
        transform.translation = card_position(card.place, card.index).extend(z_of(card.index));
    }
    choice.dragging = None;
    choice.changed = true;
}

fn handle_keys(
    keys: Res<ButtonInput<KeyCode>>,
    session: Res<Session<RussianBank>>,
    mut requests: MessageWriter<RequestMove<RussianBank>>,
    mut next_deal: MessageWriter<SessionRequest>,
    bank_match: Res<BankMatch>,
) {
    let ctrl = keys.any_pressed([KeyCode::ControlLeft, KeyCode::ControlRight]);
    let Some(me) = me(&session) else { return };
    let mv = if keys.just_pressed(KeyCode::KeyH) {
        Some(BankMove::TurnHand)
    } else if keys.just_pressed(KeyCode::KeyW) {
        Some(BankMove::Play { from: Source::Hand, to: Target::Waste })
    } else if keys.just_pressed(KeyCode::KeyE) {
        Some(BankMove::EndTurn)
    } else if keys.just_pressed(KeyCode::KeyS) && !ctrl {
        Some(BankMove::Stop)
    } else {
        None
    };
    if let Some(mv) = mv {
        let by = if mv == BankMove::Stop { stopper(&session).unwrap_or(me) } else { me };
        requests.write(RequestMove { by, mv });
    }
    if keys.just_pressed(KeyCode::KeyN) && session.game.outcome().is_some() {
        next_deal.write(SessionRequest::Start(Box::new(next_deal_plan(&session, &bank_match))));
    }
}

/// The human who would call Stop now: one not to move.
fn stopper(session: &Session<RussianBank>) -> Option<Player> {
    let to_move = session.game.current_player();
    [Player::ONE, Player::TWO].into_iter().find(|&p| p != to_move && session.is_human(p))
}

/// Lights the piles the chosen card may go to, and marks the card.
fn light_targets(
    mut commands: Commands,
    mut choice: ResMut<Choice>,
    session: Res<Session<RussianBank>>,
    glows: Query<Entity, With<TargetGlow>>,
    mut sprites: Query<&mut Sprite, With<TableCard>>,
    art: Option<Res<CardArt>>,
) {
    if !choice.changed {
        return;
    }
    choice.changed = false;
    for entity in &glows {
        commands.entity(entity).despawn();
    }
    for mut sprite in &mut sprites {
        sprite.color = Color::WHITE;
    }
    let (Some((from, entity)), Some(me)) = (choice.chosen, me(&session)) else { return };
    if let Ok(mut sprite) = sprites.get_mut(entity) {
        sprite.color = CHOSEN_TINT;
    }
    let view = session.view();
    for (place, _) in targets(&view.0, me, from) {
        let len = pile(&view.0, place).len();
        let at = card_position(place, len.saturating_sub(1));
        commands.spawn((
            TargetGlow,
            Sprite {
                image: art.as_ref().map(|a| a.slot.clone()).unwrap_or_default(),
                color: TARGET_GLOW,
                custom_size: Some(CARD + Vec2::splat(14.0)),
                ..default()
            },
            Transform::from_translation(at.extend(40.0)),
            DespawnOnExit(ActiveGame::of::<RussianBank>()),
        ));
    }
}

/// The top bar's line on what the human may do now.
fn describe_choice(
    session: Res<Session<RussianBank>>,
    choice: Res<Choice>,
    mut preview: ResMut<MovePreview>,
) {
    let view = session.view();
    let table = &view.0;
    let text = match (me(&session), choice.chosen) {
        _ if table.outcome().is_some() => "N deals again".to_owned(),
        (Some(me), Some((from, _))) => {
            let card = table.source_card(me, from).map(|c| c.to_string()).unwrap_or_default();
            let n = targets(table, me, from).len();
            match n {
                0 => format!("The {card} has nowhere to go: right-click to put it back"),
                _ => format!("The {card}: drop it on a lit pile ({n}); right-click to put it back"),
            }
        }
        (Some(me), None) if table.current_player() == me => {
            "Drag a card to a pile, or click your hand to turn it".to_owned()
        }
        (Some(_), None) => "The other player's turn: press S (Stop!) if you see priority broken".to_owned(),
        (None, _) => String::new(),
    };
    if preview.0 != text {
        preview.0 = text;
    }
}

/// Counts each finished deal into the match; agents on both seats deal
/// again after a pause until the match is decided.
fn tally_match(
    time: Res<Time>,
    mut ended: MessageReader<GameEnded>,
    session: Res<Session<RussianBank>>,
    mut bank_match: ResMut<BankMatch>,
    mut requests: MessageWriter<SessionRequest>,
    mut next: ResMut<NextFrame>,
) {
    let key = match_key(&session);
    if bank_match.key != key {
        *bank_match = BankMatch { key, ..default() };
    }
    for _ in ended.read() {
        let result = session.game.winner_points();
        let seed = session.seed;
        bank_match.deals.retain(|(s, _)| *s != seed);
        bank_match.deals.push((seed, result));
        let decided = bank_match.winner(session.level.match_points).is_some();
        if !session.has_human() && !session.replay && !decided {
            bank_match.next_deal_in = Some(NEXT_DEAL_PAUSE);
        }
    }
    if let Some(left) = bank_match.next_deal_in.as_mut() {
        next.ask();
        *left -= time.delta_secs();
        if *left <= 0.0 {
            bank_match.next_deal_in = None;
            requests.write(SessionRequest::Start(Box::new(next_deal_plan(&session, &bank_match))));
        }
    }
}

fn match_key(session: &Session<RussianBank>) -> String {
    let seats: Vec<String> =
        session.seats.iter().map(|s| format!("{}:{}", s.name, s.controller.label())).collect();
    format!("{}|{}", session.level_name, seats.join(","))
}

/// The next deal of the match (a new match once one is decided): the same
/// level and seats, the next seed.
fn next_deal_plan(session: &Session<RussianBank>, bank_match: &BankMatch) -> SessionPlan {
    let seed = derive_seed(session.seed, bank_match.deals.len() as u64 + 1);
    SessionPlan {
        level_path: session.level_path.clone(),
        level: LevelFile::new::<RussianBank>(session.level.clone()),
        seats: session.seats.clone(),
        seed,
        replay: None,
    }
}

/// The buttons of the table and the match score, over the board.
fn table_buttons(
    mut contexts: EguiContexts,
    session: Res<Session<RussianBank>>,
    mut bank_match: ResMut<BankMatch>,
    last_stop: Res<LastStop>,
    mut requests: MessageWriter<RequestMove<RussianBank>>,
    mut session_requests: MessageWriter<SessionRequest>,
) -> Result {
    let ctx = contexts.ctx_mut()?.clone();
    let table = &session.game;
    let target = session.level.match_points;
    // Above the status line; at the end, above the band that says who won.
    let lift = if table.outcome().is_some() { END_BAND_LIFT } else { STATUS_LIFT };
    egui::Area::new("russian-bank-table".into())
        .anchor(egui::Align2::LEFT_BOTTOM, egui::vec2(12.0, -lift))
        .show(&ctx, |ui| {
            egui::Frame::popup(ui.style()).show(ui, |ui| {
                // Narrow enough to stay clear of the table's cards.
                ui.set_max_width(220.0);
                let points = bank_match.points();
                ui.label(
                    egui::RichText::new(format!(
                        "Match to {target}: {} {} · {} {}",
                        session.name_of(Player::ONE),
                        points[0],
                        session.name_of(Player::TWO),
                        points[1]
                    ))
                    .strong(),
                );
                if let Some(winner) = bank_match.winner(target) {
                    ui.label(
                        egui::RichText::new(format!("{} wins the match", session.name_of(winner)))
                            .color(crate::app::board::seat_color32(winner.index()))
                            .strong(),
                    );
                }
                if let Some(why) = &last_stop.0 {
                    ui.label(egui::RichText::new(why).color(egui::Color32::from_rgb(255, 200, 120)));
                }
                if let Some(me) = me(&session).filter(|_| !session.replay && table.outcome().is_none()) {
                    ui.horizontal(|ui| {
                        let mut legal = Vec::new();
                        table.legal_moves(me, &mut legal);
                        let mine = table.outcome().is_none() && table.current_player() == me;
                        let mut button = |ui: &mut egui::Ui, text: &str, mv: BankMove, enabled: bool| {
                            if ui.add_enabled(enabled, egui::Button::new(text)).clicked() {
                                requests.write(RequestMove { by: me, mv });
                            }
                        };
                        button(
                            ui,
                            "Turn hand (H)",
                            BankMove::TurnHand,
                            mine && legal.contains(&BankMove::TurnHand),
                        );
                        let waste = BankMove::Play { from: Source::Hand, to: Target::Waste };
                        button(ui, "To waste (W)", waste, mine && legal.contains(&waste));
                        if legal.contains(&BankMove::EndTurn) {
                            button(ui, "End turn (E)", BankMove::EndTurn, mine);
                        }
                        if legal.contains(&BankMove::Accept) {
                            button(ui, "Let it stand", BankMove::Accept, true);
                        }
                    });
                }
                // Stop is offered whenever it is the other's turn, breach or
                // not: noticing one is the player's skill.
                if let Some(stopper) =
                    stopper(&session).filter(|_| table.outcome().is_none() && !session.replay)
                    && ui.button(egui::RichText::new("Stop! (S)").strong().size(18.0)).clicked()
                {
                    requests.write(RequestMove { by: stopper, mv: BankMove::Stop });
                }
                if table.outcome().is_some() && !session.replay {
                    let label =
                        if bank_match.winner(target).is_some() { "New match (N)" } else { "Next deal (N)" };
                    if ui.button(label).clicked() {
                        if bank_match.winner(target).is_some() {
                            bank_match.deals.clear();
                        }
                        session_requests
                            .write(SessionRequest::Start(Box::new(next_deal_plan(&session, &bank_match))));
                    }
                }
            });
        });
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_place_is_found_where_it_is_drawn_and_nothing_overlaps() {
        let level =
            tabula_engine::level::load(std::path::Path::new("levels/russian_bank/01-shuffled-deal.ron"))
                .unwrap();
        let table = RussianBank::new(level.get::<RussianBank>().unwrap(), 1).unwrap();
        for place in places() {
            assert_eq!(place_at(&table, base_position(place)), Some(place), "{place:?}");
        }
        // T1 and T5 are nearest their owners.
        assert!(base_position(Place::Tableau(1)).y < base_position(Place::Tableau(4)).y);
        assert!(base_position(Place::Tableau(5)).y > base_position(Place::Tableau(8)).y);
        assert!(base_position(Place::Reserve(Player::ONE)).y < 0.0);
        // A full fan (13 cards) stays on the table, clear of the foundations.
        for n in 1..=8 {
            let far = card_position(Place::Tableau(n), 12);
            assert!(far.x.abs() + CARD.x / 2.0 <= TABLE.x / 2.0, "T{n}");
            assert!(base_position(Place::Tableau(n)).x.abs() - CARD.x / 2.0 > FOUNDATION_X + CARD.x / 2.0);
        }
        // Targets and sources are seen from the human's side.
        assert_eq!(target_of(Player::TWO, Place::Reserve(Player::ONE)), Some(Target::OpponentReserve));
        assert_eq!(target_of(Player::ONE, Place::Reserve(Player::ONE)), None);
        assert_eq!(source_of(Player::ONE, Place::Shown(Player::ONE)), Some(Source::Hand));
        assert_eq!(source_of(Player::ONE, Place::Shown(Player::TWO)), None);
    }

    #[test]
    fn a_match_adds_the_points_of_each_deal_once() {
        let mut m = BankMatch::default();
        m.deals.push((1, Some((Player::ONE, 51))));
        m.deals.push((2, None));
        m.deals.push((3, Some((Player::TWO, 260))));
        assert_eq!(m.points(), [51, 260]);
        assert_eq!(m.winner(300), None);
        m.deals.push((4, Some((Player::TWO, 40))));
        assert_eq!(m.winner(300), Some(Player::TWO));
    }
}
