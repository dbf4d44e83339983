//! Fail-stop through the real binary: `stonemate console --data` on real files, with the
//! `LD_PRELOAD` shim of `faults/` failing a write or a sync of the turn being played. The
//! console must tell the player (never with sled's text), serve nothing more, exit
//! non-zero, and a restart must serve every confirmed turn.

use crate::faults;

use std::io::{BufRead, BufReader, Read, Write};
use std::path::Path;
use std::process::{Command, Output, Stdio};

use faults::Fault;
use serde_json::Value;

const SETUP: &str = "@alice /challenge opponent:@bob game:go color:white days:0 options:\"board=9x9\"\n\
                     @bob /accept\n@bob /move notation:e5\n@alice /move notation:d4\n";
/// The turn played with the fault armed, and a read after it that must not be answered.
const FAULTED: &str = "@bob /move notation:f5\n@alice /board game:1\n";

fn command(data: &Path) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_stonemate"));
    command.arg("console").arg("--data").arg(data).arg("--json");
    command.stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::piped());
    command
}

/// Runs the console on `data` with `input`.
fn console(data: &Path, input: &str) -> Output {
    let mut child = command(data).spawn().unwrap();
    child.stdin.take().unwrap().write_all(input.as_bytes()).unwrap();
    child.wait_with_output().unwrap()
}

/// Runs the console on `data` under `fault`, armed once it has opened the database (sled
/// writes while it opens) and answered a first read; then sends `input`. The output holds
/// what came after the first reply.
fn console_under(fault: Fault, data: &Path, input: &str) -> Output {
    let armed = data.with_extension("armed");
    let mut command = command(data);
    faults::preload(&mut command, data, &armed, fault);
    let mut child = command.spawn().unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    stdin.write_all(b"@alice /board game:1\n").unwrap();
    let mut first = String::new();
    stdout.read_line(&mut first).unwrap();
    assert!(first.contains(r#""ok":true"#), "{first}");
    std::fs::write(&armed, b"").unwrap();
    stdin.write_all(input.as_bytes()).unwrap();
    drop(stdin);
    let mut rest = Vec::new();
    stdout.read_to_end(&mut rest).unwrap();
    let mut output = child.wait_with_output().unwrap();
    output.stdout = rest;
    output
}

/// The replies to commands (not notices), in order.
fn replies(output: &Output) -> Vec<Value> {
    let stdout = String::from_utf8_lossy(&output.stdout);
    let lines = stdout.lines().map(|line| serde_json::from_str::<Value>(line).unwrap());
    lines.filter(|reply| !reply["command"].is_null()).collect()
}

/// The turns of game 1 as `/history` lists them, after a restart without faults.
fn history_after_restart(data: &Path) -> String {
    let output = console(data, "@alice /history game:1\n");
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let reply = &replies(&output)[0];
    assert_eq!(reply["ok"], true, "{reply}");
    reply["text"].as_str().unwrap().lines().last().unwrap().to_owned()
}

/// Sets up a game with two confirmed turns, then plays one more under `fault`; returns
/// the faulted run's output.
fn turn_under(fault: Fault, data: &Path) -> Output {
    let setup = console(data, SETUP);
    assert!(replies(&setup).iter().all(|reply| reply["ok"] == true), "{}", String::from_utf8_lossy(&setup.stdout));
    let output = console_under(fault, data, FAULTED);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("stonemate-fault: failing"), "the shim injected nothing:\n{stderr}");
    output
}

/// What the faulted run must show: one refusal without library text, nothing served after
/// it, the detail on standard error, exit status 1.
fn assert_stopped(output: &Output, expected: &str) {
    let stderr = String::from_utf8_lossy(&output.stderr);
    let replies = replies(output);
    assert_eq!(replies.len(), 1, "nothing is served after the failure: {replies:?}");
    let text = replies[0]["text"].as_str().unwrap();
    assert_eq!((replies[0]["ok"].as_bool(), text), (Some(false), expected));
    assert_eq!(output.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("stonemate console: storage failed, stopping:"), "{stderr}");
}

const UNKNOWN: &str = "storage unavailable, try again shortly: whether this was saved is unknown; \
                       look at the board once the bot is back";

#[test]
fn a_failed_pwrite_stops_the_console_and_a_restart_serves_every_confirmed_turn() {
    let tmp = tempfile::tempdir().unwrap();
    let data = tmp.path().join("data");
    let output = turn_under(Fault { calls: "pwrite", nth: 1, times: 0, errno: "ENOSPC" }, &data);
    assert_stopped(&output, UNKNOWN);
    // The write never reached the file: the turn is not there, the confirmed ones are.
    assert_eq!(history_after_restart(&data), "1. R@e5 R@d4");
}

#[test]
fn a_failed_fdatasync_says_the_outcome_is_unknown_and_stops_the_console() {
    let tmp = tempfile::tempdir().unwrap();
    let data = tmp.path().join("data");
    let output = turn_under(Fault { calls: "fdatasync", nth: 1, times: 0, errno: "EIO" }, &data);
    assert_stopped(&output, UNKNOWN);
    let history = history_after_restart(&data);
    assert!(history.starts_with("1. R@e5 R@d4"), "{history}");
}
