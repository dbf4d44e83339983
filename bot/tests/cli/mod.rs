//! Running the `stonemate` binary from the CLI tests: one subcommand, its arguments, and
//! text on standard input.

use std::io::Write;
use std::process::{Child, Command, Output, Stdio};

/// Starts `stonemate ARGS...` with its standard input, output and error piped.
pub fn spawn(args: &[&str]) -> Child {
    Command::new(env!("CARGO_BIN_EXE_stonemate"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs")
}

/// Runs `stonemate SUBCOMMAND ARGS...` with `stdin` as its input, and waits for it.
pub fn stonemate(subcommand: &str, args: &[&str], stdin: &str) -> Output {
    let mut child = spawn(&[&[subcommand], args].concat());
    child.stdin.take().expect("piped").write_all(stdin.as_bytes()).expect("stdin");
    child.wait_with_output().expect("the binary finishes")
}
