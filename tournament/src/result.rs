//! How a tournament game ended, as scoring and tiebreaks need it.

use serde::{Deserialize, Serialize};

use crate::ids::Colour;
use crate::points::Points;

/// The result of a finished tournament game.
///
/// A loss on time is a real loss in a game that was played (in tournaments a time-out is
/// never an abort); a forfeit is the result of a game its loser left by withdrawing, and
/// counts as not played in tiebreaks (see [`GameResult::played`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum GameResult {
    /// Won on the board: mate, resignation, the score, the game's own ending.
    Win {
        /// The winner's colour.
        winner: Colour,
    },
    /// A draw (by agreement, by the game's rules, or a jigo).
    Draw,
    /// The loser ran out of time.
    TimeOut {
        /// The winner's colour.
        winner: Colour,
    },
    /// The loser withdrew from the tournament before the game ended.
    Forfeit {
        /// The winner's colour.
        winner: Colour,
    },
}

impl GameResult {
    /// The points the player of `colour` scores: 1 for any win, ½ for a draw, 0 for a loss.
    pub fn points(self, colour: Colour) -> Points {
        match self.winner() {
            None => Points::HALF,
            Some(winner) if winner == colour => Points::ONE,
            Some(_) => Points::ZERO,
        }
    }

    /// The winner's colour, or `None` for a draw.
    pub fn winner(self) -> Option<Colour> {
        match self {
            GameResult::Win { winner } | GameResult::TimeOut { winner } | GameResult::Forfeit { winner } => {
                Some(winner)
            }
            GameResult::Draw => None,
        }
    }

    /// Whether the game counts as played: everything but a forfeit. Unplayed games give
    /// their points but take no part in tiebreaks or colour history.
    pub fn played(self) -> bool {
        !matches!(self, GameResult::Forfeit { .. })
    }
}
