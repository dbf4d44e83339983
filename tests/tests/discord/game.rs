//! A whole game through Discord: challenge, the Accept button, turns with their board
//! pictures and turn pings, a refused turn answered privately, autocomplete, a pass and a
//! confirmed resignation; then `/admin-abort`'s permission check, and the background task
//! announcing a timeout.

use serde_json::{Value, json};
use stonemate_tests::fake_discord::{FakeDiscord, Origin, RequestKind, payloads};

use stonemate_bot::service::{Settings, Timeouts};

use super::harness::*;

/// The next message the bot posts in the test channel on its own.
async fn channel_message(fake: &FakeDiscord) -> Value {
    let posted = fake.take(WAIT, |r| r.kind == RequestKind::ChannelMessage { channel: CHANNEL }).await;
    posted.unwrap_or_else(|| panic!("no message posted in the channel; untaken: {:#?}", fake.untaken())).body
}

/// Whether `content` writes a deadline as `<t:UNIX:R>`, which Discord shows live in each
/// reader's time zone.
fn is_discord_timestamp(content: &str) -> bool {
    content
        .split("<t:")
        .skip(1)
        .any(|rest| rest.split_once(":R>").is_some_and(|(seconds, _)| seconds.parse::<i64>().is_ok()))
}

fn pings(body: &Value, who: &Origin) -> bool {
    let id = user_id(who);
    let content = body["content"].as_str().unwrap_or("");
    content.contains(&format!("<@{id}>")) && body["allowed_mentions"]["users"] == json!([id])
}

/// Alice challenges Bob to Go on 9x9, playing black (so she moves first); Bob accepts with
/// the button. Returns the game's id as the buttons carry it.
async fn start_game(fake: &FakeDiscord, alice: &Origin, bob: &Origin, days: i64) -> String {
    let options = json!([
        user("opponent", bob),
        text("game", "go"),
        text("color", "black"),
        integer("days", days),
        text("options", "board=9x9"),
    ]);
    let challenge = command(fake, alice, "challenge", options).await;
    assert!(!challenge.is_private(), "{}", challenge.content());
    assert!(pings(&challenge.data, bob), "the challenge must ping Bob: {:#}", challenge.data);
    assert_pngs(&challenge);
    let accept = button(&challenge, "accept");
    let message = challenge.message.clone().expect("the challenge message");
    let started = answer(fake, &fake.press(bob, &message, &accept)).await;
    assert!(!started.is_private(), "{}", started.content());
    assert!(pings(&started.data, alice), "the start must ping Alice, who moves first: {:#}", started.data);
    assert_pngs(&started);
    let id = message["id"].as_str().and_then(|id| id.parse().ok()).expect("message id");
    let retired =
        fake.take(WAIT, |r| r.kind == RequestKind::EditChannelMessage { channel: CHANNEL, message: id }).await;
    let retired = retired.expect("the challenge's buttons must be taken off once it is accepted");
    assert_eq!(retired.body["components"], json!([]));
    accept.trim_start_matches("accept:").to_owned()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_is_played_through_discord() {
    init();
    let fake = FakeDiscord::start().await;
    let dir = scratch_dir("game");
    let (bot, _) = Bot::start(&fake, config(&fake, &dir), real_service(&dir)).await;
    let (alice, bob) = (player(&fake, "alice"), player(&fake, "bob"));
    start_game(&fake, &alice, &bob, 1).await;

    let turns = [(&alice, &bob, "e5"), (&bob, &alice, "c3"), (&alice, &bob, "g7"), (&bob, &alice, "c7")];
    for (mover, next, turn) in turns {
        let played = command(&fake, mover, "move", json!([text("notation", turn)])).await;
        assert!(!played.is_private(), "{turn}: {}", played.content());
        assert_pngs(&played);
        // One message per turn: the reply pings the next player.
        assert!(pings(&played.data, next), "after {turn} the reply must ping the next player: {:#}", played.data);
        let content = played.content();
        assert!(is_discord_timestamp(content), "the deadline is a Discord timestamp: {content}");
    }

    let refused = command(&fake, &alice, "move", json!([text("notation", "e5")])).await;
    assert!(refused.is_private(), "an illegal turn is answered privately: {}", refused.content());
    assert_pngs(&refused);

    let typed = json!([{ "name": "notation", "type": 3, "value": "d", "focused": true }]);
    let suggestions = answer(&fake, &fake.autocomplete(&alice, "move", typed)).await;
    let choices = suggestions.choices();
    assert_eq!(suggestions.kind, 8);
    assert!(!choices.is_empty() && choices.len() <= 25, "{choices:?}");

    let passed = command(&fake, &alice, "pass", json!([])).await;
    assert!(!passed.is_private(), "{}", passed.content());
    assert_pngs(&passed);
    assert!(pings(&passed.data, &bob), "{:#}", passed.data);

    let asked = command(&fake, &bob, "resign", json!([])).await;
    assert!(asked.is_private(), "the confirmation is for Bob only: {}", asked.content());
    let confirm = button(&asked, "resign");
    let resigned = answer(&fake, &fake.press(&bob, &asked.message.clone().expect("message"), &confirm)).await;
    assert!(!resigned.is_private(), "{}", resigned.content());
    assert_pngs(&resigned);

    bot.stop().await;
    assert!(fake.unknown_requests().is_empty(), "{:?}", fake.unknown_requests());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn admin_abort_needs_manage_server() {
    init();
    let fake = FakeDiscord::start().await;
    let dir = scratch_dir("admin");
    let (bot, _) = Bot::start(&fake, config(&fake, &dir), real_service(&dir)).await;
    let (alice, bob) = (player(&fake, "alice"), player(&fake, "bob"));
    let id = start_game(&fake, &alice, &bob, 0).await;

    // An administrator of another server where the bot also is: the game is not there.
    let mut stranger = fake.in_guild(&fake.add_user("mallory"), GUILD + 1, CHANNEL + 1);
    stranger.permissions |= payloads::MANAGE_GUILD;
    let refused = command(&fake, &stranger, "admin-abort", json!([text("game", &id)])).await;
    assert!(refused.is_private(), "{}", refused.content());
    assert_eq!(refused.content(), format!("there is no game or challenge #{id}"));
    let looked = command(&fake, &stranger, "board", json!([text("game", &id)])).await;
    assert_eq!(looked.content(), format!("there is no game or challenge #{id}"));

    let member = player(&fake, "carol");
    let refused = command(&fake, &member, "admin-abort", json!([text("game", &id)])).await;
    assert!(refused.is_private() && refused.content().contains("Manage Server"), "{}", refused.content());
    let still_on = command(&fake, &alice, "board", json!([])).await;
    assert!(!still_on.is_private(), "the game must still be on: {}", still_on.content());

    let mut admin = player(&fake, "dave");
    admin.permissions |= payloads::MANAGE_GUILD;
    let aborted = command(&fake, &admin, "admin-abort", json!([text("game", &id)])).await;
    assert!(!aborted.is_private(), "{}", aborted.content());
    let gone = command(&fake, &alice, "move", json!([text("notation", "e5")])).await;
    assert!(gone.is_private(), "the aborted game takes no turn: {}", gone.content());
    bot.stop().await;
}

/// poise's own error replies quote what the user typed: they must ping nobody.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn error_replies_of_the_framework_ping_nobody() {
    init();
    let fake = FakeDiscord::start().await;
    let dir = scratch_dir("framework-error");
    let (bot, _) = Bot::start(&fake, config(&fake, &dir), real_service(&dir)).await;
    let (alice, bob) = (player(&fake, "alice"), player(&fake, "bob"));
    let evil = format!("<@{}> @everyone", user_id(&bob));
    let options = json!([user("opponent", &bob), text("game", &evil)]);
    let refused = command(&fake, &alice, "challenge", options).await;
    assert!(refused.is_private(), "{}", refused.content());
    assert!(refused.content().contains("is not one of"), "{}", refused.content());
    assert!(!refused.content().contains("<@"), "a mention is escaped: {}", refused.content());
    let allowed = &refused.data["allowed_mentions"];
    assert_eq!(allowed["parse"], json!([]), "{:#}", refused.data);
    assert_eq!(allowed["users"].as_array().map_or(0, Vec::len), 0, "{:#}", refused.data);
    bot.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_background_task_announces_a_timeout_in_the_channel() {
    init();
    let fake = FakeDiscord::start().await;
    let dir = scratch_dir("timeout");
    // With timeouts = "claim", in a game both players began (else it is aborted).
    let settings = Settings { timeouts: Timeouts::Claim, ..Settings::default() };
    let (service, clock) = manual_service_with(&dir, settings);
    let (bot, _) = Bot::start(&fake, config(&fake, &dir), service).await;
    let (alice, bob) = (player(&fake, "alice"), player(&fake, "bob"));
    start_game(&fake, &alice, &bob, 1).await;
    opening(&fake, &alice, &bob).await;

    clock.advance(stonemate_bot::clock::Span::days(2));
    // Alice has run out of time: the next tick tells the channel, pinging Bob, who may
    // claim the game.
    let mut notices = Vec::new();
    while !notices.last().is_some_and(|notice| pings(notice, &bob)) {
        assert!(notices.len() < 3, "no timeout notice for Bob among {notices:#?}");
        notices.push(channel_message(&fake).await);
    }
    let claimed = command(&fake, &bob, "claim", json!([])).await;
    assert!(!claimed.is_private(), "{}", claimed.content());
    assert_pngs(&claimed);
    bot.stop().await;
}

/// Alice (black) and Bob each play a turn: Alice is to move again.
async fn opening(fake: &FakeDiscord, alice: &Origin, bob: &Origin) {
    for (who, turn) in [(alice, "e5"), (bob, "c7")] {
        let played = command(fake, who, "move", json!([text("notation", turn)])).await;
        assert!(!played.is_private(), "{}", played.content());
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_player_whose_time_runs_out_loses_and_both_players_are_told_in_the_channel() {
    init();
    let fake = FakeDiscord::start().await;
    let dir = scratch_dir("automatic-timeout");
    let (service, clock) = manual_service(&dir);
    let (bot, _) = Bot::start(&fake, config(&fake, &dir), service).await;
    let (alice, bob) = (player(&fake, "alice"), player(&fake, "bob"));
    start_game(&fake, &alice, &bob, 1).await;
    opening(&fake, &alice, &bob).await;

    clock.advance(stonemate_bot::clock::Span::days(2));
    // The next tick ends the game: Alice, whose time ran out, is told, and so is Bob.
    let ran_out = |notice: &&Value, who: &Origin| {
        pings(notice, who) && notice["content"].as_str().is_some_and(|text| text.contains("ran out"))
    };
    let mut told = Vec::new();
    while !(told.iter().any(|notice| ran_out(&notice, &alice)) && told.iter().any(|notice| ran_out(&notice, &bob))) {
        assert!(told.len() < 5, "not both players told among {told:#?}");
        told.push(channel_message(&fake).await);
    }
    let to_alice = told.iter().find(|notice| ran_out(notice, &alice)).expect("alice told");
    let content = to_alice["content"].as_str().unwrap_or_default();
    assert!(content.contains("your time for #1 ran out") && content.contains("wins by time (W+T)"), "{content}");
    let board = command(&fake, &bob, "board", json!([])).await;
    assert!(board.content().contains("bob (white) wins by time (W+T)"), "{}", board.content());
    bot.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn autocomplete_suggests_challenges_and_games() {
    init();
    let fake = FakeDiscord::start().await;
    let dir = scratch_dir("autocomplete");
    let (bot, _) = Bot::start(&fake, config(&fake, &dir), real_service(&dir)).await;
    let (alice, bob) = (player(&fake, "alice"), player(&fake, "bob"));
    let options = json!([user("opponent", &bob), text("game", "go"), text("options", "board=9x9")]);
    let challenge = command(&fake, &alice, "challenge", options).await;
    let id = button(&challenge, "accept").trim_start_matches("accept:").to_owned();

    let typed = json!([{ "name": "challenge", "type": 3, "value": "", "focused": true }]);
    let suggested = answer(&fake, &fake.autocomplete(&bob, "accept", typed)).await.choices();
    assert_eq!(suggested.iter().map(|(_, value)| value.clone()).collect::<Vec<_>>(), [json!(id)], "{suggested:?}");
    let started = command(&fake, &bob, "accept", json!([text("challenge", &id)])).await;
    assert!(!started.is_private(), "{}", started.content());
    assert_pngs(&started);

    let typed = json!([text("notation", "e5"), { "name": "game", "type": 3, "value": "", "focused": true }]);
    let suggested = answer(&fake, &fake.autocomplete(&alice, "move", typed)).await.choices();
    assert!(suggested.iter().any(|(_, value)| *value == json!(id)), "{suggested:?}");
    bot.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_draw_is_offered_and_accepted_with_buttons() {
    init();
    let fake = FakeDiscord::start().await;
    let dir = scratch_dir("draw");
    let (bot, _) = Bot::start(&fake, config(&fake, &dir), real_service(&dir)).await;
    let (alice, bob) = (player(&fake, "alice"), player(&fake, "bob"));
    start_game(&fake, &alice, &bob, 0).await;

    let offer = command(&fake, &alice, "draw", json!([])).await;
    assert!(!offer.is_private(), "{}", offer.content());
    let accept = button(&offer, "draw-accept");
    button(&offer, "draw-decline");
    let stranger = player(&fake, "carol");
    let message = offer.message.clone().expect("the offer message");
    let refused = answer(&fake, &fake.press(&stranger, &message, &accept)).await;
    assert!(refused.is_private(), "only Bob may accept: {}", refused.content());
    let drawn = answer(&fake, &fake.press(&bob, &message, &accept)).await;
    assert!(!drawn.is_private(), "{}", drawn.content());
    assert_pngs(&drawn);
    let over = command(&fake, &alice, "move", json!([text("notation", "e5")])).await;
    assert!(over.is_private(), "a drawn game takes no turn: {}", over.content());
    bot.stop().await;
}

/// Issue 27's buttons through Discord: a takeback asked with `/takeback` and accepted with
/// its button, then two passes open counting (rule 10) with the proposal's Accept and
/// Resume buttons, and both players' Accept ends the game with the count.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_takeback_and_the_count_are_answered_with_buttons() {
    init();
    let fake = FakeDiscord::start().await;
    let dir = scratch_dir("counting");
    let (bot, _) = Bot::start(&fake, config(&fake, &dir), real_service(&dir)).await;
    let (alice, bob) = (player(&fake, "alice"), player(&fake, "bob"));
    start_game(&fake, &alice, &bob, 0).await;
    command(&fake, &alice, "move", json!([text("notation", "e5")])).await;
    command(&fake, &bob, "move", json!([text("notation", "c3")])).await;

    let asked = command(&fake, &bob, "takeback", json!([])).await;
    assert!(!asked.is_private(), "{}", asked.content());
    let accept = button(&asked, "takeback-accept");
    button(&asked, "takeback-decline");
    let taken = answer(&fake, &fake.press(&alice, &asked.message.clone().expect("the request"), &accept)).await;
    assert!(!taken.is_private(), "{}", taken.content());
    assert_pngs(&taken);

    // Bob is to move again, and passes; Alice's pass opens counting.
    assert!(!command(&fake, &bob, "pass", json!([])).await.is_private());
    let opened = command(&fake, &alice, "pass", json!([])).await;
    assert!(opened.content().contains("Both passed"), "{}", opened.content());
    assert_pngs(&opened);
    let accept = button(&opened, "dead-accept");
    button(&opened, "resume");
    let message = opened.message.clone().expect("the counting message");
    let stranger = player(&fake, "carol");
    let refused = answer(&fake, &fake.press(&stranger, &message, &accept)).await;
    assert!(refused.is_private(), "only the players count: {}", refused.content());
    let first = answer(&fake, &fake.press(&bob, &message, &accept)).await;
    assert!(!first.is_private(), "{}", first.content());
    let over = answer(&fake, &fake.press(&alice, &message, &accept)).await;
    assert!(!over.is_private() && over.content().contains("B+"), "{}", over.content());
    let late = command(&fake, &bob, "move", json!([text("notation", "c3")])).await;
    assert!(late.is_private(), "a counted game takes no turn: {}", late.content());
    bot.stop().await;
    assert!(fake.unknown_requests().is_empty(), "{:?}", fake.unknown_requests());
}
