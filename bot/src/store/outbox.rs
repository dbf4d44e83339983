//! The notice outbox as every store keeps it: notices written in the same transaction as
//! the change that causes them ([`Store::update_with`](super::Store::update_with)),
//! claimed by a sender for a lease, then removed once delivered or rescheduled after a
//! failure. The store never reads a notice's body (the service encodes it); it keeps only
//! the time the notice is next due, so that claims pick the due ones, oldest first.
//!
//! Reports (`r` game) remember, per game, that a channel refused the bot's notices: raised
//! once, taken once by the next reply about the game, then kept as shown so that it is
//! never reported again.

use crate::clock::Timestamp;

/// A notice in the outbox: its id (given by the store, in the order notices were written),
/// when it is next due (a claim moves this to the end of its lease), and its body.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Queued {
    /// Given by the store, in the order notices were written.
    pub id: u64,
    /// When it is next due; a claim moves this to the end of its lease.
    pub due: Timestamp,
    /// The notice itself, as the service encoded it.
    pub body: Vec<u8>,
}

impl Queued {
    /// A notice to write, due at `due` (its id is given when it is written).
    #[must_use]
    pub fn new(due: Timestamp, body: Vec<u8>) -> Queued {
        Queued { id: 0, due, body }
    }
}
