//! A notice as every store keeps it in its outbox ([`Queued`]): below the key layout
//! ([`super::keys`], which encodes it), the records ([`super::records`], whose changes
//! write notices) and the outbox ([`super::outbox`], which claims and removes them), so
//! that none of them depends on another for it.

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
