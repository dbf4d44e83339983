//! The notice outbox on every store: written with the record or not at all, claimed for a
//! lease (by one claimer only), removed when delivered, rescheduled after a failure; and
//! the once-only report of a channel that refuses the bot.

use std::collections::BTreeSet;
use std::sync::{Arc, Barrier};

use stonemate_bot::clock::{Span, Timestamp};
use stonemate_bot::service::GameId;
use stonemate_bot::store::{GameRecord, Queued, Store, StoreError};

use super::Kind;
use super::common::Table;

const NOW: Timestamp = Timestamp(1_700_000_000_000);
const LEASE: Span = Span(60_000);

fn record() -> GameRecord {
    let table = Table::new();
    table.challenge("alice", "bob", "go", 3, "");
    table.record(GameId(1))
}

fn notice(text: &str) -> Queued {
    Queued::new(NOW, text.as_bytes().to_vec())
}

fn bodies(claimed: &[Queued]) -> Vec<String> {
    claimed.iter().map(|notice| String::from_utf8_lossy(&notice.body).into_owned()).collect()
}

fn claim_all(store: &Store, now: Timestamp) -> Vec<Queued> {
    store.outbox().claim(now, now + LEASE, 100).unwrap()
}

pub fn notices_are_written_with_their_record_or_not_at_all(kind: Kind) {
    let fresh = kind.open();
    let store = &fresh.store;
    let stored = store.create(record()).unwrap();
    let mut next = stored.clone();
    next.version += 1;
    store.update_with(&next, &[], &[notice("one"), notice("two")]).unwrap();
    let before = store.dump().unwrap();
    // A stale version: neither the record nor its notice is written.
    let mut stale = stored.clone();
    stale.version += 1;
    stale.turns.push("e5".into());
    assert!(matches!(store.update_with(&stale, &[], &[notice("three")]), Err(StoreError::Conflict)));
    assert_eq!(store.dump().unwrap(), before);
    let claimed = claim_all(store, NOW);
    assert_eq!(bodies(&claimed), ["one", "two"], "in the order written");
    assert!(claimed[0].id < claimed[1].id);
}

pub fn a_claimed_notice_is_not_claimed_again_until_its_lease_ends(kind: Kind) {
    let fresh = kind.open();
    let store = &fresh.store;
    store.outbox().enqueue(&[notice("ping")]).unwrap();
    let claimed = claim_all(store, NOW);
    assert_eq!(bodies(&claimed), ["ping"]);
    assert_eq!(claimed[0].due, NOW + LEASE);
    assert!(claim_all(store, NOW).is_empty(), "claimed");
    assert!(claim_all(store, NOW + LEASE - Span(1)).is_empty(), "still leased");
    assert_eq!(bodies(&claim_all(store, NOW + LEASE)), ["ping"], "a lease that ran out frees it");
}

pub fn claims_take_the_due_notices_oldest_first_up_to_the_limit(kind: Kind) {
    let fresh = kind.open();
    let store = &fresh.store;
    let later = Queued::new(NOW + Span(10), b"later".to_vec());
    store.outbox().enqueue(&[notice("a"), later, notice("c")]).unwrap();
    assert_eq!(bodies(&store.outbox().claim(NOW, NOW + LEASE, 1).unwrap()), ["a"]);
    assert_eq!(bodies(&store.outbox().claim(NOW, NOW + LEASE, 5).unwrap()), ["c"], "`later` is not due");
    assert_eq!(bodies(&store.outbox().claim(NOW + Span(10), NOW + LEASE, 5).unwrap()), ["later"]);
}

pub fn a_delivered_notice_is_gone_and_a_failed_one_waits_for_its_retry(kind: Kind) {
    let fresh = kind.open();
    let store = &fresh.store;
    store.outbox().enqueue(&[notice("sent"), notice("failed")]).unwrap();
    let [sent, failed] = <[Queued; 2]>::try_from(claim_all(store, NOW)).unwrap();
    store.outbox().remove_notice(sent.id).unwrap();
    let retry = Queued { due: NOW + Span(5_000), body: b"failed once".to_vec(), ..failed };
    assert!(store.outbox().reschedule(&retry).unwrap());
    let far = NOW + LEASE * 10;
    assert!(claim_all(store, NOW + Span(4_999)).is_empty(), "backing off");
    assert_eq!(claim_all(store, NOW + Span(5_000)), [Queued { due: NOW + Span(5_000) + LEASE, ..retry.clone() }]);
    store.outbox().remove_notice(retry.id).unwrap();
    assert!(claim_all(store, far).is_empty(), "delivered notices are never sent again");
    assert!(!store.outbox().reschedule(&retry).unwrap(), "a removed notice stays removed");
    assert!(claim_all(store, far).is_empty());
}

pub fn concurrent_claims_never_take_one_notice_twice(kind: Kind) {
    let fresh = kind.open();
    let store: Arc<Store> = Arc::new(fresh.store);
    let notices: Vec<Queued> = (0..40).map(|n| notice(&format!("n{n}"))).collect();
    store.outbox().enqueue(&notices).unwrap();
    let barrier = Arc::new(Barrier::new(4));
    let claimers: Vec<_> = (0..4)
        .map(|_| {
            let (store, barrier) = (store.clone(), barrier.clone());
            std::thread::spawn(move || {
                barrier.wait();
                let mut ids = Vec::new();
                loop {
                    let claimed = store.outbox().claim(NOW, NOW + LEASE, 3).unwrap();
                    if claimed.is_empty() {
                        return ids;
                    }
                    ids.extend(claimed.iter().map(|notice| notice.id));
                }
            })
        })
        .collect();
    let ids: Vec<u64> = claimers.into_iter().flat_map(|claimer| claimer.join().unwrap()).collect();
    let distinct: BTreeSet<u64> = ids.iter().copied().collect();
    assert_eq!((ids.len(), distinct.len()), (40, 40), "every notice claimed exactly once");
}

pub fn a_refused_channel_is_reported_once(kind: Kind) {
    let fresh = kind.open();
    let store = &fresh.store;
    let id = GameId(3);
    assert!(!store.outbox().take_report(id).unwrap(), "nothing raised");
    store.outbox().raise_report(id).unwrap();
    store.outbox().raise_report(id).unwrap();
    assert!(!store.outbox().take_report(GameId(4)).unwrap(), "another game");
    assert!(store.outbox().take_report(id).unwrap());
    assert!(!store.outbox().take_report(id).unwrap(), "shown once");
    store.outbox().raise_report(id).unwrap();
    assert!(!store.outbox().take_report(id).unwrap(), "once means once: a later refusal is not shown again");
}
