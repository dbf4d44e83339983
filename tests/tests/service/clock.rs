//! Clocks: reminders at a quarter of the time left, timeouts told (never a silent loss),
//! and the deadline index surviving a restart.

use std::sync::Arc;

use stonemate_bot::clock::{ManualClock, Span, Timestamp};
use stonemate_bot::service::{ColorChoice, Command, NotifyMode, Service, Settings, Target};
use stonemate_bot::store::{Phase, SledStore};
use stonemate_engine::GameKind;

use crate::common::{GENERAL, Table, caller, mv, user};

#[test]
fn reminder_when_a_quarter_of_the_time_is_left_once() {
    let table = Table::new();
    table.go("alice", "bob", 4, "board=9x9");
    table.advance(Span::days(3) - Span(1));
    assert!(table.service.tick().is_empty(), "more than a quarter left");
    table.advance(Span(1));
    let notices = table.service.tick();
    let [reminder] = notices.as_slice() else { panic!("{notices:?}") };
    assert_eq!(reminder.mentions, [user("bob").id]);
    assert_eq!(reminder.text, "@bob: a quarter of your time is left in #1: 1d 0h.");
    assert!(table.service.tick().is_empty(), "reminded once");
}

#[test]
fn timeout_tells_the_waiting_player_and_nobody_loses_by_itself() {
    let table = Table::new();
    let id = table.go("alice", "bob", 1, "board=9x9");
    table.advance(Span::days(2));
    let notices = table.service.tick();
    let [told] = notices.as_slice() else { panic!("{notices:?}") };
    assert_eq!((told.target, told.mentions.as_slice()), (Target::Channel(GENERAL), [user("alice").id].as_slice()));
    assert!(told.text.contains("`/claim`"), "{}", told.text);
    assert!(table.service.tick().is_empty());
    assert_eq!(table.record(id).phase, Phase::Playing, "no automatic loss");
    // bob may still play; the clock starts again for alice.
    table.ok("bob", mv("e5"));
    assert_eq!(table.record(id).clock.unwrap().deadline, table.now() + Span::days(1));
}

#[test]
fn timeouts_reach_players_who_turned_pings_off_without_a_ping() {
    let table = Table::new();
    table.go("alice", "bob", 1, "board=9x9");
    table.ok("alice", Command::Notify { mode: NotifyMode::Off });
    table.advance(Span::days(2));
    let notices = table.service.tick();
    assert_eq!(notices.len(), 1);
    assert!(notices[0].mentions.is_empty());
}

#[test]
fn a_turn_restarts_the_clock_and_the_reminder() {
    let table = Table::new();
    let id = table.go("alice", "bob", 2, "board=9x9");
    table.advance(Span::days(1) + Span::HOUR * 13);
    assert_eq!(table.service.tick().len(), 1, "bob's reminder");
    table.ok("bob", mv("e5"));
    let clock = table.record(id).clock.unwrap();
    assert!(!clock.reminded && !clock.timeout_told);
    table.advance(Span::days(1) + Span::HOUR * 12);
    let notices = table.service.tick();
    assert_eq!(notices[0].mentions, [user("alice").id]);
}

#[test]
fn deadlines_survive_a_restart() {
    let dir = tempfile::tempdir().unwrap();
    let start = Timestamp(1_700_000_000_000);
    {
        let clock = Arc::new(ManualClock::at(start));
        let service = Service::new(SledStore::open(dir.path()).unwrap(), clock, Settings::default());
        let challenge = Command::Challenge {
            opponent: user("bob"),
            game: GameKind::Go,
            color: ColorChoice::White,
            days: Some(1),
            options: Some("board=9x9".into()),
            level: stonemate_bot::service::Level::Medium,
        };
        assert!(service.handle(&caller("alice"), challenge).reply.ok);
        assert!(service.handle(&caller("bob"), Command::Accept { challenge: None }).reply.ok);
    }
    let clock = Arc::new(ManualClock::at(start + Span::days(2)));
    let service = Service::new(SledStore::open(dir.path()).unwrap(), clock, Settings::default());
    let notices = service.tick();
    assert_eq!(notices.len(), 1, "{notices:?}");
    assert!(notices[0].text.contains("time for #1 ran out"));
    assert_eq!(service.user_name(user("bob").id).as_deref(), Some("bob"), "names are stored");
}
