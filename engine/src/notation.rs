//! Reading turns and records: the syntax shared by the games.
//!
//! Parsing goes in two steps (see the style guide): text becomes a syntactic [`Turn`]
//! here or in a game's `parse_turn`, with a [`NotationError`] naming the text when it
//! cannot be read; the game then checks the turn against its rules.

use crate::piece::Role;
use crate::square::Square;
use crate::turn::Turn;

/// Longer turn texts are refused before any parsing (a user can type anything).
pub const MAX_TURN_TEXT: usize = 40;

/// Text that cannot be read as a turn of the game.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum NotationError {
    /// Nothing but whitespace was given.
    #[error("no turn given")]
    Empty,
    /// Text longer than any turn, refused before parsing.
    #[error("`{text}…` is too long to be a turn (at most {MAX_TURN_TEXT} characters)")]
    TooLong {
        /// The first characters of it.
        text: String,
    },
    /// The text fits none of the game's turn forms.
    #[error("`{text}` is not a turn of this game: {expected}")]
    Unreadable {
        /// The text as given.
        text: String,
        /// The forms the game reads, for the player.
        expected: &'static str,
    },
    /// The text names a square beyond the board.
    #[error("`{text}` names no square of this board")]
    OffBoard {
        /// The text as given.
        text: String,
    },
    /// Short notation that fits more than one legal turn.
    #[error("`{text}` is ambiguous: it could be {}", candidates.join(", "))]
    Ambiguous {
        /// The text as given.
        text: String,
        /// The legal turns it could mean, printed.
        candidates: Vec<String>,
    },
    /// Short notation that fits no legal turn.
    #[error("`{text}` matches no legal turn")]
    NoMatch {
        /// The text as given.
        text: String,
    },
}

/// Trims the text and refuses empty or overlong input, so games parse only sane text.
pub fn clean(text: &str) -> Result<&str, NotationError> {
    let text = text.trim();
    if text.is_empty() {
        return Err(NotationError::Empty);
    }
    if text.chars().count() > MAX_TURN_TEXT {
        let text: String = text.chars().take(MAX_TURN_TEXT).collect();
        return Err(NotationError::TooLong { text });
    }
    Ok(text)
}

/// `pass`, in any case.
#[must_use]
pub fn is_pass(text: &str) -> bool {
    text.eq_ignore_ascii_case("pass")
}

/// Reads a drop: an optional piece letter, an optional `@`, `=` or `*`, then a square
/// (`R@d4`, `Rd4`, `R=d4`, `d4`). Returns the role (if written) and the square.
///
/// The square is read case-insensitively only after a piece letter has been taken, so
/// `b4` is the square b4, and `Bb4` a bishop on b4.
#[must_use]
pub fn split_drop(text: &str) -> Option<(Option<Role>, Square)> {
    if let Ok(square) = text.parse::<Square>() {
        return Some((None, square));
    }
    let mut chars = text.chars();
    let role = Role::from_letter(chars.next()?)?;
    let rest = chars.as_str();
    let rest = rest.strip_prefix(['@', '=', '*']).unwrap_or(rest);
    let square = rest.parse::<Square>().ok()?;
    Some((Some(role), square))
}

/// Reads a plain move `d4-d7` (also `d4d7` and `d4xd7`).
#[must_use]
pub fn split_move(text: &str) -> Option<(Square, Square)> {
    let first_len = 1 + text.get(1..)?.bytes().take_while(u8::is_ascii_digit).count();
    let from = text.get(..first_len)?.parse().ok()?;
    let rest = &text[first_len..];
    // `x` is also a file letter on wide boards, so try the rest as a square first.
    let to = rest.parse().ok().or_else(|| rest.strip_prefix(['-', 'x', 'X'])?.parse().ok())?;
    Some((from, to))
}

/// Splits a record into turn texts: whitespace separates turns, `#` starts a comment to the
/// end of the line, and move numbers (`12.`, `12...`, also glued on as in `12.e4`) are
/// skipped. The word `dead` starts the agreement that ends counting in Go with chess
/// pieces (`dead c3 d4`, always the last entry), so it and every word after it make one
/// entry.
#[must_use]
pub fn record_tokens(record: &str) -> Vec<String> {
    let mut tokens = plain_tokens(record);
    if let Some(start) = tokens.iter().position(|token| token.eq_ignore_ascii_case("dead")) {
        let entry = tokens.split_off(start).join(" ");
        tokens.push(entry);
    }
    tokens
}

/// The whitespace-separated words of a record, without comments and move numbers.
fn plain_tokens(record: &str) -> Vec<String> {
    record
        .lines()
        .map(|line| line.split_once('#').map_or(line, |(before, _)| before))
        .flat_map(str::split_whitespace)
        .filter_map(|token| {
            let digits = token.bytes().take_while(u8::is_ascii_digit).count();
            let dots = token[digits..].bytes().take_while(|&b| b == b'.').count();
            let rest = &token[digits + dots..];
            match (digits, dots) {
                (d, n) if d > 0 && n > 0 => (!rest.is_empty()).then(|| rest.to_owned()),
                _ => Some(token.to_owned()),
            }
        })
        .collect()
}

/// Writes a drop the way records print it: `R@d4`.
#[must_use]
pub fn format_drop(role: Role, to: Square) -> String {
    Turn::Drop { role, to }.to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn record_tokens_skip_numbers_and_comments() {
        let record = "1. R=a1 R=h8 2. B=f4 R=f8 # a comment 3. x\n3... Nc3\n4.e4 12.. pass";
        assert_eq!(record_tokens(record), ["R=a1", "R=h8", "B=f4", "R=f8", "Nc3", "e4", "pass"]);
    }

    #[test]
    fn record_tokens_keep_the_dead_agreement_whole() {
        let record = "1. d4 pass\n2. pass pass # counting\n3. dead c3\n  D4 # both";
        assert_eq!(record_tokens(record), ["d4", "pass", "pass", "pass", "dead c3 D4"]);
        assert_eq!(record_tokens("pass pass dead -"), ["pass", "pass", "dead -"]);
    }

    #[test]
    fn drops_with_and_without_letters() {
        let d4: Square = "d4".parse().unwrap();
        assert_eq!(split_drop("d4"), Some((None, d4)));
        for text in ["R@d4", "Rd4", "R=d4", "R*d4", "r@d4"] {
            assert_eq!(split_drop(text), Some((Some(Role::Rook), d4)), "{text}");
        }
        assert_eq!(split_drop("b4"), Some((None, "b4".parse().unwrap())));
        assert_eq!(split_drop("Bb4"), Some((Some(Role::Bishop), "b4".parse().unwrap())));
        assert_eq!(split_drop("X@d4"), None);
        assert_eq!(split_drop("R@"), None);
    }

    #[test]
    fn plain_moves() {
        let pair = Some(("d4".parse().unwrap(), "d17".parse().unwrap()));
        for text in ["d4-d17", "d4d17", "d4xd17", "D4-D17"] {
            assert_eq!(split_move(text), pair, "{text}");
        }
        assert_eq!(split_move("x1x5"), Some(("x1".parse().unwrap(), "x5".parse().unwrap())));
        assert_eq!(split_move("x1-x5"), Some(("x1".parse().unwrap(), "x5".parse().unwrap())));
        assert_eq!(split_move("d4-"), None);
        assert_eq!(split_move("d4"), None);
    }

    #[test]
    fn overlong_text_is_refused() {
        assert!(matches!(clean(&"a".repeat(100)), Err(NotationError::TooLong { .. })));
        assert_eq!(clean("  "), Err(NotationError::Empty));
        assert_eq!(clean(" e4 "), Ok("e4"));
    }
}
