//! Opening a sled database ([`SledStore::open`], [`open_for_streams`]): leftovers of a
//! crash cleared, sled opened once its lock is free, the player index upgraded if it is
//! of the first layout, and every record checked, before serving on a small database and
//! beside the service on a large one.

use std::path::Path;
use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

use super::backend::{Sled, Stop, full_check};
use super::recover;
use super::settings::sled_config;
use super::tree::{Tree, guarded, read_error};
use crate::store::backend::{Backend, Batch, KeyRange};
use crate::store::check::{self, Pace, Verifier};
use crate::store::durable::{GroupSync, SledFiles};
use crate::store::error::StoreError;
use crate::store::keys;
use crate::store::records::Store;

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
pub(super) const STREAM_CACHE_BYTES: u64 = 2 * 1024 * 1024;

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
    let meta = db.open_tree(META_TREE).map_err(|error| read_error(dir, error))?;
    if meta.get(LAYOUT).map_err(|error| read_error(dir, error))?.as_deref() != Some(LAYOUT_WITH_SERVERS) {
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

/// How long a start waits for the lock of a database another opener is letting go of.
pub(super) const LOCK_PATIENCE: Duration = Duration::from_secs(2);

/// Opens the database, waiting up to [`LOCK_PATIENCE`] while its lock is busy: sled lets
/// go of it from its flusher thread a moment after the last handle is dropped, and a
/// process that was just killed releases it as it exits. Only a lock held longer than
/// that is another process at work ([`StoreError::InUse`]).
pub(super) fn open_when_free(config: &sled::Config) -> sled::Result<sled::Db> {
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
pub(super) fn open_error(dir: &Path, error: sled::Error) -> StoreError {
    match error {
        sled::Error::Io(error) if error.to_string().contains("could not acquire lock") => StoreError::InUse(format!(
            "{} is in use by another process (a running bot, console, export or import): a sled \
                 database is opened by one process at a time; stop the other one first, or share a \
                 PostgreSQL database (`database = \"postgres://...\"`) between processes",
            dir.display()
        )),
        sled::Error::Io(error) => cannot_open(dir, &error),
        error @ sled::Error::Corruption { .. } => read_error(dir, error),
        other => StoreError::Database(format!("cannot open {}: {other}", dir.display())),
    }
}

pub(super) fn cannot_open(dir: &Path, error: &std::io::Error) -> StoreError {
    StoreError::Database(format!("cannot open {}: {error}", dir.display()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ids::{GameId, GuildId, UserId};
    use crate::store::check::sample_record;
    use crate::store::sled_store::testing::{damage_record, database, raw};
    use crate::store::{IndexEntry, Phase};

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
        assert_eq!((record.guild(), record.turns.len()), (Some(GuildId(1)), 1));
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
}
