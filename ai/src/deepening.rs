//! What the two alpha-beta searches (iChess's `alphabeta.rs`, Chogo's `chogo_ab.rs`) share:
//! the limits they run under, their mate scores, their killer turns, a node's fail-soft
//! window, and the root: iterative deepening with a principal variation search over the
//! root's turns, keeping the best turn of an iteration cut short, then the
//! [`SearchResult`] the bot reads.
//!
//! Each game keeps its own evaluation, turn generation, ordering, node counting (iChess
//! counts a node before checking the budget, Chogo after) and inner search; the root sees
//! it only as a [`Deepen`]: something that scores a child of the root in a window and
//! counts its nodes.

use std::time::{Duration, Instant};

use stonemate_engine::Turn;

use crate::search::result::{Proof, RootTurn, SearchResult};

/// A win's score: the side that wins scores `MATE - ply` (the sooner the better), the side
/// that loses `-MATE + ply`.
pub(crate) const MATE: i32 = 1_000_000;
/// Scores beyond this (either way) are won or lost.
pub(crate) const MATE_BOUND: i32 = MATE - 1_000;

/// How long the search may run.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Limits {
    /// The most nodes (positions visited, quiescence included).
    pub nodes: u64,
    /// When to stop, if at all.
    pub deadline: Option<Instant>,
}

impl Limits {
    /// These limits with at most `nodes` nodes: a forced turn is still searched a little,
    /// for its value.
    pub(crate) fn capped(self, nodes: u64) -> Limits {
        Limits { nodes: self.nodes.min(nodes), ..self }
    }

    /// Whether the deadline has passed (never, without one).
    pub(crate) fn past_deadline(&self) -> bool {
        self.deadline.is_some_and(|deadline| Instant::now() >= deadline)
    }
}

/// Two killer turns a ply: quiet turns that cut the search off at that ply lately, tried
/// early at the same ply elsewhere in the tree.
#[derive(Debug, Clone)]
pub(crate) struct Killers<T> {
    plies: Vec<[Option<T>; 2]>,
}

impl<T: Copy + PartialEq> Killers<T> {
    /// No killers yet, for plies `0..=max_ply` (deeper plies share the last one's).
    pub(crate) fn new(max_ply: usize) -> Killers<T> {
        Killers { plies: vec![[None; 2]; max_ply + 1] }
    }

    /// The killers of `ply`, the latest first.
    pub(crate) fn at(&self, ply: usize) -> [Option<T>; 2] {
        self.plies[ply.min(self.plies.len() - 1)]
    }

    /// Whether `turn` is one of the killers of `ply`.
    pub(crate) fn contains(&self, ply: usize, turn: T) -> bool {
        self.at(ply).contains(&Some(turn))
    }

    /// Records that `turn` cut the search off at `ply`: it becomes the latest killer, and
    /// the latest becomes the older (unless `turn` already was the latest).
    pub(crate) fn remember(&mut self, ply: usize, turn: T) {
        let last = self.plies.len() - 1;
        let slot = &mut self.plies[ply.min(last)];
        if slot[0] != Some(turn) {
            slot[1] = slot[0];
            slot[0] = Some(turn);
        }
    }
}

/// A node's search window and the best score found there so far (fail-soft: the best may
/// lie outside the window).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Window {
    /// The score the side to move is already sure of.
    pub alpha: i32,
    /// The score above which the opponent avoids this node.
    pub beta: i32,
    /// The best score of the turns searched so far.
    pub best: i32,
}

impl Window {
    /// Takes a turn's score: the best and alpha rise to it. Returns whether the node is
    /// cut off (alpha reached beta: the other turns need no search).
    pub(crate) fn raise(&mut self, score: i32) -> bool {
        self.best = self.best.max(score);
        self.alpha = self.alpha.max(score);
        self.alpha >= self.beta
    }
}

/// A game's searcher, as the root sees it.
pub(crate) trait Deepen {
    /// A position after one of the root's turns (with whatever the game's search needs
    /// of it).
    type Child;

    /// The score of `child` for the side to move at the root: the child searched `depth`
    /// plies deep in the window (`alpha`, `beta`) of the root's side. Once the search is
    /// stopped the score means nothing.
    fn score(&mut self, child: &Self::Child, depth: i32, alpha: i32, beta: i32) -> i32;

    /// The nodes visited so far.
    fn nodes(&self) -> u64;

    /// Whether the limits are reached.
    fn stopped(&self) -> bool;
}

/// The root's turns to deepen over.
pub(crate) struct Root<C> {
    /// The position after each of the root's turns, in the order of the result (`None`
    /// for a turn the game refused: it is never searched).
    pub children: Vec<Option<C>>,
    /// The children's indices in the order the first iteration searches them.
    pub order: Vec<usize>,
    /// The score to report if not even the first iteration ends (the position's
    /// evaluation).
    pub guess: i32,
    /// Iterations go up to this depth, not included.
    pub max_depth: i32,
    /// Whether to stop after the first iteration (a forced turn).
    pub one_iteration: bool,
}

/// What deepening found.
pub(crate) struct Deepened {
    /// The chosen child.
    pub best: usize,
    /// Its score.
    pub score: i32,
    /// The nodes spent on each child, over all the iterations.
    pub spent: Vec<u64>,
    /// Each child's last score (0 if never searched to the end); only the chosen child's is
    /// exact, the others' are bounds.
    pub scores: Vec<i32>,
}

/// Searches the root by iterative deepening until `searcher` stops, a win or loss is
/// proven, or the depths run out. Each iteration searches the previous best child first
/// with the full window and the others with a null window, searching one again in full
/// only when it beats the best so far.
pub(crate) fn deepen<S: Deepen>(searcher: &mut S, root: Root<S::Child>) -> Deepened {
    let Root { children, mut order, guess, max_depth, one_iteration } = root;
    let mut spent = vec![0u64; children.len()];
    let mut scores = vec![0i32; children.len()];
    let mut chosen = (order[0], guess);
    for depth in 1..max_depth {
        let (mut alpha, beta) = (-MATE - 1, MATE + 1);
        let mut best_here: Option<(usize, i32)> = None;
        for (n, &i) in order.iter().enumerate() {
            let Some(child) = &children[i] else { continue };
            let before = searcher.nodes();
            let score = if n == 0 {
                searcher.score(child, depth - 1, alpha, beta)
            } else {
                let probe = searcher.score(child, depth - 1, alpha, alpha + 1);
                if probe > alpha && !searcher.stopped() { searcher.score(child, depth - 1, alpha, beta) } else { probe }
            };
            spent[i] += searcher.nodes() - before;
            if searcher.stopped() {
                break;
            }
            scores[i] = score;
            if score > alpha {
                alpha = score;
                best_here = Some((i, score));
            }
        }
        // A turn that beat the previous best in a full search stands even if the
        // iteration was cut short: the previous best was searched first.
        if let Some((i, score)) = best_here {
            chosen = (i, score);
            let at = order.iter().position(|&j| j == i).unwrap_or(0);
            order[..=at].rotate_right(1);
        }
        if searcher.stopped() || chosen.1.abs() > MATE_BOUND || one_iteration {
            break;
        }
    }
    Deepened { best: chosen.0, score: chosen.1, spent, scores }
}

/// The expected result (0 lost, 1 won) of a score for the side to move, by a logistic
/// with `scale` units of score a unit; a proven win or loss is exactly 1 or 0.
pub(crate) fn expected(score: i32, scale: f64) -> f64 {
    if score > MATE_BOUND {
        1.0
    } else if score < -MATE_BOUND {
        0.0
    } else {
        1.0 / (1.0 + (-f64::from(score) / scale).exp())
    }
}

/// The bot's result of a deepened root whose turns are `turns` (in the children's order):
/// every turn with the nodes spent on it (as "visits") and its last score as a value; the
/// chosen one's proven when its score is a win or a loss.
pub(crate) fn result(turns: &[Turn], deepened: Deepened, scale: f64, nodes: u64, started: Instant) -> SearchResult {
    let Deepened { best, score, spent, scores } = deepened;
    let proven = if score > MATE_BOUND {
        Some(Proof::Win)
    } else if score < -MATE_BOUND {
        Some(Proof::Loss)
    } else {
        None
    };
    let root = turns
        .iter()
        .enumerate()
        .map(|(i, &turn)| {
            let proven = if i == best { proven } else { None };
            RootTurn { turn, visits: spent[i], value: expected(scores[i], scale), proven }
        })
        .collect();
    SearchResult {
        turn: turns[best],
        value: expected(score, scale),
        nodes,
        elapsed: started.elapsed().max(Duration::from_nanos(1)),
        proven,
        root,
    }
}
