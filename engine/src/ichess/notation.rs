//! iChess notation, per the table of the rules file.
//!
//! Printed: `Nh2`, `Rad1`, `BxNg5`, `R=a1`, `Pc5`, `Pc5=F`, with `+` or `#` appended.
//! Also read: `g4h2`, `g4-h2`, `Ng4h2`, `Ng4-h2`, `Bxg5`, `f4g5`, `f4xg5`, `c5`, `c4c5`,
//! `R@a1`, `R*a1`, `c4c5=F`, `c4c5+`, `Pc5F`. Check marks are ignored when reading, except
//! that `+` right after a coordinate pawn move into the promotion zone (`c4c5+`) is the
//! promotion mark, as in the table. A pawn move into the zone without a promotion mark
//! does not promote, except onto the last rank, where promotion is forced.
//!
//! Reading goes in two steps: the text becomes a [`Written`] turn (syntax only), which is
//! then resolved against the position. Text naming both squares resolves without looking
//! at legality, so that playing it reports the rule it breaks.

use super::bitboard as bb;
use super::error::IChessError;
use super::movegen;
use super::position::{Mv, Position, ROLES};
use crate::notation::{self as core, NotationError};
use crate::piece::Role;
use crate::square::Square;
use crate::turn::Turn;

/// A promotion written after the target square.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Promotion {
    None,
    /// `=F` or `F`.
    Explicit,
    /// A `+` straight after the target: promotion for a coordinate pawn move into the
    /// zone, a check mark otherwise.
    Plus,
}

/// A move as written, before it is matched against the position.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Written {
    role: Option<Role>,
    from_file: Option<u8>,
    from_rank: Option<u8>,
    capture: bool,
    captured: Option<Role>,
    to: u8,
    promotion: Promotion,
}

impl Written {
    fn origin(&self) -> Option<u8> {
        Some(self.from_rank? * 8 + self.from_file?)
    }
}

const EXPECTED: &str = "write a move like Nh2, Rad1, BxNg5, c5, g4h2 or c4c5=F, or a drop like R=a1";

/// Reads a turn in this position.
pub(crate) fn parse(position: &Position, text: &str) -> Result<Turn, IChessError> {
    let text = core::clean(text)?;
    let first = parse_text(position, text);
    match (&first, relaxed(text)) {
        // Phones capitalise the first letter: `E4`, `B4b5` may mean squares.
        (Err(_), Some(retry)) => parse_text(position, &retry).or(first),
        _ => first,
    }
}

/// The text with its first letter in lower case, when that letter may be a file.
fn relaxed(text: &str) -> Option<String> {
    let mut chars = text.chars();
    let first = chars.next()?;
    let rest = chars.as_str();
    let file_like = matches!(first, 'A'..='H');
    let piece_like = matches!(first, 'B' | 'F');
    let starts_digit = rest.starts_with(|c: char| c.is_ascii_digit());
    (file_like && (!piece_like || starts_digit)).then(|| format!("{}{rest}", first.to_ascii_lowercase()))
}

fn parse_text(position: &Position, text: &str) -> Result<Turn, IChessError> {
    let unreadable = || NotationError::Unreadable { text: text.to_owned(), expected: EXPECTED };
    if let Some(turn) = read_drop(text) {
        return Ok(turn);
    }
    let written = read_move(text).ok_or_else(unreadable)?;
    match written.origin() {
        Some(from) => resolve_coordinates(position, &written, from),
        None => resolve_short(position, &written, text),
    }
}

/// `R=a1`, `R@a1`, `R*a1` (check marks allowed after).
fn read_drop(text: &str) -> Option<Turn> {
    let body = text.trim_end_matches(['+', '#']);
    let mut chars = body.chars();
    let role = Role::from_letter(chars.next()?)?;
    let rest = chars.as_str().strip_prefix(['=', '@', '*'])?;
    let to = read_square(rest.as_bytes())?;
    (rest.len() == 2).then(|| Turn::Drop { role, to: bb::square(to) })
}

fn read_square(bytes: &[u8]) -> Option<u8> {
    match bytes {
        [file @ b'a'..=b'h', rank @ b'1'..=b'8', ..] => Some((rank - b'1') * 8 + (file - b'a')),
        _ => None,
    }
}

fn piece_letter(byte: u8) -> Option<Role> {
    b"KQRBNPF".contains(&byte).then(|| Role::from_letter(char::from(byte))).flatten()
}

/// Splits a move at its target square (the last square named) and reads both sides.
fn read_move(text: &str) -> Option<Written> {
    let bytes = text.as_bytes();
    let at = (0..bytes.len().saturating_sub(1)).rev().find(|&i| read_square(&bytes[i..]).is_some())?;
    let to = read_square(&bytes[at..])?;
    let mut written = read_head(&bytes[..at])?;
    written.to = to;
    written.promotion = read_tail(&bytes[at + 2..])?;
    Some(written)
}

/// What comes before the target: `[piece][file][rank][-|x[piece]]`.
fn read_head(mut head: &[u8]) -> Option<Written> {
    let mut written = Written {
        role: None,
        from_file: None,
        from_rank: None,
        capture: false,
        captured: None,
        to: 0,
        promotion: Promotion::None,
    };
    if let [first, rest @ ..] = head {
        if let Some(role) = piece_letter(*first) {
            written.role = Some(role);
            head = rest;
        }
    }
    if let [file @ b'a'..=b'h', rest @ ..] = head {
        written.from_file = Some(file - b'a');
        head = rest;
    }
    if let [rank @ b'1'..=b'8', rest @ ..] = head {
        written.from_rank = Some(rank - b'1');
        head = rest;
    }
    match head {
        [] => {}
        [b'-'] if written.origin().is_some() => {}
        [b'x'] => written.capture = true,
        [b'x', letter] => {
            written.capture = true;
            written.captured = Some(piece_letter(*letter)?);
        }
        _ => return None,
    }
    Some(written)
}

/// What comes after the target: `[=F|F|+][+|#]...`.
fn read_tail(tail: &[u8]) -> Option<Promotion> {
    let (promotion, marks) = match tail {
        [b'=', b'F' | b'f', rest @ ..] | [b'F', rest @ ..] => (Promotion::Explicit, rest),
        [b'+', rest @ ..] => (Promotion::Plus, rest),
        rest => (Promotion::None, rest),
    };
    marks.iter().all(|b| matches!(b, b'+' | b'#')).then_some(promotion)
}

/// Both squares are written: the turn is what they say; playing it checks the rules.
fn resolve_coordinates(position: &Position, written: &Written, from: u8) -> Result<Turn, IChessError> {
    let us = position.turn();
    let on_from = position.piece_at(from).filter(|piece| piece.color == us);
    if let Some(role) = written.role {
        if on_from.map(|piece| piece.role) != Some(role) {
            return Err(IChessError::NoSuchPiece { role, square: bb::square(from) });
        }
    }
    check_capture(position, written)?;
    let pawn = on_from.is_some_and(|piece| piece.role == Role::Pawn);
    let promote = match written.promotion {
        Promotion::Explicit => true,
        Promotion::Plus => pawn && bb::promotion_zone(us) & bb::bit(written.to) != 0,
        Promotion::None => pawn && bb::last_rank(us) & bb::bit(written.to) != 0,
    };
    Ok(to_turn(Mv::Move { from, to: written.to, promote }))
}

/// `x` needs something to capture, and a captured piece's letter must be right.
fn check_capture(position: &Position, written: &Written) -> Result<(), IChessError> {
    let target = position.piece_at(written.to).filter(|piece| piece.color != position.turn());
    let square = bb::square(written.to);
    match (written.capture, written.captured, target) {
        (true, _, None) => Err(IChessError::NothingToCapture { square }),
        (_, Some(role), Some(piece)) if piece.role != role => Err(IChessError::NoSuchPiece { role, square }),
        _ => Ok(()),
    }
}

/// `Nh2`, `Rad1`, `BxNg5`, `c5`, `Pc5=F`: find the piece among the legal turns.
fn resolve_short(position: &Position, written: &Written, text: &str) -> Result<Turn, IChessError> {
    check_capture(position, written)?;
    let candidates = candidates(position, written);
    let legal: Vec<Mv> = movegen::legal_moves(position).into_iter().filter(|mv| candidates.contains(mv)).collect();
    match (legal.as_slice(), candidates.as_slice()) {
        ([only], _) => Ok(to_turn(*only)),
        ([], [only]) => Ok(to_turn(*only)),
        ([], []) if position.deploying() => Err(IChessError::DeploymentDropsOnly),
        ([], _) => Err(NotationError::NoMatch { text: text.to_owned() }.into()),
        (several, _) => {
            let candidates = several.iter().map(|&mv| format(position, mv)).collect();
            Err(NotationError::Ambiguous { text: text.to_owned(), candidates }.into())
        }
    }
}

/// Moves the written text can mean by how the pieces move, before rule 10 is checked.
fn candidates(position: &Position, written: &Written) -> Vec<Mv> {
    let us = position.turn();
    let role = written.role.unwrap_or(Role::Pawn);
    let to = written.to;
    let promote = match written.promotion {
        Promotion::Explicit => true,
        _ => role == Role::Pawn && bb::last_rank(us) & bb::bit(to) != 0,
    };
    if position.color(us) & bb::bit(to) != 0 || (promote && role != Role::Pawn) {
        return Vec::new();
    }
    bb::squares(position.pieces(us, role))
        .filter(|&from| written.from_file.is_none_or(|file| from % 8 == file))
        .filter(|&from| written.from_rank.is_none_or(|rank| from / 8 == rank))
        .filter(|&from| Position::attacks(role, us, from, position.occupied()) & bb::bit(to) != 0)
        .map(|from| Mv::Move { from, to, promote })
        .collect()
}

pub(crate) fn to_turn(mv: Mv) -> Turn {
    match mv {
        Mv::Drop { role, to } => Turn::Drop { role, to: bb::square(to) },
        Mv::Move { from, to, promote } => {
            Turn::Move { from: bb::square(from), to: bb::square(to), promotion: promote.then_some(Role::Ferz) }
        }
    }
}

/// The compact form of a turn, if it names squares of the board and a ferz promotion.
pub(crate) fn from_turn(turn: Turn) -> Option<Mv> {
    match turn {
        // Other roles have no place in the position's tables: such a turn is printed plain
        // and refused by the rules.
        Turn::Drop { role, to } if ROLES.contains(&role) => Some(Mv::Drop { role, to: bb::index(to)? }),
        Turn::Move { from, to, promotion: None | Some(Role::Ferz) } => {
            let promote = matches!(turn, Turn::Move { promotion: Some(_), .. });
            Some(Mv::Move { from: bb::index(from)?, to: bb::index(to)?, promote })
        }
        _ => None,
    }
}

/// The printed form of a turn in this position: `R=a1`, `Nh2`, `Rad1`, `BxNg5`, `Pc5=F`,
/// with `+` for check and `#` for mate.
pub(crate) fn format(position: &Position, mv: Mv) -> String {
    let mut text = match mv {
        Mv::Drop { role, to } => format!("{}={}", role.letter(), bb::square(to)),
        Mv::Move { from, to, promote } => format_move(position, from, to, promote),
    };
    let mut after = *position;
    after.play(mv);
    if after.in_check() {
        text.push(if movegen::count_legal(&after) == 0 { '#' } else { '+' });
    }
    text
}

fn format_move(position: &Position, from: u8, to: u8, promote: bool) -> String {
    let Some(piece) = position.piece_at(from) else { return format!("{}-{}", bb::square(from), bb::square(to)) };
    let mut text = String::from(piece.role.letter());
    text.push_str(&disambiguation(position, piece.role, from, to));
    if let Some(taken) = position.piece_at(to) {
        text.push('x');
        text.push(taken.role.letter());
    }
    text.push_str(&bb::square(to).to_string());
    if promote {
        text.push_str("=F");
    }
    text
}

/// The file, rank or both of `from`, when another piece of the same kind could also
/// legally go to `to`.
fn disambiguation(position: &Position, role: Role, from: u8, to: u8) -> String {
    let us = position.turn();
    let rivals: Vec<u8> = movegen::legal_moves(position)
        .into_iter()
        .filter_map(|mv| match mv {
            Mv::Move { from: other, to: target, .. } if target == to && other != from => Some(other),
            _ => None,
        })
        .filter(|&other| position.pieces(us, role) & bb::bit(other) != 0)
        .collect();
    let square: Square = bb::square(from);
    let name = square.to_string();
    if rivals.is_empty() {
        String::new()
    } else if rivals.iter().all(|&other| other % 8 != from % 8) {
        name[..1].to_owned()
    } else if rivals.iter().all(|&other| other / 8 != from / 8) {
        name[1..].to_owned()
    } else {
        name
    }
}
