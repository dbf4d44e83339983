//! What each game's board view tells the renderer beyond the cells: the pieces captured
//! (and what they were), the block Gess moves, kings in check, and the go board's look.

use rand::SeedableRng;
use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use stonemate_engine::notation::record_tokens;
use stonemate_engine::{AnyGame, BlockMove, Cell, Color, GameKind, Look, Piece, Role, Square};

fn sq(name: &str) -> Square {
    name.parse().expect("a square")
}

fn replay(kind: GameKind, options: &[(&str, &str)], record: &str) -> AnyGame {
    let options: Vec<(String, String)> = options.iter().map(|(k, v)| ((*k).to_owned(), (*v).to_owned())).collect();
    let replay = AnyGame::replay(kind, &options, &record_tokens(record)).expect("valid options");
    assert!(replay.error.is_none(), "{:?}", replay.error);
    replay.game
}

#[test]
fn chogo_view_names_the_captured_king() {
    let record = "K@a4 K@f5 d1e1-d3 h5-h4 g2-e2 g6-g4 h3-g3 e7-e6 e2e3-e5 f5-f4 e4-c4 f4-e4 d3-e3 b6-b3 \
                  c4-b4 c7d7-e7 e3-e1 e6-d6 b4-b5 g4@a5 g3-g6 d6-d5 f1-f5 b3-d3 b5-b3 d7f7-d6 c1-c7 d5-c5 \
                  g6-g2 d6e6-c6 a3b3-c3 h4-h5 b2b3-b6 e4@a5";
    let view = replay(GameKind::Chogo, &[], record).view();
    assert!(view.status.ending().is_some());
    assert!(
        view.captured.iter().any(|&(_, piece)| piece == Piece::new(Color::Black, Role::King)),
        "captured: {:?}",
        view.captured
    );
}

#[test]
fn gess_view_shows_the_moved_block_and_whose_stones_were_captured() {
    // Black's piece on the c-file walks north into White's stones on rank 9.
    let view = replay(GameKind::Gess, &[], "c3-c6").view();
    assert_eq!(view.block_move, Some(BlockMove { from: sq("c3"), to: sq("c6"), size: 3 }));
    assert!(
        view.captured.iter().all(|&(square, piece)| piece.role == Role::Stone && view.cell(square) != Cell::Missing)
    );
}

#[test]
fn gess_view_colours_captured_stones_by_their_owner() {
    let game = replay(GameKind::Gess, &[], "c3-c6 c18-c15 c6-c13");
    let view = game.view();
    let colours: Vec<Color> = view.captured.iter().map(|&(_, piece)| piece.color).collect();
    assert!(!colours.is_empty(), "the move captures");
    assert!(colours.contains(&Color::White), "White's stones are listed as White's: {colours:?}");
}

#[test]
fn ichess_view_marks_the_king_in_check_exactly_when_in_check() {
    let mut checks_seen = 0;
    for seed in 0..12 {
        let mut rng = StdRng::seed_from_u64(seed);
        let AnyGame::IChess(mut game) = AnyGame::new(GameKind::IChess, &[]).expect("ichess") else {
            unreachable!("an iChess game")
        };
        for _ in 0..80 {
            use stonemate_engine::Game;
            let view = game.view();
            if stonemate_engine::ichess::Bare::of(&game).in_check() {
                checks_seen += 1;
                assert_eq!(view.checked.len(), 1);
                let king = view.cell(view.checked[0]);
                assert!(matches!(king, Cell::Piece(piece) if piece.role == Role::King), "{king:?}");
            } else {
                assert!(view.checked.is_empty());
            }
            let turns = game.legal_turns();
            let Some(&turn) = turns.choose(&mut rng) else { break };
            game.play(turn).expect("a legal turn");
        }
    }
    assert!(checks_seen > 0, "the playouts reach a check");
}

#[test]
fn go_with_rooks_is_drawn_as_a_go_board_with_star_points() {
    let view = replay(GameKind::Go, &[("board", "19x19")], "").view();
    assert_eq!(view.look, Look::Intersections);
    assert_eq!(view.stone_role, Some(Role::Rook));
    let mut stars: Vec<String> = view.star_points.iter().map(Square::to_string).collect();
    stars.sort();
    assert_eq!(stars, ["d10", "d16", "d4", "j10", "j16", "j4", "p10", "p16", "p4"]);
    let small = replay(GameKind::Go, &[("board", "9x9")], "").view();
    let mut stars: Vec<String> = small.star_points.iter().map(Square::to_string).collect();
    stars.sort();
    assert_eq!(stars, ["c3", "c7", "e5", "g3", "g7"]);
    assert_eq!(replay(GameKind::Go, &[("board", "13x13")], "").view().star_points.len(), 5);
    assert!(replay(GameKind::Go, &[("board", "5x5")], "").view().star_points.is_empty());
}

#[test]
fn go_with_other_pieces_keeps_the_chessboard() {
    let view = replay(GameKind::Go, &[("pieces", "RNB")], "").view();
    assert_eq!(view.look, Look::Checkered);
    assert_eq!(view.stone_role, None);
    assert!(view.star_points.is_empty());
}

#[test]
fn go_view_names_the_captured_pieces() {
    // Black's rook on a1 cannot move once White's stand on a2 and b1: it is captured.
    let view = replay(GameKind::Go, &[("board", "5x5")], "R@a1 R@a2 R@e5 R@b1").view();
    assert_eq!(view.captured, [(sq("a1"), Piece::new(Color::Black, Role::Rook))]);
}
