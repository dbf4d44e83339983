//! The narrow trait a database implements: what truly differs between sled, PostgreSQL
//! and memory. Everything else (records, indexes, ratings, the outbox, reports, users,
//! backups) is written once, over this trait, by [`super::Store`].
//!
//! The model is one ordered key space of bytes (`store/keys.rs` lays it out). A change is
//! a [`Batch`]: puts and deletes applied all together or not at all, with checks that the
//! keys it was computed from still hold what was read ("key holds X", "key is absent").
//! A check that fails is [`StoreError::Conflict`] and writes nothing, so optimistic
//! read-check-write is safe across threads and, on PostgreSQL, across processes.

use std::fmt;

use super::error::StoreError;
use super::keys::{self, Write};
use super::notice::Queued;
use crate::clock::Timestamp;

/// One key's expected state in a [`Batch`]: the value it must hold, or `None` for absent.
pub type Check = (Vec<u8>, Option<Vec<u8>>);

/// An atomic change: every check holds and every write is applied, or nothing is.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Batch {
    /// What the keys this change was computed from must still hold.
    pub checks: Vec<Check>,
    /// The puts (`Some`) and deletes (`None`), applied in order.
    pub writes: Vec<Write>,
}

impl Batch {
    /// An empty batch.
    #[must_use]
    pub fn new() -> Batch {
        Batch::default()
    }

    /// Requires `key` to hold `value` (`None`: to be absent) when the batch is applied.
    pub fn expect(&mut self, key: impl Into<Vec<u8>>, value: Option<Vec<u8>>) -> &mut Batch {
        self.checks.push((key.into(), value));
        self
    }

    /// Puts `value` under `key`.
    pub fn put(&mut self, key: impl Into<Vec<u8>>, value: impl Into<Vec<u8>>) -> &mut Batch {
        self.writes.push((key.into(), Some(value.into())));
        self
    }

    /// Removes `key`.
    pub fn delete(&mut self, key: impl Into<Vec<u8>>) -> &mut Batch {
        self.writes.push((key.into(), None));
        self
    }

    /// Whether the batch writes nothing.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.writes.is_empty()
    }

    /// The checks in key order: backends that lock what they check (PostgreSQL) take the
    /// locks in one order, so two batches never wait for each other in a cycle.
    #[must_use]
    pub fn sorted_checks(&self) -> Vec<&Check> {
        let mut checks: Vec<&Check> = self.checks.iter().collect();
        checks.sort_by(|a, b| a.0.cmp(&b.0));
        checks
    }
}

/// Adds `notices` to `batch` under new ids from `backend`.
pub(super) fn put_notices<B: Backend + ?Sized>(
    backend: &B,
    batch: &mut Batch,
    notices: &[Queued],
) -> Result<(), StoreError> {
    for notice in notices {
        batch.put(keys::notice(backend.next_id()?), keys::notice_value(notice.due, &notice.body));
    }
    Ok(())
}

/// Keys from `start` (included) up to `end` (excluded; `None`: to the last key), in key
/// order, at most `limit` of them (`None`: all).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KeyRange {
    /// The first key that may be returned.
    pub start: Vec<u8>,
    /// The first key past the range.
    pub end: Option<Vec<u8>>,
    /// How many keys at most.
    pub limit: Option<usize>,
}

impl KeyRange {
    /// Every key starting with `prefix`.
    #[must_use]
    pub fn prefix(prefix: &[u8]) -> KeyRange {
        KeyRange { start: prefix.to_vec(), end: prefix_end(prefix), limit: None }
    }

    /// From `start` up to and including `last`.
    #[must_use]
    pub fn through(start: Vec<u8>, last: &[u8]) -> KeyRange {
        // The smallest key after `last` is `last` with a 0 byte appended.
        let mut end = last.to_vec();
        end.push(0);
        KeyRange { start, end: Some(end), limit: None }
    }

    /// Every key of the store.
    #[must_use]
    pub fn all() -> KeyRange {
        KeyRange { start: Vec::new(), end: None, limit: None }
    }

    /// The same range, at most `limit` keys.
    #[must_use]
    pub fn limit(self, limit: usize) -> KeyRange {
        KeyRange { limit: Some(limit), ..self }
    }

    /// Whether `key` lies in the range (the limit aside).
    #[must_use]
    pub fn contains(&self, key: &[u8]) -> bool {
        key >= self.start.as_slice() && self.end.as_deref().is_none_or(|end| key < end)
    }
}

/// The key just past every key starting with `prefix` (`None`: there is none, the prefix
/// is empty or all `0xff`).
#[must_use]
pub fn prefix_end(prefix: &[u8]) -> Option<Vec<u8>> {
    let mut end = prefix.to_vec();
    while let Some(last) = end.pop() {
        if last < u8::MAX {
            end.push(last + 1);
            return Some(end);
        }
    }
    None
}

/// Keys and values, in key order.
pub type Entries = Vec<(Vec<u8>, Vec<u8>)>;

/// The entries of a range read a chunk of keys at a time ([`chunks`]): memory stays flat
/// whatever the range holds. Each chunk is read as the backend then is; a range changing
/// meanwhile may be seen partly before and partly after a change.
#[derive(Debug)]
pub struct Chunks<'a, B: ?Sized> {
    backend: &'a B,
    /// The rest of the range (`None`: done).
    rest: Option<KeyRange>,
    size: usize,
}

/// Reads `range` from `backend` `size` keys at a time (at least one).
pub fn chunks<B: Backend + ?Sized>(backend: &B, range: KeyRange, size: usize) -> Chunks<'_, B> {
    Chunks { backend, rest: Some(range), size: size.max(1) }
}

impl<B: Backend + ?Sized> Iterator for Chunks<'_, B> {
    type Item = Result<Entries, StoreError>;

    fn next(&mut self) -> Option<Self::Item> {
        let rest = self.rest.take()?;
        let entries = match self.backend.scan(&KeyRange { limit: Some(self.size), ..rest.clone() }) {
            Ok(entries) => entries,
            Err(error) => return Some(Err(error)),
        };
        if entries.len() == self.size
            && let Some((last, _)) = entries.last()
        {
            // The smallest key after `last`.
            let mut start = last.clone();
            start.push(0);
            self.rest = Some(KeyRange { start, ..rest });
        }
        (!entries.is_empty()).then_some(Ok(entries))
    }
}

/// A database under the store. Errors that mean the database itself failed are
/// [`StoreError::Database`] (nothing happened) or [`StoreError::Unsure`] (a write that may
/// or may not be on disk); [`super::FailStop`] stops at both.
pub trait Backend: Send + Sync + fmt::Debug {
    /// The value under `key`.
    fn get(&self, key: &[u8]) -> Result<Option<Vec<u8>>, StoreError>;

    /// The keys and values of `range`, in key order, as one consistent snapshot.
    fn scan(&self, range: &KeyRange) -> Result<Entries, StoreError>;

    /// Applies `batch` atomically: [`StoreError::Conflict`] and nothing written if a check
    /// does not hold. Once this returns the change is visible to every later read, but it
    /// is durable only after [`Backend::flush`].
    fn apply(&self, batch: &Batch) -> Result<(), StoreError>;

    /// A new id for an outbox notice: increasing, never given twice (across restarts and,
    /// on a shared database, across processes). Ids may be skipped.
    fn next_id(&self) -> Result<u64, StoreError>;

    /// Makes every batch applied before the call durable. A failure leaves it unknown
    /// whether they reached the disk ([`StoreError::Unsure`]).
    fn flush(&self) -> Result<(), StoreError>;

    /// Up to `limit` outbox entries (`o` keys) due at or before `now`, oldest (smallest
    /// id) first. By default a scan of the outbox a chunk at a time; a database with an
    /// index on the due time (PostgreSQL) reads only the due ones.
    fn due_notices(&self, now: Timestamp, limit: usize) -> Result<Entries, StoreError> {
        let mut due = Entries::new();
        for entries in chunks(self, KeyRange::prefix(&[keys::NOTICE]), 256) {
            for (key, value) in entries? {
                if due.len() == limit {
                    return Ok(due);
                }
                if keys::decode_notice(&key, &value)?.due <= now {
                    due.push((key, value));
                }
            }
        }
        Ok(due)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_prefix_ends_just_past_its_last_key() {
        assert_eq!(prefix_end(b"p\x01\xff"), Some(b"p\x02".to_vec()));
        assert_eq!(prefix_end(b"d"), Some(b"e".to_vec()));
        assert_eq!(prefix_end(b"\xff\xff"), None);
    }

    #[test]
    fn a_range_through_a_key_holds_it_and_nothing_longer_past_it() {
        let range = KeyRange::through(b"d".to_vec(), b"d\x05");
        assert!(range.contains(b"d\x05") && range.contains(b"d\x04\xff"));
        assert!(!range.contains(b"d\x05\x00") && !range.contains(b"c"));
    }
}
