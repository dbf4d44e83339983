//! Tournaments in the store, beside the games ([`Tournaments`]): a view over a
//! [`Store`]'s backend, so that the store's own methods stay about game records.
//!
//! Every change of a tournament is one [`Batch`] that expects the tournament's stored
//! bytes to be those it was computed from: the games a start or a Swiss round creates
//! (their ids taken from the game counter, which the batch also expects) are written
//! with it or not at all, and of two processes pairing one round on a shared database
//! one writes and the other, reading again, finds it paired.

mod keys;
mod record;

use std::sync::Arc;

use stonemate_tournament::GameRef;

pub use record::{Joined, TournamentRecord, TournamentStatus};

use super::backend::{Backend, Batch, KeyRange, put_notices};
use super::error::StoreError;
use super::keys as game_keys;
use super::notice::Queued;
use super::record::GameRecord;
use super::records::{Store, Stored, retrying};
use crate::clock::Timestamp;
use crate::ids::{GameId, GuildId, TournamentId};

pub(super) use keys::{LAST_TOURNAMENT, LISTED, STARTS, TOURNAMENT, changes as record_changes, decode, listed_entry};

/// The last tournament id, as stored under [`LAST_TOURNAMENT`].
pub(super) fn last_id(stored: &[u8]) -> Result<u32, StoreError> {
    Ok(keys::next_id(Some(stored))?.0 - 1)
}

/// The bytes a tournament was read from ([`Tournaments::read`]): a change made from it
/// expects the database still to hold them.
#[derive(Clone, PartialEq, Eq)]
pub struct StoredTournament(Arc<[u8]>);

impl std::fmt::Debug for StoredTournament {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "StoredTournament({} bytes)", self.0.len())
    }
}

/// One change of a tournament, written all at once ([`Tournaments::write`]).
pub struct Change<'a> {
    /// The tournament as read, and the bytes it was read from.
    pub from: (&'a TournamentRecord, &'a StoredTournament),
    /// The tournament as it is to be (its version is set here).
    pub to: TournamentRecord,
    /// New games of the tournament, each for its game: their ids are given here, in
    /// order, and written into [`TournamentRecord::games`].
    pub new_games: Vec<(GameRef, GameRecord)>,
    /// Games changed with it (forfeits, aborts): each as read, and as it is to be (its
    /// version one more).
    pub changed: Vec<(&'a GameRecord, &'a Stored, GameRecord)>,
    /// Notices put in the outbox with it, made from the tournament as written (its new
    /// games' ids given), so that they can name the games.
    pub notices: &'a dyn Fn(&TournamentRecord) -> Vec<Queued>,
}

impl std::fmt::Debug for Change<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Change")
            .field("from", &self.from.0.id)
            .field("new_games", &self.new_games.len())
            .field("changed", &self.changed.len())
            .finish_non_exhaustive()
    }
}

/// The tournaments of one [`Store`].
#[derive(Debug)]
pub struct Tournaments<B: ?Sized = dyn Backend> {
    store: Store<B>,
}

impl<B: Backend + ?Sized> Tournaments<B> {
    /// The tournaments kept beside `store`'s games.
    #[must_use]
    pub fn of(store: &Store<B>) -> Tournaments<B> {
        Tournaments { store: store.clone() }
    }

    fn backend(&self) -> &B {
        self.store.backend().as_ref()
    }

    /// Stores a new tournament under the next free id, at version 1; returns it as stored.
    pub fn create(&self, record: TournamentRecord) -> Result<TournamentRecord, StoreError> {
        retrying(|| {
            let stored = self.backend().get(LAST_TOURNAMENT)?;
            let mut record = record.clone();
            record.id = keys::next_id(stored.as_deref())?;
            record.version = 1;
            let mut batch = Batch::new();
            batch.expect(LAST_TOURNAMENT, stored).put(LAST_TOURNAMENT, record.id.0.to_be_bytes());
            batch.writes.extend(keys::changes(None, &record)?);
            self.store.commit(&batch)?;
            Ok(record)
        })
    }

    /// The tournament `id`, with the bytes it was read from.
    pub fn read(&self, id: TournamentId) -> Result<Option<(TournamentRecord, StoredTournament)>, StoreError> {
        let Some(bytes) = self.backend().get(&keys::tournament(id))? else { return Ok(None) };
        Ok(Some((keys::decode(&bytes)?, StoredTournament(bytes.into()))))
    }

    /// The tournament `id`.
    pub fn load(&self, id: TournamentId) -> Result<Option<TournamentRecord>, StoreError> {
        Ok(self.read(id)?.map(|(record, _)| record))
    }

    /// The tournaments of one server with their status, by id, from its index.
    pub fn in_server(&self, guild: GuildId) -> Result<Vec<(TournamentId, TournamentStatus)>, StoreError> {
        let entries = self.backend().scan(&KeyRange::prefix(&keys::listed_prefix(Some(guild))))?;
        Ok(entries.iter().filter_map(|(key, value)| keys::listed_entry(key, value)).collect())
    }

    /// Every running tournament of every server: what the start-up step brings up to date.
    pub fn running(&self) -> Result<Vec<TournamentId>, StoreError> {
        let entries = self.backend().scan(&KeyRange::prefix(&keys::listed_prefix(None)))?;
        let running = entries.iter().filter_map(|(key, value)| keys::listed_entry(key, value));
        Ok(running.filter(|(_, status)| *status == TournamentStatus::Running).map(|(id, _)| id).collect())
    }

    /// Open tournaments that start by themselves at or before `until`, earliest first.
    pub fn starting(&self, until: Timestamp) -> Result<Vec<TournamentId>, StoreError> {
        let (start, last) = keys::starts_until(until);
        let entries = self.backend().scan(&KeyRange::through(start, &last))?;
        Ok(entries.iter().filter_map(|(key, _)| keys::id_at_end(key)).collect())
    }

    /// Writes `change` all at once, or nothing: [`StoreError::Conflict`] if the tournament,
    /// a changed game or the game counter is no longer what it was read as. Returns the
    /// tournament as written, with its new games' ids.
    pub fn write(&self, change: Change<'_>) -> Result<(TournamentRecord, Vec<GameRecord>), StoreError> {
        let Change { from: (old, stored), mut to, new_games, changed, notices } = change;
        if old.id != to.id {
            return Err(StoreError::Conflict);
        }
        to.version = old.version + 1;
        let mut batch = Batch::new();
        batch.expect(keys::tournament(old.id), Some(stored.0.to_vec()));
        for (before, bytes, after) in &changed {
            if before.id != after.id || before.version + 1 != after.version {
                return Err(StoreError::Conflict);
            }
            batch.expect(game_keys::game(before.id), Some(bytes.0.to_vec()));
            batch.writes.extend(game_keys::changes(Some(before), after)?);
        }
        let created = self.give_ids(&mut batch, &mut to, new_games)?;
        for record in &created {
            batch.writes.extend(game_keys::changes(None, record)?);
        }
        batch.writes.extend(keys::changes(Some(old), &to)?);
        put_notices(self.backend(), &mut batch, &notices(&to))?;
        self.store.commit(&batch)?;
        Ok((to, created))
    }

    /// Gives `games` the next game ids (the batch expects the counter as read, and moves
    /// it on), and puts them into the tournament's map.
    fn give_ids(
        &self,
        batch: &mut Batch,
        to: &mut TournamentRecord,
        games: Vec<(GameRef, GameRecord)>,
    ) -> Result<Vec<GameRecord>, StoreError> {
        if games.is_empty() {
            return Ok(Vec::new());
        }
        let stored = self.backend().get(game_keys::NEXT_ID)?;
        let mut next = game_keys::next_id(stored.as_deref())?.0;
        batch.expect(game_keys::NEXT_ID, stored);
        let mut created = Vec::with_capacity(games.len());
        for (game, mut record) in games {
            record.id = GameId(next);
            record.version = 1;
            if to.games.len() <= game.index() {
                to.games.resize(game.index() + 1, GameId(0));
            }
            to.games[game.index()] = record.id;
            created.push(record);
            next = next.checked_add(1).ok_or_else(|| StoreError::Database("out of game ids".into()))?;
        }
        batch.put(game_keys::NEXT_ID, (next - 1).to_be_bytes());
        Ok(created)
    }

    /// Removes an open tournament (cancelled before its start): the record and its index
    /// entries, if it is still as read.
    pub fn remove(&self, (old, stored): (&TournamentRecord, &StoredTournament)) -> Result<(), StoreError> {
        let mut batch = Batch::new();
        batch.expect(keys::tournament(old.id), Some(stored.0.to_vec()));
        for (key, _) in keys::index(old) {
            batch.delete(key);
        }
        batch.delete(keys::tournament(old.id));
        self.store.commit(&batch)
    }

    /// Remembers `message` as the tournament's standings message (the one the next
    /// standings edit), and removes the delivered `notice` from the outbox, in one write:
    /// a crash between the two neither forgets the message nor posts the standings twice.
    /// A tournament removed meanwhile only loses the notice.
    pub fn remember_standings(&self, id: TournamentId, message: u64, notice: u64) -> Result<(), StoreError> {
        retrying(|| {
            let mut batch = Batch::new();
            batch.delete(game_keys::notice(notice));
            if let Some((old, stored)) = self.read(id)? {
                let to = TournamentRecord { standings_message: Some(message), version: old.version + 1, ..old.clone() };
                batch.expect(keys::tournament(id), Some(stored.0.to_vec()));
                batch.writes.extend(keys::changes(Some(&old), &to)?);
            }
            self.store.commit(&batch)
        })
    }
}
