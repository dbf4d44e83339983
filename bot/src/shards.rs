//! `--shards FIRST-LAST/TOTAL`: which of the bot's Discord shards this process runs, so
//! that several processes share one token (each on its own range, all with one TOTAL).
//!
//! Discord sends each server's events to shard `(server id >> 22) % TOTAL`; every process
//! must say the same TOTAL, and together their ranges cover `0..TOTAL` once.

use std::fmt;
use std::str::FromStr;

/// The most shards a bot may be split into: Discord's own shard counts fit in 16 bits
/// (and a range is booted one shard at a time, so a larger one is a typo, not a plan).
pub const MAX_TOTAL: u32 = u16::MAX as u32;

/// A range of shards, `first..=last` of `total`. Made only by [`ShardRange::new`] or
/// parsing, so `first <= last < total <= MAX_TOTAL` always holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Deserialize)]
#[serde(try_from = "String")]
pub struct ShardRange {
    first: u32,
    last: u32,
    total: u32,
}

/// Why a shard range was refused; each says what the form is.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ShardsError {
    /// The text (as given) is not a range at all.
    #[error("{0:?} is not of the form FIRST-LAST/TOTAL (e.g. 0-1/4), or N/TOTAL for one shard")]
    Malformed(String),
    /// A part of the range (as given) is not a number.
    #[error("{0:?} is not a shard number: write it with the digits 0-9 only")]
    NotANumber(String),
    /// The total is 0.
    #[error("a bot has at least 1 shard, not 0")]
    NoShards,
    #[error("{total} shards are more than the {MAX_TOTAL} a bot may have")]
    /// The total is above `MAX_TOTAL`.
    TooMany {
        /// The total given.
        total: u32,
    },
    #[error("the range {first}-{last} runs backwards: FIRST comes before LAST")]
    /// The first shard comes after the last.
    Backwards {
        /// The first shard given.
        first: u32,
        /// The last shard given.
        last: u32,
    },
    #[error("shard {last} does not exist among {total} (they are numbered 0 to {})", total - 1)]
    /// The last shard is not below the total.
    PastTheEnd {
        /// The last shard given.
        last: u32,
        /// The total given.
        total: u32,
    },
}

impl ShardRange {
    /// Shards `first..=last` of `total`, checked.
    ///
    /// # Errors
    /// When `total` is 0 or too large, or the range is backwards or reaches past `total`.
    pub fn new(first: u32, last: u32, total: u32) -> Result<ShardRange, ShardsError> {
        if total == 0 {
            return Err(ShardsError::NoShards);
        }
        if total > MAX_TOTAL {
            return Err(ShardsError::TooMany { total });
        }
        if first > last {
            return Err(ShardsError::Backwards { first, last });
        }
        if last >= total {
            return Err(ShardsError::PastTheEnd { last, total });
        }
        Ok(ShardRange { first, last, total })
    }

    /// The first shard this process runs.
    #[must_use]
    pub fn first(self) -> u32 {
        self.first
    }

    /// The last shard this process runs (inclusive).
    #[must_use]
    pub fn last(self) -> u32 {
        self.last
    }

    /// How many shards the bot has in all, over every process.
    #[must_use]
    pub fn total(self) -> u32 {
        self.total
    }

    /// Whether this range runs shard 0: that process registers the slash commands, so
    /// that N processes do not each overwrite them at every start.
    #[must_use]
    pub fn runs_first_shard(self) -> bool {
        self.first == 0
    }
}

/// A shard number: ASCII digits only (`u32::from_str` would also take `+7`).
fn number(text: &str) -> Result<u32, ShardsError> {
    let not_a_number = || ShardsError::NotANumber(text.chars().take(40).collect());
    if text.is_empty() || !text.bytes().all(|byte| byte.is_ascii_digit()) {
        return Err(not_a_number());
    }
    // Only too many digits fail here: anything past u32 is past MAX_TOTAL too.
    text.parse().map_err(|_| ShardsError::TooMany { total: u32::MAX })
}

impl FromStr for ShardRange {
    type Err = ShardsError;

    fn from_str(text: &str) -> Result<ShardRange, ShardsError> {
        let malformed = || ShardsError::Malformed(text.chars().take(40).collect());
        let (range, total) = text.trim().split_once('/').ok_or_else(malformed)?;
        let (first, last) = match range.split_once('-') {
            Some((first, last)) => (first, last),
            None => (range, range),
        };
        if first.is_empty() || last.is_empty() || total.is_empty() {
            return Err(malformed());
        }
        ShardRange::new(number(first)?, number(last)?, number(total)?)
    }
}

impl TryFrom<String> for ShardRange {
    type Error = ShardsError;

    fn try_from(text: String) -> Result<ShardRange, ShardsError> {
        text.parse()
    }
}

impl fmt::Display for ShardRange {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}-{}/{}", self.first, self.last, self.total)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> Result<ShardRange, ShardsError> {
        text.parse()
    }

    #[test]
    fn a_range_reads_and_prints_back() {
        let range = parse("0-1/4").unwrap();
        assert_eq!((range.first(), range.last(), range.total()), (0, 1, 4));
        assert_eq!(range.to_string(), "0-1/4");
        assert_eq!(parse("3-3/4").unwrap().to_string(), "3-3/4");
        assert_eq!(parse(" 2-3/4 ").unwrap(), ShardRange::new(2, 3, 4).unwrap());
    }

    #[test]
    fn one_shard_may_be_written_alone() {
        assert_eq!(parse("2/4").unwrap(), parse("2-2/4").unwrap());
        assert_eq!(parse("0/1").unwrap().to_string(), "0-0/1");
    }

    #[test]
    fn impossible_ranges_are_refused_saying_why() {
        assert_eq!(parse("0-0/0"), Err(ShardsError::NoShards));
        assert_eq!(parse("2-1/4"), Err(ShardsError::Backwards { first: 2, last: 1 }));
        assert_eq!(parse("0-4/4"), Err(ShardsError::PastTheEnd { last: 4, total: 4 }));
        assert_eq!(parse("4/4"), Err(ShardsError::PastTheEnd { last: 4, total: 4 }));
        assert_eq!(parse("0-0/65536"), Err(ShardsError::TooMany { total: 65_536 }));
        let past = parse("0-4/4").unwrap_err().to_string();
        assert_eq!(past, "shard 4 does not exist among 4 (they are numbered 0 to 3)");
    }

    #[test]
    fn hostile_input_is_refused_without_panicking() {
        for text in [
            "", "/", "-/", "0-/4", "-1/4", "0-1", "0-1/", "0-1/4/5", "0--1/4", "-1-2/4", "+0-1/4", "0-+1/4", "0-1/+4",
            "0-1/ 4", "0 -1/4", "a-b/c", "0x0-1/4", "١-٢/٤", "0-1/4\0", "0-1\n/4", "1e3/4",
        ] {
            assert!(parse(text).is_err(), "{text:?} was read");
        }
        let overflow = parse("0-99999999999999999999999/4");
        assert_eq!(overflow, Err(ShardsError::TooMany { total: u32::MAX }));
        let long = "9".repeat(10_000);
        assert!(parse(&format!("{long}/{long}")).is_err());
        // The message quotes at most 40 characters of what was typed.
        let message = parse(&"x".repeat(1000)).unwrap_err().to_string();
        assert!(message.len() < 200, "{message}");
    }

    #[test]
    fn the_first_shards_process_is_the_one_that_registers_commands() {
        assert!(parse("0-1/4").unwrap().runs_first_shard());
        assert!(!parse("2-3/4").unwrap().runs_first_shard());
    }
}
