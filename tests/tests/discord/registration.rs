//! The commands registered at start-up are exactly those of `docs/commands.md`: names, option
//! names, option types and fixed choices.

use serde_json::Value;
use stonemate_tests::fake_discord::FakeDiscord;

use super::harness::{Bot, command, config, init, player, real_service, scratch_dir};

const STRING: u64 = 3;
const INTEGER: u64 = 4;
const USER: u64 = 6;

/// An option: name, type, required, fixed choices.
type OptionSpec = (&'static str, u64, bool, &'static [&'static str]);

/// (command, options) as `docs/commands.md` lists them.
fn contract() -> Vec<(&'static str, Vec<OptionSpec>)> {
    let game = ("game", STRING, false, &[][..]);
    let challenge = ("challenge", STRING, false, &[][..]);
    vec![
        (
            "challenge",
            vec![
                // Second wave: without an opponent, an open challenge.
                ("opponent", USER, false, &[][..]),
                ("game", STRING, true, &["chego", "gess", "ichess", "go", "chogo"][..]),
                ("color", STRING, false, &["white", "black", "random"][..]),
                ("days", INTEGER, false, &[][..]),
                ("options", STRING, false, &[][..]),
                ("level", STRING, false, &["easy", "medium", "hard"][..]),
            ],
        ),
        ("accept", vec![challenge]),
        ("decline", vec![challenge]),
        ("withdraw", vec![challenge]),
        ("move", vec![("notation", STRING, true, &[][..]), game]),
        ("drop", vec![("piece", STRING, true, &[][..]), ("square", STRING, true, &[][..]), game]),
        ("pass", vec![game]),
        ("resign", vec![game]),
        ("draw", vec![game]),
        ("abort", vec![game]),
        ("claim", vec![game]),
        ("extratime", vec![("days", INTEGER, true, &[][..]), game]),
        ("board", vec![game]),
        ("history", vec![game]),
        (
            "games",
            vec![
                ("user", USER, false, &[][..]),
                ("status", STRING, false, &["active", "finished"][..]),
                ("page", INTEGER, false, &[][..]),
            ],
        ),
        // Fourth wave: following games.
        ("score", vec![game]),
        ("explore", vec![("line", STRING, true, &[][..]), game]),
        ("legal", vec![game, ("square", STRING, false, &[][..])]),
        ("rules", vec![("game", STRING, true, &["chego", "gess", "ichess", "go", "chogo"][..])]),
        (
            "notify",
            vec![
                ("mode", STRING, false, &["channel", "dm", "off"][..]),
                // Fourth wave: the daily digest.
                ("digest", STRING, false, &["on", "off"][..]),
                ("hour", INTEGER, false, &[][..]),
            ],
        ),
        ("admin-abort", vec![("game", STRING, true, &[][..])]),
        // Second wave.
        (
            "stats",
            vec![
                ("user", USER, false, &[][..]),
                ("game", STRING, false, &["chego", "gess", "ichess", "go", "chogo"][..]),
            ],
        ),
        ("leaderboard", vec![("game", STRING, true, &["chego", "gess", "ichess", "go", "chogo"][..])]),
        ("help", vec![]),
        ("vacation", vec![("days", INTEGER, true, &[][..])]),
        // Third wave.
        ("takeback", vec![game]),
        ("dead", vec![game, ("squares", STRING, false, &[][..])]),
        ("conditional", vec![game, ("line", STRING, false, &[][..])]),
        ("play", vec![game]),
        (
            "settings",
            vec![("confirm", STRING, false, &["on", "off"][..]), ("threads", STRING, false, &["on", "off"][..])],
        ),
        // Fourth wave: one command, its subcommands (each checked in `tournament_subcommands`).
        (
            "tournament",
            ["create", "join", "leave", "start", "cancel", "standings", "list"]
                .map(|name| (name, SUB_COMMAND, false, &[][..]))
                .to_vec(),
        ),
    ]
}

const SUB_COMMAND: u64 = 1;

/// The subcommands of `/tournament` and their options, as `docs/commands.md` lists them.
fn tournament_subcommands() -> Vec<(&'static str, Vec<OptionSpec>)> {
    let tournament = ("tournament", STRING, false, &[][..]);
    let on_off = &["on", "off"][..];
    vec![
        (
            "create",
            vec![
                ("game", STRING, true, &["chego", "gess", "ichess", "go", "chogo"][..]),
                ("format", STRING, false, &["round-robin", "swiss"][..]),
                ("days", INTEGER, false, &[][..]),
                ("options", STRING, false, &[][..]),
                ("name", STRING, false, &[][..]),
                ("rounds", INTEGER, false, &[][..]),
                ("double", STRING, false, on_off),
                ("division", INTEGER, false, &[][..]),
                ("max", INTEGER, false, &[][..]),
                ("starts", STRING, false, &[][..]),
                ("rated", STRING, false, on_off),
            ],
        ),
        ("join", vec![tournament]),
        ("leave", vec![tournament]),
        ("start", vec![tournament]),
        ("cancel", vec![tournament]),
        ("standings", vec![tournament, ("page", INTEGER, false, &[][..])]),
        ("list", vec![("status", STRING, false, &["open", "running", "finished"][..])]),
    ]
}

/// Checks `options` as registered against `expected`.
fn check_options(name: &str, registered_options: &Value, expected: Vec<OptionSpec>) {
    assert_eq!(registered_options.as_array().map_or(0, Vec::len), expected.len(), "/{name} options");
    for (option, kind, required, choices) in expected {
        let found = find(registered_options, option).unwrap_or_else(|| panic!("/{name} has no {option}"));
        assert_eq!(found["type"], kind, "/{name} {option}: type");
        assert_eq!(found["required"].as_bool().unwrap_or(false), required, "/{name} {option}: required");
        let names: Vec<&str> =
            found["choices"].as_array().into_iter().flatten().filter_map(|c| c["name"].as_str()).collect();
        assert_eq!(names, choices, "/{name} {option}: choices");
    }
}

fn find<'a>(list: &'a Value, name: &str) -> Option<&'a Value> {
    list.as_array()?.iter().find(|item| item["name"] == name)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn commands_of_the_contract_are_registered_in_the_guild() {
    init();
    let fake = FakeDiscord::start().await;
    let dir = scratch_dir("registration");
    let (bot, registered) = Bot::start(&fake, config(&fake, &dir), real_service(&dir)).await;
    let contract = contract();
    assert_eq!(registered.as_array().map(Vec::len), Some(contract.len()), "{registered:#}");
    for (name, options) in contract {
        let command = find(&registered, name).unwrap_or_else(|| panic!("/{name} is not registered"));
        let description = command["description"].as_str().unwrap_or("");
        assert!(!description.is_empty() && description.chars().count() <= 100, "/{name}: {description:?}");
        check_options(name, &command["options"], options);
    }
    let tournament = find(&registered, "tournament").unwrap();
    for (name, options) in tournament_subcommands() {
        let sub = find(&tournament["options"], name).unwrap();
        let description = sub["description"].as_str().unwrap_or("");
        assert!(!description.is_empty() && description.chars().count() <= 100, "/tournament {name}");
        check_options(&format!("tournament {name}"), &sub["options"], options);
    }
    // Games belong to servers: every command is for servers only (interaction context 0,
    // installed in servers: integration type 0), and /admin-abort shows only to members
    // with Manage Server (permission bit 32).
    for command in registered.as_array().unwrap() {
        let name = &command["name"];
        assert_eq!(command["contexts"], serde_json::json!([0]), "/{name}: contexts");
        assert_eq!(command["integration_types"], serde_json::json!([0]), "/{name}: integration types");
        let permissions = &command["default_member_permissions"];
        if name == "admin-abort" {
            assert_eq!(permissions, "32", "/admin-abort: default member permissions");
        } else {
            assert!(permissions.is_null(), "/{name}: {permissions}");
        }
    }
    let days = find(&find(&registered, "challenge").unwrap()["options"], "days").unwrap().clone();
    assert_eq!((days["min_value"].as_f64(), days["max_value"].as_f64()), (Some(0.0), Some(14.0)));
    assert!(fake.unknown_requests().is_empty(), "{:?}", fake.unknown_requests());
    bot.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn without_guilds_the_commands_are_registered_globally() {
    init();
    let fake = FakeDiscord::start().await;
    let dir = scratch_dir("global");
    let mut config = config(&fake, &dir);
    config.discord.guilds.clear();
    let (bot, registered) = Bot::start(&fake, config, real_service(&dir)).await;
    assert_eq!(registered.as_array().map(Vec::len), Some(contract().len()));
    bot.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn help_lists_the_commands_privately() {
    init();
    let fake = FakeDiscord::start().await;
    let dir = scratch_dir("help");
    let (bot, _) = Bot::start(&fake, config(&fake, &dir), real_service(&dir)).await;
    let alice = player(&fake, "alice");
    let help = command(&fake, &alice, "help", serde_json::json!([])).await;
    assert!(help.is_private(), "{}", help.content());
    for name in ["challenge", "move", "legal", "rules", "help"] {
        assert!(help.content().contains(&format!("`/{name}` — ")), "/{name} missing:\n{}", help.content());
    }
    bot.stop().await;
}

/// A subcommand comes from Discord as `/tournament` with the subcommand as its option:
/// the adapter finds it by its full name and the service answers it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_subcommand_reaches_the_service() {
    init();
    let fake = FakeDiscord::start().await;
    let dir = scratch_dir("subcommand");
    let (bot, _) = Bot::start(&fake, config(&fake, &dir), real_service(&dir)).await;
    let alice = player(&fake, "alice");
    let list = serde_json::json!([{ "type": SUB_COMMAND, "name": "list", "options": [] }]);
    let listed = command(&fake, &alice, "tournament", list).await;
    assert!(listed.content().contains("No tournament here fits"), "{}", listed.content());
    let game = serde_json::json!([{ "type": STRING, "name": "game", "value": "go" }]);
    let create = serde_json::json!([{ "type": SUB_COMMAND, "name": "create", "options": game }]);
    let refused = command(&fake, &alice, "tournament", create).await;
    assert!(refused.is_private() && refused.content().contains("Manage Server"), "{}", refused.content());
    bot.stop().await;
}
