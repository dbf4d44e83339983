//! A tournament through Discord (issue 39): `/tournament` and its subcommands as Discord
//! sends them, and the standings message posted once in the tournament's channel, then
//! edited after each result instead of a new message each time.

use serde_json::{Value, json};
use stonemate_tests::fake_discord::{Answer, FakeDiscord, Origin, Recorded, RequestKind};

use super::harness::*;

/// Discord's Manage Server permission.
const MANAGE_GUILD: u64 = 1 << 5;

/// `/tournament <subcommand>` with `options`, as Discord sends a subcommand.
async fn tournament(fake: &FakeDiscord, origin: &Origin, subcommand: &str, options: Value) -> Answer {
    command(fake, origin, "tournament", json!([{ "name": subcommand, "type": 1, "options": options }])).await
}

/// A player of game `id` among `players` resigns it (the others are refused it).
async fn resign_one(fake: &FakeDiscord, players: &[Origin], id: u32) {
    for player in players {
        let asked = command(fake, player, "resign", json!([text("game", &id.to_string())])).await;
        if asked.is_private() && !asked.custom_ids().iter().any(|custom| custom.starts_with("resign")) {
            continue;
        }
        let message = asked.message.clone().expect("the confirmation");
        let resigned = answer(fake, &fake.press(player, &message, &button(&asked, "resign"))).await;
        assert!(!resigned.is_private(), "{}", resigned.content());
        return;
    }
    panic!("no player of game #{id} among the players");
}

fn content(recorded: &Recorded) -> &str {
    recorded.body["content"].as_str().unwrap_or("")
}

fn is_standings(recorded: &Recorded) -> bool {
    matches!(recorded.kind, RequestKind::ChannelMessage { channel: CHANNEL } | RequestKind::EditChannelMessage { .. })
        && content(recorded).contains(" games played")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_standings_message_is_posted_then_edited_through_discord() {
    init();
    let fake = FakeDiscord::start().await;
    let dir = scratch_dir("tournament-standings");
    let (bot, _) = Bot::start(&fake, config(&fake, &dir), real_service(&dir)).await;
    let mut ann = player(&fake, "ann");
    ann.permissions |= MANAGE_GUILD;
    let players: Vec<Origin> = ["p1", "p2", "p3"].iter().map(|name| player(&fake, name)).collect();

    let created = tournament(&fake, &ann, "create", json!([text("game", "go"), text("options", "board=9x9")])).await;
    assert!(!created.is_private(), "{}", created.content());
    for origin in &players {
        let joined = tournament(&fake, origin, "join", json!([text("tournament", "T1")])).await;
        assert!(joined.content().contains("joined"), "{}", joined.content());
    }
    let started = tournament(&fake, &ann, "start", json!([])).await;
    assert!(started.content().contains("3 games begin"), "{}", started.content());

    resign_one(&fake, &players, 1).await;
    let posted = fake.take(WAIT, is_standings).await;
    let posted = posted.unwrap_or_else(|| panic!("no standings; untaken: {:#?}", fake.untaken()));
    assert_eq!(posted.kind, RequestKind::ChannelMessage { channel: CHANNEL }, "posted as a new message");
    assert!(content(&posted).contains("1 of 3 games played"), "{}", content(&posted));
    assert_eq!(posted.files.len(), 1, "with the standings picture");
    let message: u64 = posted.message.as_ref().and_then(|m| m["id"].as_str()).and_then(|id| id.parse().ok()).unwrap();

    for (game, shown) in [(2, "2 of 3 games played:"), (3, "3 of 3 games played, finished:")] {
        resign_one(&fake, &players, game).await;
        let edited = fake.take(WAIT, is_standings).await;
        let edited = edited.unwrap_or_else(|| panic!("no standings after #{game}; untaken: {:#?}", fake.untaken()));
        assert_eq!(edited.kind, RequestKind::EditChannelMessage { channel: CHANNEL, message }, "the same message");
        assert!(content(&edited).contains(shown), "{}", content(&edited));
        assert_eq!(edited.files.len(), 1, "the picture replaced");
        assert_eq!(edited.body["attachments"].as_array().map(Vec::len), Some(1), "only the new picture kept");
    }
    let end = fake
        .take(WAIT, |r| {
            r.kind == RequestKind::ChannelMessage { channel: CHANNEL } && content(r).contains("(T1) is over")
        })
        .await;
    let end = end.unwrap_or_else(|| panic!("the end is told as a message of its own; untaken: {:#?}", fake.untaken()));
    assert!(content(&end).contains("Won by"), "{}", content(&end));
    assert!(!fake.untaken().iter().any(is_standings), "no second standings: {:#?}", fake.untaken());

    bot.stop().await;
    assert!(fake.unknown_requests().is_empty(), "{:?}", fake.unknown_requests());
}
