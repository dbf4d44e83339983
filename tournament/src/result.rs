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

/// A result from one player's side, for crosstables: what he can check his points and
/// tiebreaks against.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum PlayerResult {
    /// He won over the board.
    Win,
    /// A draw.
    Draw,
    /// He lost over the board.
    Loss,
    /// His opponent ran out of time.
    TimeWin,
    /// He ran out of time (a loss).
    TimeLoss,
    /// His opponent withdrew before the game ended.
    ForfeitWin,
    /// He withdrew before the game ended (a loss).
    ForfeitLoss,
    /// A round without a game: one point.
    Bye,
}

impl PlayerResult {
    /// The points it is worth.
    pub fn points(self) -> Points {
        match self {
            PlayerResult::Win | PlayerResult::TimeWin | PlayerResult::ForfeitWin | PlayerResult::Bye => Points::ONE,
            PlayerResult::Draw => Points::HALF,
            PlayerResult::Loss | PlayerResult::TimeLoss | PlayerResult::ForfeitLoss => Points::ZERO,
        }
    }

    /// Whether it counts in tiebreaks: a game played over the board (not a bye or forfeit).
    pub fn played(self) -> bool {
        !matches!(self, PlayerResult::ForfeitWin | PlayerResult::ForfeitLoss | PlayerResult::Bye)
    }
}

impl GameResult {
    /// The result as the player of `colour` had it.
    pub fn for_colour(self, colour: Colour) -> PlayerResult {
        let won = self.winner() == Some(colour);
        match self {
            GameResult::Draw => PlayerResult::Draw,
            GameResult::Win { .. } if won => PlayerResult::Win,
            GameResult::Win { .. } => PlayerResult::Loss,
            GameResult::TimeOut { .. } if won => PlayerResult::TimeWin,
            GameResult::TimeOut { .. } => PlayerResult::TimeLoss,
            GameResult::Forfeit { .. } if won => PlayerResult::ForfeitWin,
            GameResult::Forfeit { .. } => PlayerResult::ForfeitLoss,
        }
    }
}
