//! Finding the record a command is about (an id typed by the user, or the caller's only
//! game in this channel), and its position (replayed from the turns, cached by version).

use std::collections::HashMap;
use std::sync::{Mutex, PoisonError};

use stonemate_engine::AnyGame;

use super::Service;
use super::error::Refusal;
use super::types::{Caller, GameId};
use crate::store::{GameRecord, Side, Standing};

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

/// The record with this id, wherever it belongs: for the service's own work (reminders,
/// timeouts). Commands use [`named`].
pub fn load(service: &Service, id: GameId) -> Result<GameRecord, Refusal> {
    service.store.load(id)?.ok_or(Refusal::NoSuchGame(id))
}

/// Whether the caller may reach `record`: it belongs to his server. A record without a
/// server (started in a direct message) is reached by its two players only.
#[must_use]
pub fn visible(record: &GameRecord, caller: &Caller) -> bool {
    record.guild == caller.guild || (record.guild.is_none() && record.involves(caller.user.id))
}

/// The record named by `text`, if the caller may reach it; another server's record is
/// refused exactly like an id nobody has.
pub fn named(service: &Service, caller: &Caller, text: &str) -> Result<GameRecord, Refusal> {
    let id = parse_id(text)?;
    service.store.load(id)?.filter(|record| visible(record, caller)).ok_or(Refusal::NoSuchGame(id))
}

/// The records of `user` with this standing that the caller may reach (his server's, and
/// records without a server that are his own), by id.
pub fn records_of(
    service: &Service,
    caller: &Caller,
    user: super::UserId,
    standing: Standing,
) -> Result<Vec<GameRecord>, Refusal> {
    let mut entries = service.store.entries_in(user, caller.guild)?;
    if caller.guild.is_some() {
        entries.extend(service.store.entries_in(user, None)?);
    }
    entries.sort_by_key(|entry| entry.id);
    let mut records = Vec::new();
    for entry in entries.into_iter().filter(|entry| entry.standing == standing) {
        records.extend(service.store.load(entry.id)?.filter(|record| visible(record, caller)));
    }
    Ok(records)
}

/// A short line naming a record for lists: `#3 (go, alice vs bob)`.
pub fn label(record: &GameRecord) -> String {
    let [challenger, opponent] = record.names.each_ref().map(|name| super::text::name(name));
    format!("{} ({}, {challenger} vs {opponent})", record.id, record.game)
}

/// Picks the one record of `candidates` in the caller's channel, or, of several there,
/// the only one that `fits` the command; else says why not.
fn only_here(
    caller: &Caller,
    candidates: Vec<GameRecord>,
    option: &'static str,
    none: fn(String) -> Refusal,
    fits: &dyn Fn(&GameRecord) -> bool,
) -> Result<GameRecord, Refusal> {
    let (mut here, elsewhere): (Vec<_>, Vec<_>) =
        candidates.into_iter().partition(|record| record.channel == caller.channel);
    if here.len() > 1 {
        let mut fitting: Vec<GameRecord> = here.iter().filter(|record| fits(record)).cloned().collect();
        if fitting.len() == 1 {
            return Ok(fitting.remove(0));
        }
    }
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

/// Which of the caller's games a command without `game:` fits, when he has several in the
/// channel: the one he can act in now is picked without asking.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fit {
    /// Any game: with several, ask which one.
    Any,
    /// Games where the caller is to move (`/move`, `/drop`, `/pass`, `/legal`).
    ToMove,
    /// Games where the opponent is to move and his time has run out (`/claim`).
    Claimable,
    /// Games where the opponent is to move on a clock (`/extratime`).
    OpponentOnClock,
    /// Games where the opponent offered a draw (`/draw` accepts it).
    DrawOffered,
    /// Games where no turn has been played (`/abort`).
    Unplayed,
}

impl Fit {
    fn accepts(self, service: &Service, caller: &Caller, record: &GameRecord) -> bool {
        let me = caller.user.id;
        let Some(side) = record.side_of(me) else { return false };
        let to_move = || position(service, record).ok().and_then(|game| game.to_move()).map(Side::of);
        match self {
            Fit::Any => true,
            Fit::ToMove => to_move() == Some(side),
            Fit::Claimable => {
                record.clock.is_some_and(|clock| clock.deadline <= service.now()) && to_move() == Some(side.other())
            }
            Fit::OpponentOnClock => record.clock.is_some() && to_move() == Some(side.other()),
            Fit::DrawOffered => record.draw_offer == Some(side.other()),
            Fit::Unplayed => record.turns.is_empty(),
        }
    }
}

/// The game a game command is about: the one named, or the caller's only active game in
/// this channel (or the only one there that fits).
pub fn game(service: &Service, caller: &Caller, text: Option<&str>) -> Result<GameRecord, Refusal> {
    fitting(service, caller, text, Fit::Any)
}

/// As [`game`], picking among several games in the channel the only one that `fit`s.
pub fn fitting(service: &Service, caller: &Caller, text: Option<&str>, fit: Fit) -> Result<GameRecord, Refusal> {
    match text.filter(|text| !text.trim().is_empty()) {
        Some(text) => named(service, caller, text),
        None => {
            let active = records_of(service, caller, caller.user.id, Standing::Active)?;
            let fits = |record: &GameRecord| fit.accepts(service, caller, record);
            only_here(caller, active, "game", Refusal::NoGameHere, &fits)
        }
    }
}

/// The game a looking command (`/board`, `/history`, `/legal`) is about: as [`game`],
/// falling back on the caller's latest finished game in this channel, so the record of a
/// game just over is one command away.
pub fn viewed(service: &Service, caller: &Caller, text: Option<&str>, fit: Fit) -> Result<GameRecord, Refusal> {
    match fitting(service, caller, text, fit) {
        Err(Refusal::NoGameHere(hint)) => {
            let over = records_of(service, caller, caller.user.id, Standing::Over)?;
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
        return named(service, caller, text);
    }
    let me = caller.user.id;
    let mut pending = records_of(service, caller, me, Standing::Pending)?;
    pending.retain(|record| match sent {
        Sent::ToCaller => record.opponent == me,
        Sent::ByCaller => record.challenger == me,
    });
    only_here(caller, pending, "challenge", Refusal::NoChallengeHere, &|_| true)
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
