//! The bot's database: sled 0.34, one tree, the keys of [`super::keys`]. Each batch is
//! one sled transaction (its checks, then its writes); a flush is sled's flush, then an
//! `fdatasync` of sled's files ([`DurableSync`], shared by concurrent commits). A write
//! whose flush or sync fails is [`StoreError::Unsure`]: sled has already applied it in
//! memory and may have written it.
//!
//! **Opening** takes a few milliseconds at any size ([`check`] says how records are
//! checked: at their first read, and by a full check beside the service) and brings the
//! directory back by itself from what a crash or a full disk leaves behind ([`recover`]).
//! A second process gets [`StoreError::InUse`]; a database sled cannot read stops with
//! [`StoreError::Damaged`], naming the directory and the command that restores it.
//!
//! **What a start costs** is sled's recovery: it reads its newest snapshot (the page table:
//! where each page of the tree lies in the log), then every message of the log written
//! since, and writes a new snapshot; sled 0.34 writes snapshots at no other time. So:
//!
//! - an import ends by opening the database once more ([`Store::settle`]): the import's
//!   whole log is read there, and the first start after it reads only the snapshot (at
//!   100,000 games, about a minute of reading moved out of the bot's start);
//! - new databases compress their log ([`sled_config`]): the records of a page compress
//!   well, so that there are fewer bytes to keep and to read;
//! - the full check waits until the service runs, then paces itself ([`Paced`]).
//!
//! What is left grows with the pages of the tree (sled splits a leaf past 16 keys, and a
//! game has 3 to 4) and with what the previous run wrote.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use sled::transaction::{ConflictableTransactionError, TransactionError};

use super::StoreError;
use super::backend::{Backend, Batch, Entries, KeyRange};
use super::check::{self, Damage, Verifier};
use super::durable::{DurableSync, GroupSync, SledFiles};
use super::keys;
use super::records::Store;

/// The page cache sled may fill: sled keeps what it reads (and the full check reads
/// everything), so this bounds the bot's memory at any size of database.
const CACHE_BYTES: u64 = 12 * 1024 * 1024;

/// Databases of up to this many games are checked in full before the first command
/// (about 50 µs a game); larger ones are checked beside the service.
const CHECK_BEFORE_SERVING: u32 = 1_000;

/// The tree of the store's own bookkeeping, apart from the records: old versions of the
/// bot and tools that read the default tree never see it.
const META_TREE: &str = "stonemate-meta";
/// Under [`META_TREE`]: the layout of the player index (`2`: with the server), so that
/// the upgrade's scan runs only on a database that may need it.
const LAYOUT: &[u8] = b"player-index-layout";
const LAYOUT_WITH_SERVERS: &[u8] = b"2";

/// The files of the sled database in a directory, read and written without the checks
/// and syncs of [`Sled`]: what the full check reads, beside the service.
#[derive(Debug, Clone)]
struct Tree {
    db: sled::Db,
}

fn unsure(error: impl std::fmt::Display) -> StoreError {
    StoreError::Unsure(error.to_string())
}

impl Backend for Tree {
    fn get(&self, key: &[u8]) -> Result<Option<Vec<u8>>, StoreError> {
        Ok(self.db.get(key)?.map(|value| value.to_vec()))
    }

    fn scan(&self, range: &KeyRange) -> Result<Entries, StoreError> {
        let found = match &range.end {
            Some(end) => self.db.range(range.start.as_slice()..end.as_slice()),
            None => self.db.range(range.start.as_slice()..),
        };
        let found = found.map(|entry| Ok(entry.map(|(key, value)| (key.to_vec(), value.to_vec()))?));
        match range.limit {
            Some(limit) => found.take(limit).collect(),
            None => found.collect(),
        }
    }

    fn apply(&self, batch: &Batch) -> Result<(), StoreError> {
        let result = self.db.transaction(|tx| {
            for (key, expected) in &batch.checks {
                if tx.get(key.as_slice())?.as_deref() != expected.as_deref() {
                    return Err(ConflictableTransactionError::Abort(StoreError::Conflict));
                }
            }
            for (key, value) in &batch.writes {
                match value {
                    Some(value) => tx.insert(key.as_slice(), value.as_slice())?,
                    None => tx.remove(key.as_slice())?,
                };
            }
            Ok(())
        });
        // A storage error comes from sled applying the change: whether it reached its log
        // is not known.
        result.map_err(|error| match error {
            TransactionError::Abort(error) => error,
            TransactionError::Storage(error) => unsure(error),
        })
    }

    // sled's own generator: increasing, and never given twice, even across restarts.
    fn next_id(&self) -> Result<u64, StoreError> {
        Ok(self.db.generate_id().map_err(unsure)? + 1)
    }

    fn flush(&self) -> Result<(), StoreError> {
        self.db.flush().map_err(unsure)?;
        Ok(())
    }
}

/// How long after opening the full check beside the service begins: the start and the
/// first commands do not share the cores with it.
const CHECK_DELAY: Duration = Duration::from_secs(2);

/// The database as the full check beside the service reads it ([`Tree`], paced): before
/// each chunk it waits as long as the previous chunk took to check, so that the check
/// takes at most about half of one core and commands come first. At 100,000 games it then
/// takes some tens of seconds instead of some seconds; until it ends, every record is
/// still checked when it is first read.
#[derive(Debug)]
struct Paced {
    tree: Tree,
    /// When the previous scan returned (`None`: before the first).
    previous: Mutex<Option<Instant>>,
}

impl Paced {
    fn new(tree: Tree) -> Paced {
        Paced { tree, previous: Mutex::new(None) }
    }
}

impl Backend for Paced {
    fn get(&self, key: &[u8]) -> Result<Option<Vec<u8>>, StoreError> {
        self.tree.get(key)
    }

    fn scan(&self, range: &KeyRange) -> Result<Entries, StoreError> {
        let previous = self.previous.lock().unwrap_or_else(PoisonError::into_inner).take();
        if let Some(previous) = previous {
            // Never longer than a moment: closing the database waits for the check.
            std::thread::sleep(previous.elapsed().min(Duration::from_millis(100)));
        }
        let entries = self.tree.scan(range);
        *self.previous.lock().unwrap_or_else(PoisonError::into_inner) = Some(Instant::now());
        entries
    }

    fn apply(&self, batch: &Batch) -> Result<(), StoreError> {
        self.tree.apply(batch)
    }

    fn next_id(&self) -> Result<u64, StoreError> {
        self.tree.next_id()
    }

    fn flush(&self) -> Result<(), StoreError> {
        self.tree.flush()
    }
}

/// A sled database in a directory of its own.
#[derive(Debug)]
pub struct Sled {
    tree: Tree,
    sync: Arc<DurableSync>,
    /// Which records are checked, and the damage found.
    verifier: Arc<Verifier>,
    /// The full check running beside the service, and the flag that ends it early.
    checker: Mutex<Option<JoinHandle<()>>>,
    stop_checker: Arc<AtomicBool>,
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
        self.stop_checker.store(true, Ordering::Relaxed);
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

/// The store over [`Sled`]: the bot's own database.
pub type SledStore = Store<Sled>;

impl Store<Sled> {
    /// Opens (or creates) the database in `dir`, after clearing what a crash or a full
    /// disk left behind ([`recover`]); checks every record, before returning on a small
    /// database and beside the service on a large one ([`check`]). sled locks it: one
    /// process at a time.
    ///
    /// # Errors
    /// [`StoreError::InUse`] when another process has it open, [`StoreError::Damaged`]
    /// when it is damaged (with the way to restore it), [`StoreError::Database`] when it
    /// cannot be opened (a full disk, an unreadable directory).
    pub fn open(dir: &Path) -> Result<SledStore, StoreError> {
        recover::leftovers(dir).map_err(|error| cannot_open(dir, &error))?;
        // sled's default page cache is 1 GiB; a bot's working set is far smaller.
        let config = sled_config(dir).cache_capacity(CACHE_BYTES);
        let db = open_when_free(&config).map_err(|error| open_error(dir, error))?;
        let files = SledFiles::open(dir).map_err(|error| StoreError::Database(error.to_string()))?;
        let verifier = Arc::new(Verifier::new(recover::restore_hint(dir)));
        let sled = Sled {
            tree: Tree { db: db.clone() },
            sync: Arc::new(GroupSync::new(files)),
            verifier: verifier.clone(),
            checker: Mutex::new(None),
            stop_checker: Arc::new(AtomicBool::new(false)),
        };
        let store = Store::over(Arc::new(sled));
        let meta = db.open_tree(META_TREE)?;
        if meta.get(LAYOUT)?.as_deref() != Some(LAYOUT_WITH_SERVERS) {
            upgrade_player_index(&store)?;
            meta.insert(LAYOUT, LAYOUT_WITH_SERVERS)?;
            store.backend().flush()?;
        }
        let tree = Tree { db };
        let games = keys::next_id(tree.get(keys::NEXT_ID)?.as_deref())?.0 - 1;
        if games <= CHECK_BEFORE_SERVING {
            // Before anything is served: a damaged database stops the start here.
            check::check_with(&tree, &verifier, &AtomicBool::new(false)).map_err(|damage| verifier.found(&damage))?;
        } else {
            let stop = store.backend().stop_checker.clone();
            let handle = std::thread::Builder::new()
                .name("stonemate-check".into())
                .spawn(move || full_check(&Paced::new(tree), &verifier, &stop))
                .map_err(|error| StoreError::Database(format!("cannot start the check: {error}")))?;
            *store.backend().checker.lock().unwrap_or_else(PoisonError::into_inner) = Some(handle);
        }
        Ok(store)
    }
}

impl Store<Sled> {
    /// Has sled write a snapshot of the closed database in `dir`, so that the next start
    /// reads only that: sled 0.34 writes one only when it opens a database, after reading
    /// every message its log holds past the previous one, so that without this the first
    /// start after a large import would read the whole import (a minute at 100,000 games).
    /// An import calls this once it has closed the store.
    ///
    /// # Errors
    /// As [`Store::open`].
    pub fn settle(dir: &Path) -> Result<(), StoreError> {
        let config = sled_config(dir).cache_capacity(CACHE_BYTES).flush_every_ms(None);
        drop(open_when_free(&config).map_err(|error| open_error(dir, error))?);
        Ok(())
    }
}

/// The full check beside the service, [`CHECK_DELAY`] after the start: damage stops the
/// store ([`Verifier::found`]).
fn full_check(tree: &Paced, verifier: &Verifier, stop: &AtomicBool) {
    let begin = Instant::now() + CHECK_DELAY;
    while Instant::now() < begin {
        if stop.load(Ordering::Relaxed) {
            return;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let started = Instant::now();
    match check::check_with(tree, verifier, stop) {
        Ok(games) if !stop.load(Ordering::Relaxed) => {
            tracing::info!(games, took = ?started.elapsed(), "the database was checked: no damage");
        }
        Ok(_) => {}
        Err(damage) => drop(verifier.found(&damage)),
    }
}

/// The zstd level of a compressed database: zstd's own default, fast enough to cost a turn
/// little beside the sync (a page of records compresses in tens of microseconds).
const COMPRESSION_LEVEL: i32 = 3;

/// sled's settings for the database in `dir`: a new database compresses its log with zstd
/// (sled compresses each page it writes, and a page holds up to 16 records of one layout,
/// so that they shrink well); an existing one keeps the setting it was made
/// with, since sled 0.34 refuses to open a database with another, so that databases made
/// before compression still open. Tools that open the directory with sled alone use this.
#[must_use]
pub fn sled_config(dir: &Path) -> sled::Config {
    sled::Config::new().path(dir).use_compression(made_compressed(dir)).compression_factor(COMPRESSION_LEVEL)
}

/// Whether the database in `dir` compresses, as its `conf` file (sled's settings) says; a
/// directory without one compresses if it is new (no log `db` either).
fn made_compressed(dir: &Path) -> bool {
    const COMPRESSED: &[u8] = b"use_compression: true";
    match std::fs::read(dir.join("conf")) {
        Ok(conf) => conf.windows(COMPRESSED.len()).any(|line| line == COMPRESSED),
        // sled writes a lost `conf` again from the settings given: those of old databases.
        Err(_) => !dir.join("db").exists(),
    }
}

/// How long a start waits for the lock of a database another opener is letting go of.
const LOCK_PATIENCE: Duration = Duration::from_secs(2);

/// Opens the database, waiting up to [`LOCK_PATIENCE`] while its lock is busy: sled lets
/// go of it from its flusher thread a moment after the last handle is dropped, and a
/// process that was just killed releases it as it exits. Only a lock held longer than
/// that is another process at work ([`StoreError::InUse`]).
fn open_when_free(config: &sled::Config) -> sled::Result<sled::Db> {
    let deadline = Instant::now() + LOCK_PATIENCE;
    loop {
        match config.open() {
            Err(sled::Error::Io(error))
                if error.to_string().contains("could not acquire lock") && Instant::now() < deadline =>
            {
                std::thread::sleep(Duration::from_millis(20));
            }
            other => return other,
        }
    }
}

/// Why sled could not open `dir`, in words for the operator.
fn open_error(dir: &Path, error: sled::Error) -> StoreError {
    match error {
        sled::Error::Io(error) if error.to_string().contains("could not acquire lock") => StoreError::InUse(format!(
            "{} is in use by another process (a running bot, console, export or import): a sled \
                 database is opened by one process at a time; stop the other one first, or share a \
                 PostgreSQL database (`database = \"postgres://...\"`) between processes",
            dir.display()
        )),
        sled::Error::Io(error) => cannot_open(dir, &error),
        sled::Error::Corruption { .. } => {
            let damage = Damage {
                what: format!("sled's files in {} (its log `db` or its snapshot `snap.*`)", dir.display()),
                detail: format!("sled cannot read them ({error})"),
            };
            StoreError::Damaged(format!("{damage}; {}", recover::restore_hint(dir)))
        }
        other => StoreError::Database(format!("cannot open {}: {other}", dir.display())),
    }
}

fn cannot_open(dir: &Path, error: &std::io::Error) -> StoreError {
    StoreError::Database(format!("cannot open {}: {error}", dir.display()))
}

/// What a start clears by itself, and the way back from real damage.
pub mod recover {
    use super::{Path, PathBuf};

    /// Removes what an interrupted sled leaves in `dir` that would stop every later
    /// start: `snap.*.generating` files. sled writes a snapshot under that name, syncs it,
    /// then renames it into place, and keeps the previous snapshot until then; a start on
    /// a full disk (or a crash) leaves the file empty or cut, and sled 0.34 then takes it
    /// for the newest snapshot and fails with "Read corrupted data at file offset None"
    /// forever. Such a file is never a finished snapshot, so removing it brings back the
    /// state sled had before it began. Returns the files removed.
    ///
    /// # Errors
    /// When the directory cannot be read or a file removed.
    pub fn leftovers(dir: &Path) -> std::io::Result<Vec<PathBuf>> {
        let entries = match std::fs::read_dir(dir) {
            Ok(entries) => entries,
            // A new database: nothing left over.
            Err(error) if error.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
            Err(error) => return Err(error),
        };
        let mut removed = Vec::new();
        for entry in entries {
            let entry = entry?;
            let name = entry.file_name();
            let name = name.to_string_lossy();
            if name.starts_with("snap.") && name.ends_with(".generating") {
                tracing::warn!(
                    file = %entry.path().display(),
                    "removing a snapshot sled did not finish (a crash or a full disk): the previous one stands"
                );
                std::fs::remove_file(entry.path())?;
                removed.push(entry.path());
            }
        }
        if !removed.is_empty() {
            // The removal must outlive a crash, or the next start meets the file again.
            std::fs::File::open(dir)?.sync_all()?;
        }
        Ok(removed)
    }

    /// How to restore the database in `dir` from an export: with the exact command when
    /// the bot's own exports are in `dir/backups` (the default of `backup_dir`).
    #[must_use]
    pub fn restore_hint(dir: &Path) -> String {
        let aside = PathBuf::from(format!("{}.damaged", dir.display()));
        let (shown, aside_shown) = (quoted(dir), quoted(&aside));
        match crate::backup::newest(&dir.join("backups")) {
            Some(newest) => {
                let name = newest.file_name().map(PathBuf::from).unwrap_or_default();
                let file = quoted(&aside.join("backups").join(name));
                format!(
                    "the database is in {shown}; restore it from an export: stop the bot, then run \
                     `mv {shown} {aside_shown} && stonemate import --data {shown} {file}` \
                     (the newest export the bot wrote; a newer one from `stonemate export` or another \
                     `backup_dir` is better), and start the bot again"
                )
            }
            None => format!(
                "the database is in {shown}; restore it from an export: stop the bot, then run \
                 `mv {shown} {aside_shown} && stonemate import --data {shown} FILE` with FILE the newest \
                 export (the bot writes them into `backup_dir` when `backup_every_hours` is set, or \
                 `stonemate export` made one), and start the bot again"
            ),
        }
    }

    /// A path as a shell reads it back.
    fn quoted(path: &Path) -> String {
        let text = path.display().to_string();
        let plain = |c: char| c.is_ascii_alphanumeric() || "/._-+,:@%".contains(c);
        if !text.is_empty() && text.chars().all(plain) { text } else { format!("'{}'", text.replace('\'', "'\\''")) }
    }
}

/// Rewrites player-index entries of the first layout (without the server) from their
/// records, in one batch. A database already upgraded has none: this is one scan.
fn upgrade_player_index(store: &Store<Sled>) -> Result<(), StoreError> {
    let mut batch = Batch::new();
    for (key, _) in store.backend().scan(&KeyRange::prefix(keys::PLAYER_PREFIX))? {
        if !keys::is_legacy_player_key(&key) {
            continue;
        }
        let record = match keys::id_at_end(&key) {
            Some(id) => store.load(id)?,
            None => None,
        };
        batch.writes.extend(keys::upgrade_player_key(&key, record.as_ref()));
    }
    if batch.is_empty() { Ok(()) } else { store.commit(&batch) }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ids::{GameId, GuildId, UserId};
    use crate::store::{IndexEntry, Phase, keys};

    /// A game record as the previous version wrote it: `guild` 1, in a database whose
    /// player index has no server (`p` user id → standing byte).
    const PREVIOUS: &str = r#"{"format":1,"id":1,"version":2,"game":"go","options":[["board","9x9"],["pieces","R"],["squares","all"],["moving","off"],["komi","0"]],"challenger":11,"opponent":12,"names":["alice","bob"],"color":"white","players":[11,12],"days":0,"channel":100,"guild":1,"created":1700000000000,"expires":1700604800000,"phase":"playing","turns":["R@e5"],"clock":null,"draw_offer":null,"result":null}"#;

    fn legacy_player_key(user: u64, id: u32) -> Vec<u8> {
        let mut key = vec![b'p'];
        key.extend_from_slice(&user.to_be_bytes());
        key.extend_from_slice(&id.to_be_bytes());
        key
    }

    #[test]
    fn a_database_of_the_previous_version_is_upgraded_when_opened() {
        let dir = tempfile::tempdir().unwrap();
        {
            let db = sled::open(dir.path()).unwrap();
            db.insert(keys::game(GameId(1)), PREVIOUS.as_bytes()).unwrap();
            db.insert(legacy_player_key(11, 1), b"a").unwrap();
            db.insert(legacy_player_key(12, 1), b"a").unwrap();
            // An index entry whose record is gone is dropped.
            db.insert(legacy_player_key(13, 9), b"c").unwrap();
            db.insert(keys::NEXT_ID, &1u32.to_be_bytes()).unwrap();
            db.flush().unwrap();
        }
        let store = SledStore::open(dir.path()).unwrap();
        let record = store.load(GameId(1)).unwrap().expect("the record loads");
        assert_eq!((record.guild, record.turns.len()), (Some(GuildId(1)), 1));
        let entry = IndexEntry { id: GameId(1), phase: Phase::Playing, guild: Some(GuildId(1)), challenger: true };
        assert_eq!(store.entries_in(UserId(11), Some(GuildId(1))).unwrap(), [entry]);
        assert_eq!(store.entries_of(UserId(12)).unwrap(), [IndexEntry { challenger: false, ..entry }]);
        assert!(store.entries_of(UserId(13)).unwrap().is_empty());
        assert!(store.dump().unwrap().iter().all(|(key, _)| !keys::is_legacy_player_key(key)));
        // Opening again changes nothing.
        let before = store.dump().unwrap();
        drop(store);
        assert_eq!(SledStore::open(dir.path()).unwrap().dump().unwrap(), before);
    }
}

#[cfg(test)]
mod recovery_tests {
    use super::*;
    use crate::ids::GameId;
    use crate::store::check::sample_record;

    /// A sled database in `dir` holding `games` records, closed.
    fn database(dir: &Path, games: u32) {
        let store = SledStore::open(dir).unwrap();
        store.create_many((0..games).map(|n| sample_record(n, n as usize % 5))).unwrap();
    }

    /// Opens `dir` with sled alone (without a flusher thread, so that it lets go at once),
    /// once the previous opener has let it go.
    fn raw(dir: &Path) -> sled::Result<sled::Db> {
        open_when_free(&sled_config(dir).flush_every_ms(None))
    }

    /// Replaces a record with `value`, with sled alone (as damage would).
    fn damage_record(dir: &Path, id: u32, value: &[u8]) {
        let db = raw(dir).unwrap();
        db.insert(keys::game(GameId(id)), value).unwrap();
        db.flush().unwrap();
    }

    #[test]
    fn a_large_database_serves_before_its_check_ends_and_never_serves_a_damaged_record() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path().join("db");
        database(&dir, CHECK_BEFORE_SERVING + 200);
        damage_record(&dir, 700, b"{\"format\":2,\"id\":7");
        let store = SledStore::open(&dir).expect("a large database opens before it is checked");
        // Whether the check or the read finds it first, the record is never returned.
        let error = store.load(GameId(700)).unwrap_err();
        let StoreError::Damaged(message) = &error else { panic!("{error:?}") };
        assert!(message.starts_with("the database is damaged: key 67 00 00 02 bc:"), "{message}");
        assert!(message.contains(&format!("stonemate import --data {}", dir.display())), "{message}");
        // And nothing else is served from the damaged database.
        assert!(matches!(store.load(GameId(1)), Err(StoreError::Damaged(_))));
        store.backend().wait_for_check();
    }

    #[test]
    fn the_check_beside_the_service_finds_damage_nobody_read() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path().join("db");
        database(&dir, CHECK_BEFORE_SERVING + 200);
        let mut record = sample_record(1100, 3);
        record.id = GameId(1101);
        record.version = 1;
        record.turns.push("R@e5".into());
        damage_record(&dir, 1101, &serde_json::to_vec(&record).unwrap());
        let store = SledStore::open(&dir).unwrap();
        store.backend().wait_for_check();
        let damaged = store.backend().damaged().expect("the check found the record");
        assert!(damaged.starts_with("the database is damaged: game #1101: its turns do not replay"), "{damaged}");
    }

    #[test]
    fn a_large_intact_database_is_checked_in_full_beside_the_service() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path().join("db");
        database(&dir, CHECK_BEFORE_SERVING + 200);
        let store = SledStore::open(&dir).unwrap();
        assert_eq!(store.load(GameId(3)).unwrap().unwrap().id, GameId(3));
        store.backend().wait_for_check();
        assert_eq!(store.backend().damaged(), None);
        assert!(store.backend().verifier.is_checked(GameId(CHECK_BEFORE_SERVING + 200)));
    }

    #[test]
    fn an_unfinished_snapshot_is_removed_and_the_database_opens_as_it_was() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path().join("db");
        database(&dir, 3);
        // What a start on a full disk leaves: the snapshot file created, nothing written.
        let leftover = dir.join("snap.00000000FFFFFFFF.generating");
        std::fs::write(&leftover, b"").unwrap();
        let raw = raw(&dir);
        assert!(matches!(raw, Err(sled::Error::Corruption { .. })), "sled alone fails on it: {raw:?}");
        let store = SledStore::open(&dir).unwrap();
        assert!(!leftover.exists());
        assert_eq!(store.load(GameId(3)).unwrap().unwrap().id, GameId(3));
    }

    #[test]
    fn a_second_opener_is_told_the_directory_is_in_use() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path().join("db");
        let _first = SledStore::open(&dir).unwrap();
        let error = SledStore::open(&dir).unwrap_err();
        let StoreError::InUse(message) = &error else { panic!("{error:?}") };
        assert!(message.starts_with(&format!("{} is in use by another process", dir.display())), "{message}");
        assert!(!message.contains("lock"), "no library text: {message}");
    }

    #[test]
    fn damaged_sled_files_stop_with_the_directory_and_the_exact_restore_command() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path().join("db");
        database(&dir, 3);
        let backups = dir.join("backups");
        std::fs::create_dir_all(&backups).unwrap();
        for name in ["stonemate-20261101T000000Z.jsonl", "stonemate-20261120T060000Z.jsonl", "notes.txt"] {
            std::fs::write(backups.join(name), b"").unwrap();
        }
        // A finished snapshot that is garbage: not a leftover, real damage.
        std::fs::write(dir.join("snap.00000000FFFFFFFF"), b"garbage, not a snapshot").unwrap();
        let error = SledStore::open(&dir).unwrap_err();
        let StoreError::Damaged(message) = &error else { panic!("{error:?}") };
        let shown = dir.display();
        assert!(message.starts_with(&format!("the database is damaged: sled's files in {shown}")), "{message}");
        let command = format!(
            "`mv {shown} {shown}.damaged && stonemate import --data {shown} \
             {shown}.damaged/backups/stonemate-20261120T060000Z.jsonl`"
        );
        assert!(message.contains(&command), "{message}");
    }
}
