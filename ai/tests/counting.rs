//! The estimate of the dead pieces when go's counting opens (rule 10). On the playout
//! board (the service's): positions GNU Go 3.8 (level 1, komi 6.5) passed out against
//! itself with stones it counts dead still on the board, each a game the estimate once got
//! wrong (`ai/examples/dead_vs_gnugo.rs` finds them); GNU Go's `final_status_list dead`
//! is the expected answer. By the rules (any set; these were the engine's tests when the
//! estimate lived there): small boards with walls, a seki, a mixed set, and the reading of
//! another judge's ownership.

use stonemate_ai::counting::{Playouts, dead_from_ownership, estimate_dead, estimate_dead_with, judge_dead};
use stonemate_engine::go::DeadPieces;
use stonemate_engine::{AnyGame, Color, Game, GameKind, HalfPoints, Square};

/// The position after `turns` (ending with two passes) on a `size` board, counting on.
fn passed_out(size: u8, turns: &str) -> AnyGame {
    let options = [("board", format!("{size}x{size}")), ("komi", "6.5".to_owned()), ("counting", "on".to_owned())]
        .map(|(key, value)| (key.to_owned(), value));
    let mut game = AnyGame::new(GameKind::Go, &options).expect("options");
    for turn in turns.split_whitespace() {
        game.play_text(turn).unwrap_or_else(|e| panic!("{turn}: {e}"));
    }
    assert!(game.is_counting(), "both passed");
    game
}

fn dead(text: &str) -> DeadPieces {
    text.parse().expect("an agreement")
}

/// The estimate, which must also be the same when asked again, and the bot's judgement.
fn judged(game: &AnyGame) -> DeadPieces {
    let estimate = estimate_dead(game).expect("counting");
    assert_eq!(estimate_dead(game), Some(estimate.clone()), "deterministic");
    assert_eq!(judge_dead(game, 3), Some(estimate.clone()), "the bot judges as the estimate proposes");
    estimate
}

/// GNU Go seed 36: White's lone a2, dropped into Black's lower left corner late in the
/// game, with its last empty square at a1 shared with Black's wall.
#[test]
fn a_lone_stone_on_the_edge_of_the_corner_is_dead() {
    let game = passed_out(
        9,
        "g6 d7 c3 g3 d5 c6 c5 f6 h7 f5 f8 e3 d6 b6 b5 c8 f7 a5 a4 a6 b3 d2 h4 h3 g5 e4 i3 i2 i4 g4 i6 h2 \
         c2 e8 e9 d9 f9 e7 e6 d1 e5 f4 d4 a2 a3 c1 b1 d3 pass pass",
    );
    assert_eq!(judged(&game), dead("dead a2"));
}

/// GNU Go seed 40: White's b6 alone inside Black's left side.
#[test]
fn a_lone_stone_inside_a_side_is_dead() {
    let game = passed_out(
        9,
        "f6 e5 d4 d5 g3 c5 c7 b6 c4 g7 b4 e6 e8 f7 b7 g6 h4 f8 b5 e4 e3 d8 c6 h5 g5 f5 g4 i6 c8 e7 i4 c9 \
         b9 d9 i5 h6 d7 e9 f4 d6 pass pass",
    );
    assert_eq!(judged(&game), dead("dead b6"));
}

/// GNU Go seed 42: White's g6, cut off on the right side after a capture race there.
#[test]
fn a_lone_stone_left_after_a_capture_race_is_dead() {
    let game = passed_out(
        9,
        "f6 c5 c7 f4 d4 c4 g5 c3 h3 e3 b6 b5 e5 d3 d6 g2 h2 h1 g3 f2 a6 g4 h4 a5 c6 i2 f3 e4 d5 f5 h5 g1 \
         i3 d2 i1 g6 g7 i2 pass i1 pass pass",
    );
    assert_eq!(judged(&game), dead("dead g6"));
}

/// GNU Go seed 25: Black's c2 in White's lower side and White's lone b8 in Black's upper
/// left, each of a different colour.
#[test]
fn lone_stones_of_both_colours_are_dead() {
    let game = passed_out(
        9,
        "f6 c7 c5 b6 b3 g4 e3 e4 d3 f3 h6 h5 d6 g6 g7 g5 h7 e8 f7 f2 f8 d7 e2 b4 c4 b5 a4 e1 d1 f1 e7 d9 \
         a5 a6 a3 c6 e5 c2 d2 d4 c3 i6 i7 i5 f5 f4 d5 f9 b8 c8 g9 pass e9 b9 d8 a8 e8 c9 pass pass",
    );
    assert_eq!(judged(&game), dead("dead c2 b8"));
}

/// GNU Go seed 33: besides Black's c4, White's lone i4 on the right edge, which the
/// estimate by the rules also kept.
#[test]
fn a_lone_stone_on_the_edge_beside_a_dead_stone_elsewhere_is_dead() {
    let game = passed_out(
        9,
        "e5 c4 d3 c7 c5 f7 c3 g3 g5 e2 b5 g6 h5 h6 d2 h4 f2 i5 a8 g2 e3 e6 f5 f1 e1 g1 d6 d7 f6 e7 f3 g4 \
         c6 b7 a7 b8 a6 f4 e4 b6 b9 c9 a5 a9 i4 i6 b9 d1 c1 a9 pass b9 pass pass",
    );
    assert_eq!(judged(&game), dead("dead c4 i4"));
}

/// GNU Go seed 45: White's g8 in Black's upper right, after a ko fight in the lower left.
#[test]
fn a_lone_stone_after_a_ko_fight_is_dead() {
    let game = passed_out(
        9,
        "g5 c4 e6 c7 e4 d3 e3 e8 e2 g7 b1 h6 h5 i5 i4 i6 h3 c2 c1 b2 d1 d5 g6 h7 f7 f8 a2 a3 e7 e5 f5 d7 \
         d4 d6 f6 a1 d2 c3 a2 h4 g4 a1 g8 h8 a2 i3 i2 a1 pass a2 pass pass",
    );
    assert_eq!(judged(&game), dead("dead g8"));
}

/// The engine's seki (`engine/tests/go_rules.rs`): White's a1-c3 and Black's stones share
/// their last two empty squares; GNU Go calls nothing dead, and neither does the estimate.
#[test]
fn a_seki_on_a_small_board_lives() {
    let options = [("board", "4x4"), ("komi", "0.5"), ("counting", "on")].map(|(k, v)| (k.to_owned(), v.to_owned()));
    let mut game = AnyGame::new(GameKind::Go, &options).expect("options");
    for turn in "R@a1 R@c1 R@b2 R@c3 R@b3 R@c2 R@c4 R@b1 R@d3 R@b4 R@a4 R@a2 R@d2 R@a1 pass pass".split_whitespace() {
        game.play_text(turn).expect(turn);
    }
    assert_eq!(judged(&game), DeadPieces::NONE);
}

/// A set the playout board does not play (rooks with knights) is estimated by the rules.
#[test]
fn a_mixed_set_gets_the_estimate_by_the_rules() {
    let options = [("board", "5x5"), ("pieces", "RN"), ("counting", "on")].map(|(k, v)| (k.to_owned(), v.to_owned()));
    let mut game = AnyGame::new(GameKind::Go, &options).expect("options");
    for turn in "R@c1 R@d1 R@c2 R@d2 R@c3 R@d3 R@c4 R@d4 R@c5 R@d5 pass pass".split_whitespace() {
        game.play_text(turn).expect(turn);
    }
    assert_eq!(estimate_dead(&game), estimate_dead_with(&game, Playouts::Rules));
}

/// A go game with these options (`key=value` words) after `turns`.
fn go_after(option_text: &str, turns: &str) -> AnyGame {
    let options: Vec<(String, String)> = option_text
        .split_whitespace()
        .map(|pair| pair.split_once('=').expect("key=value"))
        .map(|(key, value)| (key.to_owned(), value.to_owned()))
        .collect();
    let mut game = AnyGame::new(GameKind::Go, &options).expect("options");
    for turn in turns.split_whitespace() {
        game.play_text(turn).unwrap_or_else(|e| panic!("`{turn}` should be legal: {e}"));
    }
    game
}

/// The estimate by the rules' random games.
fn by_the_rules(game: &AnyGame) -> DeadPieces {
    estimate_dead_with(game, Playouts::Rules).expect("counting")
}

/// White's rook on a3, alone on Black's side of two walls (b- and d-files), then two passes.
fn counting_with_a_dead_rook_on_a3() -> AnyGame {
    go_after("board=5x5 counting=on", "b1 d1 b2 d2 b3 d3 b4 d4 b5 d5 pass a3 pass pass")
}

#[test]
fn rule_10_the_estimate_proposes_the_rook_inside_black_s_side() {
    let game = counting_with_a_dead_rook_on_a3();
    let estimate = by_the_rules(&game);
    assert_eq!(estimate, dead("dead a3"));
    assert_eq!(by_the_rules(&game), estimate, "deterministic");
    let alive = go_after("board=5x5 counting=on", "b1 d1 b2 d2 b3 d3 b4 d4 b5 d5 pass pass");
    assert_eq!(by_the_rules(&alive), DeadPieces::NONE, "two walls with their own sides live");
}

/// Found against GNU Go on small boards (a 4x4 game it passed out, seed 55): a seki. White's
/// a1-c3 group and Black's stones share their last two empty squares, a3 and d1, and whoever
/// drops on one puts his own group in atari; GNU Go calls nothing dead. The random games
/// took Black's a4 and c4, which see each other across the empty b4, for one group with two
/// empty moves, filled a3 and lost everything: the estimate called all six Black stones
/// dead. The group of an atari is now what defends across no empty square.
#[test]
fn rule_10_the_estimate_leaves_a_seki_on_a_small_board_alive() {
    let game = go_after(
        "board=4x4 komi=0.5 counting=on",
        "R@a1 R@c1 R@b2 R@c3 R@b3 R@c2 R@c4 R@b1 R@d3 R@b4 R@a4 R@a2 R@d2 R@a1 pass pass",
    );
    assert!(game.is_counting());
    assert_eq!(by_the_rules(&game), DeadPieces::NONE);
    // And a 6x6 game (seed 16) whose White invader at d5 GNU Go calls dead is still judged so.
    let game = go_after(
        "board=6x6 komi=0.5 counting=on",
        "R@e6 R@d3 R@e4 R@e3 R@f5 R@d5 R@d4 R@c3 R@c5 R@f3 R@b4 R@b3 R@a3 R@a2 R@a4 R@c4 R@b6 R@b2 R@f4 pass pass",
    );
    assert_eq!(by_the_rules(&game), dead("dead d5"));
}

#[test]
fn rule_10_the_estimate_takes_dead_pieces_of_a_mixed_set() {
    // Kings and rooks: Black walls off the a- to c-files with rooks on the c-file and has a
    // king on b3 and a rook on b5 inside; White's king on a1 and rook on a6 are lost there.
    let mut game = go_after(
        "board=6x6 pieces=RK counting=on",
        "R@c1 R@e1 R@c2 R@e2 R@c3 R@e3 R@c4 R@e4 R@c5 R@e5 R@c6 R@e6 K@b3 K@a1 R@b5 R@a6 pass pass",
    );
    assert!(game.is_counting());
    let estimate = by_the_rules(&game);
    assert_eq!(estimate, dead("dead a1 a6"));
    assert_eq!(estimate_dead(&game), Some(estimate.clone()), "the set needs the rules' games");
    let AnyGame::Go(go) = &mut game else { unreachable!("go") };
    go.agree_dead(&estimate).expect("both are pieces");
    let score = go.score().expect("scored");
    // Black: the a-file and b1 b2 b4 b6 (10) and two prisoners; White: the f-file.
    assert_eq!((score.black, score.white), (HalfPoints::whole(12), HalfPoints::whole(6)));
}

#[test]
fn rule_10_the_estimate_can_be_fed_another_judge_s_ownership() {
    let game = counting_with_a_dead_rook_on_a3();
    let AnyGame::Go(go) = &game else { unreachable!("go") };
    // A judge that gives Black the whole board: every White piece is dead, no Black one.
    let white: Vec<Square> = go.board().squares_of(Color::White).iter().collect();
    assert_eq!(dead_from_ownership(go, |_| 1.0), DeadPieces::new(white));
    assert_eq!(dead_from_ownership(go, |_| 0.0), DeadPieces::NONE, "an undecided judge kills nothing");
}
