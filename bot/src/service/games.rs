//! The games part: finding the record a command is about (an id typed by the user, or the
//! caller's only game in this channel) and opening it as a [`Loaded`] game, its position
//! replayed from the turns and cached by version; and [`Games::commit`], the one place a
//! change to a game is written, with its ratings, indexes and notices, returning what it
//! wrote.

use std::num::NonZeroUsize;
use std::ops::Deref;
use std::sync::{Arc, Mutex, PoisonError};

use lru::LruCache;
use stonemate_engine::AnyGame;

use super::error::{Failure, Refusal};
use super::loaded::Loaded;
use super::notices;
use super::options::keys;
use super::threads;
use super::types::{Caller, GameId, GuildId, Notice, UserId};
use crate::clock::{Clock, Timestamp};
use crate::service::handlers::challenge::refusal::ChallengeRefusal;
use crate::service::input::BadValue;
use crate::store::Store;
use crate::store::{GameRecord, IndexEntry, NOBODY, Phase, RatingChange, Stored};

/// Names longer than Discord's are cut before they are stored or shown.
pub const MAX_NAME: usize = 32;

/// A display name as stored: trimmed and at most [`MAX_NAME`] characters.
pub fn short_name(name: &str) -> String {
    name.trim().chars().take(MAX_NAME).collect()
}

/// Reads `12`, `#12` or ` # 12 `.
pub fn parse_id(text: &str) -> Result<GameId, Refusal> {
    let digits = text.trim().trim_start_matches('#').trim();
    digits.parse::<u32>().map(GameId).map_err(|_| BadValue::GameId(text.chars().take(40).collect()).into())
}

/// Whether the caller may reach `record`: it belongs to his server. A record without a
/// server (started in a direct message) is reached by its two players only.
#[must_use]
pub fn visible(record: &GameRecord, caller: &Caller) -> bool {
    record.guild() == caller.guild || (record.guild().is_none() && record.seats.involves(caller.user.id))
}

/// A short line naming a record for lists: `#3 (go, alice vs bob)`.
pub fn label(record: &GameRecord) -> String {
    let [challenger, opponent] =
        [&record.seats.challenger, &record.seats.opponent].map(|seat| super::text::name(&seat.name));
    format!("{} ({}, {challenger} vs {opponent})", record.id, record.kind.name())
}

/// The games a caller is asked to choose among: the first [`WHICH_ONE`], and how to see
/// the others, so that the question stays within a message.
fn listed(records: &[Read]) -> String {
    let mut list: Vec<String> = records.iter().take(WHICH_ONE).map(|read| label(read)).collect();
    if records.len() > WHICH_ONE {
        let more = records.len() - WHICH_ONE;
        list.push(format!("and {more} more (`{}` lists them all)", keys::Games::page.usage(1)));
    }
    list.join(", ")
}

/// How many games a "which one?" names at most.
const WHICH_ONE: usize = 15;

/// Picks the one record of `candidates` in the caller's channel, or, of several there,
/// the only one that `fits` the command; else says why not.
fn only_here(
    caller: &Caller,
    candidates: Vec<Read>,
    option: &'static str,
    none: fn(String) -> Refusal,
    fits: &dyn Fn(&GameRecord) -> bool,
) -> Result<Read, Refusal> {
    let (mut here, elsewhere): (Vec<_>, Vec<_>) =
        candidates.into_iter().partition(|record| record.is_in(caller.channel));
    if here.len() > 1 {
        let mut fitting: Vec<Read> = here.iter().filter(|record| fits(record)).cloned().collect();
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
        _ => Err(Refusal::WhichOne { option, list: listed(&here) }),
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
    /// Go games waiting for the players to agree on dead pieces (`/dead`).
    Counting,
    /// Games where the opponent is to move (`/conditional`).
    OpponentToMove,
}

impl Fit {
    fn accepts(self, games: &Games, caller: &Caller, record: &GameRecord) -> bool {
        let me = caller.user.id;
        let Some(side) = record.seats.side_of(me) else { return false };
        let to_move = || games.position(record).ok().and_then(|position| position.to_move());
        match self {
            Fit::Any => true,
            Fit::ToMove => to_move() == Some(side),
            Fit::Claimable => {
                record.clock.is_some_and(|clock| clock.deadline <= games.clock.now()) && to_move() == Some(side.other())
            }
            Fit::OpponentOnClock => record.clock.is_some() && to_move() == Some(side.other()),
            Fit::DrawOffered => record.pending.draw_offer == Some(side.other()),
            Fit::Unplayed => record.turns.is_empty(),
            Fit::Counting => record.pending.counting.is_some(),
            Fit::OpponentToMove => to_move() == Some(side.other()),
        }
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

/// Replayed positions by game, each with the record version it belongs to, so a stale one
/// is never used; the least recently used goes when it is full.
#[derive(Debug)]
pub struct PositionCache {
    map: Mutex<LruCache<GameId, (u64, AnyGame)>>,
}

impl PositionCache {
    pub fn new(capacity: usize) -> PositionCache {
        PositionCache { map: Mutex::new(LruCache::new(NonZeroUsize::new(capacity).unwrap_or(NonZeroUsize::MIN))) }
    }

    fn get(&self, id: GameId, version: u64) -> Option<AnyGame> {
        let mut map = self.map.lock().unwrap_or_else(PoisonError::into_inner);
        map.get(&id).filter(|(v, _)| *v == version).map(|(_, position)| position.clone())
    }

    /// Keeps the position unless a newer version is already kept.
    pub fn put(&self, id: GameId, version: u64, position: &AnyGame) {
        let mut map = self.map.lock().unwrap_or_else(PoisonError::into_inner);
        if map.peek(&id).is_some_and(|(v, _)| *v > version) {
            return;
        }
        map.put(id, (version, position.clone()));
    }
}

/// One game where a player is to move, as the Next-game lookup needs it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct ToPlay {
    id: GameId,
    guild: Option<GuildId>,
    /// The deadline of his turn (`None`: no clock).
    deadline: Option<Timestamp>,
}

/// The games where each player is to move, for the Next game button on the reply to every
/// turn: filled for a player from his active games the first time he is asked about, then
/// kept by every write of this process ([`Games::commit`], [`Games::create`]), so that the
/// lookup reads nothing however many games he plays. A game written by another process
/// sharing the store (shards on PostgreSQL) is seen here when it is next written here or
/// when the player lists his games; the button only shows a board, so a stale entry costs
/// one look.
#[derive(Debug)]
struct Waiting {
    players: Mutex<LruCache<UserId, Vec<ToPlay>>>,
}

/// Players whose waiting games are kept; one who falls out is read again when next asked.
const WAITING_PLAYERS: usize = 10_000;

impl Waiting {
    fn new() -> Waiting {
        let capacity = NonZeroUsize::new(WAITING_PLAYERS).unwrap_or(NonZeroUsize::MIN);
        Waiting { players: Mutex::new(LruCache::new(capacity)) }
    }

    /// Keeps what `game`, as just written, asks of its players (for those already kept).
    fn note(&self, game: &Loaded) {
        let record = &game.record;
        let mover = if record.phase == Phase::Playing { game.mover() } else { None };
        let mut players = self.players.lock().unwrap_or_else(PoisonError::into_inner);
        for user in [record.challenger(), record.opponent()] {
            let Some(games) = players.get_mut(&user) else { continue };
            games.retain(|waiting| waiting.id != record.id);
            if mover == Some(user) {
                games.push(ToPlay { id: record.id, guild: record.guild(), deadline: record.clock.map(|c| c.deadline) });
            }
        }
    }

    /// The games where `user` is to move, if they are kept.
    fn of(&self, user: UserId) -> Option<Vec<ToPlay>> {
        self.players.lock().unwrap_or_else(PoisonError::into_inner).get(&user).cloned()
    }

    /// Keeps `games` as all those where `user` is to move.
    fn fill(&self, user: UserId, games: Vec<ToPlay>) {
        self.players.lock().unwrap_or_else(PoisonError::into_inner).put(user, games);
    }
}

/// A record as the store read it, with the bytes it was read from: opened, the game
/// keeps them, so that its commit has the store check them instead of reading the record
/// again. Reads as its record.
#[derive(Debug, Clone)]
pub struct Read {
    /// The record.
    pub record: GameRecord,
    /// The bytes it was read from, for a change made from it.
    pub(crate) stored: Stored,
}

impl Deref for Read {
    type Target = GameRecord;

    fn deref(&self) -> &GameRecord {
        &self.record
    }
}

/// What a commit wrote: the new version of the game and the notices stored with it.
#[derive(Debug)]
pub struct Written {
    pub game: Loaded,
    pub notices: Vec<Notice>,
}

/// The games part: the store's records as loaded games, and the one way to write them.
#[derive(Debug)]
pub struct Games {
    store: Store,
    clock: Arc<dyn Clock>,
    positions: PositionCache,
    waiting: Waiting,
}

impl Games {
    pub fn new(store: Store, clock: Arc<dyn Clock>, cached_positions: usize) -> Games {
        Games { store, clock, positions: PositionCache::new(cached_positions), waiting: Waiting::new() }
    }

    /// The caller's most urgent game where he is to move, other than `current` (the game
    /// at hand, not read again), among those he may reach from here: least time left
    /// first, games without a clock after those with one, then by id. Reads nothing once
    /// his games are known ([`Waiting`]).
    pub fn next_to_play(&self, caller: &Caller, current: &Loaded) -> Result<Option<GameId>, Failure> {
        let (user, except) = (caller.user.id, current.id());
        let games = match self.waiting.of(user) {
            Some(games) => games,
            None => {
                let games = self.to_play(user, current)?;
                self.waiting.fill(user, games.clone());
                games
            }
        };
        let reachable = |game: &&ToPlay| game.id != except && (game.guild.is_none() || game.guild == caller.guild);
        let urgent =
            games.iter().filter(reachable).min_by_key(|game| (game.deadline.map_or(i64::MAX, |d| d.0), game.id));
        Ok(urgent.map(|game| game.id))
    }

    /// Every game where `user` is to move, read from the store: his active games, each
    /// opened (`current` as it is in hand).
    fn to_play(&self, user: UserId, current: &Loaded) -> Result<Vec<ToPlay>, Failure> {
        let mut games = Vec::new();
        for entry in self.store.entries_of(user)?.into_iter().filter(|entry| entry.phase == Phase::Playing) {
            let read;
            let game = match entry.id == current.id() {
                true => current,
                false => {
                    let Some((record, stored)) = self.store.read(entry.id)? else { continue };
                    read = self.loaded(Read { record, stored })?;
                    &read
                }
            };
            if game.record.phase == Phase::Playing && game.mover() == Some(user) {
                let deadline = game.record.clock.map(|clock| clock.deadline);
                games.push(ToPlay { id: game.id(), guild: game.record.guild(), deadline });
            }
        }
        Ok(games)
    }

    /// Teaches the Next-game lookup what `games`, just read, ask of their players: a
    /// listing brings it up to date also with games written by another process.
    pub fn saw(&self, games: &[Loaded]) {
        for game in games {
            self.waiting.note(game);
        }
    }

    /// The index entries of `user`'s records, in every server.
    pub fn entries_of(&self, user: UserId) -> Result<Vec<IndexEntry>, Failure> {
        Ok(self.store.entries_of(user)?)
    }

    /// The records whose deadline (a reminder, a timeout, an expiry) has come by `now`.
    pub fn due(&self, now: Timestamp) -> Result<Vec<GameId>, Failure> {
        Ok(self.store.due(now)?)
    }

    /// Stores a new record (a challenge, a game against the bot) under a new id.
    pub fn create(&self, record: GameRecord) -> Result<GameRecord, Failure> {
        let record = self.store.create(record)?;
        self.open_threads(std::slice::from_ref(&record))?;
        if record.phase == Phase::Playing {
            // A game against the bot starts at once: its player may be to move.
            let game = Loaded { position: self.position(&record)?, record, stored: None };
            self.waiting.note(&game);
            return Ok(game.record);
        }
        Ok(record)
    }

    /// Asks for the threads of `records`, games just stored playing (against the bot, a
    /// tournament's) where their server wants threads. Written after the games: a lost
    /// request leaves a game in its channel.
    pub fn open_threads(&self, records: &[GameRecord]) -> Result<(), Failure> {
        let now = self.clock.now();
        for record in records {
            let opening = threads::around(&self.store, None, record, Vec::new());
            if !opening.is_empty() {
                self.store.outbox().enqueue(&notices::queued(now, record, &opening))?;
            }
        }
        Ok(())
    }

    /// The record with this id, wherever it belongs: for the service's own work (reminders,
    /// timeouts). Commands use [`Games::named`].
    pub fn load(&self, id: GameId) -> Result<Read, Failure> {
        let (record, stored) = self.store.read(id)?.ok_or(Refusal::NoSuchGame(id))?;
        Ok(Read { record, stored })
    }

    /// The record named by `text`, if the caller may reach it; another server's record is
    /// refused exactly like an id nobody has.
    pub fn named(&self, caller: &Caller, id: GameId) -> Result<Read, Failure> {
        Some(self.load(id)?).filter(|read| visible(read, caller)).ok_or(Refusal::NoSuchGame(id).into())
    }

    /// The records of `user` in this phase that the caller may reach (his server's, and
    /// records without a server that are his own), by id.
    pub fn records_of(&self, caller: &Caller, user: UserId, phase: Phase) -> Result<Vec<Read>, Failure> {
        let mut entries = self.store.entries_in(user, caller.guild)?;
        if caller.guild.is_some() {
            entries.extend(self.store.entries_in(user, None)?);
        }
        entries.sort_by_key(|entry| entry.id);
        let mut records = Vec::new();
        for entry in entries.into_iter().filter(|entry| entry.phase == phase) {
            let read = self.store.read(entry.id)?.map(|(record, stored)| Read { record, stored });
            records.extend(read.filter(|read| visible(read, caller)));
        }
        Ok(records)
    }

    /// The game a game command is about: the one named, or the caller's only active game
    /// in this channel (or, of several there, the only one that `fit`s).
    pub fn fitting(&self, caller: &Caller, id: Option<GameId>, fit: Fit) -> Result<Read, Failure> {
        match id {
            Some(id) => self.named(caller, id),
            None => {
                let active = self.records_of(caller, caller.user.id, Phase::Playing)?;
                let fits = |record: &GameRecord| fit.accepts(self, caller, record);
                Ok(only_here(caller, active, keys::Board::game.name, Refusal::NoGameHere, &fits)?)
            }
        }
    }

    /// [`Games::fitting`], opened.
    pub fn open(&self, caller: &Caller, id: Option<GameId>, fit: Fit) -> Result<Loaded, Failure> {
        self.loaded(self.fitting(caller, id, fit)?)
    }

    /// The game a looking command (`/board`, `/history`, `/legal`) is about: as
    /// [`Games::open`], falling back on the caller's latest finished game in this
    /// channel, so the record of a game just over is one command away.
    pub fn open_viewed(&self, caller: &Caller, id: Option<GameId>, fit: Fit) -> Result<Loaded, Failure> {
        let record = match self.fitting(caller, id, fit) {
            Err(Failure::Refused { refusal: Refusal::NoGameHere(hint), .. }) => {
                let over = self.records_of(caller, caller.user.id, Phase::Finished)?;
                over.into_iter()
                    .filter(|record| record.is_in(caller.channel))
                    .max_by_key(|record| record.id)
                    .ok_or(Refusal::NoGameHere(hint))?
            }
            other => other?,
        };
        self.loaded(record)
    }

    /// The challenge a challenge command is about: the one named, or the caller's only
    /// pending one (sent or received, as `sent` says) in this channel.
    pub fn open_challenge(&self, caller: &Caller, id: Option<GameId>, sent: Sent) -> Result<Loaded, Failure> {
        if let Some(id) = id {
            return self.loaded(self.named(caller, id)?);
        }
        let me = caller.user.id;
        let mut pending = self.records_of(caller, me, Phase::Challenge)?;
        pending.retain(|record| match sent {
            Sent::ToCaller => record.opponent() == me,
            Sent::ByCaller => record.challenger() == me,
        });
        if sent == Sent::ToCaller {
            // Open challenges of others are addressed to everyone (the index lists them
            // under NOBODY).
            let open = self.records_of(caller, NOBODY, Phase::Challenge)?;
            pending.extend(open.into_iter().filter(|record| record.seats.is_open() && record.challenger() != me));
        }
        self.loaded(only_here(
            caller,
            pending,
            keys::Accept::challenge.name,
            |hint| ChallengeRefusal::NoneHere(hint).into(),
            &|_| true,
        )?)
    }

    /// The record with its position (and the bytes it was read from, for its commit).
    pub fn loaded(&self, read: Read) -> Result<Loaded, Failure> {
        let Read { record, stored } = read;
        Ok(Loaded { position: self.position(&record)?, record, stored: Some(stored) })
    }

    /// The position of an accepted game (the start position for a challenge).
    pub fn position(&self, record: &GameRecord) -> Result<AnyGame, Failure> {
        if let Some(position) = self.positions.get(record.id, record.version) {
            return Ok(position);
        }
        let replay = AnyGame::replay(record.kind, &record.options, &record.turns)?;
        if let Some(error) = replay.error {
            return Err(Refusal::BrokenRecord(error.to_string()).into());
        }
        self.positions.put(record.id, record.version, &replay.game);
        Ok(replay.game)
    }

    /// Writes the next version of `game`'s record: `change` applied to a copy, stored if
    /// nobody wrote the record since it was read (compare-and-swap on the version; else
    /// [`Failure::Conflict`] and nothing written), in one store transaction with the
    /// rating changes `rated` finds (given the new record and whether the old one was
    /// already over), the notices `notices` makes of the new version, and the record's
    /// player and deadline index entries, flushed before this returns; then keeps
    /// `game.position` as the position of the new version. `game.position` must be the
    /// position after the change (a turn is played on it before the commit).
    ///
    /// Returns what it wrote, so the notices a command answers with are exactly those
    /// stored.
    pub fn commit(
        &self,
        game: Loaded,
        change: impl FnOnce(&mut GameRecord),
        rated: impl FnOnce(&GameRecord, bool) -> Result<Vec<RatingChange>, Failure>,
        notices: impl FnOnce(&Loaded) -> Vec<Notice>,
    ) -> Result<Written, Failure> {
        let Loaded { record: old, position, stored } = game;
        let was_over = old.phase == Phase::Finished;
        let mut next = old.clone();
        next.version += 1;
        change(&mut next);
        // A result and the ratings it changes are one write.
        let ratings = rated(&next, was_over)?;
        let game = Loaded { record: next, position, stored: None };
        let notices = threads::around(&self.store, Some(&old), &game.record, notices(&game));
        let queued = notices::queued(self.clock.now(), &game.record, &notices);
        match stored {
            // The store checks that the record still holds what was read, not reading it again.
            Some(stored) => self.store.update_from((&old, &stored), &game.record, &ratings, &queued)?,
            None => self.store.update_with(&game.record, &ratings, &queued)?,
        }
        self.positions.put(game.id(), game.record.version, &game.position);
        self.waiting.note(&game);
        Ok(Written { game, notices })
    }
}
