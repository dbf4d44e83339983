//! The shared database: PostgreSQL, for several processes on one set of games (issue 16).
//!
//! Each change is one transaction, committed before the call returns, so a reply confirms
//! a change only once PostgreSQL has it. An update locks the record's row, checks its
//! version and writes the record only `WHERE version = old`: of two processes racing on
//! one game, at most one applies. The index entries (players, servers, deadlines) are the
//! keys and values of [`super::keys`], written in the same transaction, so every store
//! dumps the same bytes.
//!
//! Tables: `games` (id, version, the record's JSON), `entries` (the index keys and the
//! user records, by key), `last_id` (one row: the last game id given out) and
//! `schema_migrations` (the versions applied, see [`MIGRATIONS`]).

use std::time::Duration;

use r2d2_postgres::postgres::{self, GenericClient, NoTls, Transaction};
use r2d2_postgres::{PostgresConnectionManager, r2d2};
use stonemate_engine::GameKind;

use super::keys::{self, Write};
use super::rating::{RatingChange, RatingRecord};
use super::record::{GameRecord, UserRecord};
use super::{Dump, GameStore, IndexEntry, Queued, Restore, StoreError};
use crate::clock::Timestamp;
use crate::ids::{GameId, GuildId, UserId};

/// The schema, one step per version; a database records the steps it has applied, and
/// [`PostgresStore::open`] applies the missing ones in order. Append, never edit.
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
#[derive(Debug, Clone)]
pub struct PostgresStore {
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

/// The key just past every key starting with `prefix` (`None`: no such key, the prefix
/// is all `0xff`).
fn prefix_end(prefix: &[u8]) -> Option<Vec<u8>> {
    let mut end = prefix.to_vec();
    while let Some(last) = end.pop() {
        if last < u8::MAX {
            end.push(last + 1);
            return Some(end);
        }
    }
    None
}

impl PostgresStore {
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
        Ok(PostgresStore { pool })
    }
    fn client(&self) -> Result<r2d2::PooledConnection<PostgresConnectionManager<NoTls>>, StoreError> {
        self.pool.get().map_err(|error| pool_error(&error))
    }

    /// Runs `work` in one transaction and commits it; nothing is written if it fails.
    fn transaction<T>(
        &self,
        work: impl FnOnce(&mut Transaction<'_>) -> Result<T, StoreError>,
    ) -> Result<T, StoreError> {
        let mut client = self.client()?;
        let mut tx = client.transaction().checked()?;
        let value = work(&mut tx)?;
        tx.commit().map_err(|error| commit_error(&error))?;
        Ok(value)
    }

    fn scan(&self, prefix: &[u8]) -> Result<Vec<IndexEntry>, StoreError> {
        let rows = match prefix_end(prefix) {
            Some(end) => self
                .client()?
                .query("SELECT key, value FROM entries WHERE key >= $1 AND key < $2 ORDER BY key", &[&prefix, &end]),
            None => self.client()?.query("SELECT key, value FROM entries WHERE key >= $1 ORDER BY key", &[&prefix]),
        }
        .checked()?;
        Ok(rows.iter().filter_map(|row| keys::index_entry(row.get(0), row.get(1))).collect())
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

/// Writes the index entries (and user records) of `writes`; the record itself goes to
/// `games` by its caller.
fn apply(tx: &mut Transaction<'_>, record: GameId, writes: &[Write]) -> Result<(), StoreError> {
    let record_key = keys::game(record);
    for (key, value) in writes.iter().filter(|(key, _)| *key != record_key) {
        match value {
            Some(value) => upsert(tx, key, value)?,
            None => tx.execute("DELETE FROM entries WHERE key = $1", &[key]).checked().map(drop)?,
        }
    }
    Ok(())
}

fn upsert(client: &mut impl GenericClient, key: &[u8], value: &[u8]) -> Result<(), StoreError> {
    let sql = "INSERT INTO entries (key, value) VALUES ($1, $2) ON CONFLICT (key) DO UPDATE SET value = $2";
    client.execute(sql, &[&key, &value]).checked().map(drop)
}

/// Writes one rating in a record's transaction, if it is still the one the change was made
/// from: the row is locked while it is compared, and of two transactions creating it, one
/// inserts and the other finds a row ([`StoreError::Conflict`], the whole write undone).
fn set_rating(tx: &mut Transaction<'_>, key: &[u8], expected: Option<u32>, value: &[u8]) -> Result<(), StoreError> {
    let Some(games) = expected else {
        let sql = "INSERT INTO entries (key, value) VALUES ($1, $2) ON CONFLICT (key) DO NOTHING";
        return match tx.execute(sql, &[&key, &value]).checked()? {
            1 => Ok(()),
            _ => Err(StoreError::Conflict),
        };
    };
    let row = tx.query_opt("SELECT value FROM entries WHERE key = $1 FOR UPDATE", &[&key]).checked()?;
    let stored: Option<&[u8]> = row.as_ref().map(|row| row.get(0));
    if !keys::rating_unchanged(stored, Some(games))? {
        return Err(StoreError::Conflict);
    }
    tx.execute("UPDATE entries SET value = $2 WHERE key = $1", &[&key, &value]).checked().map(drop)
}

fn record_bytes(record: &GameRecord) -> Result<Vec<u8>, StoreError> {
    Ok(serde_json::to_vec(record)?)
}

/// Puts `notices` in the outbox; their ids come from the table's sequence.
fn put_notices(tx: &mut Transaction<'_>, notices: &[Queued]) -> Result<(), StoreError> {
    for notice in notices {
        tx.execute("INSERT INTO outbox (due, body) VALUES ($1, $2)", &[&notice.due.0, &notice.body]).checked()?;
    }
    Ok(())
}

fn queued(row: &postgres::Row) -> Result<Queued, StoreError> {
    let id: i64 = row.get(0);
    let id = u64::try_from(id).map_err(|_| StoreError::Corrupt(format!("outbox id {id}")))?;
    Ok(Queued { id, due: Timestamp(row.get(1)), body: row.get(2) })
}

fn notice_sql_id(id: u64) -> Result<i64, StoreError> {
    i64::try_from(id).map_err(|_| StoreError::Corrupt(format!("outbox id {id}")))
}

fn sql_id(id: GameId) -> i64 {
    i64::from(id.0)
}

fn game_id(sql: i64) -> Result<GameId, StoreError> {
    u32::try_from(sql).map(GameId).map_err(|_| StoreError::Corrupt(format!("game id {sql}")))
}

impl GameStore for PostgresStore {
    fn create(&self, record: GameRecord) -> Result<GameRecord, StoreError> {
        self.transaction(|tx| {
            let mut record = record;
            // The row lock of `last_id` orders concurrent creations, as sled's counter does.
            let last: i64 = tx.query_one("UPDATE last_id SET id = id + 1 RETURNING id", &[]).checked()?.get(0);
            // Rolled back with the transaction: the counter stays at the last id.
            record.id = game_id(last).map_err(|_| StoreError::Database("out of game ids".into()))?;
            record.version = 1;
            let writes = keys::changes(None, &record)?;
            let bytes = record_bytes(&record)?;
            tx.execute("INSERT INTO games (id, version, record) VALUES ($1, 1, $2)", &[&last, &bytes]).checked()?;
            apply(tx, record.id, &writes)?;
            Ok(record)
        })
    }

    fn load(&self, id: GameId) -> Result<Option<GameRecord>, StoreError> {
        let row = self.client()?.query_opt("SELECT record FROM games WHERE id = $1", &[&sql_id(id)]).checked()?;
        row.map(|row| keys::decode_game(row.get(0))).transpose()
    }

    fn update_with(&self, record: &GameRecord, ratings: &[RatingChange], notices: &[Queued]) -> Result<(), StoreError> {
        let id = sql_id(record.id);
        let ratings = keys::rating_writes(ratings)?;
        self.transaction(|tx| {
            let row = tx.query_opt("SELECT version, record FROM games WHERE id = $1 FOR UPDATE", &[&id]).checked()?;
            let row = row.ok_or(StoreError::Missing(record.id))?;
            let (version, old): (i64, &[u8]) = (row.get(0), row.get(1));
            let old = keys::decode_game(old)?;
            if u64::try_from(version).ok().and_then(|v| v.checked_add(1)) != Some(record.version) {
                return Err(StoreError::Conflict);
            }
            let writes = keys::changes(Some(&old), record)?;
            let new_version = i64::try_from(record.version).map_err(|_| StoreError::Conflict)?;
            let bytes = record_bytes(record)?;
            let sql = "UPDATE games SET version = $3, record = $4 WHERE id = $1 AND version = $2";
            if tx.execute(sql, &[&id, &version, &new_version, &bytes]).checked()? != 1 {
                return Err(StoreError::Conflict);
            }
            for (key, expected, value) in &ratings {
                set_rating(tx, key, *expected, value)?;
            }
            apply(tx, record.id, &writes)?;
            put_notices(tx, notices)
        })
    }

    fn rating(&self, guild: GuildId, game: GameKind, user: UserId) -> Result<Option<RatingRecord>, StoreError> {
        let key = keys::rating(guild, game, user);
        let row = self.client()?.query_opt("SELECT value FROM entries WHERE key = $1", &[&key]).checked()?;
        row.map(|row| keys::decode_rating(row.get(0))).transpose()
    }

    fn ratings(&self, guild: GuildId, game: GameKind) -> Result<Vec<RatingRecord>, StoreError> {
        let prefix = keys::rating_prefix(guild, game);
        // The prefix ends with the game's place in the list, never 0xff: it has an end.
        let end = prefix_end(&prefix).unwrap_or_default();
        let sql = "SELECT value FROM entries WHERE key >= $1 AND key < $2 ORDER BY key";
        let rows = self.client()?.query(sql, &[&prefix, &end]).checked()?;
        rows.iter().map(|row| keys::decode_rating(row.get(0))).collect()
    }

    fn enqueue(&self, notices: &[Queued]) -> Result<(), StoreError> {
        self.transaction(|tx| put_notices(tx, notices))
    }

    // Rows another process has locked (claiming them now) are skipped, not waited for;
    // once committed, the lease keeps them out of every other claim.
    fn claim(&self, now: Timestamp, until: Timestamp, limit: usize) -> Result<Vec<Queued>, StoreError> {
        let sql = "UPDATE outbox SET due = $2 WHERE id IN
                     (SELECT id FROM outbox WHERE due <= $1 ORDER BY id LIMIT $3 FOR UPDATE SKIP LOCKED)
                   RETURNING id, due, body";
        let limit = i64::try_from(limit).unwrap_or(i64::MAX);
        let rows = self.transaction(|tx| tx.query(sql, &[&now.0, &until.0, &limit]).checked())?;
        let mut claimed: Vec<Queued> = rows.iter().map(queued).collect::<Result<_, _>>()?;
        claimed.sort_by_key(|notice| notice.id);
        Ok(claimed)
    }

    fn reschedule(&self, notice: &Queued) -> Result<bool, StoreError> {
        let id = notice_sql_id(notice.id)?;
        let sql = "UPDATE outbox SET due = $2, body = $3 WHERE id = $1";
        Ok(self.client()?.execute(sql, &[&id, &notice.due.0, &notice.body]).checked()? == 1)
    }

    fn remove_notice(&self, id: u64) -> Result<(), StoreError> {
        let id = notice_sql_id(id)?;
        self.client()?.execute("DELETE FROM outbox WHERE id = $1", &[&id]).checked().map(drop)
    }

    fn raise_report(&self, game: GameId) -> Result<(), StoreError> {
        let sql = "INSERT INTO entries (key, value) VALUES ($1, $2) ON CONFLICT (key) DO NOTHING";
        self.client()?.execute(sql, &[&keys::report(game), &keys::REPORT_PENDING]).checked().map(drop)
    }

    fn take_report(&self, game: GameId) -> Result<bool, StoreError> {
        let sql = "UPDATE entries SET value = $3 WHERE key = $1 AND value = $2";
        let (pending, shown) = (keys::REPORT_PENDING, keys::REPORT_SHOWN);
        Ok(self.client()?.execute(sql, &[&keys::report(game), &pending, &shown]).checked()? == 1)
    }

    fn entries_of(&self, user: UserId) -> Result<Vec<IndexEntry>, StoreError> {
        self.scan(&keys::player_prefix(user))
    }

    fn entries_in(&self, user: UserId, guild: Option<GuildId>) -> Result<Vec<IndexEntry>, StoreError> {
        self.scan(&keys::player_server_prefix(user, guild))
    }

    fn due(&self, until: Timestamp) -> Result<Vec<GameId>, StoreError> {
        let (start, end) = keys::deadlines_until(until);
        let sql = "SELECT key FROM entries WHERE key >= $1 AND key <= $2 ORDER BY key";
        let rows = self.client()?.query(sql, &[&start, &end]).checked()?;
        Ok(rows.iter().filter_map(|row| keys::id_at_end(row.get(0))).collect())
    }

    fn user(&self, id: UserId) -> Result<Option<UserRecord>, StoreError> {
        let row = self.client()?.query_opt("SELECT value FROM entries WHERE key = $1", &[&keys::user(id)]).checked()?;
        row.map(|row| keys::decode_user(row.get(0))).transpose()
    }

    fn save_user(&self, user: &UserRecord) -> Result<(), StoreError> {
        let bytes = serde_json::to_vec(user)?;
        upsert(&mut *self.client()?, &keys::user(user.id), &bytes)
    }

    fn restore(&self, restored: Restore) -> Result<(), StoreError> {
        let Restore { games, users, ratings, last_id } = restored;
        self.transaction(|tx| {
            // The counter's row lock keeps creations (and other imports) out until commit.
            let counter: i64 = tx.query_one("SELECT id FROM last_id FOR UPDATE", &[]).checked()?.get(0);
            let any_game = tx.query_opt("SELECT 1 FROM games LIMIT 1", &[]).checked()?.is_some();
            if counter != 0 || any_game {
                return Err(StoreError::NotEmpty);
            }
            let mut last = last_id;
            for record in &games {
                last = last.max(record.id.0);
                let version = i64::try_from(record.version)
                    .map_err(|_| StoreError::Corrupt(format!("game {} version", record.id)))?;
                let sql = "INSERT INTO games (id, version, record) VALUES ($1, $2, $3)";
                tx.execute(sql, &[&sql_id(record.id), &version, &record_bytes(record)?]).checked()?;
                apply(tx, record.id, &keys::changes(None, record)?)?;
            }
            for user in &users {
                upsert(tx, &keys::user(user.id), &serde_json::to_vec(user)?)?;
            }
            for rating in &ratings {
                upsert(tx, &keys::rating_of(rating), &serde_json::to_vec(rating)?)?;
            }
            tx.execute("UPDATE last_id SET id = $1", &[&i64::from(last)]).checked()?;
            Ok(())
        })
    }

    fn claim_backup(&self, now: Timestamp, next: Timestamp) -> Result<bool, StoreError> {
        let mut client = self.client()?;
        let key = keys::BACKUP_DUE;
        // A plain read first: most checks find nothing due, and then lock and write nothing.
        let stored = client.query_opt("SELECT value FROM entries WHERE key = $1", &[&key]).checked()?;
        if !keys::backup_due(stored.as_ref().map(|row| row.get::<_, &[u8]>(0)), now) {
            return Ok(false);
        }
        // The claim is one statement: a racing process waits for the row lock, then sees the
        // new time in the `WHERE` and updates nothing.
        let sql = "INSERT INTO entries (key, value) VALUES ($1, $2)
                   ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value WHERE entries.value <= $3";
        let (next, now) = (keys::time_value(next), keys::time_value(now));
        Ok(client.execute(sql, &[&key, &next, &now]).checked()? == 1)
    }

    fn dump(&self) -> Result<Dump, StoreError> {
        let mut client = self.client()?;
        // One snapshot for the three tables.
        let mut tx = client
            .build_transaction()
            .read_only(true)
            .isolation_level(postgres::IsolationLevel::RepeatableRead)
            .start()
            .checked()?;
        let mut dump: Dump = Vec::new();
        for row in tx.query("SELECT id, record FROM games", &[]).checked()? {
            dump.push((keys::game(game_id(row.get(0))?), row.get(1)));
        }
        for row in tx.query("SELECT key, value FROM entries", &[]).checked()? {
            dump.push((row.get(0), row.get(1)));
        }
        for row in tx.query("SELECT id, due, body FROM outbox", &[]).checked()? {
            let notice = queued(&row)?;
            dump.push((keys::notice(notice.id), keys::notice_value(notice.due, &notice.body)));
        }
        let last: i64 = tx.query_one("SELECT id FROM last_id", &[]).checked()?.get(0);
        // sled and memory have no counter before the first record.
        if last != 0 {
            dump.push((keys::NEXT_ID.to_vec(), game_id(last)?.0.to_be_bytes().to_vec()));
        }
        tx.commit().checked()?;
        dump.sort();
        Ok(dump)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_prefix_ends_just_past_its_last_key() {
        assert_eq!(prefix_end(b"p\x01\xff"), Some(b"p\x02".to_vec()));
        assert_eq!(prefix_end(b"d"), Some(b"e".to_vec()));
        assert_eq!(prefix_end(b"\xff\xff"), None);
    }

    #[test]
    fn game_ids_round_trip_through_sql_integers() {
        for id in [1, 2, u32::MAX] {
            assert_eq!(game_id(sql_id(GameId(id))).unwrap(), GameId(id));
        }
        assert!(game_id(i64::from(u32::MAX) + 1).is_err(), "past the last id");
    }
}
