//! The service's clock, injected so tests and the console can move time (`!advance 2d`)
//! and deadlines, reminders and timeouts can be tried without waiting days.

use std::fmt;
use std::sync::atomic::{AtomicI64, Ordering};
use std::time::{SystemTime, UNIX_EPOCH};

use jiff::fmt::friendly::{Designator, Direction, Spacing, SpanParser, SpanPrinter};
use jiff::{RoundMode, SpanRound, Unit};
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
    /// One minute.
    pub const MINUTE: Span = Span(60_000);
    /// One hour.
    pub const HOUR: Span = Span(3_600_000);
    /// One day (24 hours; the bot's clocks know no time zones).
    pub const DAY: Span = Span(86_400_000);

    /// `days` days, saturating at the limits of `i64`.
    #[must_use]
    pub fn days(days: i64) -> Span {
        Span(days.saturating_mul(Span::DAY.0))
    }

    /// How long something waits, in a sentence: `7 days`, `1 day` (jiff's verbose
    /// units), or as [`Span`]'s display (`2d 5h`) when it is not whole days.
    #[must_use]
    pub fn wait(self) -> String {
        let days = (self.0 % Span::DAY.0 == 0).then(|| jiff::Span::new().try_days(self.0 / Span::DAY.0));
        match days {
            Some(Ok(days)) => SpanPrinter::new()
                .designator(Designator::Verbose)
                .spacing(Spacing::BetweenUnitsAndDesignators)
                .direction(Direction::Sign)
                .zero_unit(Unit::Day)
                .span_to_string(&days),
            _ => self.to_string(),
        }
    }

    /// Whole days, hours and minutes, balanced by jiff (a day is 24 hours: deadlines are
    /// instants, not calendar days); nothing left is zero.
    fn days_hours_minutes(self) -> (i64, i64, i64) {
        let round =
            SpanRound::new().largest(Unit::Day).smallest(Unit::Minute).mode(RoundMode::Trunc).days_are_24_hours();
        let balanced = jiff::Span::new()
            .try_milliseconds(self.0.clamp(0, LONGEST_MILLIS))
            .and_then(|span| span.round(round))
            .unwrap_or_default();
        (balanced.get_days().into(), balanced.get_hours().into(), balanced.get_minutes())
    }
}

/// The longest span jiff holds in milliseconds (about 20,000 years); longer prints as it.
const LONGEST_MILLIS: i64 = 631_107_417_600_000;

impl Timestamp {
    /// The calendar day of the instant in UTC; `None` beyond jiff's years -9999 to 9999.
    #[must_use]
    pub fn utc_date(self) -> Option<jiff::civil::Date> {
        let instant = jiff::Timestamp::from_millisecond(self.0).ok()?;
        Some(instant.to_zoned(jiff::tz::TimeZone::UTC).date())
    }

    /// The instant in UTC to the minute, as the console writes deadlines:
    /// `2026-11-24 06:40 UTC`.
    #[must_use]
    pub fn utc(self) -> String {
        // Beyond jiff's years -9999 to 9999, the nearest end of them.
        let nearest = if self.0 < 0 { jiff::Timestamp::MIN } else { jiff::Timestamp::MAX };
        let instant = jiff::Timestamp::from_millisecond(self.0).unwrap_or(nearest);
        instant.strftime("%Y-%m-%d %H:%M UTC").to_string()
    }
}

/// How the bot writes a deadline: one setting, chosen by the host (Discord or the
/// console), so no message decides it for itself.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum DeadlineStyle {
    /// Discord timestamps, `<t:UNIX:R> (<t:UNIX:f>)`: every reader sees them live ("in 2
    /// days"), in his own time zone.
    Discord,
    /// `in 2d 5h (2026-11-26 06:40 UTC)`: the console's, for a reader without Discord.
    #[default]
    Utc,
}

impl DeadlineStyle {
    /// `deadline` as a phrase that follows a word like "due" or "ends": `in 2d 5h (...)`,
    /// or `3h 0m ago (...)` once it has passed; `just now` and `in under a minute` within a
    /// minute of it.
    #[must_use]
    pub fn when(self, deadline: Timestamp, now: Timestamp) -> String {
        match self {
            DeadlineStyle::Discord => {
                let seconds = deadline.0.div_euclid(1000);
                format!("<t:{seconds}:R> (<t:{seconds}:f>)")
            }
            // Under a minute either way, "0m" would read as a glitch.
            DeadlineStyle::Utc if deadline > now && deadline - now < Span::MINUTE => {
                format!("in under a minute ({})", deadline.utc())
            }
            DeadlineStyle::Utc if deadline > now => format!("in {} ({})", deadline - now, deadline.utc()),
            DeadlineStyle::Utc if now - deadline < Span::MINUTE => format!("just now ({})", deadline.utc()),
            DeadlineStyle::Utc => format!("{} ago ({})", now - deadline, deadline.utc()),
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

/// `2d 5h`, `5h 30m`, `12m`, `0m`: time left as players read it, the two largest units
/// even when the second is zero (jiff's printer would drop it).
impl fmt::Display for Span {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.days_hours_minutes() {
            (0, 0, minutes) => write!(f, "{minutes}m"),
            (0, hours, minutes) => write!(f, "{hours}h {minutes}m"),
            (days, hours, _) => write!(f, "{days}d {hours}h"),
        }
    }
}

/// A duration as the console writes it: `30m`, `5h`, `2d` (also `90s`). It does not hold
/// the typed text: whoever shows it quotes that, cut to a readable length.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("is not a duration: write a number and a unit, like 30m, 5h or 2d")]
pub struct BadDuration;

/// jiff's friendly format (`2d`, `2 days`), held to what the console writes: one unit of
/// days, hours, minutes or seconds, not negative. Weeks and months are refused (no fixed
/// length here), and so are `1h 30m` and `2ms`.
impl std::str::FromStr for Span {
    type Err = BadDuration;

    fn from_str(text: &str) -> Result<Span, BadDuration> {
        let bad = || BadDuration;
        let span = SpanParser::new().parse_span(text.trim()).map_err(|_| bad())?;
        let others = [
            i64::from(span.get_years()),
            i64::from(span.get_months()),
            i64::from(span.get_weeks()),
            span.get_milliseconds(),
            span.get_microseconds(),
            span.get_nanoseconds(),
        ];
        let units = [
            (i64::from(span.get_days()), Span::DAY.0),
            (i64::from(span.get_hours()), Span::HOUR.0),
            (span.get_minutes(), Span::MINUTE.0),
            (span.get_seconds(), 1_000),
        ];
        let used: Vec<_> = units.into_iter().filter(|(count, _)| *count != 0).collect();
        match used[..] {
            _ if span.is_negative() || others.iter().any(|count| *count != 0) => Err(bad()),
            [] => Ok(Span(0)),
            [(count, unit)] => count.checked_mul(unit).map(Span).ok_or_else(bad),
            _ => Err(bad()),
        }
    }
}

/// Where the service reads the time.
pub trait Clock: Send + Sync + fmt::Debug {
    /// The time now.
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
    /// A clock standing at `time`.
    #[must_use]
    pub fn at(time: Timestamp) -> ManualClock {
        ManualClock { millis: AtomicI64::new(time.0) }
    }

    /// Moves the clock on by `span` (negative: back).
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
        assert_eq!("90s".parse(), Ok(Span(90_000)));
        for bad in ["", "d", "2", "2w", "-2d", "99999999999999999999d"] {
            assert!(bad.parse::<Span>().is_err(), "{bad}");
        }
    }

    #[test]
    fn durations_keep_to_one_unit_of_days_hours_minutes_or_seconds() {
        assert_eq!(" 2 days ".parse(), Ok(Span::days(2)));
        assert_eq!("0m".parse(), Ok(Span(0)));
        for bad in ["1h 30m", "1h30m", "1.5h", "2ms", "3mo", "1y", "P2D", "2d ago", "+2x"] {
            assert!(bad.parse::<Span>().is_err(), "{bad}");
        }
    }

    #[test]
    fn waits_read_in_days_when_whole() {
        assert_eq!(Span::days(7).wait(), "7 days");
        assert_eq!(Span::days(1).wait(), "1 day");
        assert_eq!(Span(0).wait(), "0 days");
        assert_eq!((Span::days(1) + Span::HOUR * 5).wait(), "1d 5h");
    }

    #[test]
    fn instants_print_in_utc_to_the_minute() {
        assert_eq!(Timestamp(1_795_502_400_000).utc(), "2026-11-24 06:40 UTC");
        assert_eq!(Timestamp(1_795_502_459_999).utc(), "2026-11-24 06:40 UTC");
        assert_eq!(Timestamp(0).utc(), "1970-01-01 00:00 UTC");
        assert!(Timestamp(i64::MAX).utc().starts_with("9999-12-"));
    }

    #[test]
    fn deadlines_are_discord_timestamps_or_utc() {
        let now = Timestamp(1_795_502_400_000);
        let due = now + Span::days(2) + Span::HOUR * 5;
        assert_eq!(DeadlineStyle::Discord.when(due, now), "<t:1795693200:R> (<t:1795693200:f>)");
        assert_eq!(DeadlineStyle::Utc.when(due, now), "in 2d 5h (2026-11-26 11:40 UTC)");
        assert_eq!(DeadlineStyle::Utc.when(now, due), "2d 5h ago (2026-11-24 06:40 UTC)");
        assert_eq!(DeadlineStyle::Discord.when(Timestamp(-1), now), "<t:-1:R> (<t:-1:f>)");
    }

    #[test]
    fn deadlines_within_a_minute_are_not_zero_minutes() {
        let now = Timestamp(1_795_502_400_000);
        assert_eq!(DeadlineStyle::Utc.when(now, now), "just now (2026-11-24 06:40 UTC)");
        assert_eq!(DeadlineStyle::Utc.when(now - Span(59_999), now), "just now (2026-11-24 06:39 UTC)");
        assert_eq!(DeadlineStyle::Utc.when(now - Span::MINUTE, now), "1m ago (2026-11-24 06:39 UTC)");
        assert_eq!(DeadlineStyle::Utc.when(now + Span(1), now), "in under a minute (2026-11-24 06:40 UTC)");
        assert_eq!(DeadlineStyle::Utc.when(now + Span::MINUTE, now), "in 1m (2026-11-24 06:41 UTC)");
    }

    #[test]
    fn time_left_prints_for_players() {
        assert_eq!(Span::days(2).to_string(), "2d 0h");
        assert_eq!(Span(5 * 3_600_000 + 30 * 60_000).to_string(), "5h 30m");
        assert_eq!(Span(-5).to_string(), "0m");
        assert_eq!(Span(23 * 3_600_000 + 59 * 60_000 + 59_999).to_string(), "23h 59m");
        assert_eq!(Span::days(3).to_string(), "3d 0h");
        assert_eq!(Span(i64::MAX).to_string(), "7304484d 0h");
    }
}
