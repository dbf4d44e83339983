//! Telling SGF, PGN and our own record apart by their content, and reading them.

use super::error::ReadError;
use super::record::{Imported, MAX_RECORD_TEXT};
use super::{own, pgn, sgf};

/// Recognises whether `text` is SGF, PGN or our own record, and reads it.
///
/// SGF starts with `(;`, PGN with a tag pair such as `[Event "..."]`; anything else is
/// read as our own record. Hostile or broken input gives a [`ReadError`], never a panic.
pub fn read(text: &str) -> Result<Imported, ReadError> {
    if text.len() > MAX_RECORD_TEXT {
        return Err(ReadError::TooLong);
    }
    let start = text.trim_start_matches(['\u{feff}', ' ', '\t', '\r', '\n']);
    // Positions in syntax errors count from the first character after a byte order mark
    // and blank lines.
    match start.chars().next() {
        Some('(') => sgf::read(start),
        Some('[') => pgn::read(start),
        _ => own::read(text),
    }
}
