//! iChess notation: every printed and accepted form of the rules file's table.

use crate::common;

use common::sq;
use stonemate_engine::ichess::{IChess, IChessError, IChessOptions};
use stonemate_engine::notation::record_tokens;
use stonemate_engine::{AnyGame, EndReason, Game, GameKind, NotationError, Role, Turn};

fn setup(fen: &str) -> IChess {
    IChess::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

fn mv(from: &str, to: &str) -> Turn {
    Turn::movement(sq(from), sq(to))
}

fn promote(from: &str, to: &str) -> Turn {
    Turn::Move { from: sq(from), to: sq(to), promotion: Some(Role::Ferz) }
}

/// Every text reads as `turn`, and the turn prints as `printed`.
fn reads(game: &IChess, turn: Turn, printed: &str, texts: &[&str]) {
    assert!(game.is_legal(turn), "{turn:?} is legal in {}", game.fen());
    assert_eq!(game.format_turn(turn), printed);
    for text in texts.iter().chain([&printed]) {
        assert_eq!(game.parse_turn(text), Ok(turn), "`{text}` in {}", game.fen());
    }
}

#[test]
fn move_forms() {
    let game = setup("4k3/8/8/8/6N1/8/8/4K3 w");
    reads(&game, mv("g4", "h2"), "Nh2", &["g4h2", "g4-h2", "Ng4h2", "Ng4-h2", "Ngh2", "N4h2", "Nh2+", "Nh2#"]);
}

#[test]
fn disambiguation_by_file_rank_or_both() {
    let rooks = setup("4k3/8/8/8/8/8/K7/R6R w");
    reads(&rooks, mv("a1", "d1"), "Rad1", &["a1d1", "Ra1d1"]);
    reads(&rooks, mv("h1", "d1"), "Rhd1", &["h1-d1"]);
    let file = setup("4k3/8/8/R7/8/8/7K/R7 w");
    reads(&file, mv("a1", "a3"), "R1a3", &["a1a3"]);
    reads(&file, mv("a5", "a3"), "R5a3", &["Ra5a3"]);
    let knights = setup("k7/8/3N1N2/8/8/8/3N4/4K3 w");
    reads(&knights, mv("d6", "e4"), "Nd6e4", &["d6e4"]);
    reads(&knights, mv("d2", "e4"), "N2e4", &[]);
    reads(&knights, mv("f6", "e4"), "Nfe4", &["Nf6e4"]);
}

#[test]
fn capture_forms() {
    let game = setup("4k3/8/8/6n1/5B2/8/8/4K3 w");
    reads(&game, mv("f4", "g5"), "BxNg5", &["Bxg5", "f4g5", "f4xg5", "Bf4xg5", "Bg5", "Bf4g5"]);
    assert_eq!(game.parse_turn("BxRg5"), Err(IChessError::NoSuchPiece { role: Role::Rook, square: sq("g5") }));
    assert_eq!(game.parse_turn("Bxe5"), Err(IChessError::NothingToCapture { square: sq("e5") }));
    assert_eq!(game.parse_turn("f4xe5"), Err(IChessError::NothingToCapture { square: sq("e5") }));
}

#[test]
fn pawn_move_forms() {
    let game = setup("4k3/8/8/8/2P5/8/8/4K3 w");
    reads(&game, mv("c4", "c5"), "Pc5", &["c5", "c4c5", "c4-c5"]);
}

#[test]
fn promotion_forms() {
    let game = setup("4k3/8/8/8/2P5/8/8/4K3 w");
    reads(&game, promote("c4", "c5"), "Pc5=F", &["c4c5=F", "c4c5+", "Pc5F", "c5=F", "c4c5F", "Pc5=f"]);
}

#[test]
fn a_pawn_move_into_the_zone_without_a_mark_does_not_promote() {
    let game = setup("4k3/8/8/8/2P5/8/8/4K3 w");
    for text in ["c4c5", "Pc5", "c5"] {
        assert_eq!(game.parse_turn(text), Ok(mv("c4", "c5")), "{text}");
    }
}

#[test]
fn the_last_rank_promotes_without_a_mark() {
    let game = setup("4k3/2P5/8/8/8/8/8/4K3 w");
    reads(&game, promote("c7", "c8"), "Pc8=F", &["c8", "c7c8", "Pc8", "c7c8+", "Pc8F"]);
}

#[test]
fn plus_is_a_check_mark_except_after_a_coordinate_pawn_move_into_the_zone() {
    let game = setup("8/8/2k5/8/2P5/8/8/4K3 w");
    reads(&game, mv("c4", "c5"), "Pc5+", &["c5+", "c4c5#"]);
    reads(&game, promote("c4", "c5"), "Pc5=F", &["c4c5+", "c4c5=F+"]);
    let outside = setup("8/8/8/3k4/8/3P4/8/4K3 w");
    assert_eq!(outside.format_turn(mv("d3", "d4")), "Pd4+");
    assert_eq!(outside.parse_turn("d3d4+"), Ok(mv("d3", "d4")), "d4 is outside the zone: + is a check mark");
}

#[test]
fn drop_forms() {
    let game = IChess::new(IChessOptions::default());
    let turn = Turn::Drop { role: Role::Rook, to: sq("a1") };
    reads(&game, turn, "R=a1", &["R@a1", "R*a1", "R=a1+", "r@a1"]);
    let pawn = setup("4k3/8/8/8/8/8/8/4K3[P] w");
    reads(&pawn, Turn::Drop { role: Role::Pawn, to: sq("c4") }, "P=c4", &["P@c4", "P*c4"]);
}

#[test]
fn check_and_mate_marks() {
    let game = setup("6k1/5ppp/8/8/8/8/8/R3K3 w");
    assert_eq!(game.format_turn(mv("a1", "a8")), "Ra8#");
    assert_eq!(game.format_turn(mv("a1", "a7")), "Ra7");
    let check = setup("6k1/8/8/8/8/8/8/R3K3 w");
    assert_eq!(check.format_turn(mv("a1", "a8")), "Ra8+");
}

#[test]
fn ferz_moves() {
    let game = setup("4k3/8/8/8/2F1F3/8/8/4K3 w");
    reads(&game, mv("c4", "d5"), "Fcd5", &["c4d5", "Fc4d5"]);
    reads(&game, mv("c4", "b5"), "Fb5", &[]);
}

#[test]
fn ambiguous_text_lists_the_candidates() {
    let game = setup("4k3/8/8/8/8/8/K7/R6R w");
    match game.parse_turn("Rd1") {
        Err(IChessError::Notation(NotationError::Ambiguous { candidates, .. })) => {
            assert_eq!(candidates, ["Rad1", "Rhd1"]);
        }
        other => panic!("expected an ambiguity, got {other:?}"),
    }
    let error = game.parse_turn("Rd1").unwrap_err().to_string();
    assert!(error.contains("Rad1") && error.contains("Rhd1"), "{error}");
}

#[test]
fn text_that_names_no_turn_is_refused() {
    let game = setup("4k3/8/8/8/6N1/8/8/4K3 w");
    assert!(matches!(game.parse_turn("Bh2"), Err(IChessError::Notation(NotationError::NoMatch { .. }))));
    assert_eq!(game.parse_turn("Bg4h2"), Err(IChessError::NoSuchPiece { role: Role::Bishop, square: sq("g4") }));
    for text in ["", "hello", "R=", "Z9", "g4h2h2x", "Nxx4", "0-0", "g4=h2", "N-h2", "g9h2", "é4"] {
        let mut after = game.clone();
        assert!(after.play_text(text).is_err(), "`{text}` is refused");
        assert_eq!(after.fen(), game.fen());
    }
}

#[test]
fn a_pinned_piece_named_alone_is_refused_by_rule() {
    let game = setup("4k3/4r3/8/8/8/8/4N3/4K3 w");
    let error = game.clone().play_text("Nc3").unwrap_err();
    assert_eq!(error, IChessError::ExposesKing { from: sq("e2") });
}

#[test]
fn capitalised_squares_are_read() {
    let game = setup("4k3/8/8/8/2P5/4P3/8/4K3 w");
    assert_eq!(game.parse_turn("C4c5"), Ok(mv("c4", "c5")));
    assert_eq!(game.parse_turn("E4"), Ok(mv("e3", "e4")));
}

#[test]
fn records_in_the_sources_style_replay() {
    let record = "1. R=a1 R=h8 2. B=f4 R=f8 3. R@h1 B*c5 4. Nb1 N=b8";
    let turns = record_tokens(record);
    let replay = AnyGame::replay(GameKind::IChess, &[], &turns).unwrap();
    let error = replay.error.expect("Nb1 is not a drop");
    assert_eq!(error.index, 7);
    assert!(error.to_string().contains("deployment"), "{error}");
    let fixed = record_tokens(&record.replace("Nb1", "N=b1"));
    let replay = AnyGame::replay(GameKind::IChess, &[], &fixed).unwrap();
    assert!(replay.error.is_none(), "{:?}", replay.error);
    assert_eq!(replay.played, ["R=a1", "R=h8", "B=f4", "R=f8", "R=h1", "B=c5", "N=b1", "N=b8"]);
}

#[test]
fn example_game_replays_to_mate() {
    let record = include_str!("../../examples/ichess.txt");
    let replay = AnyGame::replay(GameKind::IChess, &[], &record_tokens(record)).unwrap();
    assert!(replay.error.is_none(), "{:?}", replay.error);
    let ending = replay.game.status().ending().expect("the example game is over");
    assert_eq!(ending.reason, EndReason::Checkmate);
}

#[test]
fn every_legal_turn_round_trips_in_the_perft_positions() {
    let table = include_str!("data/ichess-perft.txt");
    for fen in table.lines().filter_map(|line| line.strip_prefix("fen ")) {
        let game = setup(fen);
        for turn in game.legal_turns() {
            let text = game.format_turn(turn);
            assert_eq!(game.parse_turn(&text), Ok(turn), "`{text}` in {fen}");
        }
    }
}
