//! `/vacation`: every clock in the player's games stands still for the days he takes;
//! clocks started meanwhile count from its end; ending it early gives back the unused
//! days; a yearly allowance; and the clocks run again by themselves, across a restart.

use std::sync::Arc;

use stonemate_bot::clock::{ManualClock, Span, Timestamp};
use stonemate_bot::service::commands::Value;
use stonemate_bot::service::{Command, Message, Service, Settings};
use stonemate_bot::store::{SledStore, Vacation};

use super::common::{Table, caller, game_opt, meddling_table, mv, mv_in, typed, user};

fn vacation(days: u8) -> Command {
    Command::Vacation { days }
}

#[test]
fn a_vacation_moves_every_deadline_in_the_players_games_by_its_length() {
    let table = Table::new();
    let first = table.go("alice", "bob", 3, "board=9x9");
    let second = table.go("carol", "alice", 2, "board=9x9");
    let (bob_due, alice_due) = (table.record(first).clock.unwrap(), table.record(second).clock.unwrap());
    let response = table.ok("alice", vacation(5));
    assert!(response.reply.private);
    assert!(
        response.reply.text().contains("25 of your 30 vacation days are left this year"),
        "{}",
        response.reply.text()
    );
    assert_eq!(table.record(first).clock.unwrap().deadline, bob_due.deadline + Span::days(5), "the opponent's turn");
    assert_eq!(table.record(second).clock.unwrap().deadline, alice_due.deadline + Span::days(5), "his own turn");
    assert_eq!(table.record(first).clock.unwrap().remind_at, bob_due.remind_at.map(|at| at + Span::days(5)));
    let told: Vec<_> = response.notices.iter().flat_map(|notice| notice.message.mentions().clone()).collect();
    assert_eq!(told, [user("bob").id, user("carol").id], "{:?}", response.notices);
    assert!(response.notices[0].text().contains("alice is on vacation"), "{}", response.notices[0].text());
    // Nothing is due at the old times.
    table.advance(Span::days(3));
    assert!(table.service.tick().is_empty());
}

#[test]
fn a_deadline_set_during_the_vacation_counts_from_its_end() {
    let table = Table::new();
    let id = table.go("alice", "bob", 3, "board=9x9");
    table.ok("alice", vacation(5));
    let end = table.now() + Span::days(5);
    table.advance(Span::days(1));
    table.ok("bob", mv("R@e5"));
    let clock = table.record(id).clock.unwrap();
    assert_eq!(clock.deadline, end + Span::days(3));
    assert_eq!(clock.remind_at, Some(end + Span::days(2)), "reminders count from the end too");
}

#[test]
fn a_game_started_during_the_vacation_counts_from_its_end() {
    let table = Table::new();
    let id = table.challenge("alice", "dave", "go", 2, "board=9x9");
    table.ok("alice", vacation(4));
    let end = table.now() + Span::days(4);
    table.advance(Span::HOUR);
    table.ok("dave", Command::Accept { challenge: game_opt(id) });
    assert_eq!(table.record(id).clock.unwrap().deadline, end + Span::days(2));
}

#[test]
fn ending_a_vacation_early_gives_back_the_unused_days() {
    let table = Table::new();
    let id = table.go("alice", "bob", 3, "board=9x9");
    let deadline = table.record(id).clock.unwrap().deadline;
    table.ok("alice", vacation(10));
    table.advance(Span::days(2) + Span::HOUR);
    let response = table.ok("alice", vacation(0));
    assert!(response.reply.text().contains("27 of your 30 vacation days are left"), "{}", response.reply.text());
    assert_eq!(table.record(id).clock.unwrap().deadline, deadline + Span::days(2) + Span::HOUR, "paused as long");
    assert!(response.notices[0].text().contains("alice is back from vacation"), "{}", response.notices[0].text());
    // The clock runs again: bob's time runs out at the moved deadline.
    table.advance(Span::days(3) - Span(1));
    assert!(table.service.tick().iter().all(|notice| !notice.text().contains("ran out")));
    table.advance(Span(1));
    assert!(table.service.tick().iter().any(|notice| notice.text().contains("ran out")));
}

#[test]
fn the_yearly_allowance_refuses_what_is_beyond_it_and_says_what_is_left() {
    let table = Table::new();
    table.go("alice", "bob", 3, "board=9x9");
    table.ok("alice", vacation(20));
    table.advance(Span::days(20));
    let refused = table.refused("alice", vacation(11));
    assert_eq!(refused, "that is beyond the yearly vacation allowance of 30 days: you have 10 left this year, not 11");
    assert!(table.ok("alice", vacation(10)).reply.ok);
    let settings = Settings { vacation_days_per_year: 0, ..Settings::default() };
    let none = Table::with(stonemate_bot::store::MemoryStore::new(), settings);
    assert!(none.refused("alice", vacation(1)).contains("allowance of 0 days"));
}

#[test]
fn asking_again_during_a_vacation_sets_its_end_from_now() {
    let table = Table::new();
    let id = table.go("alice", "bob", 3, "board=9x9");
    let deadline = table.record(id).clock.unwrap().deadline;
    table.ok("alice", vacation(5));
    table.advance(Span::days(1));
    table.ok("alice", vacation(2));
    assert_eq!(table.record(id).clock.unwrap().deadline, deadline + Span::days(3), "1 day gone, 2 more");
    table.ok("alice", vacation(2));
    assert_eq!(table.record(id).clock.unwrap().deadline, deadline + Span::days(3), "the same end moves nothing");
}

#[test]
fn a_clock_that_ran_out_stays_run_out() {
    let table = Table::new();
    let id = table.go("alice", "bob", 1, "board=9x9");
    table.advance(Span::days(2));
    let deadline = table.record(id).clock.unwrap().deadline;
    let response = table.ok("bob", vacation(5));
    assert!(response.notices.is_empty());
    assert_eq!(table.record(id).clock.unwrap().deadline, deadline);
    assert!(table.ok("alice", Command::Claim { game: game_opt(id) }).reply.ok);
}

#[test]
fn days_zero_without_a_vacation_and_days_beyond_thirty_are_refused() {
    let table = Table::new();
    table.go("alice", "bob", 3, "board=9x9");
    assert_eq!(table.refused("alice", vacation(0)), "you are not on vacation: `/vacation days:N` starts one");
    let typed = typed("vacation", &[("days", Value::Number(31))]);
    assert_eq!(table.refused("alice", typed), "a vacation is 0 to 30 days (0 ends yours), not 31");
    assert!(table.ok("alice", super::common::typed("vacation", &[("days", Value::Number(30))])).reply.ok);
}

#[test]
fn clocks_resume_by_themselves_across_a_restart() {
    let dir = tempfile::tempdir().unwrap();
    let start = Timestamp(1_700_000_000_000);
    let open = |at: Timestamp| {
        let clock = Arc::new(ManualClock::at(at));
        // With timeouts = "claim": the time out is told, and bob may still play after it.
        let settings = Settings { timeouts: stonemate_bot::service::Timeouts::Claim, ..Settings::default() };
        (Service::new(SledStore::open(dir.path()).unwrap(), clock.clone(), settings), clock)
    };
    {
        let (service, _) = open(start);
        let table = Table { service: Arc::new(service), clock: Arc::new(ManualClock::at(start)) };
        let id = table.go("alice", "bob", 1, "board=9x9");
        // Both began the game (else a time out aborts it).
        super::ratings::opening(&table, id, "alice", "bob");
        assert!(table.service.handle(&caller("alice"), vacation(3)).reply.ok);
        assert_eq!(table.record(id).clock.unwrap().deadline, start + Span::days(4));
    }
    // In the middle of the vacation, past the old deadline: nothing is due.
    let (service, clock) = open(start + Span::days(2));
    assert!(service.tick().is_empty(), "the clock stands still");
    clock.advance(Span::days(2) - Span::HOUR);
    assert!(service.tick()[0].text().contains("due in 1h 0m"), "bob's reminder, after the vacation");
    clock.advance(Span::HOUR);
    assert!(service.tick()[0].text().contains("time for #1 ran out"), "the clock ran again by itself");
    let played = service.handle(&caller("bob"), mv_in("R@g3", stonemate_bot::service::GameId(1)));
    assert!(played.reply.ok, "{}", played.reply.text());
}

#[test]
fn a_vacation_whose_clocks_were_not_moved_yet_is_caught_up_by_the_tick() {
    let table = Table::new();
    let id = table.go("alice", "bob", 1, "board=9x9");
    let deadline = table.record(id).clock.unwrap().deadline;
    // As if `/vacation` stopped (a crash) after storing the vacation, before moving clocks.
    let store = table.service.store();
    let mut alice = store.user(user("alice").id).unwrap().expect("alice is known");
    alice.vacations.push(Vacation { start: table.now(), end: table.now() + Span::days(3) });
    store.save_user(&alice).unwrap();
    table.advance(Span::days(1));
    assert!(table.service.tick().is_empty(), "no timeout while alice is away");
    assert_eq!(table.record(id).clock.unwrap().deadline, deadline + Span::days(3), "paused from its start");
}

#[test]
fn a_vacation_cut_short_by_a_failed_write_has_told_the_opponents_whose_clocks_moved() {
    let (table, store) = meddling_table();
    let first = table.go("alice", "bob", 3, "board=9x9");
    let second = table.go("alice", "carol", 3, "board=9x9");
    let (first_due, second_due) = (table.record(first).clock.unwrap(), table.record(second).clock.unwrap());
    *store.fail_after.lock().unwrap() = Some(1);
    let reply = table.run("alice", vacation(5)).reply;
    assert!(!reply.ok && reply.text().contains("storage"), "{}", reply.text());
    assert!(table.service.stopped().is_some(), "a failed write stops the service");
    // One clock moved, with its notice in the same write; the other did neither.
    let now = table.now();
    let outbox = store.inner.outbox().claim(now, now + Span::MINUTE, 100).unwrap();
    // A stored notice is JSON with its message as segments: read as the plain text.
    let text = |body: &[u8]| {
        let letter: serde_json::Value = serde_json::from_slice(body).unwrap();
        serde_json::from_value::<Message>(letter["message"].clone()).unwrap().plain()
    };
    let texts: Vec<String> = outbox.iter().map(|queued| text(&queued.body)).collect();
    let record = |id| store.inner.load(id).unwrap().unwrap();
    assert_eq!(record(first).clock.unwrap().deadline, first_due.deadline + Span::days(5));
    assert_eq!(record(second).clock.unwrap(), second_due);
    assert_eq!(texts.len(), 1, "{texts:?}");
    assert!(texts[0].contains("alice is on vacation") && texts[0].contains(&format!("{first}")), "{texts:?}");
}
