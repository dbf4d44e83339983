//! The Monte Carlo tree search (UCT) over any game, with a small solver for proven results:
//! its threads and their merged roots, and the tree kept between turns. One thread's tree
//! is `tree.rs`.
//!
//! Several threads search separate trees (root parallelism), each with its own random
//! stream and a fixed share of the nodes; their root statistics are merged in thread order,
//! so a seed, a node budget and a thread count always give the same answer.

use std::time::{Duration, Instant};

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use stonemate_engine::{AnyGame, Turn};

use super::config::{MAX_NODES_PER_THREAD, Method, SearchConfig};
use super::result::{Proof, RootTurn, SearchResult};
use super::tree::{RootStats, Tree};

/// A forced turn is still searched a little, for its value.
const FORCED_TURN_NODES: u64 = 64;

/// A Monte Carlo search tree kept after a search ([`search_reusing`](super::dispatch::search_reusing)), so that the next
/// search in the same game can start from the subtree of the turns played since, with
/// the statistics it already has.
#[derive(Debug)]
pub struct KeptTree {
    tree: Tree,
    method: Method,
    strong: bool,
}

impl KeptTree {
    /// The nodes the tree holds.
    #[must_use]
    pub fn node_count(&self) -> usize {
        self.tree.node_count()
    }

    /// The subtree after `turn`, one of the root's turns, as a tree of its own: what the
    /// next search after `turn` would start from anyway (its result is the same whether it
    /// is given this tree or the whole one with `turn` in front of its turns since), kept
    /// without the other turns' subtrees while the opponent thinks. `None` when the tree
    /// has not searched `turn` or the game ends with it.
    #[must_use]
    pub fn after(self, turn: Turn) -> Option<KeptTree> {
        let KeptTree { tree, method, strong } = self;
        tree.after(turn).map(|tree| KeptTree { tree, method, strong })
    }

    /// About how many bytes the tree's nodes take, with their lists of turns and children
    /// and their AMAF tables: what a cache of kept trees bounds (a leaf on a large board
    /// holds hundreds of untried turns, so nodes alone say little about memory).
    #[must_use]
    pub fn memory(&self) -> usize {
        size_of::<KeptTree>() + self.tree.memory()
    }
}

/// The Monte Carlo tree search of `game` by `method` (with hard's knowledge of Chego, Gess
/// and Chogo when `strong`) on as many trees as `config` has threads, started at
/// `started`. With one thread, `kept` (a tree and the turns played since its search) is
/// reused when it was searched the same way, and the tree is returned for the next search.
pub(super) fn search(
    game: &AnyGame,
    config: &SearchConfig,
    method: Method,
    strong: bool,
    kept: Option<(KeptTree, &[Turn])>,
    started: Instant,
) -> Option<(SearchResult, Option<KeptTree>)> {
    let turns = game.legal_turns();
    if turns.is_empty() || game.to_move().is_none() {
        return None;
    }
    let threads = config.threads.max(1);
    let deadline = config.budget.time.map(|time| started + time);
    let total = match config.budget.nodes {
        Some(nodes) => nodes.max(threads as u64),
        None => MAX_NODES_PER_THREAD * threads as u64,
    };
    let total = if turns.len() == 1 { total.min(FORCED_TURN_NODES) } else { total };
    let shares: Vec<u64> =
        (0..threads as u64).map(|t| total / threads as u64 + u64::from(t < total % threads as u64)).collect();
    if threads == 1 {
        let reused = kept
            .filter(|(kept, _)| kept.method == method && kept.strong == strong)
            .and_then(|(kept, since)| kept.tree.rerooted(since, &turns));
        let mut tree = reused.unwrap_or_else(|| Tree::new(game, &turns, thread_rng(config.seed, 0), method, strong));
        let stats = tree.run(shares[0], deadline);
        let result = merge(&turns, &[stats], started.elapsed());
        return Some((result, Some(KeptTree { tree, method, strong })));
    }
    let results: Vec<RootStats> = {
        std::thread::scope(|scope| {
            let handles: Vec<_> = shares
                .iter()
                .enumerate()
                .map(|(t, &share)| {
                    let turns = &turns;
                    scope.spawn(move || {
                        Tree::new(game, turns, thread_rng(config.seed, t as u64), method, strong).run(share, deadline)
                    })
                })
                .collect();
            // A thread that panicked contributes nothing; the others still decide.
            handles.into_iter().filter_map(|handle| handle.join().ok()).collect()
        })
    };
    Some((merge(&turns, &results, started.elapsed()), None))
}

fn thread_rng(seed: u64, thread: u64) -> ChaCha8Rng {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    rng.set_stream(thread);
    rng
}

fn merge(turns: &[Turn], results: &[RootStats], elapsed: Duration) -> SearchResult {
    let root: Vec<RootTurn> = turns
        .iter()
        .enumerate()
        .map(|(i, &turn)| {
            let visits: u64 = results.iter().map(|r| r.visits[i]).sum();
            let wins: f64 = results.iter().map(|r| r.wins[i]).sum();
            let proven = results.iter().find_map(|r| r.proofs[i]);
            let value = proven.map_or(if visits == 0 { 0.0 } else { wins / visits as f64 }, Proof::value);
            RootTurn { turn, visits, value, proven }
        })
        .collect();
    let best = root.iter().copied().max_by(|a, b| rank(a).partial_cmp(&rank(b)).unwrap_or(std::cmp::Ordering::Equal));
    // The engine listed at least one turn, so there is a best one.
    let best = best.unwrap_or(root[0]);
    SearchResult {
        turn: best.turn,
        value: best.value,
        nodes: results.iter().map(|r| r.nodes).sum(),
        elapsed,
        proven: best.proven,
        root,
    }
}

/// Proven wins first, proven losses last; then the most visited; then the best mean.
fn rank(turn: &RootTurn) -> (u8, u64, f64) {
    let class = match turn.proven {
        Some(Proof::Win) => 2,
        Some(Proof::Loss) => 0,
        _ => 1,
    };
    (class, turn.visits, turn.value)
}
