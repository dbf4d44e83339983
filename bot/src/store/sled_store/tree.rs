//! sled's files read and written as they are ([`Tree`]): one tree, each batch one sled
//! transaction, every call guarded against sled's panics on a damaged log ([`guarded`]).
//! The checks and syncs of the store's own backend ([`super::backend::Sled`]) are above.

use std::path::Path;
use std::sync::Arc;

use sled::transaction::{ConflictableTransactionError, TransactionError};

use super::recover;
use crate::store::backend::{Backend, Batch, Entries, KeyRange};
use crate::store::check::Damage;
use crate::store::error::StoreError;

/// The files of the sled database in a directory, read and written without the checks
/// and syncs of [`Sled`]: what the full check reads, beside the service.
#[derive(Debug, Clone)]
pub(super) struct Tree {
    pub(super) db: sled::Db,
    /// Where it is, for the message when sled cannot read it.
    pub(super) dir: Arc<Path>,
}

/// Runs `call` (calls into sled on the database in `dir`), answering a panic with
/// [`StoreError::Damaged`]: sled 0.34 panics instead of failing when a page of a compressed
/// log passes its checksum but does not decompress (`maybe_decompress`), and a damaged
/// database must stop with the directory and the way to restore it, not a crash. The
/// panic's own text still reaches standard error (the panic hook runs first), and the
/// store stops at the error ([`super::FailStop`]), so that nothing runs on over sled's
/// interrupted state.
pub(super) fn guarded<T>(dir: &Path, call: impl FnOnce() -> Result<T, StoreError>) -> Result<T, StoreError> {
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(call)).unwrap_or_else(|panic| {
        let said = panic
            .downcast_ref::<&str>()
            .map(|text| (*text).to_owned())
            .or_else(|| panic.downcast_ref::<String>().cloned())
            .unwrap_or_default();
        // sled's text ends with a plea to open an issue: the first sentence is the fact.
        let said = said.split(". ").next().unwrap_or_default();
        let damage = Damage {
            what: format!("sled's files in {} (its log `db` or its snapshot `snap.*`)", dir.display()),
            detail: format!("sled stopped reading them ({said})"),
        };
        Err(StoreError::Damaged(format!("{damage}; {}", recover::restore_hint(dir))))
    })
}

pub(super) fn unsure(error: impl std::fmt::Display) -> StoreError {
    StoreError::Unsure(error.to_string())
}

impl Backend for Tree {
    fn get(&self, key: &[u8]) -> Result<Option<Vec<u8>>, StoreError> {
        self.guard(|| Ok(self.db.get(key)?.map(|value| value.to_vec())))
    }

    fn scan(&self, range: &KeyRange) -> Result<Entries, StoreError> {
        self.guard(|| self.scan_unguarded(range))
    }

    fn apply(&self, batch: &Batch) -> Result<(), StoreError> {
        self.guard(|| self.apply_unguarded(batch))
    }

    // sled's own generator: increasing, and never given twice, even across restarts.
    fn next_id(&self) -> Result<u64, StoreError> {
        self.guard(|| Ok(self.db.generate_id().map_err(unsure)? + 1))
    }

    fn flush(&self) -> Result<(), StoreError> {
        self.guard(|| self.db.flush().map(drop).map_err(unsure))
    }
}

impl Tree {
    /// Runs a call into sled, answering a panic of sled with [`StoreError::Damaged`] (see
    /// [`guarded`]).
    fn guard<T>(&self, call: impl FnOnce() -> Result<T, StoreError>) -> Result<T, StoreError> {
        guarded(&self.dir, call)
    }

    /// A range of keys, each then looked up once more ([`count_pages`]).
    fn scan_unguarded(&self, range: &KeyRange) -> Result<Entries, StoreError> {
        let found = match &range.end {
            Some(end) => self.db.range(range.start.as_slice()..end.as_slice()),
            None => self.db.range(range.start.as_slice()..),
        };
        let found = found.map(|entry| -> Result<_, StoreError> {
            let (key, value) = entry?;
            Ok((key.to_vec(), value.to_vec()))
        });
        let entries = match range.limit {
            Some(limit) => found.take(limit).collect::<Result<Vec<_>, _>>(),
            None => found.collect(),
        }?;
        count_pages(&self.db, &entries)?;
        Ok(entries)
    }

    fn apply_unguarded(&self, batch: &Batch) -> Result<(), StoreError> {
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
}

/// Looks up each key of `entries` (just scanned) once more, so that sled's page cache
/// counts the pages they lie in and can let them go.
///
/// sled 0.34 counts a page against its cache only when it handles the accesses to it, 64
/// at a time in each of 256 shards of its LRU; a scan touches each leaf once, so up to
/// 16,384 leaves a scan decoded are held uncounted, whatever the cache's size. A leaf of
/// records holds up to 16 of them, several KiB: at 100,000 games an export or a check held
/// nearly every record in memory (a scan of all keys peaked at 93 MiB, with a 256-byte
/// cache as with 2 MiB). With a lookup per key a leaf is touched as often as it has keys,
/// the shards' queues fill and the LRU evicts: the same scan peaked at 32 MiB, 5% slower.
/// The bot's own scans (a player's games, the deadlines) are short and pay a microsecond
/// or two a key.
fn count_pages(db: &sled::Db, entries: &Entries) -> Result<(), StoreError> {
    for (key, _) in entries {
        db.get(key)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;
    use crate::store::SledStore;
    use crate::store::check::sample_record;
    use crate::store::sled_store::settings::SEGMENT_BYTES;
    use crate::store::sled_store::testing::open_when_free_store;

    /// The zstd frames' first bytes.
    const ZSTD_MAGIC: [u8; 4] = [0x28, 0xb5, 0x2f, 0xfd];

    /// A number as sled 0.34 writes it in its log (`serialization.rs`): its value, and
    /// how many bytes it took.
    fn varint(bytes: &[u8]) -> (u64, usize) {
        match bytes[0] {
            small @ 0..=240 => (u64::from(small), 1),
            first @ 241..=248 => (240 + 256 * (u64::from(first) - 241) + u64::from(bytes[1]), 2),
            249 => (2288 + 256 * u64::from(bytes[1]) + u64::from(bytes[2]), 3),
            other => {
                let size = usize::from(other) - 247;
                let mut aligned = [0; 8];
                aligned[..size].copy_from_slice(&bytes[1..=size]);
                (u64::from_le_bytes(aligned), size + 1)
            }
        }
    }

    /// Garbles the last compressed page of the log's first segment and gives it a
    /// checksum that holds, as a bad sector under a lucky checksum or a bug would: sled
    /// then reads it at its next start and fails to decompress it. A message is a header
    /// (checksum, kind, body length, segment number, page, after a 20-byte segment header)
    /// and a body (its length, then the zstd frame); the checksum covers the body, then the
    /// header past the checksum (`calculate_message_crc32`).
    fn garble_a_compressed_page(dir: &Path) {
        let mut log = std::fs::read(dir.join("db")).unwrap();
        let (mut at, mut garbled) = (20, None);
        while at + 8 < SEGMENT_BYTES.min(log.len()) && log[at + 4] != 0 {
            let (len, len_size) = varint(&log[at + 5..]);
            let (_, segment_size) = varint(&log[at + 5 + len_size..]);
            let (_, page_size) = varint(&log[at + 5 + len_size + segment_size..]);
            let header = 5 + len_size + segment_size + page_size;
            let body = at + header;
            let (_, frame_at) = varint(&log[body..]);
            // Inline pages and page updates (kinds 8 and 10).
            if [8, 10].contains(&log[at + 4]) && log[body + frame_at..].starts_with(&ZSTD_MAGIC) {
                garbled = Some((at, header, body, frame_at, len as usize));
            }
            at = body + len as usize;
        }
        let (at, header, body, frame_at, len) = garbled.expect("a compressed page in the first segment");
        // A frame header with its reserved bit set: zstd refuses the frame.
        log[body + frame_at + 4] = 0xff;
        let mut hasher = crc32fast::Hasher::new();
        hasher.update(&log[body..body + len]);
        hasher.update(&log[at + 4..at + header]);
        let crc = hasher.finalize() ^ 0xffff_ffff;
        log[at..at + 4].copy_from_slice(&crc.to_le_bytes());
        std::fs::write(dir.join("db"), log).unwrap();
    }

    #[test]
    fn a_page_that_passes_its_checksum_but_does_not_decompress_stops_with_the_restore_command() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path().join("db");
        {
            let store = SledStore::open(&dir).unwrap();
            store.create_many((0..3).map(|n| sample_record(n, 2))).unwrap();
        }
        // Let sled's flusher thread let go of the files.
        drop(open_when_free_store(&dir));
        std::thread::sleep(Duration::from_millis(600));
        garble_a_compressed_page(&dir);
        let error = SledStore::open(&dir).map(drop).unwrap_err();
        let StoreError::Damaged(message) = &error else { panic!("{error:?}") };
        let shown = dir.display();
        assert!(message.starts_with(&format!("the database is damaged: sled's files in {shown}")), "{message}");
        assert!(message.contains("failed to decompress data"), "{message}");
        assert!(message.contains(&format!("stonemate import --data {shown}")), "{message}");
        assert!(!message.contains("open an issue"), "{message}");
    }
}
