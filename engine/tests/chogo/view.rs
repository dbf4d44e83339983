//! What the board view and the options say about a Chogo game.

use stonemate_engine::chogo::{Chogo, ChogoError, ChogoOptions};
use stonemate_engine::{AnyGame, Color, Game, GameKind, GameOptions, Look, NewGameError};

use super::{play, play_all, position, squares};

#[test]
fn view_names_the_sides_white_and_green() {
    let view = Chogo::new(ChogoOptions::default()).view();
    assert_eq!(view.side_names, ["White", "Green"]);
    assert_eq!(view.look, Look::Plain);
    assert_eq!((view.score, view.prisoners, view.owner), (None, None, None));
    let message = ChogoError::KingDropFirst { side: Color::Black }.to_string();
    assert!(message.starts_with("Green must first drop the king"), "{message}");
}

#[test]
fn view_marks_every_cell_a_tandem_touched_before_and_after() {
    let mut game =
        position(["--.S..--", "-..S..k-", "...S.SS.", "........", "........", "-......-", "--..K.--"], Color::White);
    play(&mut game, "d567-d3");
    assert_eq!(game.view().last_turn, squares(&["d3", "d4", "d5", "d6", "d7"]));
    play(&mut game, "g6-f6");
    assert_eq!(game.view().last_turn, squares(&["g6", "f6"]));
    assert_eq!(game.view().turns_played, 2);
}

#[test]
fn hands_hold_the_kings_until_both_are_dropped() {
    let mut game = Chogo::new(ChogoOptions::default());
    let letters = |game: &Chogo| game.hands().map(|hands| hands.map(|hand| hand.to_string()));
    assert_eq!(letters(&game), Some(["K".to_owned(), "K".to_owned()]));
    play(&mut game, "K@d4");
    assert_eq!(letters(&game), Some([String::new(), "K".to_owned()]));
    assert_eq!(game.view().hands, game.hands());
    play_all(&mut game, &["K@e5"]);
    assert_eq!((game.hands(), game.view().hands), (None, None));
}

#[test]
fn chogo_has_no_options() {
    let pairs = vec![("board".to_owned(), "8x8".to_owned())];
    let error = ChogoOptions::from_pairs(&pairs).unwrap_err();
    assert!(error.to_string().contains("`board`"), "{error}");
    assert!(matches!(AnyGame::new(GameKind::Chogo, &pairs), Err(NewGameError::Options(_))));
    assert!(ChogoOptions::default().to_pairs().is_empty());
    assert!(AnyGame::new(GameKind::Chogo, &[]).is_ok());
}
