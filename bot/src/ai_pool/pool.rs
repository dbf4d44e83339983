//! The pool itself: a few worker threads that take jobs in the order they came, merge a
//! job into an equal one waiting or running, keep each game's tree, and shut down cleanly.

use std::collections::{HashSet, VecDeque};
use std::fmt;
use std::hash::Hash;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::{Arc, Condvar, Mutex, MutexGuard, PoisonError};
use std::thread::JoinHandle;

use stonemate_ai::Question;

use super::answer::answer_keeping;
use super::forest::{Forest, KeptBound, ReuseStats};
use super::job::{Answer, Job, Submitted};

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
        self.shared.forest().stats()
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

    use stonemate_ai::{Budget, Level, SearchConfig};
    use stonemate_engine::{AnyGame, Color, GameKind};

    use super::super::job::{BotDecision, JobError};
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
