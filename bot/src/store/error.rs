//! Why the store could not do what was asked ([`StoreError`]): one type for every backend
//! and every part of the store, so that the service tells a lost race from a failed disk.

use crate::ids::GameId;

/// Why the store could not do what was asked.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// The record changed since it was read: another command got there first.
    #[error("the game changed while this command was being handled")]
    Conflict,
    /// No record has this id.
    #[error("no record {0}")]
    Missing(GameId),
    /// A read or write the database could not do.
    #[error("the database failed: {0}")]
    Database(String),
    /// The database server did not answer when the store was opened (it may be starting,
    /// or the network may be down): trying again later can help.
    #[error("the database server cannot be reached: {0}")]
    Unreachable(String),
    /// A write whose flush or sync to disk failed: it may or may not be on disk.
    #[error("a write may or may not have reached the disk: {0}")]
    Unsure(String),
    /// The check found a damaged database ([`super::check`]): what, where, how to restore.
    #[error("{0}")]
    Damaged(String),
    /// Another process has the database open (sled: one process at a time): which, and
    /// what to do.
    #[error("{0}")]
    InUse(String),
    /// An earlier storage failure stopped the store ([`super::FailStop`]): nothing was tried.
    #[error("the store stopped after a storage failure")]
    Stopped,
    /// A stored record is not valid JSON of its layout.
    #[error("a stored record cannot be read: {0}")]
    Corrupt(String),
    /// [`super::Store::restore`] into a store that already holds games.
    #[error("the database already holds games: import only into an empty one")]
    NotEmpty,
}

impl StoreError {
    /// Whether the database itself failed, so that what it holds in memory can no longer
    /// be trusted ([`super::FailStop`] stops at these).
    #[must_use]
    pub fn is_storage_failure(&self) -> bool {
        // Damage found while serving stops the store as a failed write does.
        matches!(
            self,
            StoreError::Database(_) | StoreError::Unreachable(_) | StoreError::Unsure(_) | StoreError::Damaged(_)
        )
    }
}

impl From<sled::Error> for StoreError {
    fn from(error: sled::Error) -> StoreError {
        StoreError::Database(error.to_string())
    }
}

impl From<serde_json::Error> for StoreError {
    fn from(error: serde_json::Error) -> StoreError {
        StoreError::Corrupt(error.to_string())
    }
}
