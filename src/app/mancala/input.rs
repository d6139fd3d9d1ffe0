//! The player's choice of pit: hovering one of your pits, or choosing it by
//! key, lights it and the cell where its last stone lands, and the top bar
//! says what the sowing would do; a click or Enter sows. Once the game is
//! over and the stones have settled, the winner's store glows.

use bevy::prelude::*;
use tabula_engine::mancala::{Mancala, MancalaError, Sow, Sown};
use tabula_engine::{Game, Player};

use super::art::{CELL_COLOR, CELL_HOVER, CELL_TARGET, STORE_WINNER};
use super::{Cell, MancalaLayout, PitChoice};
use crate::app::board::{BoardPointer, digits_pressed};
use crate::app::session::{BoardBusy, MovePreview, RequestMove, Session, StatusLine};

/// The pit a click or Enter would sow: the one a key chose last (a digit
/// or an arrow), else the one under the pointer. Moving the pointer onto
/// another pit makes that one the choice again (`point_at_pits`).
pub(super) fn chosen_pit(choice: &PitChoice) -> Option<u8> {
    if choice.keyed { Some(choice.pit) } else { choice.hover }
}

/// Previews the chosen pit once a frame: its cell and the cell of its last
/// stone light up, and the top bar says where that stone lands and what it
/// does. After the end, once the stones have settled, the winner's store
/// glows.
pub(super) fn preview_pit(
    session: Res<Session<Mancala>>,
    choice: Res<PitChoice>,
    busy: Res<BoardBusy>,
    mut cells: Query<(&Cell, &mut Sprite)>,
    mut shown: ResMut<MovePreview>,
) {
    let human = session.human_to_move();
    let view = session.view();
    let board = &*view;
    let chosen = human.zip(chosen_pit(&choice)).map(|(p, pit)| (p, Sow { side: p.0, pit }));
    let preview = chosen.map(|(p, sow)| (p, sow, board.preview(sow)));
    let lit = preview.as_ref().filter(|_| busy.0 == 0).and_then(|(_, sow, fx)| {
        fx.as_ref().ok().map(|fx| (board.pit_cell(sow.side, sow.pit), fx.last as usize))
    });
    let winner = board.outcome().and_then(|o| o.winner()).filter(|_| busy.0 == 0);
    let winning_store = winner.map(|p| board.store_cell(p));
    for (cell, mut sprite) in &mut cells {
        let color = match lit {
            Some((from, _)) if cell.0 == from => CELL_HOVER,
            Some((_, last)) if cell.0 == last => CELL_TARGET,
            _ if winning_store == Some(cell.0) => STORE_WINNER,
            _ => CELL_COLOR,
        };
        if sprite.color != color {
            sprite.color = color;
        }
    }
    let text = match (preview, human) {
        (Some((p, sow, fx)), _) => preview_text(board, p, sow, fx),
        (None, Some(_)) => "Point at one of your pits to see where its stones go; click to sow.".into(),
        (None, None) => String::new(),
    };
    if shown.0 != text {
        shown.0 = text;
    }
}

/// What the top bar says of the chosen pit: its sowing, or why it cannot
/// be sown.
fn preview_text(board: &Mancala, p: Player, sow: Sow, fx: Result<Sown, MancalaError>) -> String {
    match fx {
        Ok(fx) => describe_sowing(board, p, sow, &fx),
        // The pointer is often still on the pit just sown: said as a
        // pointer's place, not as a refused sowing.
        Err(e @ MancalaError::EmptyPit { .. }) => {
            format!("{e}: point at one of your pits with stones to see where they go")
        }
        Err(e) => format!("{sow}: {e}"),
    }
}

/// "sow pit A3: the last of 4 stones lands in your store — extra turn".
fn describe_sowing(board: &Mancala, p: Player, sow: Sow, fx: &Sown) -> String {
    let last = fx.last as usize;
    let place = if last == board.store_cell(p) {
        "your store".to_owned()
    } else if last == board.store_cell(p.next(2)) {
        "the other store".to_owned()
    } else {
        format!("pit {}", board.cell_name(last))
    };
    let mut text = match fx.stones {
        1 => format!("{sow}: its one stone lands in {place}"),
        n => format!("{sow}: the last of {n} stones lands in {place}"),
    };
    if fx.extra_turn {
        text.push_str(" — extra turn");
    }
    if fx.captured > 0 {
        text.push_str(&format!(" — capture {} stones", fx.captured));
    }
    if fx.ended {
        text.push_str(" — ends the game");
    }
    text
}

pub(super) fn point_at_pits(
    pointer: BoardPointer,
    mouse: Res<ButtonInput<MouseButton>>,
    session: Res<Session<Mancala>>,
    layout: Res<MancalaLayout>,
    mut choice: ResMut<PitChoice>,
    mut requests: MessageWriter<RequestMove<Mancala>>,
) {
    let view = session.view();
    let sow = pointer.world().and_then(|p| layout.cell_at(p)).and_then(|c| view.sow_at(c));
    // Hover counts only on the mover's own row; clicks anywhere ask the engine.
    let hover = sow.filter(|s| s.side == view.current_player().0).map(|s| s.pit);
    if choice.hover != hover {
        choice.hover = hover;
        if hover.is_some() {
            choice.keyed = false;
        }
    }
    if mouse.just_pressed(MouseButton::Left)
        && let Some(mv) = sow
        && let Some(by) = session.requester()
    {
        requests.write(RequestMove { by, mv });
    }
}

pub(super) fn choose_pit_with_keys(
    keys: Res<ButtonInput<KeyCode>>,
    session: Res<Session<Mancala>>,
    mut choice: ResMut<PitChoice>,
    mut requests: MessageWriter<RequestMove<Mancala>>,
    mut status: ResMut<StatusLine>,
) {
    let view = session.view();
    let n = view.pits() as u8;
    // Player 2's row runs right to left on screen, so the arrows follow it.
    let flip = view.current_player() == Player::TWO;
    let (right, left) = (keys.just_pressed(KeyCode::ArrowRight), keys.just_pressed(KeyCode::ArrowLeft));
    if right || left {
        let forward = right != flip;
        choice.pit = if forward { (choice.pit + 1) % n } else { (choice.pit + n - 1) % n };
        choice.keyed = true;
    }
    // Digit d chooses pit d of the row (1-based as on the board).
    for digit in digits_pressed(&keys).filter(|&d| d >= 1 && d <= n) {
        choice.pit = digit - 1;
        choice.keyed = true;
    }
    choice.pit = choice.pit.min(n - 1);
    if !(keys.just_pressed(KeyCode::Enter) || keys.just_pressed(KeyCode::NumpadEnter)) {
        return;
    }
    // Enter sows only what was chosen since the last move.
    match (chosen_pit(&choice), session.requester()) {
        (None, Some(_)) => status.error("Choose a pit first: point at it, or Left/Right or its digit"),
        (Some(pit), Some(by)) => {
            requests.write(RequestMove { by, mv: Sow { side: view.current_player().0, pit } });
        }
        (_, None) => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_pit_chosen_by_key_wins_over_the_pit_under_the_pointer() {
        let pointed = PitChoice { pit: 0, hover: Some(4), keyed: false };
        assert_eq!(chosen_pit(&pointed), Some(4), "the pointer's pit");
        let keyed = PitChoice { pit: 1, hover: Some(4), keyed: true };
        assert_eq!(chosen_pit(&keyed), Some(1), "a digit pressed with the pointer still on pit 5");
        assert_eq!(chosen_pit(&PitChoice { pit: 1, hover: None, keyed: false }), None, "nothing chosen");
    }

    /// One stone is said as one ("the last of 1 stones" read wrong).
    #[test]
    fn a_single_stone_is_said_as_one() {
        use crate::app::game::WindowGame;
        use tabula_engine::Game;
        let mut level = <Mancala as WindowGame>::new_level();
        level.stones = 1;
        let board = Mancala::new(&level, 0).unwrap();
        let sow = Sow { side: 0, pit: 0 };
        let said = describe_sowing(&board, Player::ONE, sow, &board.preview(sow).unwrap());
        assert!(said.ends_with(": its one stone lands in pit A2"), "{said}");
        level.stones = 4;
        let board = Mancala::new(&level, 0).unwrap();
        let said = describe_sowing(&board, Player::ONE, sow, &board.preview(sow).unwrap());
        assert!(said.contains(": the last of 4 stones lands in pit A5"), "{said}");
    }

    /// A pointer left on the pit just sown is not told of a refused
    /// sowing ("sow pit A3: pit A3 is empty" read as an error).
    #[test]
    fn an_emptied_pit_under_the_pointer_is_said_as_such() {
        use crate::app::game::WindowGame;
        use tabula_engine::Game;
        let mut board = Mancala::new(&<Mancala as WindowGame>::new_level(), 0).unwrap();
        let sow = Sow { side: 0, pit: 2 };
        board.play(sow).unwrap();
        let said = preview_text(&board, Player::ONE, sow, board.preview(sow));
        assert_eq!(said, "pit A3 is empty: point at one of your pits with stones to see where they go");
    }
}
