//! Ratings through the service (issue 18): Glicko-2 figures equal to `skillratings`' own
//! for the same series of results, written with the result or not at all; unrated games
//! (against the bot, aborted, never started) leave every rating as it was.

use std::collections::HashMap;
use std::sync::atomic::Ordering;

use skillratings::Outcomes;
use skillratings::glicko2::{Glicko2Config, Glicko2Rating, glicko2};
use stonemate_bot::clock::Span;
use stonemate_bot::service::{ColorChoice, Command, GameId, GuildId, Level};
use stonemate_bot::store::{Dump, Phase, RatingChange, RatingRecord};
use stonemate_engine::GameKind;

use super::common::{HOME, Table, admin_of, caller, game_opt, in_server, meddling_table, mv_in, stonemate, user};

/// How a game of the series ends, for white (the challenger).
#[derive(Debug, Clone, Copy)]
pub enum End {
    WhiteWins,
    BlackWins,
    Draw,
}

/// Plays a 9x9 game from challenge to result: `white` challenges `black` (on a clock, as
/// rated games are), each plays a turn, then `black` resigns, or `white` resigns, or both
/// agree a draw. Returns the result reply's text.
pub fn finish(table: &Table, white: &str, black: &str, end: End) -> String {
    let id = table.go(white, black, 3, "board=9x9");
    opening(table, id, white, black);
    finish_game(table, id, white, black, end)
}

/// The first turn of each player of 9x9 game `id` (black moves first): only a game both
/// players began is rated.
pub fn opening(table: &Table, id: GameId, white: &str, black: &str) {
    table.ok(black, mv_in("e5", id));
    table.ok(white, mv_in("c7", id));
}

/// Ends game `id` (being played by `white` and `black`) as `end` says.
pub fn finish_game(table: &Table, id: GameId, white: &str, black: &str, end: End) -> String {
    let resign = |loser: &str| {
        table.ok(loser, Command::Resign { game: game_opt(id) });
        let reply = table.service.press(&caller(loser), &format!("resign:{}", id.0)).reply;
        assert!(reply.ok, "{}", reply.text());
        reply.text()
    };
    match end {
        End::WhiteWins => resign(black),
        End::BlackWins => resign(white),
        End::Draw => {
            table.ok(white, Command::Draw { game: game_opt(id) });
            table.ok(black, Command::Draw { game: game_opt(id) }).reply.text()
        }
    }
}

fn outcome(end: End) -> Outcomes {
    match end {
        End::WhiteWins => Outcomes::WIN,
        End::BlackWins => Outcomes::LOSS,
        End::Draw => Outcomes::DRAW,
    }
}

fn stored(table: &Table, name: &str) -> Option<RatingRecord> {
    table.service.store().rating(HOME, GameKind::Go, user(name).id).unwrap()
}

#[track_caller]
fn assert_same(found: &RatingRecord, expected: &Glicko2Rating, games: u32) {
    let close = |a: f64, b: f64| (a - b).abs() < 1e-9;
    assert!(
        close(found.rating, expected.rating)
            && close(found.deviation, expected.deviation)
            && close(found.volatility, expected.volatility),
        "stored {found:?}, skillratings says {expected:?}"
    );
    assert_eq!(found.games, games);
}

fn no_ratings(dump: &Dump) -> bool {
    dump.iter().all(|(key, _)| key.first() != Some(&b'r'))
}

#[test]
fn ratings_after_a_series_of_results_are_skillratings_own_figures() {
    let table = Table::new();
    let series = [
        ("alice", "bob", End::WhiteWins),
        ("bob", "carol", End::WhiteWins),
        ("carol", "alice", End::Draw),
        ("alice", "bob", End::BlackWins),
        ("dave", "alice", End::BlackWins),
        ("bob", "dave", End::Draw),
    ];
    let mut expected: HashMap<&str, (Glicko2Rating, u32)> = HashMap::new();
    for (white, black, end) in series {
        finish(&table, white, black, end);
        let (w, w_games) = expected.get(white).copied().unwrap_or_default();
        let (b, b_games) = expected.get(black).copied().unwrap_or_default();
        let (w, b) = glicko2(&w, &b, &outcome(end), &Glicko2Config::new());
        expected.insert(white, (w, w_games + 1));
        expected.insert(black, (b, b_games + 1));
    }
    for (name, (rating, games)) in &expected {
        assert_same(&stored(&table, name).expect("a rated player"), rating, *games);
    }
}

#[test]
fn the_result_reply_shows_the_new_ratings_marked_provisional() {
    let table = Table::new();
    let text = finish(&table, "alice", "bob", End::WhiteWins);
    // skillratings' own example: 1500 ± 350 beating 1500 ± 350 gives 1662 and 1338, ± 290.
    assert!(text.ends_with("Ratings: alice 1662?, bob 1338?."), "{text}");
}

#[test]
fn ratings_are_kept_per_server_and_game() {
    let table = Table::new();
    finish(&table, "alice", "bob", End::WhiteWins);
    let elsewhere = in_server("alice", GuildId(2));
    let id = table.challenge_from(&elsewhere, "bob");
    table.ok_as(&in_server("bob", GuildId(2)), Command::Accept { challenge: game_opt(id) });
    table.ok_as(&in_server("bob", GuildId(2)), mv_in("e5", id));
    table.ok_as(&elsewhere, mv_in("c7", id));
    table.ok_as(&in_server("bob", GuildId(2)), Command::Resign { game: game_opt(id) });
    assert!(table.service.press(&in_server("bob", GuildId(2)), &format!("resign:{}", id.0)).reply.ok);
    let store = table.service.store();
    assert_eq!(stored(&table, "alice").unwrap().games, 1, "the other server's game is not counted here");
    assert_eq!(store.rating(GuildId(2), GameKind::Go, user("alice").id).unwrap().unwrap().games, 1);
    assert_eq!(store.rating(HOME, GameKind::Chego, user("alice").id).unwrap(), None);
}

#[test]
fn games_against_the_bot_aborted_games_and_unanswered_challenges_are_not_rated() {
    let table = Table::with_silent_bot();
    // Against the bot: resigned.
    let bot_game = Command::Challenge {
        opponent: Some(stonemate()),
        game: GameKind::Go,
        color: ColorChoice::Black,
        days: Some(0),
        options: Some("board=9x9".into()),
        level: Level::Easy,
    };
    let id = table.ok("alice", bot_game).reply.about.unwrap();
    table.ok("alice", Command::Resign { game: game_opt(id) });
    assert!(table.service.press(&caller("alice"), &format!("resign:{}", id.0)).reply.ok);
    assert_eq!(table.record(id).phase, Phase::Finished);
    // Aborted by a player, and by an administrator.
    let id = table.go("alice", "bob", 0, "board=9x9");
    table.ok("bob", Command::Abort { game: game_opt(id) });
    let id = table.go("alice", "carol", 0, "board=9x9");
    table.ok_as(&admin_of("mod", HOME), Command::AdminAbort { game: id });
    // Declined, withdrawn and expired challenges.
    let id = table.challenge("alice", "bob", "go", 0, "board=9x9");
    table.ok("bob", Command::Decline { challenge: game_opt(id) });
    let id = table.challenge("alice", "carol", "go", 0, "board=9x9");
    table.ok("alice", Command::Withdraw { challenge: game_opt(id) });
    table.challenge("alice", "dave", "go", 0, "board=9x9");
    table.advance(Span::days(8));
    table.service.tick();
    assert!(no_ratings(&table.service.store().dump().unwrap()));
    assert!(table.service.store().ratings(HOME, GameKind::Go).unwrap().is_empty());
    // A rated game afterwards starts from the first rating, as if nothing had happened.
    finish(&table, "alice", "bob", End::WhiteWins);
    let first = glicko2(&Glicko2Rating::new(), &Glicko2Rating::new(), &Outcomes::WIN, &Glicko2Config::new()).0;
    assert_same(&stored(&table, "alice").unwrap(), &first, 1);
    // `/stats` counts the games against the bot apart from the rated ones.
    let stats = table.ok("alice", super::common::typed("stats", &[])).reply.text();
    let line = stats.lines().nth(1).unwrap_or_default();
    assert_eq!(
        line,
        format!(
            "Go with chess pieces: 1 game (1 win, 0 losses, 0 draws), rating {:.0}?; \
             against Stonemate: 1 game (0 wins, 1 loss, 0 draws)",
            first.rating
        ),
        "{stats}"
    );
}

#[test]
fn a_failed_result_write_changes_no_rating_and_no_record() {
    let (table, store) = meddling_table();
    let id = table.go("alice", "bob", 3, "board=9x9");
    opening(&table, id, "alice", "bob");
    table.ok("bob", Command::Resign { game: game_opt(id) });
    let before = store.inner.dump().unwrap();
    store.fail.store(true, Ordering::SeqCst);
    let reply = table.service.press(&caller("bob"), &format!("resign:{}", id.0)).reply;
    assert!(!reply.ok, "{}", reply.text());
    assert_eq!(store.inner.dump().unwrap(), before, "neither the result nor a rating was written");
    assert!(no_ratings(&store.inner.dump().unwrap()));
}

#[test]
fn a_rating_changed_meanwhile_fails_the_write_which_runs_again_from_the_new_rating() {
    let (table, store) = meddling_table();
    let id = table.go("alice", "bob", 3, "board=9x9");
    opening(&table, id, "alice", "bob");
    let other = table.go("alice", "carol", 0, "board=9x9");
    // Meanwhile alice's other game ends (another process): her rating moves to 1600 ± 200.
    let moved = RatingRecord {
        user: user("alice").id,
        kind: GameKind::Go,
        guild: HOME,
        rating: 1600.0,
        deviation: 200.0,
        volatility: 0.06,
        games: 1,
    };
    let mut other_record = table.record(other);
    other_record.version += 1;
    *store.slip_in.lock().unwrap() = Some((other_record, RatingChange { before: None, after: moved }));
    finish_game(&table, id, "alice", "bob", End::WhiteWins);
    // The first write, made from alice's unrated start, was refused whole; the command ran
    // again from the rating the other game left.
    let expected = glicko2(
        &Glicko2Rating { rating: 1600.0, deviation: 200.0, volatility: 0.06 },
        &Glicko2Rating::new(),
        &Outcomes::WIN,
        &Glicko2Config::new(),
    );
    assert_same(&stored(&table, "alice").unwrap(), &expected.0, 2);
    assert_same(&stored(&table, "bob").unwrap(), &expected.1, 1);
    assert_eq!(table.record(id).phase, Phase::Finished);
}
