//! The users part: what the service keeps about a user (the name to show, how he wants to
//! be told of his turns, his vacations), and the previews he cancelled lately.

use std::cell::OnceCell;
use std::num::NonZeroUsize;
use std::sync::{Mutex, PoisonError};

use lru::LruCache;

use super::games::short_name;
use super::types::{GameId, GuildId, NotifyMode, User, UserId};
use crate::service::error::Failure;
use crate::store::Store;
use crate::store::{GameRecord, ServerRecord, Servers, UserRecord, Vacation};

/// The users part.
#[derive(Debug)]
pub struct Users {
    store: Store,
    /// The turn previews players cancelled, by player and game: the version of the game
    /// they were shown at.
    cancelled: Mutex<LruCache<(UserId, GameId), u64>>,
}

/// Cancelled previews kept: a Cancel is pressed a moment before the Confirm it stops, so
/// the latest few thousand cover every player at once.
const CANCELLED: usize = 4096;

impl Users {
    pub fn new(store: Store) -> Users {
        let capacity = NonZeroUsize::new(CANCELLED).unwrap_or(NonZeroUsize::MIN);
        Users { store, cancelled: Mutex::new(LruCache::new(capacity)) }
    }

    /// Notes that `user` cancelled the turn picker of game `id` opened at `version`: its
    /// Confirm is refused from now on ([`Users::cancelled`]). The ids of a picker's buttons
    /// say nothing of a Cancel, and Discord removes them with it, but a stale Confirm can
    /// still be sent. Kept in memory only: a restart forgets it, as it forgets the picker's
    /// message.
    pub fn cancel_preview(&self, user: UserId, id: GameId, version: u64) {
        self.cancelled.lock().unwrap_or_else(PoisonError::into_inner).put((user, id), version);
    }

    /// Whether `user` cancelled the picker of game `id` opened at `version`.
    pub fn cancelled(&self, user: UserId, id: GameId, version: u64) -> bool {
        self.cancelled.lock().unwrap_or_else(PoisonError::into_inner).peek(&(user, id)) == Some(&version)
    }

    /// Forgets `user`'s Cancel in game `id`: he opened or moved a picker there again.
    pub fn reopen_preview(&self, user: UserId, id: GameId) {
        let mut cancelled = self.cancelled.lock().unwrap_or_else(PoisonError::into_inner);
        if !cancelled.is_empty() {
            cancelled.pop(&(user, id));
        }
    }

    /// What is kept about `user`, if anything.
    pub fn record(&self, user: UserId) -> Result<Option<UserRecord>, Failure> {
        Ok(self.store.user(user)?)
    }

    /// Stores what is kept about a user.
    pub fn save(&self, record: &UserRecord) -> Result<(), Failure> {
        Ok(self.store.save_user(record)?)
    }

    /// Whether server `guild` gives each game a thread (`/settings threads:on`).
    pub fn threads(&self, guild: GuildId) -> Result<bool, Failure> {
        Ok(Servers::of(&self.store).load(guild)?.is_some_and(|server| server.threads))
    }

    /// Sets whether server `guild` gives each game a thread.
    pub fn set_threads(&self, guild: GuildId, threads: bool) -> Result<(), Failure> {
        let servers = Servers::of(&self.store);
        let old = servers.load(guild)?.unwrap_or_else(|| ServerRecord::new(guild));
        Ok(servers.save(&ServerRecord { threads, ..old })?)
    }

    /// The display name last stored for a user.
    pub fn name(&self, user: UserId) -> Option<String> {
        self.store.user(user).ok().flatten().map(|record| record.name)
    }

    /// How `user` wants to be told; the default until he says otherwise is the channel.
    pub fn notify_mode(&self, user: UserId) -> NotifyMode {
        self.store.user(user).ok().flatten().map(|record| record.notify).unwrap_or_default()
    }

    /// Whether `user` wants a typed turn previewed before it is played (off until he says).
    pub fn confirms(&self, user: UserId) -> bool {
        self.store.user(user).ok().flatten().is_some_and(|record| record.confirm)
    }

    /// The user records of `record`'s two players, each read the first time a command
    /// asks for it and kept for the rest of the command.
    pub fn of(&self, record: &GameRecord) -> Players<'_> {
        Players { users: self, ids: [record.challenger(), record.opponent()], records: Default::default() }
    }

    /// Keeps the latest display name of a user who took part in something.
    pub fn remember(&self, user: &User) {
        let old = self.store.user(user.id).ok().flatten();
        let name = short_name(&user.name);
        if old.as_ref().is_some_and(|old| old.name == name) {
            return;
        }
        let record = match old {
            Some(old) => UserRecord { name, ..old },
            None => UserRecord::new(user.id, name),
        };
        // A name is for display only: failing to store it must not fail the command.
        let _ = self.store.save_user(&record);
    }
}

/// What a command knows of the two players of one game: their user records, read once
/// each, when first needed (how each is told of his turn, whether the mover previews
/// typed turns, their vacations), and handed down to every part that needs them instead
/// of each part reading them again. Made by [`Users::of`]; lives for one command.
#[derive(Debug)]
pub struct Players<'a> {
    users: &'a Users,
    ids: [UserId; 2],
    records: [OnceCell<Option<UserRecord>>; 2],
}

impl Players<'_> {
    /// What is kept about `user`: read once for a player of the game, each time for anyone
    /// else.
    fn with<T>(&self, user: UserId, read: impl FnOnce(Option<&UserRecord>) -> T) -> T {
        match self.ids.iter().position(|id| *id == user) {
            Some(seat) => read(self.records[seat].get_or_init(|| self.users.record(user).ok().flatten()).as_ref()),
            None => read(self.users.record(user).ok().flatten().as_ref()),
        }
    }

    /// How `user` wants to be told; the default until he says otherwise is the channel.
    pub fn notify_mode(&self, user: UserId) -> NotifyMode {
        self.with(user, |record| record.map(|record| record.notify).unwrap_or_default())
    }

    /// Whether `user` wants a typed turn previewed before it is played (off until he says).
    pub fn confirms(&self, user: UserId) -> bool {
        self.with(user, |record| record.is_some_and(|record| record.confirm))
    }

    /// The players' latest vacations, for the clocks.
    pub fn vacations(&self) -> Vec<Vacation> {
        self.ids.iter().filter_map(|user| self.with(*user, |record| record?.vacations.last().copied())).collect()
    }
}
