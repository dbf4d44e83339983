//! Running the `stonemate` binary from the CLI tests: one subcommand, its arguments, and
//! text on standard input.

use std::io::Write;
use std::process::{Command, Output, Stdio};

/// Runs `stonemate SUBCOMMAND ARGS...` with `stdin` as its input, and waits for it.
pub fn stonemate(subcommand: &str, args: &[&str], stdin: &str) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_stonemate"))
        .arg(subcommand)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    child.stdin.take().expect("piped").write_all(stdin.as_bytes()).expect("stdin");
    child.wait_with_output().expect("the binary finishes")
}
