//! Clocks: reminders at the configured points before the deadline (each once), timeouts
//! told (never a silent loss), deadlines written as the host writes them, and the
//! deadline index surviving a restart.

use std::sync::Arc;

use stonemate_bot::clock::{DeadlineStyle, ManualClock, Span, Timestamp};
use stonemate_bot::service::{ColorChoice, Command, NotifyMode, Service, Settings, Target, Timeouts};
use stonemate_bot::store::{MemoryStore, Phase, SledStore};
use stonemate_engine::GameKind;

use super::common::{GENERAL, Table, caller, mv, user};
use super::ratings::opening;

/// Settings with `timeouts = "claim"`: the waiting player is told and claims.
fn claim_settings() -> Settings {
    Settings { timeouts: Timeouts::Claim, ..Settings::default() }
}

fn claim_table() -> Table {
    Table::with(MemoryStore::new(), claim_settings())
}

#[test]
fn reminders_come_a_day_and_an_hour_before_the_deadline_once_each() {
    let table = Table::new();
    table.go("alice", "bob", 3, "board=9x9");
    table.advance(Span::days(2) - Span(1));
    assert!(table.service.tick().is_empty(), "more than a day left");
    table.advance(Span(1));
    let notices = table.service.tick();
    let [reminder] = notices.as_slice() else { panic!("{notices:?}") };
    assert_eq!(reminder.message.mentions(), [user("bob").id]);
    assert_eq!(reminder.text(), "@bob: your turn in #1 is due in 1d 0h (2023-11-17 22:13 UTC).");
    assert!(table.service.tick().is_empty(), "reminded once");
    table.advance(Span::HOUR * 23);
    let notices = table.service.tick();
    let [reminder] = notices.as_slice() else { panic!("{notices:?}") };
    assert_eq!(reminder.text(), "@bob: your turn in #1 is due in 1h 0m (2023-11-17 22:13 UTC).");
    table.advance(Span::HOUR - Span(1));
    assert!(table.service.tick().is_empty(), "no reminder left before the deadline");
}

#[test]
fn a_one_day_turn_gets_only_the_last_hour_reminder() {
    let table = Table::new();
    table.go("alice", "bob", 1, "board=9x9");
    table.advance(Span::HOUR * 23 - Span(1));
    assert!(table.service.tick().is_empty(), "no reminder as long as the whole turn");
    table.advance(Span(1));
    let notices = table.service.tick();
    assert_eq!(notices.len(), 1, "{notices:?}");
    assert!(notices[0].text().contains("due in 1h 0m"), "{}", notices[0].text());
    table.advance(Span::HOUR);
    let notices = table.service.tick();
    assert!(notices[0].text().contains("ran out"), "then the timeout: {notices:?}");
}

#[test]
fn reminder_points_come_from_the_settings() {
    let settings = Settings { reminders: vec![Span::HOUR * 12], ..Settings::default() };
    let table = Table::with(MemoryStore::new(), settings);
    table.go("alice", "bob", 1, "board=9x9");
    table.advance(Span::HOUR * 12 - Span(1));
    assert!(table.service.tick().is_empty());
    table.advance(Span(1));
    let notices = table.service.tick();
    assert_eq!(notices.len(), 1, "{notices:?}");
    assert!(notices[0].text().contains("due in 12h 0m"), "{}", notices[0].text());
    table.advance(Span::HOUR * 11);
    assert!(table.service.tick().is_empty(), "the only point was sent");
}

#[test]
fn a_late_tick_sends_one_reminder_for_all_the_points_it_passed() {
    let table = Table::new();
    table.go("alice", "bob", 3, "board=9x9");
    table.advance(Span::days(3) - Span::MINUTE * 30);
    let notices = table.service.tick();
    assert_eq!(notices.len(), 1, "{notices:?}");
    assert!(notices[0].text().contains("due in 30m"), "{}", notices[0].text());
    assert!(table.service.tick().is_empty());
}

#[test]
fn timeout_tells_the_waiting_player_and_nobody_loses_by_itself() {
    // With timeouts = "claim"; in a game both players began (else it is aborted).
    let table = claim_table();
    let id = table.go("alice", "bob", 1, "board=9x9");
    opening(&table, id, "alice", "bob");
    table.advance(Span::days(2));
    let notices = table.service.tick();
    let [told] = notices.as_slice() else { panic!("{notices:?}") };
    assert_eq!(
        (told.target, told.message.mentions().as_slice()),
        (Target::Channel(GENERAL), [user("alice").id].as_slice())
    );
    assert!(told.text().contains("`/claim`"), "{}", told.text());
    assert!(told.text().contains("ran out 1d 0h ago (2023-11-15 22:13 UTC)"), "{}", told.text());
    assert!(table.service.tick().is_empty());
    assert_eq!(table.record(id).phase, Phase::Playing, "no automatic loss");
    // bob may still play; the clock starts again for alice.
    table.ok("bob", mv("g3"));
    assert_eq!(table.record(id).clock.unwrap().deadline, table.now() + Span::days(1));
}

#[test]
fn timeouts_reach_players_who_turned_pings_off_without_a_ping() {
    let table = claim_table();
    let id = table.go("alice", "bob", 1, "board=9x9");
    opening(&table, id, "alice", "bob");
    table.ok("alice", Command::Notify { mode: Some(NotifyMode::Off), digest: None, hour: None });
    table.advance(Span::days(2));
    let notices = table.service.tick();
    assert_eq!(notices.len(), 1);
    assert!(notices[0].message.mentions().is_empty());
}

#[test]
fn a_turn_restarts_the_clock_and_the_reminders() {
    let table = Table::new();
    let id = table.go("alice", "bob", 2, "board=9x9");
    table.advance(Span::days(1) + Span::HOUR * 13);
    assert_eq!(table.service.tick().len(), 1, "bob's reminder");
    table.ok("bob", mv("e5"));
    let clock = table.record(id).clock.unwrap();
    assert_eq!(clock.remind_at, Some(table.now() + Span::days(1)), "alice's first reminder");
    assert!(!clock.timeout_told);
    table.advance(Span::days(1));
    let notices = table.service.tick();
    assert_eq!(notices[0].message.mentions(), [user("alice").id]);
}

#[test]
fn deadlines_on_discord_are_timestamps_every_reader_sees_in_his_zone() {
    let settings = Settings { deadlines: DeadlineStyle::Discord, ..Settings::default() };
    let table = Table::with(MemoryStore::new(), settings);
    let challenge = Command::Challenge {
        opponent: Some(user("bob")),
        game: GameKind::Go,
        color: ColorChoice::White,
        days: Some(3),
        options: Some("board=9x9".into()),
        level: stonemate_bot::service::Level::Medium,
    };
    let challenged = table.ok("alice", challenge).reply;
    let lapses = (table.now() + Span::days(7)).0 / 1000;
    assert!(
        challenged.text().ends_with(&format!("before it lapses <t:{lapses}:R> (<t:{lapses}:f>).")),
        "{}",
        challenged.text()
    );
    let id = challenged.about.unwrap();
    let accepted = table.ok("bob", Command::Accept { challenge: Some(id) });
    let due = (table.now() + Span::days(3)).0 / 1000;
    let stamp = format!("due <t:{due}:R> (<t:{due}:f>)");
    assert!(accepted.reply.text().contains(&stamp), "{}", accepted.reply.text());
    let played = table.ok("bob", mv("R@e5"));
    assert!(played.reply.text().contains(&stamp), "{}", played.reply.text());
    assert!(!played.reply.message.mentions().is_empty(), "the reply is the turn ping: {}", played.reply.text());
    let board = table.ok("carol", Command::Board { game: Some(id) });
    assert!(board.reply.text().contains(&stamp), "{}", board.reply.text());
    let games =
        table.ok("alice", Command::Games { user: None, status: stonemate_bot::service::GameStatus::Active, page: 1 });
    assert!(games.reply.text().contains(&stamp), "{}", games.reply.text());
    table.advance(Span::days(2));
    let reminder = table.service.tick();
    assert!(reminder[0].text().contains(&format!("<t:{due}:R>")), "{}", reminder[0].text());
}

#[test]
fn the_console_writes_deadlines_in_utc() {
    let table = Table::new();
    let id = table.go("alice", "bob", 3, "board=9x9");
    let board = table.ok("alice", Command::Board { game: Some(id) }).reply.text();
    assert!(board.ends_with("bob to move, due in 3d 0h (2023-11-17 22:13 UTC)."), "{board}");
}

#[test]
fn deadlines_survive_a_restart() {
    let dir = tempfile::tempdir().unwrap();
    let start = Timestamp(1_700_000_000_000);
    {
        let clock = Arc::new(ManualClock::at(start));
        let service = Service::new(SledStore::open(dir.path()).unwrap(), clock, claim_settings());
        let challenge = Command::Challenge {
            opponent: Some(user("bob")),
            game: GameKind::Go,
            color: ColorChoice::White,
            days: Some(1),
            options: Some("board=9x9".into()),
            level: stonemate_bot::service::Level::Medium,
        };
        assert!(service.handle(&caller("alice"), challenge).reply.ok);
        assert!(service.handle(&caller("bob"), Command::Accept { challenge: None }).reply.ok);
        assert!(service.handle(&caller("bob"), mv("e5")).reply.ok);
        assert!(service.handle(&caller("alice"), mv("c7")).reply.ok);
    }
    let clock = Arc::new(ManualClock::at(start + Span::days(2)));
    let service = Service::new(SledStore::open(dir.path()).unwrap(), clock, claim_settings());
    let notices = service.tick();
    assert_eq!(notices.len(), 1, "{notices:?}");
    assert!(notices[0].text().contains("time for #1 ran out"), "{notices:?}");
    assert_eq!(service.user_name(user("bob").id).as_deref(), Some("bob"), "names are stored");
}
