//! `/challenge`, `/accept`, `/decline`, `/withdraw`, limits and expiry.

use stonemate_bot::clock::Span;
use stonemate_bot::service::commands::Value;
use stonemate_bot::service::{ButtonStyle, ColorChoice, Command, GameId, GuildId, Settings, Target};
use stonemate_bot::store::{MemoryStore, Phase};
use stonemate_engine::GameKind;

use super::common::{Call, Table, caller_in, game_opt, games_of, in_server, meddling_table, text, typed, user};

/// `/challenge` as typed: the game by name, options as text.
fn challenge(to: &str, kind: &str, options: Option<&str>) -> Call {
    let mut values = vec![("opponent", Value::User(user(to))), ("game", text(kind))];
    values.extend(options.map(|options| ("options", text(options))));
    typed("challenge", &values)
}

#[test]
fn challenge_posts_buttons_pings_the_opponent_and_shows_the_board() {
    let table = Table::new();
    let reply = table.ok("alice", challenge("bob", "go", Some("board=9x9 komi=6.5"))).reply;
    let id = reply.about.unwrap();
    assert!(!reply.private);
    assert_eq!(reply.message.mentions(), [user("bob").id]);
    let ids: Vec<&str> = reply.buttons.iter().map(|b| b.custom_id.as_str()).collect();
    assert_eq!(ids, [format!("accept:{}", id.0), format!("decline:{}", id.0)]);
    assert_eq!(reply.buttons[0].style, ButtonStyle::Success);
    assert!(reply.images[0].bytes.starts_with(b"\x89PNG"));
    assert!(reply.text().contains("komi=6.5"), "{}", reply.text());
}

/// The engine reads go's `counting=on` (rule 10), but the service cannot yet hold a
/// counting phase (no `/dead`, no Accept/Resume): such a game could never end, so the
/// challenge is refused and nothing is stored; `counting=off` is the old game.
/// Counting (rule 10) is offered in every spelling the engine reads; the refusal of
/// `counting=on` that stood until the counting phase existed is gone.
#[test]
fn counting_on_is_accepted_in_every_spelling() {
    let table = Table::new();
    for (opponent, options) in [("bob", "board=9x9 counting=on"), ("carol", "counting=YES"), ("dave", "Counting=true")]
    {
        let reply = table.ok("alice", challenge(opponent, "go", Some(options))).reply;
        let record = table.record(reply.about.expect("a challenge"));
        assert!(record.options.contains(&("counting".to_owned(), "on".to_owned())), "{options}");
    }
    let reply = table.ok("alice", challenge("erin", "go", Some("board=9x9 counting=off"))).reply;
    assert!(reply.about.is_some());
}

#[test]
fn challenge_stores_every_option_with_defaults_and_three_days() {
    let table = Table::new();
    let id = table.ok("alice", challenge("bob", "go", Some("board=9x9"))).reply.about.unwrap();
    let record = table.record(id);
    let keys: Vec<&str> = record.options.iter().map(|(k, _)| k.as_str()).collect();
    // Third wave: a go challenge asks for counting (rule 10) unless told `counting=off`.
    assert_eq!(keys, ["board", "pieces", "squares", "moving", "komi", "counting"]);
    assert_eq!((record.days, record.phase, record.version), (3, Phase::Challenge, 1));
    assert_eq!(record.origin.expires, table.now() + Span::days(7));
    assert_eq!([&record.seats.challenger.name, &record.seats.opponent.name], ["alice", "bob"]);
}

#[test]
fn game_ids_are_short_and_count_up() {
    let table = Table::new();
    let first = table.challenge("alice", "bob", "go", 3, "");
    let second = table.challenge("carol", "dave", "go", 3, "");
    assert_eq!((first, second), (GameId(1), GameId(2)));
    assert_eq!(first.to_string(), "#1");
}

#[test]
fn challenge_to_yourself_is_refused() {
    let table = Table::new();
    assert_eq!(table.refused("alice", challenge("alice", "go", None)), "you cannot challenge yourself");
}

#[test]
fn challenge_refuses_unknown_and_unavailable_games() {
    let table = Table::new();
    assert!(table.refused("alice", challenge("bob", "checkers", None)).contains("no game called `checkers`"));
    for kind in stonemate_engine::GameKind::ALL {
        if !stonemate_engine::AnyGame::is_available(kind) {
            let text = table.refused("alice", challenge("bob", kind.name(), None));
            assert_eq!(text, format!("{} is not available yet", kind.title()));
        }
    }
}

#[test]
fn challenge_with_bad_options_names_the_key() {
    let table = Table::new();
    for (options, key) in
        [("board=30x30", "`board`"), ("komi=abc", "`komi`"), ("colour=red", "`colour`"), ("board", "board")]
    {
        let text = table.refused("alice", challenge("bob", "go", Some(options)));
        assert!(text.starts_with("bad options") && text.contains(key), "{options}: {text}");
    }
    let long = "board=9x9 ".repeat(60);
    assert!(table.refused("alice", challenge("bob", "go", Some(&long))).starts_with("bad options"));
}

#[test]
fn challenge_refuses_bad_colours_and_days() {
    let table = Table::new();
    let color =
        typed("challenge", &[("opponent", Value::User(user("bob"))), ("game", text("go")), ("color", text("green"))]);
    assert!(table.refused("alice", color).contains("`green` is not a colour"));
    for days in [-1, 15, 1000] {
        let command = typed(
            "challenge",
            &[("opponent", Value::User(user("bob"))), ("game", text("go")), ("days", Value::Number(days))],
        );
        assert!(table.refused("alice", command).contains("0 to 14"), "{days}");
    }
}

#[test]
fn pending_challenges_are_limited_per_challenger() {
    let settings = Settings { max_pending_challenges: 3, ..Settings::default() };
    let table = Table::with(MemoryStore::new(), settings);
    for opponent in ["b1", "b2", "b3"] {
        table.challenge("alice", opponent, "go", 3, "");
    }
    let text = table.refused("alice", challenge("b4", "go", None));
    assert_eq!(text, "you already have 3 challenges waiting for an answer: withdraw some, or wait for answers");
    // Challenges alice receives do not count against her.
    table.challenge("b5", "alice", "go", 3, "");
    table.ok("b1", Command::Decline { challenge: None });
    table.challenge("alice", "b4", "go", 3, "");
}

/// Regression: twenty challenges to bob from one user filled bob's quota, so nobody else
/// could challenge him for a week, and bob was told that *he* had too many.
#[test]
fn a_flood_of_challenges_blocks_nobody() {
    let table = Table::new();
    let limit = Settings::default().max_challenges_per_opponent;
    for _ in 0..limit {
        table.challenge("mallory", "bob", "go", 3, "");
    }
    let text = table.refused("mallory", challenge("bob", "go", None));
    assert_eq!(text, format!("you already have {limit} challenges waiting for bob's answer: wait for an answer first"));
    // Many others may still challenge bob, past any per-user limit.
    let senders: Vec<String> = (0..Settings::default().max_pending_challenges + 5).map(|n| format!("c{n}")).collect();
    for from in &senders {
        table.challenge(from, "bob", "go", 3, "");
    }
    // And bob, flooded, still challenges others and is never told he sent too many.
    let reply = table.ok("bob", challenge("zoe", "go", None)).reply;
    assert!(reply.text().contains("challenges you"), "{}", reply.text());
}

#[test]
fn active_games_are_limited_per_user() {
    let settings = Settings { max_active_games: 2, ..Settings::default() };
    let table = Table::with(MemoryStore::new(), settings);
    table.go("alice", "b1", 3, "board=9x9");
    table.go("alice", "b2", 3, "board=9x9");
    assert!(table.refused("alice", challenge("b3", "go", None)).starts_with("you already have 2 games going"));
    let id = table.challenge("b3", "alice", "go", 3, "");
    let text = table.refused("alice", Command::Accept { challenge: game_opt(id) });
    assert!(text.starts_with("you already have 2 games going"), "{text}");
}

#[test]
fn accept_starts_the_game_and_pings_the_first_mover() {
    let table = Table::new();
    let id = table.challenge("alice", "bob", "go", 3, "board=9x9");
    let response = table.ok("bob", Command::Accept { challenge: None });
    let record = table.record(id);
    assert_eq!(record.phase, Phase::Playing);
    // alice asked for white; in Go with chess pieces black (bob) moves first.
    assert_eq!(record.seats.by_color(), Some([user("alice").id, user("bob").id]));
    assert!(response.reply.images[0].bytes.starts_with(b"\x89PNG"));
    assert!(response.reply.text().contains("@bob moves first"), "{}", response.reply.text());
    assert_eq!(record.clock.unwrap().deadline, table.now() + Span::days(3));
    // bob accepted and moves first: he is not pinged by his own command.
    assert!(response.reply.message.mentions().is_empty());
    let buttons: Vec<&str> = response.reply.buttons.iter().map(|button| button.custom_id.as_str()).collect();
    assert_eq!(buttons, [format!("play:{}", id.0)], "the first mover's Play button, as after a turn");
    // carol plays black, so she moves first and dave's accept pings her.
    let command = Command::Challenge {
        opponent: Some(user("dave")),
        game: GameKind::Go,
        color: ColorChoice::Black,
        days: Some(0),
        options: None,
        level: stonemate_bot::service::Level::Medium,
    };
    let id = table.ok("carol", command).reply.about;
    let response = table.ok("dave", Command::Accept { challenge: id });
    assert_eq!(response.reply.message.mentions(), [user("carol").id]);
    assert!(table.record(id.unwrap()).clock.is_none(), "0 days: no clock");
}

#[test]
fn random_colours_give_each_player_one_side() {
    let table = Table::new();
    let mut whites = std::collections::HashSet::new();
    for n in 0..24 {
        let opponent = format!("p{n}");
        let id = table.ok("alice", challenge(&opponent, "go", None)).reply.about.unwrap();
        table.ok(&opponent, Command::Accept { challenge: game_opt(id) });
        let [white, black] = table.record(id).seats.by_color().unwrap();
        assert_ne!(white, black);
        whites.insert(white == user("alice").id);
        table.advance(Span(1_001));
    }
    assert_eq!(whites.len(), 2, "random colours should not always fall the same way");
}

#[test]
fn accept_is_refused_for_others_twice_and_unknown_ids() {
    let table = Table::new();
    let id = table.challenge("alice", "bob", "go", 3, "");
    assert_eq!(
        table.refused("carol", Command::Accept { challenge: game_opt(id) }),
        "challenge #1 is addressed to someone else"
    );
    assert_eq!(
        table.refused("alice", Command::Accept { challenge: game_opt(id) }),
        "challenge #1 is addressed to someone else"
    );
    assert_eq!(
        table.refused("bob", Command::Accept { challenge: Some(GameId(9)) }),
        "there is no game or challenge #9"
    );
    assert!(table.refused("bob", typed("accept", &[("challenge", text("nine"))])).contains("`nine` is not a game id"));
    table.ok("bob", Command::Accept { challenge: game_opt(id) });
    assert_eq!(
        table.refused("bob", Command::Accept { challenge: game_opt(id) }),
        "#1 is not a challenge waiting for an answer: it is already being played"
    );
    assert_eq!(table.refused("carol", Command::Accept { challenge: None }), "you have no challenge waiting here");
}

#[test]
fn expired_challenge_is_refused_then_expired_by_tick() {
    let table = Table::new();
    let id = table.challenge("alice", "bob", "go", 3, "");
    table.advance(Span::days(7));
    assert_eq!(
        table.refused("bob", Command::Accept { challenge: game_opt(id) }),
        "challenge #1 has expired (challenges wait 7 days)"
    );
    let notices = table.service.tick();
    assert_eq!(notices.len(), 1);
    assert_eq!(notices[0].target, Target::Channel(super::common::GENERAL));
    assert!(notices[0].text().contains("expired"), "{}", notices[0].text());
    assert_eq!(table.record(id).phase, Phase::Expired);
    assert!(table.service.tick().is_empty(), "told once");
    assert_eq!(
        table.refused("bob", Command::Accept { challenge: game_opt(id) }),
        "challenge #1 has expired (challenges wait 7 days)"
    );
}

#[test]
fn decline_and_withdraw_end_challenges_and_tell_the_other() {
    let table = Table::new();
    let id = table.challenge("alice", "bob", "go", 3, "");
    assert_eq!(
        table.refused("alice", Command::Decline { challenge: game_opt(id) }),
        "challenge #1 is addressed to someone else"
    );
    let response = table.ok("bob", Command::Decline { challenge: None });
    assert_eq!(response.notices.len(), 1);
    assert_eq!(response.notices[0].message.mentions(), [user("alice").id]);
    assert_eq!(table.record(id).phase, Phase::Declined);
    assert!(table.refused("bob", Command::Decline { challenge: game_opt(id) }).ends_with("it was declined"));

    // A declined challenge is not sent again within the hour (the next test).
    table.advance(Span::HOUR);
    let id = table.challenge("alice", "bob", "go", 3, "");
    let text = table.refused("bob", Command::Withdraw { challenge: game_opt(id) });
    assert_eq!(text, "challenge #2 was sent by someone else: only its challenger can withdraw it");
    table.ok("alice", Command::Withdraw { challenge: None });
    assert_eq!(table.record(id).phase, Phase::Withdrawn);
    assert!(table.refused("bob", Command::Accept { challenge: game_opt(id) }).ends_with("it was withdrawn"));
}

/// Issue 41: a challenge then `/withdraw`, or one declined, sent again and again pinged
/// its opponent every time. A declined challenge now waits an hour before it may be sent
/// to him again in that server; a withdrawn one may be sent again once, not twice.
#[test]
fn a_challenge_turned_down_is_not_sent_again_at_once() {
    let table = Table::new();
    table.challenge("alice", "bob", "go", 3, "");
    table.ok("bob", Command::Decline { challenge: None });
    let stored = games_of(table.service.store(), user("alice").id).len();
    let again = || table.refused("alice", challenge("bob", "gess", None));
    assert_eq!(again(), "bob declined your challenge within the hour: you may challenge bob again in 60 minutes");
    table.advance(Span::MINUTE * 59);
    assert_eq!(again(), "bob declined your challenge within the hour: you may challenge bob again in 1 minute");
    // Refused, it stored nothing: the mention went nowhere.
    assert_eq!(games_of(table.service.store(), user("alice").id).len(), stored);
    // bob may still challenge alice, and alice may challenge others, or bob elsewhere.
    table.challenge("bob", "alice", "go", 3, "");
    table.challenge("alice", "carol", "go", 3, "");
    let elsewhere = in_server("alice", GuildId(77));
    assert!(table.ok_as(&elsewhere, challenge("bob", "go", None)).reply.ok);
    table.advance(Span::MINUTE);
    let reply = table.ok("alice", challenge("bob", "go", None)).reply;
    assert_eq!(reply.message.mentions(), [user("bob").id]);

    // Withdrawn by mistake, a challenge is sent again; the second withdrawal makes alice wait.
    let withdraw = |id: GameId| table.ok("alice", Command::Withdraw { challenge: game_opt(id) });
    let first = table.challenge("alice", "dave", "go", 3, "");
    withdraw(first);
    let second = table.challenge("alice", "dave", "go", 3, "");
    table.advance(Span::MINUTE * 10);
    withdraw(second);
    let text = table.refused("alice", challenge("dave", "go", None));
    assert_eq!(text, "you withdrew 2 challenges to dave within the hour: you may challenge dave again in 50 minutes");
    table.advance(Span::MINUTE * 50);
    table.challenge("alice", "dave", "go", 3, "");
}

/// A `/withdraw` that lost a race for its record runs again, and marks its challenge
/// again: still one withdrawal, so the challenge may be sent again once.
#[test]
fn a_withdrawal_run_again_after_a_lost_race_counts_once() {
    let (table, store) = meddling_table();
    let first = table.challenge("alice", "carol", "go", 3, "");
    *store.conflict_after.lock().unwrap() = Some(0);
    table.ok("alice", Command::Withdraw { challenge: game_opt(first) });
    assert_eq!(table.record(first).phase, Phase::Withdrawn);
    assert!(store.conflict_after.lock().unwrap().is_none(), "the first write lost its race");
    let second = table.challenge("alice", "carol", "go", 3, "");
    table.ok("alice", Command::Withdraw { challenge: game_opt(second) });
    assert!(table.refused("alice", challenge("carol", "go", None)).starts_with("you withdrew 2 challenges to carol"));
}

#[test]
fn accept_and_decline_buttons_work_by_id() {
    let table = Table::new();
    let id = table.challenge("alice", "bob", "go", 3, "");
    assert!(table.press_refused("carol", "accept:1").contains("someone else"));
    assert!(table.service.press(&super::common::caller("bob"), "accept:1").reply.ok);
    assert_eq!(table.record(id).phase, Phase::Playing);
    let id = table.challenge("alice", "bob", "go", 3, "");
    assert!(table.service.press(&super::common::caller("bob"), &format!("decline:{}", id.0)).reply.ok);
    assert_eq!(table.record(id).phase, Phase::Declined);
    for bad in ["launch:1", "accept", "accept:x", "", &"x".repeat(500)] {
        table.press_refused("bob", bad);
    }
}

#[test]
fn challenge_defaults_look_in_this_channel_only() {
    let table = Table::new();
    let elsewhere = stonemate_bot::service::ChannelId(555);
    let command = challenge("bob", "go", None);
    assert!(table.ok_as(&caller_in("alice", elsewhere), command).reply.ok);
    let text = table.refused("bob", Command::Accept { challenge: None });
    assert_eq!(text, "you have no challenge waiting here (elsewhere: #1; name one with `challenge:`)");
    table.challenge("carol", "bob", "go", 3, "");
    table.challenge("dave", "bob", "go", 3, "");
    let text = table.refused("bob", Command::Accept { challenge: None });
    assert!(
        text.starts_with("which one? Name it with `challenge:`") && text.contains("#2") && text.contains("#3"),
        "{text}"
    );
}

#[test]
fn long_names_are_cut_before_they_are_stored() {
    let table = Table::new();
    let long = stonemate_bot::service::User::new(99, "x".repeat(500));
    let command = Command::Challenge {
        opponent: Some(long),
        game: GameKind::Go,
        color: ColorChoice::Random,
        days: None,
        options: None,
        level: stonemate_bot::service::Level::Medium,
    };
    let id = table.ok("alice", command).reply.about.unwrap();
    assert_eq!(table.record(id).seats.opponent.name.len(), 32);
    assert_eq!(table.service.user_name(stonemate_bot::service::UserId(99)).unwrap().len(), 32);
}

#[test]
fn chogo_calls_its_second_side_green() {
    let table = Table::new();
    let values = [("opponent", Value::User(user("bob"))), ("game", text("chogo")), ("color", text("green"))];
    let command = typed("challenge", &values);
    let reply = table.ok("alice", command).reply;
    assert!(reply.text().contains("alice plays green"), "{}", reply.text());
    let accepted = table.ok("bob", Command::Accept { challenge: None }).reply;
    assert!(accepted.text().contains("bob (white) vs alice (green)"), "{}", accepted.text());
}
