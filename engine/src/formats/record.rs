//! What the formats write and read: a game's record, the day it started, the format's
//! name, and what reading a text found.

use crate::game::{Ending, GameKind};
use crate::options::OptionPairs;

/// Longer texts are refused before any parsing: a file is user input.
pub const MAX_RECORD_TEXT: usize = 1 << 20;

/// A game as the formats write it: what a stored game knows about itself.
#[derive(Debug, Clone, PartialEq)]
pub struct Record {
    /// Which game was played.
    pub kind: GameKind,
    /// Every option with its value, as `AnyGame::option_pairs` gives them.
    pub options: OptionPairs,
    /// The players' display names, `[white, black]`.
    pub players: [String; 2],
    /// The turns in our notation, in order.
    pub turns: Vec<String>,
    /// How the game ended, or `None` while it goes on.
    pub ending: Option<Ending>,
    /// The day the game started, when known.
    pub date: Option<Date>,
    /// A name for the game, such as `Stonemate #12` (PGN `Event`, SGF `GN`).
    pub title: Option<String>,
    /// Where it was played, such as the Discord server's name (PGN `Site`, SGF `PC`).
    pub site: Option<String>,
}

/// A calendar day (the engine has no clock: the caller says which day it is).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Date {
    /// The year, such as 2026.
    pub year: u16,
    /// The month, 1 to 12.
    pub month: u8,
    /// The day of the month, 1 to 31.
    pub day: u8,
}

/// The three kinds of text [`read`](super::read) recognises.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Format {
    /// Smart Game Format (FF\[4\]), as go editors write it.
    Sgf,
    /// Portable Game Notation, as chess programs write it.
    Pgn,
    /// Our own record: turn texts, with `#` comments that may name the game and options.
    Own,
}

impl Format {
    /// The name players know the format by (`SGF`, `PGN`, `record`).
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Format::Sgf => "SGF",
            Format::Pgn => "PGN",
            Format::Own => "record",
        }
    }
}

/// What [`read`](super::read) found in a text: enough for `stonemate replay` to play it.
#[derive(Debug, Clone, PartialEq)]
pub struct Imported {
    /// Which format the text was in.
    pub format: Format,
    /// The game, when the text says it (always for SGF and PGN; for our own record only
    /// when its comments name it, as `/history` files do).
    pub kind: Option<GameKind>,
    /// The options the text gives (empty when it gives none: the defaults apply).
    pub options: OptionPairs,
    /// The players' names, `[white, black]`, when the text gives them.
    pub players: [Option<String>; 2],
    /// The turns in our notation, not yet checked against the rules.
    pub turns: Vec<String>,
}

/// The options as one line of `key=value` words, values with spaces in double quotes, as
/// `parse_option_text` reads them back.
pub(super) fn option_line(options: &OptionPairs) -> String {
    let words: Vec<String> = options
        .iter()
        .map(|(key, value)| if value.contains(' ') { format!("{key}=\"{value}\"") } else { format!("{key}={value}") })
        .collect();
    words.join(" ")
}
