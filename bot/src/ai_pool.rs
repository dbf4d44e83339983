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

use std::collections::{HashSet, VecDeque};
use std::fmt;
use std::hash::Hash;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::{Arc, Condvar, Mutex, MutexGuard, PoisonError};
use std::thread::JoinHandle;

use stonemate_ai::{Budget, Decision, Level, Question, SearchConfig, decide};
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

/// Answers one job: replay, search, decide. Runs on a worker thread.
#[must_use]
pub fn answer<G: Clone>(job: &Job<G>, search_threads: usize) -> Answer<G> {
    let decision = catch_unwind(AssertUnwindSafe(|| decision(job, search_threads))).unwrap_or(Err(JobError::Panicked));
    Answer { id: job.id.clone(), turn_count: job.turn_count(), question: job.question, decision }
}

fn decision<G>(job: &Job<G>, search_threads: usize) -> Result<BotDecision, JobError> {
    let replay = AnyGame::replay(job.kind, &job.options, &job.turns).map_err(|e| JobError::Options(e.to_string()))?;
    if let Some(error) = replay.error {
        return Err(JobError::Record(error.to_string()));
    }
    let position = replay.game;
    if let Question::Counting { .. } = job.question {
        return stonemate_ai::judge_dead(&position, job.seed).map(BotDecision::Dead).ok_or(JobError::GameOver);
    }
    let config = SearchConfig { budget: job.budget, seed: job.seed, threads: search_threads };
    let decided = decide(&position, job.question, &config).ok_or(JobError::GameOver)?;
    Ok(match decided.decision {
        Decision::Play(turn) => BotDecision::Play(turn),
        Decision::Resign => BotDecision::Resign,
        Decision::AcceptDraw => BotDecision::AcceptDraw,
        Decision::DeclineDraw => BotDecision::DeclineDraw,
    })
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

struct Shared<G> {
    state: Mutex<State<G>>,
    wake: Condvar,
}

impl<G> Shared<G> {
    /// The state; a worker that panicked while holding the lock left it consistent (every
    /// change under it is a single step), so a poisoned lock is used as is.
    fn lock(&self) -> MutexGuard<'_, State<G>> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

/// A few threads that answer jobs in the order they came.
pub struct Pool<G: Clone + Eq + Hash + Send + 'static> {
    shared: Arc<Shared<G>>,
    workers: Mutex<Vec<JoinHandle<()>>>,
}

impl<G: Clone + Eq + Hash + Send + 'static> Pool<G> {
    /// Starts `workers` threads (at least one), each searching with `search_threads`
    /// threads, answering through `deliver`.
    #[must_use]
    pub fn new(workers: usize, search_threads: usize, deliver: Deliver<G>) -> Pool<G> {
        let shared = Arc::new(Shared {
            state: Mutex::new(State { waiting: VecDeque::new(), known: HashSet::new(), closing: false }),
            wake: Condvar::new(),
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
        let answer = answer(&job, search_threads);
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
