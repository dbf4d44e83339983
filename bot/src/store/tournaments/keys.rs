//! The tournaments' keys (the table in `store/mod.rs` lists them): the record under `t`,
//! one entry per tournament in its server's index under `l`, the auto-start index under
//! `a`, and the last tournament id under `m`.

use super::record::{TournamentRecord, TournamentStatus};
use crate::clock::Timestamp;
use crate::ids::{GuildId, TournamentId};
use crate::store::error::StoreError;
use crate::store::keys::{Write, reindexed, time_value};

/// `t` id: the [`TournamentRecord`], JSON.
pub const TOURNAMENT: u8 = b't';
/// `l` server id: the status byte ([`TournamentStatus::byte`]).
pub const LISTED: u8 = b'l';
/// `a` time id: empty; an open tournament that starts by itself then.
pub const STARTS: u8 = b'a';
/// The last tournament id given out.
pub const LAST_TOURNAMENT: &[u8] = b"m";

pub fn tournament(id: TournamentId) -> Vec<u8> {
    let mut key = vec![TOURNAMENT];
    key.extend_from_slice(&id.0.to_be_bytes());
    key
}

pub fn listed_prefix(guild: Option<GuildId>) -> Vec<u8> {
    let mut key = vec![LISTED];
    if let Some(guild) = guild {
        key.extend_from_slice(&guild.0.to_be_bytes());
    }
    key
}

fn listed(guild: GuildId, id: TournamentId) -> Vec<u8> {
    let mut key = listed_prefix(Some(guild));
    key.extend_from_slice(&id.0.to_be_bytes());
    key
}

fn starts(at: Timestamp, id: TournamentId) -> Vec<u8> {
    let mut key = vec![STARTS];
    key.extend_from_slice(&time_value(at));
    key.extend_from_slice(&id.0.to_be_bytes());
    key
}

/// The auto-start keys up to (and including) `until`: the range's start and last key.
pub fn starts_until(until: Timestamp) -> (Vec<u8>, Vec<u8>) {
    (vec![STARTS], starts(until, TournamentId(u32::MAX)))
}

/// The tournament id at the end of an index key.
pub fn id_at_end(key: &[u8]) -> Option<TournamentId> {
    let tail: [u8; 4] = key.get(key.len().checked_sub(4)?..)?.try_into().ok()?;
    Some(TournamentId(u32::from_be_bytes(tail)))
}

/// An index entry read back: the tournament and its status.
pub fn listed_entry(key: &[u8], value: &[u8]) -> Option<(TournamentId, TournamentStatus)> {
    (key.len() == 1 + 8 + 4).then_some(())?;
    Some((id_at_end(key)?, TournamentStatus::from_byte(*value.first()?)?))
}

/// The index entries of a record.
pub fn index(record: &TournamentRecord) -> Vec<(Vec<u8>, Vec<u8>)> {
    let mut entries = vec![(listed(record.guild, record.id), vec![record.status.byte()])];
    if let (TournamentStatus::Open, Some(at)) = (record.status, record.starts_at) {
        entries.push((starts(at, record.id), Vec::new()));
    }
    entries
}

/// The writes that replace `old` (if any) by `new`: stale index entries removed, the
/// new ones and the record put.
pub fn changes(old: Option<&TournamentRecord>, new: &TournamentRecord) -> Result<Vec<Write>, StoreError> {
    Ok(reindexed(old.map(index), index(new), (tournament(new.id), serde_json::to_vec(new)?)))
}

pub fn decode(bytes: &[u8]) -> Result<TournamentRecord, StoreError> {
    Ok(serde_json::from_slice(bytes)?)
}

/// The id after the stored last one.
pub fn next_id(stored: Option<&[u8]>) -> Result<TournamentId, StoreError> {
    let last = match stored {
        None => 0,
        Some(bytes) => {
            u32::from_be_bytes(bytes.try_into().map_err(|_| StoreError::Corrupt("last tournament id".into()))?)
        }
    };
    last.checked_add(1).map(TournamentId).ok_or_else(|| StoreError::Database("out of tournament ids".into()))
}
