//! The search's entry points: which searcher a game and a budget get (alpha-beta for
//! iChess and Chogo from hard's budget on, the Monte Carlo tree search otherwise, by the
//! thresholds of `config.rs`), and how a budget of nodes becomes each one's.

use std::time::Instant;

use stonemate_engine::{AnyGame, GameKind, Turn};

use super::config::{
    ALPHA_BETA_FROM_NODES, ALPHA_BETA_NODES_PER_NODE, Budget, CHOGO_ALPHA_BETA_NODES_PER_NODE, HEAVY_FROM_NODES,
    MAX_NODES_PER_THREAD, Method, SearchConfig,
};
use super::mcts::{self, KeptTree};
use super::result::SearchResult;
use crate::deepening::Limits;
use crate::level::Level;

/// Searches the position and returns the turn to play; `None` when the game is over.
///
/// Go with a set whose pieces act like stones is searched on the playout board
/// ([`FastGo`](crate::fastgo::FastGo)) with RAVE and priors, every other game with UCT
/// on the engine's board; from hard's budget on, iChess and Chogo by alpha-beta and Chego
/// with hard's knowledge ([`Method::Current`]).
#[must_use]
pub fn search(game: &AnyGame, config: &SearchConfig) -> Option<SearchResult> {
    search_with(game, config, Method::Current)
}

/// [`search`] by another method: the baselines that measurements compare with
/// (`ai/examples/playout_speed.rs`, the tournament's `old-` players).
#[must_use]
pub fn search_with(game: &AnyGame, config: &SearchConfig, method: Method) -> Option<SearchResult> {
    search_on(game, config, method)
}

fn search_on(game: &AnyGame, config: &SearchConfig, method: Method) -> Option<SearchResult> {
    search_keeping(game, config, method, None).map(|(result, _)| result)
}

/// [`search_with`], keeping the tree for the next turn: `kept` is the tree of an earlier
/// search in the same game and `since` the turns played from that search's position to
/// `game`. When the tree knows those turns (the opponent's answer was searched), the
/// search starts from their subtree, and its root statistics include the visits made
/// before; otherwise it starts afresh. The budget counts the new nodes only.
///
/// Returns the result and the tree to pass to the next search; no tree is kept by a
/// search with several threads or by iChess's alpha-beta search. A seeded search with the
/// same history of kept trees gives the same answer. (`search` and `search_with` do not
/// reuse trees: the bot's turns stay as they were measured until the bot opts in.)
#[must_use]
pub fn search_reusing(
    game: &AnyGame,
    config: &SearchConfig,
    method: Method,
    kept: Option<KeptTree>,
    since: &[Turn],
) -> Option<(SearchResult, Option<KeptTree>)> {
    search_keeping(game, config, method, kept.map(|kept| (kept, since)))
}

fn search_keeping(
    game: &AnyGame,
    config: &SearchConfig,
    method: Method,
    kept: Option<(KeptTree, &[Turn])>,
) -> Option<(SearchResult, Option<KeptTree>)> {
    let started = Instant::now();
    if let AnyGame::IChess(ichess) = game {
        let wants = match method {
            Method::Current => config.budget.nodes.is_none_or(|nodes| nodes >= ALPHA_BETA_FROM_NODES),
            Method::Strong => true,
            _ => false,
        };
        if wants {
            let nodes = config.budget.nodes.map_or(u64::MAX, |n| n.saturating_mul(ALPHA_BETA_NODES_PER_NODE));
            let nodes = if config.budget.nodes.is_none() && config.budget.time.is_none() {
                MAX_NODES_PER_THREAD * ALPHA_BETA_NODES_PER_NODE
            } else {
                nodes
            };
            let deadline = config.budget.time.map(|time| started + time);
            return crate::alphabeta::search(ichess, Limits { nodes, deadline }, started).map(|result| (result, None));
        }
    }
    if let AnyGame::Chogo(chogo) = game
        && method == Method::Current
        && config.budget.nodes.is_none_or(|n| n >= Level::Hard.nodes(game.kind()))
    {
        let nodes = match config.budget {
            Budget { nodes: Some(n), .. } => n.saturating_mul(CHOGO_ALPHA_BETA_NODES_PER_NODE),
            Budget { nodes: None, time: Some(_) } => u64::MAX,
            Budget { nodes: None, time: None } => MAX_NODES_PER_THREAD * CHOGO_ALPHA_BETA_NODES_PER_NODE,
        };
        let deadline = config.budget.time.map(|time| started + time);
        return crate::chogo_ab::search(chogo, Limits { nodes, deadline }, started).map(|result| (result, None));
    }
    // Hard's knowledge of Chego and Chogo: from hard's budget on (see Tree::strong). Not
    // Gess's: at hard's own budget (30,000 nodes, 5 s) it lost 14 of 20 games to the
    // search of 54cd0e7 (`ai/TOURNAMENT.md`, issue 42), which wins only at a tenth of that
    // time; so hard's Gess searches as 54cd0e7 did, and `Method::Strong` keeps the rest.
    let strong = match method {
        Method::Strong => true,
        Method::Current => {
            game.kind() != GameKind::Gess && config.budget.nodes.is_none_or(|n| n >= Level::Hard.nodes(game.kind()))
        }
        _ => false,
    };
    // Easy and medium keep the light playouts they were measured with (see HEAVY_FROM_NODES).
    let method = match method {
        Method::Current if config.budget.nodes.is_some_and(|n| n < HEAVY_FROM_NODES) => Method::RaveLight,
        other => other,
    };
    mcts::search(game, config, method, strong, kept, started)
}
