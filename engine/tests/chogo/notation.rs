//! The Notation section of the rules: every spelling read into one canonical turn, the
//! printed forms, refused texts, and the example record.

use stonemate_engine::chogo::{Chogo, ChogoError, ChogoOptions};
use stonemate_engine::notation::{NotationError, record_tokens};
use stonemate_engine::{AnyGame, Game, GameKind, Rect, Role, Turn};

use super::sq;

fn tandem(a: &str, b: &str, to: &str) -> Turn {
    Turn::Tandem { from: Rect::spanning(sq(a), sq(b)), to: sq(to) }
}

fn parse(text: &str) -> Result<Turn, ChogoError> {
    Chogo::new(ChogoOptions::default()).parse_turn(text)
}

#[test]
fn notation_reads_corners_in_either_order_and_the_compressed_forms() {
    let cases = [
        (tandem("d5", "d7", "d3"), &["d5d7-d3", "d7d5-d3", "d567-d3", "d765-d3", "D567-D3"][..]),
        (tandem("f3", "h3", "d3"), &["f3h3-d3", "h3f3-d3", "fgh3-d3", "hgf3-d3"]),
        (tandem("b3", "c3", "f3"), &["b3c3-f3", "c3b3-f3", "cb3-f3", "bc3-f3"]),
        (tandem("f5", "g5", "h5"), &["f5g5-h5", "g5f5-h5", "fg5-h5"]),
    ];
    for (turn, texts) in cases {
        for text in texts {
            assert_eq!(parse(text), Ok(turn), "{text}");
        }
    }
}

#[test]
fn notation_any_leading_piece_names_the_same_tandem() {
    let west = tandem("f3", "g4", "d3");
    for text in ["f3g4-d3", "f3g4-d4", "g4f3-d3", "g3f4-d4", "f4g3-d3"] {
        assert_eq!(parse(text), Ok(west), "{text}");
    }
    assert_eq!(parse("f3g4-h4"), Ok(tandem("f3", "g4", "h3")), "east: g3 leads from the lowest rank");
    assert_eq!(parse("f3g4-g6"), Ok(tandem("f3", "g4", "f6")), "north: f4 leads from the lowest file");
    assert_eq!(parse("f3g4-g2"), Ok(tandem("f3", "g4", "f2")), "south: f3 leads");
}

#[test]
fn notation_prints_lower_left_and_upper_right_corners_then_the_canonical_target() {
    let game = Chogo::new(ChogoOptions::default());
    let cases = [
        (tandem("f3", "g4", "d3"), "f3g4-d3"),
        (tandem("d5", "d7", "d3"), "d5d7-d3"),
        (tandem("f5", "g5", "h5"), "f5g5-h5"),
        (Turn::movement(sq("d2"), sq("d5")), "d2-d5"),
        (Turn::Drop { role: Role::King, to: sq("d2") }, "K@d2"),
        (Turn::Relocate { from: sq("e1"), to: sq("b6") }, "e1@b6"),
    ];
    for (turn, text) in cases {
        assert_eq!(game.format_turn(turn), text);
        assert_eq!(parse(text), Ok(turn), "{text} reads back");
    }
}

#[test]
fn notation_reads_drops_moves_and_mole_drops() {
    let king = Turn::Drop { role: Role::King, to: sq("d2") };
    for text in ["K@d2", "k@d2", "Kd2", " K@D2 "] {
        assert_eq!(parse(text), Ok(king), "{text}");
    }
    assert_eq!(parse("d2-d5"), Ok(Turn::movement(sq("d2"), sq("d5"))));
    assert_eq!(parse("e1@b6"), Ok(Turn::Relocate { from: sq("e1"), to: sq("b6") }));
    assert_eq!(parse("pass"), Ok(Turn::Pass), "read, then refused by rule 4");
}

#[test]
fn notation_a_tandem_target_lies_outside_on_a_row_or_column() {
    let block = Rect::spanning(sq("f3"), sq("g4"));
    assert_eq!(parse("f3g4-e5"), Err(ChogoError::TandemTargetOffLine { rect: block, to: sq("e5") }));
    assert_eq!(parse("f3g4-g3"), Err(ChogoError::TandemTargetOffLine { rect: block, to: sq("g3") }));
    let message = parse("f3g4-e5").unwrap_err().to_string();
    assert!(message.contains("e5") && message.contains("f3g4"), "{message}");
}

#[test]
fn notation_a_turn_keeps_the_canonical_target() {
    let mut game = Chogo::from_setup(
        &["--....--", "-..k...-", "........", ".....ss.", ".....ss.", "-......-", "--..K.--"],
        stonemate_engine::Color::Black,
    )
    .unwrap();
    let block = Rect::spanning(sq("f3"), sq("g4"));
    let other_spelling = Turn::Tandem { from: block, to: sq("d4") };
    assert_eq!(game.play(other_spelling), Err(ChogoError::TandemNotCanonical { rect: block, canonical: sq("d3") }));
    assert_eq!(game.play(tandem("f3", "g4", "d3")), Ok(()));
}

#[test]
fn notation_refuses_broken_compressed_lines_and_cells_off_the_board() {
    for text in ["d57-d3", "d55-d3", "fg34-d3", "fh3-d3", "d5d6d7-d3", "d-d3"] {
        assert!(matches!(parse(text), Err(ChogoError::Notation(NotationError::Unreadable { .. }))), "{text}");
    }
    for text in ["a1-a3", "d2-d8", "i3-d3", "K@a7", "d0-d1", "d2-d9", "e1@h1", "a1a2-c1"] {
        assert!(matches!(parse(text), Err(ChogoError::Notation(NotationError::OffBoard { .. }))), "{text}");
    }
}

#[test]
fn notation_refuses_junk_without_panicking() {
    let long = "d".repeat(60);
    let junk = [
        "", " ", "-", "@", "d", "dd-", "é4-d4", "d2-", "-d2", "K@", "@d2", "d2--d4", "d2-d4-d6", "K@d2@e3", "99-99",
        "d2@", "Z@d2", "d2", "ké@d2", "d2-é", &long,
    ];
    for text in junk {
        let result = parse(text);
        assert!(result.is_err(), "`{text}` read as {result:?}");
    }
}

#[test]
fn the_example_record_replays() {
    let record = include_str!("../../../examples/chogo.txt");
    let turns = record_tokens(record);
    let replay = AnyGame::replay(GameKind::Chogo, &[], &turns).expect("Chogo has no options");
    assert!(replay.error.is_none(), "{:?}", replay.error);
    assert_eq!(replay.played, turns, "the record is written in the printed notation");
    let ending = replay.game.status().ending().expect("the example game is over");
    assert_eq!(ending.reason, stonemate_engine::EndReason::KingCaptured);
}
