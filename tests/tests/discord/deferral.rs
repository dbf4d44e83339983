//! Answers that take long are deferred first (Discord wants a first answer within 3 s),
//! then completed: a public answer by editing the "thinking…" message, a private one or
//! one that pings by a new follow-up (an edit can neither turn private nor ping).

use std::time::Duration;

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

/// Discord drops an interaction not acknowledged within 3 s. One reply hangs for 10 s (its
/// HTTP call to Discord does not return), which keeps the outbox's sender waiting to claim
/// notices; commands arriving meanwhile must still be acknowledged within 3 s each, and a
/// command whose answer is private shows its "thinking…" to the caller only.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_interaction_is_acknowledged_within_three_seconds_while_a_reply_hangs() {
    init();
    let fake = FakeDiscord::start().await;
    let dir = scratch_dir("hanging-reply");
    let (bot, _) = Bot::start(&fake, config(&fake, &dir), real_service(&dir)).await;
    let (alice, bob) = (player(&fake, "alice"), player(&fake, "bob"));
    let options = json!([user("opponent", &bob), text("game", "go"), text("options", "board=9x9")]);
    let challenge = command(&fake, &alice, "challenge", options).await;
    let accept = button(&challenge, "accept");
    answer(&fake, &fake.press(&bob, &challenge.message.clone().expect("message"), &accept)).await;

    fake.stall_next_callback(Duration::from_secs(10));
    let hanging = fake.command(&alice, "board", json!([]));
    let mut sent = Vec::new();
    for (n, (who, name)) in
        [(&bob, "board"), (&alice, "games"), (&bob, "rules"), (&alice, "board")].into_iter().enumerate()
    {
        // The outbox's sender gives up waiting politely after 2 s and queues for the gate.
        tokio::time::sleep(Duration::from_millis(if n == 0 { 2_500 } else { 1_000 })).await;
        let options = if name == "rules" { json!([text("game", "go")]) } else { json!([]) };
        sent.push((name, fake.command(who, name, options)));
    }
    for (name, sent) in &sent {
        let answered = answer(&fake, sent).await;
        let waited = answered.acknowledged - sent.at;
        assert!(waited < Duration::from_secs(3), "/{name} was acknowledged after {waited:?}");
        if *name == "games" || *name == "rules" {
            assert!(answered.is_private(), "/{name}: {}", answered.content());
            if answered.kind == DEFERRED_REPLY {
                let flags = answered.acknowledgement["data"]["flags"].as_u64().unwrap_or(0);
                assert_eq!(flags & 64, 64, "/{name} was deferred in public: {}", answered.acknowledgement);
            }
        }
    }
    let hung = answer(&fake, &hanging).await;
    assert!(hung.acknowledged - hanging.at < Duration::from_secs(3));
    bot.stop().await;
}
