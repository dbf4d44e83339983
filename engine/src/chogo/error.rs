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
    #[error(transparent)]
    Notation(#[from] NotationError),
    #[error("the game is over")]
    GameOver,
    #[error("passing is not allowed in Chogo (rule 4)")]
    NoPassing,
    #[error("{} must first drop the king, like K@d2 (rule 3: the first turn is the king drop)", side_name(*side))]
    KingDropFirst { side: Color },
    #[error("only the king is dropped in Chogo, not a {role} (rule 3)")]
    OnlyKingDrops { role: Role },
    #[error("{}'s king is already on the board: it is dropped once, on the first turn (rule 3)", side_name(*side))]
    KingAlreadyDropped { side: Color },
    #[error("{}'s king must be dropped on ranks {ranks}, not on {square} (rule 3: not beyond the halfway rank)", side_name(*side))]
    BeyondHalfway { side: Color, square: Square, ranks: &'static str },
    #[error("{square} is not a cell of the Chogo board (rule 1: three cells are missing at each corner)")]
    NoSuchCell { square: Square },
    #[error("{square} is not empty")]
    Occupied { square: Square },
    #[error("{} has no piece on {square}", side_name(*side))]
    NoOwnPiece { side: Color, square: Square },
    #[error("{from}-{to} does not go along a file or a rank (rule 5: pieces move orthogonally)")]
    NotOrthogonal { from: Square, to: Square },
    #[error("the king on {from} steps one cell at a time, so it cannot reach {to} (rule 5)")]
    KingStepsOne { from: Square, to: Square },
    #[error("{from}-{to} is blocked at {at} (rule 5: a soldier slides over empty cells only)")]
    Blocked { from: Square, to: Square, at: Square },
    #[error("the piece on {square} is trapped between {} and {} and cannot move by itself (rule 6)", by.0, by.1)]
    Trapped { square: Square, by: (Square, Square) },
    #[error("the piece on {square} is trapped between {} and {}, so it cannot be taken for a mole drop (rule 8)", by.0, by.1)]
    MoleTrapped { square: Square, by: (Square, Square) },
    #[error("a tandem moves two or more pieces (rule 7), and {} is one cell", rect_name(*rect))]
    TandemTooSmall { rect: Rect },
    #[error("{at} is not one of your pieces: a tandem is a solid rectangle of your own pieces (rule 7)")]
    TandemNotSolid { rect: Rect, at: Square },
    #[error("{to} is not outside {} on one of its rows or columns (notation: the target is the cell the leading piece reaches)", rect_name(*rect))]
    TandemTargetOffLine { rect: Rect, to: Square },
    #[error("write this tandem as {}-{canonical}", rect_name(*rect))]
    TandemNotCanonical { rect: Rect, canonical: Square },
    #[error("every piece of {} is trapped, and a tandem needs at least one that is not (rule 7)", rect_name(*rect))]
    TandemAllTrapped { rect: Rect },
    #[error("{}-{to} is blocked at {at} (rule 7: every cell a tandem moves into must be empty)", rect_name(*rect))]
    TandemBlocked { rect: Rect, to: Square, at: Square },
    #[error("{square} is not in a city of {} (rule 8: a mole drop goes into an empty area that only the opponent's pieces enclose)", side_name(*opponent))]
    NotInCity { square: Square, opponent: Color },
    #[error("Chogo pieces do not promote")]
    NoPromotion,
}
