//! Playing again through Discord (issue 18): an open challenge taken by a third member with
//! its Accept button (and refused to its author), then the Rematch button on the finished
//! game's message, which challenges the same opponent with the colours swapped.

use serde_json::json;
use stonemate_tests::fake_discord::FakeDiscord;

use super::harness::*;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_open_challenge_then_a_rematch_through_discord() {
    init();
    let fake = FakeDiscord::start().await;
    let dir = scratch_dir("community");
    let (bot, _) = Bot::start(&fake, config(&fake, &dir), real_service(&dir)).await;
    let (alice, carol) = (player(&fake, "alice"), player(&fake, "carol"));

    let options = json!([text("game", "go"), text("color", "white"), integer("days", 3), text("options", "board=9x9")]);
    let open = command(&fake, &alice, "challenge", options).await;
    assert!(!open.is_private(), "{}", open.content());
    assert!(open.content().contains("open challenge"), "{}", open.content());
    let accept = button(&open, "accept");
    let message = open.message.clone().expect("the challenge message");
    let own = answer(&fake, &fake.press(&alice, &message, &accept)).await;
    assert!(own.is_private() && own.content().contains("your own open challenge"), "{}", own.content());
    let started = answer(&fake, &fake.press(&carol, &message, &accept)).await;
    assert!(!started.is_private(), "{}", started.content());
    assert!(started.content().starts_with("carol accepted"), "{}", started.content());
    // Each plays a turn: only a game both began is rated.
    for (who, turn) in [(&carol, "e5"), (&alice, "c7")] {
        let played = command(&fake, who, "move", json!([text("notation", turn)])).await;
        assert!(!played.is_private(), "{}", played.content());
    }

    let asked = command(&fake, &carol, "resign", json!([])).await;
    let confirm = button(&asked, "resign");
    let resigned = answer(&fake, &fake.press(&carol, &asked.message.clone().expect("message"), &confirm)).await;
    assert!(!resigned.is_private(), "{}", resigned.content());
    assert!(resigned.content().contains("Ratings: alice 1662?, carol 1338?"), "{}", resigned.content());
    let rematch = button(&resigned, "rematch");
    let over = resigned.message.clone().expect("the result message");
    let again = answer(&fake, &fake.press(&carol, &over, &rematch)).await;
    assert!(!again.is_private(), "{}", again.content());
    assert!(again.content().contains("carol challenges you"), "{}", again.content());
    assert_eq!(again.data["allowed_mentions"]["users"], json!([user_id(&alice)]), "alice is pinged");
    assert!(again.content().contains("carol plays white"), "colours swapped: {}", again.content());
    button(&again, "accept");
    // carol presses again: no second challenge. alice presses too: that accepts carol's.
    let twice = answer(&fake, &fake.press(&carol, &over, &rematch)).await;
    assert!(twice.is_private() && twice.content().contains("waiting for your opponent"), "{}", twice.content());
    let accepted = answer(&fake, &fake.press(&alice, &over, &rematch)).await;
    assert!(!accepted.is_private(), "{}", accepted.content());
    assert!(accepted.content().starts_with("alice accepted"), "one game: {}", accepted.content());

    bot.stop().await;
    assert!(fake.unknown_requests().is_empty(), "{:?}", fake.unknown_requests());
}
