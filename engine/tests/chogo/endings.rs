//! Capture (rule 9) and the end of the game (rules 10-11, rulings H2-H4).

use stonemate_engine::chogo::{Chogo, ChogoError, ChogoOptions};
use stonemate_engine::{Color, EndReason, Game, Outcome};

use super::{captured_squares, finished, play, play_all, position, refused, rows, sq, squares};

#[test]
fn rule9_captures_hit_both_sides_at_the_same_time() {
    // After d2e2-d4, White's d5 and Green's e5 are both enclosed; removing one first
    // would have freed the other.
    let mut game =
        position(["--....--", "-..sS.k-", "..sSsS..", "........", "........", "-..SS..-", "--...K--"], Color::White);
    play(&mut game, "d2e2-d4");
    let captured = captured_squares(&game);
    assert_eq!(captured, squares(&["d5", "e5"]));
    assert_eq!(rows(&game)[2..4], ["..s..S..", "...SS..."]);
    assert_eq!(game.quiet_turns(), 0);
}

#[test]
fn rule9_suicide_a_move_may_capture_the_movers_own_piece() {
    let mut game =
        position(["--....--", "-..s..k-", "..sSs...", ".......S", "........", "-......-", "--...K--"], Color::White);
    play(&mut game, "h4-d4");
    assert_eq!(captured_squares(&game), squares(&["d5"]));
    assert_eq!(rows(&game)[2], "..s.s...");
}

#[test]
fn rule9_a_mole_drop_may_be_suicide() {
    let mut game =
        position(["--....--", "-.....k-", "s.......", ".s......", "s.......", "-......-", "--..SK--"], Color::White);
    play(&mut game, "e1@a4");
    assert_eq!(captured_squares(&game), squares(&["a4"]), "the edge and three Green pieces enclose a4");
}

/// Green's b6 between the missing a6 and b7, with c6 of `c6` and White sliding into b5.
fn corner_b6(c6: char) -> Chogo {
    let row6 = format!("-s{c6}...k-");
    position(["--....--", &row6, "........", "........", "........", "-S.....-", "--..K.--"], Color::White)
}

#[test]
fn rule9_missing_cells_and_the_edge_count_as_non_empty() {
    let mut game = corner_b6('S');
    play(&mut game, "b2-b5");
    assert_eq!(captured_squares(&game), squares(&["b6"]));
}

#[test]
fn rule9_one_enemy_neighbour_does_not_capture() {
    let mut game = corner_b6('s');
    play(&mut game, "b2-b5");
    assert!(game.view().captured.is_empty(), "b6 has no empty neighbour but only one enemy");
    assert_eq!(rows(&game)[1], "-ss...k-");
}

/// Green's king on d5 enclosed on three sides by White, h4-d4 to close it, and a Green
/// soldier on g6 and White's king on a3 to pass the time.
fn enclosed_green_king(to_move: Color) -> Chogo {
    position(["--....--", "-..S..s-", "..SkS...", ".......S", "K.......", "-......-", "--....--"], to_move)
}

#[test]
fn rule10_capturing_the_enemy_king_wins() {
    let mut game = enclosed_green_king(Color::White);
    play(&mut game, "h4-d4");
    assert_eq!(finished(&game), (Outcome::Winner(Color::White), EndReason::KingCaptured));
    assert_eq!(captured_squares(&game), squares(&["d5"]));
    assert!(game.legal_turns().is_empty());
    assert_eq!(refused(&game, "d4-d3"), ChogoError::GameOver);
}

#[test]
fn rule10_a_player_who_captures_his_own_king_loses() {
    let mut game =
        position(["--....--", "-..s..k-", "..sKs...", ".......S", "........", "-......-", "--....--"], Color::White);
    play(&mut game, "h4-d4");
    assert_eq!(finished(&game), (Outcome::Winner(Color::Black), EndReason::KingCaptured));
}

/// White's king on d5 and Green's on e5, each enclosed but for d4 and e4; the side to move
/// closes both with the tandem d2e2-d4. `swap` gives the pieces to the other side.
fn two_kings(swap: bool) -> Chogo {
    let rows = ["--....--", "-..sS..-", "..sKkS..", "........", "........", "-..SS..-", "--....--"];
    let swap_case = |c: char| if c.is_ascii_uppercase() { c.to_ascii_lowercase() } else { c.to_ascii_uppercase() };
    let rows: Vec<String> =
        rows.iter().map(|row| if swap { row.chars().map(swap_case).collect() } else { (*row).to_owned() }).collect();
    let rows: Vec<&str> = rows.iter().map(String::as_str).collect();
    let to_move = if swap { Color::Black } else { Color::White };
    Chogo::from_setup(&rows, to_move).unwrap_or_else(|e| panic!("{e}"))
}

#[test]
fn ruling_h2_capturing_both_kings_at_once_wins_for_the_mover() {
    for swap in [false, true] {
        let mut game = two_kings(swap);
        let mover = game.to_move().unwrap();
        play(&mut game, "d2e2-d4");
        let captured = captured_squares(&game);
        assert_eq!(captured, squares(&["d5", "e5"]));
        assert_eq!(finished(&game), (Outcome::Winner(mover), EndReason::BothKingsCaptured));
    }
}

#[test]
fn rule11_a_player_without_a_legal_turn_loses() {
    let mut game =
        position(["--....--", "-......-", "........", "...kS...", "K.......", "-......-", "--S...--"], Color::White);
    play(&mut game, "c1-c4");
    assert!(game.is_trapped(sq("d4")), "Green's only piece is trapped");
    assert_eq!(finished(&game), (Outcome::Winner(Color::White), EndReason::NoLegalTurn));
}

/// Steps the side to move's king (or piece) between two cells.
fn shuffle(game: &mut Chogo, white: (&str, &str), green: (&str, &str)) {
    let (a, b) = if game.to_move() == Some(Color::White) { white } else { green };
    let text = if game.board().get(sq(a)).is_some() { format!("{a}-{b}") } else { format!("{b}-{a}") };
    play(game, &text);
}

#[test]
fn ruling_h3_fifty_turns_without_a_capture_draw_counting_the_king_drops() {
    let mut game = Chogo::new(ChogoOptions::default());
    play_all(&mut game, &["K@c4", "K@f5"]);
    for _ in 2..49 {
        shuffle(&mut game, ("c4", "c3"), ("f5", "f4"));
    }
    assert_eq!((game.quiet_turns(), game.to_move()), (49, Some(Color::Black)));
    shuffle(&mut game, ("c4", "c3"), ("f5", "f4"));
    assert_eq!(finished(&game), (Outcome::Draw, EndReason::NoCaptureFor50Turns));
}

#[test]
fn ruling_h3_the_draw_counter_resets_on_capture() {
    let mut game =
        position(["--....--", "-..k...-", ".......S", ".......s", "..K....S", "-.....S-", "--....--"], Color::White);
    let kings = |game: &mut Chogo| shuffle(game, ("c3", "c4"), ("d6", "d5"));
    for _ in 0..30 {
        kings(&mut game);
    }
    assert_eq!(game.quiet_turns(), 30);
    play(&mut game, "g2-g4");
    assert_eq!((captured_squares(&game), game.quiet_turns()), (squares(&["h4"]), 0));
    for _ in 0..49 {
        kings(&mut game);
    }
    assert_eq!((game.quiet_turns(), game.to_move().is_some()), (49, true), "80 turns, but only 49 since the capture");
    kings(&mut game);
    assert_eq!(finished(&game), (Outcome::Draw, EndReason::NoCaptureFor50Turns));
}

#[test]
fn ruling_h4_a_captured_king_is_decided_before_the_fifty_turn_draw() {
    let mut game = enclosed_green_king(Color::Black);
    for _ in 0..49 {
        shuffle(&mut game, ("a3", "a4"), ("g6", "g5"));
    }
    assert_eq!(game.quiet_turns(), 49);
    play(&mut game, "h4-d4");
    assert_eq!(finished(&game), (Outcome::Winner(Color::White), EndReason::KingCaptured));
}

#[test]
fn ruling_h4_the_fifty_turn_draw_is_decided_before_no_legal_turn() {
    let mut game =
        position(["--....--", "-......-", "...k....", "....S...", "K.......", "-......-", "--S...--"], Color::Black);
    for _ in 0..49 {
        shuffle(&mut game, ("a3", "a4"), ("d5", "d4"));
    }
    assert_eq!(game.board().get(sq("d4")).map(|piece| piece.char()), Some('k'));
    play(&mut game, "c1-c4");
    assert!(game.legal_turns().is_empty());
    assert_eq!(finished(&game), (Outcome::Draw, EndReason::NoCaptureFor50Turns));
}
