//! The in-memory backend for tests: the key space in a `BTreeMap` behind a mutex.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Mutex, MutexGuard};

use super::backend::{Backend, Batch, Entries, KeyRange};
use super::error::StoreError;
use super::records::Store;

type Map = BTreeMap<Vec<u8>, Vec<u8>>;

/// A backend that lives as long as the value: for tests.
#[derive(Debug, Default)]
pub struct Memory {
    map: Mutex<Map>,
    /// The last outbox id given out (as sled's generator, counted from 1).
    last_notice: AtomicU64,
}

impl Memory {
    fn map(&self) -> MutexGuard<'_, Map> {
        // A panic while holding the lock leaves whole batches only (they are applied after
        // every check), so the map is still consistent.
        self.map.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
    }
}

impl Backend for Memory {
    fn get(&self, key: &[u8]) -> Result<Option<Vec<u8>>, StoreError> {
        Ok(self.map().get(key).cloned())
    }

    fn scan(&self, range: &KeyRange) -> Result<Entries, StoreError> {
        let map = self.map();
        let found = map.range(range.start.clone()..).take_while(|(key, _)| range.contains(key));
        let found = found.map(|(key, value)| (key.clone(), value.clone()));
        Ok(match range.limit {
            Some(limit) => found.take(limit).collect(),
            None => found.collect(),
        })
    }

    fn apply(&self, batch: &Batch) -> Result<(), StoreError> {
        let mut map = self.map();
        if batch.checks.iter().any(|(key, expected)| map.get(key) != expected.as_ref()) {
            return Err(StoreError::Conflict);
        }
        for (key, value) in &batch.writes {
            match value {
                Some(value) => map.insert(key.clone(), value.clone()),
                None => map.remove(key),
            };
        }
        Ok(())
    }

    fn next_id(&self) -> Result<u64, StoreError> {
        Ok(self.last_notice.fetch_add(1, Ordering::SeqCst) + 1)
    }

    fn flush(&self) -> Result<(), StoreError> {
        Ok(())
    }
}

/// The store over [`Memory`]: for tests.
pub type MemoryStore = Store<Memory>;

impl Store<Memory> {
    /// A new, empty store in memory.
    #[must_use]
    pub fn new() -> MemoryStore {
        Store::over(std::sync::Arc::new(Memory::default()))
    }
}

impl Default for Store<Memory> {
    fn default() -> MemoryStore {
        MemoryStore::new()
    }
}
