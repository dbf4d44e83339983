//! Definitions 1-2 and rules 4b-e and 5 of `docs/rules/chego.md`: what every piece attacks, which
//! squares are neutral or controlled, whether a placement is legal, and what it captures.
//!
//! A piece attacks exactly its catalogue moves (`catalogue.rs`, holes and ruling P1
//! included), so this file only counts.

use std::ops::ControlFlow;

use crate::board::Board;
use crate::catalogue;
use crate::game::OwnerMap;
use crate::piece::{Piece, Role};
use crate::square::{Color, MAX_SQUARES, Shape, Square, SquareSet};

use super::error::ChegoError;

/// What the pieces of one position attack (definitions 1-2).
#[derive(Debug, Clone)]
pub struct AttackMap {
    /// The squares of the pieces attacking each square, by [`Square::index`].
    attackers: Vec<SquareSet>,
    /// How many white and black pieces attack each square.
    counts: Vec<[u16; 2]>,
    /// How many empty squares the piece standing on each square attacks.
    free: Vec<u16>,
}

impl AttackMap {
    /// Counts the attacks of every piece on `board`.
    #[must_use]
    pub fn of(board: &Board) -> AttackMap {
        let mut map = AttackMap {
            attackers: vec![SquareSet::EMPTY; MAX_SQUARES],
            counts: vec![[0; 2]; MAX_SQUARES],
            free: vec![0; MAX_SQUARES],
        };
        for (from, piece) in board.pieces() {
            board.for_each_move(from, |to| {
                map.attackers[to.index()].insert(from);
                map.counts[to.index()][piece.color.index()] += 1;
                if !board.occupied().contains(to) {
                    map.free[from.index()] += 1;
                }
            });
        }
        map
    }

    /// The squares of the pieces (of both sides) attacking `square`.
    #[must_use]
    pub fn attackers(&self, square: Square) -> &SquareSet {
        &self.attackers[square.index()]
    }

    /// How many `[white, black]` pieces attack `square`.
    #[must_use]
    pub fn counts(&self, square: Square) -> [u16; 2] {
        self.counts[square.index()]
    }

    /// The side with more pieces attacking `square`; `None` when it is neutral (definition 2).
    #[must_use]
    pub fn controller(&self, square: Square) -> Option<Color> {
        let [white, black] = self.counts(square);
        match white.cmp(&black) {
            std::cmp::Ordering::Greater => Some(Color::White),
            std::cmp::Ordering::Less => Some(Color::Black),
            std::cmp::Ordering::Equal => None,
        }
    }

    /// How many empty squares the piece on `square` attacks.
    #[must_use]
    pub fn free(&self, square: Square) -> u16 {
        self.free[square.index()]
    }
}

/// Who controls each empty square (rule 8 counts these).
pub fn owner_map(board: &Board, map: &AttackMap) -> OwnerMap {
    let empty = board.shape().squares().filter(|&square| !board.occupied().contains(square));
    empty.map(|square| (square, map.controller(square))).collect()
}

/// Checks conditions b-e for placing `piece` on the empty square `to`, and returns the
/// opponent pieces the placement captures (rule 5).
///
/// Ruling C1: c-e are judged right after placing, before any capture is taken off.
pub fn judge_placement(board: &Board, map: &AttackMap, piece: Piece, to: Square) -> Result<SquareSet, ChegoError> {
    check_neutral(board, map, to)?;
    let mut occupied = *board.occupied();
    occupied.insert(to);
    check_new_piece(board.shape(), &occupied, piece, to)?;
    let own = starved(board, map, &occupied, piece.color, to);
    if !own.is_empty() {
        let starved = own.iter().filter_map(|square| Some((square, board.get(square)?.role))).collect();
        return Err(ChegoError::Suicide { starved });
    }
    Ok(starved(board, map, &occupied, piece.color.other(), to))
}

/// Condition b: the square is neutral before the drop.
fn check_neutral(board: &Board, map: &AttackMap, to: Square) -> Result<(), ChegoError> {
    if map.controller(to).is_none() {
        return Ok(());
    }
    let mut attackers: Vec<(Square, Piece)> =
        map.attackers(to).iter().filter_map(|square| Some((square, board.get(square)?))).collect();
    attackers.sort_by_key(|&(square, piece)| (piece.color, square));
    let [white, black] = map.counts(to);
    Err(ChegoError::NotNeutral { square: to, white, black, attackers })
}

/// Conditions c and d: once placed, the new piece attacks an empty square and no piece.
fn check_new_piece(shape: &Shape, occupied: &SquareSet, piece: Piece, to: Square) -> Result<(), ChegoError> {
    let mut attacks_empty = false;
    let mut hit = Vec::new();
    catalogue::for_each_move(piece.role, piece.color, to, shape, occupied, |target| {
        if occupied.contains(target) { hit.push(target) } else { attacks_empty = true }
    });
    if !attacks_empty {
        return Err(ChegoError::AttacksNoEmptySquare { role: piece.role, square: to });
    }
    if !hit.is_empty() {
        hit.sort();
        return Err(ChegoError::AttacksOccupied { role: piece.role, square: to, occupied: hit });
    }
    Ok(())
}

/// The pieces of `color` already on the board that attack no empty square once `to` is
/// occupied too.
///
/// Occupying `to` changes only what a piece attacking `to` attacks (a ray is cut at `to`
/// only if it reached it), plus what a Chinese knight whose leg is `to` attacks; every
/// other piece keeps the count of the map.
fn starved(board: &Board, map: &AttackMap, occupied: &SquareSet, color: Color, to: Square) -> SquareSet {
    let affected = map.attackers(to);
    board
        .squares_of(color)
        .iter()
        .filter(|&square| match board.get(square) {
            Some(piece) if affected.contains(square) || piece.role == Role::Horse => {
                !attacks_an_empty_square(board.shape(), occupied, square, piece)
            }
            _ => map.free(square) == 0,
        })
        .collect()
}

/// Whether the piece on `from` attacks an empty square, given the occupied squares (the
/// walk stops at the first one).
fn attacks_an_empty_square(shape: &Shape, occupied: &SquareSet, from: Square, piece: Piece) -> bool {
    let found = catalogue::try_for_each_move(piece.role, piece.color, from, shape, occupied, |target| {
        if occupied.contains(target) { ControlFlow::Continue(()) } else { ControlFlow::Break(()) }
    });
    found.is_break()
}
