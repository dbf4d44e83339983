//! Chogo: the source's examples rebuilt as positions, one test per rule and ruling, the
//! notation, the board view, the example record, and property tests over random playouts.
//!
//! Positions are board strings, top rank first (`S`/`s` soldiers, `K`/`k` kings, `-`
//! missing cells); White (bottom) is upper case, Green (top) lower case.

mod endings;
mod examples;
mod notation;
mod properties;
mod rules;
mod view;

use stonemate_engine::chogo::{Chogo, ChogoError};
use stonemate_engine::{Color, EndReason, Game, Outcome, Square, Status};

pub use crate::common::sq;

/// A position from board strings with `to_move` to play.
pub fn position(rows: [&str; 7], to_move: Color) -> Chogo {
    Chogo::from_setup(&rows, to_move).unwrap_or_else(|e| panic!("bad test position: {e}"))
}

/// Reads and plays a turn, failing the test with the rule error if it is refused.
pub fn play(game: &mut Chogo, text: &str) {
    let turn = game.parse_turn(text).unwrap_or_else(|e| panic!("`{text}` does not read: {e}"));
    game.play(turn).unwrap_or_else(|e| panic!("`{text}` is refused: {e}\n{:?}", game.board()));
}

/// Plays the turns in order.
pub fn play_all(game: &mut Chogo, texts: &[&str]) {
    for text in texts {
        play(game, text);
    }
}

/// The rule error refusing a turn; checks that the refusal changed nothing.
pub fn refused(game: &Chogo, text: &str) -> ChogoError {
    let before = format!("{game:?}");
    let mut after = game.clone();
    let error = match after.parse_turn(text) {
        Ok(turn) => after.play(turn).expect_err(&format!("`{text}` should be refused")),
        Err(error) => error,
    };
    assert_eq!(format!("{after:?}"), before, "refusing `{text}` changed the game");
    error
}

/// The board strings of the position, top rank first.
pub fn rows(game: &Chogo) -> Vec<String> {
    game.view().rows()
}

/// The squares the last turn captured on, in the view.
pub fn captured_squares(game: &Chogo) -> Vec<Square> {
    game.view().captured.iter().map(|&(square, _)| square).collect()
}

pub fn squares(names: &[&str]) -> Vec<Square> {
    names.iter().map(|name| sq(name)).collect()
}

pub fn finished(game: &Chogo) -> (Outcome, EndReason) {
    match game.status() {
        Status::Finished(ending) => (ending.outcome, ending.reason),
        Status::Ongoing { .. } => panic!("the game is not over:\n{:?}", game.board()),
    }
}

/// Every legal turn, printed.
pub fn legal_texts(game: &Chogo) -> Vec<String> {
    game.legal_turns().into_iter().map(|turn| game.format_turn(turn)).collect()
}
