//! Ratings in every store (issue 18): written in the same transaction as the record whose
//! result changes them, and refused with it when the rating moved since it was read.

use std::sync::{Arc, Barrier};

use stonemate_bot::service::{GameId, GuildId, UserId};
use stonemate_bot::store::{GameRecord, Phase, RatingChange, RatingRecord, Store, StoreError};
use stonemate_engine::GameKind;

use super::Kind;
use super::common::{HOME, Table, user};

/// Two stored records of alice (ids 1 and 2), as the service makes them.
fn two_records(store: &Store) -> [GameRecord; 2] {
    let table = Table::new();
    table.challenge("alice", "bob", "go", 3, "");
    let record = table.record(GameId(1));
    [store.create(record.clone()).unwrap(), store.create(record).unwrap()]
}

fn next(record: &GameRecord) -> GameRecord {
    GameRecord { version: record.version + 1, phase: Phase::Finished, ..record.clone() }
}

fn rating(name: &str, rating: f64, games: u32) -> RatingRecord {
    RatingRecord {
        user: user(name).id,
        kind: GameKind::Go,
        guild: HOME,
        rating,
        deviation: 290.3189,
        volatility: 0.059_999_675_372_338_14,
        games,
    }
}

pub fn ratings_are_written_with_the_result_by_server_and_game(kind: Kind) {
    let fresh = kind.open();
    let store = &fresh.store;
    let [first, _] = two_records(store);
    let (alice, bob) = (rating("alice", 1662.3, 1), rating("bob", 1337.7, 1));
    let changes = [RatingChange { before: None, after: alice }, RatingChange { before: None, after: bob }];
    store.update_with(&next(&first), &changes, &[]).unwrap();
    assert_eq!(store.load(first.id).unwrap().unwrap().phase, Phase::Finished);
    assert_eq!(store.rating(HOME, GameKind::Go, alice.user).unwrap(), Some(alice), "read back to the last bit");
    let mut both = vec![alice, bob];
    both.sort_by_key(|rating| rating.user);
    assert_eq!(store.ratings(HOME, GameKind::Go).unwrap(), both);
    assert!(store.ratings(HOME, GameKind::Chego).unwrap().is_empty());
    assert!(store.ratings(GuildId(2), GameKind::Go).unwrap().is_empty());
    assert_eq!(store.rating(HOME, GameKind::Go, UserId(5)).unwrap(), None);
    // The start-up check reads ratings as data, not as stray index entries.
    assert_eq!(stonemate_bot::store::check::check(store), Ok(2));
}

pub fn a_stale_rating_refuses_the_whole_write(kind: Kind) {
    let fresh = kind.open();
    let store = &fresh.store;
    let [first, second] = two_records(store);
    let alice = rating("alice", 1662.3, 1);
    store.update_with(&next(&first), &[RatingChange { before: None, after: alice }], &[]).unwrap();
    let before = store.dump().unwrap();
    // Made as if alice had no rating yet, or from a rating of another count of games.
    let stale = [
        RatingChange { before: None, after: rating("alice", 1400.0, 1) },
        RatingChange { before: Some(rating("alice", 1500.0, 3)), after: rating("alice", 1400.0, 4) },
    ];
    for change in stale {
        assert!(matches!(store.update_with(&next(&second), &[change], &[]), Err(StoreError::Conflict)), "{change:?}");
        assert_eq!(store.dump().unwrap(), before, "neither the record nor the rating was written");
    }
    // Made from the stored rating: written.
    let moved = rating("alice", 1700.0, 2);
    store.update_with(&next(&second), &[RatingChange { before: Some(alice), after: moved }], &[]).unwrap();
    assert_eq!(store.rating(HOME, GameKind::Go, alice.user).unwrap(), Some(moved));
}

pub fn of_two_results_moving_one_rating_at_once_one_wins(kind: Kind) {
    let fresh = kind.open();
    let store: Arc<Store> = Arc::new(fresh.store);
    let mut records = two_records(store.as_ref());
    let mut current = None;
    for round in 0..6 {
        let barrier = Arc::new(Barrier::new(2));
        let writers: Vec<_> = records
            .iter()
            .enumerate()
            .map(|(n, record)| {
                let (store, barrier, record) = (store.clone(), barrier.clone(), next(record));
                let games = current.map_or(1, |rating: RatingRecord| rating.games + 1);
                let change = RatingChange { before: current, after: rating("alice", 1500.0 + n as f64, games) };
                std::thread::spawn(move || {
                    barrier.wait();
                    store.update_with(&record, &[change], &[]).map(|()| n)
                })
            })
            .collect();
        let results: Vec<_> = writers.into_iter().map(|writer| writer.join().unwrap()).collect();
        let won: Vec<usize> = results.iter().filter_map(|result| result.as_ref().ok().copied()).collect();
        assert_eq!(won.len(), 1, "round {round}: {results:?}");
        assert!(results.iter().any(|result| matches!(result, Err(StoreError::Conflict))), "{results:?}");
        let stored = store.rating(HOME, GameKind::Go, user("alice").id).unwrap().unwrap();
        assert_eq!(stored.rating, 1500.0 + won[0] as f64, "the winner's rating, with its record");
        assert_eq!(store.load(records[won[0]].id).unwrap().unwrap().version, records[won[0]].version + 1);
        records[won[0]] = next(&records[won[0]]);
        current = Some(stored);
    }
}

/// An export carries the ratings, and an import writes them back in the same all-or-nothing
/// write as the games: the same bytes in every store.
pub fn an_export_keeps_the_ratings(kind: Kind) {
    let source = Table::new();
    // Rated: on a clock, both players began it.
    let id = source.go("alice", "bob", 3, "board=9x9");
    crate::service::ratings::opening(&source, id, "alice", "bob");
    source.ok("bob", stonemate_bot::service::Command::Resign { game: Some(id) });
    assert!(source.service.press(&super::common::caller("bob"), &format!("resign:{}", id.0)).reply.ok);
    // An export moves games, not messages in flight: the outbox is sent first.
    source.service.deliver(|_| stonemate_bot::service::Delivery::Sent);
    let before = source.service.store().dump().unwrap();
    assert!(before.iter().any(|(key, _)| key.first() == Some(&b'r')), "the game was rated");
    let mut lines = Vec::new();
    stonemate_bot::store::export::export(source.service.store(), &mut lines).unwrap();
    let fresh = kind.open();
    stonemate_bot::store::export::import(&fresh.store, lines.as_slice()).unwrap();
    assert_eq!(fresh.store.dump().unwrap(), before);
}
