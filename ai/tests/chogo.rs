//! Hard's alpha-beta search of Chogo (the bot's search from hard's budget on): king
//! captures found and proven, a threatened king saved, legal and repeatable answers, and
//! the smaller levels keeping the Monte Carlo search.

use stonemate_ai::search::CHOGO_ALPHA_BETA_NODES_PER_NODE;
use stonemate_ai::{Budget, Level, Proof, SearchConfig, search};
use stonemate_engine::notation::record_tokens;
use stonemate_engine::{AnyGame, Color, GameKind, Outcome};

/// The position after the first `turns` turns of the example record.
fn example(turns: usize) -> AnyGame {
    let path = format!("{}/../examples/chogo.txt", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).expect("the example record");
    let tokens: Vec<String> = record_tokens(&text).into_iter().take(turns).collect();
    AnyGame::replay(GameKind::Chogo, &[], &tokens).expect("a legal record").game
}

fn hard(game: &AnyGame) -> stonemate_ai::SearchResult {
    let nodes = Level::Hard.nodes(GameKind::Chogo);
    search(game, &SearchConfig::new(Budget::nodes(nodes), 1)).expect("ongoing")
}

#[test]
fn a_king_capture_in_one_is_found_and_proven() {
    // The example's last turn, d5-d6, encloses Green's king on c6.
    let game = example(12);
    let result = hard(&game);
    assert_eq!(result.proven, Some(Proof::Win), "{result:?}");
    let mut after = game.clone();
    after.play(result.turn).expect("legal");
    assert_eq!(after.status().ending().map(|e| e.outcome), Some(Outcome::Winner(Color::White)));
}

#[test]
fn a_king_threatened_with_capture_is_saved() {
    // Green to move before the example's losing e5-e4: d5-d6 threatens the king on c6.
    let game = example(11);
    let result = hard(&game);
    assert_ne!(result.proven, Some(Proof::Loss), "{result:?}");
    let mut after = game.clone();
    after.play(result.turn).expect("legal");
    for answer in after.legal_turns() {
        let mut reply = after.clone();
        reply.play(answer).expect("legal");
        assert_ne!(
            reply.status().ending().map(|e| e.outcome),
            Some(Outcome::Winner(Color::White)),
            "{} then {}",
            game.format_turn(result.turn),
            after.format_turn(answer)
        );
    }
}

#[test]
fn hards_search_is_alpha_beta_repeatable_and_legal_and_the_lower_levels_are_not() {
    let nodes = Level::Hard.nodes(GameKind::Chogo);
    for turns in [2, 5] {
        let game = example(turns);
        let first = hard(&game);
        let again = hard(&game);
        assert_eq!((first.turn, first.nodes), (again.turn, again.nodes), "after {turns}");
        assert!(game.legal_turns().contains(&first.turn), "after {turns}");
        assert_eq!(first.root.len(), game.legal_turns().len(), "after {turns}");
        assert!(first.nodes <= nodes * CHOGO_ALPHA_BETA_NODES_PER_NODE, "after {turns}: {}", first.nodes);
        // The spent nodes are counted on the root's turns (the Monte Carlo search would
        // count exactly the budget, one playout a node).
        assert!(first.root.iter().map(|r| r.visits).sum::<u64>() <= first.nodes, "after {turns}");
    }
    let medium = Level::Medium.nodes(GameKind::Chogo);
    let result = search(&example(5), &SearchConfig::new(Budget::nodes(medium), 1)).expect("ongoing");
    assert_eq!(result.nodes, medium, "medium keeps one playout a node");
}
