//! The key layout shared by both stores, and the writes one record change makes.

use super::record::Phase;
use super::record::{GameRecord, UserRecord};
use super::{IndexEntry, StoreError};
use crate::clock::Timestamp;
use crate::ids::{GameId, GuildId, UserId};

pub const NEXT_ID: &[u8] = b"n";
pub const GAME: u8 = b'g';
const PLAYER: u8 = b'p';
const DEADLINE: u8 = b'd';
pub const USER: u8 = b'u';

pub fn game(id: GameId) -> Vec<u8> {
    let mut key = vec![GAME];
    key.extend_from_slice(&id.0.to_be_bytes());
    key
}

pub fn player_prefix(user: UserId) -> Vec<u8> {
    let mut key = vec![PLAYER];
    key.extend_from_slice(&user.0.to_be_bytes());
    key
}

/// The player index of `user` in one server (`None`: records without a server).
pub fn player_server_prefix(user: UserId, guild: Option<GuildId>) -> Vec<u8> {
    let mut key = player_prefix(user);
    // Discord numbers no server 0, so 0 can stand for "no server".
    key.extend_from_slice(&guild.map_or(0, |guild| guild.0).to_be_bytes());
    key
}

fn player(user: UserId, guild: Option<GuildId>, id: GameId) -> Vec<u8> {
    let mut key = player_server_prefix(user, guild);
    key.extend_from_slice(&id.0.to_be_bytes());
    key
}

/// A player key: `p`, user, server, id.
const PLAYER_KEY_LEN: usize = 1 + 8 + 8 + 4;
/// A player key of the first layout (before servers): `p`, user, id.
const LEGACY_PLAYER_KEY_LEN: usize = 1 + 8 + 4;

/// Whether `key` is a player-index key of the first layout, which [`upgrade_player_key`]
/// rewrites.
#[must_use]
pub fn is_legacy_player_key(key: &[u8]) -> bool {
    key.len() == LEGACY_PLAYER_KEY_LEN && key.first() == Some(&PLAYER)
}

/// The first byte of every player-index key.
pub const PLAYER_PREFIX: &[u8] = &[PLAYER];

/// The writes that replace a legacy player key by the entries of its record (`None`:
/// the record is gone, and so goes the key).
pub fn upgrade_player_key(key: &[u8], record: Option<&GameRecord>) -> Vec<Write> {
    let mut writes: Vec<Write> = vec![(key.to_vec(), None)];
    if let Some(record) = record {
        writes.extend(player_entries(record).into_iter().map(|(key, value)| (key, Some(value))));
    }
    writes
}

pub fn user(user: UserId) -> Vec<u8> {
    let mut key = vec![USER];
    key.extend_from_slice(&user.0.to_be_bytes());
    key
}

/// Times sort as unsigned numbers once the sign bit is flipped.
fn time_bytes(time: Timestamp) -> [u8; 8] {
    ((time.0 as u64) ^ (1 << 63)).to_be_bytes()
}

fn deadline(time: Timestamp, id: GameId) -> Vec<u8> {
    let mut key = vec![DEADLINE];
    key.extend_from_slice(&time_bytes(time));
    key.extend_from_slice(&id.0.to_be_bytes());
    key
}

/// The deadline keys from the earliest up to (and including) `until`.
pub fn deadlines_until(until: Timestamp) -> (Vec<u8>, Vec<u8>) {
    let mut end = vec![DEADLINE];
    end.extend_from_slice(&time_bytes(until));
    end.extend_from_slice(&u32::MAX.to_be_bytes());
    (vec![DEADLINE], end)
}

/// The game id at the end of a player or deadline key.
pub fn id_at_end(key: &[u8]) -> Option<GameId> {
    let tail: [u8; 4] = key.get(key.len().checked_sub(4)?..)?.try_into().ok()?;
    Some(GameId(u32::from_be_bytes(tail)))
}

pub fn next_id(stored: Option<&[u8]>) -> Result<GameId, StoreError> {
    let last = match stored {
        None => 0,
        Some(bytes) => u32::from_be_bytes(bytes.try_into().map_err(|_| StoreError::Corrupt("next id".into()))?),
    };
    last.checked_add(1).map(GameId).ok_or_else(|| StoreError::Database("out of game ids".into()))
}

/// Marks a player entry of the challenger (the value's second byte), so that quotas count
/// challenges sent without loading the records.
const CHALLENGER: u8 = b'c';
const OPPONENT: u8 = b'o';

/// The player-index entries of a record: one per player, in the record's server.
fn player_entries(record: &GameRecord) -> Vec<(Vec<u8>, Vec<u8>)> {
    let Some(byte) = record.phase.index_byte() else { return Vec::new() };
    [(record.challenger, CHALLENGER), (record.opponent, OPPONENT)]
        .into_iter()
        .map(|(user, role)| (player(user, record.guild, record.id), vec![byte, role]))
        .collect()
}

/// The index entries of a record.
pub fn index(record: &GameRecord) -> Vec<(Vec<u8>, Vec<u8>)> {
    let mut entries = player_entries(record);
    if let Some(time) = record.next_event() {
        entries.push((deadline(time, record.id), Vec::new()));
    }
    entries
}

/// One write of a transaction: a value to put, or `None` to remove the key.
pub type Write = (Vec<u8>, Option<Vec<u8>>);

/// Whether `key` shows that a store has held games (a record, or the id counter): such a
/// store is not empty for an import.
#[must_use]
pub fn holds_games(key: &[u8]) -> bool {
    key.first() == Some(&GAME) || key == NEXT_ID
}

/// The writes that replace `old` (if any) by `new`: the record, stale index entries
/// removed, new ones put.
pub fn changes(old: Option<&GameRecord>, new: &GameRecord) -> Result<Vec<Write>, StoreError> {
    let fresh = index(new);
    let mut writes: Vec<Write> = Vec::new();
    if let Some(old) = old {
        for (key, _) in index(old) {
            if !fresh.iter().any(|(k, _)| *k == key) {
                writes.push((key, None));
            }
        }
    }
    writes.extend(fresh.into_iter().map(|(key, value)| (key, Some(value))));
    writes.push((game(new.id), Some(serde_json::to_vec(new)?)));
    Ok(writes)
}

/// A stored game record, of this format or an older one ([`super::record::upgrade`]).
pub fn decode_game(bytes: &[u8]) -> Result<GameRecord, StoreError> {
    let value = super::record::upgrade(serde_json::from_slice(bytes)?).map_err(StoreError::Corrupt)?;
    Ok(serde_json::from_value(value)?)
}

pub fn decode_user(bytes: &[u8]) -> Result<UserRecord, StoreError> {
    Ok(serde_json::from_slice(bytes)?)
}

/// A player-index entry read back (`None` for a key of another layout).
pub fn index_entry(key: &[u8], value: &[u8]) -> Option<IndexEntry> {
    if key.len() != PLAYER_KEY_LEN {
        return None;
    }
    let guild = u64::from_be_bytes(key.get(9..17)?.try_into().ok()?);
    Some(IndexEntry {
        id: id_at_end(key)?,
        phase: Phase::from_index_byte(*value.first()?)?,
        guild: (guild != 0).then_some(GuildId(guild)),
        challenger: value.get(1) == Some(&CHALLENGER),
    })
}

/// The first byte of an outbox key: `o`, then the notice's id.
pub const NOTICE: u8 = b'o';
/// The first byte of a report key: `r`, then the game's id ([`GameStore::raise_report`]).
///
/// [`GameStore::raise_report`]: super::GameStore::raise_report
pub const REPORT: u8 = b'r';

/// A report waits to be shown / was shown (the value of a report key).
pub const REPORT_PENDING: &[u8] = b"p";
pub const REPORT_SHOWN: &[u8] = b"s";

/// The key of an outbox entry: ids sort as numbers, so the oldest comes first.
pub fn notice(id: u64) -> Vec<u8> {
    let mut key = vec![NOTICE];
    key.extend_from_slice(&id.to_be_bytes());
    key
}

pub fn report(game: GameId) -> Vec<u8> {
    let mut key = vec![REPORT];
    key.extend_from_slice(&game.0.to_be_bytes());
    key
}

/// The id of an outbox key (`None` for another key).
pub fn notice_id(key: &[u8]) -> Option<u64> {
    match key {
        [NOTICE, id @ ..] => Some(u64::from_be_bytes(id.try_into().ok()?)),
        _ => None,
    }
}

/// An outbox value: when the notice is next due (8 bytes), then its body.
pub fn notice_value(due: Timestamp, body: &[u8]) -> Vec<u8> {
    let mut value = due.0.to_be_bytes().to_vec();
    value.extend_from_slice(body);
    value
}

/// An outbox entry read back.
pub fn decode_notice(key: &[u8], value: &[u8]) -> Result<super::Queued, StoreError> {
    let corrupt = || StoreError::Corrupt(format!("outbox entry {key:02x?}"));
    let id = notice_id(key).ok_or_else(corrupt)?;
    let (due, body) = value.split_first_chunk::<8>().ok_or_else(corrupt)?;
    Ok(super::Queued { id, due: Timestamp(i64::from_be_bytes(*due)), body: body.to_vec() })
}
