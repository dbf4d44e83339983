//! The bot's database: sled 0.34, one tree, the keys of [`super::keys`]. Each batch is
//! one sled transaction (its checks, then its writes); a flush is sled's flush, then an
//! `fdatasync` of sled's files ([`DurableSync`], shared by concurrent commits). A write
//! whose flush or sync fails is [`StoreError::Unsure`]: sled has already applied it in
//! memory and may have written it.

use std::path::Path;
use std::sync::Arc;

use sled::transaction::{ConflictableTransactionError, TransactionError};

use super::StoreError;
use super::backend::{Backend, Batch, Entries, KeyRange};
use super::check;
use super::durable::{DurableSync, GroupSync, SledFiles};
use super::keys;
use super::records::Store;

/// The page cache sled may fill.
const CACHE_BYTES: u64 = 64 * 1024 * 1024;

/// A sled database in a directory of its own.
#[derive(Debug)]
pub struct Sled {
    db: sled::Db,
    sync: Arc<DurableSync>,
}

fn unsure(error: impl std::fmt::Display) -> StoreError {
    StoreError::Unsure(error.to_string())
}

impl Backend for Sled {
    fn get(&self, key: &[u8]) -> Result<Option<Vec<u8>>, StoreError> {
        Ok(self.db.get(key)?.map(|value| value.to_vec()))
    }

    fn scan(&self, range: &KeyRange) -> Result<Entries, StoreError> {
        let found = match &range.end {
            Some(end) => self.db.range(range.start.as_slice()..end.as_slice()),
            None => self.db.range(range.start.as_slice()..),
        };
        let found = found.map(|entry| Ok(entry.map(|(key, value)| (key.to_vec(), value.to_vec()))?));
        match range.limit {
            Some(limit) => found.take(limit).collect(),
            None => found.collect(),
        }
    }

    fn apply(&self, batch: &Batch) -> Result<(), StoreError> {
        let result = self.db.transaction(|tx| {
            for (key, expected) in &batch.checks {
                if tx.get(key.as_slice())?.as_deref() != expected.as_deref() {
                    return Err(ConflictableTransactionError::Abort(StoreError::Conflict));
                }
            }
            for (key, value) in &batch.writes {
                match value {
                    Some(value) => tx.insert(key.as_slice(), value.as_slice())?,
                    None => tx.remove(key.as_slice())?,
                };
            }
            Ok(())
        });
        // A storage error comes from sled applying the change: whether it reached its log
        // is not known.
        result.map_err(|error| match error {
            TransactionError::Abort(error) => error,
            TransactionError::Storage(error) => unsure(error),
        })
    }

    // sled's own generator: increasing, and never given twice, even across restarts.
    fn next_id(&self) -> Result<u64, StoreError> {
        Ok(self.db.generate_id().map_err(unsure)? + 1)
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

/// The store over [`Sled`]: the bot's own database.
pub type SledStore = Store<Sled>;

impl Store<Sled> {
    /// Opens (or creates) the database in `dir` and checks every record ([`check`]). sled
    /// locks it: one process at a time.
    ///
    /// # Errors
    /// When the directory cannot be opened (locked, unreadable) or the check finds damage.
    pub fn open(dir: &Path) -> Result<SledStore, StoreError> {
        // sled's default page cache is 1 GiB; a bot's working set is far smaller.
        let config = sled::Config::new().path(dir).cache_capacity(CACHE_BYTES);
        let db = config.open()?;
        let files = SledFiles::open(dir).map_err(|error| StoreError::Database(error.to_string()))?;
        let store = Store::over(Arc::new(Sled { db, sync: Arc::new(GroupSync::new(files)) }));
        upgrade_player_index(&store)?;
        // Before anything is served: a damaged database stops the start here.
        check::check(&store).map_err(|damage| StoreError::Damaged(format!("{damage}; {}", check::RESTORE)))?;
        Ok(store)
    }
}

/// Rewrites player-index entries of the first layout (without the server) from their
/// records, in one batch. A database already upgraded has none: this is one scan.
fn upgrade_player_index(store: &Store<Sled>) -> Result<(), StoreError> {
    let mut batch = Batch::new();
    for (key, _) in store.backend().scan(&KeyRange::prefix(keys::PLAYER_PREFIX))? {
        if !keys::is_legacy_player_key(&key) {
            continue;
        }
        let record = match keys::id_at_end(&key) {
            Some(id) => store.load(id)?,
            None => None,
        };
        batch.writes.extend(keys::upgrade_player_key(&key, record.as_ref()));
    }
    if batch.is_empty() { Ok(()) } else { store.commit(&batch) }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ids::{GameId, GuildId, UserId};
    use crate::store::{IndexEntry, Phase, keys};

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
