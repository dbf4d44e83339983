//! `/resign`, `/draw`, `/abort`, `/claim`, `/extratime`, `/admin-abort`.

use stonemate_bot::clock::Span;
use stonemate_bot::service::commands::Value;
use stonemate_bot::service::{Command, GameId};
use stonemate_bot::store::{CalledOff, Phase};
use stonemate_engine::{Color, EndReason};

use super::common::{HOME, Table, admin_of, caller, game_opt, mv, text, typed, user};
use super::ratings::opening;

#[test]
fn resign_asks_to_confirm_then_the_button_ends_the_game() {
    let table = Table::new();
    let id = table.go("alice", "bob", 3, "board=9x9");
    opening(&table, id, "alice", "bob");
    let before = table.service.store().dump().unwrap();
    let ask = table.ok("bob", Command::Resign { game: None }).reply;
    assert!(ask.private);
    assert_eq!(ask.buttons[0].custom_id, "resign:1");
    assert_eq!(table.service.store().dump().unwrap(), before, "asking changes nothing");
    assert!(table.press_refused("carol", "resign:1").contains("not your game"));
    let response = table.service.press(&caller("bob"), "resign:1");
    assert!(response.reply.ok && !response.reply.private);
    assert!(response.reply.images[0].bytes.starts_with(b"\x89PNG"));
    // A rated game: the new ratings follow the result (ratings.rs checks the figures).
    assert_eq!(
        response.reply.text(),
        "#1 is over: alice (white) wins by resignation. Ratings: alice 1662?, bob 1338?."
    );
    assert_eq!(response.notices[0].message.mentions(), [user("alice").id], "the result is told to the other player");
    let result = table.record(id).result.unwrap();
    assert_eq!((result.winner(), result.ending.reason), (Some(Color::White), EndReason::Resignation));
    assert!(table.press_refused("bob", "resign:1").starts_with("#1 is over"));
    assert!(table.refused("bob", Command::Resign { game: game_opt(id) }).starts_with("#1 is over"));
}

#[test]
fn draw_offer_then_accept_by_draw() {
    let table = Table::new();
    let id = table.go("alice", "bob", 3, "board=9x9");
    opening(&table, id, "alice", "bob");
    let offer = table.ok("bob", Command::Draw { game: None }).reply;
    assert_eq!(offer.message.mentions(), [user("alice").id]);
    assert_eq!(offer.buttons[0].custom_id, "draw-accept:1");
    assert_eq!(table.record(id).pending.draw_offer, Some(Color::Black));
    assert_eq!(
        table.refused("bob", Command::Draw { game: None }),
        "your draw offer in #1 is waiting for alice's answer: one request at a time"
    );
    assert!(table.press_refused("bob", "draw-accept:1").contains("no draw offer"));
    let done = table.ok("alice", Command::Draw { game: None }).reply;
    assert_eq!(done.text(), "#1 is over: draw (agreement). Ratings: alice 1500?, bob 1500?.");
    let record = table.record(id);
    assert_eq!((record.phase, record.result.unwrap().ending.reason), (Phase::Finished, EndReason::Agreement));
}

#[test]
fn draw_buttons_accept_and_decline() {
    let table = Table::new();
    let id = table.go("alice", "bob", 3, "board=9x9");
    table.ok("alice", Command::Draw { game: None });
    assert!(table.service.press(&caller("bob"), "draw-decline:1").reply.ok);
    assert_eq!(table.record(id).pending.draw_offer, None);
    assert!(table.press_refused("bob", "draw-accept:1").contains("no draw offer"));
    // alice offers again once bob has played two turns.
    table.ok("bob", mv("e5"));
    table.ok("alice", mv("c7"));
    table.ok("bob", mv("g3"));
    table.ok("alice", Command::Draw { game: None });
    assert!(table.service.press(&caller("bob"), "draw-accept:1").reply.ok);
    assert_eq!(table.record(id).result.unwrap().ending.reason, EndReason::Agreement);
}

#[test]
fn playing_on_declines_the_opponents_draw_offer() {
    let table = Table::new();
    let id = table.go("alice", "bob", 3, "board=9x9");
    table.ok("alice", Command::Draw { game: None });
    table.ok("bob", mv("e5"));
    assert_eq!(table.record(id).pending.draw_offer, None);
    // The mover's own offer stands while he plays on.
    table.ok("bob", Command::Draw { game: None });
    table.ok("alice", mv("d4"));
    table.ok("bob", mv("c3"));
    assert_eq!(table.record(id).pending.draw_offer, None, "alice's turn answered it");
}

#[test]
fn abort_only_before_any_turn() {
    let table = Table::new();
    let id = table.go("alice", "bob", 3, "board=9x9");
    let response = table.ok("alice", Command::Abort { game: None });
    assert_eq!(response.reply.text(), "#1 is over: aborted by alice.");
    assert_eq!(table.record(id).result.unwrap().outcome_name(), "none");
    let id = table.go("alice", "bob", 3, "board=9x9");
    table.ok("bob", mv("e5"));
    assert_eq!(
        table.refused("bob", Command::Abort { game: game_opt(id) }),
        "#2 cannot be aborted: turns have been played (resign instead)"
    );
    assert_eq!(table.refused("carol", Command::Abort { game: game_opt(id) }), "#2 is not your game");
}

#[test]
fn claim_wins_only_after_the_opponents_time_ran_out() {
    let table = Table::new();
    let id = table.go("alice", "bob", 1, "board=9x9");
    opening(&table, id, "alice", "bob");
    // bob is to move; alice waits.
    assert_eq!(
        table.refused("bob", Command::Claim { game: None }),
        "it is your turn in #1: only the waiting player can claim"
    );
    table.advance(Span::HOUR);
    assert_eq!(
        table.refused("alice", Command::Claim { game: None }),
        "#1: bob's time for this turn runs out in 23h 0m (2023-11-15 22:13 UTC)"
    );
    table.advance(Span::days(1));
    let response = table.ok("alice", Command::Claim { game: None });
    assert!(response.reply.text().contains("alice (white) wins by time"), "{}", response.reply.text());
    assert_eq!(table.record(id).result.unwrap().ending.reason, EndReason::Timeout);
}

#[test]
fn claim_and_extratime_need_a_clock() {
    let table = Table::new();
    table.go("alice", "bob", 0, "board=9x9");
    assert_eq!(table.refused("alice", Command::Claim { game: None }), "#1 has no clock (0 days per move)");
    assert_eq!(table.refused("alice", Command::ExtraTime { game: None, days: 2 }), "#1 has no clock (0 days per move)");
}

#[test]
fn extratime_gives_the_opponent_more_days_for_this_turn() {
    let table = Table::new();
    let id = table.go("alice", "bob", 2, "board=9x9");
    let deadline = table.record(id).clock.unwrap().deadline;
    for days in [0, 15, -3] {
        assert_eq!(
            table.refused("alice", typed("extratime", &[("days", Value::Number(days))])),
            format!("extra time must be 1 to 14 days, not {days}")
        );
    }
    let text = table.refused("bob", Command::ExtraTime { game: None, days: 2 });
    assert_eq!(text, "it is your turn in #1: only the waiting player can give extra time");
    let response = table.ok("alice", Command::ExtraTime { game: None, days: 2 });
    assert_eq!(response.reply.message.mentions(), [user("bob").id]);
    assert_eq!(table.record(id).clock.unwrap().deadline, deadline + Span::days(2));
    // After a timeout, extra time counts from now.
    table.advance(Span::days(10));
    table.ok("alice", Command::ExtraTime { game: None, days: 1 });
    assert_eq!(table.record(id).clock.unwrap().deadline, table.now() + Span::days(1));
}

#[test]
fn admin_abort_ends_any_game_or_challenge() {
    let table = Table::new();
    let id = table.go("alice", "bob", 3, "board=9x9");
    table.ok("bob", mv("e5"));
    let challenge = table.challenge("carol", "dave", "go", 3, "");
    let moderator = admin_of("mod", HOME);
    let response = table.ok_as(&moderator, Command::AdminAbort { game: id });
    assert_eq!(response.notices.len(), 2, "both players are told");
    assert!(matches!(table.record(id).result.unwrap().called_off, Some(CalledOff::Admin(_))));
    table.ok_as(&moderator, typed("admin-abort", &[("game", text(&format!("#{}", challenge.0)))]));
    assert_eq!(table.record(challenge).phase, Phase::Finished);
    let text = table.refused_as(&moderator, Command::AdminAbort { game: id });
    assert!(text.starts_with("#1 is over"), "{text}");
    let text = table.refused_as(&moderator, Command::AdminAbort { game: GameId(42) });
    assert_eq!(text, "there is no game or challenge #42");
}
