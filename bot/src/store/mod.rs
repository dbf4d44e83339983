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
//! | `v` server | the [`ServerRecord`], JSON (a server's own settings) |
//! | `r` server game user | the [`RatingRecord`], JSON (`game`: its place in `GameKind::ALL`) |
//! | `o` id | an outbox notice: when it is next due (as in `d`), then its body ([`Queued`]) |
//! | `c` id | `p` or `s`: the game's channel refused a notice; the report is pending or shown |
//! | `n` | the last game id given out |
//! | `sbackup` | when the next scheduled export is due (a time, as in `d`) |
//! | `t` id | the [`TournamentRecord`], JSON (its games carry a [`TournamentTag`] in their origin) |
//! | `l` server id | the tournament's status byte (`o`pen, `r`unning, `f`inished, `c`ancelled): a server's tournaments, for `/tournament list` |
//! | `a` time id | empty: an open tournament that starts by itself then |
//! | `m` | the last tournament id given out |
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
pub mod backups;
pub mod check;
pub mod durable;
mod error;
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
mod servers;
mod sled_store;
pub mod tournaments;

pub use backend::{Backend, Batch, KeyRange};
pub use error::StoreError;
pub use fail_stop::FailStop;
pub use keys::IndexEntry;
pub use memory::{Memory, MemoryStore};
pub use notice::Queued;
pub use open::{is_address, open_at, open_closing, open_store, open_streaming, shown};
pub use outbox::Outbox;
pub use postgres::{Postgres, PostgresStore};
pub use rating::{RatingChange, RatingRecord};
pub use record::{
    Asked, CalledOff, ClosedChallenge, ColorChoice, Conditional, Counting, FORMAT, Finish, GameRecord, NOBODY,
    NotifyMode, Origin, Pending, Phase, Seat, Seats, ServerRecord, Takeback, Thread, TournamentTag, TurnClock,
    UserRecord, Vacation,
};
pub use records::{Dump, Restore, Store, Stored, retrying};
pub use servers::Servers;
pub use sled_store::{Closing, ReadOnlyCopy, Sled, SledStore, open_for_streams, recover, sled_config};
pub use tournaments::{TournamentRecord, TournamentStatus, Tournaments};
