//! The users part: what the service keeps about a user (the name to show, how he wants to
//! be told of his turns, his vacations).

use super::Store;
use super::error::Refusal;
use super::games::short_name;
use super::types::{NotifyMode, User, UserId};
use crate::store::UserRecord;

/// The users part.
#[derive(Debug)]
pub struct Users {
    store: Store,
}

impl Users {
    pub fn new(store: Store) -> Users {
        Users { store }
    }

    /// What is kept about `user`, if anything.
    pub fn record(&self, user: UserId) -> Result<Option<UserRecord>, Refusal> {
        Ok(self.store.user(user)?)
    }

    /// Stores what is kept about a user.
    pub fn save(&self, record: &UserRecord) -> Result<(), Refusal> {
        Ok(self.store.save_user(record)?)
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
