//! The sled backend of the store ([`Sled`]): a record checked at its first read, writes
//! made durable by sled's flush and a shared `fdatasync`, and the full check of a large
//! database running beside the service ([`full_check`]).

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Condvar, Mutex, PoisonError};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use super::tree::{Tree, unsure};
use crate::store::backend::{Backend, Batch, Entries, KeyRange};
use crate::store::check::{self, Pace, Verifier};
use crate::store::durable::DurableSync;
use crate::store::error::StoreError;
use crate::store::keys;

/// How long after opening the full check beside the service begins: the start and the
/// first commands do not share the cores with it.
const CHECK_DELAY: Duration = Duration::from_secs(2);

/// A sled database in a directory of its own.
#[derive(Debug)]
pub struct Sled {
    pub(super) tree: Tree,
    pub(super) sync: Arc<DurableSync>,
    /// Which records are checked, and the damage found.
    pub(super) verifier: Arc<Verifier>,
    /// The full check running beside the service, and the flag that ends it early.
    pub(super) checker: Mutex<Option<JoinHandle<()>>>,
    pub(super) stop_checker: Arc<Stop>,
    /// Set at the first write: the run then owes the database a snapshot at its clean
    /// end ([`Closing`]).
    pub(super) wrote: Arc<AtomicBool>,
}

/// Tells the full check to end: a flag its chunks read, and a wake-up for its wait before
/// it begins, so that closing the database never waits for the delay to run out.
#[derive(Debug, Default)]
pub(super) struct Stop {
    flag: AtomicBool,
    stopped: Mutex<bool>,
    wake: Condvar,
}

impl Stop {
    fn stop(&self) {
        self.flag.store(true, Ordering::Relaxed);
        *self.stopped.lock().unwrap_or_else(PoisonError::into_inner) = true;
        self.wake.notify_all();
    }

    /// Waits for `delay` unless stopped meanwhile; `true` when stopped.
    fn wait(&self, delay: Duration) -> bool {
        let stopped = self.stopped.lock().unwrap_or_else(PoisonError::into_inner);
        let (stopped, _) =
            self.wake.wait_timeout_while(stopped, delay, |stopped| !*stopped).unwrap_or_else(PoisonError::into_inner);
        *stopped
    }
}

impl Sled {
    /// The damage found in the database so far (at a first read or by the full check).
    pub fn damaged(&self) -> Option<&str> {
        self.verifier.damaged()
    }

    /// Waits until the full check begun at the start has finished (at once when it ran
    /// before serving).
    pub fn wait_for_check(&self) {
        let handle = self.checker.lock().unwrap_or_else(PoisonError::into_inner).take();
        if let Some(handle) = handle {
            // A panic in the check is no verdict about the data; the log has it.
            let _ = handle.join();
        }
    }
}

impl Drop for Sled {
    fn drop(&mut self) {
        // The check holds the database open: end it, so that the directory is released.
        self.stop_checker.stop();
        self.wait_for_check();
    }
}

impl Backend for Sled {
    /// A game record is checked at its first read: a damaged one is never returned.
    fn get(&self, key: &[u8]) -> Result<Option<Vec<u8>>, StoreError> {
        self.verifier.ensure_sound()?;
        let value = self.tree.get(key)?;
        if let Some(value) = &value
            && key.first() == Some(&keys::GAME)
        {
            self.verifier.game_read(key, value)?;
        }
        Ok(value)
    }

    /// Scans return records unchecked: only the tools (export, the check) scan records.
    fn scan(&self, range: &KeyRange) -> Result<Entries, StoreError> {
        self.verifier.ensure_sound()?;
        self.tree.scan(range)
    }

    fn apply(&self, batch: &Batch) -> Result<(), StoreError> {
        self.verifier.ensure_sound()?;
        // Before the write: one that fails may still have reached sled's log.
        self.wrote.store(true, Ordering::Relaxed);
        self.tree.apply(batch)?;
        // The store writes only records it replayed.
        for (key, value) in &batch.writes {
            if value.is_some()
                && key.len() == 5
                && key.first() == Some(&keys::GAME)
                && let Some(id) = keys::id_at_end(key)
            {
                self.verifier.mark(id);
            }
        }
        Ok(())
    }

    fn next_id(&self) -> Result<u64, StoreError> {
        self.verifier.ensure_sound()?;
        // sled logs its id counter as it moves on.
        self.wrote.store(true, Ordering::Relaxed);
        self.tree.next_id()
    }

    /// Makes every write that finished before the call durable: sled's flush (its log
    /// written, `sync_file_range`), then an `fdatasync` round shared with concurrent
    /// commits. A failure of either leaves the outcome unknown.
    fn flush(&self) -> Result<(), StoreError> {
        self.tree.flush()?;
        self.sync.sync().map_err(unsure)?;
        Ok(())
    }
}

/// The full check beside the service, [`CHECK_DELAY`] after the start: damage stops the
/// store ([`Verifier::found`]).
pub(super) fn full_check(tree: &Tree, verifier: &Verifier, stop: &Stop) {
    if stop.wait(CHECK_DELAY) {
        return;
    }
    let started = Instant::now();
    match check::check_with(tree, verifier, Pace { stop: &stop.flag, paced: true }) {
        Ok(games) if !stop.flag.load(Ordering::Relaxed) => {
            tracing::info!(games, took = ?started.elapsed(), "the database was checked: no damage");
        }
        Ok(_) => {}
        Err(damage) => drop(verifier.found(&damage)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_wait_before_the_full_check_ends_when_the_database_closes() {
        let stop = Arc::new(Stop::default());
        let waiter = {
            let stop = stop.clone();
            // An hour: were the wait not woken, the test would never end.
            std::thread::spawn(move || stop.wait(Duration::from_secs(3_600)))
        };
        stop.stop();
        assert!(waiter.join().unwrap(), "woken by the stop");
        assert!(stop.flag.load(Ordering::Relaxed), "and the check's chunks see it");
        assert!(!Stop::default().wait(Duration::from_millis(1)), "a delay that runs out is no stop");
    }
}
