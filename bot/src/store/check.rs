//! The start-up check: every key of the database is read (so sled meets any damaged page
//! now, not in the middle of a command), every game record decodes and its turns replay,
//! every user record decodes, and the index entries are exactly those the records imply.
//! A damaged database stops the start with a [`Damage`] that names the key and says how
//! to restore from an export.
//!
//! What it cannot see: sled 0.34 ends its recovery silently at the first torn or garbled
//! message of its log, so a cut or garbled log file opens as an older, consistent state.

use std::collections::BTreeMap;
use std::fmt;

use stonemate_engine::AnyGame;

use super::keys;
use super::{Backend, Store, StoreError};

/// What is damaged in a database, and where.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Damage {
    /// The key, readably (`game #12`, `user 42`, `index key 70 00 ...`), or the whole
    /// database when it cannot be read at all.
    pub what: String,
    /// What is wrong with it.
    pub detail: String,
}

impl fmt::Display for Damage {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "the database is damaged: {}: {}", self.what, self.detail)
    }
}

/// How a damaged database is restored, for the message that stops the start.
pub const RESTORE: &str = "restore it from an export: move the damaged directory aside, then run \
`stonemate import --data DIR FILE` with the newest export (on PostgreSQL: `stonemate import \
--database URL FILE` into a new, empty database, and point `database` at it); the bot writes \
exports itself when `backup_every_hours` is set (into `backup_dir`, by default `backups` in the \
database's directory), or `stonemate export` made one";

fn damage(what: impl Into<String>, detail: impl fmt::Display) -> Damage {
    Damage { what: what.into(), detail: detail.to_string() }
}

fn readable(key: &[u8]) -> String {
    let hex: Vec<String> = key.iter().map(|byte| format!("{byte:02x}")).collect();
    format!("key {}", hex.join(" "))
}

/// Checks every record of `store`; returns how many game records there are.
pub fn check<B: Backend + ?Sized>(store: &Store<B>) -> Result<usize, Damage> {
    let dump = store.dump().map_err(|error| match error {
        StoreError::Database(detail) | StoreError::Unsure(detail) => damage("the database files", detail),
        other => damage("the database", other),
    })?;
    let mut games = 0;
    let mut expected = BTreeMap::new();
    let mut found = BTreeMap::new();
    for (key, value) in &dump {
        match key.first() {
            Some(&keys::GAME) => {
                let record = keys::decode_game(value).map_err(|error| damage(readable(key), error))?;
                let what = format!("game {}", record.id);
                if keys::game(record.id) != *key {
                    return Err(damage(what, format!("stored under {}", readable(key))));
                }
                let replay = AnyGame::replay(record.game, &record.options, &record.turns)
                    .map_err(|error| damage(what.clone(), error))?;
                if let Some(error) = replay.error {
                    return Err(damage(what, format!("its turns do not replay: {error}")));
                }
                expected.extend(keys::index(&record));
                games += 1;
            }
            Some(&keys::USER) => {
                keys::decode_user(value).map_err(|error| damage(readable(key), error))?;
            }
            Some(&keys::RATING) => {
                let rating = keys::decode_rating(value).map_err(|error| damage(readable(key), error))?;
                if keys::rating_of(&rating) != *key {
                    return Err(damage(readable(key), "a rating stored under another player's key"));
                }
            }
            Some(&keys::NOTICE) => {
                keys::decode_notice(key, value).map_err(|error| damage(format!("outbox {}", readable(key)), error))?;
            }
            Some(&keys::REPORT) if [keys::REPORT_PENDING, keys::REPORT_SHOWN].contains(&value.as_slice()) => {}
            _ if key.as_slice() == keys::NEXT_ID => {
                keys::next_id(Some(value)).map_err(|error| damage("the game id counter", error))?;
            }
            _ if key.as_slice() == keys::BACKUP_DUE => {
                keys::stored_time(value).ok_or_else(|| damage("the export schedule", "not a time"))?;
            }
            _ => {
                found.insert(key.clone(), value.clone());
            }
        }
    }
    if let Some((key, _)) = found.iter().find(|(key, value)| expected.get(*key) != Some(*value)) {
        return Err(damage(readable(key), "an index entry that no record implies"));
    }
    if let Some((key, _)) = expected.iter().find(|(key, _)| !found.contains_key(*key)) {
        return Err(damage(readable(key), "an index entry a record implies is missing"));
    }
    Ok(games)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::MemoryStore;

    #[test]
    fn the_way_back_names_both_kinds_of_database_and_where_exports_are() {
        for part in ["import --data DIR FILE", "import --database URL FILE", "backup_every_hours", "backup_dir"] {
            assert!(RESTORE.contains(part), "{part}");
        }
    }

    #[test]
    fn an_empty_store_passes() {
        assert_eq!(check(&MemoryStore::new()), Ok(0));
    }

    #[test]
    fn the_export_schedule_is_no_stray_index_entry() {
        use crate::clock::Timestamp;
        let store = MemoryStore::new();
        assert!(store.claim_backup(Timestamp(0), Timestamp(3_600_000)).unwrap());
        assert_eq!(check(&store), Ok(0));
    }
}
