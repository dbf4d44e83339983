//! The turn picker through Discord (issue 26): a whole short game played with the picker
//! only, through the real serenity client: `/play` and the Play button open a private
//! message of select menus (component type 3, whose interactions carry `values`) or, for a
//! step of few choices, buttons; each choice updates that message, and Confirm plays the
//! turn in the channel.

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

/// The record version a picker's Cancel button names (`pick-cancel:GAME:VERSION:PATH`).
fn opened_version(answer: &Answer) -> String {
    let cancel = labelled(answer, "Cancel");
    cancel.split(':').nth(2).expect("a version").to_owned()
}

/// From an open picker (`opened`, private), takes the choices of `path` one by one (in
/// the step's select menu, or by their own button where a step has few choices), then
/// confirms; returns the public answer of the turn played. Each choice updates the
/// picker's message.
async fn pick(fake: &FakeDiscord, who: &Origin, opened: &Answer, path: &[&str]) -> Answer {
    assert!(opened.is_private(), "the picker is private: {}", opened.content());
    let mut step = opened.clone();
    for value in path {
        let message = step.message.clone().expect("the picker's message");
        let selects = step.selects();
        let sent = match selects.as_slice() {
            [(id, options)] => {
                assert!(options.len() <= 25 && options.iter().any(|(offered, _)| offered == value), "{options:?}");
                fake.select(who, &message, id, value)
            }
            [] => {
                // A choice's button: its path ends with the choice.
                let ids = step.custom_ids();
                let tap = ids.iter().find(|id| {
                    id.starts_with("pick-at:")
                        && (id.ends_with(&format!(":{value}")) || id.ends_with(&format!(".{value}")))
                });
                fake.press(who, &message, tap.unwrap_or_else(|| panic!("no button for {value} in {ids:?}")))
            }
            _ => panic!("one select menu at most: {:#}", step.data),
        };
        step = answer(fake, &sent).await;
        assert_eq!(step.kind, UPDATE_MESSAGE, "a choice updates the picker: {:#}", step.data);
    }
    let preview = step;
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
        text("options", "board=3x3 pieces=RN komi=0.5 counting=off")
    ]);
    command(&fake, &alice, "challenge", options).await;
    command(&fake, &bob, "accept", json!([])).await;

    // Bob (black) opens his picker with /play: pass or a drop of a rook or a knight are
    // three buttons; on 3x3 the squares then fit in one menu.
    let opened = command(&fake, &bob, "play", json!([])).await;
    assert!(opened.selects().is_empty(), "a few choices are buttons: {:#}", opened.data);
    assert_eq!(labelled(&opened, "drop a Rook (R)"), format!("pick-at:1:{}:R", opened_version(&opened)));
    let played = pick(&fake, &bob, &opened, &["R", "b2"]).await;
    assert!(played.content().contains("R@b2"), "{}", played.content());
    // Alice opens hers with the Play button of that reply, and passes.
    let message = played.message.clone().expect("the turn's message");
    let opened = answer(&fake, &fake.press(&alice, &message, &button(&played, "play"))).await;
    let played = pick(&fake, &alice, &opened, &["pass"]).await;
    assert!(played.content().contains("pass"), "{}", played.content());
    // Bob passes too: two passes end the game.
    let opened = command(&fake, &bob, "play", json!([])).await;
    let over = pick(&fake, &bob, &opened, &["pass"]).await;
    assert!(over.content().contains("Game over"), "{}", over.content());

    // A picker left from before is refused: the game is over.
    let refused = command(&fake, &alice, "play", json!([text("game", "1")])).await;
    assert!(refused.is_private() && refused.content().contains("over"), "{}", refused.content());
    bot.stop().await;
}
