//! Answering one job on a worker thread: replay the record, search (from the game's kept
//! tree when it serves), decide, and say what to keep for the game's next job.

use std::panic::{AssertUnwindSafe, catch_unwind};

use stonemate_ai::{Decision, Question, SearchConfig, decide_reusing};
use stonemate_engine::AnyGame;

use super::forest::{Kept, Reused};
use super::job::{Answer, BotDecision, Job, JobError};

/// Answers one job: replay, search, decide, from scratch (no kept tree). Runs on a
/// worker thread.
#[must_use]
pub fn answer<G: Clone>(job: &Job<G>, search_threads: usize) -> Answer<G> {
    answer_keeping(job, search_threads, None).0
}

/// [`answer`], starting from `kept` (the tree of the game's last job, checked here) and
/// returning the tree to keep and what the search reused.
pub(super) fn answer_keeping<G: Clone>(
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
