//! [`Store`]: records, indexes, ratings, users and backups (the outbox and reports through
//! [`Store::outbox`], in [`super::outbox`]), written
//! once over any [`Backend`]. Each change is computed from what was read, written as one
//! [`Batch`] whose checks say that what was read is still there, then made durable
//! ([`Backend::flush`]) before the call returns. A change that lost a race is either
//! refused ([`StoreError::Conflict`], for the service to retry) or, where the store can
//! decide alone (a new id, a claim, a lease), read again and retried here.

use std::sync::Arc;

use stonemate_engine::GameKind;

use super::backend::{Backend, Batch, Entries, KeyRange, put_notices};
use super::error::StoreError;
use super::keys::{self, IndexEntry};
use super::notice::Queued;
use super::rating::{RatingChange, RatingRecord};
use super::record::{GameRecord, UserRecord};
use crate::clock::Timestamp;
use crate::ids::{GameId, GuildId, UserId};

/// Where challenges, games and user settings live, over a [`Backend`] (by default any,
/// behind `dyn`). Cloning shares the backend. Every write is durable when it returns.
#[derive(Debug)]
pub struct Store<B: ?Sized = dyn Backend> {
    backend: Arc<B>,
}

impl<B: ?Sized> Clone for Store<B> {
    fn clone(&self) -> Store<B> {
        Store { backend: Arc::clone(&self.backend) }
    }
}

impl<B: Backend + 'static> From<B> for Store {
    fn from(backend: B) -> Store {
        Store { backend: Arc::new(backend) }
    }
}

impl<B: Backend + 'static> From<Arc<B>> for Store {
    fn from(backend: Arc<B>) -> Store {
        Store { backend }
    }
}

impl<B: Backend + 'static> From<Store<B>> for Store {
    fn from(store: Store<B>) -> Store {
        Store { backend: store.backend }
    }
}

impl<B: Backend + 'static> From<Arc<Store<B>>> for Store {
    fn from(store: Arc<Store<B>>) -> Store {
        Store { backend: store.backend.clone() }
    }
}

/// The bytes a game record was read from ([`Store::read`]), opaque: a change made from
/// the record expects the database still to hold them ([`Store::update_from`]), which
/// checks that nobody wrote the record since without reading it again. Shared, so that
/// keeping them with a loaded game costs no copy.
#[derive(Clone, PartialEq, Eq)]
pub struct Stored(pub(super) Arc<[u8]>);

impl std::fmt::Debug for Stored {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Stored({} bytes)", self.0.len())
    }
}

/// Reads the player-index entries of a scan.
fn index_entries(entries: Entries) -> Vec<IndexEntry> {
    entries.iter().filter_map(|(key, value)| keys::index_entry(key, value)).collect()
}

/// Runs `attempt` again while it loses a race: each attempt reads afresh, and a conflict
/// means another change was applied, so this ends.
pub fn retrying<T>(mut attempt: impl FnMut() -> Result<T, StoreError>) -> Result<T, StoreError> {
    loop {
        match attempt() {
            Err(StoreError::Conflict) => {}
            other => return other,
        }
    }
}

impl<B: Backend + ?Sized> Store<B> {
    /// A store over a shared backend.
    pub fn over(backend: Arc<B>) -> Store<B> {
        Store { backend }
    }

    /// The backend, for tools and wrappers.
    pub fn backend(&self) -> &Arc<B> {
        &self.backend
    }

    /// Applies `batch` and makes it durable.
    pub(super) fn commit(&self, batch: &Batch) -> Result<(), StoreError> {
        self.backend.apply(batch)?;
        self.backend.flush()
    }

    /// Stores a new record under the next free id, at version 1; returns it as stored.
    pub fn create(&self, record: GameRecord) -> Result<GameRecord, StoreError> {
        retrying(|| {
            let stored = self.backend.get(keys::NEXT_ID)?;
            let mut record = record.clone();
            record.id = keys::next_id(stored.as_deref())?;
            record.version = 1;
            let mut batch = Batch::new();
            batch.expect(keys::NEXT_ID, stored).put(keys::NEXT_ID, record.id.0.to_be_bytes());
            batch.writes.extend(keys::changes(None, &record)?);
            self.commit(&batch)?;
            Ok(record)
        })
    }

    /// Stores many new records at once with one flush, for filling a database quickly
    /// (benchmarks, imports). Ids are given out as by [`Store::create`]; returns the last.
    pub fn create_many(&self, records: impl IntoIterator<Item = GameRecord>) -> Result<GameId, StoreError> {
        let stored = self.backend.get(keys::NEXT_ID)?;
        let mut last = keys::next_id(stored.as_deref())?.0 - 1;
        let mut batch = Batch::new();
        batch.expect(keys::NEXT_ID, stored);
        for mut record in records {
            last += 1;
            record.id = GameId(last);
            record.version = 1;
            batch.writes.extend(keys::changes(None, &record)?);
        }
        batch.put(keys::NEXT_ID, last.to_be_bytes());
        self.commit(&batch)?;
        Ok(GameId(last))
    }

    /// The record `id`, of this format or an older one.
    pub fn load(&self, id: GameId) -> Result<Option<GameRecord>, StoreError> {
        Ok(self.read(id)?.map(|(record, _)| record))
    }

    /// [`Store::load`], with the bytes the record was read from, for a change made from it
    /// ([`Store::update_from`]).
    pub fn read(&self, id: GameId) -> Result<Option<(GameRecord, Stored)>, StoreError> {
        let Some(bytes) = self.backend.get(&keys::game(id))? else { return Ok(None) };
        Ok(Some((keys::decode_game(&bytes)?, Stored(bytes.into()))))
    }

    /// Replaces a record whose stored version is `record.version - 1`, with its index
    /// entries, and in the same transaction the ratings the write changes (a rated game's
    /// result) and `notices` put in the outbox (their ids are given here): all of it is
    /// written, or nothing. Reads the stored record first; a change made from a record
    /// already read goes through [`Store::update_from`] instead. [`StoreError::Conflict`],
    /// and nothing written, if the stored version is another, or a rating is no longer
    /// the one the change was made from.
    pub fn update_with(
        &self,
        record: &GameRecord,
        ratings: &[RatingChange],
        notices: &[Queued],
    ) -> Result<(), StoreError> {
        let (old, stored) = self.read(record.id)?.ok_or(StoreError::Missing(record.id))?;
        self.update_from((&old, &stored), record, ratings, notices)
    }

    /// [`Store::update_with`] for a change made from `old`, read as `stored` by
    /// [`Store::read`]: the record is not read again. The batch expects the database still
    /// to hold the bytes `old` was read from, so a write that got there first (or any
    /// other change of the record) fails the backend's check: [`StoreError::Conflict`],
    /// and nothing written.
    pub fn update_from(
        &self,
        (old, stored): (&GameRecord, &Stored),
        record: &GameRecord,
        ratings: &[RatingChange],
        notices: &[Queued],
    ) -> Result<(), StoreError> {
        if old.id != record.id || old.version.checked_add(1) != Some(record.version) {
            return Err(StoreError::Conflict);
        }
        let mut batch = Batch::new();
        batch.expect(keys::game(record.id), Some(stored.0.to_vec()));
        for (key, expected, value) in keys::rating_writes(ratings)? {
            let stored = self.backend.get(&key)?;
            if !keys::rating_unchanged(stored.as_deref(), expected)? {
                return Err(StoreError::Conflict);
            }
            batch.expect(key.clone(), stored).put(key, value);
        }
        batch.writes.extend(keys::changes(Some(old), record)?);
        put_notices(self.backend.as_ref(), &mut batch, notices)?;
        self.commit(&batch)
    }

    /// The rating of `user` in one game of one server.
    pub fn rating(&self, guild: GuildId, kind: GameKind, user: UserId) -> Result<Option<RatingRecord>, StoreError> {
        self.backend.get(&keys::rating(guild, kind, user))?.map(|bytes| keys::decode_rating(&bytes)).transpose()
    }

    /// Every rating of one game in one server, by user id.
    pub fn ratings(&self, guild: GuildId, kind: GameKind) -> Result<Vec<RatingRecord>, StoreError> {
        let entries = self.backend.scan(&KeyRange::prefix(&keys::rating_prefix(guild, kind)))?;
        entries.iter().map(|(_, value)| keys::decode_rating(value)).collect()
    }

    /// The records `user` takes part in, in every server, from the player index (by
    /// server, then id).
    pub fn entries_of(&self, user: UserId) -> Result<Vec<IndexEntry>, StoreError> {
        Ok(index_entries(self.backend.scan(&KeyRange::prefix(&keys::player_prefix(user)))?))
    }

    /// The records `user` takes part in in one server (`None`: records without a server),
    /// by id.
    pub fn entries_in(&self, user: UserId, guild: Option<GuildId>) -> Result<Vec<IndexEntry>, StoreError> {
        Ok(index_entries(self.backend.scan(&KeyRange::prefix(&keys::player_server_prefix(user, guild)))?))
    }

    /// Records with something due at or before `until`, earliest first.
    pub fn due(&self, until: Timestamp) -> Result<Vec<GameId>, StoreError> {
        let (start, last) = keys::deadlines_until(until);
        let entries = self.backend.scan(&KeyRange::through(start, &last))?;
        Ok(entries.iter().filter_map(|(key, _)| keys::id_at_end(key)).collect())
    }

    /// The settings of user `id`.
    pub fn user(&self, id: UserId) -> Result<Option<UserRecord>, StoreError> {
        self.backend.get(&keys::user(id))?.map(|bytes| keys::decode_user(&bytes)).transpose()
    }

    /// Stores the settings of a user.
    pub fn save_user(&self, user: &UserRecord) -> Result<(), StoreError> {
        self.commit(Batch::new().put(keys::user(user.id), serde_json::to_vec(user)?))
    }

    /// Every key and value in key order: for tests and backups.
    pub fn dump(&self) -> Result<Dump, StoreError> {
        self.backend.scan(&KeyRange::all())
    }

    /// Whether the store has held games (a record, or the id counter): such a store is
    /// not empty for an import.
    pub fn holds_games(&self) -> Result<bool, StoreError> {
        let any_game = !self.backend.scan(&KeyRange::prefix(&[keys::GAME]).limit(1))?.is_empty();
        Ok(any_game || self.backend.get(keys::NEXT_ID)?.is_some())
    }

    /// Writes an export into a store that holds no games, all or nothing: the records with
    /// their ids and versions, their index entries, the users, the ratings, and the id
    /// counter (at least the largest id). [`StoreError::NotEmpty`] (and nothing written) if
    /// it holds games.
    pub fn restore(&self, restored: Restore) -> Result<(), StoreError> {
        let Restore { games, users, ratings, last_id } = restored;
        if self.holds_games()? {
            return Err(StoreError::NotEmpty);
        }
        let mut batch = Batch::new();
        // Every creation writes the counter: a creation racing this import fails it.
        batch.expect(keys::NEXT_ID, None);
        let mut last = last_id;
        for record in &games {
            last = last.max(record.id.0);
            batch.writes.extend(keys::changes(None, record)?);
        }
        for user in &users {
            batch.put(keys::user(user.id), serde_json::to_vec(user)?);
        }
        for rating in &ratings {
            batch.put(keys::rating_of(rating), serde_json::to_vec(rating)?);
        }
        if last > 0 {
            batch.put(keys::NEXT_ID, last.to_be_bytes());
        }
        match self.commit(&batch) {
            Err(StoreError::Conflict) => Err(StoreError::NotEmpty),
            other => other,
        }
    }

    /// Claims the scheduled export that falls due at `now`, once across every process
    /// sharing the database: if no export was ever scheduled, or the next was due at or
    /// before `now`, the next is set to `next` and the answer is `true` (the caller writes
    /// the export); else `false`. One atomic compare-and-swap, durable when it returns.
    pub fn claim_backup(&self, now: Timestamp, next: Timestamp) -> Result<bool, StoreError> {
        retrying(|| {
            let stored = self.backend.get(keys::BACKUP_DUE)?;
            if !keys::backup_due(stored.as_deref(), now) {
                return Ok(false);
            }
            // Another process that claimed first changed the value: read it again.
            self.commit(Batch::new().expect(keys::BACKUP_DUE, stored).put(keys::BACKUP_DUE, keys::time_value(next)))?;
            Ok(true)
        })
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
