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
/// default panic hook stays quiet inside the call ([`quiet_panics`]): the operator reads
/// the message, not sled's panic and a note on backtraces before it. The store stops at
/// the error ([`super::FailStop`]), so that nothing runs on over sled's interrupted state.
pub(super) fn guarded<T>(dir: &Path, call: impl FnOnce() -> Result<T, StoreError>) -> Result<T, StoreError> {
    quiet_panics(call).unwrap_or_else(|panic| {
        let said = panic
            .downcast_ref::<&str>()
            .map(|text| (*text).to_owned())
            .or_else(|| panic.downcast_ref::<String>().cloned())
            .unwrap_or_default();
        // sled's text ends with a plea to open an issue: the first sentence is the fact.
        let said = said.split(". ").next().unwrap_or_default();
        Err(damaged(dir, &format!("sled stopped reading them ({said})")))
    })
}

thread_local! {
    /// Whether this thread is inside [`quiet_panics`].
    static QUIET: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Runs `call`, catching its panic, with the panic hook silent on this thread meanwhile
/// (the hook, installed once, hands every other panic to the one it replaced).
fn quiet_panics<T>(call: impl FnOnce() -> T) -> std::thread::Result<T> {
    static HOOK: std::sync::Once = std::sync::Once::new();
    HOOK.call_once(|| {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            if !QUIET.with(std::cell::Cell::get) {
                previous(info);
            }
        }));
    });
    let outer = QUIET.with(|quiet| quiet.replace(true));
    let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(call));
    QUIET.with(|quiet| quiet.set(outer));
    result
}

/// The database in `dir` as damaged: sled cannot read its files (`detail` says how), with
/// the way to restore it.
pub(super) fn damaged(dir: &Path, detail: &str) -> StoreError {
    let damage = Damage {
        what: format!("sled's files in {} (its log `db` or its snapshot `snap.*`)", dir.display()),
        detail: detail.to_owned(),
    };
    StoreError::Damaged(format!("{damage}; {}", recover::restore_hint(dir)))
}

/// A failed read of sled on the database in `dir`: data sled finds corrupted (a log cut
/// short, a bad page) is damage, named in words rather than sled's debug text.
pub(super) fn read_error(dir: &Path, error: sled::Error) -> StoreError {
    match error {
        sled::Error::Corruption { at, .. } => {
            let place = match at {
                Some(sled::DiskPtr::Inline(offset)) => format!(" at byte {offset} of the log"),
                Some(sled::DiskPtr::Blob(_, blob)) => format!(" in blob {blob}"),
                None => String::new(),
            };
            damaged(dir, &format!("sled found them cut short or corrupted{place}"))
        }
        other => other.into(),
    }
}

pub(super) fn unsure(error: impl std::fmt::Display) -> StoreError {
    StoreError::Unsure(error.to_string())
}

impl Backend for Tree {
    fn get(&self, key: &[u8]) -> Result<Option<Vec<u8>>, StoreError> {
        self.guard(|| Ok(self.db.get(key).map_err(|error| read_error(&self.dir, error))?.map(|value| value.to_vec())))
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
            let (key, value) = entry.map_err(|error| read_error(&self.dir, error))?;
            Ok((key.to_vec(), value.to_vec()))
        });
        let entries = match range.limit {
            Some(limit) => found.take(limit).collect::<Result<Vec<_>, _>>(),
            None => found.collect(),
        }?;
        count_pages(self, &entries)?;
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
fn count_pages(tree: &Tree, entries: &Entries) -> Result<(), StoreError> {
    for (key, _) in entries {
        tree.db.get(key).map_err(|error| read_error(&tree.dir, error))?;
    }
    Ok(())
}
