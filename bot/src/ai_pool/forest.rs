//! The trees the pool keeps between a game's turns: the bound on them, how they served,
//! and the cache of each game's last tree, least recently used first out.

use std::hash::Hash;

use lru::LruCache;
use stonemate_ai::KeptTree;
use stonemate_engine::GameKind;

use super::job::Job;

/// How much the pool keeps of its searches' trees between a game's turns: at most `games`
/// trees (the most recently used) and `bytes` bytes in all ([`KeptTree::memory`]). A tree
/// larger than `bytes` on its own is not kept.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct KeptBound {
    /// The most games whose tree is kept.
    pub games: usize,
    /// The most bytes all kept trees take together.
    pub bytes: usize,
}

impl KeptBound {
    /// The bot's bound: 256 games and 512 MiB. What is kept is the subtree after the
    /// bot's turn (measured with `ai/examples/turn_cost.rs`): at hard, 3-7 MB in 9x9 go
    /// (of a 37-41 MB search tree), 1 MB in Gess and Chego, none for iChess's and
    /// Chogo's alpha-beta; at medium under 1 MB; 19x19 go stopped by the time limit, well
    /// under 20 MB. So the
    /// bytes (a few percent of a small server's memory) bind only when many hard games are
    /// under way at once, and the count keeps the bookkeeping small otherwise; a game whose
    /// tree was evicted only searches afresh.
    pub const BOT: KeptBound = KeptBound { games: 256, bytes: 512 << 20 };
    /// Nothing kept: every job searches afresh.
    pub const NOTHING: KeptBound = KeptBound { games: 0, bytes: 0 };
}

/// How the pool's kept trees have served, since it started.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct ReuseStats {
    /// Games whose tree is kept now.
    pub kept_games: usize,
    /// Nodes of the trees kept now.
    pub kept_nodes: usize,
    /// Bytes of the trees kept now ([`KeptTree::memory`]).
    pub kept_bytes: usize,
    /// Searches made.
    pub searches: u64,
    /// Searches that started from a kept subtree.
    pub reused: u64,
    /// Playouts at the root that the kept subtrees brought to those searches, together.
    pub reused_visits: u64,
}

/// What one search took over from the kept tree.
#[derive(Debug, Clone, Copy)]
pub(super) struct Reused {
    /// Whether the search started from a kept subtree.
    pub(super) reused: bool,
    /// The playouts through the root's turns that the subtree brought (0 when fresh).
    pub(super) visits: u64,
}

/// A game's kept tree and what it was searched for.
pub(super) struct Kept {
    pub(super) kind: GameKind,
    pub(super) options: Vec<(String, String)>,
    /// The record the tree's root is the position of.
    pub(super) turns: Vec<String>,
    pub(super) tree: KeptTree,
    pub(super) nodes: usize,
    pub(super) bytes: usize,
}

impl Kept {
    /// The tree of `job`'s game whose root is the position after `turns`.
    pub(super) fn new<G>(job: &Job<G>, turns: Vec<String>, tree: KeptTree) -> Kept {
        let (nodes, bytes) = (tree.node_count(), tree.memory());
        Kept { kind: job.kind, options: job.options.clone(), turns, tree, nodes, bytes }
    }

    /// Whether the tree was searched in the game `job` continues: same kind and options,
    /// and its record a prefix of the job's.
    pub(super) fn serves<G>(&self, job: &Job<G>) -> bool {
        self.kind == job.kind && self.options == job.options && job.turns.starts_with(&self.turns)
    }
}

/// The kept trees, by game, least recently used first out.
pub(super) struct Forest<G: Hash + Eq> {
    trees: LruCache<G, Kept>,
    bound: KeptBound,
    stats: ReuseStats,
}

impl<G: Hash + Eq> Forest<G> {
    pub(super) fn new(bound: KeptBound) -> Forest<G> {
        // The bound is enforced by `keep`, which also counts bytes.
        Forest { trees: LruCache::unbounded(), bound, stats: ReuseStats::default() }
    }

    /// Takes the game's tree out (a job uses it up; whatever it is, it is not kept as it was).
    pub(super) fn take(&mut self, id: &G) -> Option<Kept> {
        let kept = self.trees.pop(id)?;
        self.stats.kept_games -= 1;
        self.stats.kept_nodes -= kept.nodes;
        self.stats.kept_bytes -= kept.bytes;
        Some(kept)
    }

    /// Keeps a job's tree for its game, unless a tree of a later position is kept already
    /// (two jobs of the game ran at once), then evicts the least recently used trees until
    /// the bound holds.
    pub(super) fn keep(&mut self, id: G, kept: Kept) {
        if kept.bytes > self.bound.bytes || self.bound.games == 0 {
            return;
        }
        if self.trees.peek(&id).is_some_and(|newer| newer.turns.len() > kept.turns.len()) {
            return;
        }
        self.take(&id);
        self.stats.kept_games += 1;
        self.stats.kept_nodes += kept.nodes;
        self.stats.kept_bytes += kept.bytes;
        self.trees.put(id, kept);
        while self.stats.kept_games > self.bound.games || self.stats.kept_bytes > self.bound.bytes {
            let Some((_, evicted)) = self.trees.pop_lru() else { break };
            self.stats.kept_games -= 1;
            self.stats.kept_nodes -= evicted.nodes;
            self.stats.kept_bytes -= evicted.bytes;
        }
    }

    /// The kept trees now, and how they have served.
    pub(super) fn stats(&self) -> ReuseStats {
        self.stats
    }

    pub(super) fn count(&mut self, reused: Reused) {
        self.stats.searches += 1;
        if reused.reused {
            self.stats.reused += 1;
            self.stats.reused_visits += reused.visits;
        }
    }
}
