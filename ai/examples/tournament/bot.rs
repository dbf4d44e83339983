//! Our bot as an arena player: a level (or a baseline method) with its budget, and the
//! `keep` players that reuse their tree between turns as the bot's pool does.

use stonemate_ai::{Budget, KeptTree, Level, Method, SearchConfig, search_reusing, search_with};
use stonemate_engine::{AnyGame, Turn};

use crate::player::{Failure, Player};

/// Our bot at a level, searching by a method.
pub(crate) struct Bot {
    pub(crate) level: Level,
    /// `None`: the level's own budget for the game.
    pub(crate) budget: Option<Budget>,
    pub(crate) threads: usize,
    /// The bot's search, or a baseline (`old` and `uct` players).
    pub(crate) method: Method,
    /// `Some` for a `keep` player: the tree of its last search and what it reused.
    pub(crate) reuse: Option<Reuse>,
}

/// A `keep` player's tree and its count of what the kept trees brought.
#[derive(Default)]
pub(crate) struct Reuse {
    /// The player's name, for the count printed when it is dropped.
    pub(crate) player: String,
    /// The tree of the last search and the game's turns up to its root.
    pub(crate) kept: Option<(Vec<Turn>, KeptTree)>,
    pub(crate) searches: u64,
    /// Searches that started with playouts from the kept tree.
    pub(crate) reused: u64,
    /// Playouts at the root that kept trees brought, together.
    pub(crate) visits: u64,
    /// New playouts made, together.
    pub(crate) nodes: u64,
}

impl Drop for Reuse {
    fn drop(&mut self) {
        if self.searches > 0 {
            let per = |n: u64| n as f64 / self.searches as f64;
            eprintln!(
                "{}: {} searches, {} from a kept tree; per search {:.0} playouts kept at the start, {:.0} new",
                self.player,
                self.searches,
                self.reused,
                per(self.visits),
                per(self.nodes)
            );
        }
    }
}

impl Player for Bot {
    fn name(&self) -> String {
        let prefix = match self.method {
            Method::Current if self.reuse.is_some() => "keep",
            Method::Current => "",
            Method::PlainUct => "uct",
            Method::Baseline => "old",
            Method::RaveLight => "rave",
            Method::Strong => "strong",
        };
        format!("{prefix}{}", self.level.name())
    }

    fn choose(&mut self, _: &AnyGame, history: &[Turn], game: &AnyGame, seed: u64) -> Result<Turn, Failure> {
        let budget = self.budget.unwrap_or_else(|| self.level.budget(game.kind()));
        let config = SearchConfig { budget, seed, threads: self.threads };
        let Some(reuse) = self.reuse.as_mut() else {
            return search_with(game, &config, self.method)
                .map(|result| result.turn)
                .ok_or_else(|| "no legal turn".into());
        };
        // The tree of this game's last search, if this game continues it (a new game does not).
        let (kept, since) = match reuse.kept.take() {
            Some((turns, tree)) if history.starts_with(&turns) => (Some(tree), &history[turns.len()..]),
            _ => (None, &[][..]),
        };
        let (result, tree) =
            search_reusing(game, &config, self.method, kept, since).ok_or_else(|| Failure::from("no legal turn"))?;
        let visits = result.root.iter().map(|root| root.visits).sum::<u64>().saturating_sub(result.nodes);
        reuse.searches += 1;
        reuse.reused += u64::from(visits > 0);
        reuse.visits += visits;
        reuse.nodes += result.nodes;
        reuse.kept = tree.map(|tree| (history.to_vec(), tree));
        Ok(result.turn)
    }
}
