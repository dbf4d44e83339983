//! The examples of the source (the summary's pictures), rebuilt as positions where the
//! described outcome holds. The summary's Black is our White, its Green our Green (H1).

use stonemate_engine::chogo::ChogoError;
use stonemate_engine::{Color, Game, Rect, Turn};

use super::{captured_squares, play, position, refused, rows, sq, squares};

/// White to play d2-d5 between Green's c5, d6 and e5.
fn trap_position() -> stonemate_engine::chogo::Chogo {
    position(["--.S..--", "-..s..k-", ".Ss.sS..", "........", "........", "-..S...-", "--..K.--"], Color::White)
}

#[test]
fn example_d2_d5_traps_three_green_pieces() {
    let mut game = trap_position();
    for name in ["c5", "d6", "e5"] {
        assert!(!game.is_trapped(sq(name)), "{name} is free before the move");
    }
    play(&mut game, "d2-d5");
    for name in ["c5", "d6", "e5"] {
        assert!(game.is_trapped(sq(name)), "{name} is trapped after d2-d5");
    }
    assert!(game.view().captured.is_empty(), "trapping captures nothing");
    assert_eq!(refused(&game, "c5-c4"), ChogoError::Trapped { square: sq("c5"), by: (sq("b5"), sq("d5")) });
    assert_eq!(refused(&game, "d6-e6"), ChogoError::Trapped { square: sq("d6"), by: (sq("d5"), sq("d7")) });
    assert_eq!(refused(&game, "e5-e4"), ChogoError::Trapped { square: sq("e5"), by: (sq("d5"), sq("f5")) });
}

/// White's column d5-d7 and row f5-g5.
fn white_tandem_position() -> stonemate_engine::chogo::Chogo {
    position(["--.S..--", "-..S..k-", "...S.SS.", "........", "........", "-......-", "--..K.--"], Color::White)
}

#[test]
fn example_tandem_d567_d3_moves_a_column_two_cells_south() {
    let mut game = white_tandem_position();
    let turn = game.parse_turn("d567-d3").unwrap();
    assert_eq!(turn, Turn::Tandem { from: Rect::spanning(sq("d5"), sq("d7")), to: sq("d3") });
    assert_eq!(game.format_turn(turn), "d5d7-d3");
    game.play(turn).unwrap();
    assert_eq!(rows(&game)[..5], ["--....--", "-.....k-", "...S.SS.", "...S....", "...S...."]);
}

#[test]
fn example_tandem_f5g5_h5_moves_a_row_one_cell_east() {
    let mut game = white_tandem_position();
    let turn = game.parse_turn("f5g5-h5").unwrap();
    assert_eq!(game.format_turn(turn), "f5g5-h5");
    game.play(turn).unwrap();
    assert_eq!(rows(&game)[2], "...S..SS");
}

fn green_position(row3: &str, row4: &str) -> stonemate_engine::chogo::Chogo {
    position(["--....--", "-..k...-", "........", row4, row3, "-......-", "--..K.--"], Color::Black)
}

#[test]
fn example_tandem_cb3_f3_moves_a_pair_three_cells_east() {
    let mut game = green_position(".ss.....", "........");
    let turn = game.parse_turn("cb3-f3").unwrap();
    assert_eq!(game.format_turn(turn), "b3c3-f3");
    game.play(turn).unwrap();
    assert_eq!(rows(&game)[4], "....ss..");
}

#[test]
fn example_tandem_fgh3_d3_moves_a_row_two_cells_west() {
    let mut game = green_position(".....sss", "........");
    let turn = game.parse_turn("fgh3-d3").unwrap();
    assert_eq!(game.format_turn(turn), "f3h3-d3");
    game.play(turn).unwrap();
    assert_eq!(rows(&game)[4], "...sss..");
}

#[test]
fn example_tandem_f3g4_d3_moves_a_block_two_cells_west() {
    let mut game = green_position(".....ss.", ".....ss.");
    let turn = game.parse_turn("f3g4-d3").unwrap();
    for text in ["f3g4-d4", "g4f3-d3", "g3f4-d4", "F3G4-D3"] {
        assert_eq!(game.parse_turn(text), Ok(turn), "{text}");
    }
    assert_eq!(game.format_turn(turn), "f3g4-d3");
    game.play(turn).unwrap();
    assert_eq!(rows(&game)[3..5], ["...ss...", "...ss..."]);
}

#[test]
fn example_fgh5_c5_captures_three_green_pieces() {
    let mut game =
        position(["--SSS.--", "-sssss.-", ".....SSS", "k.......", "........", "-......-", "--.K..--"], Color::White);
    let turn = game.parse_turn("fgh5-c5").unwrap();
    assert_eq!(game.format_turn(turn), "f5h5-c5");
    game.play(turn).unwrap();
    assert_eq!(captured_squares(&game), squares(&["c6", "d6", "e6"]));
    assert_eq!(rows(&game)[..3], ["--SSS.--", "-s...s.-", "..SSS..."]);
}

/// Green encloses b6-c6 with b5, c5, d6, c7 and the missing a6 and b7: a city for White.
pub fn city_position() -> stonemate_engine::chogo::Chogo {
    position(["--s...--", "-..s.k.-", "Sss.....", ".S......", "........", "-.....K-", "--..S.--"], Color::White)
}

#[test]
fn example_city_and_mole_drop_e1_b6_captures_b5() {
    let mut game = city_position();
    assert_eq!(game.city_cells().iter().collect::<Vec<_>>(), squares(&["b6", "c6"]));
    assert_eq!(
        refused(&game, "e1@e4"),
        ChogoError::NotInCity { square: sq("e4"), opponent: Color::Black },
        "a mole drop goes into a city only"
    );
    let turn = game.parse_turn("e1@b6").unwrap();
    assert_eq!(turn, Turn::Relocate { from: sq("e1"), to: sq("b6") });
    assert!(game.legal_turns().contains(&turn));
    game.play(turn).unwrap();
    assert_eq!(captured_squares(&game), squares(&["b5"]));
    assert_eq!(game.view().last_turn, squares(&["e1", "b6"]));
    assert_eq!(rows(&game)[1..3], ["-S.s.k.-", "S.s....."]);
}
