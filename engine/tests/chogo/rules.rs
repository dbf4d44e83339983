//! One test per rule of the board, the turns, traps, tandems and cities (rules 1-8, H1, H4).

use stonemate_engine::chogo::{Chogo, ChogoError, ChogoOptions};
use stonemate_engine::notation::NotationError;
use stonemate_engine::{Cell, Color, Game, Rect, Role, Turn};

use super::examples::city_position;
use super::{legal_texts, play, play_all, position, refused, rows, sq, squares};

const START: [&str; 7] = ["--ssss--", "-s....s-", "s......s", "........", "S......S", "-S....S-", "--SSSS--"];

fn moves_from(game: &Chogo, from: &str) -> Vec<String> {
    let prefix = format!("{from}-");
    let mut texts: Vec<String> = legal_texts(game).into_iter().filter(|text| text.starts_with(&prefix)).collect();
    texts.sort();
    texts
}

#[test]
fn rule1_the_board_is_8x7_less_three_cells_at_each_corner() {
    let view = Chogo::new(ChogoOptions::default()).view();
    assert_eq!((view.width, view.height), (8, 7));
    let missing: Vec<String> = (0..8u8)
        .flat_map(|file| (0..7u8).filter_map(move |rank| stonemate_engine::Square::new(file, rank)))
        .filter(|&square| view.cell(square) == Cell::Missing)
        .map(|square| square.to_string())
        .collect();
    let mut expected = ["a1", "b1", "a2", "g1", "h1", "h2", "a6", "a7", "b7", "h6", "g7", "h7"];
    expected.sort_by_key(|name| (name.as_bytes()[0], name.as_bytes()[1]));
    assert_eq!(missing, expected);
    assert_eq!(view.cells.iter().filter(|&&cell| cell != Cell::Missing).count(), 44);
}

#[test]
fn rule2_soldiers_start_on_the_file_ends_and_the_kings_in_hand() {
    let game = Chogo::new(ChogoOptions::default());
    assert_eq!(rows(&game), START);
    let hands = game.hands().expect("the kings are in hand");
    assert_eq!(hands.map(|hand| hand.to_string()), ["K", "K"]);
}

#[test]
fn ruling_h1_white_at_the_bottom_moves_first() {
    let game = Chogo::new(ChogoOptions::default());
    assert_eq!(game.to_move(), Some(Color::White));
    assert_eq!(game.view().side_names, ["White", "Green"]);
}

#[test]
fn rule3_the_first_turn_drops_the_king_in_the_own_half() {
    let mut game = Chogo::new(ChogoOptions::default());
    let drops = game.legal_turns();
    assert_eq!(drops.len(), 18, "26 cells on ranks 1-4, 8 of them taken");
    assert!(drops.iter().all(|turn| matches!(turn, Turn::Drop { role: Role::King, to } if to.rank() <= 3)));
    let beyond = ChogoError::BeyondHalfway { side: Color::White, square: sq("d5"), ranks: "1-4" };
    assert_eq!(refused(&game, "K@d5"), beyond);
    assert_eq!(refused(&game, "d1-d3"), ChogoError::KingDropFirst { side: Color::White });
    assert_eq!(refused(&game, "K@d1"), ChogoError::Occupied { square: sq("d1") });
    assert_eq!(
        game.clone().play(Turn::Drop { role: Role::King, to: sq("a1") }),
        Err(ChogoError::NoSuchCell { square: sq("a1") })
    );
    play(&mut game, "K@d4");
    assert_eq!(game.legal_turns().len(), 17, "26 cells on ranks 4-7, 8 soldiers and White's king");
    let beyond = ChogoError::BeyondHalfway { side: Color::Black, square: sq("d3"), ranks: "4-7" };
    assert_eq!(refused(&game, "K@d3"), beyond);
    assert_eq!(refused(&game, "e7-e5"), ChogoError::KingDropFirst { side: Color::Black });
    play(&mut game, "K@e4");
    assert_eq!(game.board().get(sq("e4")).map(|piece| piece.char()), Some('k'));
}

#[test]
fn rule3_the_king_is_dropped_once_and_nothing_else_is() {
    let mut game = Chogo::new(ChogoOptions::default());
    assert_eq!(refused(&game, "S@c4"), ChogoError::OnlyKingDrops { role: Role::Stone });
    play_all(&mut game, &["K@d4", "K@e5"]);
    assert_eq!(game.hands(), None);
    assert_eq!(refused(&game, "K@c4"), ChogoError::KingAlreadyDropped { side: Color::White });
    assert!(game.legal_turns().iter().all(|turn| !matches!(turn, Turn::Drop { .. })));
}

#[test]
fn rule4_passing_is_not_allowed() {
    let mut game = Chogo::new(ChogoOptions::default());
    assert_eq!(refused(&game, "pass"), ChogoError::NoPassing);
    play_all(&mut game, &["K@d4", "K@e5"]);
    assert_eq!(refused(&game, "pass"), ChogoError::NoPassing);
    assert!(!game.legal_turns().contains(&Turn::Pass));
}

#[test]
fn rule5_a_soldier_slides_over_empty_cells_and_missing_cells_stop_it() {
    let mut game = Chogo::new(ChogoOptions::default());
    play_all(&mut game, &["K@d4", "K@e5"]);
    assert_eq!(moves_from(&game, "b2"), ["b2-b3", "b2-b4", "b2-b5", "b2-c2", "b2-d2", "b2-e2", "b2-f2"]);
    assert_eq!(refused(&game, "d1-d5"), ChogoError::Blocked { from: sq("d1"), to: sq("d5"), at: sq("d4") });
    assert_eq!(refused(&game, "b2-b6"), ChogoError::Occupied { square: sq("b6") });
    assert_eq!(refused(&game, "b2-c3"), ChogoError::NotOrthogonal { from: sq("b2"), to: sq("c3") });
    assert_eq!(game.clone().play(Turn::movement(sq("b2"), sq("b1"))), Err(ChogoError::NoSuchCell { square: sq("b1") }));
    assert!(matches!(refused(&game, "b2-a2"), ChogoError::Notation(NotationError::OffBoard { .. })));
}

#[test]
fn rule5_a_king_steps_one_cell_orthogonally() {
    let mut game = Chogo::new(ChogoOptions::default());
    play_all(&mut game, &["K@d4", "K@e5"]);
    assert_eq!(moves_from(&game, "d4"), ["d4-c4", "d4-d3", "d4-d5", "d4-e4"]);
    assert_eq!(refused(&game, "d4-d6"), ChogoError::KingStepsOne { from: sq("d4"), to: sq("d6") });
    assert_eq!(refused(&game, "d4-c5"), ChogoError::NotOrthogonal { from: sq("d4"), to: sq("c5") });
}

/// White's d4 between Green's c4 and e4, with d3 below it free (or trapped too).
fn trapped_pair(row3: &str) -> Chogo {
    position(["--....--", "-.....k-", "........", "..sSs...", row3, "-......-", "--..K.--"], Color::White)
}

#[test]
fn rule6_a_trapped_piece_cannot_move_by_itself() {
    let game = trapped_pair("...S....");
    assert!(game.is_trapped(sq("d4")));
    assert_eq!(refused(&game, "d4-d5"), ChogoError::Trapped { square: sq("d4"), by: (sq("c4"), sq("e4")) });
    assert!(moves_from(&game, "d4").is_empty());
}

#[test]
fn rule6_a_piece_may_pass_between_two_enemies_and_stopping_there_traps_it() {
    let start =
        position(["--....--", "-.....k-", "........", "..s.s...", "........", "-..S...-", "--..K.--"], Color::White);
    let mut through = start.clone();
    play(&mut through, "d2-d6");
    assert!(!through.is_trapped(sq("d6")));
    let mut stop = start;
    play(&mut stop, "d2-d4");
    assert!(stop.is_trapped(sq("d4")), "only where a piece stops matters");
    assert!(stop.view().captured.is_empty());
}

#[test]
fn rule7_a_tandem_may_carry_a_trapped_piece_with_an_untrapped_one() {
    let mut game = trapped_pair("...S....");
    assert!(legal_texts(&game).contains(&"d3d4-d5".to_owned()));
    play(&mut game, "d34-d2");
    assert_eq!(rows(&game)[3..6], ["..s.s...", "...S....", "-..S...-"]);
}

#[test]
fn rule7_a_tandem_of_trapped_pieces_only_cannot_move() {
    let game = trapped_pair("..sSs...");
    assert_eq!(refused(&game, "d3d4-d2"), ChogoError::TandemAllTrapped { rect: Rect::spanning(sq("d3"), sq("d4")) });
    assert!(legal_texts(&game).iter().all(|text| !text.starts_with("d3d4")));
}

#[test]
fn rule7_a_tandem_may_include_the_king_and_move_any_distance() {
    let mut game =
        position(["--....--", "-.....k-", "........", "...KS...", "........", "-......-", "--....--"], Color::White);
    play(&mut game, "d4e4-d6");
    assert_eq!(rows(&game)[1], "-..KS.k-");
    let mut game =
        position(["--....--", "-.....k-", "........", "........", "..SS....", "-......-", "--..K.--"], Color::White);
    play(&mut game, "c3d3-h3");
    assert_eq!(rows(&game)[4], "......SS");
}

#[test]
fn rule7_every_cell_a_tandem_moves_into_must_be_empty() {
    let game =
        position(["--....--", "-.....k-", "........", "........", ".SS...s.", "-......-", "--..K.--"], Color::White);
    let blocked = |to: &str, at: &str| ChogoError::TandemBlocked {
        rect: Rect::spanning(sq("b3"), sq("c3")),
        to: sq(to),
        at: sq(at),
    };
    assert_eq!(refused(&game, "b3c3-h3"), blocked("h3", "g3"), "by a piece");
    assert_eq!(refused(&game, "b3c3-c7"), blocked("b7", "b7"), "by a missing cell");
    assert!(legal_texts(&game).contains(&"b3c3-b6".to_owned()));
    assert!(legal_texts(&game).contains(&"b3c3-f3".to_owned()));
}

#[test]
fn rule7_a_tandem_is_a_solid_rectangle_of_two_or_more_own_pieces() {
    let game =
        position(["--....--", "-.....k-", "........", "........", "..S.S.s.", "-......-", "--..K.--"], Color::White);
    let rect = Rect::spanning(sq("c3"), sq("e3"));
    assert_eq!(refused(&game, "c3e3-c2"), ChogoError::TandemNotSolid { rect, at: sq("d3") });
    let rect = Rect::spanning(sq("e3"), sq("g3"));
    assert_eq!(refused(&game, "e3g3-e2"), ChogoError::TandemNotSolid { rect, at: sq("f3") });
    let one = Rect::spanning(sq("c3"), sq("c3"));
    assert_eq!(refused(&game, "c3c3-c5"), ChogoError::TandemTooSmall { rect: one });
}

#[test]
fn ruling_h4_any_solid_rectangle_inside_a_larger_group_moves_as_a_tandem() {
    let game =
        position(["--....--", "-.....k-", "........", "..SSS...", "..SSS...", "-......-", "--...K--"], Color::White);
    let mut rects: Vec<Rect> = game
        .legal_turns()
        .into_iter()
        .filter_map(|turn| match turn {
            Turn::Tandem { from, .. } => Some(from),
            _ => None,
        })
        .collect();
    rects.dedup();
    assert_eq!(rects.len(), 12, "a 3x2 block holds 12 rectangles of two or more cells: {rects:?}");
    let mut game = game;
    play(&mut game, "d3e4-d6");
    assert_eq!(rows(&game)[1..5], ["-..SS.k-", "...SS...", "..S.....", "..S....."]);
}

#[test]
fn rule8_a_mole_drop_goes_into_a_city_of_the_opponent() {
    let game = city_position();
    assert_eq!(game.city_cells().iter().collect::<Vec<_>>(), squares(&["b6", "c6"]));
    let board = rows(&game);
    let board: Vec<&str> = board.iter().map(String::as_str).collect();
    let green = Chogo::from_setup(&board, Color::Black).unwrap();
    assert!(green.city_cells().is_empty(), "Green's own enclosure is no city for Green");
    assert_eq!(refused(&game, "e1@d5"), ChogoError::NotInCity { square: sq("d5"), opponent: Color::Black });
    assert_eq!(refused(&game, "e1@d6"), ChogoError::Occupied { square: sq("d6") });
    assert_eq!(refused(&game, "b5@b6"), ChogoError::NoOwnPiece { side: Color::White, square: sq("b5") });
}

#[test]
fn rule8_the_king_may_be_taken_for_a_mole_drop() {
    let mut game = city_position();
    play(&mut game, "g2@c6");
    assert_eq!(rows(&game)[1], "-.Ks.k.-");
    assert_eq!(rows(&game)[5], "-......-");
}

#[test]
fn rule8_a_trapped_piece_cannot_be_taken_for_a_mole_drop() {
    let game =
        position(["--s...--", "-..s.k.-", "Sss.....", ".S......", "........", "-.....K-", "--.sSs--"], Color::White);
    assert_eq!(refused(&game, "e1@b6"), ChogoError::MoleTrapped { square: sq("e1"), by: (sq("d1"), sq("f1")) });
    assert!(legal_texts(&game).iter().all(|text| !text.starts_with("e1@")));
    assert!(legal_texts(&game).contains(&"g2@b6".to_owned()));
}

#[test]
fn ruling_h4_a_city_may_be_bounded_by_the_edge_and_missing_cells() {
    let game =
        position(["--....--", "-.....k-", "s.......", ".s......", "s.......", "-......-", "--..SK--"], Color::White);
    assert_eq!(game.city_cells().iter().collect::<Vec<_>>(), squares(&["a4"]));
    assert!(city_position().city_cells().contains(sq("b6")), "b6 is bounded by the missing a6 and b7");
}

#[test]
fn ruling_h4_an_area_touching_a_piece_of_the_mover_is_never_a_city() {
    let game =
        position(["--S...--", "-..s.k.-", "Sss.....", ".S......", "........", "-.....K-", "--..S.--"], Color::White);
    assert!(game.city_cells().is_empty());
    assert_eq!(refused(&game, "e1@b6"), ChogoError::NotInCity { square: sq("b6"), opponent: Color::Black });
}
