//! Records written before the record layout changed still load. The database in
//! `fixtures/format1-db` was made by the `main` binary of format 1 from the console script
//! `fixtures/format1-db.script`: a challenge waiting, declined, withdrawn and expired;
//! games being played in each of the five games (one with a draw offer standing, one whose
//! clock ran out, one in another server); games finished by resignation, agreed draw,
//! claimed timeout, abort, administrator abort, and two passes with a score; users who
//! chose `dm` and `off`.
//!
//! This test opens a copy with the current code and compares, for every record, what it
//! holds (players, colours, turns, result, standing) and the replies of `/board` and
//! `/games`, with `fixtures/format1-db.expected`, which the format-1 code wrote
//! (`STONEMATE_BLESS=1` writes it again; do that only with a build that is known right).

use std::fmt::Write as _;
use std::path::Path;
use std::sync::Arc;

use stonemate_bot::clock::{ManualClock, Span, Timestamp};
use stonemate_bot::service::{Caller, Command, GameId, Response, Service, Settings, User};
use stonemate_bot::store::{GameRecord, Phase, SledStore};

const FIXTURE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/format1-db");
const EXPECTED: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/format1-db.expected");

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_dir(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), target).unwrap();
        }
    }
}

/// The player-index list a record is in, by the names format 1 gave them.
fn standing(phase: Phase) -> Option<&'static str> {
    match phase {
        Phase::Challenge => Some("Pending"),
        Phase::Playing => Some("Active"),
        Phase::Finished => Some("Over"),
        Phase::Declined | Phase::Withdrawn | Phase::Expired => None,
    }
}

/// What a record holds, in words that do not depend on how it is laid out.
fn summary(record: &GameRecord) -> String {
    let players =
        record.seats.by_color().map_or_else(|| "none".to_owned(), |[w, b]| format!("white={} black={}", w.0, b.0));
    let result = record.result.as_ref().map_or_else(|| "none".to_owned(), |r| r.outcome_name().to_owned());
    format!(
        "{} {} players:{players} turns:{:?} result:{result} standing:{} draw_offer:{:?} clock:{:?}",
        record.id,
        record.kind.name(),
        record.turns,
        standing(record.phase).map_or_else(|| "None".to_owned(), |name| format!("Some({name})")),
        record.pending.draw_offer.map(|side| format!("{side:?}").to_lowercase()),
        record.clock.map(|clock| (clock.remind_at.is_none(), clock.timeout_told)),
    )
}

fn reply(out: &mut String, label: &str, response: &Response) {
    let reply = &response.reply;
    let images: Vec<&str> = reply.images.iter().map(|image| image.name.as_str()).collect();
    let _ = writeln!(out, "{label}: ok={} private={} images={images:?}\n{}", reply.ok, reply.private, reply.text());
}

fn caller(record: &GameRecord, id: stonemate_bot::service::UserId) -> Caller {
    let user = User { id, name: record.name_of(id).to_owned() };
    Caller::new(user, record.channel(), record.guild())
}

/// Everything the test compares, as text.
fn observed(data: &Path) -> String {
    let store = SledStore::open(data).expect("the format-1 database opens");
    let records: Vec<GameRecord> = (1..).map_while(|id| store.load(GameId(id)).expect("records read")).collect();
    assert_eq!(records.len(), 16, "the fixture holds 16 records");
    let users: Vec<String> = store
        .dump()
        .unwrap()
        .into_iter()
        .filter(|(key, _)| key.first() == Some(&b'u'))
        .map(|(_, value)| String::from_utf8(value).unwrap())
        .collect();
    // An hour after the last record was made: the same moment whenever the test runs.
    let now = records.iter().map(|record| record.origin.created).max().unwrap() + Span(3_600_000);
    let clock = Arc::new(ManualClock::at(Timestamp(now.0)));
    let service = Service::new(store, clock, Settings::default());
    let mut out = String::new();
    for record in &records {
        let _ = writeln!(out, "{}", summary(record));
    }
    for user in &users {
        let value: serde_json::Value = serde_json::from_str(user).unwrap();
        let _ = writeln!(out, "user {} {} {}", value["id"], value["name"], value["notify"]);
    }
    for record in &records {
        let board = Command::Board { game: Some(record.id) };
        reply(&mut out, &format!("board {}", record.id), &service.handle(&caller(record, record.challenger()), board));
    }
    let mut seen = Vec::new();
    for record in &records {
        for id in [record.challenger(), record.opponent()] {
            if seen.contains(&(id, record.guild())) {
                continue;
            }
            seen.push((id, record.guild()));
            let games = service.handle(
                &caller(record, id),
                Command::Games { user: None, status: stonemate_bot::service::GameStatus::Active, page: 1 },
            );
            reply(&mut out, &format!("games {} in {:?}", record.name_of(id), record.guild().map(|g| g.0)), &games);
        }
    }
    out
}

#[test]
fn records_written_by_format_1_load_and_show_as_before() {
    let dir = tempfile::tempdir().unwrap();
    copy_dir(Path::new(FIXTURE), dir.path());
    let observed = observed(dir.path());
    if std::env::var_os("STONEMATE_BLESS").is_some() {
        std::fs::write(EXPECTED, &observed).unwrap();
    }
    let expected = std::fs::read_to_string(EXPECTED).expect("the expected replies are committed");
    assert_eq!(observed, expected);
}
