//! The notice outbox against a fake Discord that fails: answering 500 until it recovers,
//! also across a restart of the bot on the same database; refusing a direct message
//! (50007), which then arrives as a ping in the game's channel; refusing the channel
//! (50013), which the next reply about the game reports once. Every notice arrives
//! exactly once.

use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use serde_json::{Value, json};
use stonemate_bot::clock::{Span, SystemClock};
use stonemate_bot::service::{NoticeTiming, Service, Settings, channel_refused};
use stonemate_bot::store::SledStore;
use stonemate_tests::fake_discord::{Failure, FakeDiscord, Origin, RequestKind, Route};

use super::harness::*;

/// Retries every 100-400 ms, so that a test waits for a few.
fn quick_service(dir: &Path) -> Service {
    let notices = NoticeTiming { first_retry: Span(100), last_retry: Span(400), lease: Span(10_000) };
    let settings = Settings { notices, ..Settings::default() };
    Service::new(SledStore::open(dir).expect("open the database"), Arc::new(SystemClock), settings)
}

/// How long to watch for a notice sent twice.
const SETTLE: Duration = Duration::from_millis(1_500);

/// Alice challenges Bob to Go on 9x9 as black and Bob accepts: Alice moves first.
async fn start_game(fake: &FakeDiscord, alice: &Origin, bob: &Origin) {
    let options =
        json!([user("opponent", bob), text("game", "go"), text("color", "black"), text("options", "board=9x9")]);
    command(fake, alice, "challenge", options).await;
    let accepted = command(fake, bob, "accept", json!([])).await;
    assert!(accepted.content().contains("accepted"), "{}", accepted.content());
}

/// `origin` in another channel of the guild: a turn played there is pinged in the game's
/// channel by a notice of its own (in the game's channel the reply pings).
fn elsewhere(origin: &Origin) -> Origin {
    Origin { channel: CHANNEL + 1, ..origin.clone() }
}

fn is_turn_ping(recorded: &stonemate_tests::fake_discord::Recorded, channel: u64) -> bool {
    recorded.kind == RequestKind::ChannelMessage { channel }
        && recorded.body["content"].as_str().is_some_and(|text| text.contains("it is your turn"))
}

/// The turn pings posted in `channel` within [`SETTLE`] after the first.
async fn pings_in(fake: &FakeDiscord, channel: u64) -> Vec<Value> {
    let first = fake.take(WAIT, |r| is_turn_ping(r, channel)).await;
    let first = first.unwrap_or_else(|| panic!("no turn ping in {channel}; untaken: {:#?}", fake.untaken()));
    let mut pings = vec![first.body];
    while let Some(again) = fake.take(SETTLE, |r| is_turn_ping(r, channel)).await {
        pings.push(again.body);
    }
    pings
}

fn is_refused(recorded: &stonemate_tests::fake_discord::Recorded, channel: u64) -> bool {
    matches!(recorded.kind, RequestKind::Refused { channel: c, .. } if c == channel)
}

/// Waits for `count` refused messages in `channel`.
async fn refused(fake: &FakeDiscord, channel: u64, count: usize) {
    for n in 0..count {
        let taken = fake.take(WAIT, |r| is_refused(r, channel)).await;
        assert!(taken.is_some(), "{n} of {count} refused messages; untaken: {:#?}", fake.untaken());
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_turn_ping_refused_with_500s_arrives_exactly_once_when_discord_recovers() {
    init();
    let fake = FakeDiscord::start().await;
    let dir = scratch_dir("outbox-500");
    let (bot, _) = Bot::start(&fake, config(&fake, &dir), quick_service(&dir)).await;
    let (alice, bob) = (player(&fake, "alice"), player(&fake, "bob"));
    start_game(&fake, &alice, &bob).await;
    fake.fail(Failure::server_error(Route::Channel(CHANNEL)));
    let played = command(&fake, &elsewhere(&alice), "move", json!([text("notation", "e5"), text("game", "1")])).await;
    assert!(!played.is_private(), "{}", played.content());
    // Retried while Discord fails.
    refused(&fake, CHANNEL, 3).await;
    fake.clear_failures();
    let pings = pings_in(&fake, CHANNEL).await;
    assert_eq!(pings.len(), 1, "exactly once: {pings:#?}");
    assert!(pings[0]["content"].as_str().unwrap().contains(&format!("<@{}>", user_id(&bob))));
    bot.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_notice_that_failed_before_a_restart_arrives_exactly_once_after_it() {
    init();
    let fake = FakeDiscord::start().await;
    let dir = scratch_dir("outbox-restart");
    let (bot, _) = Bot::start(&fake, config(&fake, &dir), quick_service(&dir)).await;
    let (alice, bob) = (player(&fake, "alice"), player(&fake, "bob"));
    start_game(&fake, &alice, &bob).await;
    fake.fail(Failure::server_error(Route::Channel(CHANNEL)));
    command(&fake, &elsewhere(&alice), "move", json!([text("notation", "e5"), text("game", "1")])).await;
    refused(&fake, CHANNEL, 1).await;
    bot.stop().await;
    fake.clear_failures();
    assert!(fake.take(SETTLE, |r| is_turn_ping(r, CHANNEL)).await.is_none(), "the stopped bot sends nothing");
    // A new client on the same data directory.
    let (bot, _) = Bot::start(&fake, config(&fake, &dir), quick_service(&dir)).await;
    let pings = pings_in(&fake, CHANNEL).await;
    assert_eq!(pings.len(), 1, "exactly once: {pings:#?}");
    bot.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_refused_direct_message_arrives_as_a_ping_in_the_games_channel() {
    init();
    let fake = FakeDiscord::start().await;
    let dir = scratch_dir("outbox-dm");
    let (bot, _) = Bot::start(&fake, config(&fake, &dir), quick_service(&dir)).await;
    let (alice, bob) = (player(&fake, "alice"), player(&fake, "bob"));
    start_game(&fake, &alice, &bob).await;
    command(&fake, &bob, "notify", json!([text("mode", "dm")])).await;
    fake.fail(Failure::dms_closed());
    command(&fake, &alice, "move", json!([text("notation", "e5")])).await;
    let pings = pings_in(&fake, CHANNEL).await;
    assert_eq!(pings.len(), 1, "exactly once: {pings:#?}");
    let content = pings[0]["content"].as_str().unwrap();
    assert!(content.contains(&format!("<@{}>", user_id(&bob))), "{content}");
    assert!(content.contains("direct messages are closed"), "{content}");
    assert_eq!(pings[0]["allowed_mentions"]["users"], json!([user_id(&bob)]));
    bot.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_channel_the_bot_may_not_post_in_is_reported_once_in_the_next_reply() {
    init();
    let fake = FakeDiscord::start().await;
    let dir = scratch_dir("outbox-403");
    let (bot, _) = Bot::start(&fake, config(&fake, &dir), quick_service(&dir)).await;
    let (alice, bob) = (player(&fake, "alice"), player(&fake, "bob"));
    start_game(&fake, &alice, &bob).await;
    fake.fail(Failure::missing_permissions(CHANNEL));
    command(&fake, &elsewhere(&alice), "move", json!([text("notation", "e5"), text("game", "1")])).await;
    refused(&fake, CHANNEL, 1).await;
    assert!(fake.take(SETTLE, |r| is_refused(r, CHANNEL)).await.is_none(), "a refused channel is not retried");
    let board = command(&fake, &bob, "board", json!([])).await;
    assert!(board.content().contains(&channel_refused()), "{}", board.content());
    let again = command(&fake, &alice, "board", json!([])).await;
    assert!(!again.content().contains(&channel_refused()), "reported once: {}", again.content());
    bot.stop().await;
}
