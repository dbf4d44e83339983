//! Results written the go way, as SGF's `RE` and go servers write them: `W+6.5`, `B+3`,
//! `B+R` (resignation), `W+T` (time), `B+F` (forfeit), `0` for a draw, `Void` for a game without result.
//!
//! A draw is written `0`, SGF's short form (it also allows `Draw`, which [`GameResult`]
//! reads): one spelling for the SGF we write and for the replies that show a result.

use std::fmt;
use std::str::FromStr;

use crate::game::{EndReason, Ending, HalfPoints, Outcome, Score};
use crate::square::Color;

/// How a game came out, in the go way.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum GameResult {
    /// A scored game won by `margin` points (`B+3`, `W+6.5`).
    Points {
        /// The side with more points.
        winner: Color,
        /// How many more.
        margin: HalfPoints,
    },
    /// The loser resigned (`B+R`).
    Resignation(Color),
    /// The loser's time ran out (`W+T`).
    Time(Color),
    /// The loser forfeited the game (`B+F`): he withdrew from its tournament.
    Forfeit(Color),
    /// A win by another rule, such as checkmate, with no margin to write (`W+`).
    Win(Color),
    /// Neither side won (`0`).
    Draw,
    /// The game was called off without result (`Void`).
    Void,
}

impl GameResult {
    /// The result of a game that ended so; `score` gives the margin of a scored game (two
    /// passes or counting). A scored ending without a score is written as a plain win.
    #[must_use]
    pub fn new(ending: Ending, score: Option<Score>) -> GameResult {
        let winner = match (ending.reason, ending.outcome) {
            (EndReason::Aborted, _) => return GameResult::Void,
            (_, Outcome::Draw) => return GameResult::Draw,
            (_, Outcome::Winner(color)) => color,
        };
        match (ending.reason, score) {
            (EndReason::Resignation, _) => GameResult::Resignation(winner),
            (EndReason::Timeout, _) => GameResult::Time(winner),
            (EndReason::Forfeit, _) => GameResult::Forfeit(winner),
            (EndReason::TwoPasses | EndReason::Counted, Some(score)) => {
                let margin = HalfPoints(score.of(winner).0 - score.of(winner.other()).0);
                GameResult::Points { winner, margin }
            }
            _ => GameResult::Win(winner),
        }
    }

    /// The side that won, `None` for a draw or a void game.
    #[must_use]
    pub fn winner(self) -> Option<Color> {
        match self {
            GameResult::Points { winner, .. }
            | GameResult::Resignation(winner)
            | GameResult::Time(winner)
            | GameResult::Forfeit(winner)
            | GameResult::Win(winner) => Some(winner),
            GameResult::Draw | GameResult::Void => None,
        }
    }
}

fn side_letter(color: Color) -> char {
    if color == Color::Black { 'B' } else { 'W' }
}

impl fmt::Display for GameResult {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            GameResult::Points { winner, margin } => write!(f, "{}+{margin}", side_letter(winner)),
            GameResult::Resignation(winner) => write!(f, "{}+R", side_letter(winner)),
            GameResult::Time(winner) => write!(f, "{}+T", side_letter(winner)),
            GameResult::Forfeit(winner) => write!(f, "{}+F", side_letter(winner)),
            GameResult::Win(winner) => write!(f, "{}+", side_letter(winner)),
            GameResult::Draw => f.write_str("0"),
            GameResult::Void => f.write_str("Void"),
        }
    }
}

/// Text that is not a result in the go way.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("`{0}` is not a result: write B+3, W+6.5, B+R, W+T, B+F, 0 or Void")]
pub struct BadResult(pub String);

/// Reads what [`GameResult`] prints, and SGF's longer forms (`Draw`, `B+Resign`,
/// `W+Time`, `B+Forfeit`).
impl FromStr for GameResult {
    type Err = BadResult;

    fn from_str(text: &str) -> Result<GameResult, BadResult> {
        let bad = || BadResult(text.to_owned());
        let text = text.trim();
        if text == "0" || text.eq_ignore_ascii_case("draw") {
            return Ok(GameResult::Draw);
        }
        if text.eq_ignore_ascii_case("void") {
            return Ok(GameResult::Void);
        }
        let (side, how) = text.split_once('+').ok_or_else(bad)?;
        let winner = match side {
            "B" | "b" => Color::Black,
            "W" | "w" => Color::White,
            _ => return Err(bad()),
        };
        Ok(match how.to_ascii_lowercase().as_str() {
            "" => GameResult::Win(winner),
            "r" | "resign" => GameResult::Resignation(winner),
            "t" | "time" => GameResult::Time(winner),
            "f" | "forfeit" => GameResult::Forfeit(winner),
            number => {
                let halves = number.parse::<f64>().map_err(|_| bad())? * 2.0;
                if !halves.is_finite() || halves.fract() != 0.0 || halves <= 0.0 || halves > 4000.0 {
                    return Err(bad());
                }
                GameResult::Points { winner, margin: HalfPoints(halves as i32) }
            }
        })
    }
}
