//! Commands without `game:` when the caller has several games in the channel: the only
//! one the command fits is picked without asking (issue 13); with none or several that
//! fit, the reply still asks which one.

use stonemate_bot::clock::Span;
use stonemate_bot::service::{Command, GameId};
use stonemate_engine::{Color, EndReason};

use super::common::{Table, game_opt, mv, mv_in};

/// Two games of alice (white) against bob (black, who moves first), both in the channel;
/// bob has played in the first, so alice is to move there and bob in the second.
fn two_games(table: &Table, days: u8) -> (GameId, GameId) {
    let first = table.go("alice", "bob", days, "board=9x9");
    let second = table.go("alice", "bob", days, "board=9x9");
    table.ok("bob", mv_in("e5", first));
    (first, second)
}

#[test]
fn move_drop_and_pass_pick_the_only_game_where_the_caller_is_to_move() {
    let table = Table::new();
    let (first, second) = two_games(&table, 3);
    assert_eq!(table.ok("alice", mv("c3")).reply.about, Some(first));
    // bob is to move in both: he is asked.
    let text = table.refused("bob", Command::Pass { game: None });
    assert!(text.starts_with("which one?"), "{text}");
    table.ok("bob", mv_in("g7", first));
    assert_eq!(table.ok("bob", mv("g3")).reply.about, Some(second), "bob is to move only in the second");
    table.ok("alice", mv_in("c7", first));
    let drop = Command::Drop { piece: "R".into(), square: "c7".into(), game: None };
    assert_eq!(table.ok("alice", drop).reply.about, Some(second), "alice is to move only in the second");
    table.ok("bob", Command::Pass { game: game_opt(first) });
    assert_eq!(table.ok("bob", Command::Pass { game: None }).reply.about, Some(second));
}

#[test]
fn claim_picks_the_only_game_whose_opponent_ran_out_of_time() {
    let table = Table::new();
    let (first, second) = two_games(&table, 1);
    // Both players began both games (else a time out aborts them).
    table.ok("alice", mv_in("c3", first));
    table.ok("bob", mv_in("g7", first));
    table.ok("bob", mv_in("e5", second));
    table.ok("alice", mv_in("c7", second));
    // alice to move in the first, bob in the second; a day later both have run out.
    table.advance(Span::days(1) + Span::HOUR);
    let response = table.ok("alice", Command::Claim { game: None });
    assert_eq!(response.reply.about, Some(second), "bob's time ran out in the second");
    let result = table.record(second).result.unwrap();
    assert_eq!((result.winner(), result.ending.reason), (Some(Color::White), EndReason::Timeout));
    assert_eq!(table.ok("bob", Command::Claim { game: None }).reply.about, Some(first));
}

#[test]
fn extratime_picks_the_only_game_where_the_opponent_is_to_move() {
    let table = Table::new();
    let (_, second) = two_games(&table, 3);
    let response = table.ok("alice", Command::ExtraTime { game: None, days: 2 });
    assert_eq!(response.reply.about, Some(second));
}

#[test]
fn draw_accepts_the_only_offer_and_abort_picks_the_only_unplayed_game() {
    let table = Table::new();
    let (first, second) = two_games(&table, 3);
    // Offering needs a choice: alice is asked.
    assert!(table.refused("alice", Command::Draw { game: None }).starts_with("which one?"));
    table.ok("alice", Command::Draw { game: game_opt(first) });
    // bob has an offer to answer in the first only: /draw accepts it.
    assert_eq!(table.ok("bob", Command::Draw { game: None }).reply.about, Some(first));
    assert_eq!(table.record(first).result.unwrap().ending.reason, EndReason::Agreement);
    let third = table.go("alice", "bob", 3, "board=9x9");
    table.ok("bob", mv_in("e5", second));
    // No turn yet in the third only: /abort picks it.
    assert_eq!(table.ok("alice", Command::Abort { game: None }).reply.about, Some(third));
}
