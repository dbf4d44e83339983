//! Property tests of Go with chess pieces over random playouts.

use crate::common;

use common::{Checks, check_properties, options};
use proptest::prelude::*;
use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use stonemate_engine::go::{DeadPieces, Go};
use stonemate_engine::{Game, Turn};

/// A seeded random game played to its end by two passes (without counting): random legal
/// turns, a pass now and then, and two passes after `max_turns`. Returns the ended game and
/// its turns.
fn game_to_two_passes(option_text: &str, seed: u64, max_turns: usize) -> (Go, Vec<Turn>) {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut game = Go::new(options(option_text));
    let mut turns = Vec::new();
    while game.to_move().is_some() {
        let legal = game.legal_turns();
        let turn = if turns.len() >= max_turns || rng.gen_bool(0.08) {
            Turn::Pass
        } else {
            *legal.choose(&mut rng).expect("pass is always legal")
        };
        game.play(turn).expect("a legal turn");
        turns.push(turn);
    }
    (game, turns)
}

/// Rule 10: with counting on, the same turns open counting where the old game ended, and
/// agreeing that nothing is dead ends it with the old score and outcome.
fn check_dead_none_scores_as_the_old_end(option_text: &str, seed: u64) {
    let (old, turns) = game_to_two_passes(option_text, seed, 60);
    let mut counted = Go::new(options(&format!("{option_text} counting=on")));
    for &turn in &turns {
        counted.play(turn).expect("the same turns are legal");
    }
    assert!(counted.is_counting(), "the two passes open counting");
    counted.agree_dead(&DeadPieces::NONE).expect("none is an agreement");
    assert_eq!(counted.score(), old.score());
    assert_eq!(counted.status().ending().map(|e| e.outcome), old.status().ending().map(|e| e.outcome));
    assert_eq!(counted.board(), old.board());
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 12, ..ProptestConfig::default() })]

    #[test]
    fn rooks_on_small_boards(seed in any::<u64>()) {
        check_properties(Go::new(options("board=5x5")), seed, Checks { max_turns: 80, ..Checks::default() });
    }

    #[test]
    fn mixed_set_with_holes_and_moving(seed in any::<u64>()) {
        let start = Go::new(options("board=6x5:c3,d4 pieces=RNBPHG moving=on komi=2.5"));
        check_properties(start, seed, Checks::default());
    }

    #[test]
    fn bishops_on_light_squares(seed in any::<u64>()) {
        check_properties(Go::new(options("board=7x7 pieces=B")), seed, Checks::default());
    }

    #[test]
    fn rooks_with_counting_resumed_after_two_passes(seed in any::<u64>()) {
        check_properties(Go::new(options("board=4x4 counting=on")), seed, Checks { max_turns: 80, ..Checks::default() });
    }

    #[test]
    fn rule_10_dead_none_after_two_passes_scores_as_the_old_end(seed in any::<u64>()) {
        check_dead_none_scores_as_the_old_end("board=5x5 komi=0.5", seed);
        check_dead_none_scores_as_the_old_end("board=6x5:c3 pieces=RNK moving=on komi=2", seed);
    }
}
