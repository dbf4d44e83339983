//! Helpers of the sled store's tests: databases made, damaged and opened again.

use std::path::Path;
use std::time::Instant;

use super::open::{LOCK_PATIENCE, SledStore, open_when_free};
use super::settings::sled_config;
use crate::ids::GameId;
use crate::store::check::sample_record;
use crate::store::error::StoreError;
use crate::store::keys;

/// A sled database in `dir` holding `games` records, closed.
pub(super) fn database(dir: &Path, games: u32) {
    let store = SledStore::open(dir).unwrap();
    store.create_many((0..games).map(|n| sample_record(n, n as usize % 5))).unwrap();
}

/// Opens `dir` with sled alone (without a flusher thread, so that it lets go at once),
/// once the previous opener has let it go.
pub(super) fn raw(dir: &Path) -> sled::Result<sled::Db> {
    open_when_free(&sled_config(dir).flush_every_ms(None))
}

/// Replaces a record with `value`, with sled alone (as damage would).
pub(super) fn damage_record(dir: &Path, id: u32, value: &[u8]) {
    let db = raw(dir).unwrap();
    db.insert(keys::game(GameId(id)), value).unwrap();
    db.flush().unwrap();
}

/// Opens `dir` once the previous opener (sled's flusher thread) has let it go.
pub(super) fn open_when_free_store(dir: &Path) -> SledStore {
    let deadline = Instant::now() + LOCK_PATIENCE;
    loop {
        match SledStore::open(dir) {
            Err(StoreError::InUse(_)) if Instant::now() < deadline => {}
            other => return other.unwrap(),
        }
    }
}
