//! What the service asks the pool and what comes back: a job (one question about one
//! game), the bot's decision, why a job has no decision, and whether the pool took it.

use std::fmt;

use stonemate_ai::{Budget, Level, Question};
use stonemate_engine::go::DeadPieces;
use stonemate_engine::{GameKind, Turn};

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

/// Whether [`Pool::submit`](super::pool::Pool::submit) took the job.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Submitted {
    /// Queued: an answer will come.
    Queued,
    /// The same job is already waiting or running: its answer serves both.
    Merged,
    /// The pool is shutting down.
    Refused,
}
