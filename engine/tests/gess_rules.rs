//! Gess: one named test per rule and ruling of `docs/rules/gess.md`.
//!
//! Most tests set up a small position: the pieces under test in the middle of the board,
//! and each player's ring far away in a corner (Black's around c3, White's around r18), so
//! that ruling S1 and rule 9 do not get in the way unless the test is about them.

use crate::common;

use common::sq;
use stonemate_engine::gess::{Direction, Gess, GessError, GessOptions, Setup, SetupError};
use stonemate_engine::{
    AnyGame, Cell, Color, EndReason, Ending, Game, GameKind, GameOptions, Look, NotationError, OptionError, Outcome,
    Role, Square, SquareSet, Status, Turn,
};

/// The squares named in a space-separated list.
fn squares(text: &str) -> SquareSet {
    text.split_whitespace().map(sq).collect()
}

/// The eight squares around `centre`: a ring when they hold one player's stones.
fn ring(centre: &str) -> String {
    let centre = sq(centre);
    let around = (-1..=1).flat_map(|dr| (-1..=1).map(move |df| (df, dr))).filter(|&d| d != (0, 0));
    around.map(|(df, dr)| centre.offset(df, dr).expect("on the board").to_string()).collect::<Vec<_>>().join(" ")
}

/// Exactly these stones, `to_move` to play.
fn bare(black: &str, white: &str, to_move: Color) -> Gess {
    Gess::from_setup(&Setup { black: squares(black), white: squares(white), to_move }).expect("a valid setup")
}

/// These stones plus Black's ring around c3 and White's around r18; Black to play.
fn position(black: &str, white: &str) -> Gess {
    bare(&format!("{black} {}", ring("c3")), &format!("{white} {}", ring("r18")), Color::Black)
}

fn mv(from: &str, to: &str) -> Turn {
    Turn::movement(sq(from), sq(to))
}

/// The legal moves of the piece centred on `from`, as texts.
fn moves_from(game: &Gess, from: &str) -> Vec<String> {
    let from = sq(from);
    let legal = game.legal_turns().into_iter().filter(|turn| matches!(turn, Turn::Move { from: f, .. } if *f == from));
    legal.map(|turn| game.format_turn(turn)).collect()
}

/// Plays a move that must be legal, checking the legal list agrees.
fn play(game: &mut Gess, from: &str, to: &str) {
    assert!(game.legal_turns().contains(&mv(from, to)), "{from}-{to} is listed");
    game.play(mv(from, to)).unwrap_or_else(|e| panic!("{from}-{to}: {e}"));
}

/// Tries a move that must be refused; checks that nothing changed and returns the error.
fn refused(game: &Gess, from: &str, to: &str) -> GessError {
    let mut after = game.clone();
    let error = after.play(mv(from, to)).expect_err("the move is refused");
    assert_eq!(format!("{after:?}"), format!("{game:?}"), "a refused move changes nothing");
    assert!(!game.legal_turns().contains(&mv(from, to)), "{from}-{to} is not listed");
    error
}

fn without_rings(game: &Gess, color: Color) -> String {
    let corner = squares(&ring(if color == Color::Black { "c3" } else { "r18" }));
    game.stones_of(color).iter().filter(|s| !corner.contains(*s)).map(|s| s.to_string()).collect::<Vec<_>>().join(" ")
}

#[test]
fn rule_1_grid_is_20x20_with_stones_only_on_the_inner_18x18() {
    let view = Gess::new(GessOptions::default()).view();
    assert_eq!((view.width, view.height, view.look), (20, 20, Look::Intersections));
    for rank in 0..20 {
        for file in 0..20 {
            let square = Square::new(file, rank).unwrap();
            let outer = file == 0 || file == 19 || rank == 0 || rank == 19;
            assert_eq!(view.cell(square) == Cell::OffLimits, outer, "{square}");
        }
    }
    for square in ["a5", "t5", "e1", "e20", "u3", "y25"] {
        let setup = Setup { black: squares(square), white: SquareSet::EMPTY, to_move: Color::Black };
        assert_eq!(Gess::from_setup(&setup).unwrap_err(), SetupError::OffInnerBoard { square: sq(square) });
    }
    let setup = Setup { black: squares("e5"), white: squares("e5"), to_move: Color::Black };
    assert_eq!(Gess::from_setup(&setup).unwrap_err(), SetupError::TwoStones { square: sq("e5") });
}

#[test]
fn rule_2_start_has_43_stones_a_side_mirrored() {
    let game = Gess::new(GessOptions::default());
    let black = game.stones_of(Color::Black);
    let white = game.stones_of(Color::White);
    assert_eq!((black.len(), white.len()), (43, 43));
    for square in black.iter() {
        let mirror = Square::new(square.file(), 19 - square.rank()).unwrap();
        assert!(white.contains(mirror), "{square} mirrors to {mirror}");
    }
    let rank = |r: u8| -> String {
        let on_rank = black.iter().filter(|s| s.rank() == r - 1);
        on_rank.map(|s| char::from(b'a' + s.file())).map(String::from).collect::<Vec<_>>().join(" ")
    };
    assert_eq!(rank(2), "c e g h i j k l m n p r");
    assert_eq!(rank(3), "b c d f h i j k m o q r s");
    assert_eq!(rank(4), "c e g h i j k l m n p r");
    assert_eq!(rank(7), "c f i l o r");
    assert_eq!(game.status(), Status::Ongoing { to_move: Color::Black });
}

#[test]
fn rule_2_rings_at_l3_and_l18() {
    let game = Gess::new(GessOptions::default());
    assert_eq!(game.rings(Color::Black), [sq("l3")]);
    assert_eq!(game.rings(Color::White), [sq("l18")]);
}

#[test]
fn rule_2_board_strings() {
    let rows = Gess::new(GessOptions::default()).view().rows();
    assert_eq!(rows.len(), 20);
    assert!(rows.iter().all(|row| row.len() == 20));
    assert_eq!(rows[0], "....................");
    assert_eq!(rows[1], "..S.S.SSSSSSSS.S.S..", "rank 19");
    assert_eq!(rows[2], ".SSS.S.SSSS.S.S.SSS.", "rank 18");
    assert_eq!(rows[6], "..S..S..S..S..S..S..", "rank 14");
    assert_eq!(rows[13], "..s..s..s..s..s..s..", "rank 7");
    assert_eq!(rows[17], ".sss.s.ssss.s.s.sss.", "rank 3");
    assert_eq!(rows[18], "..s.s.ssssssss.s.s..", "rank 2");
    assert_eq!(rows[19], "....................");
}

#[test]
fn rule_3_an_area_with_an_enemy_stone_is_not_a_piece() {
    let game = position("j10 j11", "k9");
    let error = refused(&game, "j10", "j12");
    assert_eq!(error, GessError::EnemyStoneInPiece { centre: sq("j10"), stone: sq("k9") });
    assert!(error.to_string().contains("k9"), "{error}");
}

#[test]
fn rule_3_an_area_without_own_stones_is_not_a_piece() {
    let game = position("j10", "");
    assert_eq!(refused(&game, "j12", "j13"), GessError::NoOwnStone { centre: sq("j12") });
}

#[test]
fn rule_3_a_piece_is_named_by_its_centre_and_may_reach_into_the_outer_ring() {
    // The piece centred on b10 covers a9..c11; its east stone is c10.
    let game = position("c10", "");
    assert_eq!(moves_from(&game, "b10"), ["b10-c10", "b10-d10", "b10-e10"]);
}

#[test]
fn rule_4_each_direction_needs_its_perimeter_stone() {
    for direction in Direction::ALL {
        let (df, dr) = direction.delta();
        let centre = sq("j10");
        let stone = centre.offset(df.into(), dr.into()).unwrap();
        let game = position(&stone.to_string(), "");
        let expected: Vec<String> =
            (1..=3).map(|n| format!("j10-{}", centre.offset((df * n).into(), (dr * n).into()).unwrap())).collect();
        assert_eq!(moves_from(&game, "j10"), expected, "{direction}");
        for other in Direction::ALL.into_iter().filter(|&d| d != direction) {
            let (of, or) = other.delta();
            let to = centre.offset(of.into(), or.into()).unwrap();
            let square = to;
            let error = refused(&game, "j10", &to.to_string());
            let expected = GessError::NoStoneForDirection { centre, direction: other, square };
            assert_eq!(error, expected, "{other} without {square}");
        }
    }
}

#[test]
fn rule_4_a_centre_stone_moves_any_distance() {
    let game = position("j5 j6", "");
    let expected: Vec<String> = (6..=19).map(|rank| format!("j5-j{rank}")).collect();
    assert_eq!(moves_from(&game, "j5"), expected);
    let mut far = game.clone();
    play(&mut far, "j5", "j16");
    assert_eq!(without_rings(&far, Color::Black), "j16 j17");
}

#[test]
fn rule_4_without_a_centre_stone_one_to_three_squares() {
    let game = position("j6", "");
    assert_eq!(moves_from(&game, "j5"), ["j5-j6", "j5-j7", "j5-j8"]);
    let error = refused(&game, "j5", "j9");
    assert_eq!(error, GessError::TooFar { from: sq("j5"), to: sq("j9"), distance: 4 });
}

#[test]
fn rule_4_moves_go_along_lines_and_somewhere() {
    let game = position("j10 j11 k11", "");
    assert_eq!(refused(&game, "j10", "k12"), GessError::NotALine { from: sq("j10"), to: sq("k12") });
    assert_eq!(refused(&game, "j10", "j10"), GessError::Stationary { centre: sq("j10") });
}

#[test]
fn rule_5_the_piece_stops_at_the_first_stone_it_meets_at_the_latest() {
    // The footprint centred on j11 covers j12: the piece must stop there at the latest.
    let game = position("j5 j6", "j12 l14");
    let expected: Vec<String> = (6..=11).map(|rank| format!("j5-j{rank}")).collect();
    assert_eq!(moves_from(&game, "j5"), expected);
    let error = refused(&game, "j5", "j13");
    assert_eq!(error, GessError::Blocked { from: sq("j5"), to: sq("j13"), stop: sq("j11"), stone: sq("j12") });
    let mut capture = game.clone();
    play(&mut capture, "j5", "j11");
    assert_eq!(without_rings(&capture, Color::White), "l14", "j12 is captured");
    assert_eq!(without_rings(&capture, Color::Black), "j11 j12");
}

#[test]
fn rule_5_capturing_is_optional() {
    let mut game = position("j5 j6", "j12");
    play(&mut game, "j5", "j10");
    assert_eq!(without_rings(&game, Color::White), "j12");
    assert!(game.view().captured.is_empty());
}

#[test]
fn rule_5_only_stones_outside_the_starting_footprint_stop_the_piece() {
    // Going north, the footprints centred on j6 and j7 overlap the start's (j4..j6 rows)
    // only where the piece's own stones were; i4 and j6 do not stop it.
    let game = position("i4 j5 j6", "");
    assert!(moves_from(&game, "j5").contains(&"j5-j9".to_owned()));
    // A stone beside the path, outside every footprint, does not stop it either.
    let game = position("j5 j6", "l12");
    assert!(moves_from(&game, "j5").contains(&"j5-j17".to_owned()));
}

#[test]
fn rule_5_the_centre_never_leaves_the_inner_board() {
    let game = position("b10 c10 b11", "");
    assert_eq!(refused(&game, "b10", "a10"), GessError::CentreOutside { square: sq("a10") });
    assert_eq!(refused(&game, "a10", "b10"), GessError::CentreOutside { square: sq("a10") });
    assert_eq!(refused(&game, "b10", "b20"), GessError::CentreOutside { square: sq("b20") });
    assert_eq!(refused(&game, "y25", "b10"), GessError::CentreOutside { square: sq("y25") });
    // With a centre stone the piece runs to rank 19 going north and to file s going east.
    let moves = moves_from(&game, "b10");
    let north: Vec<&String> = moves.iter().filter(|m| m.starts_with("b10-b")).collect();
    assert_eq!((north.first().map(|m| m.as_str()), north.len()), (Some("b10-b11"), 9));
    assert_eq!(north.last().map(|m| m.as_str()), Some("b10-b19"));
    assert_eq!(moves.last().map(String::as_str), Some("b10-s10"));
}

#[test]
fn rule_6_every_stone_under_the_new_footprint_is_captured() {
    // Going north, the footprint centred on j13 first covers rank 14.
    let mut game = position("j10 j11", "i14 j14 k14 l14");
    play(&mut game, "j10", "j13");
    assert_eq!(without_rings(&game, Color::White), "l14");
    assert_eq!(without_rings(&game, Color::Black), "j13 j14");
    assert_eq!(captured_squares(&game), [sq("i14"), sq("j14"), sq("k14")]);
    // Going diagonally, the leading corner of the footprint captures.
    let mut game = position("j10 k11", "m12 l13 m13 n13");
    play(&mut game, "j10", "l12");
    assert_eq!(without_rings(&game, Color::White), "n13");
    assert_eq!(without_rings(&game, Color::Black), "l12 m13");
    assert_eq!(captured_squares(&game), [sq("m12"), sq("l13"), sq("m13")]);
}

#[test]
fn rule_6_own_stones_are_captured_too() {
    let mut game = position("j10 j11 i14 k14", "");
    play(&mut game, "j10", "j13");
    assert_eq!(without_rings(&game, Color::Black), "j13 j14");
    assert_eq!(captured_squares(&game), [sq("i14"), sq("k14")]);
}

#[test]
fn rule_6_stones_left_on_the_outer_ring_are_removed() {
    // The piece centred on c10 moves west: its b-file stones land on the a-file and go.
    let mut game = position("b9 b10 b11 c10 d10", "");
    play(&mut game, "c10", "b10");
    assert_eq!(without_rings(&game, Color::Black), "b10 c10");
    assert_eq!(captured_squares(&game), [sq("a9"), sq("a10"), sq("a11")]);
    assert!(game.view().rows().iter().all(|row| row.starts_with('.')));
}

#[test]
fn rule_7_rings_are_found_wherever_they_are() {
    let game = bare(&format!("{} {} {}", ring("e5"), ring("o12"), ring("j17")), &ring("r3"), Color::Black);
    assert_eq!(game.rings(Color::Black), [sq("e5"), sq("o12"), sq("j17")]);
    assert_eq!(game.rings(Color::White), [sq("r3")]);
}

#[test]
fn rule_7_a_ring_is_empty_and_surrounded_by_one_player() {
    // An enemy stone in the middle, or one enemy stone around, spoils a ring.
    let mixed = ring("o12").replace("n11", "");
    let game = bare(&format!("{} {mixed}", ring("e5")), &format!("e5 n11 {}", ring("r3")), Color::Black);
    assert_eq!(game.rings(Color::Black), []);
    assert_eq!(game.rings(Color::White), [sq("r3")]);
    // Two rings side by side share a wall; an own stone in the middle is no ring either.
    let game = bare(&format!("{} {} h10", ring("h10"), ring("j10")), &ring("r3"), Color::Black);
    assert_eq!(game.rings(Color::Black), [sq("j10")]);
}

#[test]
fn rule_7_a_moved_ring_is_formed_again() {
    let mut game = bare(&ring("j10"), &ring("r3"), Color::Black);
    play(&mut game, "j10", "j11");
    assert_eq!(game.rings(Color::Black), [sq("j11")]);
}

/// The ring around j10 without its top row, and the row two ranks above it: the piece
/// centred on j14 can bring the row down (j14-j12) to close the ring.
fn open_ring() -> String {
    ring("j10").replace("i11", "").replace("j11", "").replace("k11", "") + " i13 j13 k13"
}

#[test]
fn rule_7_a_ring_formed_by_a_move() {
    let mut game = bare(&format!("{} {}", open_ring(), ring("e5")), &ring("r3"), Color::Black);
    assert_eq!(game.rings(Color::Black), [sq("e5")]);
    play(&mut game, "j14", "j12");
    assert_eq!(game.rings(Color::Black), [sq("e5"), sq("j10")]);
}

#[test]
fn ruling_s1_a_move_leaving_the_mover_no_ring_is_refused() {
    let game = bare(&format!("{} l11", ring("j10")), &ring("r3"), Color::Black);
    // The piece centred on k10 holds the ring's east side; moving it breaks the ring.
    let error = refused(&game, "k10", "k12");
    assert_eq!(error, GessError::BreaksOwnLastRing { from: sq("k10"), to: sq("k12") });
    assert!(error.to_string().contains("no ring"), "{error}");
}

#[test]
fn ruling_s1_holds_even_when_the_move_takes_the_opponents_last_ring() {
    // Black's piece centred on j11 steps north into White's ring around j14 and takes its
    // bottom row, but carries off part of Black's own only ring (around j10): refused.
    let game = bare(&format!("{} j12", ring("j10")), &ring("j14"), Color::Black);
    let error = refused(&game, "j11", "j12");
    assert_eq!(error, GessError::BreaksOwnLastRing { from: sq("j11"), to: sq("j12") });
    // The ring piece itself takes the same row and stays a ring: that wins.
    let mut game = bare(&ring("j10"), &ring("j14"), Color::Black);
    play(&mut game, "j10", "j12");
    assert_eq!(game.rings(Color::Black), [sq("j12")]);
    assert_eq!(game.status().ending().map(|e| e.reason), Some(EndReason::RingDestroyed));
}

#[test]
fn rule_9_taking_the_opponents_last_ring_wins() {
    let mut game = position("j5 j6", &ring("j15"));
    assert_eq!(game.rings(Color::White), [sq("j15"), sq("r18")]);
    play(&mut game, "j5", "j13");
    assert_eq!(game.status(), Status::Ongoing { to_move: Color::White }, "one ring remains");
    game.play(mv("r18", "r17")).unwrap();
    let mut game = bare(&format!("j5 j6 {}", ring("c3")), &ring("j15"), Color::Black);
    play(&mut game, "j5", "j13");
    let won = Ending { outcome: Outcome::Winner(Color::Black), reason: EndReason::RingDestroyed };
    assert_eq!(game.status(), Status::Finished(won));
    assert!(game.legal_turns().is_empty());
    assert_eq!(game.clone().play(mv("j13", "j12")), Err(GessError::GameOver));
}

#[test]
fn rule_9_there_is_no_passing() {
    let game = Gess::new(GessOptions::default());
    let turn = game.parse_turn("pass").unwrap();
    assert_eq!(game.clone().play(turn), Err(GessError::NoPassing));
    assert!(!game.legal_turns().contains(&Turn::Pass));
}

#[test]
fn ruling_s2_a_player_without_a_legal_move_loses() {
    // Black has no ring and no move that would make one: every move breaks ruling S1.
    let game = bare("j10 j11", &ring("r3"), Color::Black);
    let lost = Ending { outcome: Outcome::Winner(Color::White), reason: EndReason::NoLegalTurn };
    assert_eq!(game.status(), Status::Finished(lost));
    assert!(game.legal_turns().is_empty());
    // Without a ring but with one move that builds one, Black plays on, and only that move.
    let game = bare(&open_ring(), &ring("r3"), Color::Black);
    assert_eq!(game.status(), Status::Ongoing { to_move: Color::Black });
    assert_eq!(game.legal_turns(), [mv("j14", "j12")]);
}

#[test]
fn notation_centres_before_and_after() {
    let game = Gess::new(GessOptions::default());
    for text in ["k7-i5", "k7i5", "k7xi5", " K7-I5 "] {
        assert_eq!(game.parse_turn(text), Ok(mv("k7", "i5")), "{text}");
    }
    assert_eq!(game.format_turn(mv("k7", "i5")), "k7-i5");
    assert_eq!(game.format_turn(mv("l19", "l17")), "l19-l17");
    for text in ["k7", "k7-", "Sk7", "k7-i5-i3", "@@"] {
        let error = game.parse_turn(text).unwrap_err();
        assert!(matches!(error, GessError::Notation(NotationError::Unreadable { .. })), "{text}: {error}");
    }
    assert_eq!(game.parse_turn(" "), Err(GessError::Notation(NotationError::Empty)));
    let mut copy = game.clone();
    assert_eq!(copy.play(Turn::Drop { role: Role::Stone, to: sq("k10") }), Err(GessError::WrongKind));
    let promotion = Turn::Move { from: sq("l4"), to: sq("l5"), promotion: Some(Role::Queen) };
    assert_eq!(copy.play(promotion), Err(GessError::WrongKind));
}

#[test]
fn gess_has_no_options() {
    assert_eq!(GessOptions::from_pairs(&[]), Ok(GessOptions::default()));
    assert!(GessOptions::default().to_pairs().is_empty());
    let pairs = [("board".to_owned(), "19x19".to_owned())];
    let error = GessOptions::from_pairs(&pairs).unwrap_err();
    assert!(matches!(&error, OptionError::UnknownKey { key, .. } if key == "board"), "{error}");
    let error = AnyGame::new(GameKind::Gess, &[("komi".to_owned(), "6".to_owned())]).unwrap_err();
    assert!(error.to_string().contains("`komi`"), "{error}");
}

#[test]
fn view_marks_both_footprints_and_the_captures() {
    let mut game = Gess::new(GessOptions::default());
    play(&mut game, "l3", "l4");
    let view = game.view();
    let marked: Vec<String> = view.last_turn.iter().map(|s| s.to_string()).collect();
    let expected = "k2 l2 m2 k3 l3 m3 k4 l4 m4 k5 l5 m5";
    assert_eq!(marked.join(" "), expected);
    assert_eq!(view.turns_played, 1);
    assert_eq!(view.side_names, ["White", "Black"]);
    assert_eq!(view.status, Status::Ongoing { to_move: Color::White });
    assert_eq!(game.rings(Color::Black), [sq("l4")]);
    assert!(view.captured.is_empty());
    assert!(matches!(view.cell(sq("l5")), Cell::Piece(p) if p.role == Role::Stone && p.color == Color::Black));
}

/// The squares the last turn captured on, in the view.
fn captured_squares(game: &impl stonemate_engine::Game) -> Vec<stonemate_engine::Square> {
    game.view().captured.iter().map(|&(square, _)| square).collect()
}
