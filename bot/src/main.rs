//! The `stonemate` binary: parses the command line and hands over to the library.

use std::process::ExitCode;

use clap::Parser;

fn main() -> ExitCode {
    stonemate_bot::cli::run(stonemate_bot::cli::Cli::parse())
}
