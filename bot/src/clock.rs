//! The service's clock, injected so tests and the console can move time (`!advance 2d`)
//! and deadlines, reminders and timeouts can be tried without waiting days.

use std::fmt;
use std::sync::atomic::{AtomicI64, Ordering};
use std::time::{SystemTime, UNIX_EPOCH};

use serde::{Deserialize, Serialize};

/// Days per move are 0 (no clock) to this; `/extratime` gives 1 to this; the one limit
/// of the commands, the checks and the settings.
pub const MAX_DAYS: u8 = 14;

/// Milliseconds since the Unix epoch.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Timestamp(pub i64);

/// A span of time in milliseconds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default, Serialize, Deserialize)]
pub struct Span(pub i64);

impl Span {
    pub const MINUTE: Span = Span(60_000);
    pub const HOUR: Span = Span(3_600_000);
    pub const DAY: Span = Span(86_400_000);

    #[must_use]
    pub fn days(days: i64) -> Span {
        Span(days.saturating_mul(Span::DAY.0))
    }

    /// How long something waits, in a sentence: `7 days`, `1 day`, or as [`Span`]'s
    /// display (`2d 5h`) when it is not whole days.
    #[must_use]
    pub fn wait(self) -> String {
        match (self.0 / Span::DAY.0, self.0 % Span::DAY.0) {
            (1, 0) => "1 day".to_owned(),
            (days, 0) => format!("{days} days"),
            _ => self.to_string(),
        }
    }
}

impl std::ops::Add for Span {
    type Output = Span;
    fn add(self, other: Span) -> Span {
        Span(self.0.saturating_add(other.0))
    }
}

impl std::ops::Sub for Span {
    type Output = Span;
    fn sub(self, other: Span) -> Span {
        Span(self.0.saturating_sub(other.0))
    }
}

impl std::ops::Mul<i64> for Span {
    type Output = Span;
    fn mul(self, times: i64) -> Span {
        Span(self.0.saturating_mul(times))
    }
}

impl std::ops::Add<Span> for Timestamp {
    type Output = Timestamp;
    fn add(self, span: Span) -> Timestamp {
        Timestamp(self.0.saturating_add(span.0))
    }
}

impl std::ops::Sub<Span> for Timestamp {
    type Output = Timestamp;
    fn sub(self, span: Span) -> Timestamp {
        Timestamp(self.0.saturating_sub(span.0))
    }
}

impl std::ops::Sub for Timestamp {
    type Output = Span;
    fn sub(self, other: Timestamp) -> Span {
        Span(self.0.saturating_sub(other.0))
    }
}

/// `2d 5h`, `5h 30m`, `12m`, `0m`: time left as players read it.
impl fmt::Display for Span {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let minutes = self.0.max(0) / Span::MINUTE.0;
        let (days, hours, minutes) = (minutes / 1440, minutes / 60 % 24, minutes % 60);
        match (days, hours) {
            (0, 0) => write!(f, "{minutes}m"),
            (0, _) => write!(f, "{hours}h {minutes}m"),
            _ => write!(f, "{days}d {hours}h"),
        }
    }
}

/// A duration as the console writes it: `30m`, `5h`, `2d` (also `90s`).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("`{0}` is not a duration: write a number and a unit, like 30m, 5h or 2d")]
pub struct BadDuration(pub String);

impl std::str::FromStr for Span {
    type Err = BadDuration;

    fn from_str(text: &str) -> Result<Span, BadDuration> {
        let bad = || BadDuration(text.to_owned());
        let text = text.trim();
        let split = text.find(|c: char| !c.is_ascii_digit()).ok_or_else(bad)?;
        let count: i64 = text[..split].parse().map_err(|_| bad())?;
        let unit = match &text[split..] {
            "s" => 1_000,
            "m" => Span::MINUTE.0,
            "h" => Span::HOUR.0,
            "d" => Span::DAY.0,
            _ => return Err(bad()),
        };
        count.checked_mul(unit).map(Span).ok_or_else(bad)
    }
}

/// Where the service reads the time.
pub trait Clock: Send + Sync + fmt::Debug {
    fn now(&self) -> Timestamp;
}

/// The real time.
#[derive(Debug, Clone, Copy, Default)]
pub struct SystemClock;

impl Clock for SystemClock {
    fn now(&self) -> Timestamp {
        let since = SystemTime::now().duration_since(UNIX_EPOCH).unwrap_or_default();
        Timestamp(i64::try_from(since.as_millis()).unwrap_or(i64::MAX))
    }
}

/// A clock that stands still until moved: for tests, and (started at the real time) for
/// the console's `!advance`.
#[derive(Debug, Default)]
pub struct ManualClock {
    millis: AtomicI64,
}

impl ManualClock {
    #[must_use]
    pub fn at(time: Timestamp) -> ManualClock {
        ManualClock { millis: AtomicI64::new(time.0) }
    }

    pub fn advance(&self, span: Span) {
        self.millis.fetch_add(span.0, Ordering::SeqCst);
    }
}

impl Clock for ManualClock {
    fn now(&self) -> Timestamp {
        Timestamp(self.millis.load(Ordering::SeqCst))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations_read_like_the_console_writes_them() {
        assert_eq!("30m".parse(), Ok(Span(30 * 60_000)));
        assert_eq!("5h".parse(), Ok(Span(5 * 3_600_000)));
        assert_eq!("2d".parse(), Ok(Span::days(2)));
        for bad in ["", "d", "2", "2w", "-2d", "99999999999999999999d"] {
            assert!(bad.parse::<Span>().is_err(), "{bad}");
        }
    }

    #[test]
    fn time_left_prints_for_players() {
        assert_eq!(Span::days(2).to_string(), "2d 0h");
        assert_eq!(Span(5 * 3_600_000 + 30 * 60_000).to_string(), "5h 30m");
        assert_eq!(Span(-5).to_string(), "0m");
    }
}
