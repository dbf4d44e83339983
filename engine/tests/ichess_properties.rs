//! Property tests of iChess over random playouts (see `common::check_properties`): every
//! listed turn plays and round-trips through its notation, unlisted and unreadable turns
//! change nothing, and the printed record replays to the same position.

use crate::common;

use common::{Checks, check_properties, random_game};
use proptest::prelude::*;
use stonemate_engine::Game;
use stonemate_engine::ichess::{IChess, IChessOptions};

proptest! {
    #![proptest_config(ProptestConfig { cases: 12, ..ProptestConfig::default() })]

    #[test]
    fn deployment_and_play(seed in any::<u64>()) {
        check_properties(IChess::new(IChessOptions::default()), seed, Checks { max_turns: 90, legal_sample: 30, random_turns: 20 });
    }

    #[test]
    fn long_games_keep_hands_and_board_consistent(seed in any::<u64>()) {
        let (game, record) = random_game(IChess::new(IChessOptions::default()), seed, 300);
        let pieces: usize = game.view().cells.iter().filter(|c| matches!(c, stonemate_engine::Cell::Piece(_))).count();
        let [white, black] = game.hands().expect("hands");
        prop_assert_eq!(pieces + white.len() + black.len(), 32, "no piece appears or vanishes");
        prop_assert!(record.len() <= 300);
    }
}
