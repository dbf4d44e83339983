//! Why a Chego turn is refused: one variant per condition of rule 4 (a-e), each naming the
//! squares involved, readable by a player as is.

use crate::notation::NotationError;
use crate::piece::{Hand, Piece, Role};
use crate::square::Square;

/// Why a turn of Chego is refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ChegoError {
    /// The text is not a Chego turn at all; the notation error says what was expected.
    #[error(transparent)]
    Notation(#[from] NotationError),
    /// The game has ended, so no further turn is accepted.
    #[error("the game is over")]
    GameOver,
    /// A move or other non-drop turn: in Chego pieces never move once dropped.
    #[error("Chego has only drops and passes (write a drop like Ne4)")]
    WrongKind,
    /// A drop outside the board or into a hole (condition a).
    #[error("{square} is not a square of this board (condition a)")]
    NoSuchSquare {
        /// The square that does not exist.
        square: Square,
    },
    /// A drop onto an occupied square (condition a).
    #[error("{square} is not empty: a {} stands there (condition a)", piece.describe())]
    Occupied {
        /// The target square.
        square: Square,
        /// The piece already standing there.
        piece: Piece,
    },
    /// A drop of a piece the player has no more of (condition a).
    #[error("you have no {role} in hand (condition a); {}", hand_text(*hand))]
    NotInHand {
        /// The piece named in the drop.
        role: Role,
        /// What the player does hold, so the message can list it.
        hand: Hand,
    },
    /// A drop onto a square attacked by unequal numbers of white and black pieces (condition b).
    #[error(
        "{square} is not neutral: attacked by {white} white and {black} black pieces ({}; condition b)",
        piece_list(attackers)
    )]
    NotNeutral {
        /// The target square.
        square: Square,
        /// How many white pieces attack it.
        white: u16,
        /// How many black pieces attack it.
        black: u16,
        /// Every attacker with its square, so the player can see the imbalance.
        attackers: Vec<(Square, Piece)>,
    },
    /// A dropped piece that would attack no empty square, so it would be born dead (condition c).
    #[error("the {role} on {square} would attack no empty square (condition c)")]
    AttacksNoEmptySquare {
        /// The piece dropped.
        role: Role,
        /// Where it was dropped.
        square: Square,
    },
    /// A dropped piece that would attack an occupied square (condition d).
    #[error("the {role} on {square} would attack the occupied {} (condition d)", squares_text(occupied))]
    AttacksOccupied {
        /// The piece dropped.
        role: Role,
        /// Where it was dropped.
        square: Square,
        /// The occupied squares it would attack.
        occupied: Vec<Square>,
    },
    /// A drop that would leave some of the mover's own pieces attacking no empty square (condition e).
    #[error("suicide: your {} would attack no empty square (condition e)", own_list(starved))]
    Suicide {
        /// The mover's pieces that would be left without an empty square to attack.
        starved: Vec<(Square, Role)>,
    },
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
