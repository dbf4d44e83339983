//! Choosing the store from one setting: a PostgreSQL address or a sled directory.

use std::path::Path;
use std::sync::Arc;

use stonemate_engine::GameKind;

use super::rating::{RatingChange, RatingRecord};
use super::record::{GameRecord, Phase, UserRecord};
use super::{Dump, GameStore, IndexEntry, PostgresStore, Queued, Restore, SledStore, StoreError};
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
    open_at(Path::new(database))
}

/// [`open_store`] for a setting held as a path (`database` of the config, `--data`): a
/// path that reads as a PostgreSQL address is one; any other is a sled directory (opened
/// with its start-up check).
///
/// # Errors
/// As [`open_store`].
pub fn open_at(database: &Path) -> Result<Box<dyn GameStore>, StoreError> {
    match database.to_str() {
        Some(address) if is_address(address) => Ok(Box::new(PostgresStore::open(address)?)),
        _ => Ok(Box::new(SledStore::open(database)?)),
    }
}

/// Whether `database` is a PostgreSQL address rather than a directory.
#[must_use]
pub fn is_address(database: &str) -> bool {
    POSTGRES_SCHEMES.iter().any(|scheme| database.starts_with(scheme))
}

/// How a database is named in logs and messages: a directory as it is, an address
/// without its user and password (only the host and database after `@`).
#[must_use]
pub fn shown(database: &Path) -> String {
    match database.to_str() {
        Some(address) if is_address(address) => match address.rsplit_once('@') {
            Some((_, place)) => format!("postgres://…@{place}"),
            None => address.to_owned(),
        },
        _ => database.display().to_string(),
    }
}

/// A store behind a pointer is a store: `Service::new(open_store(..)?, ..)` takes the
/// chosen `Box<dyn GameStore>`, and a test keeps an `Arc` of the store it hands over.
macro_rules! forward_store {
    ($($pointer:ident),*) => {$(
        impl<S: GameStore + ?Sized> GameStore for $pointer<S> {
            fn create(&self, record: GameRecord) -> Result<GameRecord, StoreError> {
                (**self).create(record)
            }
            fn load(&self, id: GameId) -> Result<Option<GameRecord>, StoreError> {
                (**self).load(id)
            }
            fn update(&self, record: &GameRecord) -> Result<(), StoreError> {
                (**self).update(record)
            }
            fn update_with(&self, record: &GameRecord, ratings: &[RatingChange], notices: &[Queued]) -> Result<(), StoreError> {
                (**self).update_with(record, ratings, notices)
            }
            fn rating(&self, guild: GuildId, game: GameKind, user: UserId) -> Result<Option<RatingRecord>, StoreError> {
                (**self).rating(guild, game, user)
            }
            fn ratings(&self, guild: GuildId, game: GameKind) -> Result<Vec<RatingRecord>, StoreError> {
                (**self).ratings(guild, game)
            }
            fn enqueue(&self, notices: &[Queued]) -> Result<(), StoreError> {
                (**self).enqueue(notices)
            }
            fn claim(&self, now: Timestamp, until: Timestamp, limit: usize) -> Result<Vec<Queued>, StoreError> {
                (**self).claim(now, until, limit)
            }
            fn reschedule(&self, notice: &Queued) -> Result<bool, StoreError> {
                (**self).reschedule(notice)
            }
            fn remove_notice(&self, id: u64) -> Result<(), StoreError> {
                (**self).remove_notice(id)
            }
            fn raise_report(&self, game: GameId) -> Result<(), StoreError> {
                (**self).raise_report(game)
            }
            fn take_report(&self, game: GameId) -> Result<bool, StoreError> {
                (**self).take_report(game)
            }
            fn entries_of(&self, user: UserId) -> Result<Vec<IndexEntry>, StoreError> {
                (**self).entries_of(user)
            }
            fn entries_in(&self, user: UserId, guild: Option<GuildId>) -> Result<Vec<IndexEntry>, StoreError> {
                (**self).entries_in(user, guild)
            }
            fn games_of(&self, user: UserId) -> Result<Vec<(GameId, Phase)>, StoreError> {
                (**self).games_of(user)
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
            fn restore(&self, restored: Restore) -> Result<(), StoreError> {
                (**self).restore(restored)
            }
            fn claim_backup(&self, now: Timestamp, next: Timestamp) -> Result<bool, StoreError> {
                (**self).claim_backup(now, next)
            }
        }
    )*};
}

forward_store!(Box, Arc);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn postgres_addresses_are_told_from_directories() {
        assert!(is_address("postgres://bot@db:5432/stonemate"));
        assert!(is_address("postgresql://localhost/stonemate"));
        for directory in ["stonemate-data", "/var/lib/stonemate", "postgres", "./postgres://x"] {
            assert!(!is_address(directory), "{directory}");
        }
    }

    #[test]
    fn a_shown_address_hides_its_user_and_password() {
        let shown = shown(Path::new("postgres://bot:secret@db:5432/stonemate"));
        assert_eq!(shown, "postgres://…@db:5432/stonemate");
        assert_eq!(super::shown(Path::new("/var/lib/stonemate")), "/var/lib/stonemate");
    }

    #[test]
    fn a_directory_setting_opens_sled() {
        let dir = tempfile::tempdir().unwrap();
        let store = open_at(&dir.path().join("db")).unwrap();
        assert!(store.dump().unwrap().is_empty());
        assert!(dir.path().join("db").is_dir(), "the sled directory was not created");
    }
}
