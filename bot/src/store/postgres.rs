//! The shared database: PostgreSQL, for several processes on one set of games (issue 16).
//!
//! Each batch is one transaction, committed before the call returns, so a reply confirms
//! a change only once PostgreSQL has it. The batch's checks lock the rows they compare
//! (`SELECT ... FOR UPDATE`, in key order), and a key that must be absent is written with
//! `INSERT ... ON CONFLICT DO NOTHING`: of two processes racing on one game, one rating or
//! the export schedule, at most one applies; the other gets [`StoreError::Conflict`].
//!
//! The key space of [`super::keys`] is kept in the tables of the first schema, so that
//! databases written before stay as they are: `games` (id, version, the record's JSON:
//! the `g` keys), `outbox` (id, due, body: the `o` keys, ids from its sequence),
//! `last_id` (one row, the `n` key; 0 when it is absent) and `entries` (every other key).
//! `schema_migrations` holds the versions applied (see [`MIGRATIONS`]).

use std::collections::HashSet;
use std::time::Duration;

use r2d2_postgres::postgres::{self, GenericClient, NoTls, Transaction};
use r2d2_postgres::{PostgresConnectionManager, r2d2};

use super::backend::{Backend, Batch, Entries, KeyRange, prefix_end};
use super::error::StoreError;
use super::keys;
use super::records::Store;
use crate::clock::Timestamp;

/// The schema, one step per version; a database records the steps it has applied, and
/// [`Store::open`](Store<Postgres>::open) applies the missing ones in order. Append, never edit.
const MIGRATIONS: &[&str] = &[
    // 1: the records, the key space of the index and users, the id counter.
    "CREATE TABLE games (id bigint PRIMARY KEY, version bigint NOT NULL, record bytea NOT NULL);
     CREATE TABLE entries (key bytea PRIMARY KEY, value bytea NOT NULL);
     CREATE TABLE last_id (only_row boolean PRIMARY KEY DEFAULT true CHECK (only_row), id bigint NOT NULL);
     INSERT INTO last_id (id) VALUES (0);",
    // 2: the notice outbox (the store's `o` keys): claimed oldest first among the due.
    "CREATE TABLE outbox (id bigserial PRIMARY KEY, due bigint NOT NULL, body bytea NOT NULL);
     CREATE INDEX outbox_due ON outbox (due, id);",
];

/// Taken while migrating, so that processes starting together migrate one at a time.
const MIGRATION_LOCK: i64 = 0x5354_4f4e_454d_4154; // "STONEMAT"

/// Connections one process keeps at most.
const POOL_SIZE: u32 = 8;
/// How long a command waits for a free connection (or for the server) before failing.
const CONNECT_TIMEOUT: Duration = Duration::from_secs(10);

type Pool = r2d2::Pool<PostgresConnectionManager<NoTls>>;

/// A PostgreSQL database, through a pool of connections.
#[derive(Debug)]
pub struct Postgres {
    pool: Pool,
}

/// What a player may read: the kind of failure and PostgreSQL's error code, never the
/// driver's text (it can name hosts, users and SQL). The log has the details.
fn database_error(error: &postgres::Error) -> StoreError {
    tracing::error!(%error, "PostgreSQL failed");
    match error.code() {
        Some(code) if is_race(code) => StoreError::Conflict,
        Some(code) => StoreError::Database(format!("PostgreSQL refused the change (code {})", code.code())),
        None => StoreError::Database("PostgreSQL cannot be reached".into()),
    }
}

/// Why the first connection failed: no answer at all (refused, timed out, unknown host) or
/// a server still starting is [`StoreError::Unreachable`], worth trying again; a refusal of
/// the login or the database is not.
fn open_error(error: &postgres::Error) -> StoreError {
    match error.code() {
        None | Some(&postgres::error::SqlState::CANNOT_CONNECT_NOW) => {
            // "error connecting to server" says nothing without its causes.
            let causes = std::iter::successors(std::error::Error::source(error), |cause| cause.source());
            StoreError::Unreachable(
                std::iter::once(error.to_string())
                    .chain(causes.map(ToString::to_string))
                    .collect::<Vec<_>>()
                    .join(": "),
            )
        }
        Some(_) => {
            tracing::error!(%error, "PostgreSQL refused the connection");
            // Its text can name the user; the log has it.
            let code = error.code().map_or("", postgres::error::SqlState::code);
            StoreError::Database(format!("PostgreSQL refused the connection (code {code})"))
        }
    }
}

/// Errors that mean "another transaction got there first": the command retries.
fn is_race(code: &postgres::error::SqlState) -> bool {
    [postgres::error::SqlState::T_R_SERIALIZATION_FAILURE, postgres::error::SqlState::T_R_DEADLOCK_DETECTED]
        .contains(code)
}

/// A `COMMIT` the server refused was not applied; one whose answer was lost (the
/// connection broke, the server was shutting down) may have been: its outcome is unknown,
/// as for a failed sync on sled.
fn commit_error(error: &postgres::Error) -> StoreError {
    let code = error.code().map(postgres::error::SqlState::code);
    // Class 08: connection exceptions; 57P: the server going down under the connection.
    if code.is_none_or(|code| code.starts_with("08") || code.starts_with("57P")) {
        tracing::error!(%error, "PostgreSQL's answer to a commit was lost");
        StoreError::Unsure("the connection to PostgreSQL was lost during a commit".into())
    } else {
        database_error(error)
    }
}

fn pool_error(error: &r2d2::Error) -> StoreError {
    tracing::error!(%error, "no PostgreSQL connection");
    StoreError::Database("PostgreSQL cannot be reached".into())
}

trait Checked<T> {
    fn checked(self) -> Result<T, StoreError>;
}

impl<T> Checked<T> for Result<T, postgres::Error> {
    fn checked(self) -> Result<T, StoreError> {
        self.map_err(|error| database_error(&error))
    }
}

/// The store over [`Postgres`]: one database shared by several processes.
pub type PostgresStore = Store<Postgres>;

impl Store<Postgres> {
    /// Connects to the database at `url` (`postgres://user@host:port/name`) and brings its
    /// schema up to date.
    ///
    /// # Errors
    /// When the server cannot be reached or a migration fails.
    pub fn open(url: &str) -> Result<PostgresStore, StoreError> {
        let config: postgres::Config = url.parse().map_err(|error: postgres::Error| {
            tracing::error!(%error, "bad PostgreSQL address");
            StoreError::Database("the PostgreSQL address cannot be read".into())
        })?;
        // One connection first, for the migrations: an unreachable server fails the start at
        // once, where the pool would keep retrying for its whole timeout.
        let mut client = config.connect(NoTls).map_err(|error| open_error(&error))?;
        migrate(&mut client)?;
        let manager = PostgresConnectionManager::new(config, NoTls);
        let pool = r2d2::Pool::builder()
            .max_size(POOL_SIZE)
            .min_idle(Some(1))
            .connection_timeout(CONNECT_TIMEOUT)
            .build_unchecked(manager);
        Ok(Store::over(std::sync::Arc::new(Postgres { pool })))
    }
}

impl Postgres {
    fn client(&self) -> Result<r2d2::PooledConnection<PostgresConnectionManager<NoTls>>, StoreError> {
        self.pool.get().map_err(|error| pool_error(&error))
    }
}

/// Applies the [`MIGRATIONS`] the database lacks, each recorded in the same transaction.
fn migrate(client: &mut postgres::Client) -> Result<(), StoreError> {
    let mut tx = client.transaction().checked()?;
    tx.execute("SELECT pg_advisory_xact_lock($1)", &[&MIGRATION_LOCK]).checked()?;
    tx.batch_execute(
        "CREATE TABLE IF NOT EXISTS schema_migrations
           (version integer PRIMARY KEY, applied timestamptz NOT NULL DEFAULT now())",
    )
    .checked()?;
    let applied: i32 = tx.query_one("SELECT coalesce(max(version), 0) FROM schema_migrations", &[]).checked()?.get(0);
    for (version, step) in (1..).zip(MIGRATIONS).skip(usize::try_from(applied).unwrap_or(0)) {
        tx.batch_execute(step).checked()?;
        tx.execute("INSERT INTO schema_migrations (version) VALUES ($1)", &[&version]).checked()?;
    }
    tx.commit().checked()
}

/// Where a key lives in the schema.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Place<'a> {
    /// A game record: a row of `games`.
    Game(i64),
    /// The id counter: the one row of `last_id`.
    Counter,
    /// An outbox notice: a row of `outbox`.
    Notice(i64),
    /// Any other key: a row of `entries`.
    Entry(&'a [u8]),
}

fn place(key: &[u8]) -> Place<'_> {
    if let [keys::GAME, id @ ..] = key
        && let Ok(id) = <[u8; 4]>::try_from(id)
    {
        return Place::Game(i64::from(u32::from_be_bytes(id)));
    }
    if let [keys::NOTICE, id @ ..] = key
        && let Ok(id) = <[u8; 8]>::try_from(id)
        && let Ok(id) = i64::try_from(u64::from_be_bytes(id))
    {
        return Place::Notice(id);
    }
    if key == keys::NEXT_ID { Place::Counter } else { Place::Entry(key) }
}

/// The `version` of a record's JSON, for the `games` column.
fn record_version(record: &[u8]) -> Result<i64, StoreError> {
    #[derive(serde::Deserialize)]
    struct Version {
        version: i64,
    }
    Ok(serde_json::from_slice::<Version>(record)?.version)
}

/// A stored counter as the `n` key holds it (`None`: 0, no id given out yet).
fn counter_value(id: i64) -> Result<Option<Vec<u8>>, StoreError> {
    let id = u32::try_from(id).map_err(|_| StoreError::Corrupt(format!("game id counter {id}")))?;
    Ok((id != 0).then(|| id.to_be_bytes().to_vec()))
}

fn counter_sql(value: &[u8]) -> Result<i64, StoreError> {
    let id: [u8; 4] = value.try_into().map_err(|_| StoreError::Corrupt("game id counter".into()))?;
    Ok(i64::from(u32::from_be_bytes(id)))
}

/// An outbox value ([`keys::notice_value`]) as its columns.
fn notice_columns(value: &[u8]) -> Result<(i64, &[u8]), StoreError> {
    let (due, body) = value.split_first_chunk::<8>().ok_or_else(|| StoreError::Corrupt("outbox value".into()))?;
    Ok((i64::from_be_bytes(*due), body))
}

fn notice_row(row: &postgres::Row) -> Entry {
    let (id, due, body): (i64, i64, &[u8]) = (row.get(0), row.get(1), row.get(2));
    (keys::notice(id as u64), keys::notice_value(Timestamp(due), body))
}

type Entry = (Vec<u8>, Vec<u8>);

/// The value under `key`; with `lock`, its row is locked until the transaction ends.
fn read(client: &mut impl GenericClient, key: &[u8], lock: bool) -> Result<Option<Vec<u8>>, StoreError> {
    let lock = if lock { " FOR UPDATE" } else { "" };
    Ok(match place(key) {
        Place::Game(id) => {
            let row = client.query_opt(&format!("SELECT record FROM games WHERE id = $1{lock}"), &[&id]).checked()?;
            row.map(|row| row.get(0))
        }
        Place::Counter => {
            let row = client.query_one(&format!("SELECT id FROM last_id{lock}"), &[]).checked()?;
            counter_value(row.get(0))?
        }
        Place::Notice(id) => {
            let sql = format!("SELECT id, due, body FROM outbox WHERE id = $1{lock}");
            client.query_opt(&sql, &[&id]).checked()?.map(|row| notice_row(&row).1)
        }
        Place::Entry(key) => {
            let sql = format!("SELECT value FROM entries WHERE key = $1{lock}");
            client.query_opt(&sql, &[&key]).checked()?.map(|row| row.get(0))
        }
    })
}

/// Puts `value` under `key` (`None`: removes it).
fn write(tx: &mut Transaction<'_>, key: &[u8], value: Option<&[u8]>) -> Result<(), StoreError> {
    match (place(key), value) {
        (Place::Game(id), Some(record)) => {
            let sql = "INSERT INTO games (id, version, record) VALUES ($1, $2, $3)
                       ON CONFLICT (id) DO UPDATE SET version = EXCLUDED.version, record = EXCLUDED.record";
            tx.execute(sql, &[&id, &record_version(record)?, &record]).checked()?;
        }
        (Place::Game(id), None) => drop(tx.execute("DELETE FROM games WHERE id = $1", &[&id]).checked()?),
        (Place::Counter, value) => {
            let id = value.map(counter_sql).transpose()?.unwrap_or(0);
            tx.execute("UPDATE last_id SET id = $1", &[&id]).checked()?;
        }
        (Place::Notice(id), Some(value)) => {
            let (due, body) = notice_columns(value)?;
            let sql = "INSERT INTO outbox (id, due, body) VALUES ($1, $2, $3)
                       ON CONFLICT (id) DO UPDATE SET due = EXCLUDED.due, body = EXCLUDED.body";
            tx.execute(sql, &[&id, &due, &body]).checked()?;
        }
        (Place::Notice(id), None) => drop(tx.execute("DELETE FROM outbox WHERE id = $1", &[&id]).checked()?),
        (Place::Entry(key), Some(value)) => {
            let sql = "INSERT INTO entries (key, value) VALUES ($1, $2) ON CONFLICT (key) DO UPDATE SET value = $2";
            tx.execute(sql, &[&key, &value]).checked()?;
        }
        (Place::Entry(key), None) => drop(tx.execute("DELETE FROM entries WHERE key = $1", &[&key]).checked()?),
    }
    Ok(())
}

/// Puts `value` under `key` only if it is absent; `false` if it is there. Of two
/// transactions inserting one key, the second waits for the first and then finds it.
fn insert_new(tx: &mut Transaction<'_>, key: &[u8], value: &[u8]) -> Result<bool, StoreError> {
    let rows = match place(key) {
        Place::Game(id) => {
            let sql = "INSERT INTO games (id, version, record) VALUES ($1, $2, $3) ON CONFLICT (id) DO NOTHING";
            tx.execute(sql, &[&id, &record_version(value)?, &value]).checked()?
        }
        // The one row always exists: its lock orders racing writers, and the second finds
        // the counter no longer 0.
        Place::Counter => tx.execute("UPDATE last_id SET id = $1 WHERE id = 0", &[&counter_sql(value)?]).checked()?,
        Place::Notice(id) => {
            let (due, body) = notice_columns(value)?;
            let sql = "INSERT INTO outbox (id, due, body) VALUES ($1, $2, $3) ON CONFLICT (id) DO NOTHING";
            tx.execute(sql, &[&id, &due, &body]).checked()?
        }
        Place::Entry(key) => {
            let sql = "INSERT INTO entries (key, value) VALUES ($1, $2) ON CONFLICT (key) DO NOTHING";
            tx.execute(sql, &[&key, &value]).checked()?
        }
    };
    Ok(rows == 1)
}

/// The ids of a table whose keys are `prefix` then the id in `width` big-endian bytes
/// that `range` covers, first and last (`None`: none); ids past `i64::MAX` are not stored.
fn id_bounds(range: &KeyRange, prefix: u8, width: usize) -> Option<(i64, i64)> {
    // The id of the key's bytes after the prefix, padded with zeros, and whether the key
    // is longer than an id (then it sorts after the padded id's key).
    let id_of = |key: &[u8]| {
        let rest = key.get(1..).unwrap_or_default();
        let mut bytes = [0u8; 8];
        let taken = rest.len().min(width);
        bytes[8 - width..8 - width + taken].copy_from_slice(&rest[..taken]);
        (u64::from_be_bytes(bytes), rest.len())
    };
    let max = if width >= 8 { i64::MAX as u64 } else { (1u64 << (8 * width)) - 1 };
    let first = match range.start.first() {
        None => 0,
        Some(&byte) if byte < prefix => 0,
        Some(&byte) if byte > prefix => return None,
        Some(_) => match id_of(&range.start) {
            (id, length) if length > width => id.checked_add(1)?,
            (id, _) => id,
        },
    };
    let last = match range.end.as_deref().and_then(|end| end.first().map(|byte| (end, *byte))) {
        None => max,
        Some((_, byte)) if byte > prefix => max,
        Some((_, byte)) if byte < prefix => return None,
        Some((end, _)) => match id_of(end) {
            (id, length) if length > width => id,
            // The key of `id` is the end or past it: excluded.
            (id, _) => id.checked_sub(1)?,
        },
    };
    let last = last.min(max);
    (first <= last).then_some((first as i64, last as i64))
}

/// Whether `range` holds keys starting with `prefix`.
fn overlaps(range: &KeyRange, prefix: &[u8]) -> bool {
    let starts_before_end = prefix_end(prefix).is_none_or(|end| range.start < end);
    starts_before_end && range.end.as_deref().is_none_or(|end| end > prefix)
}

fn limit_sql(limit: Option<usize>) -> String {
    limit.map_or_else(String::new, |limit| format!(" LIMIT {limit}"))
}

/// The keys of `range` in `entries` and, where the range reaches them, in the other tables.
fn scan_tables(client: &mut impl GenericClient, range: &KeyRange) -> Result<Entries, StoreError> {
    let limit = limit_sql(range.limit);
    let rows = match &range.end {
        Some(end) => {
            let sql = format!("SELECT key, value FROM entries WHERE key >= $1 AND key < $2 ORDER BY key{limit}");
            client.query(&sql, &[&range.start, end])
        }
        None => client
            .query(&format!("SELECT key, value FROM entries WHERE key >= $1 ORDER BY key{limit}"), &[&range.start]),
    }
    .checked()?;
    let mut found: Entries = rows.iter().map(|row| (row.get(0), row.get(1))).collect();
    // The other tables by the ids the range covers, at most `limit` rows of each.
    if let Some((first, last)) = id_bounds(range, keys::GAME, 4) {
        let sql = format!("SELECT id, record FROM games WHERE id >= $1 AND id <= $2 ORDER BY id{limit}");
        for row in client.query(&sql, &[&first, &last]).checked()? {
            let id = u32::try_from(row.get::<_, i64>(0)).map_err(|_| StoreError::Corrupt("game id".into()))?;
            found.push((keys::game(crate::ids::GameId(id)), row.get(1)));
        }
    }
    if let Some((first, last)) = id_bounds(range, keys::NOTICE, 8) {
        let sql = format!("SELECT id, due, body FROM outbox WHERE id >= $1 AND id <= $2 ORDER BY id{limit}");
        found.extend(client.query(&sql, &[&first, &last]).checked()?.iter().map(notice_row));
    }
    if range.contains(keys::NEXT_ID) {
        let row = client.query_one("SELECT id FROM last_id", &[]).checked()?;
        found.extend(counter_value(row.get(0))?.map(|value| (keys::NEXT_ID.to_vec(), value)));
    }
    found.retain(|(key, _)| range.contains(key));
    found.sort();
    if let Some(limit) = range.limit {
        found.truncate(limit);
    }
    Ok(found)
}

impl Backend for Postgres {
    fn get(&self, key: &[u8]) -> Result<Option<Vec<u8>>, StoreError> {
        read(&mut *self.client()?, key, false)
    }

    fn scan(&self, range: &KeyRange) -> Result<Entries, StoreError> {
        let mut client = self.client()?;
        let tables = [&[keys::GAME][..], &[keys::NOTICE]].iter().any(|prefix| overlaps(range, prefix));
        if !tables && !range.contains(keys::NEXT_ID) {
            return scan_tables(&mut *client, range);
        }
        // Several tables: one snapshot for all of them.
        let mut tx = client
            .build_transaction()
            .read_only(true)
            .isolation_level(postgres::IsolationLevel::RepeatableRead)
            .start()
            .checked()?;
        let found = scan_tables(&mut tx, range)?;
        tx.commit().checked()?;
        Ok(found)
    }

    fn apply(&self, batch: &Batch) -> Result<(), StoreError> {
        let mut client = self.client()?;
        let mut tx = client.transaction().checked()?;
        // Keys written by their own check (absent, then inserted).
        let mut inserted: HashSet<&[u8]> = HashSet::new();
        for (key, expected) in batch.sorted_checks() {
            let last_write = batch.writes.iter().rev().find(|(written, _)| written == key).map(|(_, value)| value);
            match (expected, last_write) {
                (None, Some(Some(value))) => {
                    if !insert_new(&mut tx, key, value)? {
                        return Err(StoreError::Conflict);
                    }
                    inserted.insert(key);
                }
                (expected, _) => {
                    if read(&mut tx, key, true)? != *expected {
                        return Err(StoreError::Conflict);
                    }
                }
            }
        }
        for (key, value) in batch.writes.iter().filter(|(key, _)| !inserted.contains(key.as_slice())) {
            write(&mut tx, key, value.as_deref())?;
        }
        tx.commit().map_err(|error| commit_error(&error))
    }

    // The outbox's own sequence: ids of databases written before go on from where they were.
    fn next_id(&self) -> Result<u64, StoreError> {
        let sql = "SELECT nextval(pg_get_serial_sequence('outbox', 'id'))";
        let id: i64 = self.client()?.query_one(sql, &[]).checked()?.get(0);
        u64::try_from(id).map_err(|_| StoreError::Corrupt(format!("outbox id {id}")))
    }

    // A committed transaction is as durable as the server makes it.
    fn flush(&self) -> Result<(), StoreError> {
        Ok(())
    }

    /// The due notices only, through the index on the due time: the claim no longer reads
    /// the whole outbox.
    fn due_notices(&self, now: Timestamp, limit: usize) -> Result<Entries, StoreError> {
        let sql = "SELECT id, due, body FROM outbox WHERE due <= $1 ORDER BY id LIMIT $2";
        let limit = i64::try_from(limit).unwrap_or(i64::MAX);
        Ok(self.client()?.query(sql, &[&now.0, &limit]).checked()?.iter().map(notice_row).collect())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ids::GameId;

    #[test]
    fn keys_find_their_tables() {
        assert_eq!(place(&keys::game(GameId(u32::MAX))), Place::Game(i64::from(u32::MAX)));
        assert_eq!(place(&keys::notice(7)), Place::Notice(7));
        assert_eq!(place(keys::NEXT_ID), Place::Counter);
        assert_eq!(place(keys::BACKUP_DUE), Place::Entry(keys::BACKUP_DUE));
        assert_eq!(place(b"g\x00"), Place::Entry(b"g\x00"));
    }

    #[test]
    fn ranges_reach_the_tables_of_their_prefixes() {
        assert!(overlaps(&KeyRange::all(), &[keys::GAME]));
        assert!(overlaps(&KeyRange::prefix(&[keys::GAME]), &[keys::GAME]));
        assert!(!overlaps(&KeyRange::prefix(b"p"), &[keys::GAME]));
        assert!(!overlaps(&KeyRange::prefix(b"o"), &[keys::GAME]));
    }

    #[test]
    fn ranges_become_the_ids_of_their_tables() {
        let game = |id| keys::game(GameId(id));
        assert_eq!(id_bounds(&KeyRange::all(), keys::GAME, 4), Some((0, i64::from(u32::MAX))));
        assert_eq!(id_bounds(&KeyRange::prefix(b"p"), keys::GAME, 4), None);
        assert_eq!(id_bounds(&KeyRange::prefix(b"d"), keys::GAME, 4), None);
        let range = KeyRange { start: game(5), end: Some(game(9)), limit: None };
        assert_eq!(id_bounds(&range, keys::GAME, 4), Some((5, 8)));
        // Past a key: the smallest key after game 5 is game 5 with a 0 byte.
        let mut after = game(5);
        after.push(0);
        assert_eq!(
            id_bounds(&KeyRange { start: after, end: None, limit: None }, keys::GAME, 4),
            Some((6, i64::from(u32::MAX)))
        );
        assert_eq!(id_bounds(&KeyRange::through(game(2), &game(7)), keys::GAME, 4), Some((2, 7)));
        assert_eq!(id_bounds(&KeyRange { start: vec![b'h'], end: None, limit: None }, keys::GAME, 4), None);
        assert_eq!(id_bounds(&KeyRange::prefix(&[keys::NOTICE]), keys::NOTICE, 8), Some((0, i64::MAX)));
        assert_eq!(id_bounds(&KeyRange { start: game(3), end: Some(game(3)), limit: None }, keys::GAME, 4), None);
    }

    #[test]
    fn the_counter_round_trips() {
        assert_eq!(counter_value(0).unwrap(), None);
        assert_eq!(counter_sql(&counter_value(9).unwrap().unwrap()).unwrap(), 9);
    }
}
