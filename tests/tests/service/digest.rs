//! The daily digest (spec, fourth wave "following games"): `/notify digest:on hour:H`
//! sends one direct message a day at that hour (UTC) listing every game where the player
//! is to move, least time left first; none on a day with nothing to move; `mode:off
//! digest:on` gives that one message and no pings; kept in the outbox, so a restart
//! neither loses nor doubles a day's digest.

use std::sync::Arc;

use stonemate_bot::clock::{ManualClock, Span, Timestamp};
use stonemate_bot::service::commands::Value;
use stonemate_bot::service::{Command, Delivery, Notice, Service, Settings, Target};
use stonemate_bot::store::SledStore;

use super::common::{Table, mv_in, text, typed, user};

/// 2023-11-14 22:13:20 UTC, where every table's clock starts.
const START: Timestamp = Timestamp(1_700_000_000_000);

/// `/notify` with these options as typed (numbers as Discord sends them).
fn notify(options: &[(&str, &str)]) -> super::common::Call {
    let value = |value: &str| match value.parse() {
        Ok(number) => Value::Number(number),
        Err(_) => text(value),
    };
    let values: Vec<(&str, Value)> = options.iter().map(|(key, typed)| (*key, value(typed))).collect();
    typed("notify", &values)
}

/// The digests among `notices`.
fn digests(notices: &[Notice]) -> Vec<&Notice> {
    notices.iter().filter(|notice| notice.text().starts_with("Your daily digest")).collect()
}

/// The time `hour`:00 UTC, `days` after the start's day.
fn hour_of_day(days: i64, hour: i64) -> Timestamp {
    let day = START.0.div_euclid(Span::DAY.0) + days;
    Timestamp(day * Span::DAY.0 + hour * Span::HOUR.0)
}

/// A table over the sled store in `dir`, its clock at `at`: the bot started (again).
fn started(dir: &std::path::Path, at: Timestamp) -> Table {
    let clock = Arc::new(ManualClock::at(at));
    let settings = Settings { render: |_| Vec::new(), animate: |_| Vec::new(), ..Settings::default() };
    let service = Service::new(SledStore::open(dir).unwrap(), clock.clone(), settings);
    Table { service: Arc::new(service), clock }
}

/// Moves the clock of `table` to `at` and runs the tick.
fn tick_at(table: &Table, at: Timestamp) -> Vec<Notice> {
    let now = table.now();
    assert!(at >= now, "time runs forward");
    table.advance(Span(at.0 - now.0));
    table.service.tick()
}

#[test]
fn a_digest_over_three_days_with_a_restart_is_sent_once_a_day_and_never_lost() {
    let dir = tempfile::tempdir().unwrap();
    let alice = user("alice").id;
    let table = started(dir.path(), START);
    // Alice plays white in three go games; Black moves first in #1 and #2.
    let slow = table.go("alice", "bob", 3, "board=9x9");
    let fast = table.go("alice", "carol", 2, "board=9x9");
    let waiting = table.go("alice", "dave", 3, "board=9x9");
    table.ok("alice", notify(&[("mode", "off"), ("digest", "on"), ("hour", "23")]));
    for (who, id) in [("bob", slow), ("carol", fast)] {
        let played = table.ok(who, mv_in("e5", id));
        assert!(!played.reply.message.mentions().contains(&alice), "mode:off: no ping");
        assert!(played.notices.iter().all(|notice| notice.target != Target::Direct(alice)), "{:?}", played.notices);
    }
    // Day 1: nothing before 23:00; at 23:00 one digest, most urgent game first.
    assert!(digests(&table.service.tick()).is_empty(), "not before the hour");
    let day1 = tick_at(&table, hour_of_day(0, 23));
    let [digest] = <[&Notice; 1]>::try_from(digests(&day1)).unwrap();
    assert_eq!(digest.target, Target::Direct(alice));
    let shown = digest.text();
    assert!(shown.contains("2 games where you are to move"), "{shown}");
    let (at_fast, at_slow) = (shown.find(&fast.to_string()).unwrap(), shown.find(&slow.to_string()).unwrap());
    assert!(at_fast < at_slow, "least time left first: {shown}");
    assert!(shown.contains(&format!("{fast} go vs carol: due ")) && shown.contains("last turn R@e5"), "{shown}");
    assert!(!shown.contains(&waiting.to_string()), "dave is to move there: {shown}");
    assert!(digests(&tick_at(&table, hour_of_day(0, 23) + Span::MINUTE * 30)).is_empty(), "once a day");
    drop(table);

    // The bot stops before sending it, and starts again the same night.
    let table = started(dir.path(), hour_of_day(0, 23) + Span::MINUTE * 40);
    assert!(digests(&table.service.tick()).is_empty(), "not written twice");
    let sent = table.service.deliver(|_| Delivery::Sent);
    assert_eq!(digests(&sent).len(), 1, "not lost: {sent:?}");
    assert_eq!(digests(&sent)[0].text(), shown);

    // Day 2: alice answered carol; the digest lists bob's game alone.
    table.ok("alice", mv_in("d4", fast));
    assert!(digests(&tick_at(&table, hour_of_day(1, 22))).is_empty(), "not before the hour");
    let day2 = tick_at(&table, hour_of_day(1, 23));
    let [digest] = <[&Notice; 1]>::try_from(digests(&day2)).unwrap();
    assert!(digest.text().contains("1 game where you are to move") && digest.text().contains(&slow.to_string()));
    assert_eq!(digests(&table.service.deliver(|_| Delivery::Sent)).len(), 1);

    // Day 3: nothing to move, so nothing is sent.
    table.ok("alice", mv_in("d4", slow));
    assert!(digests(&tick_at(&table, hour_of_day(2, 23))).is_empty());
    assert!(digests(&table.service.deliver(|_| Delivery::Sent)).is_empty());
}

#[test]
fn a_digest_of_many_games_fits_one_message_and_points_to_games() {
    let table = Table::with_silent_bot();
    let alice = super::common::caller("alice");
    for index in 0..29 {
        let opponent = format!("opponent-with-a-rather-long-name-{index}");
        let id = table.go("alice", &opponent, 3, "board=9x9");
        table.ok(&opponent, mv_in("e5", id));
    }
    table.ok_as(&alice, notify(&[("digest", "on"), ("hour", "0")]));
    let notices = tick_at(&table, hour_of_day(1, 0));
    let [digest] = <[&Notice; 1]>::try_from(digests(&notices)).unwrap();
    let shown = digest.text();
    assert!(shown.chars().count() <= 2000, "{} characters", shown.chars().count());
    assert!(shown.contains("29 games where you are to move"), "{shown}");
    assert!(shown.contains(" more: `/games` lists them all."), "{shown}");
}

#[test]
fn notify_keeps_the_mode_when_only_the_digest_changes_and_refuses_a_bad_hour() {
    let table = Table::new();
    table.ok("alice", Command::Notify { mode: Some(stonemate_bot::service::NotifyMode::Dm), digest: None, hour: None });
    let reply = table.ok("alice", notify(&[("digest", "on")])).reply.text();
    assert!(reply.contains("direct message when it is your turn") && reply.contains("at 08:00 UTC"), "{reply}");
    let reply = table.ok("alice", notify(&[("digest", "off")])).reply.text();
    assert!(reply.contains("Daily digest: off"), "{reply}");
    let refusal = table.refused("alice", typed("notify", &[("hour", Value::Number(24))]));
    assert!(refusal.contains("0 to 23"), "{refusal}");
}
