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

use crate::level::Level;
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

/// One turn of the side to move, as the search saw it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RootTurn {
    /// The turn.
    pub turn: Turn,
    /// How many playouts went through this turn, all threads together.
    pub visits: u64,
    /// The mean result for the side to move after this turn (1 win, 0.5 draw, 0 loss).
    pub value: f64,
    /// `Some` when the search proved the outcome after this turn.
    pub proven: Option<Proof>,
}

/// A result the search proved, for the side that made the turn.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Proof {
    /// The side that made the turn wins, whatever the opponent does.
    Win,
    /// Best play on both sides leads to a draw.
    Draw,
    /// The side that made the turn loses, whatever it does.
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
    /// The turn to play: a proven win if there is one, else the most visited turn (a proven
    /// loss only when every turn is one).
    pub turn: Turn,
    /// The expected score of the side to move, from 0 (lost) through 0.5 (even) to 1 (won).
    pub value: f64,
    /// Playouts made (tree nodes added), all threads together.
    pub nodes: u64,
    /// The wall-clock time the search took.
    pub elapsed: Duration,
    /// `Some` when the outcome of `turn` is proven (a forced win, draw or loss).
    pub proven: Option<Proof>,
    /// Every legal turn with its statistics, in the engine's order.
    pub root: Vec<RootTurn>,
}

/// Searches the position and returns the turn to play; `None` when the game is over.
///
/// Go with a set whose pieces act like stones is searched on the playout board
/// ([`FastGo`](crate::fastgo::FastGo)) with RAVE and priors, every other game with UCT
/// on the engine's board; from hard's budget on, iChess and Chogo by alpha-beta and Chego
/// and Gess with hard's knowledge ([`Method::Current`]).
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

fn search_on(game: &AnyGame, config: &SearchConfig, method: Method) -> Option<SearchResult> {
    search_keeping(game, config, method, None).map(|(result, _)| result)
}

/// A Monte Carlo search tree kept after a search ([`search_reusing`]), so that the next
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
        self.tree.nodes.len()
    }

    /// The subtree after `turn`, one of the root's turns, as a tree of its own: what the
    /// next search after `turn` would start from anyway (its result is the same whether it
    /// is given this tree or the whole one with `turn` in front of its turns since), kept
    /// without the other turns' subtrees while the opponent thinks. `None` when the tree
    /// has not searched `turn` or the game ends with it.
    #[must_use]
    pub fn after(self, turn: Turn) -> Option<KeptTree> {
        let mut position = self.tree.root_game.clone();
        if !position.play(turn) {
            return None;
        }
        let turns = position.legal_turns();
        let KeptTree { tree, method, strong } = self;
        tree.rerooted(&[turn], &turns).map(|tree| KeptTree { tree, method, strong })
    }

    /// About how many bytes the tree's nodes take, with their lists of turns and children
    /// and their AMAF tables: what a cache of kept trees bounds (a leaf on a large board
    /// holds hundreds of untried turns, so nodes alone say little about memory).
    #[must_use]
    pub fn memory(&self) -> usize {
        let held = |node: &Node| {
            node.untried.capacity() * size_of::<Turn>()
                + node.children.capacity() * size_of::<usize>()
                + node.amaf.as_ref().map_or(0, |table| size_of_val(&**table))
        };
        size_of::<KeptTree>()
            + self.tree.nodes.capacity() * size_of::<Node>()
            + self.tree.nodes.iter().map(held).sum::<usize>()
    }
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
            return crate::alphabeta::search(ichess, crate::alphabeta::Limits { nodes, deadline }, started)
                .map(|result| (result, None));
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
        return crate::chogo_ab::search(chogo, crate::alphabeta::Limits { nodes, deadline }, started)
            .map(|result| (result, None));
    }
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
    // Hard's knowledge of Chego, Gess and Chogo: from hard's budget on (see Tree::strong).
    let strong = match method {
        Method::Strong => true,
        Method::Current => config.budget.nodes.is_none_or(|n| n >= Level::Hard.nodes(game.kind())),
        _ => false,
    };
    // Easy and medium keep the light playouts they were measured with (see HEAVY_FROM_NODES).
    let method = match method {
        Method::Current if config.budget.nodes.is_some_and(|n| n < HEAVY_FROM_NODES) => Method::RaveLight,
        other => other,
    };
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
    /// All-moves-as-first statistics of the side to move here, `[wins, visits]` by board
    /// index, seeded with the priors; made once the node has [`RAVE_FROM_VISITS`] visits
    /// (RAVE searches only).
    amaf: Option<Box<[[f32; 2]]>>,
}

/// A node gets its AMAF table (and chooses among its turns by it) from this many visits:
/// before that it tries its turns in order, as plain UCT does.
const RAVE_FROM_VISITS: u64 = 3;
/// RAVE's equivalence parameter: at this many visits a child's own mean and its AMAF
/// mean weigh about the same (β = sqrt(k / (3n + k))).
const RAVE_EQUIVALENCE: f64 = 600.0;
/// The exploration constant with RAVE, smaller than plain UCT's: AMAF already spreads
/// the visits.
const RAVE_EXPLORATION: f64 = 0.2;

/// Which search to run: the bot's, or an earlier one kept as a baseline for measurements.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Method {
    /// The bot's search: in go with a stone-like set, the playout board, with RAVE (all
    /// moves as first) and priors for captures, ataris, saving moves and self-ataris;
    /// elsewhere as [`Method::PlainUct`], except that from hard's budget on (and with a
    /// time and no node limit) iChess and Chogo are searched by alpha-beta (Chogo:
    /// `chogo_ab.rs`, with [`CHOGO_ALPHA_BETA_NODES_PER_NODE`] times the nodes) and Chego
    /// and Gess with hard's knowledge, as [`Method::Strong`] does.
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

#[derive(Debug)]
struct Tree {
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
    /// A tree for `game`, searched by `method`.
    fn new(game: &AnyGame, turns: &[Turn], mut rng: ChaCha8Rng, method: Method, strong: bool) -> Tree {
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
    fn rerooted(mut self, since: &[Turn], turns: &[Turn]) -> Option<Tree> {
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

    fn run(&mut self, nodes: u64, deadline: Option<Instant>) -> RootStats {
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

/// Virtual `[wins, visits]` an AMAF table starts with, for the side to move: captures,
/// saving an own chain in atari and ataris look good, self-ataris and filling an own eye
/// bad, the rest even (with little weight).
///
/// With `shapes` (the bot's search), a drop that matches one of go's 3x3 shapes looks
/// somewhat good, and one on the first line with nothing tactical about it somewhat bad.
fn priors(game: &Position, shapes: bool) -> Option<Box<[[f32; 2]]>> {
    let go = match game {
        Position::Go(go) => go,
        // Chego: nothing known before the playouts; every drop starts even, lightly.
        Position::Engine(_) => return game.rave_size().map(|size| vec![[0.5f32, 1.0]; size].into_boxed_slice()),
    };
    let mover = go.to_move()?;
    let mut table = vec![[0.0f32; 2]; go.square_count()];
    for square in go.squares() {
        let Some(at) = go.index_of(square) else { continue };
        let Some(tactics) = go.tactics(square) else { continue };
        let (mean, weight) = if tactics.captures {
            (0.9, 10.0)
        } else if tactics.saves {
            (0.8, 10.0)
        } else if go.fills_own_eye(square, mover) {
            (0.05, 20.0)
        } else if tactics.self_atari {
            (0.15, 10.0)
        } else if tactics.ataris {
            (0.65, 6.0)
        } else if shapes && go.shape_at(square) {
            (0.6, 6.0)
        } else if shapes && go.on_first_line(square) {
            (0.35, 6.0)
        } else {
            (0.5, 3.0)
        };
        table[at] = [mean * weight, weight];
    }
    Some(table.into_boxed_slice())
}

/// White's result when `mover` has this proven result.
fn white_value_of(proof: Proof, mover: Color) -> f64 {
    if mover == Color::White { proof.value() } else { 1.0 - proof.value() }
}
