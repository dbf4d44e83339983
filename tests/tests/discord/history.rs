//! `/history` through Discord: its record files (the SGF of a go game among them), and its
//! First / Back / Next / Last buttons, each press answered by updating the same message
//! (UPDATE_MESSAGE) with the board after another turn; a slow step is acknowledged first
//! and then edits the pressed message; a forged step is refused privately.

use serde_json::{Value, json};
use stonemate_engine::GameKind;
use stonemate_engine::formats::{self, Format};
use stonemate_tests::fake_discord::{Answer, DEFERRED_UPDATE, FakeDiscord, Origin, RequestKind, UPDATE_MESSAGE};

use super::harness::*;

/// Alice (white) and Bob (black) play five turns of Go on 9x9.
async fn five_turns(fake: &FakeDiscord, alice: &Origin, bob: &Origin) {
    let options =
        json!([user("opponent", bob), text("game", "go"), text("color", "white"), text("options", "board=9x9")]);
    let challenge = command(fake, alice, "challenge", options).await;
    assert!(!challenge.is_private(), "{}", challenge.content());
    let started = command(fake, bob, "accept", json!([])).await;
    assert!(!started.is_private(), "{}", started.content());
    for (who, turn) in [(bob, "e5"), (alice, "d4"), (bob, "c3"), (alice, "g7"), (bob, "pass")] {
        let played = command(fake, who, "move", json!([text("notation", turn)])).await;
        assert!(!played.is_private(), "{turn}: {}", played.content());
    }
}

/// The names of the files sent with an answer, in order.
fn file_names(answer: &Answer) -> Vec<String> {
    let attachments = answer.data["attachments"].as_array().cloned().unwrap_or_default();
    attachments.iter().filter_map(|file| file["filename"].as_str().map(str::to_owned)).collect()
}

fn message_id(message: &Value) -> String {
    message["id"].as_str().expect("a message id").to_owned()
}

/// Presses the button labelled `label` of `message` as `who`: the answer must update that
/// very message, with a new board picture first.
async fn step(fake: &FakeDiscord, who: &Origin, message: &Value, label: &str) -> Answer {
    let rows = message["components"].as_array().cloned().unwrap_or_default();
    let buttons: Vec<Value> =
        rows.iter().flat_map(|row| row["components"].as_array().cloned().unwrap_or_default()).collect();
    let button = buttons.iter().find(|button| button["label"] == label);
    let custom_id =
        button.and_then(|button| button["custom_id"].as_str()).unwrap_or_else(|| panic!("no {label} in {buttons:#?}"));
    let updated = answer(fake, &fake.press(who, message, custom_id)).await;
    assert_eq!(updated.kind, UPDATE_MESSAGE, "{label}: {:#}", updated.data);
    assert!(!updated.is_private(), "{label}: {}", updated.content());
    let updated_message = updated.message.clone().expect("the updated message");
    assert_eq!(message_id(&updated_message), message_id(message), "{label} updates the same message");
    let png = &updated.files[0];
    assert!(png.starts_with(b"\x89PNG"), "{label}: a board picture first");
    updated
}

fn labels(answer: &Answer) -> Vec<String> {
    let rows = answer.data["components"].as_array().cloned().unwrap_or_default();
    rows.iter()
        .flat_map(|row| row["components"].as_array().cloned().unwrap_or_default())
        .filter_map(|button| button["label"].as_str().map(str::to_owned))
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn history_buttons_step_through_the_game_in_the_same_message() {
    init();
    let fake = FakeDiscord::start().await;
    let dir = scratch_dir("history-steps");
    let (bot, _) = Bot::start(&fake, config(&fake, &dir), real_service(&dir)).await;
    let (alice, bob, carol) = (player(&fake, "alice"), player(&fake, "bob"), player(&fake, "carol"));
    five_turns(&fake, &alice, &bob).await;

    let history = command(&fake, &carol, "history", json!([text("game", "1")])).await;
    assert!(!history.is_private(), "{}", history.content());
    assert_eq!(file_names(&history), ["game-1.png", "game-1.gif", "game-1.txt", "stonemate-1.sgf"]);
    let sgf = String::from_utf8(history.files[3].clone()).expect("SGF text");
    let read = formats::read(&sgf).expect("the SGF reads back");
    assert_eq!((read.format, read.kind), (Format::Sgf, Some(GameKind::Go)));
    assert_eq!(read.turns, ["R@e5", "R@d4", "R@c3", "R@g7", "pass"]);
    assert_eq!(read.players, [Some("alice".to_owned()), Some("bob".to_owned())]);
    assert_eq!(labels(&history), ["First", "Back"]);
    let last_board = history.files[0].clone();
    let message = history.message.clone().expect("the history message");

    let back = step(&fake, &carol, &message, "Back").await;
    assert!(back.content().contains("after turn 4 of 5"), "{}", back.content());
    assert_ne!(back.files[0], last_board, "another turn, another picture");
    assert_eq!(file_names(&back), ["game-1.png", "game-1.txt", "stonemate-1.sgf"], "the files stay with the message");
    let turn_4 = back.files[0].clone();
    let back = step(&fake, &bob, &back.message.clone().expect("message"), "Back").await;
    assert!(back.content().contains("after turn 3 of 5"), "{}", back.content());
    assert_ne!(back.files[0], turn_4);
    let next = step(&fake, &alice, &back.message.clone().expect("message"), "Next").await;
    assert_eq!(next.files[0], turn_4, "Next shows turn 4 again");
    let first = step(&fake, &carol, &next.message.clone().expect("message"), "First").await;
    assert!(first.content().contains("the start"), "{}", first.content());
    assert_eq!(labels(&first), ["Next", "Last"]);
    let last = step(&fake, &carol, &first.message.clone().expect("message"), "Last").await;
    assert_eq!(last.files[0], last_board, "Last shows the board /history showed");
    assert_eq!(labels(&last), ["First", "Back"]);

    let edits = fake.untaken().into_iter().filter(|r| matches!(r.kind, RequestKind::EditChannelMessage { .. }));
    assert_eq!(edits.count(), 0, "the buttons of a history message are never taken off");
    bot.stop().await;
    assert!(fake.unknown_requests().is_empty(), "{:?}", fake.unknown_requests());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_slow_step_is_acknowledged_then_edits_the_pressed_message() {
    init();
    let fake = FakeDiscord::start().await;
    let dir = scratch_dir("history-deferred");
    let mut config = config(&fake, &dir);
    config.discord.defer_ms = 0; // defer every answer
    let (bot, _) = Bot::start(&fake, config, real_service(&dir)).await;
    let (alice, bob) = (player(&fake, "alice"), player(&fake, "bob"));
    five_turns(&fake, &alice, &bob).await;
    let history = command(&fake, &alice, "history", json!([])).await;
    let message = history.message.clone().expect("the history message");
    let back = button(&history, "history-back");

    let sent = fake.press(&bob, &message, &back);
    let stepped = answer(&fake, &sent).await;
    assert_eq!(stepped.kind, DEFERRED_UPDATE, "a press is acknowledged without a placeholder");
    assert_eq!(message_id(&stepped.message.clone().expect("the edited message")), message_id(&message));
    assert!(stepped.content().contains("after turn 4 of 5"), "{}", stepped.content());
    assert!(stepped.files[0].starts_with(b"\x89PNG"));
    let token = sent.token.clone();
    let deleted = fake.untaken().into_iter().any(|r| r.kind == RequestKind::DeleteOriginal { token: token.clone() });
    assert!(!deleted, "the pressed message is edited, never deleted");

    // A turn the game does not have: refused to the presser alone, the message untouched.
    let forged = back.replace(":4", ":6");
    let refused = answer(&fake, &fake.press(&bob, &message, &forged)).await;
    assert!(refused.is_private(), "{}", refused.content());
    assert!(refused.content().contains("there is no board after turn 6"), "{}", refused.content());
    bot.stop().await;
    assert!(fake.unknown_requests().is_empty(), "{:?}", fake.unknown_requests());
}

/// Acknowledging presses (rather than a "thinking…" placeholder) also serves the buttons
/// whose answer is a new message: a slow Accept comes as a follow-up that pings, and the
/// challenge's buttons are still taken off.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_slow_accept_is_acknowledged_then_sent_as_a_new_message() {
    init();
    let fake = FakeDiscord::start().await;
    let dir = scratch_dir("press-deferred");
    let mut config = config(&fake, &dir);
    config.discord.defer_ms = 0; // defer every answer
    let (bot, _) = Bot::start(&fake, config, real_service(&dir)).await;
    let (alice, bob) = (player(&fake, "alice"), player(&fake, "bob"));
    let options =
        json!([user("opponent", &bob), text("game", "go"), text("color", "black"), text("options", "board=9x9")]);
    let challenge = command(&fake, &alice, "challenge", options).await;
    let message = challenge.message.clone().expect("the challenge message");
    let accept = button(&challenge, "accept");

    let sent = fake.press(&bob, &message, &accept);
    let started = answer(&fake, &sent).await;
    assert_eq!(started.kind, DEFERRED_UPDATE);
    assert!(!started.is_private(), "{}", started.content());
    assert!(started.content().contains(&format!("<@{}>", user_id(&alice))), "pings Alice: {}", started.content());
    let new_message = started.message.clone().expect("the start message");
    assert_ne!(message_id(&new_message), message_id(&message), "a new message, the challenge left as it was");
    let token = sent.token.clone();
    let edited = fake.untaken().into_iter().any(|r| {
        matches!(&r.kind, RequestKind::EditOriginal { token: t } | RequestKind::DeleteOriginal { token: t } if *t == token)
    });
    assert!(!edited, "the pressed message is neither edited nor deleted by the answer");
    let id: u64 = message_id(&message).parse().expect("a numeric id");
    let retired =
        fake.take(WAIT, |r| r.kind == RequestKind::EditChannelMessage { channel: CHANNEL, message: id }).await;
    assert_eq!(retired.expect("the challenge's buttons are taken off").body["components"], json!([]));
    bot.stop().await;
    assert!(fake.unknown_requests().is_empty(), "{:?}", fake.unknown_requests());
}
