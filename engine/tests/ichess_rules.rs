//! One test per rule and ruling of iChess (`docs/rules/ichess.md`), from positions worked out by hand.

use crate::common;

use common::sq;
use stonemate_engine::ichess::{Bare, IChess, IChessError, IChessOptions};
use stonemate_engine::{
    AnyGame, Color, EndReason, Ending, Game, GameKind, GameOptions, Outcome, Piece, Role, Status, Turn,
};

fn setup(fen: &str) -> IChess {
    IChess::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

/// Plays turn texts, panicking on the first refusal.
fn play(game: &mut IChess, turns: &str) {
    for text in turns.split_whitespace() {
        game.play_text(text).unwrap_or_else(|e| panic!("`{text}` in {}: {e}", game.fen()));
    }
}

fn refused(game: &IChess, text: &str) -> IChessError {
    let mut after = game.clone();
    let error = after.play_text(text).expect_err(text);
    assert_eq!(after.fen(), game.fen(), "refused `{text}` changed nothing");
    error
}

fn drop(role: Role, to: &str) -> Turn {
    Turn::Drop { role, to: sq(to) }
}

fn mv(from: &str, to: &str) -> Turn {
    Turn::movement(sq(from), sq(to))
}

fn promote(from: &str, to: &str) -> Turn {
    Turn::Move { from: sq(from), to: sq(to), promotion: Some(Role::Ferz) }
}

/// The squares the piece on `from` may move to, sorted.
fn targets(game: &IChess, from: &str) -> Vec<String> {
    let mut squares: Vec<String> = game
        .legal_turns()
        .into_iter()
        .filter_map(|turn| match turn {
            Turn::Move { from: f, to, promotion: None } if f == sq(from) => Some(to.to_string()),
            _ => None,
        })
        .collect();
    squares.sort();
    squares
}

fn names(list: &str) -> Vec<String> {
    let mut squares: Vec<String> = list.split_whitespace().map(str::to_owned).collect();
    squares.sort();
    squares
}

fn finished(game: &IChess) -> Ending {
    game.status().ending().unwrap_or_else(|| panic!("the game at {} is over", game.fen()))
}

/// The eight drops of each side used by several tests (White's king last, Black's too).
const DEPLOYMENT: &str = "R=a1 R=h8 B=f4 R=f8 R=h1 B=c5 N=b1 N=b8 N=g1 N=g8 B=c1 B=e5 Q=d1 Q=d8 K=e1 K=e7";

#[test]
fn rule_1_start_position() {
    let start = IChess::new(IChessOptions::default());
    let rows = start.view().rows();
    assert_eq!(rows, ["........", "........", "pppppppp", "........", "........", "PPPPPPPP", "........", "........"]);
    let [white, black] = start.hands().unwrap();
    assert_eq!((white.to_string(), black.to_string()), ("KQRRBBNN".to_owned(), "KQRRBBNN".to_owned()));
    assert_eq!(start.status(), Status::Ongoing { to_move: Color::White });
}

#[test]
fn rule_1_no_options() {
    assert_eq!(IChessOptions::from_pairs(&[]), Ok(IChessOptions::default()));
    let error = IChessOptions::from_pairs(&[("board".to_owned(), "9x9".to_owned())]).unwrap_err();
    assert!(error.to_string().contains("`board`"), "{error}");
    assert!(IChessOptions::default().to_pairs().is_empty());
    assert!(AnyGame::new(GameKind::IChess, &[]).is_ok());
}

#[test]
fn rule_2_drops_only_in_the_own_zone() {
    let mut game = IChess::new(IChessOptions::default());
    assert!(matches!(refused(&game, "R=a5"), IChessError::OutsideDropZone { .. }));
    assert!(matches!(refused(&game, "R=a3"), IChessError::Occupied { .. }));
    play(&mut game, "R=a4");
    assert!(matches!(refused(&game, "R=a4"), IChessError::OutsideDropZone { .. }));
    play(&mut game, "R=a5");
    let drops = game.legal_turns();
    assert_eq!(drops.len(), 4 * 23, "Q R B N on the 23 empty squares of ranks 1-4");
}

#[test]
fn rule_3_deployment_is_drops_only() {
    let mut game = IChess::new(IChessOptions::default());
    assert_eq!(refused(&game, "a3a4"), IChessError::DeploymentDropsOnly);
    play(&mut game, "R=a1");
    assert_eq!(refused(&game, "a6a5"), IChessError::DeploymentDropsOnly);
    assert!(Bare::of(&game).deploying());
}

#[test]
fn rule_3_king_is_dropped_last() {
    let mut game = IChess::new(IChessOptions::default());
    assert_eq!(refused(&game, "K=e1"), IChessError::KingNotLast);
    assert!(!game.legal_turns().iter().any(|t| matches!(t, Turn::Drop { role: Role::King, .. })));
    let all_but_kings: Vec<&str> = DEPLOYMENT.split_whitespace().take(14).collect();
    play(&mut game, &all_but_kings.join(" "));
    assert!(game.legal_turns().iter().all(|t| matches!(t, Turn::Drop { role: Role::King, .. })));
}

#[test]
fn rule_3_play_begins_after_eight_drops_each() {
    let mut game = IChess::new(IChessOptions::default());
    play(&mut game, DEPLOYMENT);
    assert!(!Bare::of(&game).deploying());
    assert_eq!(game.status(), Status::Ongoing { to_move: Color::White });
    let [white, black] = game.hands().unwrap();
    assert!(white.is_empty() && black.is_empty());
    play(&mut game, "Pe4 Pa5");
}

#[test]
fn rule_4_king_not_dropped_on_an_attacked_square() {
    // Black's bishop on f5 and queen on d5 attack c4, d4, e4 and g4.
    let game = setup("r1b4r/8/pppppppp/1n1q1b1n/8/PPPPPPPP/8/RNBQ1BNR[Kk] w");
    assert_eq!(refused(&game, "K=e4"), IChessError::KingDropAttacked { square: sq("e4") });
    assert!(game.is_legal(drop(Role::King, "e1")));
    assert!(!game.legal_turns().contains(&drop(Role::King, "d4")));
    assert_eq!(game.legal_turns().len(), 12);
}

#[test]
fn ruling_i1_no_legal_deployment_drop_loses() {
    // Every empty square of White's zone is on rank 4, which Black's rook sweeps.
    let game = setup("4k3/8/8/8/7r/NNNNNNNN/NNNNNNNN/NNNNNNNN[K] w");
    assert!(game.legal_turns().is_empty());
    assert_eq!(finished(&game), Ending { outcome: Outcome::Winner(Color::Black), reason: EndReason::NoLegalTurn });
}

#[test]
fn rule_5_a_turn_is_a_move_or_a_drop() {
    let game = setup("4k3/8/8/8/8/8/8/R3K3[N] w");
    assert!(game.is_legal(mv("a1", "a7")));
    assert!(game.is_legal(drop(Role::Knight, "c3")));
    assert_eq!(refused(&game, "N=c5"), IChessError::OutsideDropZone { square: sq("c5") });
    assert_eq!(game.clone().play(Turn::Pass), Err(IChessError::WrongKind));
}

#[test]
fn rule_6_king_moves_one_square_without_castling() {
    let game = setup("4k3/8/8/8/8/8/8/R3K2R w");
    assert_eq!(targets(&game, "e1"), names("d1 d2 e2 f2 f1"));
}

#[test]
fn rule_6_queen_rook_bishop_slide() {
    let game = setup("4k3/8/1p6/8/3Q4/8/5P2/4K3 w");
    let queen = "d5 d6 d7 d8 d3 d2 d1 a4 b4 c4 e4 f4 g4 h4 c5 b6 e5 f6 g7 h8 c3 b2 a1 e3";
    assert_eq!(targets(&game, "d4"), names(queen), "b6 is captured, f2 blocks");
    let rook = setup("4k3/8/8/8/3R4/8/3P4/4K3 w");
    assert_eq!(targets(&rook, "d4"), names("d5 d6 d7 d8 d3 a4 b4 c4 e4 f4 g4 h4"));
    let bishop = setup("4k3/8/8/8/3B4/8/8/4K3 w");
    assert_eq!(targets(&bishop, "d4"), names("c5 b6 a7 e5 f6 g7 h8 c3 b2 a1 e3 f2 g1"));
}

#[test]
fn rule_6_knight_leaps() {
    let game = setup("4k3/8/8/8/3N4/2PP4/8/4K3 w");
    assert_eq!(targets(&game, "d4"), names("b5 c6 e6 f5 f3 e2 c2 b3"));
}

#[test]
fn rule_6_pawn_steps_and_captures_straight_forward() {
    let game = setup("4k3/8/8/3n4/3P4/8/8/4K3 w");
    assert_eq!(targets(&game, "d4"), names("d5"), "captures the knight straight ahead");
    let blocked = setup("4k3/8/8/2n1n3/3P4/8/8/4K3 w");
    assert!(targets(&blocked, "d4").iter().all(|s| s == "d5"), "no diagonal captures");
    let start = setup("4k3/8/8/8/8/3P4/8/4K3 w");
    assert_eq!(targets(&start, "d3"), names("d4"), "no double step");
    let black = setup("4k3/8/3p4/8/8/8/8/4K3 b");
    assert_eq!(targets(&black, "d6"), names("d5"), "Black's pawns go down the board");
}

#[test]
fn rule_6_ferz_steps_diagonally() {
    let game = setup("4k3/8/8/8/3F4/8/8/4K3 w");
    assert_eq!(targets(&game, "d4"), names("c5 e5 c3 e3"));
}

#[test]
fn rule_7_promotion_is_optional_in_the_zone() {
    let game = setup("4k3/8/8/8/3P4/8/8/4K3 w");
    assert!(game.is_legal(mv("d4", "d5")) && game.is_legal(promote("d4", "d5")));
    let mut promoted = game.clone();
    play(&mut promoted, "Pd5=F");
    assert_eq!(promoted.view().rows()[3], "...F....");
    let deeper = setup("4k3/8/8/3P4/8/8/8/4K3 w");
    assert!(deeper.is_legal(mv("d5", "d6")) && deeper.is_legal(promote("d5", "d6")));
    let outside = setup("4k3/8/8/8/8/3P4/8/4K3 w");
    assert_eq!(refused(&outside, "d3d4=F"), IChessError::PromotionOutsideZone { square: sq("d4") });
    assert!(matches!(
        outside.clone().play(Turn::Move { from: sq("d3"), to: sq("d4"), promotion: Some(Role::Queen) }),
        Err(IChessError::BadPromotion { role: Role::Queen })
    ));
}

#[test]
fn rule_7_promotion_is_forced_on_the_last_rank() {
    let game = setup("4k3/1P6/8/8/8/8/8/4K3 w");
    assert!(!game.is_legal(mv("b7", "b8")));
    assert_eq!(game.clone().play(mv("b7", "b8")), Err(IChessError::PromotionForced { square: sq("b8") }));
    let mut played = game.clone();
    play(&mut played, "b7b8");
    assert_eq!(played.view().rows()[0], ".F..k...", "the mark may be left out on the last rank");
    let black = setup("4k3/8/8/8/8/8/6p1/K7 b");
    assert!(black.is_legal(promote("g2", "g1")) && !black.is_legal(mv("g2", "g1")));
}

#[test]
fn rule_7_only_pawns_promote() {
    let game = setup("4k3/8/8/8/3N4/8/8/4K3 w");
    let turn = Turn::Move { from: sq("d4"), to: sq("e6"), promotion: Some(Role::Ferz) };
    assert_eq!(game.clone().play(turn), Err(IChessError::OnlyPawnsPromote { role: Role::Knight }));
}

#[test]
fn rule_8_captures_go_to_the_capturers_hand() {
    let mut game = setup("4k3/8/8/3n4/3P4/8/8/4K3 w");
    play(&mut game, "PxNd5");
    assert_eq!(game.hands().unwrap()[0].to_string(), "N");
    assert_eq!(game.view().captured, [(sq("d5"), Piece::new(Color::Black, Role::Knight))]);
    play(&mut game, "Kd7 N=c3");
    assert_eq!(game.view().rows()[5], "..N.....", "the captured knight drops as White's");
}

#[test]
fn rule_8_captured_ferz_is_demoted_to_a_pawn() {
    let mut game = setup("4k3/8/8/8/8/3f4/8/3RK3 w");
    play(&mut game, "RxFd3");
    assert_eq!(game.hands().unwrap()[0].to_string(), "P");
    play(&mut game, "Kf7 P=d1");
}

#[test]
fn rule_9_no_doubled_pawns_by_drop() {
    let game = setup("4k3/8/3p4/8/8/3P4/5F2/4K3[P] w");
    assert_eq!(refused(&game, "P=d2"), IChessError::DoublePawn { file: 'd' });
    assert!(game.is_legal(drop(Role::Pawn, "f1")), "a ferz is not a pawn");
    assert!(game.is_legal(drop(Role::Pawn, "a1")), "pawns may be dropped on the first rank");
}

#[test]
fn rule_9_pawn_drop_mate_is_allowed() {
    let mut game = setup("8/8/pp6/k7/2K5/8/1N6/8[P] w");
    assert_eq!(game.format_turn(drop(Role::Pawn, "a4")), "P=a4#");
    play(&mut game, "P=a4");
    assert_eq!(finished(&game), Ending { outcome: Outcome::Winner(Color::White), reason: EndReason::Checkmate });
}

#[test]
fn rule_10_pinned_piece_stays_on_its_line() {
    let game = setup("4k3/4r3/8/8/8/8/4N3/4K3[p] w");
    assert!(game.legal_turns().iter().all(|t| !matches!(t, Turn::Move { from, .. } if *from == sq("e2"))));
    assert_eq!(refused(&game, "Ng3"), IChessError::ExposesKing { from: sq("e2") });
    let rook = setup("4k3/4r3/8/8/8/8/4R3/4K3 w");
    assert_eq!(targets(&rook, "e2"), names("e3 e4 e5 e6 e7"), "a pinned rook slides along the pin");
}

#[test]
fn rule_10_king_may_not_move_into_check() {
    let game = setup("4k3/8/8/8/8/8/8/3rK3 w");
    assert_eq!(targets(&game, "e1"), names("d1 e2 f2"), "d2 and f1 are attacked; d1 is unprotected");
    assert_eq!(refused(&game, "Kf1"), IChessError::KingIntoCheck { square: sq("f1") });
}

#[test]
fn rule_10_drop_in_check_must_block() {
    let game = setup("4r1k1/8/8/8/8/8/8/4K3[N] w");
    assert!(Bare::of(&game).in_check());
    assert_eq!(refused(&game, "N=a1"), IChessError::StillInCheck);
    assert!(game.is_legal(drop(Role::Knight, "e2")));
    assert!(!game.is_legal(drop(Role::Knight, "e5")), "e5 blocks but lies outside the drop zone");
}

#[test]
fn rule_10_discovered_check() {
    let mut game = setup("4k3/8/8/8/4N3/8/8/3KR3 w");
    assert_eq!(game.format_turn(mv("e4", "c5")), "Nc5+");
    play(&mut game, "Nc5");
    assert!(Bare::of(&game).in_check());
    assert_eq!(targets(&game, "e8"), names("d8 f8 f7"), "e7 is on the rook's file, d7 the knight's");
}

#[test]
fn rule_10_double_check_allows_only_king_moves() {
    let game = setup("4k3/8/3N4/8/8/8/8/3KR3[Qq] b");
    assert!(Bare::of(&game).in_check());
    let turns = game.legal_turns();
    assert!(turns.iter().all(|t| matches!(t, Turn::Move { from, .. } if *from == sq("e8"))), "{turns:?}");
}

#[test]
fn rule_11_checkmate_loses() {
    let mut game = setup("6k1/5ppp/8/8/8/8/8/R3K3 w");
    play(&mut game, "Ra8");
    assert_eq!(finished(&game), Ending { outcome: Outcome::Winner(Color::White), reason: EndReason::Checkmate });
    assert!(game.legal_turns().is_empty());
    assert_eq!(game.clone().play_text("Kh8"), Err(IChessError::GameOver));
}

#[test]
fn ruling_i2_no_legal_turn_loses() {
    let mut game = setup("k7/8/8/8/8/8/8/1Q5K w");
    assert_eq!(game.format_turn(mv("b1", "b6")), "Qb6", "stalemate is no check");
    play(&mut game, "Qb6");
    assert_eq!(finished(&game), Ending { outcome: Outcome::Winner(Color::White), reason: EndReason::NoLegalTurn });
}

#[test]
fn ruling_i2_a_drop_saves_a_stalemated_player() {
    let mut game = setup("k7/8/8/8/8/8/8/1Q5K[p] w");
    play(&mut game, "Qb6");
    assert_eq!(game.status(), Status::Ongoing { to_move: Color::Black });
}

#[test]
fn ruling_i3_fourfold_repetition_draws() {
    let mut game = setup("6nk/8/8/8/8/8/8/KN6 w");
    play(&mut game, "Nc3 Nf6 Nb1 Ng8 Nc3 Nf6 Nb1 Ng8 Nc3 Nf6 Nb1");
    assert_eq!(game.status(), Status::Ongoing { to_move: Color::Black }, "the start arose three times");
    play(&mut game, "Ng8");
    assert_eq!(finished(&game), Ending { outcome: Outcome::Draw, reason: EndReason::Repetition });
}

#[test]
fn ruling_i3_perpetual_checker_loses() {
    let mut game = setup("7k/6p1/8/8/8/8/4Q3/K7 w");
    // The position after 1...Kg8 arises again after 3...Kg8, 5...Kg8 and 7...Kg8; every
    // White turn since its first occurrence gave check.
    play(&mut game, "Qh5+ Kg8 Qe8+ Kh7 Qh5+ Kg8 Qe8+ Kh7 Qh5+ Kg8 Qe8+ Kh7 Qh5+");
    assert_eq!(game.status(), Status::Ongoing { to_move: Color::Black });
    play(&mut game, "Kg8");
    assert_eq!(finished(&game), Ending { outcome: Outcome::Winner(Color::Black), reason: EndReason::PerpetualCheck });
}

#[test]
fn refused_turns_name_the_rule() {
    let game = setup("4k3/8/8/8/8/8/8/R3K3[N] w");
    let cases = [
        ("Q=d1", "no queen in hand"),
        ("b2b3", "no piece on b2"),
        ("a1b2", "rook cannot go from a1 to b2 (rule 6)"),
        ("e1a1", "own piece stands on a1"),
    ];
    for (text, message) in cases {
        let error = refused(&game, text).to_string();
        assert!(error.contains(message), "`{text}`: {error}");
    }
}

#[test]
fn replay_through_any_game() {
    let turns: Vec<&str> = DEPLOYMENT.split_whitespace().chain(["Pe4", "Pa5"]).collect();
    let replay = AnyGame::replay(GameKind::IChess, &[], &turns).unwrap();
    assert!(replay.error.is_none(), "{:?}", replay.error);
    assert_eq!(replay.played.len(), 18);
    let [white, black] = replay.game.hands().unwrap();
    assert!(white.is_empty() && black.is_empty());
}
