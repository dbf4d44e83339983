//! Hard's search in Chego, Gess and Chogo (`Method::Strong`, the bot's search from hard's
//! budget on in Chego and Gess; in Chogo session 9's hard, the baseline of the alpha-beta
//! search in `chogo.rs`): legal, repeatable for a seed, and still finding what it can prove.

use stonemate_ai::{Budget, Method, Proof, SearchConfig, search_with};
use stonemate_engine::notation::record_tokens;
use stonemate_engine::{AnyGame, GameKind};

/// The position after the first `turns` turns of the example record of `kind`.
fn example(kind: GameKind, turns: usize) -> AnyGame {
    let path = format!("{}/../examples/{kind}.txt", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).expect("the example record");
    let tokens: Vec<String> = record_tokens(&text).into_iter().take(turns).collect();
    AnyGame::replay(kind, &[], &tokens).expect("a legal record").game
}

fn strong(game: &AnyGame, nodes: u64, seed: u64) -> stonemate_ai::SearchResult {
    search_with(game, &SearchConfig::new(Budget::nodes(nodes), seed), Method::Strong).expect("ongoing")
}

#[test]
fn hards_search_plays_legal_turns_and_repeats_itself_for_a_seed() {
    for kind in [GameKind::Chego, GameKind::Gess, GameKind::Chogo] {
        for turns in [2, 6] {
            let game = example(kind, turns);
            let first = strong(&game, 300, 5);
            let again = strong(&game, 300, 5);
            assert_eq!((first.turn, first.nodes), (again.turn, again.nodes), "{kind} after {turns}");
            assert_eq!(first.value.to_bits(), again.value.to_bits(), "{kind} after {turns}");
            assert!(game.legal_turns().contains(&first.turn), "{kind} after {turns}: {}", first.turn);
            assert_eq!(first.nodes, 300, "{kind} after {turns}");
        }
    }
}

#[test]
fn hards_search_takes_the_winning_capture_in_gess() {
    // Gess: Black's last move of the example takes White's last ring.
    let gess = example(GameKind::Gess, usize::MAX);
    let tokens = {
        let path = format!("{}/../examples/gess.txt", env!("CARGO_MANIFEST_DIR"));
        record_tokens(&std::fs::read_to_string(path).expect("the example record"))
    };
    let before = example(GameKind::Gess, tokens.len() - 1);
    assert!(gess.to_move().is_none(), "the example ends with the win");
    let result = strong(&before, 2_000, 1);
    assert_eq!(result.proven, Some(Proof::Win), "{result:?}");
    let mut after = before.clone();
    after.play(result.turn).expect("legal");
    assert!(after.to_move().is_none(), "{}", before.format_turn(result.turn));
}
