//! Writing to standard output and error without panicking: `println!` panics when the
//! reader has gone (`stonemate replay ... | head -c 100`), `eprintln!` when standard error
//! is closed. A closed pipe means nobody wants the rest, so the tools stop quietly.

use std::io::{self, Write};

/// Writes `text` and a newline to standard output. `Err` when it cannot be written (a
/// closed pipe: [`io::ErrorKind::BrokenPipe`]).
pub fn line(text: &str) -> io::Result<()> {
    let mut out = io::stdout().lock();
    writeln!(out, "{text}")?;
    out.flush()
}

/// Writes `text` and a newline to standard error; a message nobody can read is dropped.
pub fn error(text: &str) {
    let _ = writeln!(io::stderr().lock(), "{text}");
}

/// Whether an output error only means that the reader has gone.
#[must_use]
pub fn reader_gone(error: &io::Error) -> bool {
    error.kind() == io::ErrorKind::BrokenPipe
}

/// A closed pipe is the reader's choice; other output errors are failures.
pub fn ignore_gone(error: io::Error) -> io::Result<()> {
    if reader_gone(&error) { Ok(()) } else { Err(error) }
}
