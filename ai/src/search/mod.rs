//! The search: given a game and a budget, the turn to play and what the search saw.
//!
//! The entry points ([`search`], [`search_with`], [`search_reusing`]) pick the searcher
//! (`dispatch.rs`): alpha-beta for iChess and Chogo from hard's budget on (`alphabeta.rs`,
//! `chogo_ab.rs` beside this folder), otherwise the Monte Carlo tree search with a small
//! solver for proven results (`mcts.rs`: threads and the tree kept between turns;
//! `tree.rs`: one thread's tree; `priors.rs`: what RAVE believes before any playout).
//! Every searcher is asked the same [`SearchConfig`] (`config.rs`) and answers the same
//! [`SearchResult`] (`result.rs`).
//!
//! Several threads search separate trees (root parallelism), each with its own random
//! stream and a fixed share of the nodes; their root statistics are merged in thread order,
//! so a seed, a node budget and a thread count always give the same answer.

pub(crate) mod config;
mod dispatch;
mod mcts;
mod priors;
pub(crate) mod result;
mod tree;

pub use config::{
    ALPHA_BETA_FROM_NODES, ALPHA_BETA_NODES_PER_NODE, Budget, CHOGO_ALPHA_BETA_NODES_PER_NODE, HEAVY_FROM_NODES,
    Method, SearchConfig,
};
pub use dispatch::{search, search_reusing, search_with};
pub use mcts::KeptTree;
pub use result::{Proof, RootTurn, SearchResult};
