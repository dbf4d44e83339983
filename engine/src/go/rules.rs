//! The board rules of Go with chess pieces that look at the whole board: which pieces are
//! not alive (rule 3) and who controls each empty square (rule 8).

use std::ops::ControlFlow;

use crate::board::Board;
use crate::catalogue;
use crate::game::OwnerMap;
use crate::piece::{Piece, Role};
use crate::square::{Color, Square, SquareSet};

/// The pieces of `color` that are not alive (rule 3): alive pieces are those with a move
/// to an empty square, and, backwards from them, those that can move to an alive friend.
pub(super) fn dead_pieces(board: &Board, color: Color) -> SquareSet {
    let own = board.squares_of(color);
    let mut alive = SquareSet::EMPTY;
    let mut queue = Vec::new();
    // Only pieces without an empty move need their defence edges: (defended, defender).
    let mut edges: Vec<(Square, Square)> = Vec::new();
    for square in own.iter() {
        let mut defended = Vec::new();
        let found_empty = board.try_for_each_move(square, |to| {
            if !board.occupied().contains(to) {
                return ControlFlow::Break(());
            }
            if own.contains(to) {
                defended.push(to);
            }
            ControlFlow::Continue(())
        });
        if found_empty.is_break() {
            alive.insert(square);
            queue.push(square);
        } else {
            edges.extend(defended.into_iter().map(|to| (to, square)));
        }
    }
    edges.sort_unstable();
    while let Some(square) = queue.pop() {
        let start = edges.partition_point(|&(target, _)| target < square);
        for &(_, defender) in edges[start..].iter().take_while(|&&(target, _)| target == square) {
            if !alive.contains(defender) {
                alive.insert(defender);
                queue.push(defender);
            }
        }
    }
    let mut dead = own;
    for square in alive.iter() {
        dead.remove(square);
    }
    dead
}

/// Rule 8: who controls each empty square. A player reaches a square if one of his pieces
/// can get there by one or more of its moves, each landing on an empty square.
pub(super) fn controlled(board: &Board) -> OwnerMap {
    let reach = [reach(board, Color::White), reach(board, Color::Black)];
    board
        .shape()
        .squares()
        .filter(|&square| board.get(square).is_none())
        .map(|square| {
            let owner = match (reach[0].contains(square), reach[1].contains(square)) {
                (true, false) => Some(Color::White),
                (false, true) => Some(Color::Black),
                _ => None,
            };
            (square, owner)
        })
        .collect()
}

/// The empty squares one player's pieces can reach through empty squares.
///
/// Pieces of one role are searched together, with every piece standing. Leaving its own
/// square can only matter to the Chinese knight (a leg through its own vacated square), so
/// each of those is searched alone with its square emptied.
fn reach(board: &Board, color: Color) -> SquareSet {
    let mut reached = SquareSet::EMPTY;
    let own: Vec<(Square, Piece)> = board.pieces().filter(|(_, piece)| piece.color == color).collect();
    for role in Role::CATALOGUE {
        let starts: Vec<Square> = own.iter().filter(|(_, p)| p.role == role).map(|&(s, _)| s).collect();
        if role == Role::Horse {
            for &start in &starts {
                let mut vacated = board.clone();
                vacated.remove(start);
                flood(&vacated, Piece::new(color, role), &[start], &mut reached);
            }
        } else if !starts.is_empty() {
            flood(board, Piece::new(color, role), &starts, &mut reached);
        }
    }
    reached
}

/// Adds to `reached` every empty square a piece of this kind reaches from `starts`.
fn flood(board: &Board, piece: Piece, starts: &[Square], reached: &mut SquareSet) {
    let mut seen = SquareSet::EMPTY;
    let mut queue: Vec<Square> = starts.to_vec();
    while let Some(from) = queue.pop() {
        catalogue::for_each_move(piece.role, piece.color, from, board.shape(), board.occupied(), |to| {
            if !board.occupied().contains(to) && !seen.contains(to) {
                seen.insert(to);
                queue.push(to);
            }
        });
    }
    for square in seen.iter() {
        reached.insert(square);
    }
}
