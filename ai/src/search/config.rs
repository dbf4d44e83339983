//! What a search is asked: its budget, its seed and threads, and the method to search by,
//! with the budgets from which the hard searchers take over.

use std::time::Duration;

/// A search with no node limit stops at this many nodes per thread all the same, so that
/// memory stays bounded whatever the time limit.
pub(crate) const MAX_NODES_PER_THREAD: u64 = 200_000;

/// How long a search may run: a number of nodes (playouts), a time, or both (whichever
/// comes first). Without either, it stops at a fixed safety limit of nodes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Budget {
    /// The most nodes (playouts) to make, all threads together.
    pub nodes: Option<u64>,
    /// The most time to take, measured from the start of the search.
    pub time: Option<Duration>,
}

impl Budget {
    /// Exactly this many nodes: repeatable for a seed.
    #[must_use]
    pub fn nodes(nodes: u64) -> Budget {
        Budget { nodes: Some(nodes), time: None }
    }

    /// As many nodes as fit in this time (not repeatable).
    #[must_use]
    pub fn time(time: Duration) -> Budget {
        Budget { nodes: None, time: Some(time) }
    }
}

/// What to search with.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SearchConfig {
    /// When to stop.
    pub budget: Budget,
    /// The seed of the playouts' random choices; each thread derives its own from it.
    pub seed: u64,
    /// Threads, each with its own tree; 0 counts as 1.
    pub threads: usize,
}

impl SearchConfig {
    /// One thread with this budget and seed.
    #[must_use]
    pub fn new(budget: Budget, seed: u64) -> SearchConfig {
        SearchConfig { budget, seed, threads: 1 }
    }
}

/// Which search to run: the bot's, or an earlier one kept as a baseline for measurements.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Method {
    /// The bot's search: in go with a stone-like set, the playout board, with RAVE (all
    /// moves as first) and priors for captures, ataris, saving moves and self-ataris;
    /// elsewhere as [`Method::PlainUct`], except that from hard's budget on (and with a
    /// time and no node limit) iChess and Chogo are searched by alpha-beta (Chogo:
    /// `chogo_ab.rs`, with [`CHOGO_ALPHA_BETA_NODES_PER_NODE`] times the nodes) and Chego
    /// with hard's knowledge, as [`Method::Strong`] does (Gess keeps 54cd0e7's search,
    /// which beat hard's knowledge at hard's own budget).
    Current,
    /// Plain UCT with one playout per node and the solver, on the playout board where it
    /// applies.
    PlainUct,
    /// The search the bot's hard level uses, whatever the budget: alpha-beta in iChess,
    /// heavy playouts and shapes in go; in Chego, Gess and Chogo, a node's turns ordered
    /// by their tactics and short playouts scored by the evaluation (Chego: 8 drops and
    /// RAVE over its drops; Gess and Chogo: the evaluation at once). (The bot's search
    /// is this one from hard's budget on, except in Chogo, and [`Method::RaveLight`] or
    /// the Monte Carlo search below it.) In Chogo this is session 9's hard, kept as the
    /// baseline the alpha-beta search of [`Method::Current`] is measured against.
    Strong,
    /// The search of issue 29's first session: as [`Method::Current`] but with light
    /// playouts (random drops that never fill an own eye) and priors without shapes.
    RaveLight,
    /// The search of commit 54cd0e7: plain UCT on the engine's board in every game.
    Baseline,
}

/// An iChess search of at least this many nodes (hard's budget), or with a time and no
/// node limit, is an alpha-beta search (`ai/src/alphabeta.rs`) with
/// [`ALPHA_BETA_NODES_PER_NODE`] times the nodes; smaller ones (easy, medium) keep the
/// Monte Carlo search that those levels were measured with.
pub const ALPHA_BETA_FROM_NODES: u64 = 100_000;
/// A go search of at least this many nodes (hard's budget), or with a time and no node
/// limit, plays heavy playouts and reads shapes ([`Method::Current`]); smaller ones (easy,
/// medium) search as [`Method::RaveLight`], with the light playouts those levels were
/// measured with, so that easy stays easy.
pub const HEAVY_FROM_NODES: u64 = 10_000;
/// Alpha-beta nodes per node of the budget: an alpha-beta node (one position, no
/// playout) costs about this much less than a Monte Carlo node of iChess.
pub const ALPHA_BETA_NODES_PER_NODE: u64 = 20;

/// Alpha-beta nodes per node of the budget in Chogo, whose hard search (from hard's
/// budget on, or with a time and no node limit) is an alpha-beta search
/// (`ai/src/chogo_ab.rs`); smaller ones keep the Monte Carlo search.
pub const CHOGO_ALPHA_BETA_NODES_PER_NODE: u64 = 2;
