//! Our own record: turn texts separated by whitespace, numbered in pairs, with `#` comments
//! (the format `stonemate replay` has always read). The comments at the top say what the
//! turns alone cannot:
//!
//! ```text
//! # Stonemate #12: Go with chess pieces
//! # alice (white) vs bob (black)
//! # game: go
//! # options: board=9x9 pieces=R squares=all moving=off komi=6.5
//! # result: black won by two passes
//! 1. R@e5 R@c3
//! 2. pass pass
//! ```
//!
//! `# game: NAME` and `# options: ...` are read back; so is `--game NAME` in a comment,
//! which `/history` files have always carried in their `# replay:` line. A record without
//! them (like the files in `examples/`) reads with no game and no options: the caller
//! names the game.

use super::error::ReadError;
use super::record::{Format, Imported, Record, option_line};
use crate::game::{GameKind, Outcome};
use crate::notation::record_tokens;
use crate::options::{OptionPairs, parse_option_text};

/// Writes a record in our own format, with the comments [`read`] takes back.
#[must_use]
pub fn write(record: &Record) -> String {
    let [white, black] = record.players.each_ref().map(|name| one_line(name));
    let mut text = match &record.title {
        Some(title) => format!("# {}: {}\n", one_line(title), record.kind.title()),
        None => format!("# {}\n", record.kind.title()),
    };
    text.push_str(&format!("# {white} (white) vs {black} (black)\n"));
    text.push_str(&format!("# game: {}\n", record.kind.name()));
    text.push_str(&format!("# options: {}\n", option_line(&record.options)));
    if let Some(ending) = record.ending {
        let outcome = match ending.outcome {
            Outcome::Winner(color) => format!("{color} won"),
            Outcome::Draw => "draw".to_owned(),
        };
        text.push_str(&format!("# result: {outcome} by {}\n", ending.reason));
    }
    for (number, pair) in record.turns.chunks(2).enumerate() {
        text.push_str(&format!("{}. {}\n", number + 1, pair.join(" ")));
    }
    text
}

/// A name inside a comment line: a line break would end the comment and turn the rest into
/// turns.
fn one_line(text: &str) -> String {
    text.replace(['\n', '\r'], " ")
}

/// Reads our own record: the turns, and the game and options when its comments name them.
pub fn read(text: &str) -> Result<Imported, ReadError> {
    let mut kind = None;
    let mut options = OptionPairs::new();
    for comment in text.lines().filter_map(|line| line.split_once('#').map(|(_, comment)| comment.trim())) {
        if let Some(name) = comment.strip_prefix("game:") {
            kind = Some(name.parse::<GameKind>()?);
        } else if let Some(line) = comment.strip_prefix("options:") {
            options = parse_option_text(line)?;
        } else if let Some(name) = game_argument(comment).filter(|_| kind.is_none()) {
            kind = Some(name.parse::<GameKind>()?);
        }
    }
    Ok(Imported { format: Format::Own, kind, options, players: [None, None], turns: record_tokens(text) })
}

/// The word after `--game` in a comment such as `replay: stonemate replay --game go ...`.
fn game_argument(comment: &str) -> Option<&str> {
    let mut words = comment.split_whitespace();
    words.find(|&word| word == "--game")?;
    words.next()
}
