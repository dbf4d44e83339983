//! `stonemate export` / `import` (`docs/commands.md`, "Operating commands"): every record of a
//! database as JSON Lines. The first line is a header with the export's version; then one
//! line per record: `{"game": ...}` (a [`GameRecord`] as stored), `{"user": ...}` (a
//! [`UserRecord`]), `{"rating": ...}` (a [`RatingRecord`]), `{"last_id": n}` (the last
//! game id given out), `{"tournament": ...}` (a [`TournamentRecord`]) and
//! `{"last_tournament": n}` (the last tournament id), `{"server": ...}` (a server's own
//! settings, a [`ServerRecord`]). Index entries are
//! not exported: they follow from the records, and import rebuilds them.

use std::collections::HashMap;
use std::io::{BufRead, Write};

use serde::{Deserialize, Serialize};
use stonemate_engine::AnyGame;

use super::backend::{Backend, Batch, KeyRange, chunks};
use super::check::{Damage, RESTORE, verify_game};
use super::error::StoreError;
use super::keys;
use super::rating::RatingRecord;
use super::record::{GameRecord, ServerRecord, UserRecord};
use super::records::Store;
use super::tournaments::{self, TournamentRecord};
use crate::ids::GameId;

/// The version of the export format this build writes and reads.
pub const VERSION: u32 = 1;

/// The first line of an export.
#[derive(Debug, Serialize, Deserialize)]
struct Header {
    stonemate_export: u32,
}

/// One line after the header.
#[derive(Debug, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
enum Line {
    Game(Box<GameRecord>),
    User(UserRecord),
    Rating(RatingRecord),
    LastId(u32),
    Tournament(Box<TournamentRecord>),
    LastTournament(u32),
    Server(ServerRecord),
}

/// Why an export or import failed.
#[derive(Debug, thiserror::Error)]
pub enum ExportError {
    /// The store failed.
    #[error(transparent)]
    Store(#[from] StoreError),
    /// Reading or writing the export failed.
    #[error("{0}")]
    Io(#[from] std::io::Error),
    #[error("line {line}: {detail}")]
    /// A line of the export is not a record.
    BadLine {
        /// The line's number, counted from 1.
        line: usize,
        /// What is wrong with it.
        detail: String,
    },
    /// The first line is not the header this build writes; it holds the line's start.
    #[error("not a Stonemate export of version {VERSION} (line 1: {0})")]
    BadHeader(String),
    /// An import into a database that already holds games.
    #[error("the database already holds games: import only into an empty one")]
    NotEmpty,
}

/// Keys read per scan while exporting, and writes per batch while importing: memory
/// stays flat at any size of database.
const CHUNK: usize = 1_000;

/// Writes every record of `store` to `out`; returns how many lines after the header.
pub fn export<B: Backend + ?Sized>(store: &Store<B>, out: impl Write) -> Result<usize, ExportError> {
    export_with(store, out, &mut |_| {})
}

/// [`export`], reading the store a chunk at a time (memory stays flat at any size) and
/// telling `progress` how many lines are written so far. Each record is exported as it
/// was when its chunk was read; a game record that does not decode or replay stops the
/// export with [`StoreError::Damaged`], naming it.
pub fn export_with<B: Backend + ?Sized>(
    store: &Store<B>,
    mut out: impl Write,
    progress: &mut dyn FnMut(usize),
) -> Result<usize, ExportError> {
    let mut lines = 0;
    serde_json::to_writer(&mut out, &Header { stonemate_export: VERSION }).map_err(StoreError::from)?;
    writeln!(out)?;
    for entries in chunks(store.backend().as_ref(), KeyRange::all(), CHUNK) {
        for (key, value) in entries? {
            let line = match key.first() {
                // Replayed as it is written: an export holds only games an import takes.
                Some(&keys::GAME) => Line::Game(Box::new(verify_game(&key, &value).map_err(damaged)?)),
                Some(&keys::USER) => Line::User(keys::decode_user(&value)?),
                Some(&keys::RATING) => Line::Rating(keys::decode_rating(&value)?),
                Some(&keys::SERVER) => Line::Server(keys::decode_server(&value)?),
                _ if key.as_slice() == keys::NEXT_ID => Line::LastId(keys::next_id(Some(&value))?.0 - 1),
                Some(&tournaments::TOURNAMENT) => Line::Tournament(Box::new(tournaments::decode(&value)?)),
                _ if key.as_slice() == tournaments::LAST_TOURNAMENT => {
                    Line::LastTournament(tournaments::last_id(&value)?)
                }
                _ => continue,
            };
            serde_json::to_writer(&mut out, &line).map_err(StoreError::from)?;
            writeln!(out)?;
            lines += 1;
        }
        progress(lines);
    }
    out.flush()?;
    Ok(lines)
}

/// What a record the export cannot write says: the database is damaged there.
fn damaged(damage: Damage) -> StoreError {
    StoreError::Damaged(format!("{damage}; {RESTORE}"))
}

/// Reads an export into `store`, which must hold no games; every game must replay.
/// Returns how many games were imported.
pub fn import<B: Backend + ?Sized>(store: &Store<B>, input: impl BufRead) -> Result<usize, ExportError> {
    import_with(store, input, &mut |_, _| {})
}

/// [`import`], a line at a time: games are checked (they must replay) and written in
/// batches as they come, so memory stays flat at any size; `progress` is told the bytes
/// read and the games imported so far. All or nothing: the id counter is held at
/// `IMPORTING` while the batches are written (no game can be created meanwhile), and
/// set last, with one sync for the whole import; a failure removes every key written
/// (the database was empty), so an import that failed leaves an empty database.
pub fn import_with<B: Backend + ?Sized>(
    store: &Store<B>,
    mut input: impl BufRead,
    progress: &mut dyn FnMut(u64, usize),
) -> Result<usize, ExportError> {
    // Before reading the input: a full database is refused at once.
    if store.holds_games()? {
        return Err(ExportError::NotEmpty);
    }
    let mut text = String::new();
    let mut read = input.read_line(&mut text)? as u64;
    match serde_json::from_str::<Header>(text.trim_end()) {
        Ok(Header { stonemate_export: VERSION }) => {}
        _ => return Err(ExportError::BadHeader(text.trim_end().chars().take(80).collect())),
    }
    // Every creation writes the counter: of this import and a creation, one fails.
    let mut begin = Batch::new();
    begin.expect(keys::NEXT_ID, None).put(keys::NEXT_ID, keys::IMPORTING.to_be_bytes());
    match store.backend().apply(&begin) {
        Err(StoreError::Conflict) => return Err(ExportError::NotEmpty),
        other => other?,
    }
    let mut imported = Imported::default();
    let outcome = (|| {
        for line in 2.. {
            text.clear();
            let length = input.read_line(&mut text)?;
            if length == 0 {
                break;
            }
            read += length as u64;
            imported.line(line, text.trim())?;
            if imported.batch.writes.len() >= CHUNK {
                store.backend().apply(&std::mem::take(&mut imported.batch))?;
                progress(read, imported.games);
            }
        }
        let Imported { mut batch, games, last_id, .. } = imported;
        // Last, with the one sync: the counter tells that the import is whole.
        batch.expect(keys::NEXT_ID, Some(keys::IMPORTING.to_be_bytes().to_vec()));
        match last_id {
            0 => batch.delete(keys::NEXT_ID),
            last => batch.put(keys::NEXT_ID, last.to_be_bytes()),
        };
        store.commit(&batch)?;
        progress(read, games);
        Ok(games)
    })();
    if let Err(failed) = &outcome
        && let Err(error) = clear(store)
    {
        // The import's own failure is the one to report; the log has this one.
        tracing::error!(%error, import = %failed, "cannot empty the database after a failed import");
    }
    outcome
}

/// What an import has read but not yet written, and what it has seen.
#[derive(Debug, Default)]
struct Imported {
    batch: Batch,
    games: usize,
    /// The last game id given out: the export's, or the largest id imported.
    last_id: u32,
    /// The line of each game id read so far (an id twice would store one game).
    seen: HashMap<GameId, usize>,
}

/// Why the game `record` on line `line` cannot be imported, if it cannot: its turns do not
/// replay, its id is on an earlier line (`seen`, which it joins), or its two seats hold
/// one user (the service refuses such a game, and nothing could be played in it).
fn check_game(record: &GameRecord, line: usize, seen: &mut HashMap<GameId, usize>) -> Result<(), String> {
    let id = record.id;
    let replay =
        AnyGame::replay(record.kind, &record.options, &record.turns).map_err(|error| format!("game {id}: {error}"))?;
    if let Some(error) = replay.error {
        return Err(format!("game {id}: its turns do not replay: {error}"));
    }
    if let Some(first) = seen.insert(id, line) {
        return Err(format!("game {id} is also on line {first}: an export holds each game once"));
    }
    let (challenger, opponent) = (&record.seats.challenger, &record.seats.opponent);
    if challenger.user == opponent.user {
        return Err(format!("game {id}: both players are the same user ({}, {})", challenger.name, opponent.name));
    }
    Ok(())
}

impl Imported {
    /// Adds one line of the export (`line`: its number, counted from 1).
    fn line(&mut self, line: usize, text: &str) -> Result<(), ExportError> {
        if text.is_empty() {
            return Ok(());
        }
        let bad = |detail: String| ExportError::BadLine { line, detail };
        match serde_json::from_str::<Line>(text).map_err(|error| bad(error.to_string()))? {
            Line::Game(record) => {
                check_game(&record, line, &mut self.seen).map_err(bad)?;
                self.last_id = self.last_id.max(record.id.0);
                self.batch.writes.extend(keys::changes(None, &record)?);
                self.games += 1;
            }
            Line::User(user) => {
                self.batch.put(keys::user(user.id), serde_json::to_vec(&user).map_err(StoreError::from)?);
            }
            Line::Rating(rating) => {
                self.batch.put(keys::rating_of(&rating), serde_json::to_vec(&rating).map_err(StoreError::from)?);
            }
            Line::LastId(id) => self.last_id = self.last_id.max(id),
            Line::Tournament(record) => self.batch.writes.extend(tournaments::record_changes(None, &record)?),
            Line::LastTournament(id) => {
                self.batch.put(tournaments::LAST_TOURNAMENT, id.to_be_bytes());
            }
            Line::Server(server) => {
                self.batch.put(keys::server(server.guild), serde_json::to_vec(&server).map_err(StoreError::from)?);
            }
        }
        Ok(())
    }
}

/// Removes every key of `store`, a chunk at a time, and makes that durable.
fn clear<B: Backend + ?Sized>(store: &Store<B>) -> Result<(), StoreError> {
    loop {
        let Some(entries) = chunks(store.backend().as_ref(), KeyRange::all(), CHUNK).next().transpose()? else {
            return store.backend().flush();
        };
        let mut batch = Batch::new();
        for (key, _) in entries {
            batch.delete(key);
        }
        store.backend().apply(&batch)?;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ids::{GameId, GuildId};
    use crate::store::MemoryStore;
    use crate::store::check::filled;

    #[test]
    fn a_large_export_read_in_chunks_imports_as_the_same_database() {
        let store = filled(2_500);
        let mut text = Vec::new();
        let mut seen = Vec::new();
        let lines = export_with(&store, &mut text, &mut |lines| seen.push(lines)).unwrap();
        assert_eq!(lines, 2_501, "the games and the id counter");
        assert!(seen.len() > 2, "progress is told chunk by chunk: {seen:?}");
        let copy = MemoryStore::new();
        let mut told = (0, 0);
        assert_eq!(import_with(&copy, text.as_slice(), &mut |bytes, games| told = (bytes, games)).unwrap(), 2_500);
        assert_eq!(told, (text.len() as u64, 2_500));
        assert_eq!(copy.dump().unwrap(), store.dump().unwrap());
    }

    #[test]
    fn a_servers_settings_travel_in_the_export() {
        let store = filled(3);
        let threads = ServerRecord { threads: true, ..ServerRecord::new(GuildId(7)) };
        crate::store::Servers::of(&store).save(&threads).unwrap();
        let mut text = Vec::new();
        assert_eq!(export(&store, &mut text).unwrap(), 5, "the games, the id counter and the server");
        let copy = MemoryStore::new();
        import(&copy, text.as_slice()).unwrap();
        assert_eq!(crate::store::Servers::of(&copy).load(GuildId(7)).unwrap(), Some(threads));
        assert_eq!(crate::store::check::check(&copy), Ok(3), "a server's settings are no stray entry");
        assert_eq!(copy.dump().unwrap(), store.dump().unwrap());
    }

    #[test]
    fn an_import_that_fails_after_batches_were_written_leaves_the_database_empty() {
        let mut text = Vec::new();
        export(&filled(2_500), &mut text).unwrap();
        let mut text = String::from_utf8(text).unwrap();
        text.push_str("{\"game\": 12}\n");
        let copy = MemoryStore::new();
        let error = import(&copy, text.as_bytes()).unwrap_err();
        assert!(matches!(error, ExportError::BadLine { line: 2_503, .. }), "{error}");
        assert!(copy.dump().unwrap().is_empty());
        // And it can be imported into again.
        assert_eq!(import(&copy, text.rsplit_once("{\"game\": 12}").unwrap().0.as_bytes()).unwrap(), 2_500);
    }

    #[test]
    fn a_game_that_does_not_replay_stops_the_export_naming_it() {
        let store = filled(1_500);
        let mut broken = store.load(GameId(1_200)).unwrap().unwrap();
        broken.turns = vec!["R@e5".into(), "R@e5".into()];
        store.commit(Batch::new().put(keys::game(GameId(1_200)), serde_json::to_vec(&broken).unwrap())).unwrap();
        let error = export(&store, Vec::new()).unwrap_err().to_string();
        assert!(error.contains("game #1200: its turns do not replay"), "{error}");
        assert!(error.contains("restore it from an export"), "{error}");
    }

    #[test]
    fn a_database_an_import_left_half_written_is_named_by_the_check() {
        let store = MemoryStore::new();
        store.commit(Batch::new().put(keys::NEXT_ID, keys::IMPORTING.to_be_bytes())).unwrap();
        let damage = crate::store::check::check(&store).unwrap_err();
        assert!(damage.to_string().contains("an import into it was interrupted"), "{damage}");
        assert!(matches!(import(&store, "{\"stonemate_export\":1}\n".as_bytes()), Err(ExportError::NotEmpty)));
    }
}
