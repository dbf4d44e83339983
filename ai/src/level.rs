//! The bot's levels: `easy`, `medium` and `hard`, each a budget of nodes with a time limit.
//!
//! The node budget decides how strong a level is and keeps its play repeatable for a seed;
//! the time limit only guards the bot against a slow position on a busy machine.

use std::fmt;
use std::str::FromStr;
use std::time::Duration;

use crate::search::Budget;

/// How hard the bot tries.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Level {
    Easy,
    Medium,
    Hard,
}

impl Level {
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

    /// Playouts per turn: easy 100, medium 1,000, hard 8,000.
    #[must_use]
    pub fn nodes(self) -> u64 {
        match self {
            Level::Easy => 100,
            Level::Medium => 1_000,
            Level::Hard => 8_000,
        }
    }

    /// The most a turn may take: easy 1 s, medium 2 s, hard 10 s.
    #[must_use]
    pub fn time_limit(self) -> Duration {
        Duration::from_secs(match self {
            Level::Easy => 1,
            Level::Medium => 2,
            Level::Hard => 10,
        })
    }

    /// The level's nodes, stopped early by its time limit.
    #[must_use]
    pub fn budget(self) -> Budget {
        Budget { nodes: Some(self.nodes()), time: Some(self.time_limit()) }
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
        assert!(Level::Easy.nodes() < Level::Medium.nodes() && Level::Medium.nodes() < Level::Hard.nodes());
        assert!(Level::Medium.time_limit() <= Duration::from_secs(2));
        assert!(Level::Hard.time_limit() <= Duration::from_secs(10));
    }
}
