//! Why a Chego turn is refused: one variant per condition of rule 4 (a-e), each naming the
//! squares involved, readable by a player as is.

use crate::notation::NotationError;
use crate::piece::{Hand, Piece, Role};
use crate::square::Square;

/// Why a turn of Chego is refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ChegoError {
    #[error(transparent)]
    Notation(#[from] NotationError),
    #[error("the game is over")]
    GameOver,
    #[error("Chego has only drops and passes (write a drop like Ne4)")]
    WrongKind,
    #[error("{square} is not a square of this board (condition a)")]
    NoSuchSquare { square: Square },
    #[error("{square} is not empty: a {} stands there (condition a)", piece.describe())]
    Occupied { square: Square, piece: Piece },
    #[error("you have no {role} in hand (condition a); {}", hand_text(*hand))]
    NotInHand { role: Role, hand: Hand },
    #[error(
        "{square} is not neutral: attacked by {white} white and {black} black pieces ({}; condition b)",
        piece_list(attackers)
    )]
    NotNeutral { square: Square, white: u16, black: u16, attackers: Vec<(Square, Piece)> },
    #[error("the {role} on {square} would attack no empty square (condition c)")]
    AttacksNoEmptySquare { role: Role, square: Square },
    #[error("the {role} on {square} would attack the occupied {} (condition d)", squares_text(occupied))]
    AttacksOccupied { role: Role, square: Square, occupied: Vec<Square> },
    #[error("suicide: your {} would attack no empty square (condition e)", own_list(starved))]
    Suicide { starved: Vec<(Square, Role)> },
}

fn hand_text(hand: Hand) -> String {
    if hand.is_empty() { "your hand is empty".to_owned() } else { format!("your hand: {hand}") }
}

/// "white rook c1, black knight d5".
fn piece_list(pieces: &[(Square, Piece)]) -> String {
    let names: Vec<String> = pieces.iter().map(|(square, piece)| format!("{} {square}", piece.describe())).collect();
    names.join(", ")
}

/// "square d6" or "squares d6, f4".
fn squares_text(squares: &[Square]) -> String {
    let names: Vec<String> = squares.iter().map(Square::to_string).collect();
    let noun = if names.len() == 1 { "square" } else { "squares" };
    format!("{noun} {}", names.join(", "))
}

/// "rook on a1" or "rook on a1 and knight on b3".
fn own_list(pieces: &[(Square, Role)]) -> String {
    let names: Vec<String> = pieces.iter().map(|(square, role)| format!("{role} on {square}")).collect();
    match names.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} and {last}", rest.join(", ")),
        _ => names.concat(),
    }
}

impl ChegoError {
    /// The condition of rule 4 the error is about (`'a'`..=`'e'`), if any.
    #[must_use]
    pub fn condition(&self) -> Option<char> {
        match self {
            ChegoError::NoSuchSquare { .. } | ChegoError::Occupied { .. } | ChegoError::NotInHand { .. } => Some('a'),
            ChegoError::NotNeutral { .. } => Some('b'),
            ChegoError::AttacksNoEmptySquare { .. } => Some('c'),
            ChegoError::AttacksOccupied { .. } => Some('d'),
            ChegoError::Suicide { .. } => Some('e'),
            ChegoError::Notation(_) | ChegoError::GameOver | ChegoError::WrongKind => None,
        }
    }
}
