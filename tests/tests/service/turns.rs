//! `/move`, `/drop`, `/pass`: who may play, what is refused, what is stored and who is
//! told.

use std::sync::atomic::{AtomicUsize, Ordering};

use stonemate_bot::service::{ChannelId, Command, Delivery, NotifyMode, Settings, Target};
use stonemate_bot::store::{MemoryStore, Phase};
use stonemate_engine::AnyGame;

use super::common::{GENERAL, Table, caller_in, game_opt, mv, mv_in, text, typed, user};

#[test]
fn a_turn_is_stored_as_printed_and_its_reply_pings_the_player_to_move() {
    let table = Table::new();
    let id = table.go("alice", "bob", 3, "board=9x9");
    let response = table.ok("bob", mv("e5"));
    assert!(!response.reply.private);
    assert!(response.reply.images[0].bytes.starts_with(b"\x89PNG"), "every change carries the board");
    assert_eq!(response.reply.text(), "bob played R@e5 in #1. @alice to move, due in 3d 0h (2023-11-17 22:13 UTC).");
    assert_eq!(table.record(id).turns, ["R@e5"]);
    assert_eq!(table.record(id).version, 3);
    // One message per turn: the reply is the ping, no second message with the board.
    assert_eq!(response.reply.message.mentions(), [user("alice").id]);
    assert!(response.notices.is_empty(), "{:?}", response.notices);
}

#[test]
fn a_turn_played_in_another_channel_pings_the_player_to_move_in_the_games() {
    let table = Table::new();
    let id = table.go("alice", "bob", 3, "board=9x9");
    let response = table.ok_as(&caller_in("bob", ChannelId(7)), mv_in("e5", id));
    assert!(response.reply.message.mentions().is_empty(), "{}", response.reply.text());
    let [ping] = response.notices.as_slice() else { panic!("{:?}", response.notices) };
    assert_eq!(
        (ping.target, ping.message.mentions().as_slice()),
        (Target::Channel(GENERAL), [user("alice").id].as_slice())
    );
    assert!(ping.text().contains("it is your turn in #1"), "{}", ping.text());
}

/// Pictures drawn in [`one_picture_is_drawn_per_turn_and_game_version`], alone.
static DRAWN: AtomicUsize = AtomicUsize::new(0);

#[test]
fn one_picture_is_drawn_per_turn_and_game_version() {
    let counted = |_: &_| {
        DRAWN.fetch_add(1, Ordering::SeqCst);
        b"\x89PNG".to_vec()
    };
    let table = Table::with(MemoryStore::new(), Settings { render: counted, ..Settings::default() });
    table.go("alice", "bob", 3, "board=9x9");
    table.ok("bob", Command::Notify { mode: Some(NotifyMode::Dm), digest: None, hour: None });
    // What the challenge and its acceptance said is out of the way.
    table.service.deliver(|_| Delivery::Sent);
    let before = DRAWN.load(Ordering::SeqCst);
    // In the channel: the reply pings Alice, with its one picture.
    let response = table.ok("bob", mv("e5"));
    assert_eq!((response.reply.images.len(), response.notices.len()), (1, 0));
    assert_eq!(DRAWN.load(Ordering::SeqCst) - before, 1);
    // By direct message from White's side, which is also the public one: drawn once for
    // the reply, its notice and the notice's delivery.
    let before = DRAWN.load(Ordering::SeqCst);
    let response = table.ok("alice", mv("d4"));
    assert_eq!(response.notices.len(), 1);
    let drawn = DRAWN.load(Ordering::SeqCst);
    assert!(drawn - before <= 2, "the public board, and Bob's own side if it is another");
    let delivered = table.service.deliver(|_| Delivery::Sent);
    assert!(delivered.iter().any(|notice| notice.images.len() == 1), "{delivered:?}");
    assert_eq!(DRAWN.load(Ordering::SeqCst), drawn, "the notice is delivered with the picture drawn for it");
}

#[test]
fn notify_dm_sends_the_board_by_direct_message_and_off_sends_nothing() {
    let table = Table::new();
    table.go("alice", "bob", 3, "board=9x9");
    table.ok("alice", Command::Notify { mode: Some(NotifyMode::Dm), digest: None, hour: None });
    let response = table.ok("bob", mv("e5"));
    let [ping] = response.notices.as_slice() else { panic!() };
    assert_eq!(ping.target, Target::Direct(user("alice").id));
    assert!(ping.images[0].bytes.starts_with(b"\x89PNG"));
    table.ok("bob", Command::Notify { mode: Some(NotifyMode::Off), digest: None, hour: None });
    assert!(table.ok("alice", mv("d4")).notices.is_empty());
    table.ok("alice", typed("notify", &[("mode", text("CHANNEL"))]));
    let response = table.ok("bob", Command::Pass { game: None });
    assert!(response.notices.is_empty(), "the reply pings her");
    assert_eq!(response.reply.message.mentions(), [user("alice").id]);
}

#[test]
fn notify_refuses_unknown_modes() {
    let table = Table::new();
    assert_eq!(
        table.refused("bob", typed("notify", &[("mode", text("pigeon"))])),
        "`pigeon` is not a notify mode: use channel, dm or off"
    );
    let stored = table.service.store().user(user("bob").id).unwrap();
    assert!(stored.is_none());
    table.ok("bob", Command::Notify { mode: Some(NotifyMode::Dm), digest: None, hour: None });
    assert_eq!(table.service.store().user(user("bob").id).unwrap().unwrap().notify, NotifyMode::Dm);
}

#[test]
fn illegal_turn_is_refused_with_the_engine_message_and_the_board() {
    let table = Table::new();
    let id = table.go("alice", "bob", 3, "board=9x9");
    table.ok("bob", mv("e5"));
    let mut position = AnyGame::replay("go".parse().unwrap(), &table.record(id).options, &["R@e5"]).unwrap().game;
    let expected = position.play_text("e5").unwrap_err().to_string();
    let before = table.service.store().dump().unwrap();
    let response = table.run("alice", mv("e5"));
    assert_eq!(response.reply.text(), expected);
    assert!(expected.contains("e5 is not empty"), "{expected}");
    assert!(response.reply.private && !response.reply.ok);
    assert!(response.reply.images[0].bytes.starts_with(b"\x89PNG"), "the refused position is shown");
    assert_eq!(table.service.store().dump().unwrap(), before);
    for junk in ["zz", "", "R@z99", &"e".repeat(300), "K@e4", "e4-e5"] {
        table.refused("alice", mv(junk));
    }
}

#[test]
fn only_the_player_to_move_may_play() {
    let table = Table::new();
    let id = table.go("alice", "bob", 3, "board=9x9");
    assert_eq!(table.refused("alice", mv("e5")), "it is not your turn in #1: bob is to move");
    assert_eq!(table.refused("carol", mv_in("e5", id)), "#1 is not your game");
    assert_eq!(table.refused("carol", mv("e5")), "you have no game in this channel");
    assert_eq!(
        table.refused("bob", mv_in("e5", stonemate_bot::service::GameId(77))),
        "there is no game or challenge #77"
    );
    assert!(
        table.refused("bob", typed("move", &[("notation", text("e5")), ("game", text("x"))])).contains("not a game id")
    );
}

#[test]
fn turns_in_a_challenge_or_a_finished_game_are_refused() {
    let table = Table::new();
    let id = table.challenge("alice", "bob", "go", 3, "board=9x9 counting=off");
    assert_eq!(table.refused("bob", mv_in("e5", id)), "#1 is a challenge that has not been accepted yet");
    table.ok("bob", Command::Accept { challenge: None });
    table.ok("bob", Command::Pass { game: None });
    let response = table.ok("alice", Command::Pass { game: None });
    assert!(
        response
            .reply
            .text()
            .ends_with("Game over: draw after two passes (white 0, black 0). Ratings: alice 1500?, bob 1500?."),
        "{}",
        response.reply.text()
    );
    assert_eq!(table.record(id).phase, Phase::Finished);
    let text = table.refused("bob", mv_in("e5", id));
    assert_eq!(text, "#1 is over: draw after two passes");
}

#[test]
fn a_game_ending_turn_tells_the_other_player_the_result() {
    let table = Table::new();
    table.go("alice", "bob", 3, "board=9x9 komi=0.5 counting=off");
    table.ok("bob", Command::Pass { game: None });
    let response = table.ok("alice", Command::Pass { game: None });
    let [notice] = response.notices.as_slice() else { panic!("{:?}", response.notices) };
    assert_eq!(notice.message.mentions(), [user("bob").id]);
    assert!(
        notice.text().contains("#1 is over: alice (white) wins by 0.5 points after two passes"),
        "{}",
        notice.text()
    );
}

#[test]
fn drop_is_a_piece_and_a_square() {
    let table = Table::new();
    let id = table.go("alice", "bob", 3, "board=9x9 pieces=RN");
    table.ok("bob", Command::Drop { piece: "N".into(), square: "c3".into(), game: None });
    table.ok("alice", Command::Drop { piece: " r ".into(), square: "D4".into(), game: game_opt(id) });
    assert_eq!(table.record(id).turns, ["N@c3", "R@d4"]);
    let drop = |piece: &str, square: &str| Command::Drop { piece: piece.into(), square: square.into(), game: None };
    assert_eq!(table.refused("bob", drop("Nx", "e5")), "`Nx` is not a piece letter (like R, N or Q)");
    assert_eq!(table.refused("bob", drop("N", "e55")), "`e55` is not a square (like d4)");
    assert!(table.refused("bob", drop("Q", "e5")).contains("not in this game's set"));
}

#[test]
fn the_game_option_defaults_to_the_only_game_in_this_channel() {
    let table = Table::new();
    let first = table.go("alice", "bob", 3, "board=9x9");
    let second = table.go("alice", "carol", 3, "board=9x9");
    // bob and carol have one game here each, so they need no id.
    table.ok("bob", mv("e5"));
    table.ok("carol", mv("e5"));
    // alice is to move in both: which one?
    let text = table.refused("alice", mv("d4"));
    assert!(text.starts_with("which one? Name it with `game:`"), "{text}");
    assert!(text.contains("#1 (go, alice vs bob)") && text.contains("#2 (go, alice vs carol)"), "{text}");
    table.ok("alice", mv_in("d4", first));
    // In another channel alice has no game: the hint lists the others.
    let elsewhere = caller_in("alice", ChannelId(9));
    let text = table.refused_as(&elsewhere, mv("d5"));
    assert_eq!(text, format!("you have no game in this channel (elsewhere: {first}, {second}; name one with `game:`)"));
}

#[test]
fn overlong_notation_is_refused_before_parsing() {
    let table = Table::new();
    table.go("alice", "bob", 3, "board=9x9");
    let text = table.refused("bob", mv(&"a".repeat(5000)));
    assert!(text.contains("too long"), "{text}");
}

#[test]
fn the_largest_board_plays() {
    let table = Table::new();
    let id = table.go("alice", "bob", 3, "board=25x25");
    table.ok("bob", mv("y25"));
    table.ok("alice", mv("a1"));
    assert_eq!(table.record(id).turns, ["R@y25", "R@a1"]);
}

#[test]
fn every_available_game_plays_through_the_service() {
    use stonemate_engine::GameKind;
    for kind in GameKind::ALL.into_iter().filter(|kind| AnyGame::is_available(*kind)) {
        let table = Table::new();
        let id = table.challenge("alice", "bob", kind.name(), 0, "");
        let accepted = table.ok("bob", Command::Accept { challenge: None });
        assert!(accepted.reply.text().contains("alice ("), "{kind}: {}", accepted.reply.text());
        for _ in 0..6 {
            let record = table.record(id);
            let position = AnyGame::replay(kind, &record.options, &record.turns).unwrap().game;
            let Some(color) = position.to_move() else { break };
            let mover = record.name_of(record.seats.player(color).unwrap()).to_owned();
            let turn = position.legal_turn_texts().into_iter().find(|t| t != "pass").unwrap();
            table.ok(&mover, mv(&turn));
        }
        let record = table.record(id);
        assert!(!record.turns.is_empty(), "{kind}");
        let history = table.ok("carol", Command::History { game: game_opt(id) }).reply;
        let file = String::from_utf8(history.files[0].bytes.clone()).unwrap();
        let tokens = stonemate_engine::notation::record_tokens(&file);
        assert_eq!(AnyGame::replay(kind, &record.options, &tokens).unwrap().played, record.turns, "{kind}");
    }
}
