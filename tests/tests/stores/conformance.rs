//! The tests every store passes, each given the kind of store to open.

use std::sync::{Arc, Barrier};

use stonemate_bot::backup::Backups;
use stonemate_bot::clock::{Span, Timestamp};
use stonemate_bot::service::{ColorChoice, Command, GameId, GuildId, NotifyMode, Settings, UserId};
use stonemate_bot::store::{GameRecord, IndexEntry, Phase, Restore, Store, StoreError, UserRecord, check, export};
use stonemate_engine::GameKind;

use super::Kind;
use super::common::{HOME, Table, caller, games_of, in_server, mv, user};
pub use super::ratings::*;

/// A challenge record as the service makes it (id 1, version 1).
pub fn challenge_record() -> GameRecord {
    let table = Table::new();
    table.challenge("alice", "bob", "go", 3, "");
    table.record(GameId(1))
}

pub fn a_new_record_gets_the_next_id_at_version_1(kind: Kind) {
    let fresh = kind.open();
    let store = &fresh.store;
    for expected in 1..=3 {
        let mut record = challenge_record();
        record.id = GameId(77);
        record.version = 9;
        let stored = store.create(record).unwrap();
        assert_eq!((stored.id, stored.version), (GameId(expected), 1));
        assert_eq!(store.load(stored.id).unwrap(), Some(stored));
    }
    assert_eq!(store.load(GameId(4)).unwrap(), None);
}

pub fn a_stale_version_is_refused_and_nothing_is_written(kind: Kind) {
    let fresh = kind.open();
    let store = &fresh.store;
    let stored = store.create(challenge_record()).unwrap();
    let mut next = stored.clone();
    next.version += 1;
    next.phase = Phase::Finished;
    store.update_with(&next, &[], &[]).unwrap();
    let before = store.dump().unwrap();
    let mut stale = stored.clone();
    stale.version += 1;
    assert!(matches!(store.update_with(&stale, &[], &[]), Err(StoreError::Conflict)));
    let mut skipping = next.clone();
    skipping.version += 5;
    assert!(matches!(store.update_with(&skipping, &[], &[]), Err(StoreError::Conflict)));
    assert_eq!(store.dump().unwrap(), before);
    assert_eq!(store.load(GameId(1)).unwrap().unwrap().phase, Phase::Finished);
}

pub fn updating_a_missing_record_is_refused(kind: Kind) {
    let fresh = kind.open();
    let mut record = challenge_record();
    record.id = GameId(5);
    record.version = 2;
    assert!(matches!(fresh.store.update_with(&record, &[], &[]), Err(StoreError::Missing(GameId(5)))));
    assert!(fresh.store.dump().unwrap().is_empty());
}

pub fn indices_follow_the_record_in_the_same_write(kind: Kind) {
    // `fresh` keeps sled's directory until the end: the durable sync reopens its files.
    let fresh = kind.open();
    let table = Table::with(fresh.store, Settings::default());
    let id = table.go("alice", "bob", 1, "board=9x9");
    let store = table.service.store();
    assert_eq!(games_of(store, user("alice").id), [(id, Phase::Playing)]);
    // A one-day turn is reminded an hour before its deadline.
    let reminder = table.now() + Span::HOUR * 23;
    assert!(store.due(reminder - Span(1)).unwrap().is_empty());
    assert_eq!(store.due(reminder).unwrap(), [id]);
    table.ok("bob", Command::Resign { game: None });
    table.service.press(&caller("bob"), "resign:1");
    assert_eq!(games_of(store, user("bob").id), [(id, Phase::Finished)]);
    assert!(store.due(Timestamp(i64::MAX)).unwrap().is_empty(), "finished games have no deadline");
    assert!(games_of(store, UserId(12345)).is_empty());
}

pub fn the_player_index_is_kept_by_server(kind: Kind) {
    // `fresh` keeps sled's directory until the end: the durable sync reopens its files.
    let fresh = kind.open();
    let table = Table::with(fresh.store, Settings::default());
    let home = table.challenge("alice", "bob", "go", 3, "");
    let two = GuildId(2);
    let away = table.challenge_from(&in_server("alice", two), "bob");
    let store = table.service.store();
    let alice = user("alice").id;
    let entry = |id, guild| IndexEntry { id, phase: Phase::Challenge, guild: Some(guild), challenger: true };
    assert_eq!(store.entries_in(alice, Some(HOME)).unwrap(), [entry(home, HOME)]);
    assert_eq!(store.entries_in(alice, Some(two)).unwrap(), [entry(away, two)]);
    assert_eq!(store.entries_of(alice).unwrap(), [entry(home, HOME), entry(away, two)]);
    let bob = store.entries_of(user("bob").id).unwrap();
    assert!(bob.iter().all(|entry| !entry.challenger), "bob received both challenges");
    assert!(store.entries_in(alice, None).unwrap().is_empty());
}

pub fn user_settings_round_trip(kind: Kind) {
    let fresh = kind.open();
    let store = &fresh.store;
    assert_eq!(store.user(UserId(42)).unwrap(), None);
    let mut settings = UserRecord { notify: NotifyMode::Dm, ..UserRecord::new(UserId(42), "alice".into()) };
    store.save_user(&settings).unwrap();
    assert_eq!(store.user(UserId(42)).unwrap(), Some(settings.clone()));
    settings.notify = NotifyMode::Off;
    store.save_user(&settings).unwrap();
    assert_eq!(store.user(UserId(42)).unwrap(), Some(settings));
}

/// A short session through the service: a challenge, turns, settings, a draw offer.
fn session_dump(store: Store) -> Vec<(Vec<u8>, Vec<u8>)> {
    session(store).service.store().dump().unwrap()
}

fn session(store: Store) -> Table {
    let table = Table::with(store, Settings::default());
    let session: Vec<(&str, Command)> = vec![
        (
            "alice",
            Command::Challenge {
                opponent: Some(user("bob")),
                game: GameKind::Go,
                color: ColorChoice::Black,
                days: Some(2),
                options: Some("board=9x9".into()),
                level: stonemate_bot::service::Level::Medium,
            },
        ),
        ("bob", Command::Accept { challenge: None }),
        ("alice", mv("e5")),
        ("bob", Command::Notify { mode: Some(NotifyMode::Dm), digest: None, hour: None }),
        ("bob", mv("d4")),
        ("alice", Command::Draw { game: None }),
    ];
    for (who, command) in session {
        table.ok(who, command);
    }
    table
}

pub fn a_session_leaves_the_same_bytes_as_in_memory(kind: Kind) {
    let fresh = kind.open();
    let dump = session_dump(fresh.store);
    assert!(!dump.is_empty());
    assert_eq!(dump, session_dump(Kind::Memory.open().store));
}

pub fn of_two_writers_of_one_version_exactly_one_wins(kind: Kind) {
    let fresh = kind.open();
    let store: Arc<Store> = Arc::new(fresh.store);
    let stored = store.create(challenge_record()).unwrap();
    for round in 0..20 {
        let barrier = Arc::new(Barrier::new(2));
        let current = store.load(stored.id).unwrap().unwrap();
        let writers: Vec<_> = [Phase::Playing, Phase::Finished]
            .into_iter()
            .map(|phase| {
                let (store, barrier) = (store.clone(), barrier.clone());
                let mut next = current.clone();
                next.version += 1;
                next.phase = phase;
                std::thread::spawn(move || {
                    barrier.wait();
                    store.update_with(&next, &[], &[]).map(|()| phase)
                })
            })
            .collect();
        let results: Vec<_> = writers.into_iter().map(|writer| writer.join().unwrap()).collect();
        let won: Vec<Phase> = results.iter().filter_map(|result| result.as_ref().ok().copied()).collect();
        assert_eq!(won.len(), 1, "round {round}: {results:?}");
        assert!(results.iter().any(|result| matches!(result, Err(StoreError::Conflict))));
        let now = store.load(stored.id).unwrap().unwrap();
        assert_eq!((now.version, now.phase), (current.version + 1, won[0]));
    }
}

/// `stonemate import`'s write: an export of a session on one store, restored into
/// another, leaves the same bytes (records with their ids and versions, index, users, the
/// id counter), and the restored store goes on giving ids after the last one.
pub fn an_export_restores_to_the_same_bytes(kind: Kind) {
    let source = session(Kind::Memory.open().store);
    // An export moves games, not messages in flight: the outbox is sent first.
    source.service.deliver(|_| stonemate_bot::service::Delivery::Sent);
    let mut lines = Vec::new();
    export::export(source.service.store(), &mut lines).unwrap();
    let fresh = kind.open();
    assert_eq!(export::import(&fresh.store, lines.as_slice()).unwrap(), 1);
    assert_eq!(fresh.store.dump().unwrap(), source.service.store().dump().unwrap());
    assert_eq!(fresh.store.create(challenge_record()).unwrap().id, GameId(2));
}

pub fn restoring_into_a_store_with_games_is_refused(kind: Kind) {
    let fresh = kind.open();
    let store = &fresh.store;
    let stored = store.create(challenge_record()).unwrap();
    let before = store.dump().unwrap();
    let mut other = stored.clone();
    other.id = GameId(9);
    assert!(matches!(
        store.restore(Restore { games: vec![other], last_id: 9, ..Restore::default() }),
        Err(StoreError::NotEmpty)
    ));
    assert_eq!(store.dump().unwrap(), before);
}

/// The scheduled-export timer: due at once when never set, then claimed once per period,
/// by exactly one of several racing callers, and kept in a form the start-up check reads.
pub fn a_backup_is_claimed_once_per_period(kind: Kind) {
    let fresh = kind.open();
    let store = &fresh.store;
    let start = Timestamp(1_800_000_000_000);
    assert!(store.claim_backup(start, start + Span::HOUR).unwrap(), "never scheduled: due at once");
    assert!(!store.claim_backup(start, start + Span::HOUR).unwrap(), "claimed already");
    assert!(!store.claim_backup(start + Span::HOUR - Span(1), start + Span::HOUR * 2).unwrap(), "not yet due");
    for period in 1..=10 {
        let now = start + Span::HOUR * period;
        let barrier = Barrier::new(4);
        let wins: usize = std::thread::scope(|scope| {
            let racers: Vec<_> = (0..4)
                .map(|_| {
                    scope.spawn(|| {
                        barrier.wait();
                        usize::from(store.claim_backup(now, now + Span::HOUR).unwrap())
                    })
                })
                .collect();
            racers.into_iter().map(|racer| racer.join().unwrap()).sum()
        });
        assert_eq!(wins, 1, "period {period}: {wins} claims");
    }
    assert_eq!(check::check(store), Ok(0), "the schedule passes the start-up check");
}

/// A scheduled export of a session is a file `stonemate import` reads into an empty store
/// of the same kind, giving the same games (the export of both is the same text).
pub fn a_scheduled_export_imports_to_the_same_games(kind: Kind) {
    // `fresh` keeps sled's directory until the end.
    let fresh = kind.open();
    let source = session(fresh.store);
    let dir = tempfile::tempdir().unwrap();
    let backups = Backups::new(dir.path().to_path_buf(), Span::HOUR, 7);
    let store = source.service.store();
    let path = backups.run_if_due(store, source.now()).unwrap().expect("the first export is due at once");
    let restored = kind.open();
    let file = std::io::BufReader::new(std::fs::File::open(&path).unwrap());
    assert_eq!(export::import(&restored.store, file).unwrap(), 1);
    let text = |store: &Store| {
        let mut lines = Vec::new();
        export::export(store, &mut lines).unwrap();
        String::from_utf8(lines).unwrap()
    };
    assert_eq!(text(&restored.store), text(store));
    assert_eq!(std::fs::read_to_string(&path).unwrap(), text(store));
}
