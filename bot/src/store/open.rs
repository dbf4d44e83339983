//! Choosing the store from one setting: a PostgreSQL address or a sled directory.

use std::path::Path;

use super::record::{GameRecord, UserRecord};
use super::{Dump, GameStore, IndexEntry, PostgresStore, SledStore, StoreError};
use crate::clock::Timestamp;
use crate::ids::{GameId, GuildId, UserId};

/// The schemes of a PostgreSQL address (libpq's two spellings).
const POSTGRES_SCHEMES: [&str; 2] = ["postgres://", "postgresql://"];

/// Opens the store `database` names: a `postgres://` (or `postgresql://`) address opens
/// [`PostgresStore`], anything else is the directory of a [`SledStore`].
///
/// # Errors
/// When the database cannot be opened (unreachable server, locked or damaged directory).
pub fn open_store(database: &str) -> Result<Box<dyn GameStore>, StoreError> {
    if POSTGRES_SCHEMES.iter().any(|scheme| database.starts_with(scheme)) {
        Ok(Box::new(PostgresStore::open(database)?))
    } else {
        Ok(Box::new(SledStore::open(Path::new(database))?))
    }
}

/// A chosen store is a store, so that `Service::new(open_store(..)?, ..)` works.
impl GameStore for Box<dyn GameStore> {
    fn create(&self, record: GameRecord) -> Result<GameRecord, StoreError> {
        (**self).create(record)
    }

    fn load(&self, id: GameId) -> Result<Option<GameRecord>, StoreError> {
        (**self).load(id)
    }

    fn update(&self, record: &GameRecord) -> Result<(), StoreError> {
        (**self).update(record)
    }

    fn entries_of(&self, user: UserId) -> Result<Vec<IndexEntry>, StoreError> {
        (**self).entries_of(user)
    }

    fn entries_in(&self, user: UserId, guild: Option<GuildId>) -> Result<Vec<IndexEntry>, StoreError> {
        (**self).entries_in(user, guild)
    }

    fn due(&self, until: Timestamp) -> Result<Vec<GameId>, StoreError> {
        (**self).due(until)
    }

    fn user(&self, id: UserId) -> Result<Option<UserRecord>, StoreError> {
        (**self).user(id)
    }

    fn save_user(&self, user: &UserRecord) -> Result<(), StoreError> {
        (**self).save_user(user)
    }

    fn dump(&self) -> Result<Dump, StoreError> {
        (**self).dump()
    }
}
