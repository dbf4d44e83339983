//! Game options: `key=value` pairs read from a challenge or the command line, checked by
//! each game, and printed back in full.

use std::fmt;

use crate::square::{Shape, Square};

/// Options as `key=value` pairs, in the order given or printed.
pub type OptionPairs = Vec<(String, String)>;

/// The options of one game: read from pairs (unknown keys and bad values refused, naming
/// the key), printed back with every key (defaults included) so a record is complete.
pub trait GameOptions: Clone + fmt::Debug + PartialEq + Default + Send + Sync + 'static {
    /// Reads the options from `key=value` pairs; keys left out take their defaults.
    fn from_pairs(pairs: &[(String, String)]) -> Result<Self, OptionError>;
    /// Every option with its value, defaults included, in the order the rules list them: the text a
    /// record keeps.
    fn to_pairs(&self) -> OptionPairs;
    /// Whether the players may look at estimates of the game while it goes on.
    fn analysis(&self) -> Analysis;
}

/// The option every game has besides its own: `analysis=on` (the default) lets a player ask
/// for an estimate of the game as it stands (`/score`); `analysis=off` forbids it, as
/// servers where help during play is not wanted choose. No rule of any game depends on it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Analysis {
    /// Estimates may be asked for.
    #[default]
    On,
    /// No estimate during play.
    Off,
}

impl Analysis {
    /// The option's key.
    pub const KEY: &'static str = "analysis";

    /// Reads `on` or `off` (also yes/no, true/false) for `key`.
    pub fn parse(key: &str, value: &str) -> Result<Analysis, OptionError> {
        match value.trim().to_ascii_lowercase().as_str() {
            "on" | "yes" | "true" => Ok(Analysis::On),
            "off" | "no" | "false" => Ok(Analysis::Off),
            _ => Err(OptionError::bad(key, value, "use on or off")),
        }
    }

    /// Adds the option to a game's printed pairs, last, when it is `off`: a record without
    /// the key is read as `on`, so leaving the default out keeps every record, SGF and
    /// stored challenge written before the option existed exactly as it was.
    pub fn push_to(self, pairs: &mut OptionPairs) {
        if self == Analysis::Off {
            pairs.push((Analysis::KEY.to_owned(), "off".to_owned()));
        }
    }
}

/// An option that cannot be used.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum OptionError {
    /// A key the game does not have.
    #[error("unknown option `{key}` (this game has: {known})")]
    UnknownKey {
        /// The key as given.
        key: String,
        /// The game's keys, listed for the player.
        known: &'static str,
    },
    /// A key given twice.
    #[error("option `{key}` is given twice")]
    Repeated {
        /// The key.
        key: String,
    },
    /// A value the key does not take.
    #[error("bad value `{value}` for option `{key}`: {expected}")]
    BadValue {
        /// The key.
        key: String,
        /// The value as given.
        value: String,
        /// What the key takes, for the player.
        expected: String,
    },
    /// A word without `=` where a pair was expected.
    #[error("`{text}` is not an option: write key=value, like board=9x9")]
    NotAPair {
        /// The word.
        text: String,
    },
}

impl OptionError {
    /// A [`OptionError::BadValue`] from borrowed text, the shape every game's option reader needs.
    #[must_use]
    pub fn bad(key: &str, value: &str, expected: impl Into<String>) -> OptionError {
        OptionError::BadValue { key: key.to_owned(), value: value.to_owned(), expected: expected.into() }
    }
}

/// At most this many characters of option text are read (users type it).
pub const MAX_OPTION_TEXT: usize = 400;

/// Splits option text such as `board=9x9 pieces=N set=K1 Q1` or `set="K1 Q1"` into pairs.
/// A word without `=` continues the value before it, so that a value with spaces (a
/// Chego set, `K1 Q1 R2`) is typed as the rules write it; double quotes keep spaces too.
pub fn parse_option_text(text: &str) -> Result<OptionPairs, OptionError> {
    if text.chars().count() > MAX_OPTION_TEXT {
        let text = format!("{}…", text.chars().take(40).collect::<String>());
        return Err(OptionError::NotAPair { text });
    }
    let mut pairs = OptionPairs::new();
    for word in split_quoted(text) {
        match (word.split_once('='), pairs.last_mut()) {
            (Some((key, value)), _) if !key.trim().is_empty() => {
                pairs.push((key.trim().to_ascii_lowercase(), value.trim().trim_matches('"').to_owned()));
            }
            (None, Some((_, value))) => {
                value.push(' ');
                value.push_str(word.trim_matches('"'));
            }
            _ => return Err(OptionError::NotAPair { text: word }),
        }
    }
    Ok(pairs)
}

/// Words separated by whitespace, where double quotes keep spaces inside one word.
fn split_quoted(text: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut quoted = false;
    for ch in text.chars() {
        match ch {
            '"' => quoted = !quoted,
            ch if ch.is_whitespace() && !quoted => {
                if !word.is_empty() {
                    words.push(std::mem::take(&mut word));
                }
            }
            ch => word.push(ch),
        }
    }
    if !word.is_empty() {
        words.push(word);
    }
    words
}

/// Reads pairs against a list of known keys: each value is handed to `apply`, unknown and
/// repeated keys are refused.
pub fn read_pairs(
    pairs: &[(String, String)],
    known: &'static str,
    mut apply: impl FnMut(&str, &str) -> Option<Result<(), OptionError>>,
) -> Result<(), OptionError> {
    let mut seen: Vec<&str> = Vec::new();
    for (key, value) in pairs {
        if seen.contains(&key.as_str()) {
            return Err(OptionError::Repeated { key: key.clone() });
        }
        seen.push(key);
        match apply(key, value) {
            Some(result) => result?,
            None => return Err(OptionError::UnknownKey { key: key.clone(), known }),
        }
    }
    Ok(())
}

/// A board option: `WxH`, optionally followed by `:` and a comma-separated list of holes,
/// as in `9x9:e5,d4`. Both sides must lie in `sides`.
pub fn parse_board(key: &str, value: &str, sides: std::ops::RangeInclusive<u8>) -> Result<Shape, OptionError> {
    let expected = || {
        format!(
            "write WIDTHxHEIGHT with each side {}..={}, optionally followed by :holes, like 9x9 or 9x9:e5,d4",
            sides.start(),
            sides.end()
        )
    };
    let (size, holes) = value.split_once(':').unwrap_or((value, ""));
    let (width, height) = size
        .trim()
        .to_ascii_lowercase()
        .split_once('x')
        .map(|(w, h)| (w.trim().parse::<u8>(), h.trim().parse::<u8>()))
        .ok_or_else(|| OptionError::bad(key, value, expected()))?;
    let (Ok(width), Ok(height)) = (width, height) else {
        return Err(OptionError::bad(key, value, expected()));
    };
    if !sides.contains(&width) || !sides.contains(&height) {
        return Err(OptionError::bad(key, value, expected()));
    }
    let shape = Shape::rectangle(width, height);
    let mut hole_squares = Vec::new();
    for name in holes.split(',').map(str::trim).filter(|name| !name.is_empty()) {
        let square: Square =
            name.parse().map_err(|_| OptionError::bad(key, value, format!("`{name}` is not a square")))?;
        if !shape.on_grid(square) {
            return Err(OptionError::bad(key, value, format!("hole {square} is off the {width}x{height} board")));
        }
        hole_squares.push(square);
    }
    let shape = shape.with_holes(hole_squares);
    if shape.square_count() < 2 {
        return Err(OptionError::bad(key, value, "the board needs at least two squares"));
    }
    Ok(shape)
}

/// Prints a board option the way [`parse_board`] reads it.
#[must_use]
pub fn format_board(shape: &Shape) -> String {
    let mut text = format!("{}x{}", shape.width(), shape.height());
    if !shape.holes().is_empty() {
        let holes: Vec<String> = shape.holes().iter().map(|s| s.to_string()).collect();
        text.push(':');
        text.push_str(&holes.join(","));
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn option_text_with_quotes() {
        let pairs = parse_option_text(r#"board=9x9 Pieces=N "set=K1 Q1" komi="6.5""#).unwrap();
        let expect: OptionPairs = [("board", "9x9"), ("pieces", "N"), ("set", "K1 Q1"), ("komi", "6.5")]
            .iter()
            .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
            .collect();
        assert_eq!(pairs, expect);
        assert!(matches!(parse_option_text("board"), Err(OptionError::NotAPair { .. })));
        assert!(matches!(parse_option_text("=5 board=9x9"), Err(OptionError::NotAPair { .. })));
        assert!(parse_option_text("").unwrap().is_empty());
    }

    #[test]
    fn words_without_a_key_continue_the_value_before_them() {
        let pairs = parse_option_text("set=K1 Q1 R2 B2 N2 P8 board=8x8:d4").unwrap();
        let expect: OptionPairs = [("set", "K1 Q1 R2 B2 N2 P8"), ("board", "8x8:d4")]
            .iter()
            .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
            .collect();
        assert_eq!(pairs, expect);
        assert_eq!(parse_option_text("set=unlimited RN").unwrap(), [("set".to_owned(), "unlimited RN".to_owned())]);
    }

    #[test]
    fn board_with_holes_round_trips() {
        let shape = parse_board("board", "9x7:e5,a1", 2..=25).unwrap();
        assert_eq!((shape.width(), shape.height(), shape.square_count()), (9, 7, 61));
        assert_eq!(format_board(&shape), "9x7:a1,e5");
        assert_eq!(parse_board("board", &format_board(&shape), 2..=25).unwrap(), shape);
    }

    #[test]
    fn bad_boards_are_refused_naming_the_key() {
        for value in ["26x26", "1x9", "9", "9x", "axb", "9x9:z99", "9x9:j1", "2x1", "2x2:a1,b1,a2", "-1x5"] {
            let err = parse_board("board", value, 2..=25).unwrap_err();
            assert!(err.to_string().contains("`board`"), "{value}: {err}");
        }
    }
}
