//! Tree reuse between turns (`search_reusing`): the subtree of the turns played since is
//! kept with its statistics, and anything the tree does not know starts afresh.

use stonemate_ai::{Budget, Method, SearchConfig, search_reusing, search_with};
use stonemate_engine::{AnyGame, GameKind, Turn};

fn config(nodes: u64) -> SearchConfig {
    SearchConfig::new(Budget::nodes(nodes), 11)
}

fn visits(result: &stonemate_ai::SearchResult) -> u64 {
    result.root.iter().map(|root| root.visits).sum()
}

#[test]
fn the_subtree_of_the_turn_played_keeps_its_visits_for_the_next_search() {
    // Plain UCT in Chogo; RAVE (AMAF tables moved with their nodes) in go; hard's RAVE
    // over drops in Chego.
    for (kind, method) in
        [(GameKind::Chogo, Method::PlainUct), (GameKind::Go, Method::Current), (GameKind::Chego, Method::Strong)]
    {
        let options = if kind == GameKind::Go { vec![("board".to_owned(), "5x5".to_owned())] } else { Vec::new() };
        let mut game = AnyGame::new(kind, &options).expect("default options");
        for turn in ["K@d3", "K@e5"].iter().take(if kind == GameKind::Chogo { 2 } else { 0 }) {
            game.play_text(turn).expect("legal");
        }
        let (first, kept) = search_reusing(&game, &config(2_000), method, None, &[]).expect("ongoing");
        let kept = kept.expect("one thread keeps its tree");
        let searched = first.root.iter().find(|root| root.turn == first.turn).expect("the chosen turn").visits;
        game.play(first.turn).expect("legal");
        let (second, kept) = search_reusing(&game, &config(500), method, Some(kept), &[first.turn]).expect("ongoing");
        assert_eq!(second.nodes, 500, "{kind}: the budget counts new nodes");
        // The root's turns hold the visits made below the chosen turn in the first search
        // (all but the one that made its node) and the new ones.
        assert!(visits(&second) >= 500 + searched / 2, "{kind}: {} visits, {searched} before", visits(&second));
        assert!(game.legal_turns().contains(&second.turn), "{kind}");
        assert!(kept.expect("kept again").node_count() > 500, "{kind}");
    }
}

#[test]
fn turns_the_tree_does_not_know_start_a_fresh_search() {
    let mut game = AnyGame::new(GameKind::Chogo, &[]).expect("default options");
    let (first, kept) = search_reusing(&game, &config(50), Method::PlainUct, None, &[]).expect("ongoing");
    game.play(first.turn).expect("legal");
    // Chogo has no passing: the tree cannot know a pass, whatever it searched.
    let (reused, _) = search_reusing(&game, &config(300), Method::PlainUct, kept, &[Turn::Pass]).expect("ongoing");
    let fresh = search_with(&game, &config(300), Method::PlainUct).expect("ongoing");
    assert_eq!((reused.turn, reused.nodes, visits(&reused)), (fresh.turn, fresh.nodes, visits(&fresh)));
    assert_eq!(visits(&fresh), 300);
}

#[test]
fn the_subtree_after_the_turn_played_searches_as_the_whole_tree_does() {
    let options = vec![("board".to_owned(), "5x5".to_owned())];
    let mut game = AnyGame::new(GameKind::Go, &options).expect("valid options");
    let searched = || search_reusing(&game, &config(2_000), Method::Current, None, &[]).expect("ongoing");
    let (first, whole) = searched();
    let (_, pruned) = searched();
    let (whole, pruned) = (whole.expect("one thread keeps its tree"), pruned.expect("the same tree"));
    let nodes = whole.node_count();
    let pruned = pruned.after(first.turn).expect("the chosen turn was searched");
    assert!(pruned.node_count() < nodes, "{} of {nodes}", pruned.node_count());
    assert!(pruned.memory() < whole.memory());
    game.play(first.turn).expect("legal");
    let reply = game.legal_turns()[0];
    game.play(reply).expect("legal");
    let (from_whole, _) =
        search_reusing(&game, &config(500), Method::Current, Some(whole), &[first.turn, reply]).expect("ongoing");
    let (from_pruned, _) =
        search_reusing(&game, &config(500), Method::Current, Some(pruned), &[reply]).expect("ongoing");
    assert!(visits(&from_whole) > 500, "the reply's subtree was reused");
    // The same search but for the time it took.
    assert_eq!(from_pruned, stonemate_ai::SearchResult { elapsed: from_pruned.elapsed, ..from_whole });
}
