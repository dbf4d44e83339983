//! Scheduled exports: the running bot writes `stonemate export`'s JSON Lines itself every
//! `backup_every_hours` into `backup_dir`, keeping the newest `backup_keep` files.
//!
//! - **Once across processes.** The store holds when the next export is due, and each
//!   process that finds it due claims it with a compare-and-swap
//!   ([`Store::claim_backup`]): of several processes on one PostgreSQL database, one
//!   writes it. The time lives in the database, so restarts neither skip nor repeat one.
//! - **Never a half file.** The export goes to a hidden temporary file in the same
//!   directory, is synced, then renamed to its final name, and the directory synced.
//! - **Never stops the bot.** A failed export is logged and tried again a period later
//!   (the claim already moved the schedule on). A failing *database* is another matter:
//!   the store's fail-stop applies to the export's reads as to any other.
//!
//! The files are named, and ours told from others, by the store ([`crate::store::backups`]),
//! which also names the newest in the way back from damage.

use std::fs::{self, File};
use std::io::{self, BufWriter};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use tokio::sync::{RwLock, watch};

use crate::clock::{Span, Timestamp};
use crate::service::Service;
use crate::store::backups::{file_name, is_export, is_temporary, temporary_name};
use crate::store::export::{ExportError, export};
use crate::store::{Backend, Store, StoreError};

/// Where, how often, and how many exports to keep.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Backups {
    dir: PathBuf,
    every: Span,
    keep: usize,
}

/// Why a scheduled export was not written. Logged; the next period tries again.
#[derive(Debug, thiserror::Error)]
pub enum BackupError {
    /// The store could not record that this process takes the export.
    #[error("cannot claim the scheduled export: {0}")]
    Claim(#[source] StoreError),
    #[error("cannot write {path}: {source}")]
    /// A file or directory of the exports could not be written, synced, renamed or pruned.
    Write {
        /// The file or directory.
        path: PathBuf,
        /// Why.
        source: io::Error,
    },
    /// The export itself failed (reading the store, or writing the file).
    #[error("cannot export the database: {0}")]
    Export(#[source] ExportError),
}

impl Backups {
    /// Exports into `dir` every `every` (at least a millisecond), keeping the newest
    /// `keep` (at least one).
    #[must_use]
    pub fn new(dir: PathBuf, every: Span, keep: usize) -> Backups {
        Backups { dir, every: Span(every.0.max(1)), keep: keep.max(1) }
    }

    /// The directory the exports are written to.
    #[must_use]
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// Writes the export due at `now` if this process claims it; returns the file written
    /// (`None`: not due, or another process has it).
    ///
    /// # Errors
    /// When the claim, the export or the file fails; the schedule has moved on either way
    /// once claimed, so the next try is a period later.
    pub fn run_if_due<B: Backend + ?Sized>(
        &self,
        store: &Store<B>,
        now: Timestamp,
    ) -> Result<Option<PathBuf>, BackupError> {
        if !store.claim_backup(now, now + self.every).map_err(BackupError::Claim)? {
            return Ok(None);
        }
        let path = self.write(store, now)?;
        self.prune()?;
        Ok(Some(path))
    }

    /// Writes the whole store to a temporary file, syncs it, and renames it into place.
    fn write<B: Backend + ?Sized>(&self, store: &Store<B>, now: Timestamp) -> Result<PathBuf, BackupError> {
        let failed = |path: &Path| {
            let path = path.to_path_buf();
            move |source| BackupError::Write { path, source }
        };
        fs::create_dir_all(&self.dir).map_err(failed(&self.dir))?;
        let name = file_name(now);
        let (path, temporary) = (self.dir.join(&name), self.dir.join(temporary_name(&name)));
        let file = File::create(&temporary).map_err(failed(&temporary))?;
        let mut out = BufWriter::new(file);
        let written = export(store, &mut out);
        let synced = written.map_err(BackupError::Export).and_then(|_| {
            let file = out.into_inner().map_err(|error| failed(&temporary)(error.into_error()))?;
            file.sync_all().map_err(failed(&temporary))
        });
        if let Err(error) = synced.and_then(|()| fs::rename(&temporary, &path).map_err(failed(&path))) {
            let _ = fs::remove_file(&temporary);
            return Err(error);
        }
        // The rename is durable once the directory is.
        File::open(&self.dir).and_then(|dir| dir.sync_all()).map_err(failed(&self.dir))?;
        Ok(path)
    }

    /// Removes all but the newest `keep` exports, and temporary files a crash left behind
    /// (one process writes at a time: the claim says which). Other files stay.
    fn prune(&self) -> Result<(), BackupError> {
        let failed = |source| BackupError::Write { path: self.dir.clone(), source };
        let mut exports = Vec::new();
        for entry in fs::read_dir(&self.dir).map_err(failed)? {
            let name = entry.map_err(failed)?.file_name();
            let Some(name) = name.to_str() else { continue };
            if is_export(name) {
                exports.push(name.to_owned());
            } else if is_temporary(name) {
                let _ = fs::remove_file(self.dir.join(name));
            }
        }
        exports.sort_unstable();
        let surplus = exports.len().saturating_sub(self.keep);
        for name in &exports[..surplus] {
            fs::remove_file(self.dir.join(name)).map_err(failed)?;
        }
        Ok(())
    }

    /// Runs [`Backups::run_if_due`] every `check_every` until `stop` turns true (at once
    /// first: an export due while the bot was down is written at start). Holds `busy`
    /// while exporting, so that shutdown waits for it like for a command.
    pub async fn run(
        self,
        service: Arc<Service>,
        busy: Arc<RwLock<()>>,
        check_every: Duration,
        stop: watch::Receiver<bool>,
    ) {
        let job = move || self.run_if_due(service.store(), service.now());
        crate::periodic::every(check_every, busy, stop, job, |outcome| match outcome {
            Ok(Ok(Some(path))) => tracing::info!(path = %path.display(), "scheduled export written"),
            Ok(Ok(None)) => {}
            Ok(Err(error)) => tracing::error!(%error, "the scheduled export failed; trying again next period"),
            Err(error) => tracing::error!(%error, "the scheduled export panicked; trying again next period"),
        })
        .await;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::MemoryStore;

    const START: Timestamp = Timestamp(1_795_000_000_000);

    fn names(dir: &Path) -> Vec<String> {
        let mut names: Vec<String> =
            fs::read_dir(dir).unwrap().map(|entry| entry.unwrap().file_name().into_string().unwrap()).collect();
        names.sort();
        names
    }

    #[test]
    fn an_export_is_written_when_due_and_then_once_a_period() {
        let dir = tempfile::tempdir().unwrap();
        let backups = Backups::new(dir.path().join("backups"), Span::HOUR * 6, 7);
        let store = MemoryStore::new();
        let first = backups.run_if_due(&store, START).unwrap().expect("the first export is due at once");
        assert!(fs::read_to_string(&first).unwrap().starts_with("{\"stonemate_export\":1}"));
        assert_eq!(backups.run_if_due(&store, START + Span::HOUR).unwrap(), None);
        assert_eq!(backups.run_if_due(&store, START + Span::HOUR * 6 - Span(1)).unwrap(), None);
        let second = backups.run_if_due(&store, START + Span::HOUR * 6).unwrap();
        assert_eq!(second, Some(dir.path().join("backups").join(file_name(START + Span::HOUR * 6))));
        // Down for two days: one export when back, not one per missed period.
        let back = START + Span::DAY * 2;
        assert!(backups.run_if_due(&store, back).unwrap().is_some());
        assert_eq!(backups.run_if_due(&store, back + Span::HOUR).unwrap(), None);
        assert_eq!(names(&dir.path().join("backups")).len(), 3);
    }

    #[test]
    fn only_the_newest_exports_are_kept_and_other_files_are_left_alone() {
        let dir = tempfile::tempdir().unwrap();
        fs::write(dir.path().join("notes.txt"), "mine").unwrap();
        let leftover = temporary_name(&file_name(START - Span::DAY));
        fs::write(dir.path().join(&leftover), "half an export from a crash").unwrap();
        let backups = Backups::new(dir.path().to_path_buf(), Span::HOUR, 3);
        let store = MemoryStore::new();
        for hour in 0..5 {
            assert!(backups.run_if_due(&store, START + Span::HOUR * hour).unwrap().is_some());
        }
        let mut expected = vec!["notes.txt".to_owned()];
        expected.extend((2..5).map(|hour| file_name(START + Span::HOUR * hour)));
        assert_eq!(names(dir.path()), expected);
    }

    #[test]
    fn a_failed_export_is_reported_and_tried_again_a_period_later() {
        let dir = tempfile::tempdir().unwrap();
        // A file where the directory should be: nothing can be written.
        let blocked = dir.path().join("backups");
        fs::write(&blocked, "in the way").unwrap();
        let backups = Backups::new(blocked.clone(), Span::HOUR, 7);
        let store = MemoryStore::new();
        assert!(matches!(backups.run_if_due(&store, START), Err(BackupError::Write { .. })));
        fs::remove_file(&blocked).unwrap();
        assert_eq!(backups.run_if_due(&store, START + Span::MINUTE).unwrap(), None, "claimed: next period");
        assert!(backups.run_if_due(&store, START + Span::HOUR).unwrap().is_some());
        assert_eq!(names(&blocked), [file_name(START + Span::HOUR)], "no temporary file is left");
    }
}
