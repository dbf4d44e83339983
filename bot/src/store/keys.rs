//! The key layout shared by both stores, and the writes one record change makes.

use stonemate_engine::GameKind;

use super::error::StoreError;
use super::notice::Queued;
use super::rating::{RatingChange, RatingRecord};
use super::record::{GameRecord, Phase, ServerRecord, UserRecord};
use crate::clock::Timestamp;
use crate::ids::{GameId, GuildId, UserId};

pub const NEXT_ID: &[u8] = b"n";
pub const GAME: u8 = b'g';
const PLAYER: u8 = b'p';
const DEADLINE: u8 = b'd';
pub const USER: u8 = b'u';
/// When the next scheduled export is due ([`super::Store::claim_backup`]): 8 bytes,
/// a time as [`time_value`] writes it.
pub const BACKUP_DUE: &[u8] = b"sbackup";
pub const RATING: u8 = b'r';
/// The first byte of a server's settings: `v`, then the server's id.
pub const SERVER: u8 = b'v';

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

/// A time as a value that compares, byte for byte, as the time does (also in SQL, where
/// `bytea` compares bytewise).
#[must_use]
pub fn time_value(time: Timestamp) -> Vec<u8> {
    time_bytes(time).to_vec()
}

/// A time stored by [`time_value`] (`None`: not 8 bytes).
#[must_use]
pub fn stored_time(value: &[u8]) -> Option<Timestamp> {
    let bytes: [u8; 8] = value.try_into().ok()?;
    Some(Timestamp((u64::from_be_bytes(bytes) ^ (1 << 63)) as i64))
}

/// Whether a backup claim may take over `stored` (the value under [`BACKUP_DUE`]) at
/// `now`: nothing stored yet, or a time at or before `now`.
#[must_use]
pub fn backup_due(stored: Option<&[u8]>, now: Timestamp) -> bool {
    stored.is_none_or(|value| value <= time_value(now).as_slice())
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

/// The id counter while an import is under way (`super::export`): no game can be created
/// meanwhile (the next id would be past the last), and a database left so by an
/// interrupted import is told from one holding games ([`interrupted`]).
pub const IMPORTING: u32 = u32::MAX;

/// Whether `counter` (the stored [`NEXT_ID`]) says an import was interrupted.
#[must_use]
pub fn interrupted(counter: &[u8]) -> bool {
    counter == IMPORTING.to_be_bytes()
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
    [(record.challenger(), CHALLENGER), (record.opponent(), OPPONENT)]
        .into_iter()
        .map(|(user, role)| (player(user, record.guild(), record.id), vec![byte, role]))
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

/// The writes that replace `old` (if any) by `new`: the record, stale index entries
/// removed, new ones put.
pub fn changes(old: Option<&GameRecord>, new: &GameRecord) -> Result<Vec<Write>, StoreError> {
    Ok(reindexed(old.map(index), index(new), (game(new.id), serde_json::to_vec(new)?)))
}

/// The writes that replace a record whose index entries were `old` (if any) by one whose
/// entries are `fresh`: the entries `fresh` no longer holds removed, `fresh` put, then
/// the record itself (games and tournaments alike).
pub fn reindexed(
    old: Option<Vec<(Vec<u8>, Vec<u8>)>>,
    fresh: Vec<(Vec<u8>, Vec<u8>)>,
    record: (Vec<u8>, Vec<u8>),
) -> Vec<Write> {
    let mut writes: Vec<Write> = Vec::new();
    for (key, _) in old.unwrap_or_default() {
        if !fresh.iter().any(|(k, _)| *k == key) {
            writes.push((key, None));
        }
    }
    writes.extend(fresh.into_iter().map(|(key, value)| (key, Some(value))));
    writes.push((record.0, Some(record.1)));
    writes
}

/// A stored game record, of this format or an older one ([`super::record::upgrade`]).
pub fn decode_game(bytes: &[u8]) -> Result<GameRecord, StoreError> {
    let value = super::record::upgrade(serde_json::from_slice(bytes)?).map_err(StoreError::Corrupt)?;
    Ok(serde_json::from_value(value)?)
}

pub fn decode_user(bytes: &[u8]) -> Result<UserRecord, StoreError> {
    Ok(serde_json::from_slice(bytes)?)
}

/// The key of a server's settings.
pub fn server(guild: GuildId) -> Vec<u8> {
    let mut key = vec![SERVER];
    key.extend_from_slice(&guild.0.to_be_bytes());
    key
}

pub fn decode_server(bytes: &[u8]) -> Result<ServerRecord, StoreError> {
    Ok(serde_json::from_slice(bytes)?)
}

/// One entry of a player's index: a record he takes part in, and how.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct IndexEntry {
    /// The record's id.
    pub id: GameId,
    /// The record's phase: [`Phase::Challenge`], [`Phase::Playing`] or [`Phase::Finished`].
    pub phase: Phase,
    /// The record's server (`None`: a record without one).
    pub guild: Option<GuildId>,
    /// Whether he sent the challenge (else he received it).
    pub challenger: bool,
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

/// The ratings of one game in one server: `r`, server, game (its place in
/// [`GameKind::ALL`]).
pub fn rating_prefix(guild: GuildId, kind: GameKind) -> Vec<u8> {
    let mut key = vec![RATING];
    key.extend_from_slice(&guild.0.to_be_bytes());
    key.push(GameKind::ALL.iter().position(|known| *known == kind).map_or(u8::MAX, |place| place as u8));
    key
}

/// The key of one player's rating: [`rating_prefix`], then the user.
pub fn rating(guild: GuildId, kind: GameKind, user: UserId) -> Vec<u8> {
    let mut key = rating_prefix(guild, kind);
    key.extend_from_slice(&user.0.to_be_bytes());
    key
}

pub fn rating_of(record: &RatingRecord) -> Vec<u8> {
    rating(record.guild, record.kind, record.user)
}

pub fn decode_rating(bytes: &[u8]) -> Result<RatingRecord, StoreError> {
    Ok(serde_json::from_slice(bytes)?)
}

/// One rating change as bytes: the key, the number of rated games the stored rating must
/// show (`None`: there must be none; counts, not bytes, are compared, since a float read
/// back from JSON may print differently), the value to put.
pub type RatingWrite = (Vec<u8>, Option<u32>, Vec<u8>);

/// The rating changes as bytes, for stores to check and write.
/// In key order, so that two writes lock shared ratings in the same order.
pub fn rating_writes(changes: &[RatingChange]) -> Result<Vec<RatingWrite>, StoreError> {
    let mut writes = changes
        .iter()
        .map(|change| {
            Ok((rating_of(&change.after), change.before.map(|r| r.games), serde_json::to_vec(&change.after)?))
        })
        .collect::<Result<Vec<RatingWrite>, StoreError>>()?;
    writes.sort_by(|a, b| a.0.cmp(&b.0));
    Ok(writes)
}

/// Whether a stored rating (`None`: none) is the one a change was made from.
pub fn rating_unchanged(stored: Option<&[u8]>, expected: Option<u32>) -> Result<bool, StoreError> {
    Ok(stored.map(decode_rating).transpose()?.map(|rating| rating.games) == expected)
}

/// The first byte of an outbox key: `o`, then the notice's id.
pub const NOTICE: u8 = b'o';
/// The first byte of a report key: `c` (channel refused), then the game's id ([`Store::raise_report`]).
///
/// [`Store::raise_report`]: super::Outbox::raise_report
pub const REPORT: u8 = b'c';

/// A report waits to be shown / was shown (the value of a report key).
pub const REPORT_PENDING: &[u8] = b"p";
pub const REPORT_SHOWN: &[u8] = b"s";

/// The key of an outbox entry: ids sort as numbers, so the oldest comes first.
pub fn notice(id: u64) -> Vec<u8> {
    let mut key = vec![NOTICE];
    key.extend_from_slice(&id.to_be_bytes());
    key
}

pub fn report(id: GameId) -> Vec<u8> {
    let mut key = vec![REPORT];
    key.extend_from_slice(&id.0.to_be_bytes());
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
pub fn decode_notice(key: &[u8], value: &[u8]) -> Result<Queued, StoreError> {
    let corrupt = || StoreError::Corrupt(format!("outbox entry {key:02x?}"));
    let id = notice_id(key).ok_or_else(corrupt)?;
    let (due, body) = value.split_first_chunk::<8>().ok_or_else(corrupt)?;
    Ok(Queued { id, due: Timestamp(i64::from_be_bytes(*due)), body: body.to_vec() })
}
