//! What the clean end of a process owes a sled database it wrote to ([`Closing`]): a
//! snapshot, so that the next start reads that instead of the run's whole log.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Weak};

use super::backend::Sled;
use super::open::{STREAM_CACHE_BYTES, SledStore, cannot_open, open_error, open_when_free};
use super::recover;
use super::settings::sled_config;
use super::tree::guarded;
use crate::store::error::StoreError;

/// Has sled write a snapshot of the closed database in `dir`, so that the next start
/// reads only that: sled 0.34 writes one only when it opens a database, after reading
/// every message its log holds past the previous one, so that without this the first
/// start after a large import would read the whole import (a minute at 100,000 games).
/// [`Closing::settle`] calls this at the clean end of a run that wrote: an import, a
/// console session, the bot.
///
/// # Errors
/// As [`Store::open`].
fn settle(dir: &Path) -> Result<(), StoreError> {
    // A snapshot an interrupted settle left unfinished would stop this one.
    recover::leftovers(dir).map_err(|error| cannot_open(dir, &error))?;
    let config = sled_config(dir).cache_capacity(STREAM_CACHE_BYTES).flush_every_ms(None);
    guarded(dir, || open_when_free(&config).map(drop).map_err(|error| open_error(dir, error)))
}

/// What the clean end of a process owes the database it opened: on sled, when the run
/// wrote anything, a snapshot (sled opened once more) taken once every handle of the store
/// is gone.
///
/// sled 0.34 writes a snapshot only when it opens a database, after reading every message
/// logged since the previous one. Without this, the first start after a day of turns
/// would read the whole day's log (607 ms at 100,000 games after 2,000 turns, against
/// about 115 ms for the starts after it); with it, a clean stop pays that reading, and a
/// start reads the snapshot and one log segment. A crash skips it: the restart then reads
/// what was written since the last start or clean stop, as before.
#[derive(Debug, Default)]
pub struct Closing {
    /// The sled database's directory, whether it was written to, and its store while it is
    /// open (`None`: another kind of store, which owes nothing).
    sled: Option<(PathBuf, Arc<AtomicBool>, Weak<Sled>)>,
}

impl Closing {
    /// What closing `store` (opened on `dir`) will owe.
    #[must_use]
    pub fn of(store: &SledStore, dir: &Path) -> Closing {
        let sled = store.backend();
        Closing { sled: Some((dir.to_path_buf(), sled.wrote.clone(), Arc::downgrade(sled))) }
    }

    /// Once the store is closed, has sled write a snapshot if the run wrote anything;
    /// returns whether it did.
    ///
    /// # Errors
    /// [`StoreError::InUse`] when a handle of the store is still alive in this process
    /// (nothing is done: sled would wait for it in vain), else as [`Store::open`].
    pub fn settle(self) -> Result<bool, StoreError> {
        let Some((dir, wrote, open)) = self.sled else { return Ok(false) };
        if open.strong_count() > 0 {
            return Err(StoreError::InUse(format!(
                "{} is still open in this process: no snapshot taken at its close",
                dir.display()
            )));
        }
        if !wrote.load(Ordering::Relaxed) {
            return Ok(false);
        }
        settle(&dir).map(|()| true)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ids::GameId;
    use crate::store::check::sample_record;
    use crate::store::sled_store::testing::database;

    #[test]
    fn closing_snapshots_only_a_database_written_to_and_only_once_it_is_closed() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path().join("db");
        database(&dir, 3);
        let snapshots = || {
            let names = std::fs::read_dir(&dir).unwrap().map(|entry| entry.unwrap().file_name());
            names.filter(|name| name.to_string_lossy().starts_with("snap.")).collect::<Vec<_>>()
        };
        // Read only: nothing is owed, and sled is not opened again.
        let store = SledStore::open(&dir).unwrap();
        let closing = Closing::of(&store, &dir);
        assert_eq!(store.load(GameId(2)).unwrap().unwrap().id, GameId(2));
        drop(store);
        assert!(!closing.settle().unwrap());

        let store = SledStore::open(&dir).unwrap();
        let before = snapshots();
        let closing = Closing::of(&store, &dir);
        store.create(sample_record(9, 4)).unwrap();
        let still_open = Closing { sled: closing.sled.clone() };
        assert!(matches!(still_open.settle(), Err(StoreError::InUse(_))), "not while a handle lives");
        drop(store);
        assert!(closing.settle().unwrap());
        assert_ne!(snapshots(), before, "a snapshot past the write");
        assert_eq!(SledStore::open(&dir).unwrap().load(GameId(4)).unwrap().unwrap().turns.len(), 4);
    }
}
