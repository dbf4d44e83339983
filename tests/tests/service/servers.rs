//! Games belong to their server: from any other server a game is refused exactly like an
//! id nobody has (looking, playing, pressing its buttons, completing its id), and
//! `/admin-abort` needs Manage Server in the game's own server.

use stonemate_bot::service::{Command, Field, GameId, GuildId};
use stonemate_bot::store::{CalledOff, GameRecord, MemoryStore, Phase};

use super::common::{HOME, Table, admin_of, caller, game_opt, in_server, mv, mv_in, user};

/// A server where alice and bob also are, and where an attacker invited the bot.
const OTHER: GuildId = GuildId(666);

/// What an id nobody has answers, for comparison.
fn unknown(table: &Table, id: u32) -> String {
    table.refused("alice", Command::Board { game: Some(GameId(id)) })
}

#[test]
fn another_servers_admin_cannot_abort_a_game() {
    let table = Table::new();
    let id = table.go("alice", "bob", 3, "board=9x9");
    let attacker = admin_of("mallory", OTHER);
    let text = table.refused_as(&attacker, Command::AdminAbort { game: id });
    assert_eq!(text, "there is no game or challenge #1");
    assert_eq!(text, unknown(&table, 99).replace("#99", "#1"), "the same answer as an unknown id");
    // Without Manage Server, not even in the game's own server.
    let text = table.refused_as(&caller("carol"), Command::AdminAbort { game: id });
    assert!(text.contains("Manage Server"), "{text}");
    // The home server's administrator may.
    table.ok_as(&admin_of("mod", HOME), Command::AdminAbort { game: id });
    assert!(matches!(table.record(id).result.unwrap().called_off, Some(CalledOff::Admin(_))));
}

#[test]
fn board_and_history_of_another_server_answer_as_unknown() {
    let table = Table::new();
    let id = table.go("alice", "bob", 3, "board=9x9");
    table.ok("bob", mv("e5"));
    let nobody = unknown(&table, 99);
    for command in [Command::Board { game: game_opt(id) }, Command::History { game: game_opt(id) }] {
        let text = table.refused_as(&in_server("mallory", OTHER), command.clone());
        assert_eq!(text, nobody.replace("#99", "#1"), "{command:?}");
        // Even a player of the game, from another server.
        let text = table.refused_as(&in_server("alice", OTHER), command.clone());
        assert_eq!(text, nobody.replace("#99", "#1"), "{command:?}");
        // In the game's server anyone may look.
        table.ok("carol", command);
    }
}

#[test]
fn turns_from_another_server_are_refused() {
    let table = Table::new();
    let id = table.go("alice", "bob", 3, "board=9x9");
    let bob_elsewhere = in_server("bob", OTHER);
    let text = table.refused_as(&bob_elsewhere, mv_in("e5", id));
    assert_eq!(text, "there is no game or challenge #1");
    let text = table.refused_as(&bob_elsewhere, mv("e5"));
    assert_eq!(text, "you have no game in this channel");
    for command in [
        Command::Pass { game: game_opt(id) },
        Command::Resign { game: game_opt(id) },
        Command::Draw { game: game_opt(id) },
        Command::Legal { game: game_opt(id), square: None },
    ] {
        let text = table.refused_as(&bob_elsewhere, command.clone());
        assert_eq!(text, "there is no game or challenge #1", "{command:?}");
    }
    table.ok("bob", mv_in("e5", id));
}

#[test]
fn buttons_pressed_from_another_server_are_refused() {
    let table = Table::new();
    let challenge = table.challenge("alice", "bob", "go", 3, "board=9x9");
    let bob_elsewhere = in_server("bob", OTHER);
    let text = table.press_refused_as(&bob_elsewhere, &format!("accept:{}", challenge.0));
    assert_eq!(text, "there is no game or challenge #1");
    table.press_refused_as(&bob_elsewhere, "decline:1");
    assert!(table.service.press(&caller("bob"), "accept:1").reply.ok);
    table.ok("alice", Command::Draw { game: None });
    for id in ["resign:1", "draw-accept:1", "draw-decline:1"] {
        let text = table.press_refused_as(&bob_elsewhere, id);
        assert_eq!(text, "there is no game or challenge #1", "{id}");
    }
    assert!(table.service.press(&caller("bob"), "draw-decline:1").reply.ok);
}

#[test]
fn autocomplete_and_games_list_only_this_servers_games() {
    let table = Table::new();
    table.go("alice", "bob", 3, "board=9x9");
    let away = table.challenge_from(&in_server("alice", OTHER), "carol");
    let home_ids: Vec<String> = table
        .service
        .autocomplete(&caller("alice"), Field::Game, "", None)
        .into_iter()
        .map(|choice| choice.value)
        .collect();
    assert_eq!(home_ids, ["1"]);
    let pending = table.service.autocomplete(&caller("alice"), Field::Challenge, "", None);
    assert!(pending.is_empty(), "{pending:?}");
    let away_pending = table.service.autocomplete(&in_server("alice", OTHER), Field::Challenge, "", None);
    assert_eq!(away_pending.iter().map(|c| c.value.clone()).collect::<Vec<_>>(), [away.0.to_string()]);
    assert!(table.service.autocomplete(&in_server("alice", OTHER), Field::Game, "", None).is_empty());
    // Notation suggestions for another server's game: none.
    let turns = table.service.autocomplete(&in_server("bob", OTHER), Field::Notation, "", Some("1"));
    assert!(turns.is_empty(), "{turns:?}");
    assert!(!table.service.autocomplete(&caller("bob"), Field::Notation, "", Some("1")).is_empty());
    let games = |who| {
        table
            .ok_as(
                &who,
                Command::Games {
                    user: Some(user("alice")),
                    status: stonemate_bot::service::GameStatus::Active,
                    page: 1,
                },
            )
            .reply
            .text()
    };
    let home = games(caller("bob"));
    assert!(home.contains("#1") && !home.contains(&away.to_string()), "{home}");
    let other = games(in_server("bob", OTHER));
    assert!(!other.contains("#1 ") && other.contains(&away.to_string()), "{other}");
}

#[test]
fn challenges_are_accepted_in_their_own_server_only() {
    let table = Table::new();
    let id = table.challenge_from(&in_server("alice", OTHER), "bob");
    let text = table.refused("bob", Command::Accept { challenge: game_opt(id) });
    assert_eq!(text, format!("there is no game or challenge {id}"));
    assert_eq!(table.refused("bob", Command::Accept { challenge: None }), "you have no challenge waiting here");
    table.ok_as(&in_server("bob", OTHER), Command::Accept { challenge: None });
    assert_eq!(table.record(id).guild(), Some(OTHER));
}

/// A record as the previous layout stored it, without a server.
fn serverless(table: &Table, from: &str, to: &str) -> GameId {
    let id = table.go(from, to, 3, "board=9x9");
    let mut record: GameRecord = table.record(id);
    record.origin.guild = None;
    record.version += 1;
    table.service.store().update_with(&record, &[], &[]).unwrap();
    id
}

#[test]
fn a_record_without_a_server_is_reached_by_its_players_only() {
    let table = Table::new();
    let id = serverless(&table, "alice", "bob");
    // Its players reach it from any server, by id and as their only game.
    table.ok_as(&in_server("bob", OTHER), mv_in("e5", id));
    table.ok("alice", mv("d5"));
    let ids = table.service.autocomplete(&caller("bob"), Field::Game, "", None);
    assert_eq!(ids.len(), 1);
    // Nobody else does, and no server's administrator rules it.
    table.refused("carol", Command::Board { game: game_opt(id) });
    let text = table.refused_as(&admin_of("mod", HOME), Command::AdminAbort { game: id });
    assert_eq!(text, "there is no game or challenge #1");
    assert_eq!(table.record(id).phase, Phase::Playing);
}

#[test]
fn a_record_written_by_the_previous_version_still_loads() {
    // The JSON of a game record exactly as the previous version wrote it (with `guild`),
    // and one older still, without the field: both load; the second has no server.
    let with_guild = r#"{"format":1,"id":7,"version":2,"game":"go","options":[["board","9x9"],["pieces","R"],["squares","all"],["moving","off"],["komi","0"]],"challenger":11,"opponent":12,"names":["alice","bob"],"color":"white","players":[11,12],"days":3,"channel":100,"guild":1,"created":1700000000000,"expires":1700604800000,"phase":"playing","turns":[],"clock":{"started":1700000000000,"deadline":1700259200000,"reminded":false,"timeout_told":false},"draw_offer":null,"result":null}"#;
    let record: GameRecord = serde_json::from_str(with_guild).expect("a record of the previous version");
    assert_eq!(record.guild(), Some(HOME));
    let without: serde_json::Value = {
        let mut value: serde_json::Value = serde_json::from_str(with_guild).unwrap();
        value.as_object_mut().unwrap().remove("guild");
        value
    };
    let record: GameRecord = serde_json::from_value(without).expect("a record without a server");
    assert_eq!(record.guild(), None);
    let store = MemoryStore::new();
    let stored = store.create(record).unwrap();
    assert_eq!(store.load(stored.id).unwrap().unwrap().guild(), None);
}
