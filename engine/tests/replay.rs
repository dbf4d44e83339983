//! `replay::positions`: every position of a record, as animations and redrawn pictures show
//! them, agreeing with `AnyGame::replay` on where a record stops and what it leads to.

use stonemate_engine::notation::record_tokens;
use stonemate_engine::{AnyGame, GameKind, NewGameError, TurnError, replay};

/// Every turn of an iChess game that plays through: drops, then moves.
const ICHESS: &str = "R=a1 R=h8 B=f4 R=f8 R=h1 N=c7";

#[test]
fn positions_of_a_record_are_the_start_and_one_after_each_turn() {
    let turns = record_tokens(ICHESS);
    let (positions, error) = replay::positions(GameKind::IChess, &[], &turns).expect("default options");
    assert_eq!(error, None);
    assert_eq!(positions.len(), turns.len() + 1);
    let start = AnyGame::new(GameKind::IChess, &[]).unwrap();
    assert_eq!(positions[0].view(), start.view(), "the first position is the start");
    for (played, position) in positions.iter().enumerate().skip(1) {
        let replayed = AnyGame::replay(GameKind::IChess, &[], &turns[..played]).unwrap();
        assert_eq!(position.view(), replayed.game.view(), "after turn {played}");
    }
}

#[test]
fn positions_stop_before_the_first_refused_turn_and_name_it() {
    let options = vec![("board".to_owned(), "5x5".to_owned())];
    let turns = ["c3", "c4", "c3", "d4"];
    let (positions, error) = replay::positions(GameKind::Go, &options, &turns).expect("a 5x5 board");
    let error = error.expect("c3 is taken");
    assert_eq!((error.index, error.text.as_str()), (3, "c3"));
    assert!(matches!(error.error, TurnError::Go(_)), "{error}");
    assert_eq!(positions.len(), 3, "the start and the two turns played");
    let replayed = AnyGame::replay(GameKind::Go, &options, &turns).unwrap();
    assert_eq!(Some(error), replayed.error, "the same stop as the one replay loop");
    assert_eq!(positions.last().map(AnyGame::view), Some(replayed.game.view()));
}

#[test]
fn positions_of_refused_options_are_an_error_with_no_position() {
    let options = vec![("board".to_owned(), "99x99".to_owned())];
    let refused = replay::positions(GameKind::Go, &options, &["c3"]);
    assert!(matches!(refused, Err(NewGameError::Options(_))), "{refused:?}");
}

#[test]
fn positions_keep_the_counting_agreement_as_a_position() {
    // The agreement that ends counting is an entry of the record, not a turn: its position
    // (the dead pieces removed, the game over) is the last frame of a replay.
    let options = vec![("board".to_owned(), "3x3".to_owned()), ("counting".to_owned(), "on".to_owned())];
    let turns = ["b2", "a1", "pass", "pass", "dead a1"];
    let (positions, error) = replay::positions(GameKind::Go, &options, &turns).unwrap();
    assert_eq!(error, None);
    assert_eq!(positions.len(), turns.len() + 1);
    let last = positions.last().unwrap();
    assert!(last.status().ending().is_some(), "the agreement ends the game");
    assert!(positions[4].status().ending().is_none(), "counting, before the agreement");
}
