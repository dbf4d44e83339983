//! One test per rule and ruling of `docs/rules/go-with-pieces.md`, from positions worked out by hand.

use crate::common;

use common::{options, sq};
use stonemate_engine::go::{DeadPieces, Go, GoError, GoOptions};
use stonemate_engine::{
    Cell, Color, EndReason, Ending, Game, GameOptions, HalfPoints, Outcome, Piece, Role, Shape, Status, Turn, catalogue,
};

fn game(option_text: &str) -> Go {
    Go::new(options(option_text))
}

/// Plays turn texts, which must all be legal; `pass` keeps the colours alternating.
fn play(game: &mut Go, turns: &str) {
    for text in turns.split_whitespace() {
        game.play_text(text).unwrap_or_else(|e| panic!("`{text}` should be legal: {e}\n{:?}", game.board()));
    }
}

fn piece_at(game: &Go, square: &str) -> Option<Piece> {
    game.board().get(sq(square))
}

fn drop(role: Role, square: &str) -> Turn {
    Turn::Drop { role, to: sq(square) }
}

/// Refuses the turn and checks that nothing changed.
fn refuse(game: &Go, turn: Turn) -> GoError {
    let mut after = game.clone();
    let error = after.play(turn).expect_err("the turn is refused");
    assert_eq!(format!("{after:?}"), format!("{game:?}"), "a refused turn changes nothing");
    error
}

#[test]
fn ruling_g1_black_moves_first() {
    let mut game = game("board=5x5");
    assert_eq!(game.to_move(), Some(Color::Black));
    play(&mut game, "c3");
    assert_eq!(piece_at(&game, "c3"), Some(Piece::new(Color::Black, Role::Rook)));
    assert_eq!(game.to_move(), Some(Color::White));
}

#[test]
fn rule_1_drop_any_piece_of_the_set_on_an_empty_square() {
    let mut game = game("board=5x5 pieces=RN");
    play(&mut game, "N@c3 Rd4");
    assert_eq!(piece_at(&game, "c3"), Some(Piece::new(Color::Black, Role::Knight)));
    assert_eq!(piece_at(&game, "d4"), Some(Piece::new(Color::White, Role::Rook)));
    assert!(matches!(refuse(&game, drop(Role::Bishop, "a1")), GoError::NotInSet { role: Role::Bishop, .. }));
    assert!(matches!(refuse(&game, drop(Role::Rook, "c3")), GoError::Occupied { .. }));
    assert!(matches!(refuse(&game, drop(Role::Rook, "f1")), GoError::NoSuchSquare { .. }));
}

#[test]
fn rule_1_unlimited_supply_of_every_piece() {
    let mut game = game("board=6x6");
    for square in ["a1", "f6", "a6", "f1", "c3", "d4"] {
        play(&mut game, square);
    }
    assert_eq!(game.board().pieces().count(), 6);
    assert_eq!(game.hands(), None, "nothing runs out, so there is no hand to show");
}

#[test]
fn rule_1_drops_on_holes_are_refused() {
    let game = game("board=5x5:c3");
    assert_eq!(refuse(&game, drop(Role::Rook, "c3")), GoError::NoSuchSquare { square: sq("c3") });
    assert_eq!(game.view().cell(sq("c3")), Cell::Missing);
}

#[test]
fn rule_1_passing_is_a_turn() {
    let mut game = game("board=5x5");
    play(&mut game, "pass");
    assert_eq!(game.to_move(), Some(Color::White));
    assert!(game.legal_turns().contains(&Turn::Pass));
}

#[test]
fn rule_1_moving_on_moves_a_piece_to_an_empty_square_of_its_moves() {
    let mut game = game("board=5x5 pieces=N moving=on");
    play(&mut game, "a1 e5");
    assert!(game.legal_turns().contains(&Turn::movement(sq("a1"), sq("b3"))));
    play(&mut game, "a1-b3");
    assert_eq!(piece_at(&game, "a1"), None);
    assert_eq!(piece_at(&game, "b3"), Some(Piece::new(Color::Black, Role::Knight)));
    assert_eq!(game.view().last_turn, vec![sq("a1"), sq("b3")]);
    assert!(matches!(refuse(&game, Turn::movement(sq("e5"), sq("e4"))), GoError::Unreachable { .. }));
    assert!(matches!(refuse(&game, Turn::movement(sq("b3"), sq("c5"))), GoError::NoOwnPiece { .. }));
}

#[test]
fn rule_1_moving_never_captures_by_displacement() {
    let mut game = game("board=5x5 pieces=R moving=on");
    play(&mut game, "a1 a3");
    // a1-a3 would land on White's rook: the target must be empty.
    assert!(matches!(refuse(&game, Turn::movement(sq("a1"), sq("a3"))), GoError::Occupied { .. }));
}

#[test]
fn rule_1_moving_off_refuses_moves() {
    let mut game = game("board=5x5");
    play(&mut game, "a1 e5");
    assert_eq!(refuse(&game, Turn::movement(sq("a1"), sq("a2"))), GoError::MovingOff);
    assert!(game.legal_turns().iter().all(|t| !matches!(t, Turn::Move { .. })));
}

#[test]
fn rule_2_a_ray_reaches_the_first_occupied_square() {
    // White's rook on a1 sees a5 at the end of the empty a-file, so it defends it.
    let shape = Shape::rectangle(5, 5);
    let occupied = [sq("a5"), sq("c1")].into_iter().collect();
    let moves = catalogue::moves(Role::Rook, Color::White, sq("a1"), &shape, &occupied);
    assert!(moves.contains(sq("a5")) && moves.contains(sq("c1")) && !moves.contains(sq("d1")));
}

#[test]
fn rule_3_a_piece_with_an_empty_move_is_alive() {
    let mut game = game("board=3x3");
    // White's corner rook keeps one empty move (b1); it survives.
    play(&mut game, "a2 a1 pass");
    assert_eq!(piece_at(&game, "a1").map(|p| p.color), Some(Color::White));
}

#[test]
fn rule_3_defending_an_alive_friend_keeps_a_piece_alive() {
    let mut game = game("board=4x4");
    // White's chain a1-a2-a3 along the edge, Black's wall b1-b2-b3 beside it.
    play(&mut game, "b1 a1 b2 a2 b3 a3");
    // Only a3 has an empty move (a4); a2 defends a3 and a1 defends a2, so all three live.
    assert_eq!(game.board().squares_of(Color::White).len(), 3);
    // Black fills a4: the whole chain has no empty move and is captured at once.
    play(&mut game, "a4");
    assert_eq!(game.board().squares_of(Color::White).len(), 0);
    assert_eq!(game.prisoners(), [0, 3]);
}

#[test]
fn rule_3_mutual_defence_without_an_empty_move_is_dead() {
    // Two white knights that only defend each other, with no empty square to go to, are
    // not alive: dropping the second one is suicide for both.
    let mut game = game("board=3x4 pieces=N");
    // Black's knights b3 (to c1), a3 (to b1, c4) and b4 (to a2) keep empty moves.
    play(&mut game, "b3 a1 a3 pass b4");
    assert_eq!(piece_at(&game, "a1").map(|p| p.color), Some(Color::White), "a1 still reaches c2");
    // c2's moves: a1 (friend), a3 and b4 (enemies); a1's: b3 (enemy), c2 (friend).
    let error = refuse(&game, drop(Role::Knight, "c2"));
    assert_eq!(error, GoError::Suicide { squares: vec![sq("a1"), sq("c2")] });
}

#[test]
fn rule_4_a_drop_captures_several_pieces_at_once() {
    let mut game = game("board=5x5");
    // White's three rooks b1 c1 d1 along the edge; Black surrounds them.
    play(&mut game, "a1 b1 b2 c1 c2 d1 d2 pass");
    assert_eq!(game.board().squares_of(Color::White).len(), 3);
    play(&mut game, "e1");
    assert_eq!(game.board().squares_of(Color::White).len(), 0);
    assert_eq!(game.prisoners(), [0, 3], "Black keeps them as prisoners");
    let mut captured: Vec<_> = game.view().captured.iter().map(|&(square, _)| square).collect();
    captured.sort();
    assert_eq!(captured, vec![sq("b1"), sq("c1"), sq("d1")]);
}

#[test]
fn rule_4_two_separate_groups_fall_to_one_drop() {
    let mut game = game("board=5x5");
    // White a2 and c2 each have b2 as the last empty move once Black fills the rest.
    play(&mut game, "a3 a2 a1 c2 b1 pass c1 pass d2 pass c3 pass");
    assert_eq!(game.board().squares_of(Color::White).len(), 2);
    play(&mut game, "b2");
    assert!(game.board().squares_of(Color::White).is_empty());
    assert_eq!(game.prisoners()[Color::Black.index()], 2);
}

#[test]
fn rule_5_suicide_is_refused() {
    let mut game = game("board=3x3");
    play(&mut game, "a2 pass b1");
    // White a1 would have no empty move and no friend: suicide.
    let error = refuse(&game, drop(Role::Rook, "a1"));
    assert_eq!(error, GoError::Suicide { squares: vec![sq("a1")] });
    assert!(error.to_string().contains("suicide") && error.to_string().contains("a1"));
    assert!(!game.legal_turns().contains(&drop(Role::Rook, "a1")));
}

#[test]
fn rule_5_a_drop_without_liberties_that_captures_is_legal() {
    let mut game = game("board=3x3");
    // Black's a2 and b1 share a1 as their last empty move; White's b2, a3 and c1 wall them.
    play(&mut game, "a2 b2 b1 a3 pass c1");
    // White's a1 has no empty move itself, but it captures both, then reaches a2 and b1.
    play(&mut game, "pass a1");
    assert_eq!(piece_at(&game, "a1").map(|p| p.color), Some(Color::White));
    assert_eq!(game.board().squares_of(Color::Black).len(), 0);
    assert_eq!(game.prisoners(), [2, 0]);
}

#[test]
fn ruling_g4_a_capturing_drop_that_stays_dead_is_refused_in_a_mixed_set() {
    let mut game = game("board=4x4 pieces=RN");
    // White's rook a2 has a1 as its last empty move; a knight dropped on a1 takes it, but
    // the knight's own moves (b3, c2) are White pieces and it cannot reach a2.
    play(&mut game, "R@a3 R@a2 R@b2 R@b3 pass R@c2");
    let error = refuse(&game, drop(Role::Knight, "a1"));
    assert_eq!(error, GoError::Suicide { squares: vec![sq("a1")] });
    // With a rook instead, the same capture leaves it alive (it can move to a2): legal.
    play(&mut game, "R@a1");
    assert_eq!(piece_at(&game, "a2"), None);
}

#[test]
fn rule_6_ko_is_refused_then_lifted_by_moves_elsewhere() {
    let mut game = game("board=5x5");
    // Black: b4 a3 b2; White: c4 b3 d3 c2. White's b3 has c3 as its last empty move.
    play(&mut game, "b4 c4 a3 b3 b2 d3 pass c2");
    play(&mut game, "c3");
    assert_eq!(piece_at(&game, "b3"), None, "Black captured b3");
    // Retaking at once would recreate the board before Black's capture: ko.
    assert_eq!(refuse(&game, drop(Role::Rook, "b3")), GoError::Ko);
    assert!(!game.legal_turns().contains(&drop(Role::Rook, "b3")));
    // A move elsewhere by each side lifts it.
    play(&mut game, "e1 e5 b3");
    assert_eq!(piece_at(&game, "c3"), None, "White retook the ko");
}

#[test]
fn rule_6_ko_is_lifted_by_a_pass() {
    let mut game = game("board=5x5");
    play(&mut game, "b4 c4 a3 b3 b2 d3 pass c2 c3");
    play(&mut game, "pass e5 b3");
    assert_eq!(piece_at(&game, "c3"), None);
}

#[test]
fn rule_7_two_passes_in_a_row_end_the_game() {
    let mut game = game("board=5x5");
    play(&mut game, "pass c3 pass");
    assert!(game.to_move().is_some(), "passes not in a row do not end it");
    play(&mut game, "pass");
    let Status::Finished(ending) = game.status() else { panic!("finished") };
    assert_eq!(ending.reason, EndReason::TwoPasses);
    assert_eq!(ending.outcome, Outcome::Winner(Color::White));
    assert!(game.legal_turns().is_empty());
    assert_eq!(refuse(&game, Turn::Pass), GoError::GameOver);
}

#[test]
fn rule_8_territory_is_what_only_one_side_reaches_through_empty_squares() {
    let mut game = game("board=5x5");
    // A Black wall on the b-file and a White wall on the d-file; the c-file is neutral.
    play(&mut game, "b1 d1 b2 d2 b3 d3 b4 d4 b5 d5");
    let owner = game.owner().expect("go counts territory");
    let of = |name: &str| owner.iter().find(|(s, _)| *s == sq(name)).map(|(_, o)| *o).expect("empty square");
    assert_eq!(of("a3"), Some(Color::Black));
    assert_eq!(of("e3"), Some(Color::White));
    assert_eq!(of("c3"), None, "both reach the c-file");
    assert!(owner.iter().all(|(s, _)| game.board().get(*s).is_none()), "occupied squares are nobody's");
    assert_eq!(game.score().map(|s| (s.black, s.white)), Some((HalfPoints::whole(5), HalfPoints::whole(5))));
}

#[test]
fn rule_8_reach_goes_by_the_piece_s_own_moves() {
    // A lone knight on a 3x3 board never reaches the centre: b2 stays neutral.
    let mut game = game("board=3x3 pieces=N");
    play(&mut game, "a1");
    let owner = game.owner().expect("territory");
    let of = |name: &str| owner.iter().find(|(s, _)| *s == sq(name)).map(|(_, o)| *o).expect("empty");
    assert_eq!(of("b2"), None);
    assert_eq!(of("c3"), Some(Color::Black), "a1-b3-c1-a2-c3 by knight moves");
}

#[test]
fn rule_9_score_counts_territory_prisoners_and_komi() {
    let mut game = game("board=5x5 komi=6.5");
    play(&mut game, "a1 b1 b2 c1 c2 d1 d2 pass e1");
    // Black captured 3; Black's stones a1 b2 c2 d2 e1 face an empty board above.
    let score = game.score().expect("scored");
    let black_territory = game.owner().unwrap().iter().filter(|(_, o)| *o == Some(Color::Black)).count() as i32;
    assert_eq!(score.black, HalfPoints::whole(black_territory + 3));
    assert_eq!(score.white, HalfPoints(13), "no territory, no prisoners, komi 6.5");
    assert_eq!(score.white.to_string(), "6.5");
    play(&mut game, "pass pass");
    assert_eq!(game.status().ending().map(|e| e.outcome), Some(Outcome::Winner(Color::Black)));
}

#[test]
fn rule_9_equal_points_is_a_draw() {
    let mut game = game("board=5x5");
    play(&mut game, "b1 d1 b2 d2 b3 d3 b4 d4 b5 d5 pass pass");
    let ending = game.status().ending().expect("finished");
    assert_eq!(ending.outcome, Outcome::Draw);
    assert!(game.view().owner.is_some(), "the finished view shows who owns each square");
}

#[test]
fn ruling_g2_bishops_only_play_on_light_squares_by_default() {
    let game = game("board=8x8 pieces=B");
    assert_eq!(game.options().to_pairs()[2], ("squares".to_owned(), "light".to_owned()));
    assert_eq!(refuse(&game, drop(Role::Bishop, "a1")), GoError::NoSuchSquare { square: sq("a1") });
    assert!(game.is_legal(drop(Role::Bishop, "b1")));
    assert_eq!(game.board().shape().square_count(), 32);
    let explicit = self::game("board=8x8 pieces=B squares=all");
    assert!(explicit.is_legal(drop(Role::Bishop, "a1")));
    let dark = self::game("board=8x8 pieces=B squares=dark");
    assert!(dark.is_legal(drop(Role::Bishop, "a1")) && !dark.is_legal(drop(Role::Bishop, "b1")));
}

#[test]
fn ruling_g3_komi_defaults_to_zero_and_takes_halves() {
    assert_eq!(GoOptions::default().komi, HalfPoints(0));
    let pairs = |text: &str| stonemate_engine::options::parse_option_text(text).unwrap();
    assert_eq!(GoOptions::from_pairs(&pairs("komi=6.5")).unwrap().komi, HalfPoints(13));
    assert_eq!(GoOptions::from_pairs(&pairs("komi=-2")).unwrap().komi, HalfPoints(-4));
    for bad in ["komi=6.3", "komi=abc", "komi=1e9", "komi=NaN"] {
        let error = GoOptions::from_pairs(&pairs(bad)).unwrap_err();
        assert!(error.to_string().contains("`komi`"), "{bad}: {error}");
    }
}

#[test]
fn options_are_checked_naming_the_key() {
    let pairs = |text: &str| stonemate_engine::options::parse_option_text(text).unwrap();
    for (text, key) in [
        ("board=26x26", "board"),
        ("pieces=X", "pieces"),
        ("pieces=S", "pieces"),
        ("squares=grey", "squares"),
        ("moving=maybe", "moving"),
        ("colour=red", "colour"),
        ("board=9x9 board=5x5", "board"),
    ] {
        let error = GoOptions::from_pairs(&pairs(text)).unwrap_err();
        assert!(error.to_string().contains(&format!("`{key}`")), "{text}: {error}");
    }
    let options = GoOptions::from_pairs(&pairs("pieces=nr board=9x9:e5")).unwrap();
    assert_eq!(options.pieces, vec![Role::Rook, Role::Knight]);
    assert_eq!(GoOptions::from_pairs(&options.to_pairs()), Ok(options));
}

#[test]
fn notation_reads_drops_moves_and_passes() {
    let single = game("board=9x9");
    assert_eq!(single.parse_turn("d4"), Ok(drop(Role::Rook, "d4")));
    assert_eq!(single.parse_turn("R@d4"), Ok(drop(Role::Rook, "d4")));
    assert_eq!(single.parse_turn("Rd4"), Ok(drop(Role::Rook, "d4")));
    assert_eq!(single.parse_turn("PASS"), Ok(Turn::Pass));
    assert_eq!(single.parse_turn("d4-d7"), Ok(Turn::movement(sq("d4"), sq("d7"))));
    let mixed = game("board=9x9 pieces=RN");
    assert!(matches!(mixed.parse_turn("d4"), Err(GoError::Notation(_))), "several pieces: name one");
    assert_eq!(mixed.parse_turn("N@d4"), Ok(drop(Role::Knight, "d4")));
    for junk in ["", "R@", "zz", "d4-", "@d4", "R@d4x", &"d4".repeat(40)] {
        assert!(matches!(single.parse_turn(junk), Err(GoError::Notation(_))), "{junk:?}");
    }
    assert_eq!(single.format_turn(drop(Role::Rook, "d4")), "R@d4");
}

/// Each piece type is captured exactly when every square it can move to is taken by the
/// opponent: Black fills its nearest empty move again and again (the first square of each
/// ray, for riders); the last of those drops captures it, and not before.
fn check_capture_by_filling_moves(role: Role, board: &str, at: &str) {
    let mut game = game(&format!("board={board} pieces={}", role.letter()));
    play(&mut game, "pass");
    game.play(drop(role, at)).expect("White drops the piece");
    let mut filled = 0;
    loop {
        let shape = *game.board().shape();
        let moves = catalogue::moves(role, Color::White, sq(at), &shape, game.board().occupied());
        let distance =
            |s: stonemate_engine::Square| s.file().abs_diff(sq(at).file()).max(s.rank().abs_diff(sq(at).rank()));
        let Some(target) = moves.iter().filter(|&s| game.board().get(s).is_none()).min_by_key(|&s| distance(s)) else {
            break;
        };
        assert_eq!(piece_at(&game, at).map(|p| p.color), Some(Color::White), "{role} alive before {target}");
        if filled > 0 {
            play(&mut game, "pass");
        }
        game.play(Turn::Drop { role, to: target }).unwrap_or_else(|e| panic!("Black fills {target}: {e}"));
        filled += 1;
    }
    assert!(filled >= 2, "{role} on {at} had several moves");
    assert_eq!(piece_at(&game, at), None, "{role} on {at} captured once all its moves are taken");
    assert_eq!(game.prisoners(), [0, 1]);
}

#[test]
fn piece_rook_is_captured_when_its_rays_end_on_enemies() {
    check_capture_by_filling_moves(Role::Rook, "7x7", "d4");
}

#[test]
fn piece_bishop_on_light_squares_is_captured_diagonally() {
    check_capture_by_filling_moves(Role::Bishop, "7x7", "c4");
}

#[test]
fn piece_queen_is_captured_when_all_eight_rays_are_blocked() {
    check_capture_by_filling_moves(Role::Queen, "7x7", "d4");
}

#[test]
fn piece_king_is_captured_when_its_eight_neighbours_are_enemies() {
    check_capture_by_filling_moves(Role::King, "7x7", "d4");
}

#[test]
fn piece_knight_ignores_its_orthogonal_neighbours() {
    check_capture_by_filling_moves(Role::Knight, "7x7", "d4");
    let mut game = game("board=7x7 pieces=N");
    play(&mut game, "pass d4 c4 pass e4 pass d3 pass d5");
    assert!(piece_at(&game, "d4").is_some(), "surrounded orthogonally, a knight still lives");
}

#[test]
fn piece_pawn_lives_by_its_two_forward_diagonals() {
    check_capture_by_filling_moves(Role::Pawn, "7x7", "d4");
    // A white pawn on the last rank has no moves at all: dropping it there is suicide.
    let mut game = game("board=5x5 pieces=P");
    play(&mut game, "pass");
    assert!(matches!(refuse(&game, drop(Role::Pawn, "c5")), GoError::Suicide { .. }));
}

#[test]
fn piece_dabbaba_and_alfil_leap_two_squares() {
    check_capture_by_filling_moves(Role::Dabbaba, "9x9", "e5");
    check_capture_by_filling_moves(Role::Alfil, "9x9", "e5");
}

#[test]
fn piece_wazir_and_ferz_step_one_square() {
    check_capture_by_filling_moves(Role::Wazir, "7x7", "d4");
    check_capture_by_filling_moves(Role::Ferz, "7x7", "d4");
}

#[test]
fn piece_chinese_knight_dies_when_its_legs_are_blocked() {
    check_capture_by_filling_moves(Role::Horse, "7x7", "d4");
    // Blocking the four orthogonal first steps leaves it no moves at all.
    let mut game = game("board=7x7 pieces=H");
    play(&mut game, "pass d4 c4 pass e4 pass d3 pass");
    assert!(piece_at(&game, "d4").is_some());
    play(&mut game, "d5");
    assert_eq!(piece_at(&game, "d4"), None);
}

#[test]
fn piece_nightrider_rides_until_blocked() {
    check_capture_by_filling_moves(Role::Nightrider, "9x9", "e5");
}

#[test]
fn mixed_set_pieces_defend_each_other() {
    let mut game = game("board=4x4 pieces=RN");
    // White's rook a1 is closed in by Black's b1, but it can move to its knight on a2,
    // which is alive (it reaches b4, c3 and c1): so the rook lives too.
    play(&mut game, "pass N@a2 R@b1 R@a1");
    assert_eq!(piece_at(&game, "a1").map(|p| p.role), Some(Role::Rook));
    // Black takes the knight's three squares: the knight dies, and the rook with it.
    play(&mut game, "R@c1 pass R@c3 pass R@b4");
    assert_eq!((piece_at(&game, "a1"), piece_at(&game, "a2")), (None, None));
    assert_eq!(game.prisoners(), [0, 2]);
}

#[test]
fn holes_stop_rays_so_a_rook_beside_a_hole_can_be_captured() {
    let mut game = game("board=3x3:b2");
    // White a1's moves: b1 and a2 (b2 is a hole). Black takes both: captured.
    play(&mut game, "pass a1 b1 pass a2");
    assert_eq!(piece_at(&game, "a1"), None);
    assert_eq!(Shape::rectangle(3, 3).with_holes([sq("b2")]), *game.board().shape());
}

/// Walls on the b- and d-files of a 5x5 board, and a White rook on a3 left inside Black's
/// side; both players passed, so the game counts (Black is to move: he passed first).
fn counting_with_a_dead_rook_on_a3() -> Go {
    let mut game = game("board=5x5 counting=on");
    play(&mut game, "b1 d1 b2 d2 b3 d3 b4 d4 b5 d5 pass a3 pass pass");
    game
}

fn dead(text: &str) -> DeadPieces {
    text.parse().unwrap_or_else(|e| panic!("`{text}` reads: {e}"))
}

#[test]
fn rule_10_counting_is_an_option_off_by_default() {
    assert!(!options::<GoOptions>("board=5x5").counting, "a bare record is played without counting");
    assert!(options::<GoOptions>("board=5x5 counting=on").counting);
    assert!(!options::<GoOptions>("board=5x5 counting=off").counting);
    let keys =
        |text: &str| options::<GoOptions>(text).to_pairs().into_iter().map(|(key, value)| format!("{key}={value}"));
    assert!(keys("counting=on").any(|pair| pair == "counting=on"), "shown with the other options");
    assert!(!keys("counting=off").any(|pair| pair.starts_with("counting")), "off writes records as before");
    let err = GoOptions::from_pairs(&[("counting".to_owned(), "maybe".to_owned())]).unwrap_err();
    assert!(err.to_string().contains("`counting`"), "{err}");
}

#[test]
fn rule_10_two_passes_open_counting_instead_of_ending_the_game() {
    let game = counting_with_a_dead_rook_on_a3();
    assert!(game.is_counting());
    assert_eq!(game.status(), Status::Ongoing { to_move: Color::Black }, "the one who passed first is to move");
    assert!(game.legal_turns().contains(&drop(Role::Rook, "c3")), "play may resume");
    let mut without = self::game("board=5x5");
    play(&mut without, "b1 d1 b2 d2 b3 d3 b4 d4 b5 d5 pass a3 pass pass");
    assert!(!without.is_counting());
    assert!(matches!(without.status(), Status::Finished(Ending { reason: EndReason::TwoPasses, .. })));
}

#[test]
fn rule_10_a_resumed_game_that_passes_again_counts_again() {
    let mut game = counting_with_a_dead_rook_on_a3();
    play(&mut game, "a2");
    assert!(!game.is_counting(), "a turn resumes play");
    assert_eq!(game.to_move(), Some(Color::White));
    play(&mut game, "pass");
    assert!(!game.is_counting(), "one pass does not count");
    play(&mut game, "pass");
    assert!(game.is_counting(), "two passes in a row count again");
    play(&mut game, "pass");
    assert!(!game.is_counting(), "a pass resumes play too: it is the first of two");
    play(&mut game, "pass");
    assert!(game.is_counting());
}

#[test]
fn rule_10_agreed_dead_pieces_become_prisoners_then_the_board_is_scored() {
    let mut game = counting_with_a_dead_rook_on_a3();
    let before = game.score().expect("scored");
    assert_eq!((before.black, before.white), (HalfPoints::whole(0), HalfPoints::whole(5)), "a3 spoils the a-file");
    game.agree_dead(&dead("dead a3")).expect("a3 holds a piece");
    assert_eq!(game.board().get(sq("a3")), None, "the dead rook is removed");
    assert_eq!(game.prisoners(), [0, 1], "and counted as Black's prisoner");
    let score = game.score().expect("scored");
    assert_eq!((score.black, score.white), (HalfPoints::whole(6), HalfPoints::whole(5)), "5 squares + 1 prisoner");
    let ending = game.status().ending().expect("the agreement ends the game");
    assert_eq!((ending.outcome, ending.reason), (Outcome::Winner(Color::Black), EndReason::Counted));
    assert_eq!(game.view().captured, [(sq("a3"), Piece::new(Color::White, Role::Rook))], "the picture marks it");
    assert_eq!(game.agreed_dead(), Some(&dead("dead a3")));
    assert!(game.legal_turns().is_empty());
    assert_eq!(game.clone().agree_dead(&DeadPieces::NONE), Err(GoError::GameOver));
}

#[test]
fn rule_10_dead_none_scores_the_board_as_it_stands() {
    let mut game = counting_with_a_dead_rook_on_a3();
    let standing = game.score();
    assert_eq!(game.score_with_dead(&dead("dead -")).ok(), standing, "a preview changes nothing");
    game.agree_dead(&dead("dead -")).expect("none is an agreement");
    assert_eq!(game.score(), standing);
    assert_eq!(game.status().ending().map(|e| e.outcome), Some(Outcome::Winner(Color::White)));
}

#[test]
fn rule_10_only_pieces_on_the_board_and_only_when_counting() {
    let game = counting_with_a_dead_rook_on_a3();
    let refuse_dead = |game: &Go, text: &str| {
        let mut after = game.clone();
        let error = after.agree_dead(&dead(text)).expect_err("refused");
        assert_eq!(format!("{after:?}"), format!("{game:?}"), "a refused agreement changes nothing");
        error
    };
    assert_eq!(refuse_dead(&game, "dead a3 c3"), GoError::NoDeadPiece { square: sq("c3") });
    assert_eq!(refuse_dead(&game, "dead y25"), GoError::NoDeadPiece { square: sq("y25") });
    assert!(refuse_dead(&game, "dead c3").to_string().contains("rule 10"));
    let mut playing = self::game("board=5x5 counting=on");
    play(&mut playing, "c3 pass");
    assert_eq!(refuse_dead(&playing, "dead c3"), GoError::NotCounting, "one pass does not count");
    assert_eq!(refuse_dead(&self::game("board=5x5"), "dead -"), GoError::NotCounting);
}

#[test]
fn rule_10_notation_of_the_agreement_round_trips() {
    assert_eq!(dead("dead e4 c3 d4").to_string(), "dead c3 d4 e4", "board order");
    assert_eq!(dead("DEAD C3").to_string(), "dead c3");
    assert_eq!(dead("dead -"), DeadPieces::NONE);
    assert_eq!(dead("dead none"), DeadPieces::NONE);
    assert_eq!(DeadPieces::NONE.to_string(), "dead -");
    for set in [DeadPieces::NONE, dead("dead a1 y25 c3"), DeadPieces::new([sq("b2")])] {
        assert_eq!(dead(&set.to_string()), set);
    }
    for bad in ["dead", "dead c3 c3", "dead zz9", "dead - c3", "c3", ""] {
        assert!(bad.parse::<DeadPieces>().is_err(), "`{bad}` is refused");
    }
    assert!(DeadPieces::is_entry("dead c3") && DeadPieces::is_entry("Dead -") && !DeadPieces::is_entry("d4"));
}

/// Rule 10 with a mixed set: the agreed dead pieces (kings and rooks alike) go to their
/// opponent as prisoners, and their squares count for him. (Which pieces to propose is the
/// ai's estimate: `ai/tests/counting.rs` finds these two.)
#[test]
fn rule_10_agreed_dead_pieces_of_a_mixed_set_are_scored() {
    // Kings and rooks: Black walls off the a- to c-files with rooks on the c-file and has a
    // king on b3 and a rook on b5 inside; White's king on a1 and rook on a6 are lost there.
    let mut game = game("board=6x6 pieces=RK counting=on");
    play(&mut game, "R@c1 R@e1 R@c2 R@e2 R@c3 R@e3 R@c4 R@e4 R@c5 R@e5 R@c6 R@e6 K@b3 K@a1 R@b5 R@a6 pass pass");
    assert!(game.is_counting());
    game.agree_dead(&dead("dead a1 a6")).expect("both are pieces");
    let score = game.score().expect("scored");
    // Black: the a-file and b1 b2 b4 b6 (10) and two prisoners; White: the f-file.
    assert_eq!((score.black, score.white), (HalfPoints::whole(12), HalfPoints::whole(6)));
}
