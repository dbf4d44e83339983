//! Game records in the formats players' tools read: SGF for Go with chess pieces
//! ([`sgf`]), PGN for iChess ([`pgn`]), and our own record ([`own`]), plus [`read`], which
//! tells the three apart by their content.
//!
//! Every function here is pure: text in, text out. Writing replays the turns first, so a
//! record that the rules refuse is never exported; reading returns turn texts in our
//! notation without judging them, so that `stonemate replay` plays them and names the
//! first illegal one exactly as it does for our own records.

mod detect;
mod error;
pub mod own;
pub mod pgn;
mod played;
mod record;
pub mod sgf;

pub use detect::read;
pub use error::{ExportError, ReadError};
pub use record::{Date, Format, Imported, MAX_RECORD_TEXT, Record};
