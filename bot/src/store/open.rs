//! Choosing the store from one setting: a PostgreSQL address or a sled directory.

use std::path::Path;

use super::error::StoreError;
use super::postgres::PostgresStore;
use super::records::Store;
use super::sled_store::{Closing, SledStore, open_for_streams};

/// The schemes of a PostgreSQL address (libpq's two spellings).
const POSTGRES_SCHEMES: [&str; 2] = ["postgres://", "postgresql://"];

/// Opens the store `database` names: a `postgres://` (or `postgresql://`) address opens
/// [`PostgresStore`], anything else is the directory of a [`SledStore`].
///
/// # Errors
/// When the database cannot be opened (unreachable server, locked or damaged directory).
pub fn open_store(database: &str) -> Result<Store, StoreError> {
    open_at(Path::new(database))
}

/// [`open_store`] for a setting held as a path (`database` of the config, `--data`): a
/// path that reads as a PostgreSQL address is one; any other is a sled directory (opened
/// with its check, [`super::check`]).
///
/// # Errors
/// As [`open_store`].
pub fn open_at(database: &Path) -> Result<Store, StoreError> {
    open_closing(database).map(|(store, _)| store)
}

/// [`open_at`] for a process that ends cleanly: with what it owes the database once it has
/// dropped every handle of the store ([`Closing::settle`]: on sled, a snapshot when it
/// wrote).
///
/// # Errors
/// As [`open_store`].
pub fn open_closing(database: &Path) -> Result<(Store, Closing), StoreError> {
    opened(database, SledStore::open)
}

/// [`open_closing`] for `stonemate export` and `import`, which read or write every record
/// once: a sled directory opens with a small page cache and no full check beside them
/// ([`open_for_streams`]), a PostgreSQL address as always.
///
/// # Errors
/// As [`open_store`].
pub fn open_streaming(database: &Path) -> Result<(Store, Closing), StoreError> {
    opened(database, open_for_streams)
}

/// The store `database` names, a sled directory opened by `sled`, with what its close owes.
fn opened(database: &Path, sled: fn(&Path) -> Result<SledStore, StoreError>) -> Result<(Store, Closing), StoreError> {
    match database.to_str() {
        Some(address) if is_address(address) => Ok((PostgresStore::open(address)?.into(), Closing::default())),
        _ => {
            let store = sled(database)?;
            let closing = Closing::of(&store, database);
            Ok((store.into(), closing))
        }
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
