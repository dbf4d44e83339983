//! Why `/conditional` is refused.

use stonemate_engine::TurnError;

use crate::service::types::GameId;

/// A refused conditional line.
#[derive(Debug, Clone, thiserror::Error)]
pub enum ConditionalRefusal {
    /// `/conditional` with a line while it is the caller's own turn.
    #[error("it is your turn in {0}: conditional lines are stored while your opponent is to move")]
    OwnTurn(GameId),
    /// A conditional line that is not pairs of turns.
    #[error(
        "a conditional line is pairs of turns: your opponent's expected turn, then your answer, and so on (like `e5 d4 c3 d3`)"
    )]
    Pairs,
    /// A turn of a conditional line that cannot be played where the line puts it.
    #[error("turn {number} of the line, `{turn}`, is refused: {error}")]
    Turn {
        /// Its place in the line, from 1.
        number: usize,
        /// The turn as typed.
        turn: String,
        /// Why the game refuses it.
        error: TurnError,
    },
    /// A line that answers an expected turn otherwise than one of the caller's stored
    /// lines does: only one answer can be played.
    #[error(
        "your line {line} already answers {expected} with {stored}, and only one answer can be played; to change it, remove your lines with `{clear}` and store them again"
    )]
    Conflict {
        /// The stored line's number, as `/conditional` lists them.
        line: usize,
        /// The opponent's turn both lines expect.
        expected: String,
        /// The stored line's answer to it.
        stored: String,
        /// The command that removes the caller's lines.
        clear: String,
    },
    /// A line the caller has stored already.
    #[error("you have stored this line already: it is your line {0}")]
    Duplicate(usize),
    /// Too many conditional lines or turns.
    #[error("at most {lines} conditional lines of {turns} turns each may wait in one game")]
    Limit {
        /// Lines per player and game.
        lines: usize,
        /// Turns per line.
        turns: usize,
    },
}
