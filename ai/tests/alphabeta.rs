//! The alpha-beta search of iChess: mates found and proven, material won and kept, legal
//! and repeatable answers, and the bot's search choosing it from hard's budget on.

use stonemate_ai::search::{ALPHA_BETA_FROM_NODES, ALPHA_BETA_NODES_PER_NODE};
use stonemate_ai::{Budget, Level, Method, Proof, SearchConfig, search, search_with};
use stonemate_engine::ichess::IChess;
use stonemate_engine::{AnyGame, Color, GameKind, Outcome};

fn ichess(fen: &str) -> AnyGame {
    AnyGame::IChess(IChess::from_fen(fen).expect("a legal set-up"))
}

fn alpha_beta(game: &AnyGame, nodes: u64) -> stonemate_ai::SearchResult {
    search_with(game, &SearchConfig::new(Budget::nodes(nodes), 1), Method::Strong).expect("ongoing")
}

#[test]
fn a_mate_in_one_is_found_and_proven() {
    let game = ichess("k7/8/1K6/8/8/8/8/6Q1[] w");
    let result = alpha_beta(&game, 2_000);
    assert_eq!(result.proven, Some(Proof::Win), "{result:?}");
    let mut after = game.clone();
    after.play(result.turn).unwrap();
    assert_eq!(after.status().ending().map(|e| e.outcome), Some(Outcome::Winner(Color::White)));
}

#[test]
fn a_lost_position_is_proven_lost_and_a_mate_against_us_is_avoided() {
    let lost = alpha_beta(&ichess("k7/8/1K6/8/8/8/8/6Q1[] b"), 20_000);
    assert_eq!(lost.proven, Some(Proof::Loss), "{lost:?}");
    // Black can guard the back rank with the rook in hand (see tests/search.rs).
    let game = ichess("k7/p7/1K6/8/8/8/7Q/8[r] b");
    let result = alpha_beta(&game, 20_000);
    let mut after = game.clone();
    after.play(result.turn).unwrap();
    let mate = after.parse_turn("Qh8").expect("readable");
    let mut mated = after.clone();
    assert!(!(mated.play(mate).is_ok() && mated.status().ending().is_some()), "{}", game.format_turn(result.turn));
}

#[test]
fn free_material_is_taken_and_a_hanging_piece_is_not_left() {
    // The knight on f4 takes the undefended queen on d5.
    let game = ichess("4k3/8/8/3q4/5N2/8/8/4K3[] w");
    assert_eq!(game.format_turn(alpha_beta(&game, 5_000).turn), "NxQd5");
    // Black's queen on d4 is attacked by the pawn on e3... which only moves straight
    // ahead (a shogi pawn): nothing attacks it, and Black keeps it rather than giving it up.
    let game = ichess("4k3/8/8/8/3q4/4P3/8/4K3[] b");
    let result = alpha_beta(&game, 20_000);
    assert!(result.value > 0.9, "{result:?}");
}

#[test]
fn the_same_budget_gives_the_same_turn_and_every_turn_is_legal() {
    let mut game = AnyGame::new(GameKind::IChess, &[]).expect("default options");
    for _ in 0..40 {
        let first = alpha_beta(&game, 3_000);
        let again = alpha_beta(&game, 3_000);
        assert_eq!((first.turn, first.nodes), (again.turn, again.nodes));
        assert_eq!(first.root.len(), game.legal_turns().len());
        game.play(first.turn).expect("a legal turn");
        if game.status().ending().is_some() {
            break;
        }
    }
}

#[test]
fn the_bots_search_is_alpha_beta_from_hards_budget_on() {
    let game = ichess("4k3/8/8/3q4/5N2/8/8/4K3[] w");
    let hard = Level::Hard.nodes(GameKind::IChess);
    assert!(hard >= ALPHA_BETA_FROM_NODES && Level::Medium.nodes(GameKind::IChess) < ALPHA_BETA_FROM_NODES);
    let result = search(&game, &SearchConfig::new(Budget::nodes(hard), 1)).expect("ongoing");
    // Alpha-beta spends its nodes on positions, not playouts: many more than the budget.
    assert!(result.nodes > hard, "{} nodes", result.nodes);
    assert!(result.nodes <= hard * ALPHA_BETA_NODES_PER_NODE);
    let medium = search(&game, &SearchConfig::new(Budget::nodes(1_000), 1)).expect("ongoing");
    assert_eq!(medium.nodes, 1_000, "the Monte Carlo search spends its budget exactly");
}

/// Ruling I3: a player who gives check with every turn of a repetition loses it. White's
/// queen (from e1) has checked Black's king from e5 and e6 while the king went h8-g8-h8; Qe5+ again
/// repeats the position after White's first check with every White turn a check.
#[test]
fn repeating_a_perpetual_check_scores_as_a_loss_for_the_checker_not_as_a_draw() {
    let mut game = ichess("7k/8/8/8/8/8/8/K3Q3[] w");
    for turn in ["Qe5", "Kg8", "Qe6", "Kh8"] {
        let parsed = game.parse_turn(turn).expect("readable");
        game.play(parsed).expect("legal");
    }
    let repeat = game.parse_turn("Qe5").expect("readable");
    let result = alpha_beta(&game, 20_000);
    let repeated = result.root.iter().find(|root| root.turn == repeat).expect("Qe5 is legal");
    assert!(repeated.value < 0.01, "the perpetual check loses, not draws: {repeated:?}");
    assert_ne!(result.turn, repeat, "{result:?}");
    // A queen up, White has better than the loss or a draw.
    assert!(result.value > 0.9, "{result:?}");
}
