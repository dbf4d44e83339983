//! `/games status:finished`: finished games most recently finished first, with result and
//! reason, ten a page; records from before the finish time was stored come last.

use stonemate_bot::clock::Span;
use stonemate_bot::service::commands::Value;
use stonemate_bot::service::{Command, GameId};

use super::common::{Table, game_opt, text, typed, user};

fn finished(page: u32) -> Command {
    Command::Games { user: None, status: stonemate_bot::service::GameStatus::Finished, page }
}

/// A game between alice and `opponent` that alice aborts at once.
fn aborted(table: &Table, opponent: &str) -> GameId {
    let id = table.go("alice", opponent, 3, "board=9x9");
    table.ok("alice", Command::Abort { game: game_opt(id) });
    id
}

#[test]
fn finished_games_come_newest_first_with_result_and_reason() {
    let table = Table::new();
    let first = table.go("alice", "bob", 3, "board=9x9");
    let second = table.go("alice", "carol", 3, "board=9x9");
    table.ok("alice", Command::Abort { game: game_opt(second) });
    table.advance(Span::HOUR);
    table.ok("bob", Command::Resign { game: game_opt(first) });
    table.service.press(&super::common::caller("bob"), &format!("resign:{}", first.0));
    let text = table.ok("alice", finished(1)).reply.text();
    assert_eq!(
        text,
        "alice's finished games, newest first (page 1 of 1):\n\
         #1 go vs bob: alice (white) wins by resignation, ended just now (2023-11-14 23:13 UTC)\n\
         #2 go vs carol: aborted by alice, ended 1h 0m ago (2023-11-14 22:13 UTC)"
    );
    let active = table
        .ok("alice", Command::Games { user: None, status: stonemate_bot::service::GameStatus::Active, page: 1 })
        .reply
        .text();
    assert_eq!(active, "alice has no active games or challenges.", "active is as before");
}

#[test]
fn finished_games_are_paged_ten_at_a_time_and_a_page_beyond_the_end_is_refused() {
    let table = Table::new();
    let ids: Vec<GameId> = (0..12).map(|n| aborted(&table, &format!("p{n}"))).collect();
    let page_one = table.ok("alice", finished(1)).reply.text();
    assert!(page_one.starts_with("alice's finished games, newest first (page 1 of 2):\n#12 "), "{page_one}");
    assert_eq!(page_one.lines().filter(|line| line.starts_with('#')).count(), 10);
    assert!(page_one.ends_with("Older ones: `/games status:finished page:2`"), "{page_one}");
    let page_two = table.ok("alice", finished(2)).reply.text();
    let listed: Vec<&str> = page_two.lines().skip(1).map(|line| line.split(' ').next().unwrap()).collect();
    assert_eq!(listed, [ids[1].to_string(), ids[0].to_string()]);
    assert_eq!(table.refused("alice", finished(3)), "page 3 is beyond the end: there are 2 pages");
    assert_eq!(table.ok("zed", finished(1)).reply.text(), "zed has no finished games.");
}

#[test]
fn games_without_a_finish_time_come_after_the_dated_ones_by_id() {
    let table = Table::new();
    let old = aborted(&table, "bob");
    let older = aborted(&table, "carol");
    let dated = aborted(&table, "dave");
    for id in [old, older] {
        let mut record = table.record(id);
        record.result.as_mut().unwrap().finished = None;
        record.version += 1;
        table.service.store().update_with(&record, &[], &[]).unwrap();
    }
    let text = table.ok("alice", finished(1)).reply.text();
    let listed: Vec<&str> = text.lines().skip(1).map(|line| line.split(' ').next().unwrap()).collect();
    assert_eq!(listed, [dated.to_string(), older.to_string(), old.to_string()]);
    assert!(text.lines().nth(2).unwrap().ends_with("aborted by alice"), "no time for old records: {text}");
}

#[test]
fn the_status_option_picks_the_list_and_bad_values_are_refused() {
    let table = Table::new();
    aborted(&table, "bob");
    let other = Value::User(user("bob"));
    let listed = table.ok("carol", typed("games", &[("user", other), ("status", text("finished"))])).reply.text();
    assert!(listed.starts_with("bob's finished games"), "{listed}");
    let active = table.ok("alice", typed("games", &[("status", text("active"))])).reply.text();
    assert_eq!(
        active,
        table
            .ok("alice", Command::Games { user: None, status: stonemate_bot::service::GameStatus::Active, page: 1 })
            .reply
            .text()
    );
    assert_eq!(
        table.refused("alice", typed("games", &[("status", text("lost"))])),
        "`lost` is not a game status: use active or finished"
    );
    let zero = typed("games", &[("status", text("finished")), ("page", Value::Number(0))]);
    assert_eq!(table.refused("alice", zero), "pages are numbered 1 to 1000, not 0");
}

fn active(page: u32) -> Command {
    Command::Games { user: None, status: stonemate_bot::service::GameStatus::Active, page }
}

#[test]
fn active_games_are_paged_so_that_every_one_can_be_reached() {
    let table = Table::new();
    // The most games one player may have going.
    let ids: Vec<GameId> = (0..30).map(|n| table.go("alice", &format!("p{n}"), 3, "board=9x9")).collect();
    let mut listed = Vec::new();
    for page in 1..=2 {
        let text = table.ok("alice", active(page)).reply.text();
        assert!(text.starts_with(&format!("alice's games (page {page} of 2):\n")), "{text}");
        assert!(text.chars().count() <= 2000, "within Discord's limit");
        assert!(!text.contains("more on this page"), "a page is shown whole: {text}");
        listed.extend(
            text.lines().filter(|line| line.starts_with('#')).map(|line| line.split(' ').next().unwrap().to_owned()),
        );
        let more = format!("More: `/games page:{}`", page + 1);
        assert_eq!(text.ends_with(&more), page < 2, "{text}");
    }
    let mut expected: Vec<String> = ids.iter().map(ToString::to_string).collect();
    expected.sort();
    listed.sort();
    assert_eq!(listed, expected, "each game on exactly one page");
    assert_eq!(table.refused("alice", active(3)), "page 3 is beyond the end: there are 2 pages");
    let one = Table::new();
    one.go("alice", "bob", 3, "board=9x9");
    assert!(one.ok("alice", active(1)).reply.text().starts_with("alice's games:\n#1 "), "one page, no page numbers");
}

/// `/board` without `game:` among many games asks which one within a message, naming the
/// first fifteen and how to see the rest (issue 41: it stopped silently at the cut).
#[test]
fn which_one_names_the_first_games_and_how_to_list_the_rest() {
    let table = Table::new();
    for n in 0..30 {
        table.go("alice", &format!("player-with-a-long-name-{n:02}"), 3, "board=9x9");
    }
    let asked = table.refused("alice", typed("board", &[]));
    assert!(asked.chars().count() < 2000, "{} characters", asked.chars().count());
    assert!(asked.starts_with("which one? Name it with `game:` — #1 (go, "), "{asked}");
    assert!(asked.contains("#15 (go, ") && !asked.contains("#16 (go, "), "{asked}");
    assert!(asked.ends_with("and 15 more (`/games page:1` lists them all)"), "{asked}");
}
