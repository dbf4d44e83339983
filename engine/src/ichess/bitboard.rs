//! 64-bit bitboards for iChess's fixed 8x8 board: bit `rank * 8 + file`, so `a1` is bit 0
//! and `h8` bit 63. Attack tables are built at compile time; sliders use the classical
//! ray method (the first blocker along a ray cuts it off), which needs no large tables.

use crate::square::{Color, Square};

/// A set of squares of the 8x8 board.
pub(crate) type Bitboard = u64;

/// White's four ranks: his drop zone and Black's promotion zone.
pub(crate) const WHITE_HALF: Bitboard = 0x0000_0000_FFFF_FFFF;
/// Black's four ranks: his drop zone and White's promotion zone.
pub(crate) const BLACK_HALF: Bitboard = !WHITE_HALF;
pub(crate) const RANK_1: Bitboard = 0xFF;
pub(crate) const RANK_8: Bitboard = 0xFF << 56;
pub(crate) const FILE_A: Bitboard = 0x0101_0101_0101_0101;

/// Where `color` may drop pieces: the four ranks nearest him.
pub(crate) const fn drop_zone(color: Color) -> Bitboard {
    match color {
        Color::White => WHITE_HALF,
        Color::Black => BLACK_HALF,
    }
}

/// Where `color`'s pawns may promote: the opponent's four ranks.
pub(crate) const fn promotion_zone(color: Color) -> Bitboard {
    match color {
        Color::White => BLACK_HALF,
        Color::Black => WHITE_HALF,
    }
}

/// The rank where `color`'s pawns must promote.
pub(crate) const fn last_rank(color: Color) -> Bitboard {
    match color {
        Color::White => RANK_8,
        Color::Black => RANK_1,
    }
}

#[inline]
pub(crate) const fn bit(index: u8) -> Bitboard {
    1 << index
}

/// The core square of a bit index (0..64).
pub(crate) fn square(index: u8) -> Square {
    Square::new(index % 8, index / 8).expect("an 8x8 index is a square")
}

/// The bit index of a core square, if it is on the 8x8 board.
pub(crate) fn index(square: Square) -> Option<u8> {
    (square.file() < 8 && square.rank() < 8).then(|| square.rank() * 8 + square.file())
}

/// Iterates over the bit indices of a set, lowest first.
#[inline]
pub(crate) fn squares(mut set: Bitboard) -> impl Iterator<Item = u8> {
    std::iter::from_fn(move || {
        if set == 0 {
            return None;
        }
        let index = set.trailing_zeros() as u8;
        set &= set - 1;
        Some(index)
    })
}

/// Every square on a file that holds a square of `set`.
pub(crate) fn files_of(set: Bitboard) -> Bitboard {
    let mut on_rank_1 = set;
    on_rank_1 |= on_rank_1 >> 32;
    on_rank_1 |= on_rank_1 >> 16;
    on_rank_1 |= on_rank_1 >> 8;
    (on_rank_1 & RANK_1) * FILE_A
}

const fn offset(index: usize, df: i32, dr: i32) -> Option<usize> {
    let file = (index % 8) as i32 + df;
    let rank = (index / 8) as i32 + dr;
    if file >= 0 && file < 8 && rank >= 0 && rank < 8 { Some((rank * 8 + file) as usize) } else { None }
}

const fn leaper_table(steps: &[(i32, i32)]) -> [Bitboard; 64] {
    let mut table = [0; 64];
    let mut index = 0;
    while index < 64 {
        let mut i = 0;
        while i < steps.len() {
            if let Some(to) = offset(index, steps[i].0, steps[i].1) {
                table[index] |= 1 << to;
            }
            i += 1;
        }
        index += 1;
    }
    table
}

pub(crate) const KNIGHT: [Bitboard; 64] =
    leaper_table(&[(1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2)]);
pub(crate) const KING: [Bitboard; 64] =
    leaper_table(&[(1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (1, -1), (-1, 1), (-1, -1)]);
pub(crate) const FERZ: [Bitboard; 64] = leaper_table(&[(1, 1), (1, -1), (-1, 1), (-1, -1)]);
/// The square in front of a pawn, `[color][square]`: where it moves and captures.
pub(crate) const PAWN: [[Bitboard; 64]; 2] = [leaper_table(&[(0, 1)]), leaper_table(&[(0, -1)])];

/// The eight ray directions. The first four increase the bit index, the last four
/// decrease it: the nearest blocker is the lowest or the highest bit respectively.
const DIRECTIONS: [(i32, i32); 8] = [(0, 1), (1, 0), (1, 1), (-1, 1), (0, -1), (-1, 0), (-1, -1), (1, -1)];
const NORTH: usize = 0;
const EAST: usize = 1;
const NORTH_EAST: usize = 2;
const NORTH_WEST: usize = 3;
const SOUTH: usize = 4;
const WEST: usize = 5;
const SOUTH_WEST: usize = 6;
const SOUTH_EAST: usize = 7;

const fn ray_table() -> [[Bitboard; 64]; 8] {
    let mut table = [[0; 64]; 8];
    let mut dir = 0;
    while dir < 8 {
        let mut index = 0;
        while index < 64 {
            let mut at = index;
            while let Some(to) = offset(at, DIRECTIONS[dir].0, DIRECTIONS[dir].1) {
                table[dir][index] |= 1 << to;
                at = to;
            }
            index += 1;
        }
        dir += 1;
    }
    table
}

const RAYS: [[Bitboard; 64]; 8] = ray_table();

/// The squares strictly between two squares on a common line (empty otherwise).
const fn between_table() -> [[Bitboard; 64]; 64] {
    let mut table = [[0; 64]; 64];
    let mut dir = 0;
    while dir < 8 {
        let mut from = 0;
        while from < 64 {
            let mut path: Bitboard = 0;
            let mut at = from;
            while let Some(to) = offset(at, DIRECTIONS[dir].0, DIRECTIONS[dir].1) {
                table[from][to] = path;
                path |= 1 << to;
                at = to;
            }
            from += 1;
        }
        dir += 1;
    }
    table
}

/// The whole line (edge to edge) through two aligned squares (empty if not aligned).
const fn line_table() -> [[Bitboard; 64]; 64] {
    let mut table = [[0; 64]; 64];
    let mut dir = 0;
    while dir < 4 {
        let mut from = 0;
        while from < 64 {
            let line = RAYS[dir][from] | RAYS[dir + 4][from] | (1 << from);
            let mut targets = RAYS[dir][from] | RAYS[dir + 4][from];
            while targets != 0 {
                let to = targets.trailing_zeros() as usize;
                table[from][to] = line;
                targets &= targets - 1;
            }
            from += 1;
        }
        dir += 1;
    }
    table
}

pub(crate) static BETWEEN: [[Bitboard; 64]; 64] = between_table();
pub(crate) static LINE: [[Bitboard; 64]; 64] = line_table();

#[inline]
fn ray_up(dir: usize, index: u8, occupied: Bitboard) -> Bitboard {
    let ray = RAYS[dir][usize::from(index)];
    let blockers = ray & occupied;
    if blockers == 0 { ray } else { ray ^ RAYS[dir][blockers.trailing_zeros() as usize] }
}

#[inline]
fn ray_down(dir: usize, index: u8, occupied: Bitboard) -> Bitboard {
    let ray = RAYS[dir][usize::from(index)];
    let blockers = ray & occupied;
    if blockers == 0 { ray } else { ray ^ RAYS[dir][63 - blockers.leading_zeros() as usize] }
}

/// Rook moves from `index`: empty squares along each file and rank plus the first blocker.
#[inline]
pub(crate) fn rook_attacks(index: u8, occupied: Bitboard) -> Bitboard {
    ray_up(NORTH, index, occupied)
        | ray_up(EAST, index, occupied)
        | ray_down(SOUTH, index, occupied)
        | ray_down(WEST, index, occupied)
}

/// Bishop moves from `index`, as [`rook_attacks`] along the diagonals.
#[inline]
pub(crate) fn bishop_attacks(index: u8, occupied: Bitboard) -> Bitboard {
    ray_up(NORTH_EAST, index, occupied)
        | ray_up(NORTH_WEST, index, occupied)
        | ray_down(SOUTH_WEST, index, occupied)
        | ray_down(SOUTH_EAST, index, occupied)
}

/// Rook lines from `index` on an empty board (for finding pins).
#[inline]
pub(crate) fn rook_rays(index: u8) -> Bitboard {
    let i = usize::from(index);
    RAYS[NORTH][i] | RAYS[EAST][i] | RAYS[SOUTH][i] | RAYS[WEST][i]
}

/// Bishop diagonals from `index` on an empty board (for finding pins).
#[inline]
pub(crate) fn bishop_rays(index: u8) -> Bitboard {
    let i = usize::from(index);
    RAYS[NORTH_EAST][i] | RAYS[NORTH_WEST][i] | RAYS[SOUTH_WEST][i] | RAYS[SOUTH_EAST][i]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(name: &str) -> u8 {
        index(name.parse().unwrap()).unwrap()
    }

    fn set(names: &[&str]) -> Bitboard {
        names.iter().fold(0, |acc, name| acc | bit(sq(name)))
    }

    #[test]
    fn leapers_from_a_corner() {
        assert_eq!(KNIGHT[usize::from(sq("a1"))], set(&["b3", "c2"]));
        assert_eq!(KING[usize::from(sq("h8"))], set(&["g8", "g7", "h7"]));
        assert_eq!(FERZ[usize::from(sq("d4"))], set(&["c3", "e3", "c5", "e5"]));
        assert_eq!(PAWN[0][usize::from(sq("c4"))], set(&["c5"]));
        assert_eq!(PAWN[1][usize::from(sq("c4"))], set(&["c3"]));
        assert_eq!(PAWN[0][usize::from(sq("c8"))], 0);
    }

    #[test]
    fn sliders_stop_at_the_first_blocker() {
        let occupied = set(&["d6", "b4", "f2"]);
        assert_eq!(
            rook_attacks(sq("d4"), occupied),
            set(&["d5", "d6", "d3", "d2", "d1", "c4", "b4", "e4", "f4", "g4", "h4"])
        );
        assert_eq!(
            bishop_attacks(sq("d4"), occupied),
            set(&["e5", "f6", "g7", "h8", "c5", "b6", "a7", "c3", "b2", "a1", "e3", "f2"])
        );
    }

    #[test]
    fn between_and_line() {
        assert_eq!(BETWEEN[usize::from(sq("a1"))][usize::from(sq("d4"))], set(&["b2", "c3"]));
        assert_eq!(BETWEEN[usize::from(sq("a1"))][usize::from(sq("b3"))], 0);
        assert_eq!(LINE[usize::from(sq("b1"))][usize::from(sq("b5"))], FILE_A << 1);
        assert_eq!(files_of(set(&["c4", "e7"])), (FILE_A << 2) | (FILE_A << 4));
    }
}
