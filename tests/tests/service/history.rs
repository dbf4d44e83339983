//! `/history` looking back: First / Back / Next / Last step the board through the game in
//! the same message (working after a restart, for anyone in the game's server), and the
//! game comes attached as SGF (`go`) or PGN (`ichess`), which read back to its turns.

use std::sync::Arc;

use stonemate_bot::clock::{ManualClock, Timestamp};
use stonemate_bot::service::{Command, GameId, Reply, Service, Settings};
use stonemate_bot::store::{MemoryStore, SledStore};
use stonemate_engine::formats::{self, Format};
use stonemate_engine::notation::record_tokens;
use stonemate_engine::{Color, GameKind};

use super::common::{HOME, Table, caller, in_server, mv};

/// Pictures that say which turn they show (the renderer swapped for a text writer).
fn settings() -> Settings {
    Settings { render: |picture| format!("after {}", picture.view.turns_played).into_bytes(), ..Settings::default() }
}

/// The turn the reply's board shows.
fn board(reply: &Reply) -> String {
    String::from_utf8(reply.images[0].bytes.clone()).expect("a text picture")
}

fn labels(reply: &Reply) -> Vec<&str> {
    reply.buttons.iter().map(|button| button.label.as_str()).collect()
}

/// Presses the button labelled `label` of `reply` as `who`; the answer must be a new view.
#[track_caller]
fn step(table: &Table, who: &str, reply: &Reply, label: &str) -> Reply {
    let button = reply.buttons.iter().find(|button| button.label == label);
    let button = button.unwrap_or_else(|| panic!("no {label} among {:?}", labels(reply)));
    let response = table.service.press(&caller(who), &button.custom_id);
    assert!(response.reply.ok, "{label}: {}", response.reply.text());
    assert!(response.notices.is_empty(), "looking back tells nobody");
    response.reply
}

/// Go on 9x9 between alice (white) and bob (black): five turns, the game goes on.
fn five_turns(table: &Table) -> GameId {
    let id = table.go("alice", "bob", 3, "board=9x9");
    for (who, turn) in [("bob", "e5"), ("alice", "d4"), ("bob", "c3"), ("alice", "g7"), ("bob", "pass")] {
        table.ok(who, mv(turn));
    }
    id
}

#[test]
fn history_buttons_step_through_the_game_in_the_same_message() {
    let table = Table::with(MemoryStore::new(), settings());
    let id = five_turns(&table);
    let before = table.service.store().dump().unwrap();
    let history = table.ok("carol", Command::History { game: Some(id) }).reply;
    assert_eq!(board(&history), "after 5");
    assert!(!history.replaces_message, "/history itself is a new message");
    assert_eq!(labels(&history), ["First", "Back"], "nothing after the last turn");

    let back = step(&table, "carol", &history, "Back");
    assert!(back.replaces_message && !back.private);
    assert_eq!(board(&back), "after 4");
    assert!(back.text().ends_with("Shown: the board after turn 4 of 5 (2... R@g7)."), "{}", back.text());
    assert_eq!(labels(&back), ["First", "Back", "Next", "Last"]);
    let back = step(&table, "dave", &back, "Back");
    assert_eq!(board(&back), "after 3");
    assert!(back.text().ends_with("(2. R@c3)."), "{}", back.text());
    let next = step(&table, "alice", &back, "Next");
    assert_eq!(board(&next), "after 4");
    let first = step(&table, "bob", &next, "First");
    assert_eq!(board(&first), "after 0");
    assert!(first.text().ends_with("Shown: the start, before turn 1 of 5."), "{}", first.text());
    assert_eq!(labels(&first), ["Next", "Last"], "nothing before the start");
    let last = step(&table, "carol", &first, "Last");
    assert_eq!(board(&last), "after 5");
    assert_eq!(labels(&last), ["First", "Back"]);
    assert_eq!(last.files.len(), history.files.len(), "every step keeps the record files");
    assert_eq!(table.service.store().dump().unwrap(), before, "looking back changes nothing");
}

#[test]
fn history_buttons_keep_working_after_a_restart() {
    let dir = tempfile::tempdir().unwrap();
    let clock = Arc::new(ManualClock::at(Timestamp(1_700_000_000_000)));
    let custom_id = {
        let table = Table::with(SledStore::open(dir.path()).unwrap(), settings());
        five_turns(&table);
        let history = table.ok("alice", Command::History { game: None }).reply;
        history.buttons.iter().find(|button| button.label == "First").expect("First").custom_id.clone()
    };
    let service = Service::new(SledStore::open(dir.path()).unwrap(), clock, settings());
    let reply = service.press(&caller("carol"), &custom_id).reply;
    assert!(reply.ok && reply.replaces_message, "{}", reply.text());
    assert_eq!(board(&reply), "after 0");
}

#[test]
fn a_turn_out_of_range_or_a_forged_button_is_refused_privately() {
    let table = Table::with(MemoryStore::new(), settings());
    five_turns(&table);
    assert_eq!(table.press_refused("carol", "history-next:1:6"), "#1 has 5 turns: there is no board after turn 6");
    for forged in ["history-next:1:-1", "history-next:1", "history-up:1:2", "history-next:x:2", "history-next:1:2:3"] {
        let refusal = table.press_refused("carol", forged);
        assert!(refusal.contains("is not one of Stonemate's"), "{forged}: {refusal}");
    }
    let huge = format!("history-next:1:{}", "9".repeat(80));
    assert!(table.press_refused("carol", &huge).contains("is not one of Stonemate's"));
    assert_eq!(table.press_refused("carol", "history-next:9:2"), "there is no game or challenge #9");
    let stranger = in_server("mallory", stonemate_bot::service::GuildId(HOME.0 + 1));
    let refusal = table.press_refused_as(&stranger, "history-first:1:0");
    assert_eq!(refusal, "there is no game or challenge #1", "a game of another server is not there");
}

/// The attachment of `reply` whose name ends with `extension`, as text.
fn file(reply: &Reply, extension: &str) -> Option<(String, String)> {
    let file = reply.files.iter().find(|file| file.name.ends_with(extension))?;
    Some((file.name.clone(), String::from_utf8(file.bytes.clone()).expect("a text file")))
}

#[test]
fn history_attaches_an_sgf_for_go_with_names_and_result() {
    let table = Table::new();
    let id = table.go("alice", "bob", 3, "board=9x9 komi=6.5 counting=off");
    for (who, turn) in [("bob", "e5"), ("alice", "d4"), ("bob", "c3"), ("alice", "pass"), ("bob", "pass")] {
        table.ok(who, mv(turn));
    }
    let reply = table.ok("alice", Command::History { game: Some(id) }).reply;
    let (name, sgf) = file(&reply, ".sgf").expect("an SGF file");
    assert_eq!(name, "stonemate-1.sgf");
    assert!(file(&reply, ".pgn").is_none());
    for property in ["FF[4]", "GM[1]", "SZ[9]", "KM[6.5]", "PW[alice]", "PB[bob]", "GN[Stonemate #1]"] {
        assert!(sgf.contains(property), "{property} in {sgf}");
    }
    let winner = table.record(id).result.expect("a result").winner().expect("a winner");
    let result = if winner == Color::Black { "RE[B+" } else { "RE[W+" };
    assert!(sgf.contains(result), "{result} in {sgf}");
    assert!(sgf.contains("DT[2023-11-14]"), "the day the challenge was made: {sgf}");
    let read = formats::read(&sgf).expect("the SGF reads back");
    assert_eq!((read.format, read.kind), (Format::Sgf, Some(GameKind::Go)));
    assert_eq!(read.turns, table.record(id).turns);
    assert_eq!(read.players, [Some("alice".to_owned()), Some("bob".to_owned())]);
}

#[test]
fn history_attaches_a_pgn_for_ichess_with_names_and_result() {
    let table = Table::new();
    let id = table.challenge("alice", "bob", "ichess", 3, "");
    table.ok("bob", Command::Accept { challenge: Some(id) });
    let turns = record_tokens(include_str!("../../../examples/ichess.txt"));
    for (index, turn) in turns.iter().enumerate() {
        table.ok(if index % 2 == 0 { "alice" } else { "bob" }, mv(turn));
    }
    let reply = table.ok("bob", Command::History { game: Some(id) }).reply;
    let (name, pgn) = file(&reply, ".pgn").expect("a PGN file");
    assert_eq!(name, "stonemate-1.pgn");
    assert!(file(&reply, ".sgf").is_none());
    for tag in
        ["[White \"alice\"]", "[Black \"bob\"]", "[Result \"1-0\"]", "[Variant \"iChess\"]", "[Event \"Stonemate #1\"]"]
    {
        assert!(pgn.contains(tag), "{tag} in {pgn}");
    }
    let read = formats::read(&pgn).expect("the PGN reads back");
    assert_eq!((read.format, read.kind), (Format::Pgn, Some(GameKind::IChess)));
    assert_eq!(read.turns, table.record(id).turns);
}

#[test]
fn games_without_a_players_format_and_challenges_attach_only_the_record() {
    let table = Table::new();
    let id = table.challenge("alice", "bob", "chego", 3, "");
    table.ok("bob", Command::Accept { challenge: Some(id) });
    let reply = table.ok("alice", Command::History { game: Some(id) }).reply;
    let names: Vec<String> = reply.files.into_iter().map(|f| f.name).collect();
    assert_eq!(names, ["game-1.txt"]);
    let challenge = table.challenge("alice", "carol", "go", 3, "board=9x9");
    let reply = table.ok("alice", Command::History { game: Some(challenge) }).reply;
    let names: Vec<String> = reply.files.into_iter().map(|f| f.name).collect();
    assert_eq!(names, ["game-2.txt"], "a challenge has no players' record yet");
    assert!(reply.buttons.is_empty(), "no turn to step to");
}
