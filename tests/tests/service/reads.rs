//! What one `/move` reads from the store: the game's record and each player's user record
//! are read once each and handed down from there, not read again by every part that
//! needs them (issue 25).

use std::collections::HashMap;
use std::sync::Mutex;

use stonemate_bot::service::Settings;
use stonemate_bot::store::{Backend, Batch, KeyRange, MemoryStore, StoreError};

use super::common::{Table, mv};

/// A memory store that counts how often each key is read (`get`), and how many scans of
/// each key space run.
#[derive(Debug, Default)]
struct Counting {
    inner: MemoryStore,
    gets: Mutex<HashMap<Vec<u8>, usize>>,
}

impl Counting {
    /// The reads so far of keys that start with `space` (`b'g'` for game records, `b'u'`
    /// for user records), key by key, fewest first.
    fn reads(&self, space: u8) -> Vec<usize> {
        let gets = self.gets.lock().unwrap();
        let mut counted: Vec<usize> =
            gets.iter().filter(|(key, _)| key.first() == Some(&space)).map(|(_, count)| *count).collect();
        counted.sort_unstable();
        counted
    }

    fn forget(&self) {
        self.gets.lock().unwrap().clear();
    }
}

impl Backend for Counting {
    fn get(&self, key: &[u8]) -> Result<Option<Vec<u8>>, StoreError> {
        *self.gets.lock().unwrap().entry(key.to_vec()).or_default() += 1;
        self.inner.backend().get(key)
    }
    fn scan(&self, range: &KeyRange) -> Result<Vec<(Vec<u8>, Vec<u8>)>, StoreError> {
        self.inner.backend().scan(range)
    }
    fn apply(&self, batch: &Batch) -> Result<(), StoreError> {
        self.inner.backend().apply(batch)
    }
    fn next_id(&self) -> Result<u64, StoreError> {
        self.inner.backend().next_id()
    }
    fn flush(&self) -> Result<(), StoreError> {
        self.inner.backend().flush()
    }
}

#[test]
fn a_move_reads_the_game_record_and_each_user_record_once() {
    let store = std::sync::Arc::new(Counting::default());
    let table = Table::with(store.clone(), Settings::default());
    table.go("alice", "bob", 3, "board=9x9");
    store.forget();
    table.ok("bob", mv("e5"));
    // The mover's (does he preview his turns? is he on vacation?) and the opponent's (how
    // is he told? is he on vacation?).
    assert_eq!(store.reads(b'u'), [1, 1], "reads per user record");
    // The game's record is read once, to open it (it was four times, then three): the
    // write checks the bytes that open read instead of reading them again, and a reply
    // looks for a refused channel's report without reading the record.
    assert_eq!(store.reads(b'g'), [1], "reads per game record");
}

/// A game lost on time reads each player's rating once (issue 27): the changes its
/// notices tell are the very ones its write stores, not found again by the commit.
#[test]
fn a_timeout_reads_each_rating_once_for_its_notices_and_its_write() {
    let store = std::sync::Arc::new(Counting::default());
    let table = Table::with(store.clone(), Settings::default());
    let id = table.go("alice", "bob", 1, "board=9x9");
    table.ok("bob", mv("e5"));
    table.ok("alice", mv("c7"));
    table.advance(stonemate_bot::clock::Span::days(1) + stonemate_bot::clock::Span::MINUTE);
    store.forget();
    let notices = table.service.tick();
    assert_eq!(table.record(id).phase, stonemate_bot::store::Phase::Finished);
    assert!(notices.iter().all(|notice| notice.text().ends_with("Ratings: alice 1662?, bob 1338?.")), "{notices:#?}");
    // One read of each to find the changes, one by the store's check as it writes them
    // (it was three: the notices found the changes once more on their own).
    assert_eq!(store.reads(b'r'), [2, 2], "reads per rating record");
    let stored = table.service.store().rating(
        super::common::HOME,
        stonemate_engine::GameKind::Go,
        super::common::user("alice").id,
    );
    assert!(stored.unwrap().is_some(), "the ratings told are written");
}

/// The Next game button on the reply to a turn (issue 38): looked up without reading the
/// player's other games, so a turn costs the same with 1 or 300 of them.
#[test]
fn a_turn_reads_no_other_game_of_the_player_however_many_he_plays() {
    let store = std::sync::Arc::new(Counting::default());
    let settings = Settings { render: |_| Vec::new(), max_active_games: 400, ..Settings::default() };
    let table = Table::with(store.clone(), settings);
    let id = table.go("carol", "alice", 3, "board=9x9");
    for opponent in 0..300 {
        table.go("alice", &format!("player{opponent}"), 3, "board=9x9");
    }
    // Her first turn since the start learns where she is to move; later ones read nothing
    // of it again.
    table.ok("alice", super::common::mv_in("e5", id));
    table.ok("carol", super::common::mv_in("d4", id));
    store.forget();
    table.ok("alice", super::common::mv_in("c3", id));
    assert_eq!(store.reads(b'g'), [1], "reads per game record");
}
