//! A placement of pieces on a [`Shape`]: the position type shared by the games whose
//! pieces come from the catalogue (Go with chess pieces, Chego) and usable by the others.

use std::fmt;
use std::ops::ControlFlow;

use crate::catalogue;
use crate::game::Cell;
use crate::piece::Piece;
use crate::square::{Color, MAX_SQUARES, Shape, Square, SquareSet};

/// Pieces on a board of a given shape. Equality compares the placement and the shape.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Board {
    shape: Shape,
    cells: [Option<Piece>; MAX_SQUARES],
    occupied: SquareSet,
    /// The squares of each player's pieces, `[white, black]`.
    by_color: [SquareSet; 2],
}

impl Board {
    /// A board of `shape` with nothing on it.
    #[must_use]
    pub fn empty(shape: Shape) -> Board {
        Board { shape, cells: [None; MAX_SQUARES], occupied: SquareSet::EMPTY, by_color: [SquareSet::EMPTY; 2] }
    }

    /// The grid and holes the board was made with.
    #[must_use]
    pub fn shape(&self) -> &Shape {
        &self.shape
    }

    /// The piece on `square`, if any.
    #[must_use]
    pub fn get(&self, square: Square) -> Option<Piece> {
        self.cells[square.index()]
    }

    /// Puts a piece on an existing square (replacing what stood there).
    pub fn set(&mut self, square: Square, piece: Piece) {
        debug_assert!(self.shape.contains(square), "{square} is not on the board");
        self.remove(square);
        self.cells[square.index()] = Some(piece);
        self.occupied.insert(square);
        self.by_color[piece.color.index()].insert(square);
    }

    /// Removes and returns the piece on the square.
    pub fn remove(&mut self, square: Square) -> Option<Piece> {
        let piece = self.cells[square.index()].take()?;
        self.occupied.remove(square);
        self.by_color[piece.color.index()].remove(square);
        Some(piece)
    }

    /// Every square with a piece on it, for fast scans.
    #[must_use]
    pub fn occupied(&self) -> &SquareSet {
        &self.occupied
    }

    /// The square exists and nothing stands on it.
    #[must_use]
    pub fn is_empty_square(&self, square: Square) -> bool {
        self.shape.contains(square) && !self.occupied.contains(square)
    }

    /// Every piece with its square, by rank then file.
    pub fn pieces(&self) -> impl Iterator<Item = (Square, Piece)> + '_ {
        self.occupied.iter().filter_map(|square| Some((square, self.get(square)?)))
    }

    /// The squares of one player's pieces.
    #[must_use]
    pub fn squares_of(&self, color: Color) -> SquareSet {
        self.by_color[color.index()]
    }

    /// Calls `visit` with every square the piece on `from` can move to (catalogue pieces).
    pub fn for_each_move(&self, from: Square, visit: impl FnMut(Square)) {
        if let Some(piece) = self.get(from) {
            catalogue::for_each_move(piece.role, piece.color, from, &self.shape, &self.occupied, visit);
        }
    }

    /// Like [`Board::for_each_move`], stopping when `visit` breaks (see
    /// [`catalogue::try_for_each_move`]).
    pub fn try_for_each_move<B>(&self, from: Square, visit: impl FnMut(Square) -> ControlFlow<B>) -> ControlFlow<B> {
        match self.get(from) {
            Some(piece) => {
                catalogue::try_for_each_move(piece.role, piece.color, from, &self.shape, &self.occupied, visit)
            }
            None => ControlFlow::Continue(()),
        }
    }

    /// The cells of a board view, row-major from a1.
    #[must_use]
    pub fn cells(&self) -> Vec<Cell> {
        let mut cells = Vec::with_capacity(usize::from(self.shape.width()) * usize::from(self.shape.height()));
        for rank in 0..self.shape.height() {
            for file in 0..self.shape.width() {
                let square = Square::new(file, rank).expect("the shape is within the coordinate space");
                cells.push(match self.get(square) {
                    _ if !self.shape.contains(square) => Cell::Missing,
                    Some(piece) => Cell::Piece(piece),
                    None => Cell::Empty,
                });
            }
        }
        cells
    }
}

impl fmt::Debug for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for rank in (0..self.shape.height()).rev() {
            let row: String = (0..self.shape.width())
                .filter_map(|file| Square::new(file, rank))
                .map(|square| match self.get(square) {
                    _ if !self.shape.contains(square) => '-',
                    Some(piece) => piece.char(),
                    None => '.',
                })
                .collect();
            writeln!(f, "{row}")?;
        }
        Ok(())
    }
}
