//! `/stats` and `/leaderboard` (issue 18): results and ratings per server and game.

use stonemate_bot::service::commands::Value;
use stonemate_bot::service::{Command, GuildId};
use stonemate_engine::GameKind;

use super::common::{Table, in_server, text, typed, user};
use super::ratings::{End, finish};

fn leaderboard(table: &Table, who: &str) -> String {
    table.ok(who, typed("leaderboard", &[("game", text("go"))])).reply.text()
}

#[test]
fn stats_of_another_user_count_his_results_and_show_his_rating() {
    let table = Table::new();
    finish(&table, "alice", "bob", End::WhiteWins);
    finish(&table, "bob", "alice", End::Draw);
    finish(&table, "carol", "alice", End::WhiteWins);
    // An aborted game counts for nothing.
    let id = table.go("alice", "bob", 0, "board=9x9");
    table.ok("bob", Command::Abort { game: Some(id) });
    let reply = table.ok("bob", typed("stats", &[("user", Value::User(user("alice")))])).reply;
    assert!(!reply.private, "anyone may look");
    let alice = table.service.store().rating(super::common::HOME, GameKind::Go, user("alice").id).unwrap().unwrap();
    let line = format!(
        "Go with chess pieces: 3 games (1 win, 1 loss, 1 draw), rating {:.0}{}",
        alice.rating,
        if alice.deviation > 110.0 { "?" } else { "" }
    );
    assert!(reply.text().starts_with(&format!("alice in this server:\n{line}\n")), "{}", reply.text());
    assert!(reply.text().contains("provisional"), "the mark is explained: {}", reply.text());
    // Only the games of this server.
    let elsewhere = table.ok_as(&in_server("alice", GuildId(2)), typed("stats", &[])).reply.text();
    assert_eq!(elsewhere, "alice has finished no game in this server yet.");
    // One game only: the others are left out, an unplayed one says so.
    let chego = table.ok("alice", typed("stats", &[("game", text("chego"))])).reply.text();
    assert!(
        chego.starts_with("alice in this server:\nChego: 0 games (0 wins, 0 losses, 0 draws), unrated\n"),
        "{chego}"
    );
}

#[test]
fn the_leaderboard_lists_the_best_rated_first_with_provisional_marks() {
    let table = Table::new();
    // alice beats everyone, eve loses to everyone.
    for (white, black) in [("alice", "bob"), ("alice", "carol"), ("bob", "eve"), ("carol", "eve"), ("alice", "eve")] {
        finish(&table, white, black, End::WhiteWins);
    }
    let mut ratings = table.service.store().ratings(super::common::HOME, GameKind::Go).unwrap();
    ratings.sort_by(|a, b| b.rating.total_cmp(&a.rating));
    let text = leaderboard(&table, "bob");
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[0], "**Go with chess pieces** leaderboard:");
    for (place, rating) in ratings.iter().enumerate() {
        let name = table.service.user_name(rating.user).unwrap();
        let mark = if rating.deviation > 110.0 { "?" } else { "" };
        let games = if rating.games == 1 { "1 game".to_owned() } else { format!("{} games", rating.games) };
        assert_eq!(lines[place + 1], format!("{}. {name} — {:.0}{mark} ({games})", place + 1, rating.rating));
    }
    assert!(lines[1].starts_with("1. alice — ") && lines[4].starts_with("4. eve — "), "{text}");
    assert!(lines[1].contains('?'), "three games leave a provisional rating: {text}");
    assert_eq!(lines.len(), 6, "four players and the explanation: {text}");
}

#[test]
fn a_settled_rating_loses_its_provisional_mark() {
    let table = Table::new();
    let settled = |name: &str| {
        let rating = table.service.store().rating(super::common::HOME, GameKind::Go, user(name).id).unwrap();
        rating.is_some_and(|rating| rating.deviation <= 110.0)
    };
    let mut games = 0;
    while !settled("dan") {
        let end = if games % 2 == 0 { End::WhiteWins } else { End::Draw };
        finish(&table, "dan", "fay", end);
        games += 1;
        assert!(games < 100, "the deviation keeps falling with games");
    }
    let text = leaderboard(&table, "dan");
    let dan = text.lines().find(|line| line.contains("dan")).unwrap();
    assert!(!dan.contains('?'), "{text}");
}

#[test]
fn the_leaderboard_shows_ten_and_the_callers_own_place_below_them() {
    let table = Table::new();
    // Twelve players: p00 beats p01, p01 beats p02, ...; the last one only loses.
    let names: Vec<String> = (0..12).map(|n| format!("p{n:02}")).collect();
    for pair in names.windows(2) {
        finish(&table, &pair[0], &pair[1], End::WhiteWins);
    }
    let text = leaderboard(&table, "p11");
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 1 + 10 + 2 + 1, "{text}");
    assert_eq!(lines[11], "…");
    assert!(lines[12].starts_with("12. p11 — "), "{text}");
    assert!(!leaderboard(&table, "p00").contains('…'), "a leader needs no extra line");
    assert!(!leaderboard(&table, "nobody").contains('…'), "an unrated caller has no place");
}

#[test]
fn an_empty_leaderboard_says_so() {
    let table = Table::new();
    assert_eq!(leaderboard(&table, "alice"), "Nobody has a Go with chess pieces rating in this server yet.");
}

#[test]
fn provisional_ratings_are_ranked_after_the_settled_ones() {
    let table = Table::new();
    let rating = |name: &str| table.service.store().rating(super::common::HOME, GameKind::Go, user(name).id).unwrap();
    // dan and fay draw until both are settled, near 1500; gus wins his one game.
    while !rating("dan").is_some_and(|dan| dan.deviation <= 110.0) {
        finish(&table, "dan", "fay", End::Draw);
    }
    finish(&table, "gus", "hal", End::WhiteWins);
    let (gus, dan) = (rating("gus").unwrap(), rating("dan").unwrap());
    assert!(gus.rating > dan.rating + 100.0, "one win rates gus above dan: {gus:?} {dan:?}");
    let text = leaderboard(&table, "gus");
    let names: Vec<&str> =
        text.lines().skip(1).take(4).map(|line| line.split(' ').nth(1).unwrap_or_default()).collect();
    assert_eq!(names[2..], ["gus", "hal"], "{text}");
    assert!(names[..2].contains(&"dan") && names[..2].contains(&"fay"), "{text}");
    assert!(text.lines().nth(3).unwrap().starts_with("3. gus — ") && text.contains('?'), "{text}");
}
