//! Storage of challenges, games and user settings: one [`Store`], written once over a
//! narrow [`Backend`] (get a key, scan a range, apply a checked batch atomically, give out
//! an outbox id, make durable) that sled ([`Sled`], the bot's database), PostgreSQL
//! ([`Postgres`], shared by several processes) and memory ([`Memory`], for tests)
//! implement. [`FailStop`] and the test doubles wrap the backend.
//!
//! Every backend keeps the same keys in one ordered key space, so their dumps compare:
//!
//! | key | value |
//! |---|---|
//! | `g` id | the [`GameRecord`], JSON |
//! | `p` user server id | [`Phase::index_byte`], then `c` (challenger) or `o`: the player index (user [`NOBODY`]: the open challenges) |
//! | `d` time id | empty: the deadline index (reminders, timeouts, challenge expiry) |
//! | `u` user | the [`UserRecord`], JSON |
//! | `r` server game user | the [`RatingRecord`], JSON (`game`: its place in `GameKind::ALL`) |
//! | `o` id | an outbox notice: when it is next due (as in `d`), then its body ([`Queued`]) |
//! | `c` id | `p` or `s`: the game's channel refused a notice; the report is pending or shown |
//! | `n` | the last game id given out |
//! | `sbackup` | when the next scheduled export is due (a time, as in `d`) |
//!
//! Numbers are big-endian so keys sort by them; the server of a record without one is 0.
//! The values stay JSON, readable by any tool and upgraded by [`record::upgrade`]; sled
//! compresses them on disk (zstd over each page of up to 16 of them, [`sled_config`]).
//! Databases written before servers were indexed (`p` user id) are upgraded when the sled
//! store opens them. A record and its index entries change in
//! one batch; every write is flushed and synced to disk (`fdatasync`,
//! [`durable`]) before the call returns, so a turn is confirmed only once it is durable.
//! [`FailStop`] stops everything at the first storage failure.

pub mod backend;
pub mod check;
pub mod durable;
pub mod export;
mod fail_stop;
mod keys;
mod memory;
mod notice;
mod open;
mod outbox;
mod postgres;
pub mod rating;
pub mod record;
mod records;
#[doc(hidden)]
pub mod sample;
mod sled_store;

pub use backend::{Backend, Batch, KeyRange};
pub use fail_stop::FailStop;
pub use memory::{Memory, MemoryStore};
pub use notice::Queued;
pub use open::{is_address, open_at, open_closing, open_store, open_streaming, shown};
pub use outbox::Outbox;
pub use postgres::{Postgres, PostgresStore};
pub use rating::{RatingChange, RatingRecord};
pub use record::{
    CalledOff, ColorChoice, Conditional, Counting, FORMAT, Finish, GameRecord, NOBODY, NotifyMode, Phase, TurnClock,
    UserRecord, Vacation,
};
pub use records::{Store, Stored};
pub use sled_store::{Closing, Sled, SledStore, open_for_streams, recover, sled_config};

use crate::ids::{GameId, GuildId};

/// One entry of a player's index: a record he takes part in, and how.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct IndexEntry {
    /// The record's id.
    pub id: GameId,
    /// The record's phase: [`Phase::Challenge`], [`Phase::Playing`] or [`Phase::Finished`].
    pub phase: Phase,
    /// The record's server (`None`: a record without one).
    pub guild: Option<GuildId>,
    /// Whether he sent the challenge (else he received it).
    pub challenger: bool,
}

/// Why the store could not do what was asked.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// The record changed since it was read: another command got there first.
    #[error("the game changed while this command was being handled")]
    Conflict,
    /// No record has this id.
    #[error("no record {0}")]
    Missing(GameId),
    /// A read or write the database could not do.
    #[error("the database failed: {0}")]
    Database(String),
    /// The database server did not answer when the store was opened (it may be starting,
    /// or the network may be down): trying again later can help.
    #[error("the database server cannot be reached: {0}")]
    Unreachable(String),
    /// A write whose flush or sync to disk failed: it may or may not be on disk.
    #[error("a write may or may not have reached the disk: {0}")]
    Unsure(String),
    /// The check found a damaged database ([`check`]): what, where, how to restore.
    #[error("{0}")]
    Damaged(String),
    /// Another process has the database open (sled: one process at a time): which, and
    /// what to do.
    #[error("{0}")]
    InUse(String),
    /// An earlier storage failure stopped the store ([`FailStop`]): nothing was tried.
    #[error("the store stopped after a storage failure")]
    Stopped,
    /// A stored record is not valid JSON of its layout.
    #[error("a stored record cannot be read: {0}")]
    Corrupt(String),
    /// [`Store::restore`] into a store that already holds games.
    #[error("the database already holds games: import only into an empty one")]
    NotEmpty,
}

impl StoreError {
    /// Whether the database itself failed, so that what it holds in memory can no longer
    /// be trusted ([`FailStop`] stops at these).
    #[must_use]
    pub fn is_storage_failure(&self) -> bool {
        // Damage found while serving stops the store as a failed write does.
        matches!(
            self,
            StoreError::Database(_) | StoreError::Unreachable(_) | StoreError::Unsure(_) | StoreError::Damaged(_)
        )
    }
}

impl From<sled::Error> for StoreError {
    fn from(error: sled::Error) -> StoreError {
        StoreError::Database(error.to_string())
    }
}

impl From<serde_json::Error> for StoreError {
    fn from(error: serde_json::Error) -> StoreError {
        StoreError::Corrupt(error.to_string())
    }
}

/// What [`Store::restore`] writes: an export's records.
#[derive(Debug, Clone, Default)]
pub struct Restore {
    /// Every game record.
    pub games: Vec<GameRecord>,
    /// Every user record.
    pub users: Vec<UserRecord>,
    /// Every rating.
    pub ratings: Vec<RatingRecord>,
    /// The last game id given out.
    pub last_id: u32,
}

/// Every key and value of a store, in key order.
pub type Dump = Vec<(Vec<u8>, Vec<u8>)>;
