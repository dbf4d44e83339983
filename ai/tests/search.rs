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

/// The options the bot's tests use by default: go on 9x9, as the bot offers it.
fn default_options(kind: GameKind) -> Vec<(String, String)> {
    if kind == GameKind::Go { vec![("board".into(), "9x9".into())] } else { Vec::new() }
}

fn new_game(kind: GameKind) -> AnyGame {
    AnyGame::new(kind, &default_options(kind)).expect("valid options")
}

/// A position reached by `plies` uniformly random turns.
fn random_position(kind: GameKind, plies: usize, seed: u64) -> AnyGame {
    random_position_with(kind, &default_options(kind), plies, seed).expect("valid options")
}

fn config(nodes: u64, seed: u64, threads: usize) -> SearchConfig {
    SearchConfig { budget: Budget::nodes(nodes), seed, threads }
}

/// A random option set for `kind`: each key present or not, with a value from a list of
/// readable ones (only go and Chego have options).
fn option_set(kind: GameKind) -> BoxedStrategy<Vec<(String, String)>> {
    let keys: &[(&str, &[&str])] = match kind {
        GameKind::Go => &[
            ("board", &["5x5", "6x6", "7x7", "9x9", "8x6"]),
            ("pieces", &["R", "NR", "BQK", "FADW"]),
            ("squares", &["all", "light", "dark"]),
            ("moving", &["on", "off"]),
            ("komi", &["0", "6.5", "7"]),
        ],
        GameKind::Chego => {
            &[("board", &["5x5", "6x6", "8x8", "7x5"]), ("set", &["K1 Q1 R2 B2 N2 P8", "K1 R1 N2 P4", "unlimited RN"])]
        }
        GameKind::Gess | GameKind::IChess | GameKind::Chogo => &[],
    };
    let picks: Vec<_> = keys
        .iter()
        .map(|&(key, values)| {
            proptest::option::of(proptest::sample::select(values))
                .prop_map(move |v| v.map(|v| (key.to_owned(), v.to_owned())))
        })
        .collect();
    picks.prop_map(|picked| picked.into_iter().flatten().collect()).boxed()
}

/// A position reached by `plies` uniformly random turns from a game with `options`;
/// `None` when the options do not make a game.
fn random_position_with(kind: GameKind, options: &[(String, String)], plies: usize, seed: u64) -> Option<AnyGame> {
    let mut game = AnyGame::new(kind, options).ok()?;
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    for _ in 0..plies {
        let turns = game.legal_turns();
        let Some(&turn) = turns.choose(&mut rng) else { break };
        game.play(turn).expect("a listed turn is legal");
    }
    Some(game)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    #[test]
    fn the_bots_turn_is_always_legal(
        (kind, options) in (0usize..5).prop_flat_map(|k| (Just(GameKind::ALL[k]), option_set(GameKind::ALL[k]))),
        plies in 0usize..60, seed in any::<u64>(), nodes in 1u64..24, threads in 1usize..3,
    ) {
        let game = random_position_with(kind, &options, plies, seed);
        prop_assume!(game.is_some(), "the options are refused");
        let game = game.expect("checked");
        let result = search(&game, &config(nodes, seed, threads));
        match game.status() {
            Status::Finished(_) => prop_assert!(result.is_none()),
            Status::Ongoing { .. } => {
                let result = result.expect("an ongoing game has a turn to play");
                prop_assert!(game.legal_turns().contains(&result.turn), "{kind} {options:?}: {} is not listed", result.turn);
                prop_assert!(game.clone().play(result.turn).is_ok());
                prop_assert!((0.0..=1.0).contains(&result.value));
            }
        }
    }
}

#[test]
fn the_same_seed_gives_the_same_turn_and_node_count_in_every_game() {
    for kind in GameKind::ALL {
        let game = random_position(kind, 12, 7);
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
    let game = random_position(GameKind::Chogo, 6, 3);
    for threads in [1, 2, 3] {
        let result = search(&game, &config(90, 1, threads)).expect("ongoing");
        assert_eq!(result.nodes, 90, "{threads} threads");
        assert_eq!(result.root.iter().map(|r| r.visits).sum::<u64>(), 90, "{threads} threads");
    }
}

#[test]
fn different_seeds_explore_differently() {
    let game = random_position(GameKind::Go, 4, 11);
    let visits =
        |seed| search(&game, &config(100, seed, 1)).expect("ongoing").root.iter().map(|r| r.visits).collect::<Vec<_>>();
    assert_ne!(visits(1), visits(2));
}

#[test]
fn a_finished_game_has_no_turn_to_suggest() {
    let mut game = new_game(GameKind::Go);
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
    let game = new_game(GameKind::Go);
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

/// Issue 42: at hard's own budget Gess's knowledge (the evaluation at once, captures
/// first) lost 14 of 20 games to the search of 54cd0e7, so hard's Gess searches as that
/// commit did: the same seed and budget give the same root, visit for visit. Hard's
/// Chego keeps its knowledge, so there the two differ.
#[test]
fn hards_gess_searches_as_54cd0e7_did_and_its_chego_does_not() {
    use stonemate_ai::{Level, Method, search_with};
    for (kind, plies, same) in [(GameKind::Gess, 20, true), (GameKind::Chego, 4, false)] {
        let game = random_position(kind, plies, 42);
        let config = SearchConfig::new(Budget::nodes(Level::Hard.nodes(kind)), 7);
        let hard = search(&game, &config).expect("a turn");
        let old = search_with(&game, &config, Method::Baseline).expect("a turn");
        let visits =
            |root: &[stonemate_ai::RootTurn]| root.iter().map(|turn| (turn.turn, turn.visits)).collect::<Vec<_>>();
        assert_eq!(visits(&hard.root) == visits(&old.root), same, "{kind}");
    }
}
