//! One test per rule and ruling of `docs/rules/chego.md` (and the options), on positions worked out by
//! hand. Positions are built by legal play only; the comments say why each turn is legal.

use crate::common;

use common::{options, sq};
use stonemate_engine::chego::{Chego, ChegoError, ChegoOptions, PieceSet};
use stonemate_engine::{
    AnyGame, Color, EndReason, Game, GameKind, GameOptions, HalfPoints, Look, NotationError, Outcome, Piece, Role,
    Score, Status, Turn,
};

/// A game with these options after these turns (each must be legal).
fn play(option_text: &str, turns: &str) -> Chego {
    let mut game = Chego::new(options(option_text));
    for text in turns.split_whitespace() {
        game.play_text(text).unwrap_or_else(|e| panic!("`{text}` after {game:?}: {e}"));
    }
    game
}

/// The error refusing `text`, after checking that the refusal changed nothing.
fn refuse(game: &Chego, text: &str) -> ChegoError {
    let mut after = game.clone();
    let error = after.play_text(text).expect_err(text);
    assert_eq!(format!("{after:?}"), format!("{game:?}"), "refusing `{text}` changed the game");
    error
}

fn drop(role: Role, square: &str) -> Turn {
    Turn::Drop { role, to: sq(square) }
}

fn piece_at(game: &Chego, square: &str) -> Option<Piece> {
    game.board().get(sq(square))
}

fn points(white: i32, black: i32) -> Score {
    Score { white: HalfPoints::whole(white), black: HalfPoints::whole(black) }
}

// Options.

#[test]
fn options_default_to_8x8_and_the_chess_set() {
    let pairs = ChegoOptions::default().to_pairs();
    let expect = [("board", "8x8"), ("set", "K1 Q1 R2 B2 N2 P8")].map(|(k, v)| (k.to_owned(), v.to_owned()));
    assert_eq!(pairs, expect);
    let game = Chego::new(ChegoOptions::default());
    assert_eq!(game.hands().map(|[white, black]| (white.to_string(), black.to_string())), {
        let chess = "KQRRBBNNPPPPPPPP".to_owned();
        Some((chess.clone(), chess))
    });
}

#[test]
fn options_set_counts_spaced_compact_or_as_letters() {
    let default = ChegoOptions::default();
    for text in ["set=K1Q1R2B2N2P8", "\"set=K1 Q1 R2 B2 N2 P8\"", "set=KQRRBBNNPPPPPPPP", "\"set=p8 n2 b2 r2 q1 k1\""] {
        assert_eq!(options::<ChegoOptions>(text), default, "{text}");
    }
    let small: ChegoOptions = options("board=5x4:c2 set=R2N1");
    assert_eq!(small.to_pairs()[0].1, "5x4:c2");
    assert_eq!(small.to_pairs()[1].1, "R2 N1");
}

#[test]
fn options_unlimited_set_lists_letters() {
    let opts: ChegoOptions = options("\"set=unlimited nr\"");
    assert_eq!(opts.set, PieceSet::Unlimited(vec![Role::Rook, Role::Knight]));
    assert_eq!(opts.to_pairs()[1].1, "unlimited RN");
    let game = Chego::new(opts);
    assert_eq!(game.hands().map(|hands| hands[0].to_string()), Some("R*N*".to_owned()));
}

#[test]
fn options_bad_values_are_refused_naming_the_key() {
    let cases = [
        ("board", "3x8"),
        ("board", "17x8"),
        ("board", "8x8:z3"),
        ("set", ""),
        ("set", "K65"),
        ("set", "K0"),
        ("set", "X1"),
        ("set", "S1"),
        ("set", "R64 R1"),
        ("set", "K64 Q64 R64 B64 N64"),
        ("set", "unlimited"),
        ("set", "unlimited R2"),
        ("set", "K99999999999999999999999"),
    ];
    for (key, value) in cases {
        let pairs = vec![(key.to_owned(), value.to_owned())];
        let error = ChegoOptions::from_pairs(&pairs).expect_err(value);
        assert!(error.to_string().contains(&format!("`{key}`")), "{value}: {error}");
    }
    let unknown = ChegoOptions::from_pairs(&[("komi".to_owned(), "1".to_owned())]).unwrap_err();
    assert!(unknown.to_string().contains("komi"), "{unknown}");
}

// Definitions 1-2.

#[test]
fn definition_1_a_ray_attacks_the_first_occupied_square_and_stops() {
    // White Ra1, Black Rh2: the black rook's rank-2 ray reaches a2; White's Na2 then stops it.
    let game = play("", "Ra1 Rh2 Na2");
    let map = game.attack_map();
    assert_eq!(map.counts(sq("a2")), [1, 1], "a2: white rook a1 and black rook h2");
    assert_eq!(map.counts(sq("a3")), [0, 0], "the white rook's ray stops at a2");
    assert_eq!(map.counts(sq("b2")), [0, 1]);
    assert_eq!(map.free(sq("a1")), 7, "b1..h1; a2 is occupied");
}

#[test]
fn definition_2_equal_attackers_make_a_square_neutral() {
    // a2 and h1 are attacked once by each side; b2 by Black only, a3 by White only.
    let game = play("", "Ra1 Rh2");
    let owner = game.owner().expect("Chego has owners");
    let owner_of = |name: &str| owner.iter().find(|(square, _)| *square == sq(name)).map(|&(_, owner)| owner);
    assert_eq!(owner_of("a2"), Some(None));
    assert_eq!(owner_of("h1"), Some(None));
    assert_eq!(owner_of("b2"), Some(Some(Color::Black)));
    assert_eq!(owner_of("a3"), Some(Some(Color::White)));
    assert_eq!(owner_of("e5"), Some(None), "unattacked squares are neutral");
    let mut game = game;
    game.play_text("Na2").expect("a neutral square (1 white, 1 black) takes a drop");
}

// Rule 3 and condition a.

#[test]
fn rule_3_the_board_starts_empty_and_white_begins() {
    let game = Chego::new(ChegoOptions::default());
    assert_eq!(game.status(), Status::Ongoing { to_move: Color::White });
    assert!(game.board().occupied().is_empty());
    assert_eq!(game.legal_turns().len(), 6 * 64 - 8 + 1, "every drop but a white pawn on rank 8, and pass");
}

#[test]
fn condition_a_the_square_must_exist() {
    let game = play("board=8x8:d4", "");
    assert_eq!(refuse(&game, "Nd4"), ChegoError::NoSuchSquare { square: sq("d4") });
    assert_eq!(refuse(&game, "Ni9"), ChegoError::NoSuchSquare { square: sq("i9") });
    assert_eq!(refuse(&game, "Nd4").to_string(), "d4 is not a square of this board (condition a)");
}

#[test]
fn condition_a_the_square_must_be_empty() {
    let game = play("", "Ra1");
    let error = refuse(&game, "Na1");
    assert_eq!(error, ChegoError::Occupied { square: sq("a1"), piece: Piece::new(Color::White, Role::Rook) });
    assert_eq!(error.to_string(), "a1 is not empty: a white rook stands there (condition a)");
}

#[test]
fn condition_a_the_piece_must_be_in_hand() {
    let game = play("set=K1R1", "Ka1 Kh8 Rb5");
    let error = refuse(&game, "Nh1");
    assert_eq!(error.condition(), Some('a'));
    assert_eq!(error.to_string(), "you have no knight in hand (condition a); your hand: R");
    let game = play("set=K1", "Ka1 Kh8");
    assert_eq!(refuse(&game, "Kd4").to_string(), "you have no king in hand (condition a); your hand is empty");
    assert_eq!(refuse(&game, "Sd4").condition(), Some('a'), "stones are not Chego pieces");
}

#[test]
fn condition_a_hands_run_out_and_unlimited_supplies_do_not() {
    let game = play("set=R2", "Ra1 Rh8 Rb2 Rg7");
    assert_eq!(game.hands().map(|hands| hands[0].is_empty()), Some(true));
    assert_eq!(game.legal_turns(), [Turn::Pass]);
    let game = play("\"set=unlimited R\"", "Ra1 Rh8 Rb2 Rg7");
    assert_eq!(game.hands().map(|hands| hands[0].to_string()), Some("R*".to_owned()));
}

// Condition b.

#[test]
fn condition_b_the_square_must_be_neutral() {
    let game = play("", "Ra1");
    let error = refuse(&game, "Na5");
    assert_eq!(
        error,
        ChegoError::NotNeutral {
            square: sq("a5"),
            white: 1,
            black: 0,
            attackers: vec![(sq("a1"), Piece::new(Color::White, Role::Rook))],
        }
    );
}

#[test]
fn condition_b_names_every_attacker_by_side() {
    // c7: White Rc1 up the c-file and Bb8 on the diagonal, Black Nd5: 2 against 1.
    let game = play("", "Rc1 Nd5 Bb8");
    let error = refuse(&game, "Pc7");
    assert_eq!(
        error.to_string(),
        "c7 is not neutral: attacked by 2 white and 1 black pieces \
         (white rook c1, white bishop b8, black knight d5; condition b)"
    );
}

// Conditions c-e.

#[test]
fn condition_c_the_new_piece_must_attack_an_empty_square() {
    // On 4x4 with c2 and b3 taken, a knight on a1 would attack only occupied squares.
    // White Rc2, then Black Rb3 (b3 is not on the white rook's lines); a1 is seen by neither.
    let game = play("board=4x4", "Rc2 Rb3");
    let error = refuse(&game, "Na1");
    assert_eq!(error, ChegoError::AttacksNoEmptySquare { role: Role::Knight, square: sq("a1") });
    assert_eq!(error.to_string(), "the knight on a1 would attack no empty square (condition c)");
}

#[test]
fn condition_d_the_new_piece_must_attack_no_piece() {
    let game = play("", "Ra1");
    let error = refuse(&game, "Nb3");
    assert_eq!(error, ChegoError::AttacksOccupied { role: Role::Knight, square: sq("b3"), occupied: vec![sq("a1")] });
    assert_eq!(error.to_string(), "the knight on b3 would attack the occupied square a1 (condition d)");
    // Own pieces count too: White's own knight on b3 is refused the same way.
    let game = play("", "Ra1 pass");
    assert_eq!(refuse(&game, "Nb3").condition(), Some('d'));
    // Several: a black queen on c3 would see White's Ra1 and Ke5 along its diagonals.
    let game = play("", "Ra1 pass Ke5");
    let error = refuse(&game, "Qc3");
    assert_eq!(error.to_string(), "the queen on c3 would attack the occupied squares a1, e5 (condition d)");
}

#[test]
fn condition_e_no_suicide() {
    // 4x4: White Pa1 attacks only b2; Black pa3 attacks only b2, so b2 is neutral. A white
    // rook there attacks b1, b3, b4, a2, c2, d2, but leaves the pawn on a1 nothing.
    let game = play("board=4x4 \"set=unlimited RP\"", "Pa1 Pa3");
    let error = refuse(&game, "Rb2");
    assert_eq!(error, ChegoError::Suicide { starved: vec![(sq("a1"), Role::Pawn)] });
    assert_eq!(error.to_string(), "suicide: your pawn on a1 would attack no empty square (condition e)");
}

#[test]
fn ruling_c1_condition_d_is_judged_before_captures() {
    // 8x8: White Rg1 sees g7; Black ph8 attacks only g7, so g7 is neutral. A white bishop on
    // g7 would capture the pawn (its last square is taken), but it attacks h8 while placed.
    let game = play("", "Rg1 Ph8");
    let error = refuse(&game, "Bg7");
    assert_eq!(error, ChegoError::AttacksOccupied { role: Role::Bishop, square: sq("g7"), occupied: vec![sq("h8")] });
}

#[test]
fn ruling_c1_suicide_is_judged_before_captures() {
    // 4x4 with a hole on c3. White Rb1; Black Ra4; White Bb4 (b4 seen by both rooks: neutral;
    // the bishop attacks only a3, its other diagonal ends at the hole). Black pa3 (a3 seen
    // by Bb4 and Ra4) attacks b2 but takes the black rook's last empty square: suicide,
    // although the white bishop would be captured too and the rook then free again.
    let game = play("board=4x4:c3 \"set=unlimited RBP\"", "Rb1 Ra4 Bb4");
    let error = refuse(&game, "Pa3");
    assert_eq!(error, ChegoError::Suicide { starved: vec![(sq("a4"), Role::Rook)] });
}

// Pawns (rule 4, last sentence; docs/pieces.md).

#[test]
fn pawns_may_be_dropped_on_their_own_first_rank() {
    let game = play("", "Pa1 Ph8");
    assert_eq!(piece_at(&game, "a1"), Some(Piece::new(Color::White, Role::Pawn)));
    assert_eq!(piece_at(&game, "h8"), Some(Piece::new(Color::Black, Role::Pawn)));
    let map = game.attack_map();
    assert_eq!(map.counts(sq("b2")), [1, 0], "the white pawn attacks towards higher ranks");
    assert_eq!(map.counts(sq("g7")), [0, 1], "the black pawn attacks towards lower ranks");
}

#[test]
fn pawns_on_the_last_rank_attack_nothing() {
    let white = play("", "");
    assert_eq!(refuse(&white, "Pd8"), ChegoError::AttacksNoEmptySquare { role: Role::Pawn, square: sq("d8") });
    let black = play("", "pass");
    assert_eq!(refuse(&black, "Pd1"), ChegoError::AttacksNoEmptySquare { role: Role::Pawn, square: sq("d1") });
    assert!(!black.legal_turns().contains(&drop(Role::Pawn, "d1")));
    assert!(black.legal_turns().contains(&drop(Role::Pawn, "d8")));
}

// Holes (docs/pieces.md, ruling P1).

#[test]
fn holes_stop_sliders() {
    let game = play("board=4x4:a2,b1", "");
    assert_eq!(refuse(&game, "Ra1").condition(), Some('c'), "both rook rays end at holes");
    let game = play("board=4x4:c1", "Ra1");
    let map = game.attack_map();
    assert_eq!(map.counts(sq("b1")), [1, 0]);
    assert_eq!(map.counts(sq("d1")), [0, 0], "the ray stops before the hole on c1");
}

#[test]
fn holes_let_jumpers_over() {
    // The knight on a1 jumps the holes a2, b1, b2 to reach b3 and c2.
    let game = play("board=4x4:a2,b1,b2", "Na1");
    let map = game.attack_map();
    assert_eq!((map.counts(sq("b3")), map.counts(sq("c2"))), ([1, 0], [1, 0]));
    assert_eq!(map.free(sq("a1")), 2);
}

// Rule 5: captures.

#[test]
fn rule_5_capture_of_a_single_piece() {
    // Black ph8's only square is g7 (neutral: also seen by Rg1); White's knight takes it.
    let game = play("", "Rg1 Ph8 Ng7");
    assert_eq!(piece_at(&game, "h8"), None);
    assert_eq!(game.captured(), [1, 0]);
    assert_eq!(captured_squares(&game), [sq("h8")]);
    assert_eq!(game.view().last_turn, [sq("g7")]);
}

#[test]
fn rule_5_several_pieces_fall_to_one_drop() {
    // 4x4, hole c3. White Ka2; Black Ka4; White Rb3 (seen by both kings); Black Bb4 (seen by
    // Rb3 and Ka4; attacks only a3, its other diagonal ends at the hole). a3 is then seen
    // by Ka2, Rb3, Ka4 and Bb4: neutral. White's Na3 takes the last square of both.
    let game = play("board=4x4:c3 \"set=unlimited KRBN\"", "Ka2 Ka4 Rb3 Bb4 Na3");
    assert_eq!((piece_at(&game, "a4"), piece_at(&game, "b4")), (None, None));
    assert_eq!(game.captured(), [2, 0]);
    assert_eq!(captured_squares(&game), [sq("a4"), sq("b4")]);
}

#[test]
fn rule_5_a_drop_that_blocks_a_sliders_last_empty_squares() {
    // 4x4, hole b4. White Nb1 (attacks a3, c3, d2); Black Ra4: east ends at the hole, south
    // a3, a2, a1. White Ba3 (seen by Nb1 and Ra4) cuts the whole ray: the rook is captured.
    let game = play("board=4x4:b4", "Nb1 Ra4 Ba3");
    assert_eq!(piece_at(&game, "a4"), None);
    assert_eq!(game.captured(), [1, 0]);
}

#[test]
fn rule_5_a_drop_that_occupies_a_knights_last_square() {
    // 4x4, hole c3: Black Na4 attacks only b2 (c3 is a hole). White Rd2 sees b2 along rank
    // 2, so b2 is neutral; White's pawn there attacks a3 (c3 is a hole) and takes b2.
    let game = play("board=4x4:c3", "Rd2 Na4 Pb2");
    assert_eq!(piece_at(&game, "a4"), None);
    assert_eq!(game.captured(), [1, 0]);
}

#[test]
fn rule_5_own_pieces_are_never_captured_by_own_drops() {
    // After a legal drop every piece of the mover still attacks an empty square (condition e),
    // so only opponent pieces fall; the black rook's ray simply ends at the new piece.
    let game = play("", "Ra1 Rh2 Na2");
    assert_eq!(game.captured(), [0, 0]);
    assert_eq!(game.board().occupied().len(), 3);
}

// Rules 6-8: passing, the end, the score.

#[test]
fn rule_6_passing_is_always_legal_and_listed() {
    let game = play("", "");
    assert_eq!(game.legal_turns().last(), Some(&Turn::Pass));
    let game = play("set=K1", "Ka1 Kh8");
    assert_eq!(game.legal_turns(), [Turn::Pass], "with an empty hand passing is the only turn");
}

#[test]
fn rule_7_two_passes_in_a_row_end_the_game() {
    let game = play("", "pass Ra1 pass");
    assert_eq!(game.status(), Status::Ongoing { to_move: Color::Black }, "a drop between passes resets them");
    let game = play("", "pass Ra1 pass pass");
    assert_eq!(game.status().ending().map(|e| e.reason), Some(EndReason::TwoPasses));
    assert!(game.legal_turns().is_empty());
    assert_eq!(refuse(&game, "Rh8"), ChegoError::GameOver);
    assert!(game.view().owner.is_some(), "the picture shows who owns what once the game is over");
}

#[test]
fn rule_8_score_counts_controlled_squares_and_captured_pieces() {
    // White Rg1 (g2..g6, a1..f1, h1: 12 empty squares) and Ng7 (e8, e6, f5, h5: 4), having
    // captured Black's pawn: 12 + 4 + 1 = 17 against 0.
    let game = play("", "Rg1 Ph8 Ng7 pass pass");
    assert_eq!(game.score(), Some(points(17, 0)));
    let ending = game.status().ending().expect("two passes");
    assert_eq!(ending.outcome, Outcome::Winner(Color::White));
    assert_eq!(game.view().prisoners, Some([1, 0]));
}

#[test]
fn rule_8_equal_points_is_a_draw() {
    // Ra1 and Rh8 each see 14 squares; a8 and h1 are seen by both (neutral): 12 each.
    let game = play("", "Ra1 Rh8 pass pass");
    assert_eq!(game.score(), Some(points(12, 12)));
    assert_eq!(game.status().ending().map(|e| e.outcome), Some(Outcome::Draw));
}

#[test]
fn rule_8_score_is_shown_during_the_game() {
    let game = play("", "Ra1");
    assert_eq!(game.score(), Some(points(14, 0)));
    assert_eq!(game.view().owner, None, "the owner map is drawn only at the end");
}

// Notation.

#[test]
fn notation_drops_name_the_piece() {
    let game = play("", "");
    for text in ["Ne4", "N@e4", "N=e4", "n@E4", " Ne4 "] {
        assert_eq!(game.parse_turn(text), Ok(drop(Role::Knight, "e4")), "{text}");
    }
    assert_eq!(game.parse_turn("Bb4"), Ok(drop(Role::Bishop, "b4")));
    assert_eq!(game.parse_turn("PASS"), Ok(Turn::Pass));
    assert_eq!(game.format_turn(drop(Role::Knight, "e4")), "Ne4");
    assert_eq!(game.format_turn(Turn::Pass), "pass");
}

#[test]
fn notation_a_bare_square_is_not_a_turn() {
    let game = play("", "");
    let error = refuse(&game, "b4");
    assert!(matches!(error, ChegoError::Notation(NotationError::Unreadable { .. })), "{error:?}");
    assert!(error.to_string().contains("name the piece"), "{error}");
    for junk in ["", "Xe4", "N@", "e2-e4", "Ne4e5", "pas"] {
        assert!(matches!(refuse(&game, junk), ChegoError::Notation(_)), "{junk}");
    }
    let mut moved = game.clone();
    assert_eq!(moved.play(Turn::movement(sq("e2"), sq("e4"))), Err(ChegoError::WrongKind));
}

// The view and the replay contract.

#[test]
fn view_shows_hands_last_turn_and_score() {
    let game = play("", "Rg1 Ph8 Ng7");
    let view = game.view();
    assert_eq!(view.look, Look::Checkered);
    assert_eq!(view.turns_played, 3);
    assert_eq!(view.hands.map(|[w, b]| (w.to_string(), b.to_string())), {
        Some(("KQRBBNPPPPPPPP".to_owned(), "KQRRBBNNPPPPPPP".to_owned()))
    });
    assert_eq!(view.score, Some(points(17, 0)), "16 squares and the captured pawn");
    assert_eq!(view.rows()[1], "......N.");
}

#[test]
fn replay_through_any_game_reports_errors_by_index() {
    let turns = ["Rc1", "Nd5", "Bb8", "Pc7"];
    let replay = AnyGame::replay(GameKind::Chego, &[], &turns).expect("default options");
    let error = replay.error.expect("Pc7 is refused");
    assert_eq!(error.index, 4);
    assert!(error.to_string().contains("c7 is not neutral: attacked by 2 white and 1 black pieces"), "{error}");
    assert_eq!(replay.played, ["Rc1", "Nd5", "Bb8"]);
}

#[test]
fn example_record_replays_to_its_result() {
    let record = include_str!("../../examples/chego.txt");
    let turns = stonemate_engine::notation::record_tokens(record);
    let replay = AnyGame::replay(GameKind::Chego, &[], &turns).expect("default options");
    assert!(replay.error.is_none(), "{:?}", replay.error);
    let ending = replay.game.status().ending().expect("the example ends with two passes");
    assert_eq!(ending.reason, EndReason::TwoPasses);
    assert_eq!(replay.played.len(), 19);
    // The final position's controlled squares were counted with python-chess: 26 to 12.
    assert_eq!(replay.game.score(), Some(points(27, 12)));
    assert_eq!(ending.outcome, Outcome::Winner(Color::White));
    let rows = ["1rp1p3", "6N1", "p7", "2nn2P1", "3N1k2", "3B3Q", "P2B1P2", "6R1"].map(expand);
    assert_eq!(replay.game.view().rows(), rows);
    assert_eq!(replay.game.view().prisoners, Some([1, 0]));
    let hands = replay.game.hands().map(|[white, black]| (white.to_string(), black.to_string()));
    assert_eq!(hands, Some(("KRPPPPP".to_owned(), "QRBBPPPP".to_owned())));
    let owner = replay.game.owner().expect("the replay JSON has an owner map");
    assert_eq!(owner.len(), 64 - 16, "every empty square (16 pieces stand)");
    assert_eq!(owner.iter().filter(|(_, o)| *o == Some(Color::White)).count(), 26);
    assert!(replay.game.legal_turns().is_empty());
}

/// A FEN rank (`2nn2P1`) as a `replay` board row (`..nn..P.`).
fn expand(rank: &str) -> String {
    rank.chars().map(|c| c.to_digit(10).map_or(c.to_string(), |n| ".".repeat(n as usize))).collect()
}

/// The squares the last turn captured on, in the view.
fn captured_squares(game: &impl stonemate_engine::Game) -> Vec<stonemate_engine::Square> {
    game.view().captured.iter().map(|&(square, _)| square).collect()
}
