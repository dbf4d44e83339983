//! Storage of challenges, games and user settings: the [`GameStore`] trait, its sled
//! implementation ([`SledStore`], the bot's database) and an in-memory one for tests
//! ([`MemoryStore`]).
//!
//! Both keep the same keys in one ordered key space, so their dumps compare:
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
//! Databases written before servers were indexed (`p` user id) are upgraded when the sled
//! store opens them. A record and its index entries change in
//! one transaction; every write is flushed and synced to disk (`fdatasync`,
//! [`durable`]) before the call returns, so a turn is confirmed only once it is durable.
//! [`FailStop`] stops everything at the first storage failure.

pub mod check;
pub mod durable;
pub mod export;
mod fail_stop;
mod keys;
mod memory;
mod open;
mod outbox;
mod postgres;
pub mod rating;
pub mod record;
mod sled_store;

use std::fmt;

pub use fail_stop::FailStop;
pub use memory::MemoryStore;
pub use open::{is_address, open_at, open_store, shown};
pub use outbox::Queued;
pub use postgres::PostgresStore;
pub use rating::{RatingChange, RatingRecord};
pub use record::{
    ColorChoice, Ending, FORMAT, GameRecord, NOBODY, NotifyMode, Phase, Reason, TurnClock, UserRecord, Vacation,
};
pub use sled_store::SledStore;

use crate::clock::Timestamp;
use stonemate_engine::GameKind;

use crate::ids::{GameId, GuildId, UserId};

/// One entry of a player's index: a record he takes part in, and how.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct IndexEntry {
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
    /// The start-up check found a damaged database ([`check`]): what, where, how to restore.
    #[error("{0}")]
    Damaged(String),
    /// An earlier storage failure stopped the store ([`FailStop`]): nothing was tried.
    #[error("the store stopped after a storage failure")]
    Stopped,
    #[error("a stored record cannot be read: {0}")]
    Corrupt(String),
    /// [`GameStore::restore`] into a store that already holds games.
    #[error("the database already holds games: import only into an empty one")]
    NotEmpty,
}

impl StoreError {
    /// Whether the database itself failed, so that what it holds in memory can no longer
    /// be trusted ([`FailStop`] stops at these).
    #[must_use]
    pub fn is_storage_failure(&self) -> bool {
        matches!(self, StoreError::Database(_) | StoreError::Unreachable(_) | StoreError::Unsure(_))
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

/// What [`GameStore::restore`] writes: an export's records.
#[derive(Debug, Clone, Default)]
pub struct Restore {
    pub games: Vec<GameRecord>,
    pub users: Vec<UserRecord>,
    pub ratings: Vec<RatingRecord>,
    /// The last game id given out.
    pub last_id: u32,
}

/// Every key and value of a store, in key order.
pub type Dump = Vec<(Vec<u8>, Vec<u8>)>;

/// Where challenges, games and user settings live. Every write is durable when it returns.
pub trait GameStore: Send + Sync + fmt::Debug {
    /// Stores a new record under the next free id, at version 1; returns it as stored.
    fn create(&self, record: GameRecord) -> Result<GameRecord, StoreError>;

    fn load(&self, id: GameId) -> Result<Option<GameRecord>, StoreError>;

    /// Replaces a record whose stored version is `record.version - 1`, with its index
    /// entries; [`StoreError::Conflict`] (and nothing written) if it is not.
    fn update(&self, record: &GameRecord) -> Result<(), StoreError> {
        self.update_with(record, &[], &[])
    }

    /// [`GameStore::update`], and in the same transaction the ratings the write changes (a
    /// rated game's result) and `notices` put in the outbox (their ids are given here): all
    /// of it is written, or nothing. [`StoreError::Conflict`], and nothing written, if a
    /// rating is no longer the one the change was made from.
    fn update_with(&self, record: &GameRecord, ratings: &[RatingChange], notices: &[Queued]) -> Result<(), StoreError>;

    /// The rating of `user` in one game of one server.
    fn rating(&self, guild: GuildId, game: GameKind, user: UserId) -> Result<Option<RatingRecord>, StoreError>;

    /// Every rating of one game in one server, by user id.
    fn ratings(&self, guild: GuildId, game: GameKind) -> Result<Vec<RatingRecord>, StoreError>;

    /// Puts notices in the outbox on their own (notices no record change causes).
    fn enqueue(&self, notices: &[Queued]) -> Result<(), StoreError>;

    /// Takes up to `limit` notices due at `now`, oldest first, for a sender: each is due
    /// again only at `until` (its lease), so no other claim takes it meanwhile, in this
    /// process or another. Returned with `due` set to `until`.
    fn claim(&self, now: Timestamp, until: Timestamp, limit: usize) -> Result<Vec<Queued>, StoreError>;

    /// Writes back a claimed notice with its next due time and body (after a failure);
    /// `false` if it is no longer in the outbox.
    fn reschedule(&self, notice: &Queued) -> Result<bool, StoreError>;

    /// Removes a notice from the outbox: delivered, or given up.
    fn remove_notice(&self, id: u64) -> Result<(), StoreError>;

    /// Remembers that `game`'s channel refused a notice, unless that is already known
    /// (pending or shown): each game's refusal is reported once.
    fn raise_report(&self, game: GameId) -> Result<(), StoreError>;

    /// Whether a raised report for `game` waits to be shown; it is marked shown at once,
    /// so of two callers (or processes) one gets `true`, once.
    fn take_report(&self, game: GameId) -> Result<bool, StoreError>;

    /// The records `user` takes part in, in every server, from the player index (by
    /// server, then id).
    fn entries_of(&self, user: UserId) -> Result<Vec<IndexEntry>, StoreError>;

    /// The records `user` takes part in in one server (`None`: records without a server),
    /// by id.
    fn entries_in(&self, user: UserId, guild: Option<GuildId>) -> Result<Vec<IndexEntry>, StoreError>;

    /// The records `user` takes part in, in every server, with their phase.
    fn games_of(&self, user: UserId) -> Result<Vec<(GameId, Phase)>, StoreError> {
        Ok(self.entries_of(user)?.into_iter().map(|entry| (entry.id, entry.phase)).collect())
    }

    /// Records with something due at or before `until`, earliest first.
    fn due(&self, until: Timestamp) -> Result<Vec<GameId>, StoreError>;

    fn user(&self, id: UserId) -> Result<Option<UserRecord>, StoreError>;

    fn save_user(&self, user: &UserRecord) -> Result<(), StoreError>;

    /// Every key and value in key order: for tests and backups.
    fn dump(&self) -> Result<Dump, StoreError>;

    /// Writes an export into a store that holds no games, all or nothing: the records with
    /// their ids and versions, their index entries, the users, the ratings, and the id
    /// counter (at least the largest id). [`StoreError::NotEmpty`] (and nothing written) if
    /// it holds games.
    fn restore(&self, restored: Restore) -> Result<(), StoreError>;

    /// Claims the scheduled export that falls due at `now`, once across every process
    /// sharing the database: if no export was ever scheduled, or the next was due at or
    /// before `now`, the next is set to `next` and the answer is `true` (the caller writes
    /// the export); else `false`. One atomic compare-and-swap, durable when it returns.
    fn claim_backup(&self, now: Timestamp, next: Timestamp) -> Result<bool, StoreError>;
}
