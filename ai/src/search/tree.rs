//! One thread's Monte Carlo search tree (UCT, and RAVE where the playouts say which
//! squares were played): each iteration walks down the tree by the UCT rule, adds one
//! child, scores it by a playout cut off and evaluated by [`knowledge`](crate::knowledge),
//! and backs the score up. Children whose game is over carry an exact result (a *proof*);
//! a position where the side to move has a winning child is lost for the side that moved
//! into it, and one whose children are all lost is won. That finds short mates and king
//! captures that averages would only approach.

use std::time::Instant;

use rand_chacha::ChaCha8Rng;
use stonemate_engine::{AnyGame, Color, Turn};

use super::config::{MAX_NODES_PER_THREAD, Method};
use super::priors::priors;
use super::result::Proof;
use crate::position::Position;

/// The exploration constant of UCT, for rewards in `[0, 1]`.
const EXPLORATION: f64 = 0.7;

/// A node gets its AMAF table (and chooses among its turns by it) from this many visits:
/// before that it tries its turns in order, as plain UCT does.
const RAVE_FROM_VISITS: u64 = 3;
/// RAVE's equivalence parameter: at this many visits a child's own mean and its AMAF
/// mean weigh about the same (β = sqrt(k / (3n + k))).
const RAVE_EQUIVALENCE: f64 = 600.0;
/// The exploration constant with RAVE, smaller than plain UCT's: AMAF already spreads
/// the visits.
const RAVE_EXPLORATION: f64 = 0.2;

/// One thread's statistics for each root turn (by its index in the legal list).
#[derive(Debug)]
pub(super) struct RootStats {
    pub(super) visits: Vec<u64>,
    pub(super) wins: Vec<f64>,
    pub(super) proofs: Vec<Option<Proof>>,
    /// Nodes added by this thread.
    pub(super) nodes: u64,
}

/// A node of the tree: the turn that led to it and what the iterations through it found.
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
    /// All-moves-as-first statistics of the side to move here, `[wins, visits]` by board
    /// index, seeded with the priors; made once the node has [`RAVE_FROM_VISITS`] visits
    /// (RAVE searches only).
    amaf: Option<Box<[[f32; 2]]>>,
}

/// One thread's search tree: its nodes in one vector (children by index), the root's
/// position and turns, and the thread's random stream.
#[derive(Debug)]
pub(super) struct Tree {
    root_game: Position,
    root_turns: Vec<Turn>,
    nodes: Vec<Node>,
    rng: ChaCha8Rng,
    /// Whether this tree uses RAVE (go on the playout board, [`Method::Current`] and
    /// [`Method::RaveLight`]).
    rave: bool,
    /// Whether Chego, Gess and Chogo are searched with hard's knowledge: the order of a
    /// node's turns and the playouts of `knowledge::strong_rollout`.
    strong: bool,
    /// Whether playouts use the heavy policy and priors know go's shapes
    /// ([`Method::Current`]).
    heavy: bool,
    /// The turns of the current iteration from the root, tree and playout: the mover's
    /// colour index and the board index (`None` for a pass). RAVE only.
    sequence: Vec<(u8, Option<u16>)>,
    /// Scratch for the AMAF update: by board index, 1 + the colour index of the first
    /// player to play there from the current point of the sequence on, or 0.
    first: Vec<u8>,
}

impl Tree {
    /// The nodes the tree holds.
    pub(super) fn node_count(&self) -> usize {
        self.nodes.len()
    }

    /// The subtree after `turn`, one of the root's turns, as a tree of its own; `None`
    /// when the tree has not searched `turn` or the game ends with it.
    pub(super) fn after(self, turn: Turn) -> Option<Tree> {
        let mut position = self.root_game.clone();
        if !position.play(turn) {
            return None;
        }
        let turns = position.legal_turns();
        self.rerooted(&[turn], &turns)
    }

    /// About how many bytes the nodes take, with their lists of turns and children and
    /// their AMAF tables.
    pub(super) fn memory(&self) -> usize {
        let held = |node: &Node| {
            node.untried.capacity() * size_of::<Turn>()
                + node.children.capacity() * size_of::<usize>()
                + node.amaf.as_ref().map_or(0, |table| size_of_val(&**table))
        };
        self.nodes.capacity() * size_of::<Node>() + self.nodes.iter().map(held).sum::<usize>()
    }
    /// A tree for `game`, searched by `method`.
    pub(super) fn new(game: &AnyGame, turns: &[Turn], mut rng: ChaCha8Rng, method: Method, strong: bool) -> Tree {
        let to_move = game.to_move().unwrap_or(Color::White);
        let position = match method {
            Method::Baseline => Position::Engine(Box::new(game.clone())),
            Method::Current | Method::Strong | Method::PlainUct | Method::RaveLight => Position::new(game),
        };
        let untried = position.order_turns(turns.to_vec(), &mut rng, strong);
        let root = Node {
            turn: Turn::Pass,
            root_index: 0,
            mover: to_move.other(),
            visits: 0,
            wins: 0.0,
            proof: None,
            untried,
            children: Vec::new(),
            amaf: None,
        };
        let (rave, squares) = match &position {
            Position::Go(go) if matches!(method, Method::Current | Method::Strong | Method::RaveLight) => {
                (true, go.square_count())
            }
            // Hard's Chego: RAVE over its drops (a role on a square), whose value depends
            // little on when they are played.
            Position::Engine(_) if strong => position.rave_size().map_or((false, 0), |size| (true, size)),
            _ => (false, 0),
        };
        Tree {
            root_game: position,
            root_turns: turns.to_vec(),
            nodes: vec![root],
            rng,
            rave,
            strong,
            heavy: matches!(method, Method::Current | Method::Strong),
            sequence: Vec::new(),
            first: vec![0; squares],
        }
    }

    /// The subtree reached from the root by `since` (turns the tree has searched), as a
    /// tree of its own whose root's turns are `turns`; `None` when the tree does not know
    /// the turns, the position they reach has other turns than `turns`, or the subtree is
    /// too big to keep growing.
    pub(super) fn rerooted(mut self, since: &[Turn], turns: &[Turn]) -> Option<Tree> {
        let mut node = 0;
        let mut position = self.root_game.clone();
        for &turn in since {
            node = *self.nodes[node].children.iter().find(|&&child| self.nodes[child].turn == turn)?;
            if !position.play(turn) {
                return None;
            }
        }
        let legal = position.legal_turns();
        if position.to_move().is_none() || legal.len() != turns.len() || !legal.iter().all(|turn| turns.contains(turn))
        {
            return None;
        }
        // The subtree in breadth-first order: the new root first.
        let mut new_index = vec![usize::MAX; self.nodes.len()];
        let mut order = vec![node];
        new_index[node] = 0;
        let mut next = 0;
        while next < order.len() {
            for &child in &self.nodes[order[next]].children {
                new_index[child] = order.len();
                order.push(child);
            }
            next += 1;
        }
        if order.len() as u64 > MAX_NODES_PER_THREAD {
            return None;
        }
        let mut old: Vec<Option<Node>> = std::mem::take(&mut self.nodes).into_iter().map(Some).collect();
        let mut nodes = Vec::with_capacity(order.len());
        for &at in &order {
            let mut moved = old[at].take()?;
            moved.children = moved.children.iter().map(|&child| new_index[child]).collect();
            nodes.push(moved);
        }
        for &child in &nodes[0].children.clone() {
            let turn = nodes[child].turn;
            nodes[child].root_index = turns.iter().position(|&t| t == turn).unwrap_or(0);
        }
        Some(Tree { root_game: position, root_turns: turns.to_vec(), nodes, ..self })
    }

    /// Searches `nodes` more nodes (at most [`MAX_NODES_PER_THREAD`]) or until `deadline`
    /// or the root is proven, and returns the root's statistics.
    pub(super) fn run(&mut self, nodes: u64, deadline: Option<Instant>) -> RootStats {
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
        self.sequence.clear();
        let white_value = loop {
            if let Some(proof) = self.nodes[node].proof {
                break white_value_of(proof, self.nodes[node].mover);
            }
            if self.rave && self.nodes[node].amaf.is_none() && self.nodes[node].visits >= RAVE_FROM_VISITS {
                self.nodes[node].amaf = priors(&game, self.heavy);
            }
            let step = if self.nodes[node].amaf.is_some() {
                self.choose_rave(node, &game)
            } else if !self.nodes[node].untried.is_empty() {
                Step::Expand(self.nodes[node].untried.len() - 1)
            } else {
                self.select(node).map_or(Step::Nothing, Step::Descend)
            };
            match step {
                Step::Expand(index) => match self.expand(node, index, &mut game) {
                    Some(child) => {
                        path.push(child);
                        self.note(child, &game);
                        break match self.nodes[child].proof {
                            Some(proof) => white_value_of(proof, self.nodes[child].mover),
                            None => self.rollout(&mut game),
                        };
                    }
                    None => continue,
                },
                Step::Descend(child) if game.play(self.nodes[child].turn) => {
                    node = child;
                    path.push(child);
                    self.note(child, &game);
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
        if self.rave {
            self.update_amaf(&path, white_value);
        }
        for &index in path.iter().rev().skip(1) {
            if self.nodes[index].proof.is_some() || !self.prove(index) {
                break;
            }
        }
    }

    /// Notes the turn of `child` (just played on `game`) in the iteration's sequence.
    fn note(&mut self, child: usize, game: &Position) {
        if self.rave {
            let node = &self.nodes[child];
            self.sequence.push((node.mover.index() as u8, game.turn_index(node.turn)));
        }
    }

    fn rollout(&mut self, game: &mut Position) -> f64 {
        match game {
            Position::Go(go) if self.rave => go.rollout_noting(&mut self.rng, &mut self.sequence, self.heavy),
            _ if self.strong => {
                let mut played = std::mem::take(&mut self.sequence);
                if !self.rave {
                    played.clear();
                }
                let value = game.strong_rollout(&mut self.rng, &mut played);
                self.sequence = played;
                value
            }
            _ => game.rollout(&mut self.rng),
        }
    }

    /// Adds the iteration's result to the AMAF tables along the path: at each node, for
    /// every square the side to move there played first from that point on (in the tree
    /// or the playout), as if it had played there at once.
    fn update_amaf(&mut self, path: &[usize], white_value: f64) {
        self.first.fill(0);
        let values = [white_value as f32, 1.0 - white_value as f32];
        for j in (0..self.sequence.len().max(path.len())).rev() {
            if let Some(&(mover, Some(at))) = self.sequence.get(j) {
                self.first[usize::from(at)] = mover + 1;
            }
            // The node at depth j chooses the turn at position j of the sequence.
            let Some(&index) = path.get(j) else { continue };
            let node = &mut self.nodes[index];
            let to_move = node.mover.other().index() as u8;
            let Some(amaf) = node.amaf.as_mut() else { continue };
            for (at, &first) in self.first.iter().enumerate() {
                if first == to_move + 1 {
                    amaf[at][0] += values[usize::from(to_move)];
                    amaf[at][1] += 1.0;
                }
            }
        }
    }

    /// RAVE's choice at a node with an AMAF table: the child or untried turn with the
    /// best blend of its own mean and its AMAF mean, plus a little exploration. An
    /// untried turn counts as visited once, with its AMAF mean alone. A pass that would end
    /// the game (`game` is the node's position) is tried first: its result is exact, and
    /// the solver needs it.
    fn choose_rave(&self, node: usize, game: &Position) -> Step {
        let parent = &self.nodes[node];
        let Some(amaf) = parent.amaf.as_deref() else { return Step::Nothing };
        let position = &self.root_game;
        let log_n = (parent.visits.max(1) as f64).ln();
        let amaf_mean = |turn: Turn| {
            position
                .turn_index(turn)
                .map(|at| amaf[usize::from(at)])
                .filter(|&[_, n]| n > 0.0)
                .map(|[w, n]| f64::from(w / n))
        };
        let mut best = (Step::Nothing, f64::NEG_INFINITY);
        for &child in &parent.children {
            let c = &self.nodes[child];
            let score = match c.proof {
                Some(Proof::Win) => f64::INFINITY,
                Some(Proof::Loss) => f64::NEG_INFINITY,
                Some(Proof::Draw) => 0.5,
                None => {
                    let n = c.visits.max(1) as f64;
                    let mean = c.wins / n;
                    let blended = match amaf_mean(c.turn) {
                        Some(a) => {
                            let beta = (RAVE_EQUIVALENCE / (3.0 * n + RAVE_EQUIVALENCE)).sqrt();
                            (1.0 - beta) * mean + beta * a
                        }
                        None => mean,
                    };
                    blended + RAVE_EXPLORATION * (log_n / n).sqrt()
                }
            };
            if score > best.1 || matches!(best.0, Step::Nothing) {
                best = (Step::Descend(child), score);
            }
        }
        let pass_ends = matches!(game, Position::Go(go) if go.passes_in_a_row() == 1);
        for (index, &turn) in parent.untried.iter().enumerate() {
            // Otherwise a pass has no square and no AMAF mean: it is tried once the drops
            // look bad.
            let score = match turn {
                Turn::Pass if pass_ends => f64::INFINITY,
                Turn::Pass => 0.1,
                _ => amaf_mean(turn).unwrap_or(0.5),
            } + RAVE_EXPLORATION * log_n.sqrt();
            if score > best.1 || matches!(best.0, Step::Nothing) {
                best = (Step::Expand(index), score);
            }
        }
        best.0
    }

    /// Plays the untried turn at `index` from `node` and adds its child; `None` if the
    /// engine refused it (the turn is dropped and the game is unchanged).
    fn expand(&mut self, node: usize, index: usize, game: &mut Position) -> Option<usize> {
        let turn = self.nodes[node].untried.swap_remove(index);
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
            None => (None, game.order_turns(game.legal_turns(), &mut self.rng, self.strong)),
        };
        let root_index = if node == 0 { self.root_turns.iter().position(|&t| t == turn).unwrap_or(0) } else { 0 };
        let child = self.nodes.len();
        self.nodes.push(Node {
            turn,
            root_index,
            mover,
            visits: 0,
            wins: 0.0,
            proof,
            untried,
            children: Vec::new(),
            amaf: None,
        });
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

/// What an iteration does at a node.
#[derive(Debug, Clone, Copy)]
enum Step {
    /// Add the untried turn at this index as a child, and play out from it.
    Expand(usize),
    /// Go down into this child.
    Descend(usize),
    /// Nothing to do: evaluate the position.
    Nothing,
}

/// White's result when `mover` has this proven result.
fn white_value_of(proof: Proof, mover: Color) -> f64 {
    if mover == Color::White { proof.value() } else { 1.0 - proof.value() }
}
