//! Why an iChess turn is refused, named after the rule it breaks.

use crate::notation::NotationError;
use crate::piece::Role;
use crate::square::Square;

/// Why an iChess turn is refused, named after the rule it breaks.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum IChessError {
    /// The text is not an iChess turn at all; the notation error says what was expected.
    #[error(transparent)]
    Notation(#[from] NotationError),
    /// The game has ended, so no further turn is accepted.
    #[error("the game is over")]
    GameOver,
    /// A pass or other turn iChess does not have.
    #[error("iChess turns are moves and drops (there is no passing)")]
    WrongKind,
    /// A square beyond the 8x8 board.
    #[error("{square} is not a square of the 8x8 board")]
    NoSuchSquare {
        /// The square named.
        square: Square,
    },
    /// A piece from the catalogue that iChess does not use (a nightrider, say).
    #[error("iChess has no {role}: its pieces are the king, queen, rook, bishop, knight, pawn and ferz")]
    NotAPiece {
        /// The piece named.
        role: Role,
    },
    /// A drop of a piece the player does not hold.
    #[error("you have no {role} in hand")]
    NotInHand {
        /// The piece named.
        role: Role,
    },
    /// A king dropped while other pieces are still in hand (rule 3).
    #[error("the king is dropped last (rule 3): drop your other pieces first")]
    KingNotLast,
    /// A drop outside the dropping side's four ranks (rule 2).
    #[error("{square} is outside your drop zone (rule 2: White drops on ranks 1-4, Black on ranks 5-8)")]
    OutsideDropZone {
        /// The target square.
        square: Square,
    },
    /// A drop onto an occupied square.
    #[error("{square} is not empty: a {piece} stands there")]
    Occupied {
        /// The target square.
        square: Square,
        /// The piece standing there, as players read it.
        piece: String,
    },
    /// A second pawn of one side on a file (rule 9).
    #[error("no doubled pawns (rule 9): you already have a pawn on the {file}-file")]
    DoublePawn {
        /// The file, as a letter.
        file: char,
    },
    /// A king dropped onto an attacked square (rule 4).
    #[error("the king may not be dropped on {square}: it is attacked (rule 4)")]
    KingDropAttacked {
        /// The target square.
        square: Square,
    },
    /// A move while the deployment of the first 16 turns is not over (rule 3).
    #[error("pieces do not move during deployment (rule 3): drop a piece from your hand, like N=b1")]
    DeploymentDropsOnly,
    /// A move from a square without the mover's piece.
    #[error("you have no piece on {square}")]
    NoOwnPiece {
        /// The square the move starts from.
        square: Square,
    },
    /// A move naming a piece that is not the one standing on its square.
    #[error("you have no {role} on {square}")]
    NoSuchPiece {
        /// The piece named.
        role: Role,
        /// The square named.
        square: Square,
    },
    /// A capture written onto an empty square.
    #[error("there is nothing to capture on {square}")]
    NothingToCapture {
        /// The empty target.
        square: Square,
    },
    /// A move onto a square held by the mover's own piece.
    #[error("your own piece stands on {square}")]
    OwnPieceOnTarget {
        /// The target square.
        square: Square,
    },
    /// A move the piece cannot make by its movement (rule 6).
    #[error("a {role} cannot go from {from} to {to} (rule 6)")]
    Unreachable {
        /// The piece moved.
        role: Role,
        /// Where it stands.
        from: Square,
        /// Where it was meant to go.
        to: Square,
    },
    /// A promotion to anything but a ferz (rule 7).
    #[error("a pawn promotes only to a ferz (rule 7), not to a {role}")]
    BadPromotion {
        /// The piece asked for.
        role: Role,
    },
    /// A promotion mark on a move of a piece that is not a pawn (rule 7).
    #[error("only pawns promote (rule 7), and this is a {role}")]
    OnlyPawnsPromote {
        /// The piece moved.
        role: Role,
    },
    /// A promotion on a square outside the opponent's four ranks (rule 7).
    #[error("{square} is outside the promotion zone (rule 7: a pawn promotes in the opponent's four ranks)")]
    PromotionOutsideZone {
        /// The target square.
        square: Square,
    },
    /// A pawn move onto the last rank written without promotion, which is forced there (rule 7).
    #[error("a pawn reaching {square}, the last rank, must promote (rule 7): write =F")]
    PromotionForced {
        /// The target square.
        square: Square,
    },
    /// A turn that leaves the mover's king in check (rule 10).
    #[error("your king is in check, and this turn does not get it out of check (rule 10)")]
    StillInCheck,
    /// A king move onto an attacked square (rule 10).
    #[error("your king may not go to {square}: it is attacked there (rule 10)")]
    KingIntoCheck {
        /// The target square.
        square: Square,
    },
    /// A move of a pinned piece that would expose its own king (rule 10).
    #[error("the piece on {from} is pinned: moving it would expose your king (rule 10)")]
    ExposesKing {
        /// The pinned piece.
        from: Square,
    },
}
