//! The service's limits and defaults ([`Settings`]), and what a timeout does
//! ([`Timeouts`]): what the host (config file, console flags, tests) chooses.

use super::notices::Timing as NoticeTiming;
use super::text;
use super::types::Budget;
use crate::clock::{DeadlineStyle, Span};

/// Limits and defaults.
#[derive(Debug, Clone)]
pub struct Settings {
    /// How long a challenge waits for an answer.
    pub challenge_expiry: Span,
    /// Days per move when a challenge names none.
    pub default_days: u8,
    /// Challenges one user may have sent that wait for an answer (received ones do not
    /// count: nobody can be blocked by a flood of challenges).
    pub max_pending_challenges: usize,
    /// Challenges one user may have waiting for the answer of one opponent.
    pub max_challenges_per_opponent: usize,
    /// Games one user may be playing at once.
    pub max_active_games: usize,
    /// Positions kept replayed in memory.
    pub cached_positions: usize,
    /// Draws board pictures (the renderer's PNG; benchmarks swap it to measure the rest).
    pub render: fn(&stonemate_render::Picture) -> Vec<u8>,
    /// Draws the animated replay of `/history` (a GIF).
    pub animate: fn(&[stonemate_render::Picture]) -> Vec<u8>,
    /// How long the bot searches each turn: `None` for its level's own budget; tests and
    /// tournaments set a small node budget.
    pub bot_budget: Option<Budget>,
    /// How deadlines are written: Discord timestamps on Discord, UTC in the console.
    pub deadlines: DeadlineStyle,
    /// When the player to move is reminded, as time left before the deadline (each once
    /// per turn; points as long as the whole turn or longer are skipped).
    pub reminders: Vec<Span>,
    /// Days of `/vacation` each player may take per calendar year (UTC).
    pub vacation_days_per_year: u16,
    /// When failed notices are retried ([`NoticeTiming`]).
    pub notices: NoticeTiming,
    /// What happens when a player's time for a turn runs out ([`Timeouts`]).
    pub timeouts: Timeouts,
}

/// What happens when the player to move lets his time run out (config `timeouts`,
/// console `--timeouts`).
/// Either way, a game in which a player has not yet played a turn of his own is aborted
/// then, without result and unrated: nobody loses a game he never began.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Timeouts {
    /// He loses at once, and both players are told (as correspondence sites do).
    #[default]
    Automatic,
    /// The waiting player is told, and may `/claim` the win (or give more time).
    Claim,
}

impl std::str::FromStr for Timeouts {
    type Err = String;

    /// `automatic` or `claim`, as the config and the console's `--timeouts` write them.
    fn from_str(text: &str) -> Result<Timeouts, String> {
        match text {
            "automatic" => Ok(Timeouts::Automatic),
            "claim" => Ok(Timeouts::Claim),
            other => Err(format!("`{}` is not a timeouts mode: write automatic or claim", text::short(other))),
        }
    }
}

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            challenge_expiry: Span::days(7),
            default_days: 3,
            max_pending_challenges: 20,
            max_challenges_per_opponent: 3,
            max_active_games: 30,
            cached_positions: 512,
            render: stonemate_render::png,
            animate: stonemate_render::animation,
            bot_budget: None,
            deadlines: DeadlineStyle::default(),
            reminders: vec![Span::days(1), Span::HOUR],
            vacation_days_per_year: 30,
            notices: NoticeTiming::default(),
            timeouts: Timeouts::default(),
        }
    }
}
