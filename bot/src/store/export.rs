//! `stonemate export` / `import` (`docs/commands.md`, "Operating commands"): every record of a
//! database as JSON Lines. The first line is a header with the export's version; then one
//! line per record: `{"game": ...}` (a [`GameRecord`] as stored), `{"user": ...}` (a
//! [`UserRecord`]), `{"rating": ...}` (a [`RatingRecord`]) and `{"last_id": n}` (the last
//! game id given out). Index entries are
//! not exported: they follow from the records, and import rebuilds them.

use std::io::{BufRead, Write};

use serde::{Deserialize, Serialize};
use stonemate_engine::AnyGame;

use super::rating::RatingRecord;
use super::record::{GameRecord, UserRecord};
use super::{Backend, Restore, Store, StoreError, keys};

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

/// Writes every record of `store` to `out`; returns how many lines after the header.
pub fn export<B: Backend + ?Sized>(store: &Store<B>, mut out: impl Write) -> Result<usize, ExportError> {
    let mut lines = 0;
    serde_json::to_writer(&mut out, &Header { stonemate_export: VERSION }).map_err(StoreError::from)?;
    writeln!(out)?;
    for (key, value) in store.dump()? {
        let line = match key.first() {
            Some(&keys::GAME) => Line::Game(Box::new(keys::decode_game(&value)?)),
            Some(&keys::USER) => Line::User(keys::decode_user(&value)?),
            Some(&keys::RATING) => Line::Rating(keys::decode_rating(&value)?),
            _ if key.as_slice() == keys::NEXT_ID => Line::LastId(keys::next_id(Some(&value))?.0 - 1),
            _ => continue,
        };
        serde_json::to_writer(&mut out, &line).map_err(StoreError::from)?;
        writeln!(out)?;
        lines += 1;
    }
    out.flush()?;
    Ok(lines)
}

/// Reads an export into `store`, which must hold no games, in one write; every game must
/// replay. Returns how many games were imported.
pub fn import<B: Backend + ?Sized>(store: &Store<B>, input: impl BufRead) -> Result<usize, ExportError> {
    // Before reading the input: a full database is refused at once ([`Store::restore`]
    // checks again in its transaction).
    if store.holds_games()? {
        return Err(ExportError::NotEmpty);
    }
    let mut lines = input.lines();
    let header = lines.next().transpose()?.unwrap_or_default();
    match serde_json::from_str::<Header>(&header) {
        Ok(Header { stonemate_export: VERSION }) => {}
        _ => return Err(ExportError::BadHeader(header.chars().take(80).collect())),
    }
    let mut restored = Restore::default();
    for (index, text) in lines.enumerate() {
        let line = index + 2;
        let text = text?;
        if text.trim().is_empty() {
            continue;
        }
        let bad = |detail: String| ExportError::BadLine { line, detail };
        match serde_json::from_str::<Line>(&text).map_err(|error| bad(error.to_string()))? {
            Line::Game(record) => {
                let replay = AnyGame::replay(record.game, &record.options, &record.turns)
                    .map_err(|error| bad(format!("game {}: {error}", record.id)))?;
                if let Some(error) = replay.error {
                    return Err(bad(format!("game {}: its turns do not replay: {error}", record.id)));
                }
                restored.games.push(*record);
            }
            Line::User(user) => restored.users.push(user),
            Line::Rating(rating) => restored.ratings.push(rating),
            Line::LastId(id) => restored.last_id = id,
        }
    }
    let count = restored.games.len();
    store.restore(restored).map_err(|error| match error {
        StoreError::NotEmpty => ExportError::NotEmpty,
        error => ExportError::Store(error),
    })?;
    Ok(count)
}
