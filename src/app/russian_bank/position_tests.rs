//! The card builder's tests, through egui's own pointer events.

use super::*;

/// One frame of the builder in a bare egui context, given the pointer's
/// events as a person's mouse would send them; the position it hands
/// back, if any.
fn frame(
    ctx: &egui::Context,
    deal: &FixedDeal,
    events: Vec<egui::Event>,
    refused: &mut Option<String>,
) -> Option<FixedDeal> {
    let input = egui::RawInput {
        screen_rect: Some(egui::Rect::from_min_size(egui::Pos2::ZERO, egui::vec2(1280.0, 1600.0))),
        events,
        ..Default::default()
    };
    let mut changed = None;
    // Nothing draws here: the textures egui would upload are let go.
    let draw = |ui: &mut egui::Ui| {
        ui.horizontal_top(|ui| {
            changed = table(ui, egui::vec2(640.0, 560.0), deal, refused);
            ui.vertical(|ui| palette(ui, deal));
        });
    };
    ctx.run_ui(input, draw).textures_delta.clear();
    changed
}

fn button(pos: egui::Pos2, pressed: bool) -> egui::Event {
    egui::Event::PointerButton {
        pos,
        button: egui::PointerButton::Primary,
        pressed,
        modifiers: egui::Modifiers::NONE,
    }
}

/// Presses on `card` in the decks, moves the pointer to `pile` in a few
/// frames and lets go there, as a hand with a mouse does.
fn drag(
    ctx: &egui::Context,
    deal: &FixedDeal,
    card: Card,
    pile: Pile,
    refused: &mut Option<String>,
) -> Option<FixedDeal> {
    frame(ctx, deal, vec![], refused);
    let from = ctx.read_response(palette_id(card)).expect("the card is in the decks").rect.center();
    let to = ctx.data(|d| d.get_temp::<egui::Rect>(pile_id(pile))).expect("the pile is drawn").center();
    let mut changed = frame(ctx, deal, vec![egui::Event::PointerMoved(from), button(from, true)], refused);
    for step in 1..=5 {
        let at = from + (to - from) * step as f32 / 5.0;
        changed = changed.or(frame(ctx, deal, vec![egui::Event::PointerMoved(at)], refused));
    }
    changed = changed.or(frame(ctx, deal, vec![button(to, false)], refused));
    changed.or(frame(ctx, deal, vec![], refused))
}

#[test]
fn cards_dragged_from_the_decks_land_on_their_pile_or_are_refused_saying_why() {
    let ctx = egui::Context::default();
    let mut refused = None;
    let (ace, two, three) =
        (Card::new(1, Suit::Hearts), Card::new(2, Suit::Hearts), Card::new(3, Suit::Hearts));
    let deal = empty_deal();
    let deal = drag(&ctx, &deal, ace, Pile::Foundation(2), &mut refused).expect("the ace lands on F3");
    assert_eq!((deal.foundations[2].as_slice(), refused.as_deref()), (&[ace][..], None));
    assert_eq!(drag(&ctx, &deal, three, Pile::Foundation(2), &mut refused), None, "a gap in the suit");
    assert!(refused.take().unwrap().contains("goes up in one suit"));
    let deal = drag(&ctx, &deal, two, Pile::Foundation(2), &mut refused).expect("the 2 follows the ace");
    assert_eq!(deal.foundations[2], vec![ace, two]);

    let (king, queen) = (Card::new(13, Suit::Clubs), Card::new(12, Suit::Hearts));
    let deal = drag(&ctx, &deal, king, Pile::Tableau(0), &mut refused).expect("any card on an empty pile");
    let deal = drag(&ctx, &deal, queen, Pile::Tableau(0), &mut refused).expect("down, red on black");
    assert_eq!(drag(&ctx, &deal, Card::new(11, Suit::Diamonds), Pile::Tableau(0), &mut refused), None);
    assert!(refused.take().unwrap().contains("alternating colours"));
    let deal = drag(&ctx, &deal, three, Pile::Reserve(1), &mut refused).expect("a reserve takes any card");
    let deal = drag(&ctx, &deal, three, Pile::Hand(0), &mut refused).expect("a face twice");
    assert_eq!(
        (deal.players[1].reserve.as_slice(), deal.players[0].hand.as_slice()),
        (&[three][..], &[three][..])
    );
    frame(&ctx, &deal, vec![], &mut refused);
    frame(&ctx, &deal, vec![], &mut refused);
    assert!(ctx.read_response(palette_id(three)).is_none(), "both 3♥s are used: it can no longer be dragged");
    assert_eq!(refused, None);
}

#[test]
fn a_click_on_a_pile_of_the_table_takes_back_its_top_card() {
    let ctx = egui::Context::default();
    let mut refused = None;
    let mut deal = empty_deal();
    deal.tableau[4] = vec![Card::new(13, Suit::Spades), Card::new(12, Suit::Diamonds)];
    frame(&ctx, &deal, vec![], &mut refused);
    let at = ctx.data(|d| d.get_temp::<egui::Rect>(pile_id(Pile::Tableau(4)))).unwrap().center();
    frame(&ctx, &deal, vec![egui::Event::PointerMoved(at), button(at, true)], &mut refused);
    let changed = frame(&ctx, &deal, vec![button(at, false)], &mut refused).expect("the click is taken");
    assert_eq!(changed.tableau[4], vec![Card::new(13, Suit::Spades)]);
    assert_eq!(refused, None);
}

#[test]
fn drops_keep_the_levels_rules_and_say_why_not() {
    let mut deal = empty_deal();
    let ace = Card::new(1, Suit::Hearts);
    assert!(
        refusal(&deal, Pile::Foundation(0), Card::new(2, Suit::Hearts))
            .unwrap()
            .contains("starts with an ace")
    );
    assert_eq!(refusal(&deal, Pile::Foundation(0), ace), None);
    deal.foundations[0].push(ace);
    assert!(refusal(&deal, Pile::Foundation(0), Card::new(2, Suit::Spades)).unwrap().contains("one suit"));
    assert_eq!(refusal(&deal, Pile::Foundation(0), Card::new(2, Suit::Hearts)), None);
    deal.tableau[0].push(Card::new(7, Suit::Clubs));
    assert!(refusal(&deal, Pile::Tableau(0), Card::new(6, Suit::Spades)).unwrap().contains("alternating"));
    assert_eq!(refusal(&deal, Pile::Tableau(0), Card::new(6, Suit::Hearts)), None);
    deal.players[0].reserve.push(ace);
    assert!(
        refusal(&deal, Pile::Waste(1), ace).unwrap().contains("both"),
        "two decks hold two aces of hearts"
    );
    assert!(!broken(&deal, Pile::Tableau(0)));
    deal.tableau[1] = vec![Card::new(7, Suit::Clubs), Card::new(6, Suit::Clubs)];
    assert!(broken(&deal, Pile::Tableau(1)), "a pile written by hand out of order is outlined");
    assert!(
        !misplaced(&deal, Pile::Tableau(1), 0) && misplaced(&deal, Pile::Tableau(1), 1),
        "and its card lit"
    );
    deal.foundations[2] = vec![Card::new(3, Suit::Spades)];
    assert!(misplaced(&deal, Pile::Foundation(2), 0), "a foundation not starting with its ace");
}
