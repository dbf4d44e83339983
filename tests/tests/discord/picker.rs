//! The turn picker through Discord (issue 26): a whole short game played with the picker
//! only, through the real serenity client: `/play` and the Play button open a private
//! message of select menus (component type 3, whose interactions carry `values`), each
//! choice updates that message, and Confirm plays the turn in the channel.

use serde_json::{Value, json};
use stonemate_tests::fake_discord::{Answer, FakeDiscord, Origin, UPDATE_MESSAGE};

use super::harness::*;

/// The custom id of the button labelled `label`.
fn labelled(answer: &Answer, label: &str) -> String {
    let rows = answer.data["components"].as_array().cloned().unwrap_or_default();
    let buttons: Vec<Value> =
        rows.iter().flat_map(|row| row["components"].as_array().cloned().unwrap_or_default()).collect();
    let button = buttons.iter().find(|button| button["label"] == label && button["type"] == 2);
    let id = button.and_then(|button| button["custom_id"].as_str());
    id.unwrap_or_else(|| panic!("no {label} in {buttons:#?}")).to_owned()
}

/// From an open picker (`opened`, private), chooses `value` in its select menu, then
/// confirms; returns the public answer of the turn played.
async fn pick(fake: &FakeDiscord, who: &Origin, opened: &Answer, value: &str) -> Answer {
    assert!(opened.is_private(), "the picker is private: {}", opened.content());
    let selects = opened.selects();
    let [(id, options)] = selects.as_slice() else { panic!("one select menu: {:#}", opened.data) };
    assert!(options.len() <= 25 && options.iter().any(|(offered, _)| offered == value), "{options:?}");
    let message = opened.message.clone().expect("the picker's message");
    let preview = answer(fake, &fake.select(who, &message, id, value)).await;
    assert_eq!(preview.kind, UPDATE_MESSAGE, "a choice updates the picker: {:#}", preview.data);
    assert!(preview.selects().is_empty(), "the last step previews the turn: {:#}", preview.data);
    assert!(preview.content().contains("Confirm"), "{}", preview.content());
    assert!(!preview.files.is_empty() && preview.files[0].starts_with(b"\x89PNG"), "the preview's board");
    let message = preview.message.clone().expect("the updated picker");
    let played = answer(fake, &fake.press(who, &message, &labelled(&preview, "Confirm"))).await;
    assert!(!played.is_private(), "the turn is played in the channel: {}", played.content());
    played
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_whole_game_played_with_the_picker_only() {
    init();
    let fake = FakeDiscord::start().await;
    let dir = scratch_dir("picker-game");
    let (bot, _) = Bot::start(&fake, config(&fake, &dir), real_service(&dir)).await;
    let (alice, bob) = (player(&fake, "alice"), player(&fake, "bob"));
    let options = json!([
        user("opponent", &bob),
        text("game", "go"),
        text("color", "white"),
        text("options", "board=3x3 komi=0.5 counting=off")
    ]);
    command(&fake, &alice, "challenge", options).await;
    command(&fake, &bob, "accept", json!([])).await;

    // Bob (black) opens his picker with /play: on 3x3 the squares fit in one menu.
    let opened = command(&fake, &bob, "play", json!([])).await;
    let played = pick(&fake, &bob, &opened, "Rb2").await;
    assert!(played.content().contains("R@b2"), "{}", played.content());
    // Alice opens hers with the Play button of that reply, and passes.
    let message = played.message.clone().expect("the turn's message");
    let opened = answer(&fake, &fake.press(&alice, &message, &button(&played, "play"))).await;
    let played = pick(&fake, &alice, &opened, "pass").await;
    assert!(played.content().contains("pass"), "{}", played.content());
    // Bob passes too: two passes end the game.
    let opened = command(&fake, &bob, "play", json!([])).await;
    let over = pick(&fake, &bob, &opened, "pass").await;
    assert!(over.content().contains("Game over"), "{}", over.content());

    // A picker left from before is refused: the game is over.
    let refused = command(&fake, &alice, "play", json!([text("game", "1")])).await;
    assert!(refused.is_private() && refused.content().contains("over"), "{}", refused.content());
    bot.stop().await;
}
