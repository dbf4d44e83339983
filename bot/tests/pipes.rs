//! The command-line tools on a closed pipe (`stonemate replay ... | head -c 100`) or a
//! closed standard error: they stop cleanly, never with a panic (exit status 101).

use std::io::Write;
use std::process::Output;

use super::cli::spawn;

/// Which outputs of the tool have no reader.
#[derive(Clone, Copy, PartialEq)]
enum Closed {
    Neither,
    Stdout,
    Stderr,
    Both,
}

/// Runs the tool with `closed` outputs already closed at the reading end before it gets
/// its input, so that its writes fail (EPIPE) every time, not by a race. Returns its exit
/// status and what it wrote on the outputs still open.
fn run(args: &[&str], stdin: &str, closed: Closed) -> Output {
    let mut child = spawn(args);
    if matches!(closed, Closed::Stdout | Closed::Both) {
        drop(child.stdout.take());
    }
    if matches!(closed, Closed::Stderr | Closed::Both) {
        drop(child.stderr.take());
    }
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
    let output = run(&["replay", "--game", "go", "--option", "board=9x9"], RECORD, Closed::Stdout);
    assert_no_panic(&output);
    assert_eq!(output.status.code(), Some(0), "{output:?}");
    assert!(output.stderr.is_empty(), "nothing to say about a reader that left: {output:?}");
}

#[test]
fn replay_with_standard_error_closed_keeps_its_exit_status() {
    let output = run(&["replay", "--game", "go", "-"], "e5 e5", Closed::Stderr);
    assert_eq!(output.status.code(), Some(1), "an illegal turn: {output:?}");
    let output = run(&["replay", "--game", "go", "/nonexistent/record.txt"], "", Closed::Stderr);
    assert_eq!(output.status.code(), Some(2), "{output:?}");
}

#[test]
fn console_stops_quietly_when_its_reader_has_gone() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let args = ["console", "--data", data.to_str().unwrap()];
    let lines = "@alice /rules game:go\n@alice /challenge opponent:@bob game:go\n".repeat(20);
    let output = run(&args, &lines, Closed::Stdout);
    assert_no_panic(&output);
    assert_eq!(output.status.code(), Some(0), "{output:?}");
}

#[test]
fn render_with_both_outputs_closed_does_not_panic() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("board.png");
    let args = ["render", "--game", "go", "--option", "board=9x9", "-", "--out", out.to_str().unwrap()];
    let output = run(&args, "e5 e5", Closed::Both);
    assert_eq!(output.status.code(), Some(1), "an illegal turn, said to nobody: {output:?}");
}

/// Regression: `echo 'A=e2' | stonemate replay --game ichess` exited 101 (an index out of
/// bounds): a drop of a piece iChess does not have is refused like any illegal turn.
#[test]
fn a_drop_of_a_foreign_piece_is_refused_by_replay() {
    for letter in ["D", "W", "A", "G", "H", "S", "E"] {
        for separator in ["=", "@", "*"] {
            let turn = format!("{letter}{separator}e2\n");
            let output = run(&["replay", "--game", "ichess"], &turn, Closed::Neither);
            assert_no_panic(&output);
            assert_eq!(output.status.code(), Some(1), "{turn}: {output:?}");
        }
    }
}
