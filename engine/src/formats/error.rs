//! Why a record cannot be exported, and why a text cannot be read as one.

use super::record::{Format, MAX_RECORD_TEXT};
use crate::any::{NewGameError, ReplayError};
use crate::game::{GameKind, UnknownGame};
use crate::options::OptionError;
use crate::square::Color;

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
