//! `/takeback`: the request and its Accept and Decline buttons, the refusals, Stonemate
//! answering at once, a restart between the request and the answer, and a takeback racing
//! a turn.

use std::sync::Barrier;

use stonemate_bot::service::{ColorChoice, Command, GameId, Level, Settings};
use stonemate_bot::store::SledStore;
use stonemate_engine::GameKind;

use super::common::{Table, caller, mv, stonemate, user};

fn takeback() -> Command {
    Command::Takeback { game: None }
}

fn turns(table: &Table, id: GameId) -> Vec<String> {
    table.record(id).turns
}

#[test]
fn an_accepted_takeback_removes_the_last_turn_and_the_reply_after_it() {
    let table = Table::new();
    let id = table.go("alice", "bob", 3, "board=9x9");
    table.ok("bob", mv("e5"));
    table.ok("alice", mv("d4"));
    let asked = table.ok("bob", takeback()).reply;
    assert_eq!(asked.text(), "@alice, bob asks to take back R@e5 and R@d4 in #1.");
    assert_eq!(asked.message.mentions(), [user("alice").id]);
    let buttons: Vec<&str> = asked.buttons.iter().map(|button| button.custom_id.as_str()).collect();
    assert_eq!(buttons, ["takeback-accept:1", "takeback-decline:1"]);
    assert_eq!(turns(&table, id), ["R@e5", "R@d4"], "nothing is taken back before the answer");
    let accepted = table.service.press(&caller("alice"), "takeback-accept:1").reply;
    assert!(accepted.ok, "{}", accepted.text());
    assert!(
        accepted.text().starts_with("alice accepts: R@e5 and R@d4 taken back in #1. @bob to move"),
        "{}",
        accepted.text()
    );
    assert_eq!(accepted.message.mentions(), [user("bob").id]);
    let buttons: Vec<&str> = accepted.buttons.iter().map(|button| button.custom_id.as_str()).collect();
    assert_eq!(buttons, ["play:1"], "the player to move again gets the turn's Play button");
    assert!(turns(&table, id).is_empty());
    assert_eq!(table.record(id).pending.takeback, None);
    // bob is to move again, on a fresh clock, and may play another turn.
    assert_eq!(table.record(id).clock.unwrap().deadline, table.now() + stonemate_bot::clock::Span::days(3));
    table.ok("bob", mv("c3"));
    assert_eq!(turns(&table, id), ["R@c3"]);
}

#[test]
fn a_takeback_before_the_reply_removes_only_the_askers_turn() {
    let table = Table::new();
    let id = table.go("alice", "bob", 3, "board=9x9");
    table.ok("bob", mv("e5"));
    table.ok("bob", takeback());
    table.service.press(&caller("alice"), "takeback-accept:1");
    assert!(turns(&table, id).is_empty());
    table.ok("bob", mv("c3"));
    table.ok("alice", mv("d4"));
    table.ok("alice", takeback());
    assert!(table.service.press(&caller("bob"), "takeback-accept:1").reply.ok);
    assert_eq!(turns(&table, id), ["R@c3"], "alice's turn only: bob has not answered it");
}

#[test]
fn a_declined_takeback_changes_no_turn() {
    let table = Table::new();
    let id = table.go("alice", "bob", 3, "board=9x9");
    table.ok("bob", mv("e5"));
    table.ok("bob", takeback());
    let declined = table.service.press(&caller("alice"), "takeback-decline:1").reply;
    assert_eq!(declined.text(), "@bob, alice declined your takeback in #1.");
    assert_eq!(declined.message.mentions(), [user("bob").id]);
    assert_eq!(turns(&table, id), ["R@e5"]);
    assert_eq!(table.record(id).pending.takeback, None);
    let text = table.press_refused("alice", "takeback-accept:1");
    assert_eq!(text, "there is no takeback to answer in #1");
}

#[test]
fn a_declined_takeback_is_asked_again_only_after_the_opponent_has_played() {
    let table = Table::new();
    table.go("alice", "bob", 3, "board=9x9");
    table.ok("bob", mv("e5"));
    assert_eq!(table.ok("bob", takeback()).reply.message.mentions(), [user("alice").id]);
    assert!(table.service.press(&caller("alice"), "takeback-decline:1").reply.ok);
    let too_soon = "you asked for a takeback in #1 already: you may ask again once alice has played 2 more turns";
    for _ in 0..30 {
        // `refused` checks that nothing is sent (no ping) and nothing changes.
        assert_eq!(table.refused("bob", takeback()), too_soon);
    }
    table.ok("alice", mv("d4"));
    table.ok("bob", mv("c3"));
    table.ok("alice", mv("d3"));
    let again = table.ok("bob", takeback()).reply;
    assert_eq!(again.message.mentions(), [user("alice").id], "after two turns of alice, bob may ask again");
}

#[test]
fn takebacks_that_cannot_be_are_refused() {
    let table = Table::new();
    table.go("alice", "bob", 3, "board=9x9");
    assert_eq!(table.refused("bob", takeback()), "you have played no turn to take back in #1");
    table.ok("bob", mv("e5"));
    assert_eq!(table.refused("alice", takeback()), "you have played no turn to take back in #1");
    assert_eq!(table.refused("carol", Command::Takeback { game: Some(GameId(1)) }), "#1 is not your game");
    assert_eq!(table.press_refused("alice", "takeback-accept:1"), "there is no takeback to answer in #1");
    table.ok("bob", takeback());
    assert_eq!(
        table.refused("bob", takeback()),
        "your takeback request in #1 is waiting for alice's answer: one request at a time"
    );
    assert_eq!(table.press_refused("bob", "takeback-accept:1"), "there is no takeback to answer in #1", "not his own");
    table.ok("bob", Command::Resign { game: None });
    table.service.press(&caller("bob"), "resign:1");
    assert!(table.press_refused("alice", "takeback-accept:1").starts_with("#1 is over"));
    assert!(table.refused("alice", Command::Takeback { game: Some(GameId(1)) }).starts_with("#1 is over"));
}

#[test]
fn a_turn_played_meanwhile_cancels_the_request() {
    let table = Table::new();
    let id = table.go("alice", "bob", 3, "board=9x9");
    table.ok("bob", mv("e5"));
    table.ok("bob", takeback());
    table.ok("alice", mv("d4"));
    assert_eq!(table.press_refused("alice", "takeback-accept:1"), "there is no takeback to answer in #1");
    assert_eq!(turns(&table, id), ["R@e5", "R@d4"]);
    // The old request no longer stands, but a new one waits for a second turn of alice's.
    assert!(table.refused("bob", takeback()).contains("once alice has played 1 more turn"));
    table.ok("bob", mv("c3"));
    table.ok("alice", mv("d3"));
    table.ok("bob", takeback());
    assert!(table.service.press(&caller("alice"), "takeback-accept:1").reply.ok);
    assert_eq!(turns(&table, id), ["R@e5", "R@d4"]);
}

#[test]
fn a_request_waits_across_a_restart() {
    let dir = tempfile::tempdir().unwrap();
    {
        let table = Table::with(SledStore::open(dir.path()).unwrap(), Settings::default());
        table.go("alice", "bob", 3, "board=9x9");
        table.ok("bob", mv("e5"));
        table.ok("bob", takeback());
    }
    let table = Table::with(SledStore::open(dir.path()).unwrap(), Settings::default());
    assert!(table.service.press(&caller("alice"), "takeback-accept:1").reply.ok);
    assert!(turns(&table, GameId(1)).is_empty());
}

#[test]
fn stonemate_accepts_at_once_in_its_unrated_games() {
    let table = Table::with_silent_bot();
    let challenge = Command::Challenge {
        opponent: Some(stonemate()),
        game: GameKind::Go,
        color: ColorChoice::Black,
        days: Some(3),
        options: Some("board=9x9".into()),
        level: Level::Easy,
    };
    let id = table.ok("alice", challenge).reply.about.unwrap();
    table.ok("alice", mv("e5"));
    let reply = table.ok("alice", takeback()).reply;
    assert!(reply.text().starts_with("Stonemate accepts: R@e5 taken back in #1. alice to move"), "{}", reply.text());
    assert!(reply.message.mentions().is_empty(), "the caller is not pinged by his own command");
    assert!(turns(&table, id).is_empty());
}

#[test]
fn a_takeback_racing_a_turn_applies_at_most_one_of_them() {
    for round in 0..8 {
        let table = Table::new();
        let id = table.go("alice", "bob", 3, "board=9x9");
        table.ok("bob", mv("e5"));
        table.ok("bob", takeback());
        let barrier = Barrier::new(2);
        let (accepted, played) = std::thread::scope(|scope| {
            let accept = scope.spawn(|| {
                barrier.wait();
                table.service.press(&caller("alice"), "takeback-accept:1").reply.ok
            });
            let play = scope.spawn(|| {
                barrier.wait();
                table.service.handle(&caller("alice"), mv("d4")).reply.ok
            });
            (accept.join().unwrap(), play.join().unwrap())
        });
        assert!(accepted ^ played, "round {round}: accepted {accepted}, played {played}");
        let expected: &[&str] = if accepted { &[] } else { &["R@e5", "R@d4"] };
        assert_eq!(turns(&table, id), expected, "round {round}");
    }
}
