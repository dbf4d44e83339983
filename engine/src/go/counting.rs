//! Rule 10, counting: after two passes with `counting=on`, the players agree which pieces
//! are dead; the agreement is the record's last entry, `dead c3 d4 e4` (`dead -` for none).
//! The agreed pieces are removed and counted as prisoners of their opponent, then rules 8-9
//! score the board.
//!
//! The agreement is not a [`Turn`](crate::Turn): no side plays it, and it ends the game
//! whoever is to move. [`crate::AnyGame::play_text`] reads it where a record has it, so
//! replaying a record (and `stonemate replay`) needs nothing more.
//!
//! This file is the agreement's text, [`DeadPieces`]; the game applies it
//! ([`Go::agree_dead`](super::Go::agree_dead), in `game.rs`).

use std::fmt;
use std::str::FromStr;

use crate::notation::NotationError;
use crate::square::{Square, SquareSet};

/// The word that starts an agreement entry.
const DEAD: &str = "dead";

/// Longer agreement texts are refused before parsing: every square of the largest board,
/// written out, fits.
pub const MAX_DEAD_TEXT: usize = 4096;

/// A set of pieces the players agree are dead (rule 10), named by their squares.
///
/// Its text is `dead` followed by the squares in board order (`dead c3 d4 e4`), or `dead -`
/// for none; [`FromStr`] reads any order and case, and `none` for `-`, and refuses a square
/// named twice. Printing then reading gives the same set.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default)]
pub struct DeadPieces(SquareSet);

impl DeadPieces {
    /// No piece is dead (`dead -`).
    pub const NONE: DeadPieces = DeadPieces(SquareSet::EMPTY);

    /// The pieces on these squares.
    pub fn new(squares: impl IntoIterator<Item = Square>) -> DeadPieces {
        DeadPieces(squares.into_iter().collect())
    }

    /// The squares, in board order (by rank, then file).
    pub fn squares(&self) -> impl Iterator<Item = Square> + '_ {
        self.0.iter()
    }

    /// Whether the set names no piece.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// How many pieces the set names.
    #[must_use]
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// Whether `text` is written as an agreement (its first word is `dead`), right or not:
    /// record readers use it to keep the entry whole.
    #[must_use]
    pub fn is_entry(text: &str) -> bool {
        text.split_whitespace().next().is_some_and(|word| word.eq_ignore_ascii_case(DEAD))
    }
}

impl fmt::Display for DeadPieces {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(DEAD)?;
        if self.is_empty() {
            return f.write_str(" -");
        }
        for square in self.0.iter() {
            write!(f, " {square}")?;
        }
        Ok(())
    }
}

impl FromStr for DeadPieces {
    type Err = NotationError;

    fn from_str(text: &str) -> Result<DeadPieces, NotationError> {
        let unreadable = |expected| NotationError::Unreadable { text: text.trim().to_owned(), expected };
        if text.trim().is_empty() {
            return Err(NotationError::Empty);
        }
        if text.len() > MAX_DEAD_TEXT {
            let text: String = text.chars().take(40).collect();
            return Err(NotationError::Unreadable {
                text,
                expected: "an agreement names each piece once: it is too long",
            });
        }
        let mut words = text.split_whitespace();
        if !words.next().is_some_and(|word| word.eq_ignore_ascii_case(DEAD)) {
            return Err(unreadable("write the dead pieces' squares after `dead`, like dead c3 d4, or dead -"));
        }
        let words: Vec<&str> = words.collect();
        if let [none] = words.as_slice() {
            if *none == "-" || none.eq_ignore_ascii_case("none") {
                return Ok(DeadPieces::NONE);
            }
        }
        if words.is_empty() {
            return Err(unreadable("name the dead pieces' squares, like dead c3 d4, or write dead - for none"));
        }
        let mut set = SquareSet::EMPTY;
        for word in words {
            let square: Square = word.parse().map_err(|_| NotationError::OffBoard { text: word.to_owned() })?;
            if set.contains(square) {
                return Err(unreadable("name each dead piece's square once"));
            }
            set.insert(square);
        }
        Ok(DeadPieces(set))
    }
}
