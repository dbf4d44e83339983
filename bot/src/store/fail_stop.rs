//! Fail-stop over any [`Backend`], as PostgreSQL does since its fsync fix: after the
//! first storage failure (a write that may not be on disk, a read the database could not
//! do) every later call, reads included, is refused with [`StoreError::Stopped`].
//!
//! sled has no rollback: after a failed write its in-memory tree may already hold the
//! change while the disk does not, so nothing read from it afterwards can be trusted. The
//! process must stop and let its supervisor restart it from what is on disk; the service
//! asks [`FailStop::failure`] after each reply and exits when it is set.

use std::sync::{Arc, OnceLock};

use super::backend::{Backend, Batch, Entries, KeyRange};
use super::error::StoreError;

/// A backend that stops for good at its first storage failure.
#[derive(Debug)]
pub struct FailStop {
    inner: Arc<dyn Backend>,
    /// The first failure, for the log. Never cleared.
    failure: OnceLock<String>,
}

impl FailStop {
    /// Guards `inner`.
    pub fn new(inner: Arc<dyn Backend>) -> FailStop {
        FailStop { inner, failure: OnceLock::new() }
    }

    /// What stopped the store, if it has stopped.
    pub fn failure(&self) -> Option<&str> {
        self.failure.get().map(String::as_str)
    }

    /// Runs `call` on the inner backend unless stopped; stops at a storage failure.
    fn guard<T>(&self, call: impl FnOnce(&dyn Backend) -> Result<T, StoreError>) -> Result<T, StoreError> {
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

impl Backend for FailStop {
    fn get(&self, key: &[u8]) -> Result<Option<Vec<u8>>, StoreError> {
        self.guard(|inner| inner.get(key))
    }

    fn scan(&self, range: &KeyRange) -> Result<Entries, StoreError> {
        self.guard(|inner| inner.scan(range))
    }

    fn apply(&self, batch: &Batch) -> Result<(), StoreError> {
        self.guard(|inner| inner.apply(batch))
    }

    fn next_id(&self) -> Result<u64, StoreError> {
        self.guard(|inner| inner.next_id())
    }

    fn flush(&self) -> Result<(), StoreError> {
        self.guard(|inner| inner.flush())
    }

    fn due_notices(&self, now: crate::clock::Timestamp, limit: usize) -> Result<Entries, StoreError> {
        self.guard(|inner| inner.due_notices(now, limit))
    }
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::{AtomicBool, Ordering};

    use super::*;
    use crate::clock::Timestamp;
    use crate::ids::{GameId, UserId};
    use crate::store::{Memory, MemoryStore, Store, UserRecord};

    /// Fails its next write on command the way sled does: the change is applied in memory,
    /// then making it durable fails.
    #[derive(Debug, Default)]
    struct Flaky {
        memory: Memory,
        fail_next: Arc<AtomicBool>,
    }

    impl Backend for Flaky {
        fn get(&self, key: &[u8]) -> Result<Option<Vec<u8>>, StoreError> {
            self.memory.get(key)
        }
        fn scan(&self, range: &KeyRange) -> Result<Entries, StoreError> {
            self.memory.scan(range)
        }
        fn apply(&self, batch: &Batch) -> Result<(), StoreError> {
            self.memory.apply(batch)
        }
        fn next_id(&self) -> Result<u64, StoreError> {
            self.memory.next_id()
        }
        fn flush(&self) -> Result<(), StoreError> {
            match self.fail_next.swap(false, Ordering::SeqCst) {
                true => Err(StoreError::Unsure("injected: writing to disk failed".into())),
                false => Ok(()),
            }
        }
    }

    /// A store over `flaky` behind fail-stop, as the service keeps it.
    fn guarded(flaky: Flaky) -> (Store, Arc<FailStop>) {
        let fail_stop = Arc::new(FailStop::new(Arc::new(flaky)));
        (Store::from(fail_stop.clone()), fail_stop)
    }

    fn user(id: u64) -> UserRecord {
        UserRecord::new(UserId(id), format!("user{id}"))
    }

    #[test]
    fn after_a_failed_write_nothing_is_served_not_even_reads() {
        let flaky = Flaky::default();
        let arm = flaky.fail_next.clone();
        let (store, fail_stop) = guarded(flaky);
        store.save_user(&user(1)).unwrap();
        arm.store(true, Ordering::SeqCst);
        assert!(store.user(UserId(1)).unwrap().is_some());
        assert!(matches!(store.save_user(&user(2)), Err(StoreError::Unsure(_))));
        assert!(fail_stop.failure().is_some_and(|failure| failure.contains("injected")));
        // The inner store holds user 2 in memory; nothing of it may be served.
        assert!(matches!(store.user(UserId(2)), Err(StoreError::Stopped)));
        assert!(matches!(store.user(UserId(1)), Err(StoreError::Stopped)));
        assert!(matches!(store.dump(), Err(StoreError::Stopped)));
        assert!(matches!(store.save_user(&user(3)), Err(StoreError::Stopped)));
    }

    #[test]
    fn a_failed_backup_claim_stops_the_store() {
        let flaky = Flaky::default();
        flaky.fail_next.store(true, Ordering::SeqCst);
        let (store, _) = guarded(flaky);
        let (now, next) = (Timestamp(1_000), Timestamp(2_000));
        assert!(matches!(store.claim_backup(now, next), Err(StoreError::Unsure(_))));
        assert!(matches!(store.claim_backup(next, Timestamp(3_000)), Err(StoreError::Stopped)));
    }

    #[test]
    fn a_conflict_is_no_storage_failure() {
        let fail_stop = Arc::new(FailStop::new(MemoryStore::new().backend().clone()));
        let store = Store::from(fail_stop.clone());
        assert!(matches!(store.load(GameId(7)), Ok(None)));
        assert!(fail_stop.failure().is_none());
    }

    #[test]
    fn the_service_refuses_every_command_after_a_failed_write_and_shows_no_refused_turn() {
        use crate::clock::ManualClock;
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
        let id = service.handle(&alice, challenge).reply.about.unwrap();
        assert!(service.handle(&bob, Command::Accept { challenge: Some(id) }).reply.ok);
        arm.store(true, Ordering::SeqCst);
        let turn = service.handle(&bob, Command::Move { notation: "e5".into(), game: Some(id) }).reply;
        assert!(!turn.ok);
        assert!(turn.text().starts_with("storage unavailable, try again shortly: whether this was saved is unknown"));
        assert!(service.stopped().is_some());
        // The store holds the turn in memory; nothing may show it, and nothing is served.
        for command in [
            Command::Board { game: Some(id) },
            Command::Games { user: None, status: crate::service::GameStatus::Active, page: 1 },
        ] {
            let reply = service.handle(&alice, command).reply;
            assert_eq!((reply.ok, reply.text().as_str()), (false, "storage unavailable, try again shortly"));
        }
        let again = service.handle(&bob, Command::Move { notation: "e5".into(), game: Some(id) }).reply;
        assert_eq!(again.text(), "storage unavailable, try again shortly");
    }
}
