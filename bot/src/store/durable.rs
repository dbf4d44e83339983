//! Makes sled 0.34's writes reach the disk, with group commit.
//!
//! sled's `flush()` writes its log with `pwrite` and then only `sync_file_range` (its
//! `pagecache/iobuf.rs`, `write_to_log`): the pages go to the device, but neither the
//! file's metadata (its length, when the log grew) nor the device's write cache are
//! flushed, and blob files (values too large for the log, `pagecache/blob_io.rs`) are not
//! synced at all. The real `fsync` comes from sled's flusher thread up to
//! `flush_every_ms` later. So after `flush()` returns, a [`DurableSync`] round
//! `fdatasync`s the log file `db`, any new blob file, and the directories whose entries
//! changed (new blobs, snapshots renamed into place); then the change survives a power
//! loss.
//!
//! **Group commit.** An `fdatasync` costs the same for one change as for a hundred, so
//! committers that arrive together share one: [`GroupSync::sync`] returns after a round
//! that *started after* the call began (so after the caller's write), run by whichever
//! waiting committer finds no round in progress. Under load a round covers every write
//! that finished while the previous round ran.
//!
//! **Failure is final.** After a failed `fsync` Linux may have dropped the dirty pages and
//! cleared the error (PostgreSQL's "fsyncgate"), so a later success proves nothing: the
//! failing round's committers and every later caller get the [`SyncError`], and the
//! caller must stop accepting changes and exit so that a restart recovers from the disk.

use std::collections::BTreeSet;
use std::ffi::OsString;
use std::fs::File;
use std::io;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Condvar, Mutex, MutexGuard, PoisonError};

/// The number of a sync round, counted from 1 since the syncer was made.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Round(pub u64);

/// Why a change may not be on disk. Every variant means the same to the caller: the
/// outcome of the changes waiting on this sync is unknown, stop and restart.
#[derive(Debug, Clone, thiserror::Error)]
pub enum SyncError {
    /// A file or directory of the database could not be opened for syncing.
    #[error("cannot open {path} to sync it: {source}")]
    Open {
        /// The file or directory.
        path: PathBuf,
        /// Why it could not be opened (shared: every caller of the round gets it).
        source: Arc<io::Error>,
    },
    /// `fsync`/`fdatasync` of a file or directory failed in this round: the bytes may or
    /// may not be on disk.
    #[error("syncing {path} to disk failed in sync round {round}: {source}", round = round.0)]
    Failed {
        /// The round that failed.
        round: Round,
        /// The file or directory.
        path: PathBuf,
        /// Why the sync failed (shared: every caller of the round gets it).
        source: Arc<io::Error>,
    },
}

impl SyncError {
    fn failed(path: &Path, error: io::Error) -> SyncError {
        // The round is filled in by the group that ran the sync.
        SyncError::Failed { round: Round(0), path: path.to_path_buf(), source: Arc::new(error) }
    }

    fn in_round(self, round: Round) -> SyncError {
        match self {
            SyncError::Failed { path, source, .. } => SyncError::Failed { round, path, source },
            other => other,
        }
    }
}

/// What one sync round makes durable: the real files ([`SledFiles`]) or, in tests, a fake.
pub trait SyncTarget: Send {
    /// Makes every write that finished before the call durable.
    fn sync(&mut self) -> Result<(), SyncError>;
}

/// Where the rounds stand; `started == finished` when none is running.
#[derive(Debug, Default)]
struct Rounds {
    started: u64,
    finished: u64,
    /// The first round that failed, with its error. Never cleared.
    failure: Option<(Round, SyncError)>,
    /// Callers blocked until a round finishes.
    waiting: usize,
}

/// Group commit over a [`SyncTarget`]: concurrent callers of [`GroupSync::sync`] share
/// sync rounds, one at a time.
#[derive(Debug)]
pub struct GroupSync<T> {
    target: Mutex<T>,
    rounds: Mutex<Rounds>,
    finished: Condvar,
}

/// The syncer of a sled database.
pub type DurableSync = GroupSync<SledFiles>;

/// A poisoned lock only means a panic elsewhere; the counters stay consistent because
/// every update under the lock is a plain assignment.
fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

impl<T: SyncTarget> GroupSync<T> {
    /// A syncer over `target`, no round run yet.
    pub fn new(target: T) -> GroupSync<T> {
        GroupSync { target: Mutex::new(target), rounds: Mutex::default(), finished: Condvar::new() }
    }

    /// Returns once a sync round that started after this call began has succeeded: every
    /// write that finished before the call is then durable. Returns the round that did it,
    /// or the error of the failed round (for every caller after a failure, too).
    pub fn sync(&self) -> Result<Round, SyncError> {
        let mut rounds = lock(&self.rounds);
        // A round in progress may have started before our write finished: wait for the next.
        let needed = Round(rounds.started + 1);
        loop {
            match &rounds.failure {
                // Our round failed, or one before it that had not finished when we came.
                Some((failed, error)) if *failed <= needed => return Err(error.clone()),
                _ => {}
            }
            if rounds.finished >= needed.0 {
                return Ok(needed);
            }
            if rounds.started == rounds.finished {
                rounds = self.lead(rounds);
            } else {
                rounds.waiting += 1;
                rounds = self.finished.wait(rounds).unwrap_or_else(PoisonError::into_inner);
                rounds.waiting -= 1;
            }
        }
    }

    /// Runs the next round with the lock released, then wakes every waiter.
    fn lead<'a>(&'a self, mut rounds: MutexGuard<'a, Rounds>) -> MutexGuard<'a, Rounds> {
        rounds.started += 1;
        let round = Round(rounds.started);
        drop(rounds);
        let result = lock(&self.target).sync();
        let mut rounds = lock(&self.rounds);
        rounds.finished = round.0;
        if let Err(error) = result {
            rounds.failure.get_or_insert((round, error.in_round(round)));
        }
        self.finished.notify_all();
        rounds
    }

    /// How many rounds have finished.
    pub fn rounds(&self) -> u64 {
        lock(&self.rounds).finished
    }

    /// How many callers are blocked until a round finishes.
    pub fn waiting(&self) -> usize {
        lock(&self.rounds).waiting
    }
}

/// The files of a sled 0.34 database directory that a sync round covers.
///
/// sled keeps its log and pages in `db`, its settings in `conf` (written once, at
/// creation, never synced by sled), large values in `blobs/<lsn>` (never synced by sled)
/// and snapshots in `snap.<lsn>` (synced, then renamed into place without syncing the
/// directory).
#[derive(Debug)]
pub struct SledFiles {
    dir: PathBuf,
    /// Opened here, not shared with sled: since Linux 4.13 a writeback error is reported
    /// once per open file, so sled's flusher seeing it first cannot hide it from us.
    db: File,
    /// The entries of `dir` and `blobs/` as last synced.
    dir_entries: BTreeSet<OsString>,
    blob_entries: BTreeSet<OsString>,
}

impl SledFiles {
    /// Opens the files of the sled database in `dir` (already opened by sled) and syncs
    /// all of them once, with the directory entries that lead to them: sled creates
    /// `conf`, `db` and `blobs/` without syncing their directories.
    pub fn open(dir: &Path) -> Result<SledFiles, SyncError> {
        let db_path = dir.join("db");
        let db = File::open(&db_path).map_err(|error| SyncError::Open { path: db_path, source: Arc::new(error) })?;
        let mut files =
            SledFiles { dir: dir.to_path_buf(), db, dir_entries: BTreeSet::new(), blob_entries: BTreeSet::new() };
        sync_file(&dir.join("conf"))?;
        files.sync()?;
        if let Some(parent) = dir.parent().filter(|parent| !parent.as_os_str().is_empty()) {
            sync_file(parent)?;
        }
        Ok(files)
    }

    /// New blob files first: the log may already point at them.
    fn sync_blobs(&mut self) -> Result<(), SyncError> {
        let blobs = self.dir.join("blobs");
        let entries = entries(&blobs)?;
        if entries == self.blob_entries {
            return Ok(());
        }
        for name in entries.difference(&self.blob_entries) {
            sync_file(&blobs.join(name))?;
        }
        sync_file(&blobs)?;
        self.blob_entries = entries;
        Ok(())
    }

    /// The data directory, when an entry appeared or went (a snapshot renamed into place).
    fn sync_dir(&mut self) -> Result<(), SyncError> {
        let entries = entries(&self.dir)?;
        if entries != self.dir_entries {
            sync_file(&self.dir)?;
            self.dir_entries = entries;
        }
        Ok(())
    }
}

impl SyncTarget for SledFiles {
    fn sync(&mut self) -> Result<(), SyncError> {
        self.sync_blobs()?;
        // fdatasync also writes the file's length when the log grew.
        self.db.sync_data().map_err(|error| SyncError::failed(&self.dir.join("db"), error))?;
        self.sync_dir()
    }
}

/// `fsync` of a file or directory by path (directories cannot be opened for writing).
fn sync_file(path: &Path) -> Result<(), SyncError> {
    let file =
        File::open(path).map_err(|error| SyncError::Open { path: path.to_path_buf(), source: Arc::new(error) })?;
    file.sync_all().map_err(|error| SyncError::failed(path, error))
}

fn entries(dir: &Path) -> Result<BTreeSet<OsString>, SyncError> {
    let open_error = |error: io::Error| SyncError::Open { path: dir.to_path_buf(), source: Arc::new(error) };
    std::fs::read_dir(dir)
        .map_err(open_error)?
        .map(|entry| entry.map(|entry| entry.file_name()).map_err(open_error))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
    use std::thread;
    use std::time::Duration;

    /// A fake disk: counts rounds, notes how many writes had finished when each round
    /// started, takes `pause` per round, fails the rounds listed in `fail`, and holds
    /// every round while `hold` is set.
    #[derive(Debug, Clone, Default)]
    struct FakeDisk {
        writes: Arc<AtomicU64>,
        /// `started_after[k]`: writes finished when round k+1 started.
        started_after: Arc<Mutex<Vec<u64>>>,
        pause: Duration,
        fail: Vec<u64>,
        hold: Arc<AtomicBool>,
    }

    impl SyncTarget for FakeDisk {
        fn sync(&mut self) -> Result<(), SyncError> {
            let round = {
                let mut started = lock(&self.started_after);
                started.push(self.writes.load(Ordering::SeqCst));
                started.len() as u64
            };
            while self.hold.load(Ordering::SeqCst) {
                thread::sleep(Duration::from_millis(1));
            }
            thread::sleep(self.pause);
            if self.fail.contains(&round) {
                return Err(SyncError::failed(Path::new("fake"), io::Error::from_raw_os_error(5)));
            }
            Ok(())
        }
    }

    /// Runs `threads` committers of `commits` writes each; every committer checks that the
    /// round that released it started after its write.
    fn commit_concurrently(sync: &GroupSync<FakeDisk>, disk: &FakeDisk, threads: usize, commits: usize) {
        thread::scope(|scope| {
            for _ in 0..threads {
                scope.spawn(|| {
                    for _ in 0..commits {
                        let written = disk.writes.fetch_add(1, Ordering::SeqCst) + 1;
                        let round = sync.sync().expect("no round fails");
                        let started_after = lock(&disk.started_after)[round.0 as usize - 1];
                        assert!(
                            started_after >= written,
                            "write {written} released by round {} that began after {started_after} writes",
                            round.0
                        );
                    }
                });
            }
        });
    }

    #[test]
    fn a_committer_is_released_only_by_a_round_that_started_after_its_write() {
        let disk = FakeDisk { pause: Duration::from_micros(200), ..FakeDisk::default() };
        let sync = GroupSync::new(disk.clone());
        commit_concurrently(&sync, &disk, 8, 200);
    }

    #[test]
    fn concurrent_committers_share_sync_rounds() {
        let disk = FakeDisk { pause: Duration::from_millis(1), ..FakeDisk::default() };
        let sync = GroupSync::new(disk.clone());
        commit_concurrently(&sync, &disk, 8, 50);
        let rounds = sync.rounds();
        assert!(rounds < 8 * 50, "{rounds} rounds for {} commits", 8 * 50);
    }

    fn wait_until(condition: impl Fn() -> bool) {
        while !condition() {
            thread::sleep(Duration::from_millis(1));
        }
    }

    #[test]
    fn every_waiter_of_a_failed_round_gets_its_error_and_so_does_every_later_caller() {
        let disk = FakeDisk { fail: vec![2], hold: Arc::new(AtomicBool::new(true)), ..FakeDisk::default() };
        let sync = GroupSync::new(disk.clone());
        thread::scope(|scope| {
            // Round 1 runs, held; three committers arrive during it and need round 2.
            let first = scope.spawn(|| sync.sync());
            wait_until(|| lock(&disk.started_after).len() == 1);
            let waiters: Vec<_> = (0..3).map(|_| scope.spawn(|| sync.sync())).collect();
            wait_until(|| sync.waiting() == 3);
            disk.hold.store(false, Ordering::SeqCst);
            assert_eq!(first.join().unwrap().unwrap(), Round(1));
            for waiter in waiters {
                let error = waiter.join().unwrap().expect_err("round 2 failed");
                assert!(matches!(error, SyncError::Failed { round: Round(2), .. }), "{error:?}");
            }
        });
        // After a failure no round runs again: a later success would prove nothing.
        assert!(matches!(sync.sync(), Err(SyncError::Failed { round: Round(2), .. })));
        assert_eq!(lock(&disk.started_after).len(), 2);
    }

    fn sled_dir() -> (tempfile::TempDir, PathBuf) {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path().join("data");
        (tmp, dir)
    }

    #[test]
    fn a_large_value_s_blob_file_is_synced_with_its_directory() {
        let (_tmp, dir) = sled_dir();
        let db = sled::open(&dir).unwrap();
        let sync = GroupSync::new(SledFiles::open(&dir).unwrap());
        assert!(lock(&sync.target).blob_entries.is_empty());
        // sled keeps values over a quarter of a 512 KiB segment in blob files.
        db.insert(b"big", vec![7u8; 300 * 1024]).unwrap();
        db.flush().unwrap();
        assert_eq!(sync.sync().unwrap(), Round(1));
        assert_eq!(lock(&sync.target).blob_entries.len(), 1);
    }

    #[test]
    fn syncing_a_database_whose_files_are_gone_fails_with_the_path() {
        let (_tmp, dir) = sled_dir();
        drop(sled::open(&dir).unwrap());
        std::fs::remove_file(dir.join("conf")).unwrap();
        match SledFiles::open(&dir) {
            Err(SyncError::Open { path, .. }) => assert_eq!(path, dir.join("conf")),
            other => panic!("{other:?}"),
        }
    }
}
