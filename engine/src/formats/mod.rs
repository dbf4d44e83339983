//! Game records in the formats players' tools read: SGF for Go with chess pieces
//! ([`sgf`]), PGN for iChess ([`pgn`]), and our own record ([`own`]), plus [`read`], which
//! tells the three apart by their content.
//!
//! Every function here is pure: text in, text out. Writing replays the turns first, so a
//! record that the rules refuse is never exported; reading returns turn texts in our
//! notation without judging them, so that `stonemate replay` plays them and names the
//! first illegal one exactly as it does for our own records.

pub mod own;
pub mod pgn;
pub mod sgf;

use crate::any::{AnyGame, NewGameError, ReplayError};
use crate::game::{Ending, GameKind, UnknownGame};
use crate::go::DeadPieces;
use crate::options::{OptionError, OptionPairs};
use crate::square::Color;
use crate::turn::Turn;

/// Longer texts are refused before any parsing: a file is user input.
pub const MAX_RECORD_TEXT: usize = 1 << 20;

/// A game as the formats write it: what a stored game knows about itself.
#[derive(Debug, Clone, PartialEq)]
pub struct Record {
    /// Which game was played.
    pub kind: GameKind,
    /// Every option with its value, as `AnyGame::option_pairs` gives them.
    pub options: OptionPairs,
    /// The players' display names, `[white, black]`.
    pub players: [String; 2],
    /// The turns in our notation, in order.
    pub turns: Vec<String>,
    /// How the game ended, or `None` while it goes on.
    pub ending: Option<Ending>,
    /// The day the game started, when known.
    pub date: Option<Date>,
    /// A name for the game, such as `Stonemate #12` (PGN `Event`, SGF `GN`).
    pub title: Option<String>,
    /// Where it was played, such as the Discord server's name (PGN `Site`, SGF `PC`).
    pub site: Option<String>,
}

/// A calendar day (the engine has no clock: the caller says which day it is).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Date {
    /// The year, such as 2026.
    pub year: u16,
    /// The month, 1 to 12.
    pub month: u8,
    /// The day of the month, 1 to 31.
    pub day: u8,
}

/// The three kinds of text [`read`] recognises.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Format {
    /// Smart Game Format (FF\[4\]), as go editors write it.
    Sgf,
    /// Portable Game Notation, as chess programs write it.
    Pgn,
    /// Our own record: turn texts, with `#` comments that may name the game and options.
    Own,
}

impl Format {
    /// The name players know the format by (`SGF`, `PGN`, `record`).
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Format::Sgf => "SGF",
            Format::Pgn => "PGN",
            Format::Own => "record",
        }
    }
}

/// What [`read`] found in a text: enough for `stonemate replay` to play it.
#[derive(Debug, Clone, PartialEq)]
pub struct Imported {
    /// Which format the text was in.
    pub format: Format,
    /// The game, when the text says it (always for SGF and PGN; for our own record only
    /// when its comments name it, as `/history` files do).
    pub kind: Option<GameKind>,
    /// The options the text gives (empty when it gives none: the defaults apply).
    pub options: OptionPairs,
    /// The players' names, `[white, black]`, when the text gives them.
    pub players: [Option<String>; 2],
    /// The turns in our notation, not yet checked against the rules.
    pub turns: Vec<String>,
}

/// Why a record cannot be exported.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum ExportError {
    /// The format is written for another game (SGF for `go`, PGN for `ichess`).
    #[error("{} is written for {} games, not {}", format.name(), expected.title(), kind.title())]
    WrongGame {
        /// The format asked for.
        format: Format,
        /// The game that format is for.
        expected: GameKind,
        /// The record's game.
        kind: GameKind,
    },
    /// The record's options do not start a game.
    #[error(transparent)]
    NewGame(#[from] NewGameError),
    /// A turn of the record cannot be read or played, so the record is not a game.
    #[error(transparent)]
    Turn(#[from] ReplayError),
}

/// Why a text cannot be read as a record.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ReadError {
    /// The text is longer than any record we write.
    #[error("the record is too long (at most {MAX_RECORD_TEXT} bytes)")]
    TooLong,
    /// The text breaks the format's syntax.
    #[error("this {} is not well formed at byte {at}: expected {expected}", format.name())]
    Syntax {
        /// The format the text was recognised as.
        format: Format,
        /// Where reading stopped, in bytes from the start.
        at: usize,
        /// What the format allows there.
        expected: &'static str,
    },
    /// An SGF file of another game than go (`GM` other than 1).
    #[error("this SGF is for game type {game}, not go (GM[1])")]
    NotGo {
        /// The `GM` value found.
        game: String,
    },
    /// A PGN whose `Variant` is not one of ours.
    #[error("this PGN is for `{variant}`, not for iChess (the only game Stonemate writes in PGN)")]
    UnknownVariant {
        /// The `Variant` tag's value (empty when there is none).
        variant: String,
    },
    /// Our own record names a game that does not exist.
    #[error(transparent)]
    UnknownGame(#[from] UnknownGame),
    /// The options in the text are not options of the game.
    #[error(transparent)]
    Options(#[from] OptionError),
    /// An SGF property that changes the board outside the turns (handicap stones `AB`,
    /// `AW`, `AE`): our games start from their rules' start position.
    #[error("the SGF property {property} sets up stones, and Stonemate games start from an empty board")]
    Setup {
        /// The property's name.
        property: String,
    },
    /// An SGF node with both a black and a white move.
    #[error("SGF turn {index} has moves for both colours")]
    TwoMoves {
        /// The turn, counted from 1.
        index: usize,
    },
    /// An SGF move by the side that is not to move: our games alternate, passes included.
    #[error("SGF turn {index} is played by {found}, but {expected} is to move")]
    OutOfTurn {
        /// The turn, counted from 1.
        index: usize,
        /// The side that should move.
        expected: Color,
        /// The side the file names.
        found: Color,
    },
    /// An SGF point that is not on the board.
    #[error("SGF turn {index}: `{point}` is not a point of this board")]
    BadPoint {
        /// The turn, counted from 1.
        index: usize,
        /// The value as written.
        point: String,
    },
    /// A private piece property that names no piece.
    #[error("SGF turn {index}: `{piece}` is not a piece letter")]
    BadPiece {
        /// The turn, counted from 1.
        index: usize,
        /// The value as written.
        piece: String,
    },
}

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

/// One turn of a replayed record.
#[derive(Debug, Clone)]
struct Played {
    /// The turn as the game prints it.
    text: String,
    /// The side that played it.
    mover: Color,
    /// The turn itself, for formats that write squares.
    turn: Turn,
}

/// Replays a record's turns: each turn played, then the game after the last one. A record
/// the rules refuse is not exported.
fn replay(record: &Record) -> Result<(Vec<Played>, AnyGame), ExportError> {
    let mut game = AnyGame::new(record.kind, &record.options)?;
    let mut played = Vec::with_capacity(record.turns.len());
    for (index, text) in record.turns.iter().enumerate() {
        let failed = |error| ReplayError { index: index + 1, text: text.clone(), error };
        // The agreement that ends counting is no side's turn: the game keeps it
        // (`Go::agreed_dead`) for the formats that write it.
        if DeadPieces::is_entry(text) {
            game.play_text(text).map_err(failed)?;
            continue;
        }
        // A turn that `play` accepts is played by the side to move, which then exists.
        let mover = game.to_move().unwrap_or(Color::White);
        let turn = game.parse_turn(text).map_err(failed)?;
        let printed = game.format_turn(turn);
        game.play(turn).map_err(failed)?;
        played.push(Played { text: printed, mover, turn });
    }
    Ok((played, game))
}

/// The options as one line of `key=value` words, values with spaces in double quotes, as
/// `parse_option_text` reads them back.
fn option_line(options: &OptionPairs) -> String {
    let words: Vec<String> = options
        .iter()
        .map(|(key, value)| if value.contains(' ') { format!("{key}=\"{value}\"") } else { format!("{key}={value}") })
        .collect();
    words.join(" ")
}
