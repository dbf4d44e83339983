//! Gess property tests over random playouts, and the example record.

use crate::common;

use common::{Checks, check_properties, random_game};
use proptest::prelude::*;
use stonemate_engine::gess::{Gess, GessOptions};
use stonemate_engine::notation::record_tokens;
use stonemate_engine::{AnyGame, Color, EndReason, Game, GameKind, Outcome, Status};

proptest! {
    // Random games last 80 to 250 moves and list about 300 moves a position, so each
    // position checks a sample.
    #![proptest_config(ProptestConfig { cases: 12, ..ProptestConfig::default() })]

    #[test]
    fn random_games_keep_the_shared_properties(seed in any::<u64>()) {
        let checks = Checks { max_turns: 250, legal_sample: 6, random_turns: 10 };
        check_properties(Gess::new(GessOptions::default()), seed, checks);
    }

    /// Ruling S1 along the way (the mover always keeps a ring), and rule 9 at the end.
    #[test]
    fn random_games_end_only_when_a_ring_is_gone(seed in any::<u64>()) {
        let (game, record) = random_game(Gess::new(GessOptions::default()), seed, 400);
        let mut replay = Gess::new(GessOptions::default());
        for text in &record {
            let mover = replay.to_move().expect("the game goes on");
            replay.play_text(text).expect("the record replays");
            prop_assert!(!replay.rings(mover).is_empty(), "{text} left the mover a ring");
        }
        if let Status::Finished(ending) = game.status() {
            let Outcome::Winner(winner) = ending.outcome else { panic!("Gess has no draws: {ending:?}") };
            prop_assert_eq!(ending.reason, EndReason::RingDestroyed);
            prop_assert!(game.rings(winner.other()).is_empty());
            prop_assert!(!game.rings(winner).is_empty());
        }
    }
}

#[test]
fn the_example_record_replays() {
    let record = record_tokens(include_str!("../../examples/gess.txt"));
    let replay = AnyGame::replay(GameKind::Gess, &[], &record).expect("Gess has no options to refuse");
    assert_eq!(replay.error, None);
    assert_eq!(replay.played, record);
    let AnyGame::Gess(game) = &replay.game else { panic!("a Gess game") };
    assert_eq!(game.status().ending().map(|e| (e.outcome, e.reason)), EXAMPLE_ENDING);
    assert!(game.rings(Color::White).is_empty());
}

const EXAMPLE_ENDING: Option<(Outcome, EndReason)> = Some((Outcome::Winner(Color::Black), EndReason::RingDestroyed));
