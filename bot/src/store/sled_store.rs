//! The bot's database: sled 0.34, one tree, the keys of [`super::keys`]. Each change is
//! one sled transaction (the record, its index entries and, for new records, the id
//! counter), then a flush and an `fdatasync` of sled's files ([`DurableSync`], shared by
//! concurrent commits) before the call returns. A write whose flush or sync fails is
//! [`StoreError::Unsure`]: sled has already applied it in memory and may have written it.

use std::path::Path;
use std::sync::Arc;

use sled::transaction::{ConflictableTransactionError, TransactionError, TransactionalTree};
use stonemate_engine::GameKind;

use super::check;
use super::durable::{DurableSync, GroupSync, SledFiles};
use super::keys::{self, Write};
use super::rating::{RatingChange, RatingRecord};
use super::record::{GameRecord, UserRecord};
use super::{Dump, GameStore, IndexEntry, Queued, Restore, StoreError};
use crate::clock::Timestamp;
use crate::ids::{GameId, GuildId, UserId};

/// The page cache sled may fill.
const CACHE_BYTES: u64 = 64 * 1024 * 1024;

/// A sled database in a directory of its own.
#[derive(Debug, Clone)]
pub struct SledStore {
    db: sled::Db,
    sync: Arc<DurableSync>,
}

type TxResult<T> = Result<T, ConflictableTransactionError<StoreError>>;

fn abort<T>(error: StoreError) -> TxResult<T> {
    Err(ConflictableTransactionError::Abort(error))
}

fn apply(tx: &TransactionalTree, writes: &[Write]) -> TxResult<()> {
    for (key, value) in writes {
        match value {
            Some(value) => tx.insert(key.as_slice(), value.as_slice())?,
            None => tx.remove(key.as_slice())?,
        };
    }
    Ok(())
}

/// Puts `notices` in the outbox under new ids (sled's own generator: increasing, and never
/// given twice, even across restarts).
fn put_notices(tx: &TransactionalTree, notices: &[Queued]) -> TxResult<()> {
    for notice in notices {
        let id = tx.generate_id()? + 1;
        tx.insert(keys::notice(id), keys::notice_value(notice.due, &notice.body))?;
    }
    Ok(())
}

/// A transaction's storage error comes from sled applying the change: whether it reached
/// its log is not known.
fn unwrap_tx<T>(result: Result<T, TransactionError<StoreError>>) -> Result<T, StoreError> {
    result.map_err(|error| match error {
        TransactionError::Abort(error) => error,
        TransactionError::Storage(error) => StoreError::Unsure(error.to_string()),
    })
}

impl SledStore {
    /// Opens (or creates) the database in `dir` and checks every record ([`check`]). sled
    /// locks it: one process at a time.
    pub fn open(dir: &Path) -> Result<SledStore, StoreError> {
        // sled's default page cache is 1 GiB; a bot's working set is far smaller.
        let config = sled::Config::new().path(dir).cache_capacity(CACHE_BYTES);
        let db = config.open()?;
        let files = SledFiles::open(dir).map_err(|error| StoreError::Database(error.to_string()))?;
        let store = SledStore { db, sync: Arc::new(GroupSync::new(files)) };
        store.upgrade_player_index()?;
        // Before anything is served: a damaged database stops the start here.
        check::check(&store).map_err(|damage| StoreError::Damaged(format!("{damage}; {}", check::RESTORE)))?;
        Ok(store)
    }

    /// Rewrites player-index entries of the first layout (without the server) from their
    /// records, in one batch. A database already upgraded has none: this is one scan.
    fn upgrade_player_index(&self) -> Result<(), StoreError> {
        let mut batch = sled::Batch::default();
        let mut upgraded = 0usize;
        for entry in self.db.scan_prefix(keys::PLAYER_PREFIX) {
            let (key, _) = entry?;
            if !keys::is_legacy_player_key(&key) {
                continue;
            }
            let record = match keys::id_at_end(&key) {
                Some(id) => self.load(id)?,
                None => None,
            };
            for (key, value) in keys::upgrade_player_key(&key, record.as_ref()) {
                match value {
                    Some(value) => batch.insert(key, value),
                    None => batch.remove(key),
                }
            }
            upgraded += 1;
        }
        if upgraded > 0 {
            self.db.apply_batch(batch).map_err(unsure)?;
            self.flush()?;
        }
        Ok(())
    }

    fn scan(&self, prefix: &[u8]) -> Result<Vec<IndexEntry>, StoreError> {
        let mut entries = Vec::new();
        for entry in self.db.scan_prefix(prefix) {
            let (key, value) = entry?;
            entries.extend(keys::index_entry(&key, &value));
        }
        Ok(entries)
    }

    /// Stores many new records at once with one flush, for filling a database quickly
    /// (benchmarks, imports). Ids are given out as by [`GameStore::create`].
    pub fn create_many(&self, records: impl IntoIterator<Item = GameRecord>) -> Result<GameId, StoreError> {
        let mut last = keys::next_id(self.db.get(keys::NEXT_ID)?.as_deref())?.0 - 1;
        let mut batch = sled::Batch::default();
        for mut record in records {
            last += 1;
            record.id = GameId(last);
            record.version = 1;
            for (key, value) in keys::changes(None, &record)? {
                match value {
                    Some(value) => batch.insert(key, value),
                    None => batch.remove(key),
                }
            }
        }
        batch.insert(keys::NEXT_ID, &last.to_be_bytes());
        self.db.apply_batch(batch).map_err(unsure)?;
        self.flush()?;
        Ok(GameId(last))
    }

    /// Makes every write that finished before the call durable: sled's flush (its log
    /// written, `sync_file_range`), then an `fdatasync` round shared with concurrent
    /// commits. A failure of either leaves the outcome unknown.
    fn flush(&self) -> Result<(), StoreError> {
        self.db.flush().map_err(unsure)?;
        self.sync.sync().map_err(unsure)?;
        Ok(())
    }
}

fn unsure(error: impl std::fmt::Display) -> StoreError {
    StoreError::Unsure(error.to_string())
}

impl GameStore for SledStore {
    // One batch, durably; sled lets one process open the directory, so nothing writes
    // between the check and the batch.
    fn restore(&self, restored: Restore) -> Result<(), StoreError> {
        let Restore { games, users, ratings, last_id } = restored;
        if self.db.scan_prefix([keys::GAME]).next().is_some() || self.db.contains_key(keys::NEXT_ID)? {
            return Err(StoreError::NotEmpty);
        }
        let mut batch = sled::Batch::default();
        let mut last = last_id;
        for record in &games {
            last = last.max(record.id.0);
            for (key, value) in keys::changes(None, record)? {
                match value {
                    Some(value) => batch.insert(key, value),
                    None => batch.remove(key),
                }
            }
        }
        for user in &users {
            batch.insert(keys::user(user.id), serde_json::to_vec(user)?);
        }
        for rating in &ratings {
            batch.insert(keys::rating_of(rating), serde_json::to_vec(rating)?);
        }
        if last > 0 {
            batch.insert(keys::NEXT_ID, &last.to_be_bytes());
        }
        self.db.apply_batch(batch).map_err(unsure)?;
        self.flush()
    }

    fn create(&self, record: GameRecord) -> Result<GameRecord, StoreError> {
        let stored = unwrap_tx(self.db.transaction(|tx| {
            let mut record = record.clone();
            record.id = match keys::next_id(tx.get(keys::NEXT_ID)?.as_deref()) {
                Ok(id) => id,
                Err(error) => return abort(error),
            };
            record.version = 1;
            let writes = match keys::changes(None, &record) {
                Ok(writes) => writes,
                Err(error) => return abort(error),
            };
            tx.insert(keys::NEXT_ID, &record.id.0.to_be_bytes())?;
            apply(tx, &writes)?;
            Ok(record)
        }))?;
        self.flush()?;
        Ok(stored)
    }

    fn load(&self, id: GameId) -> Result<Option<GameRecord>, StoreError> {
        self.db.get(keys::game(id))?.map(|bytes| keys::decode_game(&bytes)).transpose()
    }

    fn update_with(&self, record: &GameRecord, ratings: &[RatingChange], notices: &[Queued]) -> Result<(), StoreError> {
        let ratings = keys::rating_writes(ratings)?;
        unwrap_tx(self.db.transaction(|tx| {
            let Some(old) = tx.get(keys::game(record.id))? else {
                return abort(StoreError::Missing(record.id));
            };
            let old = match keys::decode_game(&old) {
                Ok(old) => old,
                Err(error) => return abort(error),
            };
            if old.version.checked_add(1) != Some(record.version) {
                return abort(StoreError::Conflict);
            }
            for (key, expected, _) in &ratings {
                match keys::rating_unchanged(tx.get(key.as_slice())?.as_deref(), *expected) {
                    Ok(true) => {}
                    Ok(false) => return abort(StoreError::Conflict),
                    Err(error) => return abort(error),
                }
            }
            for (key, _, value) in &ratings {
                tx.insert(key.as_slice(), value.as_slice())?;
            }
            match keys::changes(Some(&old), record) {
                Ok(writes) => apply(tx, &writes)?,
                Err(error) => return abort(error),
            }
            put_notices(tx, notices)
        }))?;
        self.flush()
    }

    fn rating(&self, guild: GuildId, game: GameKind, user: UserId) -> Result<Option<RatingRecord>, StoreError> {
        self.db.get(keys::rating(guild, game, user))?.map(|bytes| keys::decode_rating(&bytes)).transpose()
    }

    fn ratings(&self, guild: GuildId, game: GameKind) -> Result<Vec<RatingRecord>, StoreError> {
        let mut ratings = Vec::new();
        for entry in self.db.scan_prefix(keys::rating_prefix(guild, game)) {
            ratings.push(keys::decode_rating(&entry?.1)?);
        }
        Ok(ratings)
    }

    fn enqueue(&self, notices: &[Queued]) -> Result<(), StoreError> {
        unwrap_tx(self.db.transaction(|tx| put_notices(tx, notices)))?;
        self.flush()
    }

    // One process opens the directory and it claims from one task at a time; the
    // compare-and-swap still keeps two claims in this process from taking one notice.
    fn claim(&self, now: Timestamp, until: Timestamp, limit: usize) -> Result<Vec<Queued>, StoreError> {
        let mut claimed = Vec::new();
        for entry in self.db.scan_prefix([keys::NOTICE]) {
            if claimed.len() == limit {
                break;
            }
            let (key, value) = entry?;
            let notice = keys::decode_notice(&key, &value)?;
            if notice.due > now {
                continue;
            }
            let leased = keys::notice_value(until, &notice.body);
            if self.db.compare_and_swap(&key, Some(value), Some(leased)).map_err(unsure)?.is_ok() {
                claimed.push(Queued { due: until, ..notice });
            }
        }
        if !claimed.is_empty() {
            self.flush()?;
        }
        Ok(claimed)
    }

    fn reschedule(&self, notice: &Queued) -> Result<bool, StoreError> {
        let key = keys::notice(notice.id);
        let value = keys::notice_value(notice.due, &notice.body);
        let found = self.db.update_and_fetch(&key, |old| old.map(|_| value.clone())).map_err(unsure)?.is_some();
        self.flush()?;
        Ok(found)
    }

    fn remove_notice(&self, id: u64) -> Result<(), StoreError> {
        self.db.remove(keys::notice(id)).map_err(unsure)?;
        self.flush()
    }

    fn raise_report(&self, game: GameId) -> Result<(), StoreError> {
        let pending = Some(keys::REPORT_PENDING);
        // Already there (pending or shown): nothing changes.
        let _ = self.db.compare_and_swap(keys::report(game), None as Option<&[u8]>, pending).map_err(unsure)?;
        self.flush()
    }

    fn take_report(&self, game: GameId) -> Result<bool, StoreError> {
        let (pending, shown) = (Some(keys::REPORT_PENDING), Some(keys::REPORT_SHOWN));
        let taken = self.db.compare_and_swap(keys::report(game), pending, shown).map_err(unsure)?.is_ok();
        if taken {
            self.flush()?;
        }
        Ok(taken)
    }

    fn entries_of(&self, user: UserId) -> Result<Vec<IndexEntry>, StoreError> {
        self.scan(&keys::player_prefix(user))
    }

    fn entries_in(&self, user: UserId, guild: Option<GuildId>) -> Result<Vec<IndexEntry>, StoreError> {
        self.scan(&keys::player_server_prefix(user, guild))
    }

    fn due(&self, until: Timestamp) -> Result<Vec<GameId>, StoreError> {
        let (start, end) = keys::deadlines_until(until);
        let mut ids = Vec::new();
        for entry in self.db.range(start..=end) {
            ids.extend(keys::id_at_end(&entry?.0));
        }
        Ok(ids)
    }

    fn user(&self, id: UserId) -> Result<Option<UserRecord>, StoreError> {
        self.db.get(keys::user(id))?.map(|bytes| keys::decode_user(&bytes)).transpose()
    }

    fn save_user(&self, user: &UserRecord) -> Result<(), StoreError> {
        self.db.insert(keys::user(user.id), serde_json::to_vec(user)?).map_err(unsure)?;
        self.flush()
    }

    fn claim_backup(&self, now: Timestamp, next: Timestamp) -> Result<bool, StoreError> {
        loop {
            let stored = self.db.get(keys::BACKUP_DUE)?;
            if !keys::backup_due(stored.as_deref(), now) {
                return Ok(false);
            }
            let swap = self.db.compare_and_swap(keys::BACKUP_DUE, stored, Some(keys::time_value(next)));
            // Another thread changed it between the read and the swap: look again.
            if swap.map_err(unsure)?.is_ok() {
                self.flush()?;
                return Ok(true);
            }
        }
    }

    fn dump(&self) -> Result<Dump, StoreError> {
        self.db.iter().map(|entry| Ok(entry.map(|(k, v)| (k.to_vec(), v.to_vec()))?)).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::Phase;

    /// A game record as the previous version wrote it: `guild` 1, in a database whose
    /// player index has no server (`p` user id → standing byte).
    const PREVIOUS: &str = r#"{"format":1,"id":1,"version":2,"game":"go","options":[["board","9x9"],["pieces","R"],["squares","all"],["moving","off"],["komi","0"]],"challenger":11,"opponent":12,"names":["alice","bob"],"color":"white","players":[11,12],"days":0,"channel":100,"guild":1,"created":1700000000000,"expires":1700604800000,"phase":"playing","turns":["R@e5"],"clock":null,"draw_offer":null,"result":null}"#;

    fn legacy_player_key(user: u64, id: u32) -> Vec<u8> {
        let mut key = vec![b'p'];
        key.extend_from_slice(&user.to_be_bytes());
        key.extend_from_slice(&id.to_be_bytes());
        key
    }

    #[test]
    fn a_database_of_the_previous_version_is_upgraded_when_opened() {
        let dir = tempfile::tempdir().unwrap();
        {
            let db = sled::open(dir.path()).unwrap();
            db.insert(keys::game(GameId(1)), PREVIOUS.as_bytes()).unwrap();
            db.insert(legacy_player_key(11, 1), b"a").unwrap();
            db.insert(legacy_player_key(12, 1), b"a").unwrap();
            // An index entry whose record is gone is dropped.
            db.insert(legacy_player_key(13, 9), b"c").unwrap();
            db.insert(keys::NEXT_ID, &1u32.to_be_bytes()).unwrap();
            db.flush().unwrap();
        }
        let store = SledStore::open(dir.path()).unwrap();
        let record = store.load(GameId(1)).unwrap().expect("the record loads");
        assert_eq!((record.guild, record.turns.len()), (Some(GuildId(1)), 1));
        let entry = IndexEntry { id: GameId(1), phase: Phase::Playing, guild: Some(GuildId(1)), challenger: true };
        assert_eq!(store.entries_in(UserId(11), Some(GuildId(1))).unwrap(), [entry]);
        assert_eq!(store.entries_of(UserId(12)).unwrap(), [IndexEntry { challenger: false, ..entry }]);
        assert!(store.entries_of(UserId(13)).unwrap().is_empty());
        assert!(store.dump().unwrap().iter().all(|(key, _)| !keys::is_legacy_player_key(key)));
        // Opening again changes nothing.
        let before = store.dump().unwrap();
        drop(store);
        assert_eq!(SledStore::open(dir.path()).unwrap().dump().unwrap(), before);
    }
}
