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
//! where each page of the tree lies in the log), then the log from the beginning of the
//! segment that snapshot ends in, and writes a new snapshot; sled 0.34 writes snapshots at
//! no other time. So:
//!
//! - an import ends by opening the database once more ([`settle`]): the import's
//!   whole log is read there, and the first start after it reads only the snapshot (at
//!   100,000 games, about a minute of reading moved out of the bot's start); so does every
//!   clean end of a console or a bot that wrote ([`Closing`]), so that a start after a day
//!   of turns does not read the day's log;
//! - new databases compress their log ([`sled_config`]): the records of a page compress
//!   well, so that there are fewer bytes to keep; a start reads (and decompresses, message
//!   by message) one log segment again, so its size bounds that part ([`SEGMENT_BYTES`]);
//! - the full check waits until the service runs, then paces itself ([`check::Pace`]);
//! - a panic of sled while it reads (a page that passes its checksum but does not
//!   decompress) is answered like other damage ([`guarded`]).
//!
//! What is left grows with the pages of the tree (sled splits a leaf past 16 keys, and a
//! game has 3 to 4) and with the log's free segments, which every start zeroes again.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Condvar, Mutex, PoisonError, Weak};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use sled::transaction::{ConflictableTransactionError, TransactionError};

use super::StoreError;
use super::backend::{Backend, Batch, Entries, KeyRange};
use super::check::{self, Damage, Pace, Verifier};
use super::durable::{DurableSync, GroupSync, SledFiles};
use super::keys;
use super::records::Store;

/// The page cache sled may fill: sled keeps what it reads (and the full check reads
/// everything), so this bounds the bot's memory at any size of database. sled counts a
/// page at its compressed size in the log and holds it decoded: a MiB of this cache came
/// to about 3.5 MiB of memory (a scan of 100,000 games: 70 MiB with 12 MiB, 45 MiB with 4
/// MiB, 32 MiB with 2 MiB). A correspondence bot's working set is a few pages a turn, and a
/// page read again costs a read of the log and its decompression, tens of microseconds
/// beside a turn's `fdatasync`.
const CACHE_BYTES: u64 = 4 * 1024 * 1024;

/// The page cache of `stonemate export` and `import` ([`open_for_streams`]) and of
/// [`settle`]: they read or write each page once, so a cache only costs memory. sled counts
/// a page at its size in the log, compressed, while it holds it decoded, several times
/// larger: at 100,000 games a 12 MiB cache came to most of an import's 91 MiB peak, and a
/// 20,000-game import (whose whole log fits in 12 MiB) peaked at 48 MiB with it against 35
/// MiB with 3 MiB.
const STREAM_CACHE_BYTES: u64 = 2 * 1024 * 1024;

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
    /// Where it is, for the message when sled cannot read it.
    dir: Arc<Path>,
}

/// Runs `call` (calls into sled on the database in `dir`), answering a panic with
/// [`StoreError::Damaged`]: sled 0.34 panics instead of failing when a page of a compressed
/// log passes its checksum but does not decompress (`maybe_decompress`), and a damaged
/// database must stop with the directory and the way to restore it, not a crash. The
/// panic's own text still reaches standard error (the panic hook runs first), and the
/// store stops at the error ([`super::FailStop`]), so that nothing runs on over sled's
/// interrupted state.
fn guarded<T>(dir: &Path, call: impl FnOnce() -> Result<T, StoreError>) -> Result<T, StoreError> {
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(call)).unwrap_or_else(|panic| {
        let said = panic
            .downcast_ref::<&str>()
            .map(|text| (*text).to_owned())
            .or_else(|| panic.downcast_ref::<String>().cloned())
            .unwrap_or_default();
        // sled's text ends with a plea to open an issue: the first sentence is the fact.
        let said = said.split(". ").next().unwrap_or_default();
        let damage = Damage {
            what: format!("sled's files in {} (its log `db` or its snapshot `snap.*`)", dir.display()),
            detail: format!("sled stopped reading them ({said})"),
        };
        Err(StoreError::Damaged(format!("{damage}; {}", recover::restore_hint(dir))))
    })
}

fn unsure(error: impl std::fmt::Display) -> StoreError {
    StoreError::Unsure(error.to_string())
}

impl Backend for Tree {
    fn get(&self, key: &[u8]) -> Result<Option<Vec<u8>>, StoreError> {
        self.guard(|| Ok(self.db.get(key)?.map(|value| value.to_vec())))
    }

    fn scan(&self, range: &KeyRange) -> Result<Entries, StoreError> {
        self.guard(|| self.scan_unguarded(range))
    }

    fn apply(&self, batch: &Batch) -> Result<(), StoreError> {
        self.guard(|| self.apply_unguarded(batch))
    }

    // sled's own generator: increasing, and never given twice, even across restarts.
    fn next_id(&self) -> Result<u64, StoreError> {
        self.guard(|| Ok(self.db.generate_id().map_err(unsure)? + 1))
    }

    fn flush(&self) -> Result<(), StoreError> {
        self.guard(|| self.db.flush().map(drop).map_err(unsure))
    }
}

impl Tree {
    /// Runs a call into sled, answering a panic of sled with [`StoreError::Damaged`] (see
    /// [`guarded`]).
    fn guard<T>(&self, call: impl FnOnce() -> Result<T, StoreError>) -> Result<T, StoreError> {
        guarded(&self.dir, call)
    }

    /// A range of keys, each then looked up once more ([`count_pages`]).
    fn scan_unguarded(&self, range: &KeyRange) -> Result<Entries, StoreError> {
        let found = match &range.end {
            Some(end) => self.db.range(range.start.as_slice()..end.as_slice()),
            None => self.db.range(range.start.as_slice()..),
        };
        let found = found.map(|entry| -> Result<_, StoreError> {
            let (key, value) = entry?;
            Ok((key.to_vec(), value.to_vec()))
        });
        let entries = match range.limit {
            Some(limit) => found.take(limit).collect::<Result<Vec<_>, _>>(),
            None => found.collect(),
        }?;
        count_pages(&self.db, &entries)?;
        Ok(entries)
    }

    fn apply_unguarded(&self, batch: &Batch) -> Result<(), StoreError> {
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
}

/// Looks up each key of `entries` (just scanned) once more, so that sled's page cache
/// counts the pages they lie in and can let them go.
///
/// sled 0.34 counts a page against its cache only when it handles the accesses to it, 64
/// at a time in each of 256 shards of its LRU; a scan touches each leaf once, so up to
/// 16,384 leaves a scan decoded are held uncounted, whatever the cache's size. A leaf of
/// records holds up to 16 of them, several KiB: at 100,000 games an export or a check held
/// nearly every record in memory (a scan of all keys peaked at 93 MiB, with a 256-byte
/// cache as with 2 MiB). With a lookup per key a leaf is touched as often as it has keys,
/// the shards' queues fill and the LRU evicts: the same scan peaked at 32 MiB, 5% slower.
/// The bot's own scans (a player's games, the deadlines) are short and pay a microsecond
/// or two a key.
fn count_pages(db: &sled::Db, entries: &Entries) -> Result<(), StoreError> {
    for (key, _) in entries {
        db.get(key)?;
    }
    Ok(())
}

/// How long after opening the full check beside the service begins: the start and the
/// first commands do not share the cores with it.
const CHECK_DELAY: Duration = Duration::from_secs(2);

/// A sled database in a directory of its own.
#[derive(Debug)]
pub struct Sled {
    tree: Tree,
    sync: Arc<DurableSync>,
    /// Which records are checked, and the damage found.
    verifier: Arc<Verifier>,
    /// The full check running beside the service, and the flag that ends it early.
    checker: Mutex<Option<JoinHandle<()>>>,
    stop_checker: Arc<Stop>,
    /// Set at the first write: the run then owes the database a snapshot at its clean
    /// end ([`Closing`]).
    wrote: Arc<AtomicBool>,
}

/// Tells the full check to end: a flag its chunks read, and a wake-up for its wait before
/// it begins, so that closing the database never waits for the delay to run out.
#[derive(Debug, Default)]
struct Stop {
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
        // sled reads its log while it opens, and the store its first keys here.
        guarded(dir, || open_unguarded(dir, Use::Serve))
    }
}

/// [`Store::open`] for `stonemate export` and `import`, which read or write every record
/// once: a page cache of [`STREAM_CACHE_BYTES`], and no full check beside them (a large
/// database's check would read everything a second time, with its own pages in memory):
/// an import checks the whole database at its end, an export every record it writes. A
/// small database is still checked in full before anything is read.
///
/// # Errors
/// As [`Store::open`].
pub fn open_for_streams(dir: &Path) -> Result<SledStore, StoreError> {
    recover::leftovers(dir).map_err(|error| cannot_open(dir, &error))?;
    guarded(dir, || open_unguarded(dir, Use::Stream))
}

/// What a sled store is opened for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Use {
    /// The bot and the console: [`CACHE_BYTES`], and a large database checked in full
    /// beside the service.
    Serve,
    /// A tool that reads or writes every record once ([`open_for_streams`]).
    Stream,
}

/// [`Store::open`] once leftovers are cleared, for `purpose`, without the panic guard.
fn open_unguarded(dir: &Path, purpose: Use) -> Result<SledStore, StoreError> {
    let here: Arc<Path> = Arc::from(dir);
    // sled's default page cache is 1 GiB; a bot's working set is far smaller.
    let cache = if purpose == Use::Serve { CACHE_BYTES } else { STREAM_CACHE_BYTES };
    let config = sled_config(dir).cache_capacity(cache);
    let db = open_when_free(&config).map_err(|error| open_error(dir, error))?;
    let files = SledFiles::open(dir).map_err(|error| StoreError::Database(error.to_string()))?;
    let verifier = Arc::new(Verifier::new(recover::restore_hint(dir)));
    let sled = Sled {
        tree: Tree { db: db.clone(), dir: here.clone() },
        sync: Arc::new(GroupSync::new(files)),
        verifier: verifier.clone(),
        checker: Mutex::new(None),
        stop_checker: Arc::new(Stop::default()),
        wrote: Arc::new(AtomicBool::new(false)),
    };
    let store = Store::over(Arc::new(sled));
    let meta = db.open_tree(META_TREE)?;
    if meta.get(LAYOUT)?.as_deref() != Some(LAYOUT_WITH_SERVERS) {
        upgrade_player_index(&store)?;
        meta.insert(LAYOUT, LAYOUT_WITH_SERVERS)?;
        store.backend().flush()?;
    }
    let tree = Tree { db, dir: here };
    let games = keys::next_id(tree.get(keys::NEXT_ID)?.as_deref())?.0 - 1;
    if games <= CHECK_BEFORE_SERVING {
        // Before anything is served: a damaged database stops the start here.
        check::check_with(&tree, &verifier, Pace { stop: &AtomicBool::new(false), paced: false })
            .map_err(|damage| verifier.found(&damage))?;
    } else if purpose == Use::Serve {
        let stop = store.backend().stop_checker.clone();
        let handle = std::thread::Builder::new()
            .name("stonemate-check".into())
            .spawn(move || full_check(&tree, &verifier, &stop))
            .map_err(|error| StoreError::Database(format!("cannot start the check: {error}")))?;
        *store.backend().checker.lock().unwrap_or_else(PoisonError::into_inner) = Some(handle);
    }
    Ok(store)
}

/// Has sled write a snapshot of the closed database in `dir`, so that the next start
/// reads only that: sled 0.34 writes one only when it opens a database, after reading
/// every message its log holds past the previous one, so that without this the first
/// start after a large import would read the whole import (a minute at 100,000 games).
/// [`Closing::settle`] calls this at the clean end of a run that wrote: an import, a
/// console session, the bot.
///
/// # Errors
/// As [`Store::open`].
fn settle(dir: &Path) -> Result<(), StoreError> {
    // A snapshot an interrupted settle left unfinished would stop this one.
    recover::leftovers(dir).map_err(|error| cannot_open(dir, &error))?;
    let config = sled_config(dir).cache_capacity(STREAM_CACHE_BYTES).flush_every_ms(None);
    guarded(dir, || open_when_free(&config).map(drop).map_err(|error| open_error(dir, error)))
}

/// What the clean end of a process owes the database it opened: on sled, when the run
/// wrote anything, a snapshot (sled opened once more) taken once every handle of the store
/// is gone.
///
/// sled 0.34 writes a snapshot only when it opens a database, after reading every message
/// logged since the previous one. Without this, the first start after a day of turns
/// would read the whole day's log (607 ms at 100,000 games after 2,000 turns, against
/// about 115 ms for the starts after it); with it, a clean stop pays that reading, and a
/// start reads the snapshot and one log segment. A crash skips it: the restart then reads
/// what was written since the last start or clean stop, as before.
#[derive(Debug, Default)]
pub struct Closing {
    /// The sled database's directory, whether it was written to, and its store while it is
    /// open (`None`: another kind of store, which owes nothing).
    sled: Option<(PathBuf, Arc<AtomicBool>, Weak<Sled>)>,
}

impl Closing {
    /// What closing `store` (opened on `dir`) will owe.
    #[must_use]
    pub fn of(store: &SledStore, dir: &Path) -> Closing {
        let sled = store.backend();
        Closing { sled: Some((dir.to_path_buf(), sled.wrote.clone(), Arc::downgrade(sled))) }
    }

    /// Once the store is closed, has sled write a snapshot if the run wrote anything;
    /// returns whether it did.
    ///
    /// # Errors
    /// [`StoreError::InUse`] when a handle of the store is still alive in this process
    /// (nothing is done: sled would wait for it in vain), else as [`Store::open`].
    pub fn settle(self) -> Result<bool, StoreError> {
        let Some((dir, wrote, open)) = self.sled else { return Ok(false) };
        if open.strong_count() > 0 {
            return Err(StoreError::InUse(format!(
                "{} is still open in this process: no snapshot taken at its close",
                dir.display()
            )));
        }
        if !wrote.load(Ordering::Relaxed) {
            return Ok(false);
        }
        settle(&dir).map(|()| true)
    }
}

/// The full check beside the service, [`CHECK_DELAY`] after the start: damage stops the
/// store ([`Verifier::found`]).
fn full_check(tree: &Tree, verifier: &Verifier, stop: &Stop) {
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

/// The zstd level of a compressed database: zstd's own default, fast enough to cost a turn
/// little beside the sync (a page of records compresses in tens of microseconds).
const COMPRESSION_LEVEL: i32 = 3;

/// The log segment of a new database: 64 KiB (sled's own is 512 KiB).
///
/// At every start sled 0.34 reads again, from its beginning, the segment its snapshot ends
/// in (`raw_segment_iter_from` starts at the segment's first byte and skips what the
/// snapshot holds only after reading it), and in a compressed database it decompresses
/// each message read with a new zstd context (`maybe_decompress`, tens of microseconds
/// each): a start costs up to one segment of small messages. Measured at 100,000 games
/// after 2,000 turns (a sled-only harness, loaded machine, five starts each): 410-470 ms a
/// start with 512 KiB segments, 110-180 ms with 128 KiB, 64-115 ms with 64 KiB, and the
/// disk shrinks too (docs/scaling.md). sled also needs a new segment's room on the disk
/// sooner with small segments; since notices keep what to draw instead of their PNG, a
/// turn writes little enough that a bot on a filling disk still confirms a dozen turns
/// or more before it stops (`bot/tests/full_disk.rs`). Each database keeps the segments
/// it was made with ([`Storage::of`]): older ones stay at 512 KiB.
const SEGMENT_BYTES: usize = 64 * 1024;

/// sled's settings for the database in `dir`: those it was made with ([`Storage::of`]),
/// since sled 0.34 refuses to open a database with others, so that databases made before
/// compression or with sled's default segments still open; a new database compresses its
/// log with zstd (a page holds up to 16 records of one layout, so that they shrink well) in
/// segments of [`SEGMENT_BYTES`]. Tools that open the directory with sled alone use this.
#[must_use]
pub fn sled_config(dir: &Path) -> sled::Config {
    let storage = Storage::of(dir);
    sled::Config::new()
        .path(dir)
        .use_compression(storage.compressed)
        .compression_factor(COMPRESSION_LEVEL)
        .segment_size(storage.segment_bytes)
}

/// The settings sled fixes when it makes a database (its `conf` file).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Storage {
    compressed: bool,
    segment_bytes: usize,
}

impl Storage {
    /// What a new database gets.
    const NEW: Storage = Storage { compressed: true, segment_bytes: SEGMENT_BYTES };
    /// sled's defaults: what databases made before the store chose its own settings use.
    const SLED_DEFAULT: Storage = Storage { compressed: false, segment_bytes: 512 * 1024 };

    /// The settings of the database in `dir`, as its `conf` says; a directory without a
    /// log (`db`) is a new database; a log without `conf` (sled writes a lost one again
    /// from the settings given) was made with sled's defaults, as were the databases from
    /// before these settings.
    fn of(dir: &Path) -> Storage {
        match std::fs::read(dir.join("conf")) {
            Ok(conf) => Storage::parse(&conf),
            Err(_) if dir.join("db").exists() => Storage::SLED_DEFAULT,
            Err(_) => Storage::NEW,
        }
    }

    /// Reads sled's `conf`: lines of `key: value`, then a 4-byte checksum. A setting that
    /// is missing or unreadable keeps sled's default, so that sled itself judges the file.
    fn parse(conf: &[u8]) -> Storage {
        let text = conf.get(..conf.len().saturating_sub(4)).unwrap_or_default();
        let mut storage = Storage::SLED_DEFAULT;
        for line in String::from_utf8_lossy(text).lines() {
            let Some((key, value)) = line.split_once(": ") else { continue };
            match key.trim() {
                "use_compression" => storage.compressed = value.trim() == "true",
                "segment_size" => {
                    storage.segment_bytes = value.trim().parse().unwrap_or(Storage::SLED_DEFAULT.segment_bytes);
                }
                _ => {}
            }
        }
        storage
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
    fn an_export_of_a_large_database_checks_no_more_than_it_writes_and_stops_at_a_damaged_game() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path().join("db");
        database(&dir, CHECK_BEFORE_SERVING + 200);
        let streams = open_for_streams(&dir).unwrap();
        assert!(streams.backend().checker.lock().unwrap().is_none(), "no full check beside an export");
        drop(streams);
        let mut record = sample_record(1100, 3);
        record.id = GameId(1101);
        record.version = 1;
        record.turns.push("R@e5".into());
        damage_record(&dir, 1101, &serde_json::to_vec(&record).unwrap());
        let streams = open_for_streams(&dir).expect("a large database opens without its full check");
        let error = crate::store::export::export(&streams, Vec::new()).unwrap_err().to_string();
        assert!(error.starts_with("the database is damaged: game #1101: its turns do not replay"), "{error}");
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
    fn closing_snapshots_only_a_database_written_to_and_only_once_it_is_closed() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path().join("db");
        database(&dir, 3);
        let snapshots = || {
            let names = std::fs::read_dir(&dir).unwrap().map(|entry| entry.unwrap().file_name());
            names.filter(|name| name.to_string_lossy().starts_with("snap.")).collect::<Vec<_>>()
        };
        // Read only: nothing is owed, and sled is not opened again.
        let store = SledStore::open(&dir).unwrap();
        let closing = Closing::of(&store, &dir);
        assert_eq!(store.load(GameId(2)).unwrap().unwrap().id, GameId(2));
        drop(store);
        assert!(!closing.settle().unwrap());

        let store = SledStore::open(&dir).unwrap();
        let before = snapshots();
        let closing = Closing::of(&store, &dir);
        store.create(sample_record(9, 4)).unwrap();
        let still_open = Closing { sled: closing.sled.clone() };
        assert!(matches!(still_open.settle(), Err(StoreError::InUse(_))), "not while a handle lives");
        drop(store);
        assert!(closing.settle().unwrap());
        assert_ne!(snapshots(), before, "a snapshot past the write");
        assert_eq!(SledStore::open(&dir).unwrap().load(GameId(4)).unwrap().unwrap().turns.len(), 4);
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

#[cfg(test)]
mod settings_tests {
    use super::*;
    use crate::store::check::sample_record;

    /// A `conf` as sled writes it: its lines, then a checksum (any 4 bytes for the parse).
    fn conf(text: &str) -> Vec<u8> {
        let mut bytes = text.as_bytes().to_vec();
        bytes.extend_from_slice(b"\n:\x0a ");
        bytes
    }

    #[test]
    fn sleds_conf_is_read_line_by_line() {
        let compressed = conf("segment_size: 131072\nuse_compression: true\nversion: 0.34\n");
        assert_eq!(Storage::parse(&compressed), Storage { compressed: true, segment_bytes: 131_072 });
        // A value that merely contains the words is no setting.
        let plain = conf("segment_size: 524288\nuse_compression: false\nversion: 0.34 use_compression: true\n");
        assert_eq!(Storage::parse(&plain), Storage::SLED_DEFAULT);
        assert_eq!(Storage::parse(b""), Storage::SLED_DEFAULT);
    }

    #[test]
    fn a_new_database_gets_its_settings_and_old_ones_keep_theirs() {
        let tmp = tempfile::tempdir().unwrap();
        let new = tmp.path().join("new");
        assert_eq!(Storage::of(&new), Storage::NEW);
        drop(SledStore::open(&new).unwrap());
        assert_eq!(Storage::of(&new), Storage::NEW, "as its conf now says");
        let text = std::fs::read(new.join("conf")).unwrap();
        assert!(String::from_utf8_lossy(&text).contains(&format!("segment_size: {SEGMENT_BYTES}\n")));

        let fixture = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/format1-db");
        assert_eq!(Storage::of(&fixture), Storage::SLED_DEFAULT);

        // Made with other settings: those stay.
        let previous = tmp.path().join("previous");
        let config = sled::Config::new().path(&previous).use_compression(true).segment_size(256 * 1024);
        drop(config.flush_every_ms(None).open().unwrap());
        assert_eq!(Storage::of(&previous), Storage { compressed: true, segment_bytes: 256 * 1024 });
        let created = SledStore::open(&previous).unwrap().create(sample_record(1, 3)).unwrap();
        let store = open_when_free_store(&previous);
        assert_eq!(store.load(created.id).unwrap().unwrap().turns.len(), 3);
        assert_eq!(Storage::of(&previous), Storage { compressed: true, segment_bytes: 256 * 1024 }, "kept");
    }

    /// Opens `dir` once the previous opener (sled's flusher thread) has let it go.
    fn open_when_free_store(dir: &Path) -> SledStore {
        let deadline = Instant::now() + LOCK_PATIENCE;
        loop {
            match SledStore::open(dir) {
                Err(StoreError::InUse(_)) if Instant::now() < deadline => {}
                other => return other.unwrap(),
            }
        }
    }

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

    /// The zstd frames' first bytes.
    const ZSTD_MAGIC: [u8; 4] = [0x28, 0xb5, 0x2f, 0xfd];

    /// A number as sled 0.34 writes it in its log (`serialization.rs`): its value, and
    /// how many bytes it took.
    fn varint(bytes: &[u8]) -> (u64, usize) {
        match bytes[0] {
            small @ 0..=240 => (u64::from(small), 1),
            first @ 241..=248 => (240 + 256 * (u64::from(first) - 241) + u64::from(bytes[1]), 2),
            249 => (2288 + 256 * u64::from(bytes[1]) + u64::from(bytes[2]), 3),
            other => {
                let size = usize::from(other) - 247;
                let mut aligned = [0; 8];
                aligned[..size].copy_from_slice(&bytes[1..=size]);
                (u64::from_le_bytes(aligned), size + 1)
            }
        }
    }

    /// Garbles the last compressed page of the log's first segment and gives it a
    /// checksum that holds, as a bad sector under a lucky checksum or a bug would: sled
    /// then reads it at its next start and fails to decompress it. A message is a header
    /// (checksum, kind, body length, segment number, page, after a 20-byte segment header)
    /// and a body (its length, then the zstd frame); the checksum covers the body, then the
    /// header past the checksum (`calculate_message_crc32`).
    fn garble_a_compressed_page(dir: &Path) {
        let mut log = std::fs::read(dir.join("db")).unwrap();
        let (mut at, mut garbled) = (20, None);
        while at + 8 < SEGMENT_BYTES.min(log.len()) && log[at + 4] != 0 {
            let (len, len_size) = varint(&log[at + 5..]);
            let (_, segment_size) = varint(&log[at + 5 + len_size..]);
            let (_, page_size) = varint(&log[at + 5 + len_size + segment_size..]);
            let header = 5 + len_size + segment_size + page_size;
            let body = at + header;
            let (_, frame_at) = varint(&log[body..]);
            // Inline pages and page updates (kinds 8 and 10).
            if [8, 10].contains(&log[at + 4]) && log[body + frame_at..].starts_with(&ZSTD_MAGIC) {
                garbled = Some((at, header, body, frame_at, len as usize));
            }
            at = body + len as usize;
        }
        let (at, header, body, frame_at, len) = garbled.expect("a compressed page in the first segment");
        // A frame header with its reserved bit set: zstd refuses the frame.
        log[body + frame_at + 4] = 0xff;
        let mut hasher = crc32fast::Hasher::new();
        hasher.update(&log[body..body + len]);
        hasher.update(&log[at + 4..at + header]);
        let crc = hasher.finalize() ^ 0xffff_ffff;
        log[at..at + 4].copy_from_slice(&crc.to_le_bytes());
        std::fs::write(dir.join("db"), log).unwrap();
    }

    #[test]
    fn a_page_that_passes_its_checksum_but_does_not_decompress_stops_with_the_restore_command() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path().join("db");
        {
            let store = SledStore::open(&dir).unwrap();
            store.create_many((0..3).map(|n| sample_record(n, 2))).unwrap();
        }
        // Let sled's flusher thread let go of the files.
        drop(open_when_free_store(&dir));
        std::thread::sleep(Duration::from_millis(600));
        garble_a_compressed_page(&dir);
        let error = SledStore::open(&dir).map(drop).unwrap_err();
        let StoreError::Damaged(message) = &error else { panic!("{error:?}") };
        let shown = dir.display();
        assert!(message.starts_with(&format!("the database is damaged: sled's files in {shown}")), "{message}");
        assert!(message.contains("failed to decompress data"), "{message}");
        assert!(message.contains(&format!("stonemate import --data {shown}")), "{message}");
        assert!(!message.contains("open an issue"), "{message}");
    }
}
