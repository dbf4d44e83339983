//! Chogo's notation (the Notation section of the rules): every accepted spelling is read
//! into one canonical [`Turn`], so equal turns compare equal.
//!
//! - king drop `K@d2` (also `Kd2`); mole drop `e1@b6`; single move `d2-d5`;
//! - tandem: two opposite corners in either order, or the source's compressed lines
//!   (`d567`, `fgh3`, `cb3`), then `-` and the cell a leading piece reaches. Any leading
//!   piece may be named (`f3g4-d4` is `f3g4-d3`); the turn keeps the cell reached by the
//!   lowest (rank, then file) leading piece, which is also what [`Turn`]'s `Display` prints
//!   after the lower-left and upper-right corners.

use crate::notation::{self, NotationError};
use crate::piece::Role;
use crate::square::Square;
use crate::turn::{Rect, Turn};

use super::error::ChogoError;
use super::rules;

const EXPECTED: &str = "write a king drop like K@d2, a move like d2-d5, a tandem like f3g4-d3 or d567-d3, \
                        or a mole drop like e1@b6";
const EXPECTED_LINE: &str = "a compressed line names neighbouring cells on one file or rank, like d567 or fgh3";

fn unreadable(text: &str, expected: &'static str) -> NotationError {
    NotationError::Unreadable { text: text.to_owned(), expected }
}

/// Reads a turn; tandems come out with their canonical target.
pub(super) fn parse(text: &str) -> Result<Turn, ChogoError> {
    let text = notation::clean(text)?;
    if notation::is_pass(text) {
        return Ok(Turn::Pass);
    }
    if let Some((left, right)) = text.split_once('@') {
        return Ok(parse_at(text, left.trim(), right.trim())?);
    }
    if let Some((left, right)) = text.split_once('-') {
        return parse_slide(text, left.trim(), right.trim());
    }
    match notation::split_drop(text) {
        Some((Some(role), to)) => Ok(Turn::Drop { role, to: on_board(text, to)? }),
        _ => Err(unreadable(text, EXPECTED).into()),
    }
}

/// `K@d2` (a drop: one piece letter) or `e1@b6` (a mole drop: a cell).
fn parse_at(text: &str, left: &str, right: &str) -> Result<Turn, NotationError> {
    let to = cell(text, right)?;
    let mut letters = left.chars();
    if let (Some(letter), None) = (letters.next(), letters.next()) {
        let role = Role::from_letter(letter).ok_or_else(|| unreadable(text, EXPECTED))?;
        return Ok(Turn::Drop { role, to });
    }
    Ok(Turn::Relocate { from: cell(text, left)?, to })
}

/// `d2-d5`, or a tandem in any of its spellings.
fn parse_slide(text: &str, left: &str, right: &str) -> Result<Turn, ChogoError> {
    let to = cell(text, right)?;
    match source(text, left)? {
        Source::Cell(from) => Ok(Turn::movement(from, to)),
        Source::Rect(rect) => {
            let off_line = ChogoError::TandemTargetOffLine { rect, to };
            let (dir, distance) = rules::tandem_motion(rect, to).ok_or(off_line.clone())?;
            let to = rules::canonical_target(rect, dir, distance).ok_or(off_line)?;
            Ok(Turn::Tandem { from: rect, to })
        }
    }
}

/// What a move starts from: one cell, or a rectangle of a tandem.
enum Source {
    Cell(Square),
    Rect(Rect),
}

/// A run of file letters followed by a run of rank digits (`d5`, `d567`, `fgh3`).
struct Group<'a> {
    files: &'a [u8],
    ranks: &'a [u8],
}

fn groups(part: &str) -> Option<Vec<Group<'_>>> {
    let bytes = part.as_bytes();
    let mut groups = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        let letters = i + bytes[i..].iter().take_while(|b| b.is_ascii_alphabetic()).count();
        let digits = letters + bytes[letters..].iter().take_while(|b| b.is_ascii_digit()).count();
        if letters == i || digits == letters {
            return None;
        }
        groups.push(Group { files: &bytes[i..letters], ranks: &bytes[letters..digits] });
        i = digits;
    }
    Some(groups)
}

fn source(text: &str, part: &str) -> Result<Source, NotationError> {
    let groups = groups(part).ok_or_else(|| unreadable(text, EXPECTED))?;
    let at = |file: u8, rank: u8| letter_digit(part, file, rank);
    match groups.as_slice() {
        [Group { files: [f], ranks: [r] }] => Ok(Source::Cell(at(*f, *r)?)),
        [Group { files: [f1], ranks: [r1] }, Group { files: [f2], ranks: [r2] }] => {
            Ok(Source::Rect(Rect::spanning(at(*f1, *r1)?, at(*f2, *r2)?)))
        }
        [Group { files, ranks: [r] }] => {
            let cells: Result<Vec<Square>, _> = files.iter().map(|&f| at(f, *r)).collect();
            line(text, cells?)
        }
        [Group { files: [f], ranks }] => {
            let cells: Result<Vec<Square>, _> = ranks.iter().map(|&r| at(*f, r)).collect();
            line(text, cells?)
        }
        _ => Err(unreadable(text, EXPECTED)),
    }
}

/// A compressed line: distinct neighbouring cells in any order (`cb3` is b3-c3).
fn line(text: &str, mut cells: Vec<Square>) -> Result<Source, NotationError> {
    cells.sort_unstable();
    let neighbours = cells.windows(2).all(|pair| {
        let (a, b) = (pair[0], pair[1]);
        (a.rank() == b.rank() && a.file() + 1 == b.file()) || (a.file() == b.file() && a.rank() + 1 == b.rank())
    });
    match (cells.first(), cells.last()) {
        (Some(&low), Some(&high)) if neighbours => Ok(Source::Rect(Rect::spanning(low, high))),
        _ => Err(unreadable(text, EXPECTED_LINE)),
    }
}

/// One file letter and one rank digit as an existing cell.
fn letter_digit(part: &str, letter: u8, digit: u8) -> Result<Square, NotationError> {
    let off_board = || NotationError::OffBoard { text: part.to_owned() };
    let file = letter.to_ascii_lowercase().checked_sub(b'a').ok_or_else(off_board)?;
    let rank = digit.checked_sub(b'1').ok_or_else(off_board)?;
    let square = Square::new(file, rank).ok_or_else(off_board)?;
    on_board(part, square)
}

/// A cell written alone (`d5`, `b6`).
fn cell(text: &str, part: &str) -> Result<Square, NotationError> {
    let square: Square = part.parse().map_err(|_| unreadable(text, EXPECTED))?;
    on_board(part, square)
}

fn on_board(part: &str, square: Square) -> Result<Square, NotationError> {
    if rules::shape().contains(square) { Ok(square) } else { Err(NotationError::OffBoard { text: part.to_owned() }) }
}
