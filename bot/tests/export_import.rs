//! `stonemate export` / `import` through the binary: a round trip gives the same export
//! and the same games, and import refuses a database that already holds games.

use std::io::Write;
use std::path::Path;
use std::process::{Command, Output, Stdio};

const SCRIPT: &str = "@alice /challenge opponent:@bob game:go color:white days:0 options:\"board=9x9\"\n\
                      @bob /accept\n@bob /move notation:e5\n@alice /move notation:d4\n\
                      @carol /challenge opponent:@alice game:chego days:3\n@alice /notify mode:dm\n";
const LOOK: &str = "@alice /board game:1\n@alice /history game:1\n@alice /games\n@carol /games\n";

fn stonemate(args: &[&str], data: &Path, input: &str) -> Output {
    let mut command = Command::new(env!("CARGO_BIN_EXE_stonemate"));
    command.args(&args[..1]).arg("--data").arg(data).args(&args[1..]);
    command.stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::piped());
    let mut child = command.spawn().unwrap();
    child.stdin.take().unwrap().write_all(input.as_bytes()).unwrap();
    let output = child.wait_with_output().unwrap();
    assert!(output.status.success(), "{args:?}: {}", String::from_utf8_lossy(&output.stderr));
    output
}

/// What the console answers to `LOOK`, without the image file names (numbered per run).
fn look(data: &Path) -> Vec<String> {
    let output = stonemate(&["console", "--json"], data, LOOK);
    let replies = String::from_utf8(output.stdout).unwrap();
    let replies = replies.lines().map(|line| serde_json::from_str::<serde_json::Value>(line).unwrap());
    replies.map(|reply| reply["text"].as_str().unwrap().to_owned()).collect()
}

#[test]
fn an_export_imported_into_a_fresh_database_exports_the_same_and_serves_the_same_games() {
    let tmp = tempfile::tempdir().unwrap();
    let (first, second) = (tmp.path().join("first"), tmp.path().join("second"));
    stonemate(&["console"], &first, SCRIPT);
    let exported = stonemate(&["export"], &first, "").stdout;
    let text = String::from_utf8(exported.clone()).unwrap();
    assert_eq!(text.lines().next(), Some(r#"{"stonemate_export":1}"#));
    // Two games, three users (alice, bob, carol), the id counter.
    assert_eq!(text.lines().filter(|line| line.starts_with(r#"{"game":"#)).count(), 2, "{text}");
    assert_eq!(text.lines().filter(|line| line.starts_with(r#"{"user":"#)).count(), 3, "{text}");
    assert!(text.lines().any(|line| line == r#"{"last_id":2}"#), "{text}");

    let file = tmp.path().join("export.jsonl");
    std::fs::write(&file, &exported).unwrap();
    stonemate(&["import", file.to_str().unwrap()], &second, "");
    assert_eq!(stonemate(&["export"], &second, "").stdout, exported);
    let seen = look(&first);
    assert!(seen[0].contains("2 turns played"), "{seen:?}");
    assert_eq!(look(&second), seen);
}

#[test]
fn import_refuses_a_database_that_holds_games() {
    let tmp = tempfile::tempdir().unwrap();
    let data = tmp.path().join("data");
    stonemate(&["console"], &data, SCRIPT);
    let exported = stonemate(&["export"], &data, "").stdout;
    let before = String::from_utf8(exported.clone()).unwrap();
    let mut command = Command::new(env!("CARGO_BIN_EXE_stonemate"));
    command.arg("import").arg("--data").arg(&data).stdin(Stdio::piped()).stderr(Stdio::piped());
    let mut child = command.spawn().unwrap();
    child.stdin.take().unwrap().write_all(&exported).unwrap();
    let output = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("already holds games"), "{stderr}");
    assert_eq!(String::from_utf8(stonemate(&["export"], &data, "").stdout).unwrap(), before);
}

#[test]
fn import_refuses_a_game_that_does_not_replay_and_writes_nothing() {
    let tmp = tempfile::tempdir().unwrap();
    let (first, second) = (tmp.path().join("first"), tmp.path().join("second"));
    stonemate(&["console"], &first, SCRIPT);
    let exported = String::from_utf8(stonemate(&["export"], &first, "").stdout).unwrap();
    let broken = exported.replace("R@d4", "R@e5");
    assert_ne!(broken, exported);
    let mut command = Command::new(env!("CARGO_BIN_EXE_stonemate"));
    command.arg("import").arg("--data").arg(&second).stdin(Stdio::piped()).stderr(Stdio::piped());
    let mut child = command.spawn().unwrap();
    child.stdin.take().unwrap().write_all(broken.as_bytes()).unwrap();
    let output = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("game #1: its turns do not replay"), "{stderr}");
    let after = String::from_utf8(stonemate(&["export"], &second, "").stdout).unwrap();
    assert_eq!(after, "{\"stonemate_export\":1}\n");
}
