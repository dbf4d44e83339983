//! Property tests of Chego over random playouts (see `common::check_properties`): listed
//! turns play and round-trip through their notation, others are refused without change,
//! and records replay to the same position.

use crate::common;

use common::{Checks, check_properties, options, random_game};
use proptest::prelude::*;
use stonemate_engine::chego::Chego;
use stonemate_engine::{Game, Turn};

proptest! {
    #![proptest_config(ProptestConfig { cases: 16, ..ProptestConfig::default() })]

    #[test]
    fn default_chess_set_on_8x8(seed in any::<u64>()) {
        check_properties(Chego::new(options("")), seed, Checks { max_turns: 40, ..Checks::default() });
    }

    #[test]
    fn small_board_with_holes(seed in any::<u64>()) {
        let start = Chego::new(options("board=6x5:c3,d4,a1 set=K1R2B1N2P4"));
        check_properties(start, seed, Checks::default());
    }

    #[test]
    fn unlimited_set_with_catalogue_pieces(seed in any::<u64>()) {
        let start = Chego::new(options("board=5x5:e1 \"set=unlimited RNPHG\""));
        check_properties(start, seed, Checks { max_turns: 80, ..Checks::default() });
    }

    /// The invariant behind rule 5: after every turn, every piece on the board attacks an
    /// empty square (the mover's by conditions c and e, the opponent's or they are taken).
    #[test]
    fn every_piece_attacks_an_empty_square_after_every_turn(seed in any::<u64>()) {
        let start = Chego::new(options("board=5x5:c3 \"set=unlimited KQRBNPFWDAHG\""));
        let (game, record) = random_game(start.clone(), seed, 60);
        let mut replayed = start;
        for text in &record {
            replayed.play_text(text).expect("the record replays");
            let map = replayed.attack_map();
            for (square, piece) in replayed.board().pieces() {
                prop_assert!(map.free(square) > 0, "{piece:?} on {square} starved after {text}");
            }
        }
        prop_assert_eq!(replayed.board(), game.board());
        prop_assert!(game.legal_turns().last() == Some(&Turn::Pass) || game.status().ending().is_some());
    }
}

/// Rule 4 and 5 written out naively, square by square, from the catalogue alone: a second
/// reading of the rules to hold the engine's shortcuts (its attack map, and recounting only
/// the pieces a drop can affect) against.
mod naive {
    use stonemate_engine::catalogue::moves;
    use stonemate_engine::{Board, Color, Piece, Role, Square, SquareSet};

    fn attacks(board: &Board, square: Square) -> SquareSet {
        let piece = board.get(square).expect("a piece");
        moves(piece.role, piece.color, square, board.shape(), board.occupied())
    }

    fn attackers(board: &Board, target: Square, color: Color) -> usize {
        board.pieces().filter(|&(s, p)| p.color == color && attacks(board, s).contains(target)).count()
    }

    fn starved(board: &Board, color: Color) -> Vec<Square> {
        let has_empty = |s: Square| attacks(board, s).iter().any(|t| board.get(t).is_none());
        board.pieces().filter(|&(s, p)| p.color == color && !has_empty(s)).map(|(s, _)| s).collect()
    }

    /// The captures of a legal drop, or `None` if it is illegal (the square is empty and the
    /// piece in hand: the caller only asks about those).
    pub fn judge(board: &Board, role: Role, to: Square, mover: Color) -> Option<Vec<Square>> {
        if attackers(board, to, Color::White) != attackers(board, to, Color::Black) {
            return None;
        }
        let mut after = board.clone();
        after.set(to, Piece::new(mover, role));
        let new = attacks(&after, to);
        if new.iter().all(|t| after.get(t).is_some()) || new.iter().any(|t| after.get(t).is_some()) {
            return None;
        }
        if !starved(&after, mover).is_empty() {
            return None;
        }
        Some(starved(&after, mover.other()))
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    #[test]
    fn legal_drops_and_captures_agree_with_a_naive_reading(seed in any::<u64>(), board in 0usize..3) {
        let option_text = ["board=6x6:c3,d4 \"set=unlimited KQRBNPHG\"", "board=5x4 \"set=unlimited RNPF\"", ""][board];
        let start = Chego::new(options(option_text));
        let (_, record) = random_game(start.clone(), seed, 30);
        let mut game = start;
        for text in &record {
            game.play_text(text).expect("the record replays");
            check_against_naive(&game)?;
        }
    }
}

fn check_against_naive(game: &Chego) -> Result<(), TestCaseError> {
    let Some(mover) = game.to_move() else { return Ok(()) };
    let legal = game.legal_turns();
    let hand = game.hands().expect("hands")[mover.index()];
    for role in hand.roles() {
        for to in game.board().shape().squares().filter(|&s| game.board().get(s).is_none()) {
            let turn = Turn::Drop { role, to };
            let expected = naive::judge(game.board(), role, to, mover);
            prop_assert_eq!(legal.contains(&turn), expected.is_some(), "{:?} in {:?}", turn, game);
            if let Some(captured) = expected {
                let mut after = game.clone();
                prop_assert_eq!(after.play(turn), Ok(()), "listed {:?}", turn);
                let squares: Vec<_> = after.view().captured.iter().map(|&(square, _)| square).collect();
                prop_assert_eq!(&squares, &captured, "captures of {:?}", turn);
            }
        }
    }
    Ok(())
}
