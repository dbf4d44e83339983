//! Time as correspondence sites keep it (issue 27): with `timeouts = "automatic"` (the
//! default) a player whose time runs out loses at once and both players are told; with
//! `"claim"` the waiting player claims. A game in which a player has not yet played a
//! turn of his own is aborted instead, unrated, whichever the setting. Games without a
//! clock are never rated, and no game is rated before both players have played.

use stonemate_bot::clock::Span;
use stonemate_bot::service::commands::Value;
use stonemate_bot::service::{Command, Settings, Target, Timeouts};
use stonemate_bot::store::{CalledOff, MemoryStore, Phase};
use stonemate_engine::{Color, EndReason, GameKind};

use super::common::{GENERAL, HOME, Table, caller, game_opt, mv, typed, user};

fn claim_table() -> Table {
    Table::with(MemoryStore::new(), Settings { timeouts: Timeouts::Claim, ..Settings::default() })
}

/// Whether anyone has a go rating in the home server.
fn rated(table: &Table, name: &str) -> bool {
    table.service.store().rating(HOME, GameKind::Go, user(name).id).unwrap().is_some()
}

/// A 9x9 game of `days` per turn in which bob (black, first) and alice have each played a
/// turn: bob is to move.
fn begun(table: &Table, days: u8) -> stonemate_bot::service::GameId {
    let id = table.go("alice", "bob", days, "board=9x9");
    table.ok("bob", mv("e5"));
    table.ok("alice", mv("c7"));
    id
}

#[test]
fn a_player_whose_time_runs_out_loses_at_once_and_both_players_are_told() {
    let table = Table::new();
    let id = begun(&table, 1);
    table.advance(Span::days(1) + Span::MINUTE);
    let notices = table.service.tick();
    let record = table.record(id);
    assert_eq!(record.phase, Phase::Finished, "no claim needed");
    let result = record.result.clone().unwrap();
    assert_eq!((result.winner(), result.ending.reason), (Some(Color::White), EndReason::Timeout));
    assert_eq!(result.finished, Some(table.now()));
    let told: Vec<_> = notices.iter().flat_map(|notice| notice.message.mentions().clone()).collect();
    assert_eq!(told, [user("bob").id, user("alice").id], "the loser is told too: {notices:#?}");
    let [to_bob, to_alice] = notices.as_slice() else { panic!("{notices:#?}") };
    assert!(to_bob.text().starts_with("@bob: your time for #1 ran out 1m ago"), "{}", to_bob.text());
    // Both are told the result and, like every other ending of a rated game, the ratings.
    let result = "#1 is over, alice (white) wins by time (W+T). Ratings: alice 1662?, bob 1338?.";
    assert!(to_bob.text().ends_with(result), "{}", to_bob.text());
    assert!(to_alice.text().starts_with("@alice: bob's time for #1 ran out"), "{}", to_alice.text());
    assert!(to_alice.text().ends_with(result), "{}", to_alice.text());
    assert_eq!(to_bob.target, Target::Channel(GENERAL));
    let rematches = notices.iter().flat_map(|notice| &notice.buttons).filter(|b| b.custom_id == "rematch:1").count();
    assert_eq!(rematches, 1, "one Rematch for the result nobody's reply shows");
    assert!(rated(&table, "alice") && rated(&table, "bob"), "a game both began, lost on time, is rated");
    assert!(table.service.tick().is_empty(), "told once");
    let board = table.ok("carol", Command::Board { game: game_opt(id) }).reply.text();
    assert!(board.contains("alice (white) wins by time (W+T)"), "{board}");
}

#[test]
fn a_claim_of_a_game_just_lost_on_time_says_it_is_over_and_how() {
    // Regression: `/claim` without a game, once the tick had ended the game on time, said
    // "you have no game in this channel".
    let table = Table::new();
    let id = begun(&table, 1);
    table.advance(Span::days(1) + Span::MINUTE);
    table.service.tick();
    assert_eq!(table.record(id).phase, Phase::Finished);
    for who in ["alice", "bob"] {
        let refused = table.refused(who, typed("claim", &[]));
        assert_eq!(refused, "#1 is over: alice (white) wins by time (W+T)", "{who}");
    }
    let refused = table.refused("alice", typed("extratime", &[("days", Value::Number(1))]));
    assert_eq!(refused, "#1 is over: alice (white) wins by time (W+T)");
}

#[test]
fn a_game_a_player_never_began_is_aborted_unrated_whichever_the_setting() {
    for (setting, table) in [("automatic", Table::new()), ("claim", claim_table())] {
        // bob, who moves first, never plays.
        let never = table.go("alice", "bob", 1, "board=9x9");
        // carol plays her first turn; dave never answers it.
        let once = table.go("dave", "carol", 1, "board=9x9");
        table.ok("carol", mv("e5"));
        table.advance(Span::days(2));
        let notices = table.service.tick();
        for id in [never, once] {
            let record = table.record(id);
            assert_eq!(record.phase, Phase::Finished, "{setting}: {id}");
            let result = record.result.unwrap();
            assert_eq!((result.winner(), result.called_off), (None, Some(CalledOff::Unstarted)), "{setting}: {id}");
        }
        assert_eq!(notices.len(), 4, "both players of both games are told ({setting}): {notices:#?}");
        assert!(
            notices.iter().all(|notice| notice.text().contains("aborted without result")),
            "{setting}: {notices:#?}"
        );
        for name in ["alice", "bob", "carol", "dave"] {
            assert!(!rated(&table, name), "{setting}: {name} was rated");
        }
        let stats = table.ok("carol", Command::Stats { user: None, game: None }).reply.text();
        assert!(stats.contains("has finished no game"), "an aborted game counts for nothing: {stats}");
    }
}

#[test]
fn with_claim_the_waiting_player_is_told_and_claims() {
    let table = claim_table();
    let id = begun(&table, 1);
    table.advance(Span::days(2));
    let notices = table.service.tick();
    let [told] = notices.as_slice() else { panic!("{notices:#?}") };
    assert_eq!(told.message.mentions(), [user("alice").id]);
    assert!(told.text().contains("`/claim`"), "{}", told.text());
    assert_eq!(table.record(id).phase, Phase::Playing, "no automatic loss with claim");
    let claimed = table.ok("alice", Command::Claim { game: game_opt(id) });
    assert!(claimed.reply.text().contains("alice (white) wins by time (W+T)"), "{}", claimed.reply.text());
    let [to_bob] = claimed.notices.as_slice() else { panic!("{:#?}", claimed.notices) };
    assert_eq!(to_bob.message.mentions(), [user("bob").id], "the player who lost on time is told");
    assert!(rated(&table, "bob"));
}

#[test]
fn a_claim_before_both_players_played_aborts_the_game() {
    let table = claim_table();
    let id = table.go("alice", "bob", 1, "board=9x9");
    table.advance(Span::days(2));
    let claimed = table.ok("alice", Command::Claim { game: game_opt(id) }).reply.text();
    assert!(claimed.contains("aborted without result"), "{claimed}");
    let result = table.record(id).result.unwrap();
    assert_eq!((result.winner(), result.called_off), (None, Some(CalledOff::Unstarted)));
    assert!(!rated(&table, "alice"));
}

#[test]
fn games_without_a_clock_are_never_rated() {
    let table = Table::new();
    let id = begun(&table, 0);
    table.ok("bob", Command::Resign { game: game_opt(id) });
    let over = table.service.press(&caller("bob"), "resign:1").reply;
    assert!(over.ok, "{}", over.text());
    assert!(!over.text().contains("Ratings"), "{}", over.text());
    assert!(!rated(&table, "alice") && !rated(&table, "bob"));
}

#[test]
fn a_game_ended_before_both_players_played_is_not_rated() {
    let table = Table::new();
    let id = table.go("alice", "bob", 3, "board=9x9");
    table.ok("bob", mv("e5"));
    table.ok("alice", Command::Resign { game: game_opt(id) });
    let over = table.service.press(&caller("alice"), "resign:1").reply;
    assert_eq!(over.text(), "#1 is over: bob (black) wins by resignation.");
    assert!(!rated(&table, "alice") && !rated(&table, "bob"));
}
