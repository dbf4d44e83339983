//! Monte Carlo tree search (UCT) over any game, with a small solver for proven results.
//!
//! Each iteration walks down the tree by the UCT rule, adds one child, scores it by a
//! playout cut off and evaluated by [`knowledge`](crate::knowledge), and backs the score up.
//! Children whose game is over carry an exact result (a *proof*); a position where the side
//! to move has a winning child is lost for the side that moved into it, and one whose
//! children are all lost is won. That finds short mates and king captures that averages
//! would only approach.
//!
//! Several threads search separate trees (root parallelism), each with its own random
//! stream and a fixed share of the nodes; their root statistics are merged in thread order,
//! so a seed, a node budget and a thread count always give the same answer.

use std::time::{Duration, Instant};

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use stonemate_engine::{AnyGame, Color, Outcome, Turn};

use crate::position::Position;

/// The exploration constant of UCT, for rewards in `[0, 1]`.
const EXPLORATION: f64 = 0.7;
/// A search with no node limit stops at this many nodes per thread all the same, so that
/// memory stays bounded whatever the time limit.
const MAX_NODES_PER_THREAD: u64 = 200_000;
/// A forced turn is still searched a little, for its value.
const FORCED_TURN_NODES: u64 = 64;

/// How long a search may run: a number of nodes (playouts), a time, or both (whichever
/// comes first). Without either, it stops at a fixed safety limit of nodes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Budget {
    pub nodes: Option<u64>,
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
    pub budget: Budget,
    pub seed: u64,
    /// Threads, each with its own tree; 0 counts as 1.
    pub threads: usize,
}

impl SearchConfig {
    #[must_use]
    pub fn new(budget: Budget, seed: u64) -> SearchConfig {
        SearchConfig { budget, seed, threads: 1 }
    }
}

/// One turn of the side to move, as the search saw it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RootTurn {
    pub turn: Turn,
    pub visits: u64,
    /// The mean result for the side to move after this turn (1 win, 0.5 draw, 0 loss).
    pub value: f64,
    /// `Some` when the search proved the outcome after this turn.
    pub proven: Option<Proof>,
}

/// A result the search proved, for the side that made the turn.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Proof {
    Win,
    Draw,
    Loss,
}

impl Proof {
    fn value(self) -> f64 {
        match self {
            Proof::Win => 1.0,
            Proof::Draw => 0.5,
            Proof::Loss => 0.0,
        }
    }

    fn of(outcome: Outcome, mover: Color) -> Proof {
        match outcome {
            Outcome::Draw => Proof::Draw,
            Outcome::Winner(winner) if winner == mover => Proof::Win,
            Outcome::Winner(_) => Proof::Loss,
        }
    }
}

/// The turn the search chose, and what it knows.
#[derive(Debug, Clone, PartialEq)]
pub struct SearchResult {
    pub turn: Turn,
    /// The expected score of the side to move, from 0 (lost) through 0.5 (even) to 1 (won).
    pub value: f64,
    /// Playouts made (tree nodes added), all threads together.
    pub nodes: u64,
    pub elapsed: Duration,
    /// `Some` when the outcome of `turn` is proven (a forced win, draw or loss).
    pub proven: Option<Proof>,
    /// Every legal turn with its statistics, in the engine's order.
    pub root: Vec<RootTurn>,
}

/// Searches the position and returns the turn to play; `None` when the game is over.
///
/// Go with a set whose pieces act like stones is searched on the playout board
/// ([`FastGo`](crate::fastgo::FastGo)), every other game on the engine's.
#[must_use]
pub fn search(game: &AnyGame, config: &SearchConfig) -> Option<SearchResult> {
    search_on(game, config, true)
}

/// The same search on the engine's own board in every game, as it ran before the playout
/// board existed: the baseline that measurements of the playout board's gain compare with
/// (`ai/examples/playout_speed.rs`). Slower, never stronger for a given node budget.
#[must_use]
pub fn search_on_engine(game: &AnyGame, config: &SearchConfig) -> Option<SearchResult> {
    search_on(game, config, false)
}

fn search_on(game: &AnyGame, config: &SearchConfig, fast: bool) -> Option<SearchResult> {
    let started = Instant::now();
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
    let results: Vec<RootStats> = if threads == 1 {
        vec![Tree::new(game, &turns, thread_rng(config.seed, 0), fast).run(shares[0], deadline)]
    } else {
        std::thread::scope(|scope| {
            let handles: Vec<_> = shares
                .iter()
                .enumerate()
                .map(|(t, &share)| {
                    let turns = &turns;
                    scope.spawn(move || {
                        Tree::new(game, turns, thread_rng(config.seed, t as u64), fast).run(share, deadline)
                    })
                })
                .collect();
            // A thread that panicked contributes nothing; the others still decide.
            handles.into_iter().filter_map(|handle| handle.join().ok()).collect()
        })
    };
    Some(merge(&turns, &results, started.elapsed()))
}

fn thread_rng(seed: u64, thread: u64) -> ChaCha8Rng {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    rng.set_stream(thread);
    rng
}

/// One thread's statistics for each root turn (by its index in the legal list).
#[derive(Debug)]
struct RootStats {
    visits: Vec<u64>,
    wins: Vec<f64>,
    proofs: Vec<Option<Proof>>,
    nodes: u64,
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

#[derive(Debug)]
struct Node {
    turn: Turn,
    /// Index of the turn in the root's legal list (root children only).
    root_index: usize,
    /// Who made `turn`; the results below are from this side's point of view.
    mover: Color,
    visits: u64,
    wins: f64,
    proof: Option<Proof>,
    untried: Vec<Turn>,
    children: Vec<usize>,
}

#[derive(Debug)]
struct Tree {
    root_game: Position,
    root_turns: Vec<Turn>,
    nodes: Vec<Node>,
    rng: ChaCha8Rng,
}

impl Tree {
    /// A tree for `game`, on the playout board when `fast` and the game allows it.
    fn new(game: &AnyGame, turns: &[Turn], mut rng: ChaCha8Rng, fast: bool) -> Tree {
        let to_move = game.to_move().unwrap_or(Color::White);
        let position = if fast { Position::new(game) } else { Position::Engine(Box::new(game.clone())) };
        let untried = position.order_turns(turns.to_vec(), &mut rng);
        let root = Node {
            turn: Turn::Pass,
            root_index: 0,
            mover: to_move.other(),
            visits: 0,
            wins: 0.0,
            proof: None,
            untried,
            children: Vec::new(),
        };
        Tree { root_game: position, root_turns: turns.to_vec(), nodes: vec![root], rng }
    }

    fn run(mut self, nodes: u64, deadline: Option<Instant>) -> RootStats {
        let limit = nodes.min(MAX_NODES_PER_THREAD);
        let mut done = 0;
        while done < limit && self.nodes[0].proof.is_none() {
            // A look at the clock costs far less than one playout: look before every node.
            if deadline.is_some_and(|deadline| Instant::now() >= deadline) {
                break;
            }
            self.iterate();
            done += 1;
        }
        self.root_stats(done)
    }

    fn root_stats(&self, done: u64) -> RootStats {
        let n = self.root_turns.len();
        let mut stats = RootStats { visits: vec![0; n], wins: vec![0.0; n], proofs: vec![None; n], nodes: done };
        for &child in &self.nodes[0].children {
            let node = &self.nodes[child];
            stats.visits[node.root_index] = node.visits;
            stats.wins[node.root_index] = node.wins;
            stats.proofs[node.root_index] = node.proof;
        }
        stats
    }

    fn iterate(&mut self) {
        let mut game = self.root_game.clone();
        let mut path = vec![0];
        let mut node = 0;
        let white_value = loop {
            if let Some(proof) = self.nodes[node].proof {
                break white_value_of(proof, self.nodes[node].mover);
            }
            if !self.nodes[node].untried.is_empty() {
                match self.expand(node, &mut game) {
                    Some(child) => {
                        path.push(child);
                        break match self.nodes[child].proof {
                            Some(proof) => white_value_of(proof, self.nodes[child].mover),
                            None => game.rollout(&mut self.rng),
                        };
                    }
                    None => continue,
                }
            }
            match self.select(node) {
                Some(child) if game.play(self.nodes[child].turn) => {
                    node = child;
                    path.push(child);
                }
                // No children and nothing untried: only a refused turn can lead here.
                _ => break game.evaluate(),
            }
        };
        for &index in &path {
            let node = &mut self.nodes[index];
            node.visits += 1;
            node.wins += if node.mover == Color::White { white_value } else { 1.0 - white_value };
        }
        for &index in path.iter().rev().skip(1) {
            if self.nodes[index].proof.is_some() || !self.prove(index) {
                break;
            }
        }
    }

    /// Plays one untried turn from `node` and adds its child; `None` if the engine refused
    /// it (the turn is dropped and the game is unchanged).
    fn expand(&mut self, node: usize, game: &mut Position) -> Option<usize> {
        let turn = self.nodes[node].untried.pop()?;
        if self.nodes[node].untried.is_empty() {
            // Fully expanded: give the list's memory back.
            self.nodes[node].untried = Vec::new();
        }
        let mover = game.to_move()?;
        if !game.play(turn) {
            return None;
        }
        let (proof, untried) = match game.outcome() {
            Some(outcome) => (Some(Proof::of(outcome, mover)), Vec::new()),
            None => (None, game.order_turns(game.legal_turns(), &mut self.rng)),
        };
        let root_index = if node == 0 { self.root_turns.iter().position(|&t| t == turn).unwrap_or(0) } else { 0 };
        let child = self.nodes.len();
        self.nodes.push(Node { turn, root_index, mover, visits: 0, wins: 0.0, proof, untried, children: Vec::new() });
        self.nodes[node].children.push(child);
        Some(child)
    }

    /// The child to descend into: a proven win at once, proven losses never (unless there
    /// is nothing else), otherwise the UCT rule.
    fn select(&self, node: usize) -> Option<usize> {
        let log_n = (self.nodes[node].visits.max(1) as f64).ln();
        let score = |child: usize| {
            let c = &self.nodes[child];
            match c.proof {
                Some(Proof::Win) => f64::INFINITY,
                Some(Proof::Loss) => f64::NEG_INFINITY,
                Some(Proof::Draw) => 0.5,
                None => c.wins / c.visits.max(1) as f64 + EXPLORATION * (log_n / c.visits.max(1) as f64).sqrt(),
            }
        };
        let mut best: Option<(usize, f64)> = None;
        for &child in &self.nodes[node].children {
            let s = score(child);
            if best.is_none_or(|(_, b)| s > b) {
                best = Some((child, s));
            }
        }
        best.map(|(child, _)| child)
    }

    /// Decides `node` from its children's proofs, if they decide it; says whether it did.
    fn prove(&mut self, node: usize) -> bool {
        let children = &self.nodes[node].children;
        let proofs: Vec<Option<Proof>> = children.iter().map(|&c| self.nodes[c].proof).collect();
        // The children are turns of the side to move here: one winning turn decides it.
        let proof = if proofs.contains(&Some(Proof::Win)) {
            Some(Proof::Loss)
        } else if !proofs.is_empty() && self.nodes[node].untried.is_empty() && proofs.iter().all(Option::is_some) {
            if proofs.contains(&Some(Proof::Draw)) { Some(Proof::Draw) } else { Some(Proof::Win) }
        } else {
            None
        };
        self.nodes[node].proof = proof;
        proof.is_some()
    }
}

/// White's result when `mover` has this proven result.
fn white_value_of(proof: Proof, mover: Color) -> f64 {
    if mover == Color::White { proof.value() } else { 1.0 - proof.value() }
}
