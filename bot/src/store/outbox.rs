//! The notice outbox as every store keeps it: notices written in the same transaction as
//! the change that causes them ([`Store::update_with`](super::Store::update_with)),
//! claimed by a sender for a lease, then removed once delivered or rescheduled after a
//! failure. The store never reads a notice's body (the service encodes it); it keeps only
//! the time the notice is next due, so that claims pick the due ones, oldest first.
//!
//! **Marks without their own sync.** A claim, a reschedule and a removal change only the
//! bookkeeping of notices: if one is lost in a crash, a notice is sent again, which the
//! contract allows (a rare duplicate over a loss). So they are applied without a sync of
//! their own ([`Outbox::mark`]) and reach the disk with the next confirmed change (or
//! sled's own flush, within half a second): a delivered turn costs one sync, not three.
//!
//! A daily digest (`/notify digest:on`) is a notice no game change causes: it is written
//! with its user's record marking the day done ([`Outbox::enqueue_digest`]), so that a
//! restart neither loses a day's digest nor sends it twice.
//!
//! Reports (`r` game) remember, per game, that a channel refused the bot's notices: raised
//! once, taken once by the next reply about the game, then kept as shown so that it is
//! never reported again.

use super::backend::{Backend, Batch, KeyRange, put_notices};
use super::error::StoreError;
use super::keys;
use super::notice::Queued;
use super::record::UserRecord;
use super::records::{Store, retrying};
use crate::clock::Timestamp;
use crate::ids::{GameId, UserId};

/// The outbox and the reports of one [`Store`] ([`Store::outbox`]): a view, so that the
/// store's own methods stay about records.
#[derive(Debug)]
pub struct Outbox<'a, B: ?Sized = dyn Backend> {
    pub(super) store: &'a Store<B>,
}

impl<B: Backend + ?Sized> Store<B> {
    /// The outbox of notices and the channel reports ([`Outbox`]).
    pub fn outbox(&self) -> Outbox<'_, B> {
        Outbox { store: self }
    }
}

impl<B: Backend + ?Sized> Outbox<'_, B> {
    /// Puts notices in the outbox on their own (notices no record change causes).
    pub fn enqueue(&self, notices: &[Queued]) -> Result<(), StoreError> {
        let mut batch = Batch::new();
        put_notices(self.store.backend().as_ref(), &mut batch, notices)?;
        self.store.commit(&batch)
    }

    /// The users who asked for a daily digest (`/notify digest:on`), as stored.
    pub fn digest_readers(&self) -> Result<Vec<UserRecord>, StoreError> {
        let mut readers = Vec::new();
        for (_, value) in self.store.backend().scan(&KeyRange::prefix(&[keys::USER]))? {
            let user = keys::decode_user(&value)?;
            if user.digest.is_some() {
                readers.push(user);
            }
        }
        Ok(readers)
    }

    /// Puts `user`'s digest of `day` (days since 1970, UTC) in the outbox, `notices` (none
    /// on a day with nothing to tell), together with his record marking the day done, in
    /// one transaction checked against the record as read: of two writers (a restart, a
    /// second process, a `/notify` meanwhile) one writes the day's digest, once. `false`
    /// when the day was done already.
    pub fn enqueue_digest(&self, user: UserId, day: i64, notices: &[Queued]) -> Result<bool, StoreError> {
        let key = keys::user(user);
        retrying(|| {
            let Some(stored) = self.store.backend().get(&key)? else { return Ok(false) };
            let mut record = keys::decode_user(&stored)?;
            if record.digest.is_none() || record.digested.is_some_and(|done| done >= day) {
                return Ok(false);
            }
            record.digested = Some(day);
            let mut batch = Batch::new();
            batch.expect(key.clone(), Some(stored)).put(key.clone(), serde_json::to_vec(&record)?);
            put_notices(self.store.backend().as_ref(), &mut batch, notices)?;
            self.store.commit(&batch).map(|()| true)
        })
    }

    /// Takes up to `limit` notices due at `now`, oldest first, for a sender: each is due
    /// again only at `until` (its lease), so no other claim takes it meanwhile, in this
    /// process or another. Returned with `due` set to `until`.
    pub fn claim(&self, now: Timestamp, until: Timestamp, limit: usize) -> Result<Vec<Queued>, StoreError> {
        retrying(|| {
            let mut batch = Batch::new();
            let mut claimed = Vec::new();
            for (key, value) in self.store.backend().due_notices(now, limit)? {
                let notice = keys::decode_notice(&key, &value)?;
                // Another claim that took this notice first changed its due time.
                batch.expect(key.clone(), Some(value)).put(key, keys::notice_value(until, &notice.body));
                claimed.push(Queued { due: until, ..notice });
            }
            if !claimed.is_empty() {
                self.mark(&batch)?;
            }
            Ok(claimed)
        })
    }

    /// Writes back a claimed notice with its next due time and body (after a failure);
    /// `false` if it is no longer in the outbox.
    pub fn reschedule(&self, notice: &Queued) -> Result<bool, StoreError> {
        let key = keys::notice(notice.id);
        retrying(|| {
            let Some(stored) = self.store.backend().get(&key)? else { return Ok(false) };
            let mut batch = Batch::new();
            batch.expect(key.clone(), Some(stored)).put(key.clone(), keys::notice_value(notice.due, &notice.body));
            self.mark(&batch).map(|()| true)
        })
    }

    /// Removes a notice from the outbox: delivered, or given up.
    pub fn remove_notice(&self, id: u64) -> Result<(), StoreError> {
        self.mark(Batch::new().delete(keys::notice(id)))
    }

    /// Applies a change of the notices' bookkeeping without waiting for the disk: it is
    /// visible at once, and durable with the next sync (see the module documentation).
    fn mark(&self, batch: &Batch) -> Result<(), StoreError> {
        self.store.backend().apply(batch)
    }

    /// Remembers that `game`'s channel refused a notice, unless that is already known
    /// (pending or shown): each game's refusal is reported once.
    pub fn raise_report(&self, id: GameId) -> Result<(), StoreError> {
        let key = keys::report(id);
        if self.store.backend().get(&key)?.is_some() {
            return Ok(());
        }
        match self.store.commit(Batch::new().expect(key.clone(), None).put(key, keys::REPORT_PENDING)) {
            // Raised meanwhile by another caller: known, as wanted.
            Err(StoreError::Conflict) => Ok(()),
            other => other,
        }
    }

    /// Whether a raised report for `game` waits to be shown, without taking it: one read of
    /// the report's key, so that a reply about a game whose channel never refused anything
    /// (nearly every one) need not read the game's record to see who may be shown it.
    pub fn report_pending(&self, id: GameId) -> Result<bool, StoreError> {
        Ok(self.store.backend().get(&keys::report(id))?.as_deref() == Some(keys::REPORT_PENDING))
    }

    /// Whether a raised report for `game` waits to be shown; it is marked shown at once,
    /// so of two callers (or processes) one gets `true`, once.
    pub fn take_report(&self, id: GameId) -> Result<bool, StoreError> {
        let key = keys::report(id);
        let mut batch = Batch::new();
        batch.expect(key.clone(), Some(keys::REPORT_PENDING.to_vec())).put(key, keys::REPORT_SHOWN);
        match self.store.commit(&batch) {
            Ok(()) => Ok(true),
            // None raised, or shown already.
            Err(StoreError::Conflict) => Ok(false),
            Err(error) => Err(error),
        }
    }
}
