//! The command-line tools on a closed pipe (`stonemate replay ... | head -c 100`) or a
//! closed standard error: they stop cleanly, never with a panic (exit status 101).

use std::io::Write;
use std::process::{Command, Output, Stdio};

/// The write end of a pipe whose reader is already gone: every write fails with EPIPE.
fn closed_pipe() -> std::io::PipeWriter {
    let (reader, writer) = std::io::pipe().expect("a pipe");
    drop(reader);
    writer
}

fn run(args: &[&str], stdin: &str, stdout: Stdio, stderr: Stdio) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_stonemate"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(stdout)
        .stderr(stderr)
        .spawn()
        .expect("the binary runs");
    // The tool may stop reading once its output is gone: a failed write here is fine.
    let _ = child.stdin.take().expect("piped").write_all(stdin.as_bytes());
    child.wait_with_output().expect("the binary finishes")
}

#[track_caller]
fn assert_no_panic(output: &Output) {
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_ne!(output.status.code(), Some(101), "{stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
}

const RECORD: &str = include_str!("../../examples/go-9x9.txt");

#[test]
fn replay_stops_quietly_when_its_reader_has_gone() {
    let output = run(&["replay", "--game", "go", "--option", "board=9x9"], RECORD, closed_pipe().into(), Stdio::piped());
    assert_no_panic(&output);
    assert_eq!(output.status.code(), Some(0), "{output:?}");
    assert!(output.stderr.is_empty(), "nothing to say about a reader that left: {output:?}");
}

#[test]
fn replay_with_standard_error_closed_keeps_its_exit_status() {
    let output = run(&["replay", "--game", "go", "/nonexistent/record.txt"], "", Stdio::piped(), closed_pipe().into());
    assert_eq!(output.status.code(), Some(2), "{output:?}");
}

#[test]
fn console_stops_quietly_when_its_reader_has_gone() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let args = ["console", "--data", data.to_str().unwrap()];
    let lines = "@alice /rules game:go\n@alice /challenge opponent:@bob game:go\n".repeat(20);
    let output = run(&args, &lines, closed_pipe().into(), Stdio::piped());
    assert_no_panic(&output);
    assert_eq!(output.status.code(), Some(0), "{output:?}");
}

#[test]
fn render_with_both_outputs_closed_does_not_panic() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("board.png");
    let args = ["render", "--game", "go", "/nonexistent/record.txt", "--out", out.to_str().unwrap()];
    let output = run(&args, "", closed_pipe().into(), closed_pipe().into());
    assert_ne!(output.status.code(), Some(101), "{output:?}");
}

/// Regression: `echo 'A=e2' | stonemate replay --game ichess` exited 101 (an index out of
/// bounds): a drop of a piece iChess does not have is refused like any illegal turn.
#[test]
fn a_drop_of_a_foreign_piece_is_refused_by_replay() {
    for letter in ["D", "W", "A", "G", "H", "S", "E"] {
        for separator in ["=", "@", "*"] {
            let turn = format!("{letter}{separator}e2\n");
            let output = run(&["replay", "--game", "ichess"], &turn, Stdio::piped(), Stdio::piped());
            assert_no_panic(&output);
            assert_eq!(output.status.code(), Some(1), "{turn}: {output:?}");
        }
    }
}
