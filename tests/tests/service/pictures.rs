//! Every picture of a finished game shows the result and how it ended, also when the
//! board alone cannot tell: a resignation, a claimed time win, an agreed draw, an abort.
//! The renderer is swapped for one that writes down the status the picture is drawn with.

use stonemate_bot::clock::Span;
use stonemate_bot::service::{Command, GameId, Settings};
use stonemate_bot::store::MemoryStore;

use super::common::{Table, caller, mv};

/// A table whose "pictures" are the status each one shows, as text.
fn table() -> Table {
    let settings = Settings {
        render: |picture| format!("{:?}", picture.view.status).into_bytes(),
        animate: |pictures| {
            let statuses: Vec<String> = pictures.iter().map(|picture| format!("{:?}", picture.view.status)).collect();
            statuses.join("\n").into_bytes()
        },
        ..Settings::default()
    };
    Table::with(MemoryStore::new(), settings)
}

/// The status drawn in the reply's first picture, and in `/board` afterwards.
fn shown(table: &Table, images: &[stonemate_bot::service::Attachment]) -> String {
    let reply = String::from_utf8(images[0].bytes.clone()).expect("text");
    let board = table.ok("carol", Command::Board { game: Some(GameId(1)) }).reply;
    assert_eq!(String::from_utf8(board.images[0].bytes.clone()).expect("text"), reply, "/board agrees");
    reply
}

#[test]
fn pictures_after_a_resignation_show_the_winner_and_why() {
    let table = table();
    table.go("alice", "bob", 3, "board=9x9");
    table.ok("bob", mv("e5"));
    table.ok("bob", Command::Resign { game: None });
    let response = table.service.press(&caller("bob"), "resign:1");
    let status = shown(&table, &response.reply.images);
    assert_eq!(status, "Finished(Ending { outcome: Winner(White), reason: Resignation })");
}

#[test]
fn pictures_after_a_claimed_time_win_show_it() {
    let table = table();
    let id = table.go("alice", "bob", 1, "board=9x9");
    super::ratings::opening(&table, id, "alice", "bob");
    table.advance(Span::days(2));
    let response = table.ok("alice", Command::Claim { game: None });
    let status = shown(&table, &response.reply.images);
    assert_eq!(status, "Finished(Ending { outcome: Winner(White), reason: Timeout })");
}

#[test]
fn pictures_after_an_agreed_draw_show_it() {
    let table = table();
    table.go("alice", "bob", 3, "board=9x9");
    table.ok("bob", Command::Draw { game: None });
    let response = table.ok("alice", Command::Draw { game: None });
    let status = shown(&table, &response.reply.images);
    assert_eq!(status, "Finished(Ending { outcome: Draw, reason: Agreement })");
}

#[test]
fn pictures_after_an_abort_show_it() {
    let table = table();
    table.go("alice", "bob", 3, "board=9x9");
    let response = table.ok("alice", Command::Abort { game: None });
    assert_eq!(shown(&table, &response.reply.images), "Finished(Ending { outcome: Draw, reason: Aborted })");
}

#[test]
fn the_replay_shows_the_result_on_its_last_frame_only() {
    let table = table();
    table.go("alice", "bob", 3, "board=9x9");
    table.ok("bob", mv("e5"));
    table.ok("alice", mv("c3"));
    table.ok("bob", Command::Resign { game: None });
    table.service.press(&caller("bob"), "resign:1");
    let history = table.ok("carol", Command::History { game: Some(GameId(1)) }).reply;
    let frames = String::from_utf8(history.images[1].bytes.clone()).expect("text");
    let frames: Vec<&str> = frames.lines().collect();
    assert_eq!(frames.len(), 3, "{frames:?}");
    assert!(frames[..2].iter().all(|frame| frame.starts_with("Ongoing")), "{frames:?}");
    assert_eq!(frames[2], "Finished(Ending { outcome: Winner(White), reason: Resignation })");
}

/// A table whose "pictures" are the side drawn at their bottom.
fn perspective_table() -> Table {
    let settings =
        Settings { render: |picture| format!("{:?}", picture.perspective).into_bytes(), ..Settings::default() };
    Table::with(MemoryStore::new(), settings)
}

/// The side at the bottom of the picture of `who`'s refused `command` (a private reply).
fn refused_picture(table: &Table, who: &str, command: Command) -> String {
    let response = table.service.handle(&caller(who), command);
    assert!(!response.reply.ok && response.reply.private, "{}", response.reply.text());
    String::from_utf8(response.reply.images[0].bytes.clone()).expect("text")
}

#[test]
fn private_go_pictures_are_never_turned_for_black() {
    let table = perspective_table();
    // alice plays white, bob black (who moves first in go).
    let go = table.go("alice", "bob", 3, "board=9x9");
    table.ok("bob", mv("e5"));
    table.ok("alice", mv("c3"));
    assert_eq!(refused_picture(&table, "bob", mv("c3")), "White", "bob's private picture, as the public one");
    let public = table.ok("carol", Command::Board { game: Some(go) }).reply;
    assert_eq!(String::from_utf8(public.images[0].bytes.clone()).unwrap(), "White");
    // A chess-like board is still turned for Black.
    let chess = table.challenge("dan", "eve", "ichess", 3, "");
    table.ok("eve", Command::Accept { challenge: Some(chess) });
    assert_eq!(refused_picture(&table, "eve", Command::Move { notation: "e2e9".into(), game: Some(chess) }), "Black");
}
