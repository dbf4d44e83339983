//! A built-in opponent for Stonemate's five games.
//!
//! One Monte Carlo tree search ([`search()`]) plays every game through the engine's
//! [`AnyGame`](stonemate_engine::AnyGame): it needs only the legal turns, applying a turn,
//! and the result. Where uniform random play says little about a position, per-game
//! knowledge ([`knowledge`]) steps in: playouts that never fill their own eyes (go),
//! prefer captures (iChess, Gess), stop after a few turns, and an evaluation of the
//! position where a playout stops (points, material, rings).
//!
//! Go with a set whose pieces act like stones (rooks, as in go) is searched on an
//! incremental playout board ([`fastgo`]) some forty times faster than through the engine,
//! with RAVE (all moves as first) and priors for captures and ataris; from hard's budget
//! on, its playouts are heavy (MoGo's: they answer the last drop's ataris and 3x3 shapes).
//! Chego at hard's budget orders a node's turns by their tactics and scores short
//! playouts by the evaluation (eight drops, with RAVE over its drops); Gess keeps the
//! search of 54cd0e7, which beat that knowledge (the evaluation at once) at hard's own
//! budget, and `Method::Strong` keeps the knowledge as a baseline. iChess and Chogo at
//! hard's budget are searched by alpha-beta instead (`alphabeta.rs`: iterative
//! deepening, quiescence, a transposition table, on the engine's bitboard position; `chogo_ab.rs`: iterative deepening, quiescence on the
//! capturing turns, on the engine's game). The older searches stay available as baselines
//! ([`Method`]). [`search_reusing`] keeps the tree between turns.
//!
//! The search is deterministic for a given seed and node budget, also with several
//! threads: each thread searches its own tree with its own seed and a fixed share of the
//! nodes, and the roots are merged in thread order. A time limit bounds it too, for the
//! bot; a search cut by time is not repeatable.
//!
//! Pure like the engine: no I/O. It reads the clock only to honour a time limit.

#![warn(missing_docs)]

mod alphabeta;
mod chogo_ab;
pub mod counting;
pub mod decision;
mod deepening;
pub mod deployment;
pub mod fastgo;
pub mod knowledge;
pub mod level;
mod material;
mod position;
pub mod search;
pub mod verdict;

pub use counting::judge_dead;
pub use decision::{Decided, Decision, Question, decide, decide_reusing};
pub use level::{Level, UnknownLevel};
pub use search::{
    Budget, KeptTree, Method, Proof, RootTurn, SearchConfig, SearchResult, search, search_reusing, search_with,
};
pub use verdict::{accepts_draw, resigns};
