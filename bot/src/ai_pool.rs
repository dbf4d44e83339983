//! The bot player's worker: computes Stonemate's own turns off the command path.
//!
//! The service hands a [`Job`] to the [`Pool`] and goes on at once; a few worker threads
//! replay the game from its turn texts, ask [`stonemate_ai::decide`] (the search
//! `stonemate suggest` uses) and hand the [`Answer`] to a callback, which the service turns
//! into a stored turn, a resignation or a draw answer exactly as if a player had sent it.
//!
//! - A job equal to one already waiting or running (same game, same turn count, same
//!   question) is merged into it: one search, one answer.
//! - Every answer carries the turn count its job was computed for; the applier drops an
//!   answer whose game has moved on since (the pool cannot know, the store can).
//! - [`Pool::shutdown`] (also on drop) refuses new jobs, forgets waiting ones (a restart
//!   submits them again, since the bot is still to move), lets the running searches
//!   finish (each is bounded by its level's time limit) and joins the threads; no
//!   callback runs after it returns.
//! - The pool keeps the search tree of each game's last job, from the position after the
//!   bot's turn ([`KeptBound`] says how many and how large), and the game's next job starts
//!   from the subtree of the turns played since, when the kept tree's turn list is a
//!   prefix of the job's (same game kind and options). Any other tree (a takeback, another game under the same name) is dropped,
//!   never trusted. A job is therefore answered as `stonemate suggest` answers it, for the
//!   same seed and node budget, when the pool keeps nothing for its game (the first job, or
//!   after a restart); later ones as the same sequence of jobs in a fresh pool answers them.

use std::collections::{HashSet, VecDeque};
use std::fmt;
use std::hash::Hash;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::{Arc, Condvar, Mutex, MutexGuard, PoisonError};
use std::thread::JoinHandle;

use lru::LruCache;
use stonemate_ai::{Budget, Decision, KeptTree, Level, Question, SearchConfig, decide_reusing};
use stonemate_engine::go::DeadPieces;
use stonemate_engine::{AnyGame, GameKind, Turn};

/// A question for the bot about one game: everything the search needs, nothing shared.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Job<G> {
    /// The game, as the service names it.
    pub id: G,
    /// Which of the five games it is.
    pub kind: GameKind,
    /// The game's options as stored (key, value).
    pub options: Vec<(String, String)>,
    /// The turns played so far, as their texts; their count identifies the position.
    pub turns: Vec<String>,
    /// What the bot is asked.
    pub question: Question,
    /// How well the bot plays.
    pub level: Level,
    /// How long to search: the level's budget for the game unless a caller (a test, a
    /// tournament) sets another.
    pub budget: Budget,
    /// The same seed, position and node budget give the same answer (derive it from the
    /// game and the turn count, so that a restart thinks the same thoughts).
    pub seed: u64,
}

impl<G> Job<G> {
    /// A job at `level`'s own budget for `kind`.
    #[must_use]
    pub fn new(
        id: G,
        kind: GameKind,
        options: Vec<(String, String)>,
        turns: Vec<String>,
        question: Question,
        level: Level,
        seed: u64,
    ) -> Job<G> {
        Job { id, kind, options, turns, question, level, budget: level.budget(kind), seed }
    }

    /// The position the job was asked about: its turn count.
    #[must_use]
    pub fn turn_count(&self) -> usize {
        self.turns.len()
    }
}

/// What the bot decided for its seat (not a [`Reply`](crate::service::Reply), which answers a command).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BotDecision {
    /// A turn, as the engine has it: the service plays it as it is (it is never printed
    /// to be parsed again).
    Play(Turn),
    /// The bot resigns.
    Resign,
    /// The bot accepts the draw it was offered.
    AcceptDraw,
    /// The bot declines the draw it was offered.
    DeclineDraw,
    /// The pieces the bot judges dead, asked in go's counting phase (rule 10): the service
    /// accepts, proposes or resumes with it against the proposal standing then.
    Dead(DeadPieces),
}

/// Why a job has no reply. None of these should happen with a stored game; the service
/// logs them and leaves the game as it is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum JobError {
    /// The options do not make a game.
    Options(String),
    /// A turn of the record is unreadable or illegal.
    Record(String),
    /// The game is already over: nothing to answer.
    GameOver,
    /// The search panicked (a bug); the worker survived it.
    Panicked,
}

impl fmt::Display for JobError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            JobError::Options(message) => write!(f, "the game's options are refused: {message}"),
            JobError::Record(message) => write!(f, "the game's record does not replay: {message}"),
            JobError::GameOver => f.write_str("the game is over"),
            JobError::Panicked => f.write_str("the search panicked"),
        }
    }
}

impl std::error::Error for JobError {}

/// What comes back for a job.
#[derive(Debug, Clone, PartialEq)]
pub struct Answer<G> {
    /// The game, as the job named it.
    pub id: G,
    /// The turn count the job was computed for: apply only if the game still has it.
    pub turn_count: usize,
    /// The job's question.
    pub question: Question,
    /// The bot's decision, or why it has none.
    pub decision: Result<BotDecision, JobError>,
}

/// Whether [`Pool::submit`] took the job.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Submitted {
    /// Queued: an answer will come.
    Queued,
    /// The same job is already waiting or running: its answer serves both.
    Merged,
    /// The pool is shutting down.
    Refused,
}

/// Answers one job: replay, search, decide, from scratch (no kept tree). Runs on a
/// worker thread.
#[must_use]
pub fn answer<G: Clone>(job: &Job<G>, search_threads: usize) -> Answer<G> {
    answer_keeping(job, search_threads, None).0
}

/// [`answer`], starting from `kept` (the tree of the game's last job, checked here) and
/// returning the tree to keep and what the search reused.
fn answer_keeping<G: Clone>(
    job: &Job<G>,
    search_threads: usize,
    kept: Option<Kept>,
) -> (Answer<G>, Option<Kept>, Option<Reused>) {
    let (decision, tree, reused) = catch_unwind(AssertUnwindSafe(|| decision(job, search_threads, kept))).unwrap_or((
        Err(JobError::Panicked),
        None,
        None,
    ));
    let answer = Answer { id: job.id.clone(), turn_count: job.turn_count(), question: job.question, decision };
    (answer, tree, reused)
}

/// What one search took over from the kept tree.
#[derive(Debug, Clone, Copy)]
struct Reused {
    /// Whether the search started from a kept subtree.
    reused: bool,
    /// The playouts through the root's turns that the subtree brought (0 when fresh).
    visits: u64,
}

/// The decision, the tree to keep and what the search reused (`None` when nothing was
/// searched).
type Searched = (Result<BotDecision, JobError>, Option<Kept>, Option<Reused>);

fn decision<G>(job: &Job<G>, search_threads: usize, kept: Option<Kept>) -> Searched {
    // The kept tree serves only a job whose record extends the tree's: `prefix` turns are
    // the tree's, the rest (`since`) were played after its search.
    let prefix = kept.as_ref().filter(|kept| kept.serves(job)).map(|kept| kept.turns.len());
    let mut since = Vec::new();
    let mut readable = true;
    let mut index = 0;
    let replay = AnyGame::replay_seen(job.kind, &job.options, &job.turns, |game| {
        // `game` is the position before turn `index`.
        if prefix.is_some_and(|prefix| index >= prefix) && index < job.turns.len() {
            // An entry that is not a turn (go's `dead ...` agreement) cannot be followed
            // down a tree: the tree is dropped.
            match game.parse_turn(&job.turns[index]) {
                Ok(turn) => since.push(turn),
                Err(_) => readable = false,
            }
        }
        index += 1;
    });
    let replay = match replay {
        Ok(replay) => replay,
        Err(error) => return (Err(JobError::Options(error.to_string())), None, None),
    };
    if let Some(error) = replay.error {
        return (Err(JobError::Record(error.to_string())), None, None);
    }
    let position = replay.game;
    if let Question::Counting { .. } = job.question {
        let dead = stonemate_ai::judge_dead(&position, job.seed).map(BotDecision::Dead).ok_or(JobError::GameOver);
        return (dead, None, None);
    }
    let tree = kept.filter(|_| prefix.is_some() && readable).map(|kept| kept.tree);
    let reusing = tree.is_some();
    let config = SearchConfig { budget: job.budget, seed: job.seed, threads: search_threads };
    let Some((decided, tree)) = decide_reusing(&position, job.question, &config, tree, &since) else {
        return (Err(JobError::GameOver), None, None);
    };
    // A fresh search's root turns have exactly its own playouts; a reused one's also
    // those its subtree had.
    let visits = decided.result.root.iter().map(|turn| turn.visits).sum::<u64>().saturating_sub(decided.result.nodes);
    let reused = Reused { reused: reusing && visits > 0, visits };
    let mut turns = job.turns.clone();
    // What is kept: after the bot's turn, only that turn's subtree (the next job starts
    // there, the rest is dead weight; its text is the one the service stores); after a
    // declined draw, the whole tree; after resigning or a draw, nothing.
    let (decision, tree) = match decided.decision {
        Decision::Play(turn) => {
            turns.push(position.format_turn(turn));
            (BotDecision::Play(turn), tree.and_then(|tree| tree.after(turn)))
        }
        Decision::DeclineDraw => (BotDecision::DeclineDraw, tree),
        Decision::Resign => (BotDecision::Resign, None),
        Decision::AcceptDraw => (BotDecision::AcceptDraw, None),
    };
    let kept = tree.map(|tree| Kept::new(job, turns, tree));
    (Ok(decision), kept, Some(reused))
}

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

/// A game's kept tree and what it was searched for.
struct Kept {
    kind: GameKind,
    options: Vec<(String, String)>,
    /// The record the tree's root is the position of.
    turns: Vec<String>,
    tree: KeptTree,
    nodes: usize,
    bytes: usize,
}

impl Kept {
    /// The tree of `job`'s game whose root is the position after `turns`.
    fn new<G>(job: &Job<G>, turns: Vec<String>, tree: KeptTree) -> Kept {
        let (nodes, bytes) = (tree.node_count(), tree.memory());
        Kept { kind: job.kind, options: job.options.clone(), turns, tree, nodes, bytes }
    }

    /// Whether the tree was searched in the game `job` continues: same kind and options,
    /// and its record a prefix of the job's.
    fn serves<G>(&self, job: &Job<G>) -> bool {
        self.kind == job.kind && self.options == job.options && job.turns.starts_with(&self.turns)
    }
}

/// The kept trees, by game, least recently used first out.
struct Forest<G: Hash + Eq> {
    trees: LruCache<G, Kept>,
    bound: KeptBound,
    stats: ReuseStats,
}

impl<G: Hash + Eq> Forest<G> {
    fn new(bound: KeptBound) -> Forest<G> {
        // The bound is enforced by `keep`, which also counts bytes.
        Forest { trees: LruCache::unbounded(), bound, stats: ReuseStats::default() }
    }

    /// Takes the game's tree out (a job uses it up; whatever it is, it is not kept as it was).
    fn take(&mut self, id: &G) -> Option<Kept> {
        let kept = self.trees.pop(id)?;
        self.stats.kept_games -= 1;
        self.stats.kept_nodes -= kept.nodes;
        self.stats.kept_bytes -= kept.bytes;
        Some(kept)
    }

    /// Keeps a job's tree for its game, unless a tree of a later position is kept already
    /// (two jobs of the game ran at once), then evicts the least recently used trees until
    /// the bound holds.
    fn keep(&mut self, id: G, kept: Kept) {
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

    fn count(&mut self, reused: Reused) {
        self.stats.searches += 1;
        if reused.reused {
            self.stats.reused += 1;
            self.stats.reused_visits += reused.visits;
        }
    }
}

/// Receives every answer, on the worker thread that computed it: keep it short (send it
/// on to the service's task).
pub type Deliver<G> = Arc<dyn Fn(Answer<G>) + Send + Sync>;

/// The identity of a job for merging.
type JobKey<G> = (G, usize, Question);

fn key<G: Clone>(job: &Job<G>) -> JobKey<G> {
    (job.id.clone(), job.turn_count(), job.question)
}

struct State<G> {
    waiting: VecDeque<Job<G>>,
    /// Keys of the jobs waiting or running.
    known: HashSet<JobKey<G>>,
    closing: bool,
}

struct Shared<G: Hash + Eq> {
    state: Mutex<State<G>>,
    wake: Condvar,
    /// Apart from `state`: taking and keeping a tree never waits on the queue.
    forest: Mutex<Forest<G>>,
}

impl<G: Hash + Eq> Shared<G> {
    /// The state; a worker that panicked while holding the lock left it consistent (every
    /// change under it is a single step), so a poisoned lock is used as is.
    fn lock(&self) -> MutexGuard<'_, State<G>> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// The kept trees; every change under the lock is complete before any call that could
    /// panic, so a poisoned lock is used as is.
    fn forest(&self) -> MutexGuard<'_, Forest<G>> {
        self.forest.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

/// A few threads that answer jobs in the order they came.
pub struct Pool<G: Clone + Eq + Hash + Send + 'static> {
    shared: Arc<Shared<G>>,
    workers: Mutex<Vec<JoinHandle<()>>>,
}

impl<G: Clone + Eq + Hash + Send + 'static> Pool<G> {
    /// Starts `workers` threads (at least one), each searching with `search_threads`
    /// threads, answering through `deliver`, keeping trees within [`KeptBound::BOT`]
    /// (a search with several threads keeps no tree).
    #[must_use]
    pub fn new(workers: usize, search_threads: usize, deliver: Deliver<G>) -> Pool<G> {
        Pool::keeping(workers, search_threads, KeptBound::BOT, deliver)
    }

    /// [`Pool::new`] keeping trees within `bound`.
    #[must_use]
    pub fn keeping(workers: usize, search_threads: usize, bound: KeptBound, deliver: Deliver<G>) -> Pool<G> {
        let shared = Arc::new(Shared {
            state: Mutex::new(State { waiting: VecDeque::new(), known: HashSet::new(), closing: false }),
            wake: Condvar::new(),
            forest: Mutex::new(Forest::new(bound)),
        });
        let workers = (0..workers.max(1))
            .map(|index| {
                let shared = Arc::clone(&shared);
                let deliver = Arc::clone(&deliver);
                std::thread::Builder::new()
                    .name(format!("opponent-{index}"))
                    .spawn(move || work(&shared, search_threads.max(1), &deliver))
                    .expect("the system can start a thread")
            })
            .collect();
        Pool { shared, workers: Mutex::new(workers) }
    }

    /// Queues a job and returns at once; never waits for a search.
    pub fn submit(&self, job: Job<G>) -> Submitted {
        let mut state = self.shared.lock();
        if state.closing {
            return Submitted::Refused;
        }
        if !state.known.insert(key(&job)) {
            return Submitted::Merged;
        }
        state.waiting.push_back(job);
        drop(state);
        self.shared.wake.notify_one();
        Submitted::Queued
    }

    /// Jobs waiting or running.
    #[must_use]
    pub fn pending(&self) -> usize {
        self.shared.lock().known.len()
    }

    /// The kept trees now, and how they have served.
    #[must_use]
    pub fn reuse(&self) -> ReuseStats {
        self.shared.forest().stats
    }

    /// Refuses new jobs, forgets the waiting ones, waits for the running ones and their
    /// callbacks, and joins the threads.
    pub fn shutdown(&self) {
        {
            let mut state = self.shared.lock();
            state.closing = true;
            let forgotten: Vec<Job<G>> = state.waiting.drain(..).collect();
            for job in &forgotten {
                state.known.remove(&key(job));
            }
        }
        self.shared.wake.notify_all();
        let workers: Vec<JoinHandle<()>> =
            self.workers.lock().unwrap_or_else(PoisonError::into_inner).drain(..).collect();
        for worker in workers {
            // A worker never panics outside `answer`, which catches; nothing to report.
            let _ = worker.join();
        }
    }
}

impl<G: Clone + Eq + Hash + Send + 'static> fmt::Debug for Pool<G> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Pool").field("pending", &self.pending()).finish_non_exhaustive()
    }
}

impl<G: Clone + Eq + Hash + Send + 'static> Drop for Pool<G> {
    fn drop(&mut self) {
        self.shutdown();
    }
}

/// A worker's life: take the oldest job, answer it, deliver, until the pool closes.
fn work<G: Clone + Eq + Hash>(shared: &Shared<G>, search_threads: usize, deliver: &Deliver<G>) {
    loop {
        let job = {
            let mut state = shared.lock();
            loop {
                if let Some(job) = state.waiting.pop_front() {
                    break job;
                }
                if state.closing {
                    return;
                }
                state = shared.wake.wait(state).unwrap_or_else(PoisonError::into_inner);
            }
        };
        // Counting is judged without a search: the tree stays for the play that may resume.
        let kept = match job.question {
            Question::Counting { .. } => None,
            Question::Turn | Question::DrawOffer { .. } => shared.forest().take(&job.id),
        };
        let (answer, kept, reused) = answer_keeping(&job, search_threads, kept);
        {
            let mut forest = shared.forest();
            if let Some(reused) = reused {
                forest.count(reused);
            }
            if let Some(kept) = kept {
                forest.keep(job.id.clone(), kept);
            }
        }
        // Delivered before the key is released, so that a duplicate submitted meanwhile is
        // merged rather than searched twice.
        let _ = catch_unwind(AssertUnwindSafe(|| deliver(answer)));
        shared.lock().known.remove(&key(&job));
    }
}

#[cfg(test)]
mod tests {
    use std::sync::mpsc::{Receiver, Sender, channel};
    use std::time::Duration;

    use stonemate_engine::Color;

    use super::*;

    /// Long enough for any test to finish; a test that reaches it has failed.
    const PATIENCE: Duration = Duration::from_secs(60);

    fn job(id: u32, kind: GameKind, turns: &[&str], seed: u64) -> Job<u32> {
        let mut job = Job::new(
            id,
            kind,
            Vec::new(),
            turns.iter().map(|t| (*t).to_owned()).collect(),
            Question::Turn,
            Level::Easy,
            seed,
        );
        job.budget = Budget::nodes(30);
        job
    }

    fn collecting() -> (Deliver<u32>, Receiver<Answer<u32>>) {
        let (sender, receiver) = channel();
        let sender = Mutex::new(sender);
        let deliver: Deliver<u32> = Arc::new(move |answer| {
            let _ = sender.lock().unwrap().send(answer);
        });
        (deliver, receiver)
    }

    /// A callback that holds its worker until the test lets it go, announcing each answer
    /// as it starts waiting.
    fn gated() -> (Deliver<u32>, Receiver<Answer<u32>>, Sender<()>) {
        let (answers, received) = channel();
        let (open, gate) = channel::<()>();
        let (answers, gate) = (Mutex::new(answers), Mutex::new(gate));
        let deliver: Deliver<u32> = Arc::new(move |answer: Answer<u32>| {
            let id = answer.id;
            let _ = answers.lock().unwrap().send(answer);
            if id == 1 {
                let _ = gate.lock().unwrap().recv_timeout(PATIENCE);
            }
        });
        (deliver, received, open)
    }

    #[test]
    fn an_answer_arrives_with_a_legal_turn_for_the_position_it_was_asked_about() {
        let (deliver, answers) = collecting();
        let pool = Pool::new(2, 1, deliver);
        assert_eq!(pool.submit(job(7, GameKind::IChess, &[], 1)), Submitted::Queued);
        let answer = answers.recv_timeout(PATIENCE).expect("an answer");
        assert_eq!((answer.id, answer.turn_count, answer.question), (7, 0, Question::Turn));
        let Ok(BotDecision::Play(turn)) = answer.decision else { panic!("{answer:?}") };
        let mut position = AnyGame::new(GameKind::IChess, &[]).unwrap();
        assert!(position.play(turn).is_ok(), "{turn:?}");
    }

    #[test]
    fn the_answer_is_the_one_suggest_gives_for_the_same_seed() {
        let (deliver, answers) = collecting();
        let pool = Pool::new(1, 1, deliver);
        let asked = job(3, GameKind::Go, &["e5", "d4"], 42);
        pool.submit(asked.clone());
        let answer = answers.recv_timeout(PATIENCE).expect("an answer");
        let position = AnyGame::replay(GameKind::Go, &[], &asked.turns).unwrap().game;
        let config = SearchConfig { budget: asked.budget, seed: 42, threads: 1 };
        let searched = stonemate_ai::search(&position, &config).expect("ongoing");
        assert_eq!(answer.decision, Ok(BotDecision::Play(searched.turn)));
    }

    #[test]
    fn a_duplicate_job_is_merged_and_answered_once() {
        let (deliver, answers, open) = gated();
        let pool = Pool::new(1, 1, deliver);
        // Game 1 holds the only worker in its callback; game 2 waits behind it.
        assert_eq!(pool.submit(job(1, GameKind::Chogo, &[], 1)), Submitted::Queued);
        let first = answers.recv_timeout(PATIENCE).expect("game 1's answer");
        assert_eq!(first.id, 1);
        assert_eq!(pool.submit(job(1, GameKind::Chogo, &[], 9)), Submitted::Merged, "still running");
        assert_eq!(pool.submit(job(2, GameKind::Gess, &[], 1)), Submitted::Queued);
        assert_eq!(pool.submit(job(2, GameKind::Gess, &[], 1)), Submitted::Merged, "waiting");
        assert_eq!(pool.pending(), 2);
        // Another position or another question is another job.
        let mut offer = job(2, GameKind::Gess, &[], 1);
        offer.question = Question::DrawOffer { bot: Color::Black };
        assert_eq!(pool.submit(offer), Submitted::Queued);
        open.send(()).unwrap();
        let rest: Vec<(u32, Question)> =
            (0..2).map(|_| answers.recv_timeout(PATIENCE).expect("an answer")).map(|a| (a.id, a.question)).collect();
        assert_eq!(rest, vec![(2, Question::Turn), (2, Question::DrawOffer { bot: Color::Black })]);
        assert!(answers.recv_timeout(Duration::from_millis(200)).is_err(), "a merged job was answered twice");
    }

    #[test]
    fn other_callers_never_wait_on_a_search() {
        let (deliver, answers, open) = gated();
        let pool = Pool::new(2, 1, deliver);
        // Game 1's worker is busy (held in its callback) ...
        pool.submit(job(1, GameKind::Go, &[], 1));
        assert_eq!(answers.recv_timeout(PATIENCE).expect("game 1's answer").id, 1);
        // ... yet submitting returns, and game 2 is answered by the other worker meanwhile.
        assert_eq!(pool.submit(job(2, GameKind::Chego, &[], 1)), Submitted::Queued);
        assert_eq!(answers.recv_timeout(PATIENCE).expect("game 2's answer").id, 2);
        open.send(()).unwrap();
    }

    #[test]
    fn a_record_that_does_not_replay_is_reported_not_played() {
        let (deliver, answers) = collecting();
        let pool = Pool::new(1, 1, deliver);
        pool.submit(job(4, GameKind::Go, &["e5", "e5"], 1));
        let answer = answers.recv_timeout(PATIENCE).expect("an answer");
        assert!(matches!(answer.decision, Err(JobError::Record(_))), "{answer:?}");
        pool.submit(job(5, GameKind::Go, &["pass", "pass"], 1));
        assert_eq!(answers.recv_timeout(PATIENCE).expect("an answer").decision, Err(JobError::GameOver));
    }

    /// A job in 5x5 go at a budget large enough that the tree knows every reply to the
    /// turn it chooses.
    fn small_go(id: u32, turns: &[String], question: Question) -> Job<u32> {
        let options = vec![("board".to_owned(), "5x5".to_owned())];
        let mut job = Job::new(id, GameKind::Go, options, turns.to_vec(), question, Level::Easy, 5);
        job.budget = Budget::nodes(2_000);
        job
    }

    /// The turn of an answer, as the record writes it, checked legal in `turns`' position.
    fn played(job: &Job<u32>, answer: &Answer<u32>) -> String {
        let Ok(BotDecision::Play(turn)) = answer.decision else { panic!("{answer:?}") };
        let mut position = AnyGame::replay(job.kind, &job.options, &job.turns).unwrap().game;
        let text = position.format_turn(turn);
        assert!(position.play(turn).is_ok(), "{turn:?} is legal");
        text
    }

    /// Asks the bot its turn after `turns` in game `id` and waits: the turn it plays, as
    /// the record writes it, and the pool's statistics then.
    fn bot_turn(pool: &Pool<u32>, answers: &Receiver<Answer<u32>>, id: u32, turns: &[String]) -> (String, ReuseStats) {
        let job = small_go(id, turns, Question::Turn);
        pool.submit(job.clone());
        let turn = played(&job, &answers.recv_timeout(PATIENCE).expect("an answer"));
        (turn, pool.reuse())
    }

    /// `turns` with the opponent's reply after them (the first drop the engine lists).
    fn and_a_reply(turns: &[String]) -> Vec<String> {
        let options = small_go(0, turns, Question::Turn).options;
        let position = AnyGame::replay(GameKind::Go, &options, turns).unwrap().game;
        let reply = position.legal_turn_texts().into_iter().find(|text| text != "pass").expect("a drop");
        [turns, &[reply]].concat()
    }

    /// The bot's turn, then the opponent's reply, then the bot's next turn; the record and
    /// the pool's statistics after each of the bot's turns.
    fn two_turns(pool: &Pool<u32>, answers: &Receiver<Answer<u32>>) -> (Vec<String>, [ReuseStats; 2]) {
        let (bot, after_first) = bot_turn(pool, answers, 1, &[]);
        let record = and_a_reply(&[bot]);
        let (next, after_second) = bot_turn(pool, answers, 1, &record);
        ([record, vec![next]].concat(), [after_first, after_second])
    }

    #[test]
    fn the_next_turn_starts_from_the_subtree_of_the_turns_played_since() {
        let (deliver, answers) = collecting();
        let pool = Pool::new(1, 1, deliver);
        let (record, [after_first, after_second]) = two_turns(&pool, &answers);
        // Kept: the subtree after the bot's turn, not the 2,000 nodes searched.
        assert_eq!((after_first.kept_games, after_first.searches, after_first.reused), (1, 1, 0));
        assert!((100..2_000).contains(&after_first.kept_nodes), "{after_first:?}");
        assert!(after_first.kept_bytes > after_first.kept_nodes, "{after_first:?}");
        assert_eq!((after_second.searches, after_second.reused, after_second.kept_games), (2, 1, 1));
        assert!(after_second.reused_visits > 0, "the reply's subtree had playouts: {after_second:?}");
        // The same jobs in a fresh pool answer the same.
        let (deliver, answers) = collecting();
        let again = Pool::new(1, 1, deliver);
        assert_eq!(two_turns(&again, &answers).0, record);
        // Without kept trees, the second search is a fresh one.
        let (deliver, answers) = collecting();
        let fresh = Pool::keeping(1, 1, KeptBound::NOTHING, deliver);
        let (_, [_, stats]) = two_turns(&fresh, &answers);
        assert_eq!((stats.kept_games, stats.searches, stats.reused, stats.reused_visits), (0, 2, 0, 0));
    }

    #[test]
    fn a_takeback_or_another_game_under_the_same_name_drops_the_tree() {
        let (deliver, answers) = collecting();
        let pool = Pool::new(1, 1, deliver);
        let turns = ["c3".to_owned(), "c2".to_owned()];
        let (_, stats) = bot_turn(&pool, &answers, 1, &turns);
        assert_eq!(stats.kept_games, 1);
        // The opponent took back a turn: the record is no longer an extension of the tree's.
        let taken_back = small_go(1, &turns[..1], Question::Turn);
        pool.submit(taken_back.clone());
        let answer = answers.recv_timeout(PATIENCE).expect("an answer");
        let stats = pool.reuse();
        assert_eq!((stats.searches, stats.reused, stats.kept_games), (2, 0, 1), "{stats:?}");
        // Searched afresh: the answer `suggest` gives.
        let position = AnyGame::replay(GameKind::Go, &taken_back.options, &taken_back.turns).unwrap().game;
        let config = SearchConfig { budget: taken_back.budget, seed: taken_back.seed, threads: 1 };
        let searched = stonemate_ai::search(&position, &config).expect("ongoing");
        assert_eq!(answer.decision, Ok(BotDecision::Play(searched.turn)));
        // Another game under the same name (other options), whose record extends the tree's.
        let mut other = small_go(1, &and_a_reply(&[turns[0].clone(), played(&taken_back, &answer)]), Question::Turn);
        other.options.push(("komi".to_owned(), "0.5".to_owned()));
        pool.submit(other);
        answers.recv_timeout(PATIENCE).expect("an answer");
        let stats = pool.reuse();
        assert_eq!((stats.searches, stats.reused, stats.kept_games), (3, 0, 1), "{stats:?}");
    }

    #[test]
    fn the_kept_trees_stay_within_the_bound_the_least_recently_used_going_first() {
        // Every game starts with c3 and the bot's answer to it (the same in all: same
        // seed, same position), then the reply; `next` asks the bot's turn after that.
        let start = vec!["c3".to_owned()];
        let first = |pool: &Pool<u32>, answers: &Receiver<Answer<u32>>, id| bot_turn(pool, answers, id, &start);
        let next = |pool: &Pool<u32>, answers: &Receiver<Answer<u32>>, id, bot: &str| {
            bot_turn(pool, answers, id, &and_a_reply(&[start[0].clone(), bot.to_owned()])).1
        };
        // By count: two games.
        let (deliver, answers) = collecting();
        let pool = Pool::keeping(1, 1, KeptBound { games: 2, bytes: usize::MAX }, deliver);
        let mut bot = String::new();
        for id in 1..=4 {
            let stats;
            (bot, stats) = first(&pool, &answers, id);
            assert_eq!(stats.kept_games, id.min(2) as usize, "{stats:?}");
        }
        // Games 3 and 4 are kept, game 1 not.
        assert_eq!(next(&pool, &answers, 4, &bot).reused, 1);
        assert_eq!(next(&pool, &answers, 3, &bot).reused, 2);
        assert_eq!(next(&pool, &answers, 1, &bot).reused, 2);
        // By bytes: room for one tree and a half (the games' trees are alike).
        let (deliver, answers) = collecting();
        let one = first(&Pool::new(1, 1, deliver), &answers, 1).1.kept_bytes;
        let (deliver, answers) = collecting();
        let bytes = one + one / 2;
        let pool = Pool::keeping(1, 1, KeptBound { games: 10, bytes }, deliver);
        for id in 1..=3 {
            let stats = first(&pool, &answers, id).1;
            assert_eq!(stats.kept_games, 1, "{stats:?}");
            assert!(stats.kept_bytes <= bytes, "{stats:?}");
        }
        assert_eq!(next(&pool, &answers, 3, &bot).reused, 1);
        // A tree larger than the bound on its own is not kept.
        let (deliver, answers) = collecting();
        let pool = Pool::keeping(1, 1, KeptBound { games: 10, bytes: one / 2 }, deliver);
        assert_eq!(first(&pool, &answers, 1).1.kept_games, 0);
    }

    #[test]
    fn shutdown_finishes_the_running_job_forgets_the_waiting_ones_and_refuses_new_ones() {
        let (deliver, answers, open) = gated();
        let pool = Pool::new(1, 1, deliver);
        pool.submit(job(1, GameKind::Go, &[], 1));
        assert_eq!(answers.recv_timeout(PATIENCE).expect("game 1's answer").id, 1);
        pool.submit(job(2, GameKind::Go, &[], 1));
        std::thread::scope(|scope| {
            let closing = scope.spawn(|| pool.shutdown());
            while pool.submit(job(3, GameKind::Go, &[], 1)) != Submitted::Refused {
                std::thread::yield_now();
            }
            assert_eq!(pool.pending(), 1, "only game 1, still in its callback");
            open.send(()).unwrap();
            closing.join().unwrap();
        });
        assert_eq!(pool.pending(), 0);
        assert!(answers.try_recv().is_err(), "a forgotten or refused job was answered");
    }
}
