//! A thread per game (`/settings threads:on`) through the real serenity client: the
//! thread is created once when the game starts, the game's messages go to it and commands
//! used in it answer there, the end is posted in it (reopening it if Discord archived it
//! meanwhile) and it is archived; every thread request fits Discord's API description. A
//! thread Discord refuses (403) is said once in the channel, and the game goes on there.

use std::time::Duration;

use serde_json::json;
use stonemate_tests::fake_discord::described::{CREATE_THREAD, EDIT_THREAD};
use stonemate_tests::fake_discord::{Failure, FakeDiscord, Origin, Recorded, RequestKind, payloads};

use super::harness::*;

/// How long to watch for a request sent again.
const SETTLE: Duration = Duration::from_millis(1_500);

/// A server manager (alice) turns threads on; she challenges bob to Go on 9x9 as black and
/// he accepts: bob is white, alice moves first.
async fn start_game(fake: &FakeDiscord) -> (Origin, Origin) {
    let mut alice = player(fake, "alice");
    alice.permissions |= payloads::MANAGE_GUILD;
    let bob = player(fake, "bob");
    let set = command(fake, &alice, "settings", json!([text("threads", "on")])).await;
    assert!(set.content().contains("threads on"), "{}", set.content());
    let options =
        json!([user("opponent", &bob), text("game", "go"), text("color", "black"), text("options", "board=9x9")]);
    command(fake, &alice, "challenge", options).await;
    let accepted = command(fake, &bob, "accept", json!([])).await;
    assert!(accepted.content().contains("accepted"), "{}", accepted.content());
    (alice, bob)
}

fn posted_in(recorded: &Recorded, channel: u64, text: &str) -> bool {
    recorded.kind == RequestKind::ChannelMessage { channel }
        && recorded.body["content"].as_str().is_some_and(|content| content.contains(text))
}

async fn take_post(fake: &FakeDiscord, channel: u64, text: &str) -> Recorded {
    let taken = fake.take(WAIT, |r| posted_in(r, channel, text)).await;
    taken.unwrap_or_else(|| panic!("no `{text}` in {channel}; untaken: {:#?}", fake.untaken()))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_is_played_in_its_thread_which_is_archived_at_the_end() {
    init();
    let fake = FakeDiscord::start().await;
    let dir = scratch_dir("threads-game");
    let (bot, _) = Bot::start(&fake, config(&fake, &dir), real_service(&dir)).await;
    let (alice, bob) = start_game(&fake).await;
    let created = fake.take(WAIT, |r| matches!(r.kind, RequestKind::CreateThread { channel: CHANNEL, .. })).await;
    let created = created.unwrap_or_else(|| panic!("no thread created; untaken: {:#?}", fake.untaken()));
    let RequestKind::CreateThread { thread, message: None, .. } = created.kind else { panic!("{created:?}") };
    assert_eq!(created.body, json!({ "name": "#1 bob vs alice", "type": 11, "auto_archive_duration": 10080 }));
    let greeting = take_post(&fake, thread, "this thread follows Go with chess pieces #1").await;
    let pinged: Vec<String> = [&alice, &bob].iter().map(|origin| user_id(origin)).collect();
    assert_eq!(greeting.body["allowed_mentions"]["users"], json!(pinged), "both players join the thread");
    // In the thread, stored before its greeting went out: commands answer there, the
    // reply pings the player to move.
    let [alice, bob] = [&alice, &bob].map(|origin| Origin { channel: thread, ..origin.clone() });
    for (origin, turn) in [(&alice, "e5"), (&bob, "d5"), (&alice, "e4")] {
        let played = command(&fake, origin, "move", json!([text("notation", turn)])).await;
        assert!(!played.is_private() && played.content().contains(turn), "{}", played.content());
    }
    // Discord archives a thread idle for a week; the result posted in it reopens it.
    fake.archive_idle(thread);
    let asked = command(&fake, &bob, "resign", json!([])).await;
    let pressed = fake.press(&bob, &asked.message.clone().expect("message"), &button(&asked, "resign"));
    assert!(answer(&fake, &pressed).await.content().contains("wins by resignation"));
    take_post(&fake, thread, "#1 is over: this thread is archived.").await;
    let archived = fake.take(WAIT, |r| r.kind == RequestKind::EditChannel { channel: thread }).await;
    assert_eq!(archived.expect("the thread is archived").body, json!({ "archived": true }));
    assert_eq!(fake.thread(thread).expect("the thread")["thread_metadata"]["archived"], true);
    // Nothing went to the channel but the replies to the commands made there; one thread.
    let stray = |r: &Recorded| {
        matches!(r.kind, RequestKind::ChannelMessage { channel: CHANNEL } | RequestKind::CreateThread { .. })
    };
    assert!(fake.take(SETTLE, stray).await.is_none(), "untaken: {:#?}", fake.untaken());
    assert_eq!(fake.violations(), Vec::<String>::new());
    bot.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_refused_thread_is_said_once_and_the_game_goes_on_in_the_channel() {
    init();
    let fake = FakeDiscord::start().await;
    let dir = scratch_dir("threads-refused");
    let (bot, _) = Bot::start(&fake, config(&fake, &dir), real_service(&dir)).await;
    fake.fail(Failure::no_threads(CHANNEL));
    let (alice, bob) = start_game(&fake).await;
    let refused =
        fake.take(WAIT, |r| matches!(r.kind, RequestKind::Refused { channel: CHANNEL, status: 403, .. })).await;
    assert!(refused.is_some_and(|r| r.body["name"] == "#1 bob vs alice"), "untaken: {:#?}", fake.untaken());
    take_post(&fake, CHANNEL, "I may not open a thread here").await;
    command(&fake, &alice, "move", json!([text("notation", "e5")])).await;
    let played = command(&fake, &bob, "move", json!([text("notation", "d5")])).await;
    assert!(played.content().contains("d5"), "{}", played.content());
    let again = |r: &Recorded| {
        matches!(r.kind, RequestKind::Refused { .. } | RequestKind::CreateThread { .. })
            || posted_in(r, CHANNEL, "thread")
    };
    assert!(fake.take(SETTLE, again).await.is_none(), "the refusal is said once; untaken: {:#?}", fake.untaken());
    assert_eq!(fake.violations(), Vec::<String>::new());
    bot.stop().await;
}

#[test]
fn thread_requests_outside_discords_description_are_counted() {
    let fits = json!({ "name": "#1 a vs b", "type": 11, "auto_archive_duration": 10080 });
    assert!(CREATE_THREAD.violations(&fits).is_empty());
    let wrong = json!({ "type": 0, "auto_archive_duration": 7, "colour": "red" });
    assert_eq!(CREATE_THREAD.violations(&wrong).len(), 4, "{:?}", CREATE_THREAD.violations(&wrong));
    assert_eq!(CREATE_THREAD.violations(&json!({ "name": "x".repeat(101) })).len(), 1);
    assert!(EDIT_THREAD.violations(&json!({ "archived": true })).is_empty());
    assert_eq!(EDIT_THREAD.violations(&json!({ "archived": "yes" })).len(), 1);
}
