//! Why a Gess move is refused: one variant per rule, each message quoting the squares
//! involved.

use super::direction::Direction;
use crate::notation::NotationError;
use crate::square::Square;

/// Why a Gess move is refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum GessError {
    /// The text is not a Gess move at all; the notation error says what was expected.
    #[error(transparent)]
    Notation(#[from] NotationError),
    /// The game has ended, so no further move is accepted.
    #[error("the game is over")]
    GameOver,
    /// A pass was played: a Gess player must move (rule 9).
    #[error("there is no passing in Gess (rule 9)")]
    NoPassing,
    /// A drop or other turn that is not a piece move: Gess has only moves.
    #[error("Gess has only moves, written with the piece's centre before and after, like k7-i5")]
    WrongKind,
    /// A piece's centre before or after the move off the inner 18x18 (rules 3 and 5).
    #[error(
        "{square} is not on the inner 18x18 (files b-s, ranks 2-19), where a piece's centre must stay (rules 3 and 5)"
    )]
    CentreOutside {
        /// The centre that is outside.
        square: Square,
    },
    /// A 3x3 area without a stone of the mover, which is therefore no piece of his (rule 3).
    #[error("the 3x3 area around {centre} holds none of your stones, so it is not a piece (rule 3)")]
    NoOwnStone {
        /// The centre of the area.
        centre: Square,
    },
    /// A 3x3 area that holds an opponent's stone, which is therefore no piece of the mover (rule 3).
    #[error("the 3x3 area around {centre} holds your opponent's stone on {stone}, so it is not your piece (rule 3)")]
    EnemyStoneInPiece {
        /// The centre of the area.
        centre: Square,
        /// An opponent's stone inside it.
        stone: Square,
    },
    /// A move to the square it starts from (rule 4).
    #[error("a move must go somewhere: {centre} to {centre} (rule 4)")]
    Stationary {
        /// The centre named twice.
        centre: Square,
    },
    /// A move that is not along one of the eight directions (rule 4).
    #[error("{to} is not on a line from {from}: pieces move north, south, east, west or diagonally (rule 4)")]
    NotALine {
        /// The centre before the move.
        from: Square,
        /// The centre named after it.
        to: Square,
    },
    /// A move in a direction whose edge stone the piece lacks: the stones around the centre say
    /// where it may go (rule 4).
    #[error("the piece on {centre} cannot move {direction}: there is no stone on {square} (rule 4)")]
    NoStoneForDirection {
        /// The centre of the piece.
        centre: Square,
        /// The direction of the move.
        direction: Direction,
        /// The empty square that would allow that direction.
        square: Square,
    },
    /// A move of more than three squares by a piece without a centre stone (rule 4).
    #[error(
        "the piece on {from} has no stone on its centre, so it moves 1 to 3 squares, and {to} is {distance} away (rule 4)"
    )]
    TooFar {
        /// The centre before the move.
        from: Square,
        /// The centre named after it.
        to: Square,
        /// How far that is, in squares.
        distance: u8,
    },
    /// A move past the first stone the piece meets, where it must stop (rule 5).
    #[error(
        "the piece from {from} must stop at {stop} at the latest, where it meets the stone on {stone}, so it cannot reach {to} (rule 5)"
    )]
    Blocked {
        /// The centre before the move.
        from: Square,
        /// The centre named after it.
        to: Square,
        /// The last centre the piece may reach.
        stop: Square,
        /// The stone that stops it.
        stone: Square,
    },
    /// A move that leaves the mover without a ring, which would lose at once (ruling S1).
    #[error("after {from}-{to} you would have no ring left (ruling S1: a move must leave you a ring)")]
    BreaksOwnLastRing {
        /// The centre before the move.
        from: Square,
        /// The centre after it.
        to: Square,
    },
}
