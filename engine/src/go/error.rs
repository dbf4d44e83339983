//! Why a turn of Go with chess pieces is refused: one variant per rule, each message
//! quoting the squares involved.

use crate::notation::NotationError;
use crate::piece::Role;
use crate::square::Square;

/// Why a turn of Go with chess pieces is refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum GoError {
    /// The text is not a turn of this game at all; the notation error says what was expected.
    #[error(transparent)]
    Notation(#[from] NotationError),
    /// The game has ended (two passes in a row), so no further turn is accepted.
    #[error("the game is over")]
    GameOver,
    /// A `dead` agreement outside the counting phase (rule 10).
    #[error("dead pieces are agreed only in the counting phase (rule 10: after two passes, with counting=on)")]
    NotCounting,
    /// A square of a `dead` agreement with no piece on it (rule 10).
    #[error("there is no piece on {square} to count as dead (rule 10: only pieces on the board can be agreed dead)")]
    NoDeadPiece {
        /// The empty square (or one that is not on the board).
        square: Square,
    },
    /// A square outside the board or in a hole.
    #[error("{square} is not a square of this board")]
    NoSuchSquare {
        /// The square that does not exist.
        square: Square,
    },
    /// A drop or move onto an occupied square (rule 1).
    #[error("{square} is not empty: a {piece} stands there (rule 1: drops and moves go to empty squares)")]
    Occupied {
        /// The target square.
        square: Square,
        /// The piece standing there, as players read it (`black rook`).
        piece: String,
    },
    /// A drop of a piece that is not in the game's set (rule 1).
    #[error("the {role} is not in this game's set, which is {set} (rule 1)")]
    NotInSet {
        /// The piece named.
        role: Role,
        /// The game's set, listed for the message.
        set: String,
    },
    /// A move of a piece on the board in a game played without `moving=on` (rule 1).
    #[error("pieces do not move in this game (rule 1: only with moving=on)")]
    MovingOff,
    /// A move from a square without the mover's piece.
    #[error("you have no piece on {square} to move")]
    NoOwnPiece {
        /// The square the move starts from.
        square: Square,
    },
    /// A move the piece cannot make by its chess movement (rule 2).
    #[error("the {role} on {from} cannot move to {to} (rule 2)")]
    Unreachable {
        /// The piece moved.
        role: Role,
        /// Where it stands.
        from: Square,
        /// Where it was meant to go.
        to: Square,
    },
    /// A turn after which the mover's own group would have no liberty (rule 5).
    #[error("suicide (rule 5): after this turn your {} would not be alive", describe(squares))]
    Suicide {
        /// The pieces of that group.
        squares: Vec<Square>,
    },
    /// A turn that would bring back the board as it was before the opponent's last turn (rule 6).
    #[error("ko (rule 6): this would bring back the board as it was before your opponent's last turn")]
    Ko,
    /// A kind of turn this game does not have (such as a tandem).
    #[error("Go with chess pieces has only drops, moves and passes")]
    WrongKind,
}

fn describe(squares: &[Square]) -> String {
    let names: Vec<String> = squares.iter().map(|s| s.to_string()).collect();
    match names.len() {
        1 => format!("piece on {}", names[0]),
        _ => format!("pieces on {}", names.join(", ")),
    }
}
