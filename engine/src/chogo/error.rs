//! Why a Chogo turn is refused: one variant per rule, readable by players as is.

use crate::notation::NotationError;
use crate::piece::Role;
use crate::square::{Color, Square};
use crate::turn::Rect;

/// How players call each side: the summary's second side is Green (see the module comment).
#[must_use]
pub fn side_name(color: Color) -> &'static str {
    match color {
        Color::White => "White",
        Color::Black => "Green",
    }
}

/// A rectangle as the notation writes it: lower-left then upper-right corner (`f3g4`).
#[must_use]
pub fn rect_name(rect: Rect) -> String {
    format!("{}{}", rect.low(), rect.high())
}

/// Why a turn of Chogo is refused. Rule numbers are those of the Chogo rules.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ChogoError {
    /// The text is not a Chogo turn at all; the notation error says what was expected.
    #[error(transparent)]
    Notation(#[from] NotationError),
    /// The game has ended, so no further turn is accepted.
    #[error("the game is over")]
    GameOver,
    /// A pass was played: Chogo has no passing, a side must move (rule 4).
    #[error("passing is not allowed in Chogo (rule 4)")]
    NoPassing,
    /// A side played something else on its first turn, which must drop its king (rule 3).
    #[error("{} must first drop the king, like K@d2 (rule 3: the first turn is the king drop)", side_name(*side))]
    KingDropFirst {
        /// The side whose king is still in hand.
        side: Color,
    },
    /// A drop of something other than the king: soldiers start on the board, only kings are dropped
    /// (rule 3).
    #[error("only the king is dropped in Chogo, not a {role} (rule 3)")]
    OnlyKingDrops {
        /// The piece that was named in the drop.
        role: Role,
    },
    /// A second king drop by a side whose king already stands on the board (rule 3).
    #[error("{}'s king is already on the board: it is dropped once, on the first turn (rule 3)", side_name(*side))]
    KingAlreadyDropped {
        /// The side that dropped twice.
        side: Color,
    },
    /// A king dropped beyond its own half of the board (rule 3).
    #[error("{}'s king must be dropped on ranks {ranks}, not on {square} (rule 3: not beyond the halfway rank)", side_name(*side))]
    BeyondHalfway {
        /// The side dropping its king.
        side: Color,
        /// Where the king was dropped.
        square: Square,
        /// The ranks allowed to that side, as players read them (`1-4`).
        ranks: &'static str,
    },
    /// A square that lies in one of the missing corner cells of the 44-cell board (rule 1).
    #[error("{square} is not a cell of the Chogo board (rule 1: three cells are missing at each corner)")]
    NoSuchCell {
        /// The square outside the board.
        square: Square,
    },
    /// A drop or move onto a cell that already holds a piece.
    #[error("{square} is not empty")]
    Occupied {
        /// The occupied cell.
        square: Square,
    },
    /// A move that starts from a cell without a piece of the side to move.
    #[error("{} has no piece on {square}", side_name(*side))]
    NoOwnPiece {
        /// The side to move.
        side: Color,
        /// The cell the move starts from.
        square: Square,
    },
    /// A diagonal or crooked move: pieces move along files and ranks only (rule 5).
    #[error("{from}-{to} does not go along a file or a rank (rule 5: pieces move orthogonally)")]
    NotOrthogonal {
        /// Where the move starts.
        from: Square,
        /// Where it was meant to end.
        to: Square,
    },
    /// A king move longer than one cell (rule 5).
    #[error("the king on {from} steps one cell at a time, so it cannot reach {to} (rule 5)")]
    KingStepsOne {
        /// The king's cell.
        from: Square,
        /// The cell out of its reach.
        to: Square,
    },
    /// A soldier's slide that passes over an occupied cell (rule 5).
    #[error("{from}-{to} is blocked at {at} (rule 5: a soldier slides over empty cells only)")]
    Blocked {
        /// Where the slide starts.
        from: Square,
        /// Where it was meant to end.
        to: Square,
        /// The first occupied cell on the way.
        at: Square,
    },
    /// A single move of a piece held between two enemy pieces, which cannot move alone (rule 6).
    #[error("the piece on {square} is trapped between {} and {} and cannot move by itself (rule 6)", by.0, by.1)]
    Trapped {
        /// The trapped piece.
        square: Square,
        /// The two enemy pieces that trap it.
        by: (Square, Square),
    },
    /// A mole drop that takes a trapped piece, which rule 8 forbids.
    #[error("the piece on {square} is trapped between {} and {}, so it cannot be taken for a mole drop (rule 8)", by.0, by.1)]
    MoleTrapped {
        /// The trapped piece.
        square: Square,
        /// The two enemy pieces that trap it.
        by: (Square, Square),
    },
    /// A tandem naming a single cell: a tandem moves at least two pieces together (rule 7).
    #[error("a tandem moves two or more pieces (rule 7), and {} is one cell", rect_name(*rect))]
    TandemTooSmall {
        /// The one-cell rectangle that was named.
        rect: Rect,
    },
    /// A tandem rectangle with a cell that is not the mover's piece (rule 7).
    #[error("{at} is not one of your pieces: a tandem is a solid rectangle of your own pieces (rule 7)")]
    TandemNotSolid {
        /// The rectangle named by the tandem.
        rect: Rect,
        /// The first cell of it without an own piece.
        at: Square,
    },
    /// A tandem target that no leading piece of the rectangle can reach in a straight line.
    #[error("{to} is not outside {} on one of its rows or columns (notation: the target is the cell the leading piece reaches)", rect_name(*rect))]
    TandemTargetOffLine {
        /// The rectangle named by the tandem.
        rect: Rect,
        /// The target that is off its rows and columns.
        to: Square,
    },
    /// A tandem turn whose target is not the cell the notation prints (the one reached by the lowest
    /// leading piece): each tandem has a single `Turn` value, so that records and legal lists compare.
    #[error("write this tandem as {}-{canonical}", rect_name(*rect))]
    TandemNotCanonical {
        /// The rectangle named by the tandem.
        rect: Rect,
        /// The target the printed notation uses.
        canonical: Square,
    },
    /// A tandem whose every piece is trapped: at least one must be free to lead (rule 7).
    #[error("every piece of {} is trapped, and a tandem needs at least one that is not (rule 7)", rect_name(*rect))]
    TandemAllTrapped {
        /// The rectangle named by the tandem.
        rect: Rect,
    },
    /// A tandem that would move into an occupied cell (rule 7).
    #[error("{}-{to} is blocked at {at} (rule 7: every cell a tandem moves into must be empty)", rect_name(*rect))]
    TandemBlocked {
        /// The rectangle named by the tandem.
        rect: Rect,
        /// Its target.
        to: Square,
        /// The first occupied cell in its way.
        at: Square,
    },
    /// A mole drop onto a cell that is not inside a city of the opponent (rule 8).
    #[error("{square} is not in a city of {} (rule 8: a mole drop goes into an empty area that only the opponent's pieces enclose)", side_name(*opponent))]
    NotInCity {
        /// Where the piece was to be dropped.
        square: Square,
        /// The side whose city the drop must enter.
        opponent: Color,
    },
    /// A move with a promotion mark: nothing promotes in Chogo.
    #[error("Chogo pieces do not promote")]
    NoPromotion,
}
