//! Manners of correspondence play (issue 27): one draw offer per player until the
//! opponent has played two turns; one rematch however often (and by whomever) Rematch is
//! pressed; the vacation allowance counted in each calendar year; `/admin-abort` neither
//! for one's own game nor telling that another server's game exists; `/legal` only while
//! a game is played; every message within Discord's 2,000 characters; counts in words
//! that agree.

use stonemate_bot::clock::Span;
use stonemate_bot::service::commands::Value;
use stonemate_bot::service::{ColorChoice, Command, GameId, GuildId, Level};
use stonemate_bot::store::Phase;
use stonemate_engine::GameKind;

use super::common::{HOME, Table, admin_of, caller, game_opt, in_server, mv, stonemate, text, typed, user};

#[test]
fn a_player_offers_a_draw_once_until_the_opponent_has_played_two_turns() {
    let table = Table::new();
    let id = table.go("alice", "bob", 3, "board=9x9");
    table.ok("bob", Command::Draw { game: None });
    assert!(table.service.press(&caller("alice"), "draw-decline:1").reply.ok);
    let too_soon = "you offered a draw in #1 already: you may offer again once alice has played 2 more turns";
    assert_eq!(table.refused("bob", Command::Draw { game: None }), too_soon);
    table.ok("bob", mv("e5"));
    assert_eq!(table.refused("bob", Command::Draw { game: None }), too_soon, "bob's own turns do not count");
    // alice has her own one offer; playing on declines it.
    table.ok("alice", Command::Draw { game: None });
    table.ok("alice", mv("c7"));
    table.ok("bob", mv("g3"));
    assert_eq!(table.record(id).pending.draw_offer, None);
    assert_eq!(
        table.refused("bob", Command::Draw { game: None }),
        "you offered a draw in #1 already: you may offer again once alice has played 1 more turn"
    );
    table.ok("alice", mv("c3"));
    let offer = table.ok("bob", Command::Draw { game: None }).reply;
    assert_eq!(offer.message.mentions(), [user("alice").id], "after two turns of alice, bob may offer again");
    // Accepting the standing offer is never limited.
    assert!(table.ok("alice", Command::Draw { game: None }).reply.text().contains("draw (agreement)"));
}

fn rematch_press(table: &Table, who: &str, id: GameId) -> stonemate_bot::service::Response {
    table.service.press(&caller(who), &format!("rematch:{}", id.0))
}

/// How many records (challenges and games) the store holds.
fn records(table: &Table) -> usize {
    (1..=20).filter(|id| table.service.store().load(GameId(*id)).unwrap().is_some()).count()
}

#[test]
fn rematch_pressed_twice_or_by_both_players_gives_one_game() {
    let table = Table::new();
    let id = table.go("alice", "bob", 3, "board=9x9");
    table.ok("alice", Command::Resign { game: game_opt(id) });
    assert!(table.service.press(&caller("alice"), "resign:1").reply.ok);
    let first = rematch_press(&table, "alice", id).reply;
    assert!(first.ok, "{}", first.text());
    let rematch = first.about.unwrap();
    // alice again: nothing new.
    let again = table.press_refused("alice", &format!("rematch:{}", id.0));
    assert_eq!(again, format!("the rematch of {id} is {rematch}, waiting for your opponent's answer"));
    assert_eq!(records(&table), 2);
    // bob presses too: that accepts alice's challenge.
    let accepted = rematch_press(&table, "bob", id).reply;
    assert!(accepted.ok, "{}", accepted.text());
    assert_eq!(accepted.about, Some(rematch));
    assert_eq!(table.record(rematch).phase, Phase::Playing);
    assert_eq!(records(&table), 2, "one rematch");
    let late = table.press_refused("alice", &format!("rematch:{}", id.0));
    assert_eq!(late, format!("the rematch of {id} is {rematch}, being played"));
}

/// The rematches of `id` that stand (a challenge waiting, or a game begun), with their
/// phases.
fn standing_rematches(table: &Table, id: GameId) -> Vec<Phase> {
    (1..=40)
        .filter_map(|n| table.service.store().load(GameId(n)).unwrap())
        .filter(|record| {
            record.origin.rematch_of == Some(id) && matches!(record.phase, Phase::Challenge | Phase::Playing)
        })
        .map(|record| record.phase)
        .collect()
}

/// How many times each race is run: on two cores a race is lost about once in a hundred
/// rounds (measured before the fix of the bot's rematch: round 145 of 300 made two games).
const ROUNDS: usize = 300;

/// `who` press Rematch of `id` at the same moment, each on a thread of its own; returns
/// whether each press was answered `ok`.
fn press_at_once(table: &Table, id: GameId, who: &[&str]) -> Vec<bool> {
    let barrier = std::sync::Barrier::new(who.len());
    std::thread::scope(|scope| {
        let handles: Vec<_> = who
            .iter()
            .map(|name| {
                let barrier = &barrier;
                scope.spawn(move || {
                    barrier.wait();
                    rematch_press(table, name, id).reply.ok
                })
            })
            .collect();
        handles.into_iter().map(|handle| handle.join().unwrap()).collect()
    })
}

/// Issue 27: presses of Rematch that race (both players at once, or one player's double
/// tap) still give one game: the second accepts the first's challenge, or is told of it.
#[test]
fn rematch_pressed_at_the_same_moment_gives_one_game() {
    for round in 0..ROUNDS {
        let table = Table::new();
        let id = table.go("alice", "bob", 3, "board=9x9");
        table.ok("alice", Command::Resign { game: game_opt(id) });
        assert!(table.service.press(&caller("alice"), &format!("resign:{}", id.0)).reply.ok);
        let both = press_at_once(&table, id, &["alice", "bob"]);
        assert!(both.iter().all(|ok| *ok), "round {round}: both presses lead to the one game: {both:?}");
        assert_eq!(standing_rematches(&table, id), [Phase::Playing], "round {round}");
        let twice = press_at_once(&table, id, &["alice", "alice", "bob", "bob"]);
        assert!(twice.iter().all(|ok| !ok), "round {round}: the game is made: {twice:?}");
        assert_eq!(standing_rematches(&table, id), [Phase::Playing], "round {round}");
    }
    for round in 0..ROUNDS {
        let table = Table::new();
        let id = table.go("alice", "bob", 3, "board=9x9");
        table.ok("alice", Command::Resign { game: game_opt(id) });
        assert!(table.service.press(&caller("alice"), &format!("resign:{}", id.0)).reply.ok);
        let oks = press_at_once(&table, id, &["bob", "bob", "bob"]);
        assert_eq!(oks.iter().filter(|ok| **ok).count(), 1, "round {round}: one challenge made: {oks:?}");
        assert_eq!(standing_rematches(&table, id), [Phase::Challenge], "round {round}");
    }
}

/// The same against Stonemate, whose rematch begins at once: a double tap makes one game.
#[test]
fn rematch_against_the_bot_pressed_twice_at_once_gives_one_game() {
    for round in 0..ROUNDS {
        let table = Table::with_silent_bot();
        let challenge = Command::Challenge {
            opponent: Some(stonemate()),
            game: GameKind::Go,
            color: ColorChoice::Black,
            days: Some(2),
            options: Some("board=9x9".into()),
            level: Level::Easy,
        };
        let id = table.ok("alice", challenge).reply.about.unwrap();
        table.ok("alice", Command::Resign { game: game_opt(id) });
        assert!(table.service.press(&caller("alice"), &format!("resign:{}", id.0)).reply.ok);
        let oks = press_at_once(&table, id, &["alice", "alice", "alice"]);
        assert_eq!(oks.iter().filter(|ok| **ok).count(), 1, "round {round}: one game made: {oks:?}");
        assert_eq!(standing_rematches(&table, id), [Phase::Playing], "round {round}");
    }
}

#[test]
fn a_vacation_begun_on_31_december_counts_its_january_days_in_the_new_year() {
    let table = Table::new();
    table.go("alice", "bob", 3, "board=9x9");
    // From 2023-11-14 22:13:20 to 2023-12-31 12:00 UTC.
    table.advance(Span(1_704_024_000_000 - 1_700_000_000_000));
    let taken = table.ok("alice", Command::Vacation { days: 30 }).reply.text();
    // One day in 2023, 29 of 2024's: what remains of each is said.
    assert!(taken.ends_with("29 of your 30 vacation days are left this year, and 1 for 2024."), "{taken}");
    table.advance(Span::days(2));
    // 2024-01-02 12:00: each day of the vacation counts in the year it begins in, so it
    // has used one day of 2023 and one of 2024, and is planned up to 29 days of 2024; 30
    // days from now would make 31.
    let refused = table.refused("alice", Command::Vacation { days: 30 });
    assert_eq!(refused, "that is beyond the yearly vacation allowance of 30 days: you have 29 left this year, not 30");
    let longest = table.ok("alice", Command::Vacation { days: 29 }).reply.text();
    assert!(longest.contains("0 of your 30 vacation days are left this year"), "{longest}");
    let ended = table.ok("alice", Command::Vacation { days: 0 }).reply.text();
    assert!(ended.ends_with("29 of your 30 vacation days are left this year."), "1 day used in 2024: {ended}");
}

#[test]
fn admin_abort_refuses_the_callers_own_game_and_knows_no_other_servers_game() {
    let table = Table::new();
    let own = table.go("alice", "bob", 3, "board=9x9");
    table.ok("bob", mv("e5"));
    let refused = table.refused_as(&admin_of("alice", HOME), Command::AdminAbort { game: own });
    assert_eq!(
        refused,
        "#1 is your own game: an administrator cannot abort it (`/abort` before any turn, or `/resign`)"
    );
    let elsewhere = GuildId(2);
    let unknown = |caller: &stonemate_bot::service::Caller, id: u32| {
        table.refused_as(caller, Command::AdminAbort { game: GameId(id) }).replace(&format!("#{id}"), "#N")
    };
    for caller in [in_server("carol", elsewhere), admin_of("carol", elsewhere)] {
        assert_eq!(unknown(&caller, own.0), unknown(&caller, 99), "{caller:?}");
        assert_eq!(unknown(&caller, own.0), "there is no game or challenge #N");
    }
    // Another administrator of the game's server may.
    assert!(table.ok_as(&admin_of("dave", HOME), Command::AdminAbort { game: own }).reply.ok);
}

#[test]
fn legal_on_a_finished_game_is_refused() {
    let table = Table::new();
    let id = table.go("alice", "bob", 3, "board=9x9");
    table.ok("bob", Command::Resign { game: None });
    assert!(table.service.press(&caller("bob"), "resign:1").reply.ok);
    let refused = table.refused("alice", Command::Legal { game: game_opt(id), square: None });
    assert_eq!(refused, "#1 is over: alice (white) wins by resignation");
    let refused = table.refused("alice", Command::Legal { game: None, square: None });
    assert!(refused.starts_with("#1 is over"), "{refused}");
}

#[test]
fn a_ten_kilobyte_value_is_not_echoed_and_every_message_fits_discord() {
    let table = Table::new();
    let huge = "x".repeat(10_000);
    for (option, value) in [("game", text(&huge)), ("level", text(&huge))] {
        let mut options = vec![("opponent", Value::User(user("bob"))), ("game", text("go"))];
        options.retain(|(name, _)| *name != option);
        options.push((option, value));
        let refused = table.refused("alice", typed("challenge", &options));
        assert!(refused.len() < 200, "{option}: {} characters", refused.len());
        assert!(refused.contains("xxxxxxxx…"), "{refused}");
    }
    // Whatever a reply is made of, it fits one Discord message.
    let options = format!("board=9x9 {huge}=1");
    let reply = table
        .run(
            "alice",
            typed(
                "challenge",
                &[("opponent", Value::User(user("bob"))), ("game", text("go")), ("options", text(&options))],
            ),
        )
        .reply;
    assert!(reply.text().chars().count() <= 2000, "{} characters", reply.text().chars().count());
}

#[test]
fn counts_agree_with_their_nouns() {
    let table = Table::new();
    let id = table.go("alice", "bob", 3, "board=9x9");
    table.ok("bob", mv("e5"));
    let board = table.ok("carol", Command::Board { game: game_opt(id) }).reply.text();
    assert!(board.contains(", 1 turn played;"), "{board}");
    let refused = table.press_refused("carol", &format!("history-back:{}:5", id.0));
    assert_eq!(refused, "#1 has 1 turn: there is no board after turn 5");
    table.ok("alice", mv("c7"));
    let board = table.ok("carol", Command::Board { game: game_opt(id) }).reply.text();
    assert!(board.contains(", 2 turns played;"), "{board}");
}

#[test]
fn a_game_won_on_points_says_by_how_many() {
    let table = Table::new();
    // Without counting (rule 10), two passes score the board as it stands.
    let id = table.go("alice", "bob", 3, "board=9x9 komi=6.5 counting=off");
    table.ok("bob", Command::Pass { game: None });
    let over = table.ok("alice", Command::Pass { game: None }).reply.text();
    assert!(over.contains("alice (white) wins by 6.5 points after two passes (W+6.5)"), "{over}");
    assert!(!over.contains("wins by two passes"), "{over}");
    let board = table.ok("carol", Command::Board { game: game_opt(id) }).reply.text();
    assert!(board.contains("(W+6.5)"), "{board}");
}
