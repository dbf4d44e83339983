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

/// Makes `dir` and everything in it read-only, and readable by anyone.
fn read_only(dir: &Path) {
    use std::os::unix::fs::PermissionsExt;
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            read_only(&path);
        } else {
            std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o444)).unwrap();
        }
    }
    std::fs::set_permissions(dir, std::fs::Permissions::from_mode(0o555)).unwrap();
}

#[test]
fn an_export_reads_a_read_only_directory_and_writes_nothing_in_it() {
    use std::os::unix::process::CommandExt;
    let tmp = tempfile::tempdir().unwrap();
    let data = tmp.path().join("data");
    stonemate(&["console"], &data, SCRIPT);
    let expected = stonemate(&["export"], &data, "").stdout;
    read_only(&data);
    // Others may pass through the test's directory to reach the data.
    std::fs::set_permissions(tmp.path(), std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
    let listing = |dir: &Path| -> Vec<(std::ffi::OsString, u64)> {
        let mut files: Vec<_> = std::fs::read_dir(dir).unwrap().map(|entry| entry.unwrap()).collect();
        files.sort_by_key(std::fs::DirEntry::file_name);
        files.iter().map(|entry| (entry.file_name(), entry.metadata().unwrap().len())).collect()
    };
    let before = listing(&data);
    // root writes through permissions (/proc/self is owned by the process's user): the
    // export then runs as nobody, who may not write there, as an operator on read-only media.
    let root = std::fs::metadata("/proc/self").map(|own| std::os::unix::fs::MetadataExt::uid(&own)).unwrap() == 0;
    let mut export = if root {
        // nobody may not reach the build's binary (a checkout in a private directory): a
        // copy beside the data, in the directory opened to others above.
        let copy = tmp.path().join("stonemate");
        std::fs::copy(env!("CARGO_BIN_EXE_stonemate"), &copy).unwrap();
        let mut export = Command::new(copy);
        export.uid(65534).gid(65534);
        export
    } else {
        Command::new(env!("CARGO_BIN_EXE_stonemate"))
    };
    export.arg("export").arg("--data").arg(&data);
    let output = export.stdin(Stdio::null()).output().unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{stderr}");
    assert_eq!(
        stderr.trim(),
        format!("stonemate export: 6 records written (from a copy: {} is read-only)", data.display())
    );
    assert_eq!(String::from_utf8(output.stdout).unwrap(), String::from_utf8(expected).unwrap());
    assert_eq!(listing(&data), before, "nothing written in the read-only directory");
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

/// `stonemate import` of `export` into a new directory: its exit code and standard error.
fn import_edited(tmp: &Path, export: &str) -> (Option<i32>, String) {
    let mut command = Command::new(env!("CARGO_BIN_EXE_stonemate"));
    command.arg("import").arg("--data").arg(tmp.join("edited")).stdin(Stdio::piped()).stderr(Stdio::piped());
    let mut child = command.spawn().unwrap();
    child.stdin.take().unwrap().write_all(export.as_bytes()).unwrap();
    let output = child.wait_with_output().unwrap();
    (output.status.code(), String::from_utf8_lossy(&output.stderr).trim().to_owned())
}

/// The export of `SCRIPT`'s games, as lines.
fn exported_lines(tmp: &Path) -> Vec<String> {
    let data = tmp.join("data");
    stonemate(&["console"], &data, SCRIPT);
    let exported = String::from_utf8(stonemate(&["export"], &data, "").stdout).unwrap();
    exported.lines().map(str::to_owned).collect()
}

#[test]
fn import_refuses_a_game_line_given_twice_naming_both_lines() {
    let tmp = tempfile::tempdir().unwrap();
    let mut lines = exported_lines(tmp.path());
    assert!(lines[1].starts_with(r#"{"game":{"format":2,"id":1,"#), "{lines:?}");
    lines.insert(3, lines[1].clone());
    let (code, stderr) = import_edited(tmp.path(), &(lines.join("\n") + "\n"));
    assert_eq!(code, Some(1), "{stderr}");
    assert_eq!(stderr, "stonemate import: line 4: game #1 is also on line 2: an export holds each game once");
    let after = String::from_utf8(stonemate(&["export"], &tmp.path().join("edited"), "").stdout).unwrap();
    assert_eq!(after, "{\"stonemate_export\":1}\n", "nothing imported");
}

#[test]
fn import_refuses_a_game_whose_two_players_are_one_user() {
    let tmp = tempfile::tempdir().unwrap();
    let mut lines = exported_lines(tmp.path());
    let mut line: serde_json::Value = serde_json::from_str(&lines[1]).unwrap();
    let game = &mut line["game"];
    let alice = game["challenger"].clone();
    game["opponent"] = alice.clone();
    game["players"] = serde_json::json!([alice, alice]);
    game["names"] = serde_json::json!(["alice", "alice"]);
    lines[1] = line.to_string();
    let (code, stderr) = import_edited(tmp.path(), &(lines.join("\n") + "\n"));
    assert_eq!(code, Some(1), "{stderr}");
    assert_eq!(stderr, "stonemate import: line 2: game #1: both players are the same user (alice, alice)");
}
