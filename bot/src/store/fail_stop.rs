//! Fail-stop over any [`GameStore`], as PostgreSQL does since its fsync fix: after the
//! first storage failure (a write that may not be on disk, a read the database could not
//! do) every later call, reads included, is refused with [`StoreError::Stopped`].
//!
//! sled has no rollback: after a failed write its in-memory tree may already hold the
//! change while the disk does not, so nothing read from it afterwards can be trusted. The
//! process must stop and let its supervisor restart it from what is on disk; the service
//! asks [`FailStop::failure`] after each reply and exits when it is set.

use std::sync::OnceLock;

use stonemate_engine::GameKind;

use super::rating::{RatingChange, RatingRecord};
use super::record::{GameRecord, UserRecord};
use super::{Dump, GameStore, IndexEntry, Queued, Restore, StoreError};
use crate::clock::Timestamp;
use crate::ids::{GameId, GuildId, UserId};

/// A store that stops for good at its first storage failure.
#[derive(Debug)]
pub struct FailStop {
    inner: Box<dyn GameStore>,
    /// The first failure, for the log. Never cleared.
    failure: OnceLock<String>,
}

impl FailStop {
    pub fn new(inner: Box<dyn GameStore>) -> FailStop {
        FailStop { inner, failure: OnceLock::new() }
    }

    /// What stopped the store, if it has stopped.
    pub fn failure(&self) -> Option<&str> {
        self.failure.get().map(String::as_str)
    }

    /// Runs `call` on the inner store unless stopped; stops at a storage failure.
    fn guard<T>(&self, call: impl FnOnce(&dyn GameStore) -> Result<T, StoreError>) -> Result<T, StoreError> {
        if self.failure.get().is_some() {
            return Err(StoreError::Stopped);
        }
        let result = call(self.inner.as_ref());
        if let Err(error) = &result
            && error.is_storage_failure()
        {
            let detail = error.to_string();
            tracing::error!(error = %detail, "storage failed: refusing everything from now on, and stopping");
            self.failure.get_or_init(|| detail);
        }
        result
    }
}

impl GameStore for FailStop {
    fn create(&self, record: GameRecord) -> Result<GameRecord, StoreError> {
        self.guard(|store| store.create(record))
    }

    fn load(&self, id: GameId) -> Result<Option<GameRecord>, StoreError> {
        self.guard(|store| store.load(id))
    }

    fn update_with(&self, record: &GameRecord, ratings: &[RatingChange], notices: &[Queued]) -> Result<(), StoreError> {
        self.guard(|store| store.update_with(record, ratings, notices))
    }

    fn rating(&self, guild: GuildId, game: GameKind, user: UserId) -> Result<Option<RatingRecord>, StoreError> {
        self.guard(|store| store.rating(guild, game, user))
    }

    fn ratings(&self, guild: GuildId, game: GameKind) -> Result<Vec<RatingRecord>, StoreError> {
        self.guard(|store| store.ratings(guild, game))
    }

    fn enqueue(&self, notices: &[Queued]) -> Result<(), StoreError> {
        self.guard(|store| store.enqueue(notices))
    }

    fn claim(&self, now: Timestamp, until: Timestamp, limit: usize) -> Result<Vec<Queued>, StoreError> {
        self.guard(|store| store.claim(now, until, limit))
    }

    fn reschedule(&self, notice: &Queued) -> Result<bool, StoreError> {
        self.guard(|store| store.reschedule(notice))
    }

    fn remove_notice(&self, id: u64) -> Result<(), StoreError> {
        self.guard(|store| store.remove_notice(id))
    }

    fn raise_report(&self, game: GameId) -> Result<(), StoreError> {
        self.guard(|store| store.raise_report(game))
    }

    fn take_report(&self, game: GameId) -> Result<bool, StoreError> {
        self.guard(|store| store.take_report(game))
    }

    fn entries_of(&self, user: UserId) -> Result<Vec<IndexEntry>, StoreError> {
        self.guard(|store| store.entries_of(user))
    }

    fn entries_in(&self, user: UserId, guild: Option<GuildId>) -> Result<Vec<IndexEntry>, StoreError> {
        self.guard(|store| store.entries_in(user, guild))
    }

    fn due(&self, until: Timestamp) -> Result<Vec<GameId>, StoreError> {
        self.guard(|store| store.due(until))
    }

    fn user(&self, id: UserId) -> Result<Option<UserRecord>, StoreError> {
        self.guard(|store| store.user(id))
    }

    fn save_user(&self, user: &UserRecord) -> Result<(), StoreError> {
        self.guard(|store| store.save_user(user))
    }

    fn dump(&self) -> Result<Dump, StoreError> {
        self.guard(|store| store.dump())
    }

    fn restore(&self, restored: Restore) -> Result<(), StoreError> {
        self.guard(|store| store.restore(restored))
    }

    fn claim_backup(&self, now: Timestamp, next: Timestamp) -> Result<bool, StoreError> {
        self.guard(|store| store.claim_backup(now, next))
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;
    use std::sync::atomic::{AtomicBool, Ordering};

    use super::*;
    use crate::store::MemoryStore;

    /// Fails its next write on command the way sled does: the change is applied in memory,
    /// then the write to disk fails.
    #[derive(Debug, Default)]
    struct Flaky {
        memory: MemoryStore,
        fail_next: Arc<AtomicBool>,
    }

    impl Flaky {
        fn failing(&self) -> Result<(), StoreError> {
            match self.fail_next.swap(false, Ordering::SeqCst) {
                true => Err(StoreError::Unsure("injected: writing to disk failed".into())),
                false => Ok(()),
            }
        }
    }

    impl GameStore for Flaky {
        fn create(&self, record: GameRecord) -> Result<GameRecord, StoreError> {
            let record = self.memory.create(record)?;
            self.failing().map(|()| record)
        }
        fn load(&self, id: GameId) -> Result<Option<GameRecord>, StoreError> {
            self.memory.load(id)
        }
        fn update_with(
            &self,
            record: &GameRecord,
            ratings: &[RatingChange],
            notices: &[Queued],
        ) -> Result<(), StoreError> {
            self.memory.update_with(record, ratings, notices)?;
            self.failing()
        }
        fn rating(&self, guild: GuildId, game: GameKind, user: UserId) -> Result<Option<RatingRecord>, StoreError> {
            self.memory.rating(guild, game, user)
        }
        fn ratings(&self, guild: GuildId, game: GameKind) -> Result<Vec<RatingRecord>, StoreError> {
            self.memory.ratings(guild, game)
        }

        fn enqueue(&self, notices: &[Queued]) -> Result<(), StoreError> {
            self.memory.enqueue(notices)?;
            self.failing()
        }
        fn claim(&self, now: Timestamp, until: Timestamp, limit: usize) -> Result<Vec<Queued>, StoreError> {
            self.memory.claim(now, until, limit)
        }
        fn reschedule(&self, notice: &Queued) -> Result<bool, StoreError> {
            self.memory.reschedule(notice)
        }
        fn remove_notice(&self, id: u64) -> Result<(), StoreError> {
            self.memory.remove_notice(id)
        }
        fn raise_report(&self, game: GameId) -> Result<(), StoreError> {
            self.memory.raise_report(game)
        }
        fn take_report(&self, game: GameId) -> Result<bool, StoreError> {
            self.memory.take_report(game)
        }
        fn entries_of(&self, user: UserId) -> Result<Vec<IndexEntry>, StoreError> {
            self.memory.entries_of(user)
        }
        fn entries_in(&self, user: UserId, guild: Option<GuildId>) -> Result<Vec<IndexEntry>, StoreError> {
            self.memory.entries_in(user, guild)
        }
        fn due(&self, until: Timestamp) -> Result<Vec<GameId>, StoreError> {
            self.memory.due(until)
        }
        fn user(&self, id: UserId) -> Result<Option<UserRecord>, StoreError> {
            self.memory.user(id)
        }
        fn restore(&self, restored: Restore) -> Result<(), StoreError> {
            self.memory.restore(restored)
        }
        fn save_user(&self, user: &UserRecord) -> Result<(), StoreError> {
            self.memory.save_user(user)?;
            self.failing()
        }
        fn dump(&self) -> Result<Dump, StoreError> {
            self.memory.dump()
        }
        fn claim_backup(&self, now: Timestamp, next: Timestamp) -> Result<bool, StoreError> {
            let claimed = self.memory.claim_backup(now, next)?;
            self.failing().map(|()| claimed)
        }
    }

    fn user(id: u64) -> UserRecord {
        UserRecord::new(UserId(id), format!("user{id}"))
    }

    #[test]
    fn after_a_failed_write_nothing_is_served_not_even_reads() {
        let flaky = Box::new(Flaky::default());
        flaky.save_user(&user(1)).unwrap();
        flaky.fail_next.store(true, Ordering::SeqCst);
        let store = FailStop::new(flaky);
        assert!(store.user(UserId(1)).unwrap().is_some());
        assert!(matches!(store.save_user(&user(2)), Err(StoreError::Unsure(_))));
        assert!(store.failure().is_some_and(|failure| failure.contains("injected")));
        // The inner store holds user 2 in memory; nothing of it may be served.
        assert!(matches!(store.user(UserId(2)), Err(StoreError::Stopped)));
        assert!(matches!(store.user(UserId(1)), Err(StoreError::Stopped)));
        assert!(matches!(store.dump(), Err(StoreError::Stopped)));
        assert!(matches!(store.save_user(&user(3)), Err(StoreError::Stopped)));
    }

    #[test]
    fn a_failed_backup_claim_stops_the_store() {
        let flaky = Box::new(Flaky::default());
        flaky.fail_next.store(true, Ordering::SeqCst);
        let store = FailStop::new(flaky);
        let (now, next) = (Timestamp(1_000), Timestamp(2_000));
        assert!(matches!(store.claim_backup(now, next), Err(StoreError::Unsure(_))));
        assert!(matches!(store.claim_backup(next, Timestamp(3_000)), Err(StoreError::Stopped)));
    }

    #[test]
    fn a_conflict_is_no_storage_failure() {
        let store = FailStop::new(Box::new(MemoryStore::new()));
        assert!(matches!(store.load(GameId(7)), Ok(None)));
        assert!(store.failure().is_none());
    }

    #[test]
    fn the_service_refuses_every_command_after_a_failed_write_and_shows_no_refused_turn() {
        use crate::clock::{ManualClock, Timestamp};
        use crate::service::{Caller, ChannelId, Command, GuildId, Service, Settings, User};
        use crate::store::ColorChoice;
        use stonemate_engine::GameKind;

        let flaky = Flaky::default();
        let arm = flaky.fail_next.clone();
        let clock = Arc::new(ManualClock::at(Timestamp(1_700_000_000_000)));
        let service = Service::new(flaky, clock, Settings::default());
        let caller = |id, name| Caller::new(User::new(id, name), ChannelId(1), Some(GuildId(1)));
        let (alice, bob) = (caller(1, "alice"), caller(2, "bob"));
        let challenge = Command::Challenge {
            opponent: Some(User::new(2, "bob")),
            game: GameKind::Go,
            color: ColorChoice::White,
            days: Some(0),
            options: Some("board=9x9".into()),
            level: crate::service::Level::Medium,
        };
        let game = service.handle(&alice, challenge).reply.game.unwrap();
        assert!(service.handle(&bob, Command::Accept { challenge: Some(game) }).reply.ok);
        arm.store(true, Ordering::SeqCst);
        let turn = service.handle(&bob, Command::Move { notation: "e5".into(), game: Some(game) }).reply;
        assert!(!turn.ok);
        assert!(turn.text.starts_with("storage unavailable, try again shortly: whether this was saved is unknown"));
        assert!(service.stopped().is_some());
        // The store holds the turn in memory; nothing may show it, and nothing is served.
        for command in [
            Command::Board { game: Some(game) },
            Command::Games { user: None, status: crate::service::GameStatus::Active, page: 1 },
        ] {
            let reply = service.handle(&alice, command).reply;
            assert_eq!((reply.ok, reply.text.as_str()), (false, "storage unavailable, try again shortly"));
        }
        let again = service.handle(&bob, Command::Move { notation: "e5".into(), game: Some(game) }).reply;
        assert_eq!(again.text, "storage unavailable, try again shortly");
    }
}
