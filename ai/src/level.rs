//! The bot's levels: `easy`, `medium` and `hard`, each a budget of nodes with a time limit.
//!
//! The node budget decides how strong a level is and keeps its play repeatable for a seed;
//! the time limit only guards the bot against a slow position on a busy machine. Nodes
//! cost very different times in the five games (a go playout runs to the end of the game,
//! an iChess one is eight cheap turns), so each game has its own budgets:
//!
//! | game | easy | medium | hard |
//! |---|---|---|---|
//! | Chego | 100 | 1,000 | 5,000 |
//! | Gess | 100 | 4,000 | 30,000 |
//! | iChess (hard: alpha-beta, 20 of its nodes per budget node) | 200 | 20,000 | 100,000 |
//! | go (9x9; larger boards hit the time limit) | 100 | 1,000 | 50,000 |
//! | Chogo (hard: alpha-beta, 2 of its nodes per budget node) | 100 | 5,000 | 40,000 |
//!
//! Time limits: easy 1 s, medium 2 s, hard 5 s. Go's hard budget (heavy playouts, about
//! 15,000 nodes a second on one core of the 2-core machine) takes about 3 s on 9x9 when
//! the machine is idle; the time limit caps it on a busy machine and on larger boards.

use std::fmt;
use std::str::FromStr;
use std::time::Duration;

use stonemate_engine::GameKind;

use crate::search::config::Budget;

/// How hard the bot tries.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Level {
    /// The smallest budget: quick, and easy to beat.
    Easy,
    /// The default level of a challenge to the bot.
    Medium,
    /// The largest budget and the longest time limit.
    Hard,
}

impl Level {
    /// Every level, weakest first.
    pub const ALL: [Level; 3] = [Level::Easy, Level::Medium, Level::Hard];

    /// `easy`, `medium`, `hard`.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Level::Easy => "easy",
            Level::Medium => "medium",
            Level::Hard => "hard",
        }
    }

    /// Playouts per turn in `kind` (the table above).
    #[must_use]
    pub fn nodes(self, kind: GameKind) -> u64 {
        let [easy, medium, hard] = match kind {
            GameKind::Chego => [100, 1_000, 5_000],
            GameKind::Go => [100, 1_000, 50_000],
            GameKind::Gess => [100, 4_000, 30_000],
            GameKind::IChess => [200, 20_000, 100_000],
            GameKind::Chogo => [100, 5_000, 40_000],
        };
        match self {
            Level::Easy => easy,
            Level::Medium => medium,
            Level::Hard => hard,
        }
    }

    /// The most a turn may take: easy 1 s, medium 2 s, hard 5 s (issue 29: hard at most
    /// 5 s a turn on the 2-core machine).
    #[must_use]
    pub fn time_limit(self) -> Duration {
        Duration::from_secs(match self {
            Level::Easy => 1,
            Level::Medium => 2,
            Level::Hard => 5,
        })
    }

    /// The level's nodes in `kind`, stopped early by its time limit.
    #[must_use]
    pub fn budget(self, kind: GameKind) -> Budget {
        Budget { nodes: Some(self.nodes(kind)), time: Some(self.time_limit()) }
    }
}

impl fmt::Display for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A name that is not a level.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnknownLevel(pub String);

impl fmt::Display for UnknownLevel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "there is no level called `{}` (the levels are easy, medium and hard)", self.0)
    }
}

impl std::error::Error for UnknownLevel {}

impl FromStr for Level {
    type Err = UnknownLevel;

    fn from_str(text: &str) -> Result<Level, UnknownLevel> {
        let lower = text.trim().to_ascii_lowercase();
        Level::ALL.into_iter().find(|level| level.name() == lower).ok_or_else(|| UnknownLevel(text.to_owned()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn level_names_round_trip_and_unknown_names_are_refused() {
        for level in Level::ALL {
            assert_eq!(level.name().parse::<Level>(), Ok(level));
        }
        assert_eq!("HARD".parse::<Level>(), Ok(Level::Hard));
        assert!("expert".parse::<Level>().unwrap_err().to_string().contains("easy, medium and hard"));
    }

    #[test]
    fn harder_levels_have_bigger_budgets() {
        for kind in GameKind::ALL {
            assert!(Level::Easy.nodes(kind) < Level::Medium.nodes(kind), "{kind}");
            assert!(Level::Medium.nodes(kind) < Level::Hard.nodes(kind), "{kind}");
        }
        assert!(Level::Medium.time_limit() <= Duration::from_secs(2));
        assert!(Level::Hard.time_limit() <= Duration::from_secs(10));
    }
}
