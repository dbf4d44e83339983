//! Property tests of Go with chess pieces over random playouts.

use crate::common;

use common::{Checks, check_properties, options};
use proptest::prelude::*;
use stonemate_engine::Game;
use stonemate_engine::go::Go;

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
}
