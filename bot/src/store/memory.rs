//! The in-memory store for tests: the same keys and checks as the sled store, in a
//! `BTreeMap` behind a mutex.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Mutex, MutexGuard};

use super::keys::{self, Write};
use stonemate_engine::GameKind;

use super::rating::{RatingChange, RatingRecord};
use super::record::{GameRecord, UserRecord};
use super::{Dump, GameStore, IndexEntry, Queued, Restore, StoreError};
use crate::clock::Timestamp;
use crate::ids::{GameId, GuildId, UserId};

type Map = BTreeMap<Vec<u8>, Vec<u8>>;

/// A store that lives as long as the value: for tests.
#[derive(Debug, Default)]
pub struct MemoryStore {
    map: Mutex<Map>,
    /// The last outbox id given out (sled's `generate_id`, counted from 1).
    last_notice: AtomicU64,
}

impl MemoryStore {
    #[must_use]
    pub fn new() -> MemoryStore {
        MemoryStore::default()
    }

    fn scan(&self, prefix: &[u8]) -> Vec<IndexEntry> {
        let map = self.map();
        let entries = map.range(prefix.to_vec()..).take_while(|(key, _)| key.starts_with(prefix));
        entries.filter_map(|(key, value)| keys::index_entry(key, value)).collect()
    }

    fn map(&self) -> MutexGuard<'_, Map> {
        // A panic while holding the lock leaves whole writes only (they are applied after
        // every check), so the map is still consistent.
        self.map.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
    }
}

impl MemoryStore {
    /// The writes that put `notices` in the outbox, each with a new id.
    fn notice_writes(&self, notices: &[Queued]) -> Vec<Write> {
        let id = || self.last_notice.fetch_add(1, Ordering::SeqCst) + 1;
        notices.iter().map(|notice| (keys::notice(id()), Some(keys::notice_value(notice.due, &notice.body)))).collect()
    }
}

fn apply(map: &mut Map, writes: Vec<Write>) {
    for (key, value) in writes {
        match value {
            Some(value) => map.insert(key, value),
            None => map.remove(&key),
        };
    }
}

impl GameStore for MemoryStore {
    fn create(&self, mut record: GameRecord) -> Result<GameRecord, StoreError> {
        let mut map = self.map();
        record.id = keys::next_id(map.get(keys::NEXT_ID).map(Vec::as_slice))?;
        record.version = 1;
        let writes = keys::changes(None, &record)?;
        map.insert(keys::NEXT_ID.to_vec(), record.id.0.to_be_bytes().to_vec());
        apply(&mut map, writes);
        Ok(record)
    }

    fn load(&self, id: GameId) -> Result<Option<GameRecord>, StoreError> {
        self.map().get(&keys::game(id)).map(|bytes| keys::decode_game(bytes)).transpose()
    }

    fn update_with(&self, record: &GameRecord, ratings: &[RatingChange], notices: &[Queued]) -> Result<(), StoreError> {
        let mut map = self.map();
        let old = map.get(&keys::game(record.id)).ok_or(StoreError::Missing(record.id))?;
        let old = keys::decode_game(old)?;
        if old.version.checked_add(1) != Some(record.version) {
            return Err(StoreError::Conflict);
        }
        let mut writes = keys::changes(Some(&old), record)?;
        for (key, expected, value) in keys::rating_writes(ratings)? {
            if !keys::rating_unchanged(map.get(&key).map(Vec::as_slice), expected)? {
                return Err(StoreError::Conflict);
            }
            writes.push((key, Some(value)));
        }
        writes.extend(self.notice_writes(notices));
        apply(&mut map, writes);
        Ok(())
    }

    fn rating(&self, guild: GuildId, game: GameKind, user: UserId) -> Result<Option<RatingRecord>, StoreError> {
        self.map().get(&keys::rating(guild, game, user)).map(|bytes| keys::decode_rating(bytes)).transpose()
    }

    fn ratings(&self, guild: GuildId, game: GameKind) -> Result<Vec<RatingRecord>, StoreError> {
        let prefix = keys::rating_prefix(guild, game);
        let map = self.map();
        let found = map.range(prefix.clone()..).take_while(|(key, _)| key.starts_with(&prefix));
        found.map(|(_, value)| keys::decode_rating(value)).collect()
    }

    fn enqueue(&self, notices: &[Queued]) -> Result<(), StoreError> {
        let mut map = self.map();
        let writes = self.notice_writes(notices);
        apply(&mut map, writes);
        Ok(())
    }

    fn claim(&self, now: Timestamp, until: Timestamp, limit: usize) -> Result<Vec<Queued>, StoreError> {
        let mut map = self.map();
        let mut claimed = Vec::new();
        for (key, value) in map.range(keys::notice(0)..=keys::notice(u64::MAX)) {
            let notice = keys::decode_notice(key, value)?;
            if claimed.len() == limit {
                break;
            }
            if notice.due <= now {
                claimed.push(Queued { due: until, ..notice });
            }
        }
        let writes = claimed.iter().map(|n| (keys::notice(n.id), Some(keys::notice_value(n.due, &n.body)))).collect();
        apply(&mut map, writes);
        Ok(claimed)
    }

    fn reschedule(&self, notice: &Queued) -> Result<bool, StoreError> {
        let mut map = self.map();
        let Some(value) = map.get_mut(&keys::notice(notice.id)) else { return Ok(false) };
        *value = keys::notice_value(notice.due, &notice.body);
        Ok(true)
    }

    fn remove_notice(&self, id: u64) -> Result<(), StoreError> {
        self.map().remove(&keys::notice(id));
        Ok(())
    }

    fn raise_report(&self, game: GameId) -> Result<(), StoreError> {
        self.map().entry(keys::report(game)).or_insert_with(|| keys::REPORT_PENDING.to_vec());
        Ok(())
    }

    fn take_report(&self, game: GameId) -> Result<bool, StoreError> {
        let mut map = self.map();
        match map.get_mut(&keys::report(game)) {
            Some(value) if value == keys::REPORT_PENDING => {
                *value = keys::REPORT_SHOWN.to_vec();
                Ok(true)
            }
            _ => Ok(false),
        }
    }

    fn entries_of(&self, user: UserId) -> Result<Vec<IndexEntry>, StoreError> {
        Ok(self.scan(&keys::player_prefix(user)))
    }

    fn entries_in(&self, user: UserId, guild: Option<GuildId>) -> Result<Vec<IndexEntry>, StoreError> {
        Ok(self.scan(&keys::player_server_prefix(user, guild)))
    }

    fn due(&self, until: Timestamp) -> Result<Vec<GameId>, StoreError> {
        let (start, end) = keys::deadlines_until(until);
        Ok(self.map().range(start..=end).filter_map(|(key, _)| keys::id_at_end(key)).collect())
    }

    fn user(&self, id: UserId) -> Result<Option<UserRecord>, StoreError> {
        self.map().get(&keys::user(id)).map(|bytes| keys::decode_user(bytes)).transpose()
    }

    fn save_user(&self, user: &UserRecord) -> Result<(), StoreError> {
        let bytes = serde_json::to_vec(user)?;
        self.map().insert(keys::user(user.id), bytes);
        Ok(())
    }

    fn restore(&self, restored: Restore) -> Result<(), StoreError> {
        let Restore { games, users, ratings, last_id } = restored;
        let mut map = self.map();
        if map.keys().any(|key| keys::holds_games(key)) {
            return Err(StoreError::NotEmpty);
        }
        // Every write is computed before any is applied: a bad record leaves the map as it was.
        let mut writes = Vec::new();
        let mut last = last_id;
        for record in &games {
            last = last.max(record.id.0);
            writes.extend(keys::changes(None, record)?);
        }
        for user in &users {
            writes.push((keys::user(user.id), Some(serde_json::to_vec(user)?)));
        }
        for rating in &ratings {
            writes.push((keys::rating_of(rating), Some(serde_json::to_vec(rating)?)));
        }
        if last > 0 {
            writes.push((keys::NEXT_ID.to_vec(), Some(last.to_be_bytes().to_vec())));
        }
        apply(&mut map, writes);
        Ok(())
    }

    fn claim_backup(&self, now: Timestamp, next: Timestamp) -> Result<bool, StoreError> {
        let mut map = self.map();
        if !keys::backup_due(map.get(keys::BACKUP_DUE).map(Vec::as_slice), now) {
            return Ok(false);
        }
        map.insert(keys::BACKUP_DUE.to_vec(), keys::time_value(next));
        Ok(true)
    }

    fn dump(&self) -> Result<Dump, StoreError> {
        Ok(self.map().iter().map(|(k, v)| (k.clone(), v.clone())).collect())
    }
}
