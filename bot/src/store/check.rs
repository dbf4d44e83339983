//! The check of a database: every game record decodes and its turns replay, every user,
//! rating and outbox entry decodes, and the index entries are exactly those the records
//! imply. A damaged database stops the bot with a [`Damage`] that names the key and says
//! how to restore from an export.
//!
//! **When it runs.** Checking every record costs about 50 µs a game (the replay), so a
//! database of 100,000 games would take seconds to open. The guarantee the check gives
//! (a damaged record is never served, and is named when found) needs less than checking
//! everything before the first command:
//!
//! - every game record is checked when it is first read ([`Verifier::game_read`]: decode
//!   and replay), before anything can be served from it; a record the store wrote
//!   itself came from a replayed game, so writing marks it checked;
//! - the whole check ([`check_with`]) runs once per start, at once on a small database
//!   (it costs less than a first command) and on a thread beside the service on a large
//!   one, reading in chunks, so that memory stays flat at any size;
//! - damage found either way stops the store for good (the service then stops like after
//!   a storage failure) with the message of [`Verifier::damaged`].
//!
//! The full check runs while commands change the database: it reads a record, its index
//! entries, then the record again, and trusts what it read only if the record did not
//! change in between (a record and its index entries change in one transaction, and every
//! change of a record changes its version), so it never takes a racing write for damage.
//!
//! What it cannot see: sled 0.34 ends its recovery silently at the first torn or garbled
//! message of its log, so a cut or garbled log file opens as an older, consistent state.

use std::fmt;
use std::hash::{BuildHasher, Hash};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, OnceLock, PoisonError};
use std::time::{Duration, Instant};

use stonemate_engine::AnyGame;

use super::backend::{Backend, Entries, KeyRange, chunks};
use super::error::StoreError;
use super::keys;
use super::record::GameRecord;
use super::records::Store;
use super::tournaments;
use crate::ids::GameId;

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

/// Keys read per scan of the check: memory stays flat whatever the database holds.
const CHUNK: usize = 512;

/// How often a record that keeps changing under the check is read again before its
/// index entries are checked without the guard (a record changed hundreds of times in a
/// few milliseconds is no state a bot reaches).
const ATTEMPTS: usize = 64;

/// The game records already checked, and the damage found, of one open database: shared
/// by its backend (which checks a record at its first read) and its full check.
#[derive(Debug, Default)]
pub struct Verifier {
    /// One bit per game id: checked.
    checked: Mutex<Vec<u64>>,
    /// The first damage found, as the message that stops the bot. Never cleared.
    damage: OnceLock<String>,
    /// Appended to the damage's text: where the database is and how to restore it.
    restore: String,
}

impl Verifier {
    /// A verifier whose damage message ends with `restore` (where the database is, and how
    /// to restore it).
    #[must_use]
    pub fn new(restore: String) -> Verifier {
        Verifier { restore, ..Verifier::default() }
    }

    /// The damage found so far, as the message that stops the bot.
    pub fn damaged(&self) -> Option<&str> {
        self.damage.get().map(String::as_str)
    }

    /// Fails with the damage found, if any: a damaged database serves nothing more.
    pub fn ensure_sound(&self) -> Result<(), StoreError> {
        match self.damaged() {
            Some(message) => Err(StoreError::Damaged(message.to_owned())),
            None => Ok(()),
        }
    }

    /// Records `found` (the first one is kept) and returns the error that stops the store.
    pub fn found(&self, found: &Damage) -> StoreError {
        let message = self.damage.get_or_init(|| {
            let message = format!("{found}; {}", self.restore);
            tracing::error!(%message, "the database is damaged: stopping");
            message
        });
        StoreError::Damaged(message.clone())
    }

    pub(crate) fn is_checked(&self, id: GameId) -> bool {
        let bits = self.checked.lock().unwrap_or_else(PoisonError::into_inner);
        bits.get(id.0 as usize / 64).is_some_and(|word| word & (1 << (id.0 % 64)) != 0)
    }

    /// Marks `id` as checked (read and replayed, or written by the store).
    pub fn mark(&self, id: GameId) {
        let mut bits = self.checked.lock().unwrap_or_else(PoisonError::into_inner);
        let word = id.0 as usize / 64;
        if bits.len() <= word {
            bits.resize(word + 1, 0);
        }
        bits[word] |= 1 << (id.0 % 64);
    }

    /// Checks a game record read under `key` unless it was already: a record that does
    /// not decode or replay stops the store before anything is served from it.
    pub fn game_read(&self, key: &[u8], value: &[u8]) -> Result<(), StoreError> {
        self.ensure_sound()?;
        let Some(id) = keys::id_at_end(key) else { return Ok(()) };
        if self.is_checked(id) {
            return Ok(());
        }
        verify_game(key, value).map_err(|found| self.found(&found))?;
        self.mark(id);
        Ok(())
    }
}

/// Decodes a stored game record and replays its turns.
pub fn verify_game(key: &[u8], value: &[u8]) -> Result<GameRecord, Damage> {
    let record = keys::decode_game(value).map_err(|error| damage(readable(key), error))?;
    let what = format!("game {}", record.id);
    if keys::game(record.id) != key {
        return Err(damage(what, format!("stored under {}", readable(key))));
    }
    let replay =
        AnyGame::replay(record.kind, &record.options, &record.turns).map_err(|error| damage(what.clone(), error))?;
    if let Some(error) = replay.error {
        return Err(damage(what, format!("its turns do not replay: {error}")));
    }
    Ok(record)
}

/// A game record read under `key`: decoded, and replayed too unless `verifier` already
/// has it checked (replayed at a read, or written by the store).
fn read_game(verifier: &Verifier, key: &[u8], value: &[u8]) -> Result<GameRecord, Damage> {
    match keys::id_at_end(key) {
        Some(id) if verifier.is_checked(id) && key.len() == 5 => {
            keys::decode_game(value).map_err(|error| damage(readable(key), error))
        }
        _ => verify_game(key, value),
    }
}

/// Checks every record of `store`; returns how many game records there are.
pub fn check<B: Backend + ?Sized>(store: &Store<B>) -> Result<usize, Damage> {
    check_with(store.backend().as_ref(), &Verifier::default(), Pace { stop: &AtomicBool::new(false), paced: false })
}

/// What a read error means to the check: the database's files cannot be read.
fn unreadable(error: StoreError) -> Damage {
    match error {
        StoreError::Database(detail) | StoreError::Unsure(detail) => damage("the database files", detail),
        other => damage("the database", other),
    }
}

/// How the whole check shares the machine with what the store serves.
#[derive(Debug, Clone, Copy)]
pub struct Pace<'a> {
    /// Set to end the check early, without a verdict.
    pub stop: &'a AtomicBool,
    /// After each chunk, wait as long as it took to check (at most `PAUSE`): the check
    /// beside the service then takes at most about half of one core, and commands come
    /// first. A check before serving runs flat out.
    pub paced: bool,
}

/// The longest pause between two chunks of a paced check: closing the database waits for
/// the check, so it never sleeps longer than a moment.
const PAUSE: Duration = Duration::from_millis(100);

/// Calls `each` on every key and value of `range`, [`CHUNK`] at a time, until `pace.stop`
/// is set (then `Ok(false)`).
fn scan_chunks<B: Backend + ?Sized>(
    backend: &B,
    range: KeyRange,
    pace: Pace<'_>,
    mut each: impl FnMut(&[u8], &[u8]) -> Result<(), Damage>,
) -> Result<bool, Damage> {
    for entries in chunks(backend, range, CHUNK) {
        if pace.stop.load(Ordering::Relaxed) {
            return Ok(false);
        }
        let started = Instant::now();
        for (key, value) in &entries.map_err(unreadable)? {
            each(key, value)?;
        }
        if pace.paced {
            std::thread::sleep(started.elapsed().min(PAUSE));
        }
    }
    Ok(true)
}

/// A fingerprint of one index entry, for the set of those the records imply.
fn fingerprint(hasher: &std::hash::RandomState, key: &[u8], value: &[u8]) -> u64 {
    let mut state = hasher.build_hasher();
    (key, value).hash(&mut state);
    std::hash::Hasher::finish(&state)
}

/// The most fingerprints [`Implied`] keeps: 2 MiB, about the index of 100,000 games.
const IMPLIED_LIMIT: usize = 1 << 18;

/// The fingerprints of the index entries the records imply, in bounded memory: past its
/// limit, only those at or below a ceiling are kept (the ceiling halves each time the
/// limit is reached again), so that it holds a uniform sample of the set. An entry whose
/// fingerprint is above the ceiling is not known to it: the check reads its record
/// instead ([`check_stray`]), which is exact too, only slower. So the check's own memory
/// does not grow with the database.
#[derive(Debug)]
struct Implied {
    kept: Vec<u64>,
    ceiling: u64,
    limit: usize,
}

impl Implied {
    fn new(limit: usize) -> Implied {
        Implied { kept: Vec::new(), ceiling: u64::MAX, limit: limit.max(1) }
    }

    fn add(&mut self, fingerprint: u64) {
        if fingerprint > self.ceiling {
            return;
        }
        self.kept.push(fingerprint);
        while self.kept.len() >= self.limit && self.ceiling > 0 {
            self.ceiling /= 2;
            let ceiling = self.ceiling;
            self.kept.retain(|kept| *kept <= ceiling);
        }
    }

    /// Ready for [`Implied::holds`].
    fn sorted(mut self) -> Implied {
        self.kept.sort_unstable();
        self
    }

    /// Whether a record implied the entry of `fingerprint`: `None` when it is not known.
    fn holds(&self, fingerprint: u64) -> Option<bool> {
        (fingerprint <= self.ceiling).then(|| self.kept.binary_search(&fingerprint).is_ok())
    }
}

/// The check, over `backend` while it may be serving: game records not yet checked by
/// `verifier` are decoded and replayed (and marked), then the index and the other keys
/// are checked. Stops early, without a verdict, when `pace.stop` is set (returns the games
/// seen). Damage found is returned (not recorded in `verifier`: the caller decides).
pub fn check_with<B: Backend + ?Sized>(backend: &B, verifier: &Verifier, pace: Pace<'_>) -> Result<usize, Damage> {
    check_within(backend, verifier, pace, IMPLIED_LIMIT)
}

/// [`check_with`], keeping at most `limit` fingerprints of index entries ([`Implied`]).
fn check_within<B: Backend + ?Sized>(
    backend: &B,
    verifier: &Verifier,
    pace: Pace<'_>,
    limit: usize,
) -> Result<usize, Damage> {
    let hasher = std::hash::RandomState::new();
    let mut implied = Implied::new(limit);
    let mut games = 0;
    // The records first: they say which index entries must exist.
    scan_chunks(backend, KeyRange::prefix(&[keys::GAME]), pace, |key, value| {
        let record = read_game(verifier, key, value)?;
        verifier.mark(record.id);
        for (entry, value) in check_entries(backend, key, value.to_vec(), record)? {
            implied.add(fingerprint(&hasher, &entry, &value));
        }
        games += 1;
        Ok(())
    })?;
    let implied = implied.sorted();
    // Then every other key: an index entry must be one a record implies.
    let mut rest = |key: &[u8], value: &[u8]| -> Result<(), Damage> {
        match key.first() {
            Some(&keys::USER) => drop(keys::decode_user(value).map_err(|error| damage(readable(key), error))?),
            Some(&keys::SERVER) => drop(keys::decode_server(value).map_err(|error| damage(readable(key), error))?),
            Some(&keys::RATING) => {
                let rating = keys::decode_rating(value).map_err(|error| damage(readable(key), error))?;
                if keys::rating_of(&rating) != key {
                    return Err(damage(readable(key), "a rating stored under another player's key"));
                }
            }
            Some(&keys::NOTICE) => {
                keys::decode_notice(key, value).map_err(|error| damage(format!("outbox {}", readable(key)), error))?;
            }
            Some(&keys::REPORT) if [keys::REPORT_PENDING, keys::REPORT_SHOWN].contains(&value) => {}
            Some(&tournaments::TOURNAMENT) => {
                drop(tournaments::decode(value).map_err(|error| damage(readable(key), error))?);
            }
            Some(&tournaments::LISTED) if tournaments::listed_entry(key, value).is_some() => {}
            Some(&tournaments::STARTS) if key.len() == 13 && value.is_empty() => {}
            _ if key == tournaments::LAST_TOURNAMENT => {
                tournaments::last_id(value).map_err(|error| damage("the tournament id counter", error))?;
            }
            _ if key == keys::NEXT_ID && keys::interrupted(value) => {
                return Err(damage(
                    "the database",
                    "an import into it was interrupted (remove it and run `stonemate import` again)",
                ));
            }
            _ if key == keys::NEXT_ID => {
                keys::next_id(Some(value)).map_err(|error| damage("the game id counter", error))?;
            }
            _ if key == keys::BACKUP_DUE => {
                keys::stored_time(value).ok_or_else(|| damage("the export schedule", "not a time"))?;
            }
            _ if implied.holds(fingerprint(&hasher, key, value)) == Some(true) => {}
            _ => check_stray(backend, verifier, key)?,
        }
        Ok(())
    };
    if !scan_chunks(backend, KeyRange { start: Vec::new(), end: Some(vec![keys::GAME]), limit: None }, pace, &mut rest)?
    {
        return Ok(games);
    }
    scan_chunks(backend, KeyRange { start: vec![keys::GAME + 1], end: None, limit: None }, pace, rest)?;
    Ok(games)
}

/// Checks that the index entries `record` (read as `stored` under `key`) implies are in
/// the database, reading the record again after them; returns them. A record that changed
/// meanwhile is checked again as it now is.
fn check_entries<B: Backend + ?Sized>(
    backend: &B,
    key: &[u8],
    mut stored: Vec<u8>,
    mut record: GameRecord,
) -> Result<Entries, Damage> {
    for _ in 0..ATTEMPTS {
        let entries = keys::index(&record);
        let mut missing = None;
        for (entry, value) in &entries {
            if backend.get(entry).map_err(unreadable)?.as_ref() != Some(value) {
                missing = Some(entry.clone());
                break;
            }
        }
        let Some(entry) = missing else { return Ok(entries) };
        match backend.get(key).map_err(unreadable)? {
            // Unchanged: the entries read belong to this very record.
            Some(again) if again == stored => {
                return Err(damage(readable(&entry), "an index entry a record implies is missing"));
            }
            Some(again) => {
                record = verify_game(key, &again)?;
                stored = again;
            }
            // Gone meanwhile (no command deletes records, but a check never guesses).
            None => return Ok(Vec::new()),
        }
    }
    Err(damage(readable(key), "the record kept changing while it was checked"))
}

/// An index entry no record read by the first pass is known to imply ([`Implied`]): it
/// may have been written by a change since. Damage if its record, read before and after
/// it, does not imply it.
fn check_stray<B: Backend + ?Sized>(backend: &B, verifier: &Verifier, key: &[u8]) -> Result<(), Damage> {
    let stray = || damage(readable(key), "an index entry that no record implies");
    let Some(id) = keys::id_at_end(key).filter(|_| key.len() > 5) else { return Err(stray()) };
    for _ in 0..ATTEMPTS {
        let before = backend.get(&keys::game(id)).map_err(unreadable)?;
        let Some(value) = backend.get(key).map_err(unreadable)? else { return Ok(()) };
        let after = backend.get(&keys::game(id)).map_err(unreadable)?;
        if before != after {
            continue;
        }
        let Some(stored) = before else { return Err(stray()) };
        let record = read_game(verifier, &keys::game(id), &stored)?;
        return match keys::index(&record).iter().any(|(entry, implied)| entry == key && *implied == value) {
            true => Ok(()),
            false => Err(stray()),
        };
    }
    Err(damage(readable(key), "its record kept changing while it was checked"))
}

/// A game record for tests: go on 9x9, `turns` of a fixed opening played, between players
/// `10 + n % 50` and `11 + n % 50`, playing (its clock indexed) or over.
#[cfg(test)]
pub(crate) fn sample_record(n: u32, turns: usize) -> GameRecord {
    use super::record::Phase;
    use crate::clock::Timestamp;
    use crate::ids::UserId;
    use stonemate_engine::GameKind;
    let opening = ["R@e5", "R@d4", "R@e4", "R@d5", "R@c3", "R@f6"];
    let players = [UserId(u64::from(n % 50) + 10), UserId(u64::from(n % 50) + 11)];
    let options = [("board".to_owned(), "9x9".to_owned())];
    let record = super::sample::sample_record(GameKind::Go, &options, players, Timestamp(1_790_000_000_000));
    let playing = n % 2 == 0;
    GameRecord {
        phase: if playing { Phase::Playing } else { Phase::Finished },
        turns: opening[..turns.min(opening.len())].iter().map(|turn| (*turn).to_owned()).collect(),
        clock: if playing { record.clock } else { None },
        ..record
    }
}

/// A store in memory of `games` records of [`sample_record`] (0 to 4 turns played).
#[cfg(test)]
pub(crate) fn filled(games: u32) -> super::memory::MemoryStore {
    let store = super::memory::MemoryStore::new();
    store.create_many((0..games).map(|n| sample_record(n, n as usize % 5))).unwrap();
    store
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::MemoryStore;
    use crate::store::backend::Batch;

    #[test]
    fn records_spread_over_many_chunks_pass() {
        assert_eq!(check(&filled(1_500)), Ok(1_500));
    }

    #[test]
    fn a_missing_index_entry_a_stray_one_and_a_record_that_does_not_replay_are_named() {
        let store = filled(700);
        let record = store.load(GameId(600)).unwrap().unwrap();
        let (entry, value) = keys::index(&record).remove(0);
        store.commit(Batch::new().delete(entry.clone())).unwrap();
        assert_eq!(check(&store), Err(damage(readable(&entry), "an index entry a record implies is missing")));
        store.commit(Batch::new().put(entry.clone(), value)).unwrap();
        assert_eq!(check(&store), Ok(700));

        let mut stray = entry.clone();
        *stray.last_mut().unwrap() ^= 0x40;
        store.commit(Batch::new().put(stray.clone(), b"ac".to_vec())).unwrap();
        assert_eq!(check(&store), Err(damage(readable(&stray), "an index entry that no record implies")));
        store.commit(Batch::new().delete(stray)).unwrap();

        let mut broken = store.load(GameId(650)).unwrap().unwrap();
        broken.turns = vec!["R@e5".into(), "R@e5".into()];
        let bytes = serde_json::to_vec(&broken).unwrap();
        store.commit(Batch::new().put(keys::game(GameId(650)), bytes)).unwrap();
        let found = check(&store).unwrap_err();
        assert_eq!(found.what, "game #650");
        assert!(found.detail.starts_with("its turns do not replay"), "{found}");
    }

    #[test]
    fn past_its_limit_the_set_of_implied_entries_keeps_a_sample_and_knows_it() {
        let mut implied = Implied::new(64);
        let hasher = std::hash::RandomState::new();
        let added: Vec<u64> = (0..10_000u32).map(|n| fingerprint(&hasher, &n.to_be_bytes(), b"")).collect();
        for &each in &added {
            implied.add(each);
            assert!(implied.kept.len() < 64, "bounded");
        }
        let implied = implied.sorted();
        let known = added.iter().filter(|each| implied.holds(**each).is_some()).count();
        assert!(added.iter().all(|each| implied.holds(*each) != Some(false)), "no added entry is denied");
        assert!((16..64).contains(&known), "a sample: {known}");
        let others = (10_000..20_000u32).map(|n| fingerprint(&hasher, &n.to_be_bytes(), b""));
        assert!(others.filter(|each| implied.holds(*each) == Some(true)).count() < 2, "nor taken for another");
    }

    #[test]
    fn a_check_that_keeps_few_fingerprints_still_names_a_missing_and_a_stray_entry() {
        let store = filled(700);
        let within = |limit| {
            let pace = Pace { stop: &AtomicBool::new(false), paced: false };
            check_within(store.backend().as_ref(), &Verifier::default(), pace, limit)
        };
        assert_eq!(within(16), Ok(700));
        let record = store.load(GameId(333)).unwrap().unwrap();
        let (entry, value) = keys::index(&record).remove(0);
        store.commit(Batch::new().delete(entry.clone())).unwrap();
        assert_eq!(within(16), Err(damage(readable(&entry), "an index entry a record implies is missing")));
        store.commit(Batch::new().put(entry.clone(), value.clone())).unwrap();
        // A wrong value under a key the record implies, then a key of no record.
        let mut wrong = value.clone();
        wrong[0] ^= 0x01;
        store.commit(Batch::new().put(entry.clone(), wrong)).unwrap();
        let found = within(16).unwrap_err();
        assert_eq!(found.what, readable(&entry), "{found}");
        store.commit(Batch::new().put(entry.clone(), value)).unwrap();
        let mut stray = entry;
        *stray.last_mut().unwrap() ^= 0x40;
        store.commit(Batch::new().put(stray.clone(), b"ac".to_vec())).unwrap();
        for limit in [1, 16, IMPLIED_LIMIT] {
            assert_eq!(within(limit), Err(damage(readable(&stray), "an index entry that no record implies")));
        }
    }

    #[test]
    fn games_changing_while_the_check_runs_are_no_damage() {
        use crate::clock::Timestamp;
        use crate::store::Phase;
        let store = filled(2_000);
        let stop = AtomicBool::new(false);
        std::thread::scope(|scope| {
            scope.spawn(|| {
                // Every change moves index entries: the deadline, and the phase in the player
                // index when the game ends.
                let mut round = 0;
                while !stop.load(Ordering::Relaxed) {
                    round += 1;
                    for id in (2..2_000).step_by(2) {
                        let mut record = store.load(GameId(id)).unwrap().unwrap();
                        record.version += 1;
                        match record.clock.as_mut() {
                            Some(clock) if round % 3 != 0 => clock.deadline = Timestamp(clock.deadline.0 + 1),
                            _ if record.phase == Phase::Playing => record.phase = Phase::Finished,
                            _ => {}
                        }
                        store.update_with(&record, &[], &[]).unwrap();
                    }
                }
            });
            for _ in 0..5 {
                assert_eq!(check(&store), Ok(2_000));
            }
            stop.store(true, Ordering::Relaxed);
        });
    }

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
