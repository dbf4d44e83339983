//! The start-up check through the binary: `stonemate console` on a database whose records
//! were damaged must stop before it reads a line, name what is damaged and how to restore
//! it, and exit non-zero.

use std::io::Write;
use std::path::Path;
use std::process::{Command, Output, Stdio};

const SETUP: &str = "@alice /challenge opponent:@bob game:go color:white days:0 options:\"board=9x9\"\n\
                     @bob /accept\n@bob /move notation:e5\n@alice /move notation:d4\n";

fn console(data: &Path, input: &str) -> Output {
    let mut command = Command::new(env!("CARGO_BIN_EXE_stonemate"));
    command.arg("console").arg("--data").arg(data).arg("--json");
    command.stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::piped());
    let mut child = command.spawn().unwrap();
    child.stdin.take().unwrap().write_all(input.as_bytes()).unwrap();
    child.wait_with_output().unwrap()
}

/// A database with game #1 (two turns played), its record then replaced by `damage` of it.
fn damaged(damage: impl FnOnce(&[u8]) -> Vec<u8>) -> tempfile::TempDir {
    let tmp = tempfile::tempdir().unwrap();
    let data = tmp.path().join("data");
    assert!(console(&data, SETUP).status.success());
    // Without sled's flusher thread, dropping `db` releases the directory's lock at once
    // (the flusher holds the database a moment longer, and the console would find it locked).
    let db = stonemate_bot::store::sled_config(&data).flush_every_ms(None).open().unwrap();
    let (key, value) = db.scan_prefix(b"g").next().unwrap().unwrap();
    db.insert(key, damage(&value)).unwrap();
    db.flush().unwrap();
    drop(db);
    tmp
}

/// The console refuses to start: nothing answered, the damage and the way back named.
fn assert_refused(tmp: &tempfile::TempDir, what: &str) {
    let output = console(&tmp.path().join("data"), "@alice /board game:1\n");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(!output.status.success(), "{stderr}");
    assert!(output.stdout.is_empty(), "nothing is served: {}", String::from_utf8_lossy(&output.stdout));
    assert!(stderr.contains(&format!("the database is damaged: {what}")), "{stderr}");
    assert!(stderr.contains("restore it from an export") && stderr.contains("stonemate import --data"), "{stderr}");
}

#[test]
fn a_record_whose_turns_do_not_replay_stops_the_start() {
    let tmp = damaged(|value| String::from_utf8_lossy(value).replace("R@d4", "R@e5").into_bytes());
    assert_refused(&tmp, "game #1: its turns do not replay");
}

#[test]
fn a_record_that_is_not_json_stops_the_start() {
    let tmp = damaged(|value| value[..value.len() / 2].to_vec());
    assert_refused(&tmp, "key 67 00 00 00 01:");
}

#[test]
fn an_intact_database_starts() {
    let tmp = damaged(<[u8]>::to_vec);
    let output = console(&tmp.path().join("data"), "@alice /board game:1\n");
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
}

#[test]
fn a_second_process_on_the_directory_is_told_it_is_in_use() {
    let tmp = tempfile::tempdir().unwrap();
    let data = tmp.path().join("data");
    let mut first = Command::new(env!("CARGO_BIN_EXE_stonemate"));
    first.arg("console").arg("--data").arg(&data).arg("--json");
    let mut first = first.stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::null()).spawn().unwrap();
    let mut stdin = first.stdin.take().unwrap();
    // Once it answers, it holds the directory.
    stdin.write_all(b"@alice /games\n").unwrap();
    let mut line = String::new();
    std::io::BufRead::read_line(&mut std::io::BufReader::new(first.stdout.take().unwrap()), &mut line).unwrap();
    let second = console(&data, "@bob /games\n");
    drop(stdin);
    first.wait().unwrap();
    let stderr = String::from_utf8_lossy(&second.stderr);
    assert_eq!(second.status.code(), Some(2), "{stderr}");
    assert!(second.stdout.is_empty());
    assert!(stderr.contains(&format!("{} is in use by another process", data.display())), "{stderr}");
    assert!(!stderr.contains("acquire lock"), "no library text: {stderr}");
}
