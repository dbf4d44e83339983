//! Finding the record a command is about (an id typed by the user, or the caller's only
//! game in this channel), and its position (replayed from the turns, cached by version).

use std::collections::HashMap;
use std::sync::{Mutex, PoisonError};

use stonemate_engine::AnyGame;

use super::Service;
use super::error::Refusal;
use super::types::{Caller, GameId};
use crate::store::{GameRecord, Standing};

/// Names longer than Discord's are cut before they are stored or shown.
pub const MAX_NAME: usize = 32;

/// A display name as stored: trimmed and at most [`MAX_NAME`] characters.
pub fn short_name(name: &str) -> String {
    name.trim().chars().take(MAX_NAME).collect()
}

/// Reads `12`, `#12` or ` # 12 `.
pub fn parse_id(text: &str) -> Result<GameId, Refusal> {
    let digits = text.trim().trim_start_matches('#').trim();
    digits.parse::<u32>().map(GameId).map_err(|_| Refusal::BadGameId(text.chars().take(40).collect()))
}

/// The record with this id.
pub fn load(service: &Service, id: GameId) -> Result<GameRecord, Refusal> {
    service.store.load(id)?.ok_or(Refusal::NoSuchGame(id))
}

/// The record named by `text`.
pub fn named(service: &Service, text: &str) -> Result<GameRecord, Refusal> {
    load(service, parse_id(text)?)
}

/// The caller's records with this standing, loaded.
pub fn records_of(service: &Service, user: super::UserId, standing: Standing) -> Result<Vec<GameRecord>, Refusal> {
    let ids = service.store.games_of(user)?;
    ids.into_iter().filter(|(_, s)| *s == standing).map(|(id, _)| load(service, id)).collect()
}

/// A short line naming a record for lists: `#3 (go, alice vs bob)`.
pub fn label(record: &GameRecord) -> String {
    format!("{} ({}, {} vs {})", record.id, record.game, record.names[0], record.names[1])
}

/// Picks the one record of `candidates` in the caller's channel, or says why not.
fn only_here(
    caller: &Caller,
    candidates: Vec<GameRecord>,
    option: &'static str,
    none: fn(String) -> Refusal,
) -> Result<GameRecord, Refusal> {
    let (mut here, elsewhere): (Vec<_>, Vec<_>) =
        candidates.into_iter().partition(|record| record.channel == caller.channel);
    match here.len() {
        1 => Ok(here.remove(0)),
        0 if elsewhere.is_empty() => Err(none(String::new())),
        0 => {
            let ids: Vec<String> = elsewhere.iter().map(|record| record.id.to_string()).collect();
            Err(none(format!(" (elsewhere: {}; name one with `{option}:`)", ids.join(", "))))
        }
        _ => {
            let list: Vec<String> = here.iter().map(label).collect();
            Err(Refusal::WhichOne { option, list: list.join(", ") })
        }
    }
}

/// The game a game command is about: the one named, or the caller's only active game in
/// this channel.
pub fn game(service: &Service, caller: &Caller, text: Option<&str>) -> Result<GameRecord, Refusal> {
    match text.filter(|text| !text.trim().is_empty()) {
        Some(text) => named(service, text),
        None => only_here(caller, records_of(service, caller.user.id, Standing::Active)?, "game", Refusal::NoGameHere),
    }
}

/// The game a looking command (`/board`, `/history`, `/legal`) is about: as [`game`],
/// falling back on the caller's latest finished game in this channel, so the record of a
/// game just over is one command away.
pub fn viewed(service: &Service, caller: &Caller, text: Option<&str>) -> Result<GameRecord, Refusal> {
    match game(service, caller, text) {
        Err(Refusal::NoGameHere(hint)) => {
            let over = records_of(service, caller.user.id, Standing::Over)?;
            over.into_iter()
                .filter(|record| record.channel == caller.channel)
                .max_by_key(|record| record.id)
                .ok_or(Refusal::NoGameHere(hint))
        }
        other => other,
    }
}

/// Which challenges a challenge command may default to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Sent {
    /// Challenges addressed to the caller (accept, decline).
    ToCaller,
    /// Challenges the caller sent (withdraw).
    ByCaller,
}

/// The challenge a challenge command is about: the one named, or the caller's only
/// pending one (sent or received, as `sent` says) in this channel.
pub fn challenge(service: &Service, caller: &Caller, text: Option<&str>, sent: Sent) -> Result<GameRecord, Refusal> {
    if let Some(text) = text.filter(|text| !text.trim().is_empty()) {
        return named(service, text);
    }
    let me = caller.user.id;
    let mut pending = records_of(service, me, Standing::Pending)?;
    pending.retain(|record| match sent {
        Sent::ToCaller => record.opponent == me,
        Sent::ByCaller => record.challenger == me,
    });
    only_here(caller, pending, "challenge", Refusal::NoChallengeHere)
}

/// Replayed positions by game, each with the record version it belongs to, so a stale one
/// is never used.
#[derive(Debug)]
pub struct PositionCache {
    capacity: usize,
    map: Mutex<HashMap<GameId, (u64, AnyGame)>>,
}

impl PositionCache {
    pub fn new(capacity: usize) -> PositionCache {
        PositionCache { capacity, map: Mutex::new(HashMap::new()) }
    }

    fn get(&self, id: GameId, version: u64) -> Option<AnyGame> {
        let map = self.map.lock().unwrap_or_else(PoisonError::into_inner);
        map.get(&id).filter(|(v, _)| *v == version).map(|(_, game)| game.clone())
    }

    /// Keeps the position unless a newer version is already kept.
    pub fn put(&self, id: GameId, version: u64, game: &AnyGame) {
        let mut map = self.map.lock().unwrap_or_else(PoisonError::into_inner);
        if map.get(&id).is_some_and(|(v, _)| *v > version) {
            return;
        }
        if map.len() >= self.capacity && !map.contains_key(&id) {
            // Dropping everything is crude but bounded; a replay is the only cost.
            map.clear();
        }
        map.insert(id, (version, game.clone()));
    }
}

/// The position of an accepted game (the start position for a challenge).
pub fn position(service: &Service, record: &GameRecord) -> Result<AnyGame, Refusal> {
    if let Some(game) = service.positions.get(record.id, record.version) {
        return Ok(game);
    }
    let kind = record.kind().ok_or_else(|| Refusal::BrokenRecord(format!("unknown game `{}`", record.game)))?;
    let replay = AnyGame::replay(kind, &record.options, &record.turns)?;
    if let Some(error) = replay.error {
        return Err(Refusal::BrokenRecord(error.to_string()));
    }
    service.positions.put(record.id, record.version, &replay.game);
    Ok(replay.game)
}
