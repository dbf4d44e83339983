//! Conditional turns (spec `/conditional`): lines `THEIRS MINE ...` stored while the
//! opponent is to move, hidden from him, played the moment the expected turn comes (in
//! the same write, through the same checks and notices as a typed turn), dropped when the
//! game leaves them; kept with the record across a restart; consistent when a turn races
//! the line's storing.

use std::sync::{Arc, Barrier};

use stonemate_bot::clock::{ManualClock, Timestamp};
use stonemate_bot::service::{GameId, Service, Settings};
use stonemate_bot::store::SledStore;

use super::common::{Call, Table, caller, mv_in, text, typed, user};

fn line(id: GameId, turns: &str) -> Call {
    typed("conditional", &[("game", text(&id.0.to_string())), ("line", text(turns))])
}

fn lines(id: GameId) -> Call {
    typed("conditional", &[("game", text(&id.0.to_string()))])
}

/// A 9x9 go game (alice white, bob black) where bob has played e5: alice is to move.
fn alice_to_move(table: &Table) -> GameId {
    let id = table.go("alice", "bob", 3, "board=9x9");
    table.ok("bob", mv_in("e5", id));
    id
}

#[test]
fn a_conditional_line_answers_the_expected_turn_at_once_and_is_hidden() {
    let table = Table::new();
    let id = table.go("alice", "bob", 3, "board=9x9");
    // Alice (white) waits for bob's first turn.
    let stored = table.ok("alice", line(id, "e5 d4 c3 d3"));
    assert!(stored.reply.private && stored.notices.is_empty(), "{:?}", stored.reply);
    assert!(stored.reply.text().contains("if R@e5 then R@d4"), "{}", stored.reply.text());
    let bobs_view = table.ok("bob", lines(id));
    assert!(bobs_view.reply.text().contains("no conditional lines"), "{}", bobs_view.reply.text());
    let played = table.ok("bob", mv_in("e5", id));
    assert!(!played.reply.text().contains("c3"), "the rest of the line stays hidden: {}", played.reply.text());
    assert!(played.reply.text().contains("answered R@d4"), "{}", played.reply.text());
    assert_eq!(table.record(id).turns, ["R@e5", "R@d4"]);
    let alice = user("alice").id;
    assert!(
        played
            .notices
            .iter()
            .any(|n| n.message.mentions().contains(&alice) && n.text().contains("conditional turn R@d4"))
    );
    assert!(played.reply.message.mentions().contains(&user("bob").id), "bob is to move again, pinged by the reply");
    // The line goes on: c3 is answered too; then it is used up.
    table.ok("bob", mv_in("c3", id));
    assert_eq!(table.record(id).turns, ["R@e5", "R@d4", "R@c3", "R@d3"]);
    assert!(table.record(id).pending.conditionals.is_empty());
}

#[test]
fn lines_the_game_leaves_are_dropped() {
    let table = Table::new();
    let id = alice_to_move(&table);
    table.ok("alice", mv_in("d4", id));
    table.ok("alice", line(id, "c3 d3"));
    table.ok("alice", line(id, "f5 f4 g5 g4"));
    assert!(table.ok("alice", lines(id)).reply.text().contains("2. if R@f5 then R@f4"));
    let played = table.ok("bob", mv_in("f5", id));
    assert!(played.reply.text().contains("answered R@f4"));
    let record = table.record(id);
    assert_eq!(record.pending.conditionals.len(), 1, "only the line that went on is kept");
    assert_eq!(record.pending.conditionals[0].turns, ["R@g5", "R@g4"]);
    table.ok("bob", mv_in("a1", id));
    assert!(table.record(id).pending.conditionals.is_empty(), "a1 left the line");
    assert_eq!(table.record(id).turns.last().map(String::as_str), Some("R@a1"));
}

#[test]
fn lines_are_checked_and_cleared() {
    let table = Table::new();
    let id = alice_to_move(&table);
    assert!(table.refused("alice", line(id, "e5 d4")).contains("your turn"));
    table.ok("alice", mv_in("d4", id));
    assert!(table.refused("alice", line(id, "c3")).contains("pairs"));
    let refused = table.refused("alice", line(id, "c3 d4"));
    assert!(refused.contains("turn 2") && refused.contains("d4"), "{refused}");
    assert!(table.refused("bob", line(id, "c3 d3")).contains("your turn"));
    table.ok("alice", line(id, "c3 d3"));
    let cleared = table.ok("alice", line(id, "clear"));
    assert!(cleared.reply.private && cleared.reply.text().contains("Removed"));
    assert!(table.record(id).pending.conditionals.is_empty());
    table.ok("bob", mv_in("c3", id));
    assert_eq!(table.record(id).turns.len(), 3, "nothing answered after clear");
}

#[test]
fn conditional_lines_survive_a_restart() {
    let dir = tempfile::tempdir().unwrap();
    let clock = Arc::new(ManualClock::at(Timestamp(1_700_000_000_000)));
    let id = {
        let service = Service::new(SledStore::open(dir.path()).unwrap(), clock.clone(), Settings::default());
        let table = Table { service: Arc::new(service), clock: clock.clone() };
        let id = alice_to_move(&table);
        table.ok("alice", mv_in("d4", id));
        table.ok("alice", line(id, "c3 d3"));
        id
    };
    let service = Service::new(SledStore::open(dir.path()).unwrap(), clock.clone(), Settings::default());
    let table = Table { service: Arc::new(service), clock };
    table.ok("bob", mv_in("c3", id));
    assert_eq!(table.record(id).turns, ["R@e5", "R@d4", "R@c3", "R@d3"]);
}

/// Bob's turn and Alice's line race: either the line was stored first and answers at
/// once, or the turn came first and the line is refused (it is Alice's turn then). Never
/// a stored line that waits for a turn already played.
#[test]
fn a_conditional_line_racing_the_expected_turn() {
    for _ in 0..8 {
        let table = Table::new();
        let id = alice_to_move(&table);
        table.ok("alice", mv_in("d4", id));
        let barrier = Barrier::new(2);
        let (stored, moved) = std::thread::scope(|scope| {
            let service = &table.service;
            let barrier = &barrier;
            let store = scope.spawn(move || {
                barrier.wait();
                let command = match line(id, "c3 d3") {
                    Call::Text(spec, args) => service.handle_args(&caller("alice"), spec, &args),
                    Call::Typed(command) => service.handle(&caller("alice"), command),
                };
                command.reply.ok
            });
            let play = scope.spawn(move || {
                barrier.wait();
                service.handle(&caller("bob"), mv_in("c3", id)).reply.ok
            });
            (store.join().unwrap(), play.join().unwrap())
        });
        assert!(moved);
        let record = table.record(id);
        assert!(record.pending.conditionals.is_empty());
        if stored {
            assert_eq!(record.turns[2..], ["R@c3", "R@d3"], "a stored line answers its turn");
        } else {
            assert_eq!(record.turns.len(), 3, "a refused line answers nothing");
        }
    }
}

/// Ten lines of twenty turns do not fit in one message: the reply shows those that fit,
/// and the whole list comes in a text file.
#[test]
fn lines_longer_than_a_message_are_read_back_whole_in_a_file() {
    let table = Table::new();
    let id = table.go("alice", "bob", 3, "board=9x9");
    // Points no two of which touch: drops on them never capture or lack liberties.
    let points: Vec<String> = (1..=9u32)
        .flat_map(|row| {
            (0..9u8)
                .filter(move |col| (u32::from(*col) + row) % 2 == 0)
                .map(move |col| format!("{}{row}", char::from(b'a' + col)))
        })
        .collect();
    assert_eq!(points.len(), 40);
    for k in 0..10 {
        let turns: Vec<&str> = (0..20).map(|i| points[(k * 3 + i) % points.len()].as_str()).collect();
        table.ok("alice", line(id, &turns.join(" ")));
    }
    let read = table.ok("alice", lines(id)).reply;
    let shown = read.text();
    assert!(shown.chars().count() <= 2000, "{} characters", shown.chars().count());
    let file = format!("conditional-{}.txt", id.0);
    assert!(shown.contains(&format!("more: all are in {file}")), "{shown}");
    assert_eq!(read.files.len(), 1);
    assert_eq!(read.files[0].name, file);
    let whole = String::from_utf8(read.files[0].bytes.clone()).unwrap();
    assert_eq!(whole.lines().filter(|line| line.contains(". if R@")).count(), 10, "{whole}");
    for line in shown.lines().filter(|line| line.contains(". if R@")) {
        assert!(whole.contains(line), "the message's lines are the file's first ones");
    }
    let few = Table::new();
    let id = few.go("alice", "bob", 3, "board=9x9");
    few.ok("alice", line(id, "e5 d4"));
    assert!(few.ok("alice", lines(id)).reply.files.is_empty(), "a list that fits comes without a file");
}

/// Two lines that answer the same expected turn differently cannot both be played: the
/// second is refused, naming the first, and so is a line stored twice; lines that branch
/// on another expected turn, or go on differently after the same answer, are stored.
#[test]
fn a_line_answering_an_expected_turn_otherwise_than_a_stored_one_is_refused() {
    let table = Table::new();
    let id = table.go("alice", "bob", 3, "board=9x9");
    table.ok("alice", line(id, "e5 d4 c3 d3"));
    let before = table.record(id);
    assert_eq!(
        table.refused("alice", line(id, "e5 f6")),
        "your line 1 already answers R@e5 with R@d4, and only one answer can be played; to change it, remove your lines with `/conditional line:clear` and store them again"
    );
    assert_eq!(
        table.refused("alice", line(id, "e5 d4 c3 g7")),
        "your line 1 already answers R@c3 with R@d3, and only one answer can be played; to change it, remove your lines with `/conditional line:clear` and store them again",
        "also deeper in the line"
    );
    assert_eq!(table.refused("alice", line(id, "e5 d4 c3 d3")), "you have stored this line already: it is your line 1");
    assert_eq!(table.record(id), before, "a refused line changes nothing");
    table.ok("alice", line(id, "e5 d4 f3 g3"));
    table.ok("alice", line(id, "c7 d4"));
    assert_eq!(table.record(id).pending.conditionals.len(), 3);
}
