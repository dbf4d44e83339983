//! Two processes (not threads) ticking one PostgreSQL database at the same test time, as
//! two bot processes do: every reminder, timeout and expired challenge is committed by
//! exactly one of them (the record's version checked in the tick's write), and its notice
//! delivered by exactly one of them (outbox claims skip locked rows and hold a lease).

use std::collections::BTreeMap;
use std::io::{BufRead, BufReader, Read};
use std::process::{Command as Process, Stdio};

use stonemate_bot::clock::{Span, Timestamp};
use stonemate_bot::service::{Delivery, GameId, Settings};
use stonemate_bot::store::PostgresStore;

use super::common::Table;

const PROCESSES: usize = 2;
/// Ticks (each followed by a delivery) per process and round.
const TICKS: usize = 4;
/// Records of each kind: open challenges, games of 3 days and games of 1 day a turn.
/// Enough that one process's tick lasts until the other has started (both go through the
/// due records in the same order, so a process that finishes before the other begins makes
/// every notice, and the race this test is about does not happen).
const EACH: usize = 40;

/// What a tick says about one record.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Timer {
    Reminder,
    Timeout,
    Expiry,
}

impl Timer {
    fn of(text: &str) -> Timer {
        if text.contains("expired unanswered") {
            Timer::Expiry
        } else if text.contains("ran out") {
            Timer::Timeout
        } else if text.contains("is due") {
            Timer::Reminder
        } else {
            panic!("not a timer notice: {text:?}")
        }
    }
}

/// What the processes of one round printed: each notice made (committed by a tick) and
/// sent, by game, in the order of the processes.
#[derive(Debug, Default)]
struct Round {
    made: Vec<Vec<(GameId, Timer)>>,
    sent: Vec<Vec<(GameId, Timer)>>,
}

/// The notices seen (in all `lists`) more or fewer times than once each for `expected`,
/// with how many times too many (a negative number: missing).
fn miscounted(lists: &[Vec<(GameId, Timer)>], expected: &[(GameId, Timer)]) -> Vec<((GameId, Timer), i64)> {
    let mut surplus: BTreeMap<(GameId, Timer), i64> = expected.iter().map(|&notice| (notice, -1)).collect();
    for &notice in lists.iter().flatten() {
        *surplus.entry(notice).or_default() += 1;
    }
    surplus.into_iter().filter(|(_, count)| *count != 0).collect()
}

/// Starts [`PROCESSES`] tickers on `url` at `now`, all at once, and reads what they did.
fn tick_in_processes(url: &str, now: Timestamp) -> Round {
    let mut children: Vec<_> = (0..PROCESSES)
        .map(|_| {
            Process::new(env!("CARGO_BIN_EXE_timer_ticker"))
                .args([url, &now.0.to_string(), &TICKS.to_string()])
                .stdin(Stdio::piped())
                .stdout(Stdio::piped())
                .spawn()
                .unwrap()
        })
        .collect();
    // Every process has its store open before any starts ticking.
    let mut outputs: Vec<_> = children.iter_mut().map(|child| BufReader::new(child.stdout.take().unwrap())).collect();
    for output in &mut outputs {
        let mut ready = String::new();
        output.read_line(&mut ready).unwrap();
        assert_eq!(ready, "ready\n", "a ticker did not start");
    }
    for child in &mut children {
        drop(child.stdin.take());
    }
    let mut round = Round::default();
    for (mut child, mut output) in children.into_iter().zip(outputs) {
        let mut text = String::new();
        output.read_to_string(&mut text).unwrap();
        assert!(child.wait().unwrap().success(), "a ticker process failed");
        let (mut made, mut sent) = (Vec::new(), Vec::new());
        for line in text.lines() {
            let (what, rest) = line.split_once(' ').unwrap();
            let (game, text) = rest.split_once(' ').unwrap();
            let notice = (GameId(game.parse().unwrap()), Timer::of(text));
            match what {
                "made" => made.push(notice),
                "sent" => sent.push(notice),
                _ => panic!("unexpected line {line:?}"),
            }
        }
        round.made.push(made);
        round.sent.push(sent);
    }
    round
}

/// Runs one round at `table`'s time and checks that exactly `expected` was made, and sent,
/// once in total, each record written once; returns how many notices each process made.
fn round(table: &Table, url: &str, ids: &[GameId], expected: &[(GameId, Timer)]) -> Vec<usize> {
    let versions =
        |table: &Table| -> BTreeMap<GameId, u64> { ids.iter().map(|&id| (id, table.record(id).version)).collect() };
    let before = versions(table);
    let round = tick_in_processes(url, table.now());
    assert_eq!(miscounted(&round.made, expected), [], "each timer committed once, by one process");
    assert_eq!(miscounted(&round.sent, expected), [], "each notice delivered once, by one process");
    for (id, version) in versions(table) {
        let writes = u64::from(expected.iter().any(|(game, _)| *game == id));
        assert_eq!(version, before[&id] + writes, "game {} written once per timer", id.0);
    }
    assert!(table.service.deliver(|_| Delivery::Sent).is_empty(), "the outbox is empty");
    round.made.iter().map(Vec::len).collect()
}

#[test]
fn two_processes_ticking_one_database_send_every_reminder_timeout_and_expiry_once() {
    let database = stonemate_tests::postgres::database();
    let table = Table::with(PostgresStore::open(&database.url).unwrap(), Settings::default());
    let start = table.now();
    // Challenges expire 7 days after they are made; the games start 5 days later, so that
    // at day 7 the 3-day games are reminded (a day before their deadline) and the 1-day
    // games are out of time.
    let challenges: Vec<GameId> =
        (0..EACH).map(|i| table.challenge(&format!("asker{i}"), &format!("silent{i}"), "go", 3, "board=9x9")).collect();
    table.advance(Span::days(5));
    let long: Vec<GameId> =
        (0..EACH).map(|i| table.go(&format!("slow{i}"), &format!("calm{i}"), 3, "board=9x9")).collect();
    let short: Vec<GameId> =
        (0..EACH).map(|i| table.go(&format!("late{i}"), &format!("gone{i}"), 1, "board=9x9")).collect();
    // Both players begin every game (a game nobody began is aborted when its time runs out).
    for (i, (&slow, &late)) in long.iter().zip(&short).enumerate() {
        crate::service::ratings::opening(&table, slow, &format!("slow{i}"), &format!("calm{i}"));
        crate::service::ratings::opening(&table, late, &format!("late{i}"), &format!("gone{i}"));
    }
    // The turn pings so far are sent (each delivery takes a batch of them).
    while !table.service.deliver(|_| Delivery::Sent).is_empty() {}
    let ids = [challenges.as_slice(), &long, &short].concat();
    let each = |ids: &[GameId], timer| ids.iter().map(move |&id| (id, timer)).collect::<Vec<_>>();

    let mut made = vec![0; PROCESSES];
    let mut add = |counts: Vec<usize>| made.iter_mut().zip(counts).for_each(|(total, count)| *total += count);
    table.advance(start + Span::days(7) - table.now());
    let first = [each(&challenges, Timer::Expiry), each(&long, Timer::Reminder), each(&short, Timer::Timeout)].concat();
    add(round(&table, &database.url, &ids, &first));
    // The last reminder, an hour before the deadline; then the timeout.
    table.advance(Span::days(1) - Span::HOUR);
    add(round(&table, &database.url, &ids, &each(&long, Timer::Reminder)));
    table.advance(Span::HOUR);
    add(round(&table, &database.url, &ids, &each(&long, Timer::Timeout)));
    eprintln!("notices made by each process: {made:?}");
    assert!(made.iter().all(|&count| count > 0), "the processes never raced (one made every notice)");
}
