//! The notice outbox as the service runs it, with a sender that fails on command: retries
//! with a doubling backoff on the test clock, a refused direct message sent again in the
//! game's channel, a refused channel reported once, and nothing lost across a restart.

use std::cell::RefCell;

use stonemate_bot::clock::Span;
use stonemate_bot::service::{
    ChannelId, Command, Delivery, GameId, Notice, NotifyMode, Response, Settings, Target, UserId, channel_refused,
};
use stonemate_bot::store::{Queued, SledStore};

use super::common::{GENERAL, Table, caller_in, mv_in, user};

/// A turn in the table's first game played from another channel of the server: the ping
/// of the player to move is then a notice in the game's channel (in that channel, the
/// reply itself pings him).
fn elsewhere(table: &Table, who: &str, notation: &str) -> Response {
    table.ok_as(&caller_in(who, ChannelId(7)), mv_in(notation, GameId(1)))
}

/// Delivers with `outcome` for each attempt; returns the notices tried.
fn attempt(table: &Table, outcome: Delivery) -> Vec<Notice> {
    let tried = RefCell::new(Vec::new());
    table.service.deliver(|outgoing| {
        tried.borrow_mut().push(outgoing.notice.clone());
        outcome
    });
    tried.into_inner()
}

#[test]
fn a_failed_notice_is_retried_with_a_doubling_backoff_until_it_is_sent_once() {
    let table = Table::new();
    table.go("alice", "bob", 3, "board=9x9");
    elsewhere(&table, "bob", "e5");
    let [ping] = <[Notice; 1]>::try_from(attempt(&table, Delivery::Failed)).unwrap();
    assert!(ping.text().contains("it is your turn in #1"), "{}", ping.text());
    // Waits of 5 s, 10 s, 20 s: nothing is tried a millisecond before each is over.
    for wait in [5_000, 10_000, 20_000] {
        assert!(attempt(&table, Delivery::Failed).is_empty(), "tried again at once");
        table.advance(Span(wait - 1));
        assert!(attempt(&table, Delivery::Failed).is_empty(), "tried before {wait} ms");
        table.advance(Span(1));
        assert_eq!(attempt(&table, Delivery::Failed), std::slice::from_ref(&ping), "after {wait} ms");
    }
    table.advance(Span(40_000));
    assert_eq!(table.service.deliver(|_| Delivery::Sent), [ping]);
    table.advance(Span::HOUR * 2);
    assert!(attempt(&table, Delivery::Sent).is_empty(), "delivered once");
}

#[test]
fn the_backoff_stops_growing_at_its_longest_wait() {
    let table = Table::new();
    table.go("alice", "bob", 3, "board=9x9");
    elsewhere(&table, "bob", "e5");
    let mut waits = Vec::new();
    attempt(&table, Delivery::Failed);
    for _ in 0..12 {
        let mut waited = Span(0);
        while attempt(&table, Delivery::Failed).is_empty() {
            assert!(waited < Span::HOUR * 2, "never tried again");
            table.advance(Span(5_000));
            waited = waited + Span(5_000);
        }
        waits.push(waited.0 / 1000);
    }
    assert_eq!(waits, [5, 10, 20, 40, 80, 160, 320, 640, 1280, 2560, 3600, 3600]);
}

#[test]
fn a_refused_direct_message_is_sent_once_more_as_a_ping_in_the_games_channel() {
    let table = Table::new();
    table.go("alice", "bob", 3, "board=9x9");
    table.ok("alice", Command::Notify { mode: Some(NotifyMode::Dm), digest: None, hour: None });
    elsewhere(&table, "bob", "e5");
    let mut outcomes = vec![Delivery::DmClosed, Delivery::Sent].into_iter();
    let tried = RefCell::new(Vec::new());
    let sent = table.service.deliver(|outgoing| {
        tried.borrow_mut().push(outgoing.notice.clone());
        outcomes.next().unwrap()
    });
    let tried = tried.into_inner();
    assert_eq!(tried[0].target, Target::Direct(user("alice").id));
    let [fallback] = sent.as_slice() else { panic!("{sent:?}") };
    assert_eq!(fallback.target, Target::Channel(GENERAL));
    assert_eq!(fallback.message.mentions(), [user("alice").id], "a ping, now that it is in the channel");
    assert!(fallback.text().starts_with(&tried[0].text()), "{}", fallback.text());
    assert!(fallback.text().contains("direct messages are closed"), "{}", fallback.text());
    // A channel refusing too gives it up: the fallback is tried once.
    elsewhere(&table, "alice", "d4");
    elsewhere(&table, "bob", "c3");
    let targets: Vec<Target> = attempt(&table, Delivery::DmClosed).iter().map(|notice| notice.target).collect();
    let (alice, channel) = (Target::Direct(user("alice").id), Target::Channel(GENERAL));
    assert_eq!(targets, [channel, alice, channel], "bob's ping, alice's DM, then its fallback");
    table.advance(Span::HOUR * 2);
    assert!(attempt(&table, Delivery::DmClosed).is_empty());
}

#[test]
fn a_refused_channel_is_reported_once_in_the_next_reply_about_the_game() {
    let table = Table::new();
    table.go("alice", "bob", 3, "board=9x9");
    elsewhere(&table, "bob", "e5");
    assert_eq!(attempt(&table, Delivery::ChannelClosed).len(), 1);
    table.advance(Span::HOUR * 2);
    assert!(attempt(&table, Delivery::Sent).is_empty(), "not retried");
    let board = Command::Board { game: None };
    assert!(
        !table
            .ok("carol", Command::Games { user: None, status: stonemate_bot::service::GameStatus::Active, page: 1 })
            .reply
            .text()
            .contains(&channel_refused())
    );
    let reply = table.ok("alice", board.clone()).reply;
    assert!(reply.text().ends_with(&channel_refused()), "{}", reply.text());
    assert!(!table.ok("bob", board.clone()).reply.text().contains(&channel_refused()), "once");
    // Later refusals in the same game are not reported again.
    elsewhere(&table, "alice", "d4");
    assert_eq!(attempt(&table, Delivery::ChannelClosed).len(), 1);
    assert!(!table.ok("bob", board).reply.text().contains(&channel_refused()), "once means once");
}

#[test]
fn a_notice_waiting_for_its_retry_is_sent_after_a_restart() {
    let dir = tempfile::tempdir().unwrap();
    let ping = {
        let table = Table::with(SledStore::open(dir.path()).unwrap(), Settings::default());
        table.go("alice", "bob", 3, "board=9x9");
        elsewhere(&table, "bob", "e5");
        let [ping] = <[Notice; 1]>::try_from(attempt(&table, Delivery::Failed)).unwrap();
        ping
    };
    let table = Table::with(SledStore::open(dir.path()).unwrap(), Settings::default());
    assert!(attempt(&table, Delivery::Sent).is_empty(), "its retry is not due yet");
    table.advance(Span(5_000));
    assert_eq!(table.service.deliver(|_| Delivery::Sent), [ping]);
    table.advance(Span::HOUR * 2);
    assert!(attempt(&table, Delivery::Sent).is_empty(), "sent once");
}

#[test]
fn notices_leave_the_outbox_in_the_order_they_were_made() {
    let table = Table::new();
    table.go("alice", "bob", 3, "board=9x9");
    elsewhere(&table, "bob", "e5");
    elsewhere(&table, "alice", "d4");
    let sent = table.service.deliver(|_| Delivery::Sent);
    let texts: Vec<String> = sent.iter().map(|notice| notice.text()).collect();
    assert_eq!(texts.len(), 2);
    assert!(texts[0].contains("@alice, it is your turn") && texts[1].contains("@bob, it is your turn"), "{texts:?}");
}

#[test]
fn a_notice_stored_as_text_and_mentions_is_still_sent_with_its_pings() {
    let table = Table::new();
    table.go("alice", "bob", 3, "board=9x9");
    let (alice, bob) = (user("alice").id, user("bob").id);
    // Notices as the outbox held them before messages had segments: the text with `@name`
    // for each user in `mentions`.
    let old = |target: serde_json::Value, text: &str, mentions: &[UserId]| {
        let mentions: Vec<u64> = mentions.iter().map(|user| user.0).collect();
        let letter = serde_json::json!({
            "target": target, "text": text, "mentions": mentions, "images": [], "game": 1,
            "channel": GENERAL.0, "failures": 0, "rerouted": false, "buttons": [],
        });
        Queued::new(table.now(), serde_json::to_vec(&letter).unwrap())
    };
    let channel = serde_json::json!({ "channel": GENERAL.0 });
    let direct = serde_json::json!({ "direct": alice.0 });
    let stored = [
        old(channel.clone(), "@bob, it is your turn in #1 (Go against alice).", &[bob]),
        old(channel, "@alice: bob gave you more time.", &[bob, alice]),
        old(direct, "@alice, it is your turn in #1.", &[]),
    ];
    table.service.store().outbox().enqueue(&stored).unwrap();
    let sent = table.service.deliver(|_| Delivery::Sent);
    let discord = |notice: &Notice| notice.message.render(|user, _| format!("<@{}>", user.0));
    let seen: Vec<(String, String, Vec<UserId>)> =
        sent.iter().map(|notice| (notice.text(), discord(notice), notice.message.mentions())).collect();
    assert_eq!(
        seen,
        [
            (
                "@bob, it is your turn in #1 (Go against alice).".into(),
                format!("<@{}>, it is your turn in #1 (Go against alice).", bob.0),
                vec![bob]
            ),
            (
                "@bob @alice: bob gave you more time.".into(),
                format!("<@{}> <@{}>: bob gave you more time.", bob.0, alice.0),
                vec![bob, alice]
            ),
            ("@alice, it is your turn in #1.".into(), "@alice, it is your turn in #1.".into(), vec![]),
        ]
    );
}

#[test]
fn a_notice_keeps_what_to_draw_and_shows_the_board_of_its_moment_once_the_game_moved_on() {
    let table = Table::new();
    let id = table.go("alice", "bob", 3, "board=9x9");
    let made = elsewhere(&table, "bob", "e5");
    let [ping] = made.notices.as_slice() else { panic!("{:?}", made.notices) };
    let [board] = ping.images.as_slice() else { panic!("{ping:?}") };
    assert!(board.bytes.starts_with(b"\x89PNG"), "drawn for the reply");
    // The outbox holds what to draw, not the PNG.
    let claimed = table.service.store().outbox().claim(table.now(), table.now(), 10).unwrap();
    let [queued] = claimed.as_slice() else { panic!("{claimed:?}") };
    let body: serde_json::Value = serde_json::from_slice(&queued.body).unwrap();
    let image = &body["images"][0];
    assert!(image.get("png").is_none(), "{image}");
    assert_eq!(image["drawing"]["turns"], 1, "{image}");
    assert!(queued.body.len() < 1_000, "{} bytes", queued.body.len());
    // The game moves on before the ping is sent: it still shows the board after e5.
    elsewhere(&table, "alice", "d4");
    elsewhere(&table, "bob", "c3");
    let sent = table.service.deliver(|_| Delivery::Sent);
    let first = sent.iter().find(|notice| notice.text().contains("played R@e5")).unwrap();
    assert_eq!(first.images, ping.images, "the same picture, drawn again when sent");
    assert_eq!(table.record(id).turns.len(), 3);
}

#[test]
fn a_notice_whose_turns_were_taken_back_is_sent_without_a_board_rather_than_another_one() {
    let table = Table::new();
    table.go("alice", "bob", 3, "board=9x9");
    elsewhere(&table, "bob", "e5");
    let claimed = table.service.store().outbox().claim(table.now(), table.now(), 10).unwrap();
    let [queued] = claimed.as_slice() else { panic!("{claimed:?}") };
    let mut letter: serde_json::Value = serde_json::from_slice(&queued.body).unwrap();
    // As if the turn drawn had been another one than the record's e5.
    letter["images"][0]["drawing"]["line"] = serde_json::json!(12345);
    table.service.store().outbox().remove_notice(queued.id).unwrap();
    table.service.store().outbox().enqueue(&[Queued::new(table.now(), serde_json::to_vec(&letter).unwrap())]).unwrap();
    let sent = table.service.deliver(|_| Delivery::Sent);
    let [ping] = sent.as_slice() else { panic!("{sent:?}") };
    assert!(ping.text().contains("played R@e5"), "{}", ping.text());
    assert!(ping.images.is_empty(), "{:?}", ping.images);
}

#[test]
fn a_notice_stored_with_its_png_is_still_sent_with_that_picture() {
    use base64::Engine as _;
    let table = Table::new();
    table.go("alice", "bob", 3, "board=9x9");
    let png = b"\x89PNG\r\n\x1a\nnot drawn from the record".to_vec();
    // A notice as the outbox held it before notices kept drawings: the PNG in base64.
    let letter = serde_json::json!({
        "target": { "channel": GENERAL.0 }, "message": [{ "text": "an old notice" }],
        "images": [{ "name": "game-1.png", "png": base64::engine::general_purpose::STANDARD.encode(&png) }],
        "game": 1, "channel": GENERAL.0, "failures": 0, "rerouted": false, "buttons": [],
    });
    table.service.store().outbox().enqueue(&[Queued::new(table.now(), serde_json::to_vec(&letter).unwrap())]).unwrap();
    let sent = table.service.deliver(|_| Delivery::Sent);
    let [old] = sent.as_slice() else { panic!("{sent:?}") };
    assert_eq!(old.text(), "an old notice");
    let names_and_bytes: Vec<(&str, &[u8])> =
        old.images.iter().map(|image| (image.name.as_str(), image.bytes.as_slice())).collect();
    assert_eq!(names_and_bytes, [("game-1.png", png.as_slice())]);
}
