//! The stores: compare-and-swap, indices kept with the record, sled and memory alike.

use std::sync::Arc;

use stonemate_bot::clock::{ManualClock, Span, Timestamp};
use stonemate_bot::service::{ColorChoice, Command, GameId, NotifyMode, Service, Settings, UserId};
use stonemate_bot::store::{GameStore, MemoryStore, Phase, SledStore, StoreError};
use stonemate_engine::GameKind;

use crate::common::{Table, caller, mv, user};

#[test]
fn the_service_is_shareable_between_threads() {
    fn shareable<T: Send + Sync>() {}
    shareable::<Service>();
    shareable::<SledStore>();
    shareable::<MemoryStore>();
}

#[test]
fn a_stale_version_is_refused_and_nothing_is_written() {
    let dir = tempfile::tempdir().unwrap();
    let stores: [Box<dyn GameStore>; 2] =
        [Box::new(MemoryStore::new()), Box::new(SledStore::open(dir.path()).unwrap())];
    for store in stores {
        let table_record = {
            let table = Table::new();
            table.challenge("alice", "bob", "go", 3, "");
            table.record(GameId(1))
        };
        let stored = store.create(table_record).unwrap();
        let mut next = stored.clone();
        next.version += 1;
        next.phase = Phase::Declined;
        store.update(&next).unwrap();
        let before = store.dump().unwrap();
        let mut stale = stored.clone();
        stale.version += 1;
        stale.phase = Phase::Withdrawn;
        assert!(matches!(store.update(&stale), Err(StoreError::Conflict)));
        let mut skipping = next.clone();
        skipping.version += 5;
        assert!(matches!(store.update(&skipping), Err(StoreError::Conflict)));
        assert_eq!(store.dump().unwrap(), before);
        assert_eq!(store.load(GameId(1)).unwrap().unwrap().phase, Phase::Declined);
    }
}

#[test]
fn indices_follow_the_record_in_the_same_write() {
    let table = Table::new();
    let id = table.go("alice", "bob", 1, "board=9x9");
    let store = table.service.store();
    assert_eq!(store.games_of(user("alice").id).unwrap(), [(id, Phase::Playing)]);
    let reminder = table.now() + Span::HOUR * 18;
    assert!(store.due(reminder - Span(1)).unwrap().is_empty());
    assert_eq!(store.due(reminder).unwrap(), [id]);
    table.ok("bob", Command::Resign { game: None });
    table.service.press(&caller("bob"), "resign:1");
    assert_eq!(store.games_of(user("bob").id).unwrap(), [(id, Phase::Finished)]);
    assert!(store.due(Timestamp(i64::MAX)).unwrap().is_empty(), "finished games have no deadline");
    assert!(store.games_of(UserId(12345)).unwrap().is_empty());
}

#[test]
fn sled_and_memory_stores_hold_the_same_bytes() {
    let dir = tempfile::tempdir().unwrap();
    let run = |store: Box<dyn Fn() -> Service>| {
        let service = store();
        let session: Vec<(&str, Command)> = vec![
            (
                "alice",
                Command::Challenge {
                    opponent: user("bob"),
                    game: GameKind::Go,
                    color: ColorChoice::Black,
                    days: Some(2),
                    options: Some("board=9x9".into()),
                    level: stonemate_bot::service::Level::Medium,
                },
            ),
            ("bob", Command::Accept { challenge: None }),
            ("alice", mv("e5")),
            ("bob", Command::Notify { mode: NotifyMode::Dm }),
            ("bob", mv("d4")),
            ("alice", Command::Draw { game: None }),
        ];
        for (who, command) in session {
            assert!(service.handle(&caller(who), command).reply.ok);
        }
        service.store().dump().unwrap()
    };
    let clock = || Arc::new(ManualClock::at(Timestamp(1_700_000_000_000)));
    let path = dir.path().to_owned();
    let sled = run(Box::new(move || Service::new(SledStore::open(&path).unwrap(), clock(), Settings::default())));
    let memory = run(Box::new(move || Service::new(MemoryStore::new(), clock(), Settings::default())));
    assert_eq!(sled, memory);
}
