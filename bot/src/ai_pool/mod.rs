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
//!
//! The parts: `job.rs` (what is asked and answered), `answer.rs` (one job answered),
//! `forest.rs` (the kept trees), `pool.rs` (the threads and the queue).

mod answer;
mod forest;
mod job;
mod pool;

pub use answer::answer;
pub use forest::{KeptBound, ReuseStats};
pub use job::{Answer, BotDecision, Job, JobError, Submitted};
pub use pool::{Deliver, Pool};
