//! The search as the bot relies on it: its turns are legal in every game, it repeats itself
//! for a seed (with one thread or several), it finds what it can prove, and it says when
//! there is nothing to play.

use proptest::prelude::*;
use rand::SeedableRng;
use rand::seq::SliceRandom;
use rand_chacha::ChaCha8Rng;
use stonemate_ai::{Budget, Proof, SearchConfig, search};
use stonemate_engine::ichess::IChess;
use stonemate_engine::{AnyGame, Color, GameKind, Outcome, Status};

/// The games with options small enough for quick tests (go on 9x9, as the bot offers it).
fn new_game(kind: GameKind, variant: u8) -> AnyGame {
    let options: Vec<(String, String)> = match (kind, variant % 3) {
        (GameKind::Go, 0) => vec![("board".into(), "9x9".into())],
        (GameKind::Go, 1) => vec![("board".into(), "7x7".into()), ("pieces".into(), "NR".into())],
        (GameKind::Go, _) => vec![("board".into(), "6x6".into()), ("moving".into(), "on".into())],
        (GameKind::Chego, 1) => vec![("board".into(), "6x6".into())],
        _ => Vec::new(),
    };
    AnyGame::new(kind, &options).expect("valid options")
}

/// A position reached by `plies` uniformly random turns.
fn random_position(kind: GameKind, variant: u8, plies: usize, seed: u64) -> AnyGame {
    let mut game = new_game(kind, variant);
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    for _ in 0..plies {
        let turns = game.legal_turns();
        let Some(&turn) = turns.choose(&mut rng) else { break };
        game.play(turn).expect("a listed turn is legal");
    }
    game
}

fn config(nodes: u64, seed: u64, threads: usize) -> SearchConfig {
    SearchConfig { budget: Budget::nodes(nodes), seed, threads }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 40, ..ProptestConfig::default() })]

    #[test]
    fn the_bots_turn_is_always_legal(
        kind in 0usize..5, variant in 0u8..3, plies in 0usize..60, seed in any::<u64>(),
        nodes in 1u64..24, threads in 1usize..3,
    ) {
        let kind = GameKind::ALL[kind];
        let game = random_position(kind, variant, plies, seed);
        let result = search(&game, &config(nodes, seed, threads));
        match game.status() {
            Status::Finished(_) => prop_assert!(result.is_none()),
            Status::Ongoing { .. } => {
                let result = result.expect("an ongoing game has a turn to play");
                prop_assert!(game.legal_turns().contains(&result.turn), "{kind}: {} is not listed", result.turn);
                prop_assert!(game.clone().play(result.turn).is_ok());
                prop_assert!((0.0..=1.0).contains(&result.value));
            }
        }
    }
}

#[test]
fn the_same_seed_gives_the_same_turn_and_node_count_in_every_game() {
    for kind in GameKind::ALL {
        let game = random_position(kind, 0, 12, 7);
        for threads in [1, 2] {
            let first = search(&game, &config(120, 42, threads)).expect("ongoing");
            let again = search(&game, &config(120, 42, threads)).expect("ongoing");
            assert_eq!((first.turn, first.nodes), (again.turn, again.nodes), "{kind}, {threads} threads");
            assert_eq!(first.value.to_bits(), again.value.to_bits(), "{kind}, {threads} threads");
            let visits: Vec<u64> = first.root.iter().map(|r| r.visits).collect();
            let visits_again: Vec<u64> = again.root.iter().map(|r| r.visits).collect();
            assert_eq!(visits, visits_again, "{kind}, {threads} threads");
        }
    }
}

#[test]
fn the_node_budget_is_shared_between_threads_and_spent_exactly() {
    let game = random_position(GameKind::Chogo, 0, 6, 3);
    for threads in [1, 2, 3] {
        let result = search(&game, &config(90, 1, threads)).expect("ongoing");
        assert_eq!(result.nodes, 90, "{threads} threads");
        assert_eq!(result.root.iter().map(|r| r.visits).sum::<u64>(), 90, "{threads} threads");
    }
}

#[test]
fn different_seeds_explore_differently() {
    let game = random_position(GameKind::Go, 0, 4, 11);
    let visits =
        |seed| search(&game, &config(100, seed, 1)).expect("ongoing").root.iter().map(|r| r.visits).collect::<Vec<_>>();
    assert_ne!(visits(1), visits(2));
}

#[test]
fn a_finished_game_has_no_turn_to_suggest() {
    let mut game = new_game(GameKind::Go, 0);
    game.play_text("pass").unwrap();
    game.play_text("pass").unwrap();
    assert!(game.status().ending().is_some());
    assert!(search(&game, &config(50, 0, 1)).is_none());
}

#[test]
fn a_mate_in_one_is_found_and_proven() {
    // White: Kb6, Qg1; Black: Ka8. Qg8 or Qa7 mates.
    let ichess = IChess::from_fen("k7/8/1K6/8/8/8/8/6Q1[] w").expect("a legal set-up");
    let game = AnyGame::IChess(ichess);
    let result = search(&game, &config(2_000, 5, 1)).expect("ongoing");
    assert_eq!(result.proven, Some(Proof::Win), "{result:?}");
    assert_eq!(result.value, 1.0);
    let mut after = game.clone();
    after.play(result.turn).unwrap();
    assert_eq!(after.status().ending().map(|e| e.outcome), Some(Outcome::Winner(Color::White)));
    // A proven win stops the search early.
    assert!(result.nodes < 2_000, "{} nodes", result.nodes);
}

#[test]
fn a_mate_in_one_against_us_is_avoided() {
    // Black to move: Ka8 with a pawn on a7 against White's Kb6 and Qh2, whose Qh8 would mate
    // after most Black turns. A black rook in hand can guard the back rank by a drop.
    let ichess = IChess::from_fen("k7/p7/1K6/8/8/8/7Q/8[r] b").expect("a legal set-up");
    let game = AnyGame::IChess(ichess);
    let result = search(&game, &config(4_000, 9, 1)).expect("ongoing");
    let mut after = game.clone();
    after.play(result.turn).unwrap();
    let mate = after.parse_turn("Qh8").expect("readable");
    let mut mated = after.clone();
    let mates = mated.play(mate).is_ok() && mated.status().ending().is_some();
    assert!(!mates, "after {} White mates by Qh8", game.format_turn(result.turn));
}

#[test]
fn a_time_limit_stops_a_search_without_a_node_budget() {
    let game = new_game(GameKind::Go, 0);
    let budget = Budget { nodes: None, time: Some(std::time::Duration::from_millis(30)) };
    let result = search(&game, &SearchConfig { budget, seed: 0, threads: 1 }).expect("ongoing");
    assert!(result.nodes > 0);
    assert!(result.nodes < 400_000);
}

#[test]
fn a_forced_turn_is_played_after_a_short_look() {
    // Black's Ka8 can only go to a7: the rook on the b-file covers b7 and b8.
    let ichess = IChess::from_fen("k7/8/2K5/8/8/8/8/1R6[] b").expect("a legal set-up");
    let game = AnyGame::IChess(ichess);
    assert_eq!(game.legal_turns().len(), 1);
    let result = search(&game, &config(10_000, 0, 2)).expect("ongoing");
    assert_eq!(result.turn, game.legal_turns()[0]);
    assert!(result.nodes <= 64, "{} nodes", result.nodes);
}
