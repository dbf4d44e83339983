//! Answers that take long are deferred first (Discord wants a first answer within 3 s),
//! then completed: a public answer by editing the "thinking…" message, a private one or
//! one that pings by a new follow-up (an edit can neither turn private nor ping).

use serde_json::json;
use stonemate_tests::fake_discord::{DEFERRED_REPLY, FakeDiscord, RequestKind};

use super::harness::*;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn slow_answers_are_deferred_then_completed() {
    init();
    let fake = FakeDiscord::start().await;
    let dir = scratch_dir("deferral");
    let mut config = config(&fake, &dir);
    config.discord.defer_ms = 0; // defer every answer
    let (bot, _) = Bot::start(&fake, config, real_service(&dir)).await;
    let (alice, bob) = (player(&fake, "alice"), player(&fake, "bob"));

    let options = json!([user("opponent", &bob), text("game", "go"), text("options", "board=9x9")]);
    let sent = fake.command(&alice, "challenge", options);
    let challenge = answer(&fake, &sent).await;
    assert_eq!(challenge.kind, DEFERRED_REPLY);
    assert!(!challenge.is_private());
    assert!(challenge.content().contains(&format!("<@{}>", user_id(&bob))), "{}", challenge.content());
    assert_pngs(&challenge);
    let token = sent.token.clone();
    let replaced = fake.take(WAIT, |r| r.kind == RequestKind::DeleteOriginal { token: token.clone() }).await;
    assert!(replaced.is_some(), "a reply that pings must be a new follow-up, not an edit");

    let sent = fake.command(&bob, "accept", json!([]));
    let started = answer(&fake, &sent).await;
    assert!(!started.is_private(), "{}", started.content());
    assert_pngs(&started);

    let sent = fake.command(&alice, "board", json!([]));
    let board = answer(&fake, &sent).await;
    assert_eq!(board.kind, DEFERRED_REPLY);
    assert!(!board.is_private(), "{}", board.content());
    assert_pngs(&board);

    let sent = fake.command(&alice, "move", json!([text("notation", "z99")]));
    let refused = answer(&fake, &sent).await;
    assert_eq!(refused.kind, DEFERRED_REPLY);
    assert!(refused.is_private(), "a refusal stays private after a deferral: {}", refused.content());
    bot.stop().await;
    assert!(fake.unknown_requests().is_empty(), "{:?}", fake.unknown_requests());
}
