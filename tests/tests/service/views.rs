//! `/board`, `/history`, `/games`, `/legal`, `/rules`, and autocomplete.

use stonemate_bot::service::{ColorChoice, Command, Field};
use stonemate_engine::notation::record_tokens;
use stonemate_engine::{AnyGame, GameKind};

use super::common::{Table, caller, game_opt, mv, text, typed};

#[test]
fn anyone_may_look_at_the_board() {
    let table = Table::new();
    let id = table.go("alice", "bob", 3, "board=9x9");
    table.ok("bob", mv("e5"));
    let before = table.service.store().dump().unwrap();
    let reply = table.ok("carol", Command::Board { game: game_opt(id) }).reply;
    assert!(!reply.private);
    assert!(reply.images[0].bytes.starts_with(b"\x89PNG"));
    assert_eq!(
        reply.text(),
        "#1 Go with chess pieces (board=9x9 pieces=R squares=all moving=off komi=0 counting=on analysis=on): alice (white) \
         vs bob (black), 1 turn played; alice to move, due in 3d 0h (2023-11-17 22:13 UTC)."
    );
    assert_eq!(table.service.store().dump().unwrap(), before, "looking changes nothing");
    assert_eq!(table.refused("carol", Command::Board { game: None }), "you have no game in this channel");
}

#[test]
fn history_numbers_the_turns_and_its_file_replays() {
    let table = Table::new();
    let id = table.go("alice", "bob", 3, "board=9x9 komi=6.5 counting=off");
    for (who, turn) in [("bob", "e5"), ("alice", "d4"), ("bob", "c3"), ("alice", "pass"), ("bob", "pass")] {
        table.ok(who, mv(turn));
    }
    // The game is over; /history without an id still finds it (the latest in this channel).
    let reply = table.ok("alice", Command::History { game: None }).reply;
    assert!(reply.text().contains("1. R@e5 R@d4 2. R@c3 pass 3. pass"), "{}", reply.text());
    assert!(reply.text().contains("after two passes"), "{}", reply.text());
    let [board, replay] = reply.images.as_slice() else { panic!("a board and a replay") };
    assert!(board.bytes.starts_with(b"\x89PNG"));
    assert!(replay.bytes.starts_with(b"GIF8") && replay.name == "game-1.gif", "{}", replay.name);
    let file = reply.files.iter().find(|file| file.name.ends_with(".txt")).expect("the record file");
    assert_eq!(file.name, "game-1.txt");
    let text = String::from_utf8(file.bytes.clone()).unwrap();
    assert!(text.contains("stonemate replay --game go --option board=9x9"), "{text}");
    let record = table.record(id);
    let replay = AnyGame::replay(GameKind::Go, &record.options, &record_tokens(&text)).unwrap();
    assert!(replay.error.is_none());
    assert_eq!(replay.played, record.turns);
}

#[test]
fn games_lists_active_games_and_challenges() {
    let table = Table::new();
    table.go("alice", "bob", 3, "board=9x9");
    table.challenge("carol", "alice", "go", 3, "");
    table.challenge("alice", "dave", "go", 3, "");
    let reply = table
        .ok("alice", Command::Games { user: None, status: stonemate_bot::service::GameStatus::Active, page: 1 })
        .reply;
    assert!(reply.private);
    let expected = "alice's games:\n#1 go vs bob: bob to move, due in 3d 0h (2023-11-17 22:13 UTC)\n#2 go challenge from carol, to answer\n#3 go challenge to dave, waiting";
    assert_eq!(reply.text(), expected);
    let reply = table
        .ok(
            "carol",
            Command::Games {
                user: Some(super::common::user("bob")),
                status: stonemate_bot::service::GameStatus::Active,
                page: 1,
            },
        )
        .reply;
    assert_eq!(reply.text(), "bob's games:\n#1 go vs alice: bob to move, due in 3d 0h (2023-11-17 22:13 UTC)");
    assert_eq!(
        table
            .ok("zed", Command::Games { user: None, status: stonemate_bot::service::GameStatus::Active, page: 1 })
            .reply
            .text(),
        "zed has no active games or challenges."
    );
}

#[test]
fn legal_lists_turns_from_a_square_with_highlights() {
    let table = Table::new();
    table.go("alice", "bob", 3, "board=3x3 moving=on");
    table.ok("bob", mv("b2"));
    table.ok("alice", mv("a1"));
    let reply = table.ok("bob", Command::Legal { game: None, square: Some("b2".into()) }).reply;
    assert!(reply.private);
    assert!(reply.text().starts_with("#1: ") && reply.text().contains("b2-"), "{}", reply.text());
    assert!(reply.images[0].bytes.starts_with(b"\x89PNG"));
    let all = table.ok("bob", Command::Legal { game: None, square: None }).reply;
    assert!(all.text().contains("pass"), "{}", all.text());
    assert_eq!(
        table.refused("bob", Command::Legal { game: None, square: Some("q99".into()) }),
        "`q99` is not a square (like d4)"
    );
}

#[test]
fn rules_summarise_every_game() {
    let table = Table::new();
    for kind in GameKind::ALL {
        let reply = table.ok("alice", Command::Rules { game: kind }).reply;
        assert!(reply.text().contains(kind.title()) && reply.text().contains("Notation"), "{kind}");
    }
    assert!(table.refused("alice", typed("rules", &[("game", text("poker"))])).contains("no game called `poker`"));
}

#[test]
fn autocomplete_offers_at_most_25_filtered_choices() {
    let table = Table::new();
    let id = table.go("alice", "bob", 3, "board=9x9");
    let me = caller("bob");
    let all = table.service.autocomplete(&me, Field::Notation, "", None);
    assert_eq!(all.len(), 25);
    let e = table.service.autocomplete(&me, Field::Notation, "R@e", None);
    let names: Vec<&str> = e.iter().map(|c| c.value.as_str()).collect();
    assert_eq!(names, ["R@e1", "R@e2", "R@e3", "R@e4", "R@e5", "R@e6", "R@e7", "R@e8", "R@e9"]);
    let games = table.service.autocomplete(&me, Field::Game, "#", None);
    assert_eq!(games.len(), 1);
    assert_eq!((games[0].value.as_str(), games[0].name.as_str()), ("1", "#1 go vs alice"));
    assert!(table.service.autocomplete(&me, Field::Game, "carol", None).is_empty());
    let squares = table.service.autocomplete(&me, Field::Square, "a", Some(&id.0.to_string()));
    assert_eq!(squares.len(), 9);
    table.challenge("carol", "bob", "go", 3, "");
    assert_eq!(table.service.autocomplete(&me, Field::Challenge, "", None).len(), 1);
    // Nothing to suggest is not an error.
    assert!(table.service.autocomplete(&caller("zed"), Field::Notation, "", None).is_empty());
}

#[test]
fn history_before_any_turn_has_no_replay_image() {
    let table = Table::new();
    table.go("alice", "bob", 3, "board=9x9");
    let reply = table.ok("alice", Command::History { game: None }).reply;
    assert_eq!(reply.images.len(), 1);
    assert!(reply.text().ends_with("no turns yet"), "{}", reply.text());
}

/// Regression: Gess's 319 opening moves were cut in the middle of a move, with no hint.
#[test]
fn a_long_legal_list_is_cut_at_a_whole_turn_with_a_hint() {
    let table = Table::new();
    let id = table.challenge("alice", "bob", "gess", 3, "");
    table.ok("bob", Command::Accept { challenge: game_opt(id) });
    let text = table.ok("bob", Command::Legal { game: None, square: None }).reply.text();
    assert!(text.chars().count() <= 2000, "{} characters", text.chars().count());
    let (listed, hint) = text.split_once(", … and ").expect("a note on the turns left out");
    let (count, hint) = hint.split_once(" more: ").expect("how many are left out");
    assert!(hint.starts_with("name a square to see its turns, as in `/legal square:"), "{hint}");
    let legal = AnyGame::new(GameKind::Gess, &[]).unwrap().legal_turn_texts();
    let listed: Vec<&str> = listed.split_once("legal turns: ").expect("a heading").1.split(", ").collect();
    assert!(listed.iter().all(|turn| legal.iter().any(|legal| legal == turn)), "a cut turn in {listed:?}");
    assert_eq!(listed.len() + count.parse::<usize>().unwrap(), legal.len());
    assert!(text.starts_with(&format!("#1: {} legal turns: ", legal.len())), "{text}");
}

#[test]
fn a_challenge_without_options_starts_its_terms_at_the_clock() {
    let table = Table::new();
    let text = table
        .ok(
            "alice",
            Command::Challenge {
                opponent: Some(super::common::user("bob")),
                game: GameKind::Gess,
                color: ColorChoice::Random,
                days: Some(3),
                options: None,
                level: stonemate_bot::service::Level::Medium,
            },
        )
        .reply
        .text();
    assert!(text.contains("challenge #1 (3 days per move; colours drawn at random)"), "{text}");
}

#[test]
fn help_lists_every_command_and_where_the_rules_are() {
    let table = Table::new();
    let reply = table.ok("carol", Command::Help {}).reply;
    assert!(reply.private);
    for spec in stonemate_bot::service::commands::COMMANDS {
        let shown = match spec.group() {
            // Subcommands share their command's line: `/tournament` `create` `join` ...
            Some((group, sub)) => reply.text().contains(&format!("`/{group}` `")) && reply.text().contains(sub),
            None => reply.text().contains(&format!("`/{}` — ", spec.name)),
        };
        assert!(shown, "/{} is missing:\n{}", spec.name, reply.text());
    }
    assert!(
        reply.text().contains("`/rules game:NAME`, where NAME is chego, gess, ichess, go, chogo"),
        "{}",
        reply.text()
    );
}

#[test]
fn help_names_exactly_the_commands_discord_registers() {
    let registered: Vec<String> =
        stonemate_bot::discord::commands::all().into_iter().map(|command| command.name.to_string()).collect();
    let mut listed: Vec<&str> = Vec::new();
    for spec in stonemate_bot::service::commands::COMMANDS {
        // Subcommands are registered under their command.
        let name = spec.group().map_or(spec.name, |(group, _)| group);
        if !listed.contains(&name) {
            listed.push(name);
        }
    }
    assert_eq!(registered, listed);
}
